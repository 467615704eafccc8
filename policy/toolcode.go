package policy

import (
	"fmt"
	"strings"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/shell"
)

// An MCP server (or another host's tool the profile does not know) may
// run shell commands or SQL it is handed as an argument: a terminal
// server's execute_command {"command": "rm -rf ~"}, a database server's
// execute_sql {"query": "DROP TABLE users"}. The tool's own rule decides
// the call, as it does any tool's; what the command or statement would
// do is a risk class on the tool's subject, so a wildcard allow
// ("mcp__*", a server's every tool) never covers a destructive or
// credential-reading one (DESIGN §3.5), and a critical risk asks in every
// mode but yolo.

// commandArgNames and sqlArgNames are the argument names such tools give
// the command line and the SQL.
var (
	commandArgNames = [...]string{"command", "cmd", "script", "command_line", "commandLine", "shell_command", "shellCommand"}
	sqlArgNames     = [...]string{"sql", "query", "statement", "statements"}
)

// toolBaseName is an MCP tool's own name, after mcp__SERVER__.
func toolBaseName(tool string) string {
	if rest, ok := strings.CutPrefix(tool, "mcp__"); ok {
		if i := strings.LastIndex(rest, "__"); i >= 0 {
			return rest[i+2:]
		}
	}
	return tool
}

// runsCommandsName reports whether a tool's name says it runs the command
// line it is given (execute_command, run_command, shell, bash, exec,
// run_terminal_cmd, start_process).
func runsCommandsName(tool string) bool {
	t := toolBaseName(tool)
	for _, w := range [...]string{"command", "shell", "bash", "terminal", "exec", "process", "cmd"} {
		if containsFold(t, w) {
			return true
		}
	}
	return strings.EqualFold(t, "run")
}

// runsSQLName reports whether a tool's name says it runs the SQL it is
// given: its own name says SQL (execute_sql, run_sql), or it queries or
// executes on a server named for a database (mcp__postgres__query). A
// search tool's "query" is no SQL.
func runsSQLName(tool string) bool {
	t := toolBaseName(tool)
	if containsFold(t, "sql") {
		return true
	}
	server := ""
	if rest, ok := strings.CutPrefix(tool, "mcp__"); ok {
		if i := strings.LastIndex(rest, "__"); i >= 0 {
			server = rest[:i]
		}
	}
	db := false
	for _, w := range [...]string{"sql", "postgres", "mysql", "maria", "sqlite", "database", "supabase", "neon", "bigquery",
		"snowflake", "clickhouse", "duckdb", "oracle", "redshift", "turso", "planetscale", "cockroach", "mssql"} {
		db = db || containsFold(server, w)
	}
	// Short names count as words only ("pg", "db": not "feedback").
	for rest := server; rest != "" && !db; {
		part := rest
		if i := strings.IndexAny(rest, "-_."); i >= 0 {
			part, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		db = strings.EqualFold(part, "db") || strings.EqualFold(part, "pg")
	}
	if !db {
		return false
	}
	for _, w := range [...]string{"query", "execute", "exec", "run", "statement"} {
		if containsFold(t, w) {
			return true
		}
	}
	return false
}

// stringArg returns the first of names that the call's arguments hold as
// a non-empty string.
func stringArg(args map[string]any, names []string) (string, bool) {
	for _, n := range names {
		if v, ok := args[n].(string); ok && strings.TrimSpace(v) != "" {
			return v, true
		}
	}
	return "", false
}

// commandLine returns the command line a tool's arguments hold: a
// string, an argument vector (["bash", "-c", "rm -rf ~"]), or a program
// with its "args" vector, the vector's words quoted as the program
// receives them. ok is false when none is there; err is set for a vector
// with a word that is no string, which nobody can read.
func commandLine(args map[string]any) (line string, ok bool, err error) {
	for _, n := range commandArgNames {
		var words []any
		switch v := args[n].(type) {
		case string:
			if strings.TrimSpace(v) == "" {
				continue
			}
			line = v
			words, _ = args["args"].([]any)
		case []any:
			if len(v) == 0 {
				continue
			}
			words = v
		default:
			continue
		}
		for _, x := range words {
			w, isString := x.(string)
			if !isString {
				return "", true, fmt.Errorf("argument %v of %s is no string", x, n)
			}
			if line != "" {
				line += " "
			}
			line += "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
		return line, true, nil
	}
	return "", false, nil
}

// toolCodeRisks adds to s, the subject of a tool that runs what it is
// given, the risk classes of the command line or SQL in its arguments,
// and to d the critical risks of the command line; it returns subs with
// the files the command line reads and writes added as subjects that
// only restrict (the file rules' denies and asks count, as for a shell
// command's operands). A command line that cannot be read counts as
// code nobody can vet.
func (e *Engine) toolCodeRisks(subs []subject, s *subject, c *toolgate.Call, env *Env, d *toolgate.Decision) []subject {
	if src, ok, err := commandLine(c.Args); ok && runsCommandsName(c.Tool) {
		var a *shell.Analysis
		if err == nil {
			a, err = e.shell.AnalyzeEnv(src, e.shellVars(env.Vars, c.Cwd))
		}
		if err != nil {
			s.classes = append(s.classes, shell.ClassRisk{Class: shell.ClassInlineCode, Reason: c.Tool + " is given a command line that cannot be read: " + err.Error(), Token: c.Tool})
			return subs
		}
		for _, r := range a.Risks {
			if r.Severity == toolgate.SeverityCritical {
				d.Risks = append(d.Risks, r)
			}
		}
		for i := range a.Commands {
			cmd := &a.Commands[i]
			for _, cr := range cmd.Classes {
				cr.Reason = c.Tool + " runs `" + cmd.Text + "`, which " + cr.Reason
				s.classes = append(s.classes, cr)
			}
			if cmd.Opaque {
				s.classes = append(s.classes, shell.ClassRisk{Class: shell.ClassInlineCode, Reason: c.Tool + " runs `" + cmd.Text + "`, whose program is known only when it runs", Token: c.Tool})
			}
		}
		from := len(subs)
		subs = e.analysisFiles(subs, a, c, *s, d)
		for i := from; i < len(subs); i++ {
			subs[i].restrict = true
		}
		return subs
	}
	if q, ok := stringArg(c.Args, sqlArgNames[:]); ok && runsSQLName(c.Tool) && shell.SQLDestroys(q) {
		s.classes = append(s.classes, shell.ClassRisk{Class: shell.ClassDestructive, Reason: c.Tool + " runs SQL that drops or empties data: " + clipText(q, 80), Token: c.Tool})
	}
	return subs
}

// clipText is s cut to n bytes with an ellipsis.
func clipText(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
