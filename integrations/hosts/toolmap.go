package hosts

import (
	"fmt"
	"strings"
)

// toolName maps one host's tool to Claude Code's, whose names and
// argument names the policy's tool table and most rules are written in:
// host is the host's name for the tool, tool Claude Code's, and args
// renames the host's argument names to Claude Code's (host name, Claude
// Code name, …). A tool not in a host's table keeps its name and
// arguments, and the policy decides it as the tool it does not know
// (which asks).
type toolName struct {
	host, tool string
	args       []string
}

// opencodeTools are opencode's built-in tools (packages/opencode/src/tool).
var opencodeTools = [...]toolName{
	{"bash", "Bash", nil},
	{"read", "Read", []string{"filePath", "file_path"}},
	{"write", "Write", []string{"filePath", "file_path"}},
	{"edit", "Edit", []string{"filePath", "file_path", "oldString", "old_string", "newString", "new_string", "replaceAll", "replace_all"}},
	{"glob", "Glob", nil},
	{"grep", "Grep", []string{"include", "glob"}},
	{"list", "LS", nil},
	{"webfetch", "WebFetch", nil},
	{"websearch", "WebSearch", nil},
	{"task", "Task", []string{"subagent_type", "subagent_type"}},
	{"todowrite", "TodoWrite", nil},
	{"todoread", "TodoRead", nil},
}

// copilotTools are GitHub Copilot CLI's built-in tools.
var copilotTools = [...]toolName{
	{"bash", "Bash", nil},
	{"view", "Read", []string{"path", "file_path"}},
	{"create", "Write", []string{"path", "file_path", "file_text", "content"}},
	{"edit", "Edit", []string{"path", "file_path", "old_str", "old_string", "new_str", "new_string"}},
	{"str_replace", "Edit", []string{"path", "file_path", "old_str", "old_string", "new_str", "new_string"}},
	{"glob", "Glob", nil},
	{"grep", "Grep", nil},
	{"web_fetch", "WebFetch", nil},
}

// mapTool renames a host's tool and its arguments to Claude Code's by a
// table. The arguments are copied, never changed in place. Two arguments
// that would get one name (the host's path and a file_path beside it) are
// an error: the host runs the one under its own name, and the policy
// would decide whichever a map's order kept.
func mapTool(table []toolName, name string, args map[string]any) (string, map[string]any, error) {
	for _, t := range table {
		if t.host != name {
			continue
		}
		if len(t.args) == 0 {
			return t.tool, args, nil
		}
		out := make(map[string]any, len(args))
		for k, v := range args {
			r := renameArg(t.args, k, 0)
			if _, dup := out[r]; dup {
				return "", nil, fmt.Errorf("the %s call has two arguments that both mean %s (%s)", name, r, strings.Join(argsNamed(t.args, r), " and "))
			}
			out[r] = v
		}
		return t.tool, out, nil
	}
	return name, args, nil
}

// argsNamed lists the host's argument names that mean Claude Code's name
// r: the one renamed to it, and r itself.
func argsNamed(pairs []string, r string) []string {
	var names []string
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] == r {
			names = append(names, pairs[i])
		}
	}
	return append(names, r)
}

// unmapArgs renames Claude Code's argument names back to the host's, for
// an input a human changed.
func unmapArgs(table []toolName, name string, args map[string]any) map[string]any {
	for _, t := range table {
		if t.host != name || len(t.args) == 0 {
			continue
		}
		out := make(map[string]any, len(args))
		for k, v := range args {
			out[renameArg(t.args, k, 1)] = v
		}
		return out
	}
	return args
}

// renameArg renames k by pairs, from side from (0: host→Claude Code, 1:
// back).
func renameArg(pairs []string, k string, from int) string {
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+from] == k {
			return pairs[i+1-from]
		}
	}
	return k
}

// mcpName is Claude Code's name of an MCP tool.
func mcpName(server, tool string) string {
	return "mcp__" + strings.ReplaceAll(server, "__", "_") + "__" + tool
}
