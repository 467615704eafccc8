package shell

import (
	"strings"
)

// ExecFlagRule marks flags of a command that make it run other programs,
// write arbitrary files or otherwise escape what a wildcard allow rule
// ("find *", "git *") was meant to cover. A command with such a flag
// records it in Command.ExecFlags, and only a rule naming it literally can
// allow the command.
type ExecFlagRule struct {
	// Command is the command's base name ("find").
	Command string
	// Sub restricts the rule to a subcommand, the first operand after the
	// command's global options ("rebase" for git rebase). With no Flags,
	// the subcommand word itself is the exec-capable word ("filter-branch").
	Sub string
	// Global restricts the rule to options before the subcommand (git -c).
	Global bool
	// Flags are the exec-capable flags as written: "-exec", "--pre", "-i".
	// A long flag also matches "--flag=value"; a single-letter flag also
	// matches with an attached value ("-oProxyCommand=…"). A flag without a
	// leading dash matches an operand word ("foreach" for git submodule).
	Flags []string
	// Short makes single-letter flags match inside combined short options
	// too ("sed -ni", "tar -xIzstd").
	Short bool
	// Values, when set, limits the rule to flags whose value starts with one
	// of them, case-insensitively (ssh -o ProxyCommand=…). The value word is
	// then what is recorded.
	Values []string
	// Script marks the flag's value as a shell command line: it is parsed
	// and its commands become subjects too (rsync -e, tar --to-command).
	Script bool
	// Check, when set, inspects the command's arguments and returns the
	// exec-capable words it finds (sed scripts with w/e commands, awk
	// programs calling system()).
	Check func(args []string) []string
}

// BuiltinExecFlags returns a copy of the built-in exec-capable flag table;
// WithExecFlags extends it.
func BuiltinExecFlags() []ExecFlagRule {
	return append([]ExecFlagRule(nil), builtinExecFlags...)
}

// builtinExecFlags is the built-in exec-capable flag table.
var builtinExecFlags = []ExecFlagRule{
	{Command: "find", Flags: []string{"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"}},
	{Command: "git", Global: true, Flags: []string{"-c", "--config-env", "-p", "--paginate", "--exec-path"}},
	{Command: "git", Sub: "rebase", Flags: []string{"--exec", "-x"}, Script: true},
	{Command: "git", Sub: "submodule", Flags: []string{"foreach"}},
	{Command: "git", Sub: "bisect", Flags: []string{"run"}},
	{Command: "git", Sub: "difftool", Flags: []string{"-x", "--extcmd"}, Script: true},
	{Command: "git", Sub: "mergetool", Flags: []string{"--tool"}},
	{Command: "git", Sub: "grep", Flags: []string{"-O", "--open-files-in-pager"}},
	{Command: "git", Sub: "filter-branch"},
	// Setting git configuration makes later git commands run code
	// (core.fsmonitor, core.pager, core.sshCommand, core.hooksPath,
	// alias.*, diff.external, filter.*): "config" must be named.
	{Command: "git", Check: gitConfigCheck},
	// Templates carry hooks; clone -c sets configuration in the new
	// repository; --upload-pack and friends name the program to run.
	{Command: "git", Sub: "clone", Flags: []string{"--template", "-c", "--config", "-u", "--upload-pack"}},
	{Command: "git", Sub: "init", Flags: []string{"--template"}},
	{Command: "git", Sub: "fetch", Flags: []string{"--upload-pack"}},
	{Command: "git", Sub: "pull", Flags: []string{"--upload-pack"}},
	{Command: "git", Sub: "ls-remote", Flags: []string{"--upload-pack"}},
	{Command: "git", Sub: "push", Flags: []string{"--receive-pack", "--exec"}},
	{Command: "git", Sub: "archive", Flags: []string{"--exec"}},
	{Command: "git", Sub: "filter-repo"},
	{Command: "rg", Flags: []string{"--pre", "--hostname-bin"}},
	{Command: "sed", Flags: []string{"-i", "-f"}, Short: true},
	{Command: "sed", Flags: []string{"--in-place", "--file"}},
	{Command: "sed", Check: sedScripts},
	{Command: "tar", Flags: []string{"-I", "-F"}, Short: true},
	{Command: "tar", Flags: []string{"--to-command", "--use-compress-program", "--checkpoint-action", "--info-script", "--new-volume-script"}, Script: true},
	{Command: "tar", Check: tarOldStyle},
	{Command: "rsync", Flags: []string{"-e"}, Short: true, Script: true},
	{Command: "rsync", Flags: []string{"--rsh", "--rsync-path"}, Script: true},
	{Command: "ssh", Flags: []string{"-o"}, Short: true, Values: []string{"ProxyCommand", "LocalCommand", "PermitLocalCommand", "KnownHostsCommand"}},
	{Command: "scp", Flags: []string{"-o"}, Short: true, Values: []string{"ProxyCommand", "LocalCommand", "PermitLocalCommand", "KnownHostsCommand"}},
	{Command: "scp", Flags: []string{"-S"}, Short: true},
	{Command: "sftp", Flags: []string{"-S", "-D"}, Short: true},
	{Command: "awk", Check: awkPrograms},
	{Command: "gawk", Check: awkPrograms},
	{Command: "mawk", Check: awkPrograms},
	{Command: "nawk", Check: awkPrograms},
	{Command: "sort", Flags: []string{"--compress-program"}},
	{Command: "split", Flags: []string{"--filter"}, Script: true},
	{Command: "curl", Flags: []string{"-K", "--config"}},
	{Command: "wget", Flags: []string{"-e", "--execute", "--config", "--use-askpass"}},
	{Command: "zip", Flags: []string{"-TT", "--unzip-command"}},
	{Command: "fd", Flags: []string{"-x", "-X"}, Short: true},
	{Command: "fd", Flags: []string{"--exec", "--exec-batch"}},
	{Command: "fdfind", Flags: []string{"-x", "-X", "--exec", "--exec-batch"}},
	{Command: "less", Flags: []string{"-o", "-O", "--log-file", "--LOG-FILE"}},
	{Command: "man", Flags: []string{"-P", "--pager", "-H", "--html"}},
	{Command: "jq", Flags: []string{"--rawfile", "--slurpfile"}},
	{Command: "vim", Flags: []string{"-c", "--cmd", "-S"}},
	{Command: "nvim", Flags: []string{"-c", "--cmd", "-S"}},
}

// execFlags returns the exec-capable flags in args and the shell command
// lines given as values of Script flags.
func (w *walker) execFlags(name string, args []string) (flags, scripts []string) {
	rules := w.a.execFlags[name]
	if len(rules) == 0 {
		return nil, nil
	}
	sub := -1 // index of the subcommand in args
	for ri := range rules {
		r := &rules[ri]
		if r.Check != nil {
			flags = appendNew(flags, r.Check(args)...)
		}
		if len(r.Flags) == 0 && r.Sub == "" {
			continue
		}
		from, to := 0, len(args)
		if r.Global || r.Sub != "" {
			if sub < 0 {
				sub = subcommand(name, args)
			}
			if r.Global {
				to = sub
			} else {
				if sub >= len(args) || args[sub] != r.Sub {
					continue
				}
				if len(r.Flags) == 0 {
					flags = appendNew(flags, r.Sub)
					continue
				}
				from = sub + 1
			}
		}
		for i := from; i < to; i++ {
			a := args[i]
			if a == "--" && r.Sub == "" {
				break
			}
			for _, f := range r.Flags {
				rec, val, hasVal := matchFlag(a, f, r.Short)
				if rec == "" {
					continue
				}
				if !hasVal && i+1 < len(args) && strings.HasPrefix(f, "-") {
					val = args[i+1]
				}
				if len(r.Values) > 0 {
					if !prefixFold(val, r.Values) {
						continue
					}
					if !hasVal {
						rec = val
					}
				}
				flags = appendNew(flags, rec)
				if r.Script && val != "" {
					scripts = append(scripts, val)
				}
			}
		}
	}
	return flags, scripts
}

// matchFlag matches argument a against flag f. It returns the word to
// record ("" for no match) and the flag's attached value, if any.
func matchFlag(a, f string, short bool) (rec, val string, hasVal bool) {
	if a == f {
		return f, "", false
	}
	switch {
	case !strings.HasPrefix(f, "-"):
		return "", "", false
	case strings.HasPrefix(f, "--"):
		if strings.HasPrefix(a, f+"=") {
			return f, a[len(f)+1:], true
		}
	case len(f) == 2:
		if len(a) < 2 || a[0] != '-' || a[1] == '-' {
			return "", "", false
		}
		if strings.HasPrefix(a, f) {
			return a, a[2:], true
		}
		if short {
			if j := strings.IndexByte(a[1:], f[1]); j >= 0 {
				rest := a[j+2:]
				return a, rest, rest != ""
			}
		}
	}
	return "", "", false
}

func prefixFold(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) {
			return true
		}
	}
	return false
}

func appendNew(list []string, add ...string) []string {
	for _, a := range add {
		if !contains(list, a) {
			list = append(list, a)
		}
	}
	return list
}

// gitValueOpts are git's global options that take the next word as value.
var gitValueOpts = []string{"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--exec-path", "--list-cmds", "--attr-source"}

// subcommand returns the index of the first operand after the global
// options (len(args) when there is none).
func subcommand(name string, args []string) int {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			return i
		}
		if name == "git" && contains(gitValueOpts, a) && a != "--exec-path" {
			i++
		}
	}
	return len(args)
}

// gitConfigCheck returns "config" for a git config command that changes
// the configuration; reading it (--get, --list, get, list, …) is plain.
func gitConfigCheck(args []string) []string {
	sub := subcommand("git", args)
	if sub >= len(args) || args[sub] != "config" || !gitConfigSets(args[sub+1:]) {
		return nil
	}
	return []string{"config"}
}

// gitConfigSets reports whether the arguments of git config change the
// configuration: the set, unset, rename, remove and edit forms, old and
// new syntax, or NAME VALUE without an action option.
func gitConfigSets(args []string) bool {
	ops := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, hasEq := strings.Cut(a, "=")
		switch name {
		case "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool", "--list", "-l":
			return false
		case "--add", "--replace-all", "--unset", "--unset-all", "--rename-section", "--remove-section", "--edit", "-e":
			return true
		case "--file", "-f", "--blob", "--type", "--default", "--comment", "--value", "--url", "-t":
			if !hasEq && i+1 < len(args) {
				i++
			}
			continue
		case "--":
			ops += len(args) - i - 1
			i = len(args)
			continue
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		if ops == 0 {
			switch a {
			case "get", "list":
				return false
			case "set", "unset", "rename-section", "remove-section", "edit":
				return true
			}
		}
		ops++
	}
	return ops >= 2
}

// tarOldStyle flags tar's old-style bundled first argument ("tar xIf").
func tarOldStyle(args []string) []string {
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") && strings.ContainsAny(args[0], "IF") {
		return []string{args[0]}
	}
	return nil
}

// sedScripts returns the sed scripts that write or read files or run
// commands (w, W, r, R, e commands; s///e and s///w).
func sedScripts(args []string) []string {
	var out []string
	explicit := false
	var operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			operands = append(operands, args[i+1:]...)
			i = len(args)
		case a == "-e" || a == "--expression":
			explicit = true
			if i+1 < len(args) {
				i++
				if sedDangerous(args[i]) {
					out = append(out, args[i])
				}
			}
		case strings.HasPrefix(a, "--expression="):
			explicit = true
			if sedDangerous(a[len("--expression="):]) {
				out = append(out, a)
			}
		case a == "-f" || a == "--file" || strings.HasPrefix(a, "--file="):
			explicit = true
			if a == "-f" || a == "--file" {
				i++
			}
		case a == "-l" || a == "--line-length":
			i++
		case strings.HasPrefix(a, "--"):
		case len(a) > 1 && a[0] == '-':
			// Combined short options: -ne SCRIPT, -nf FILE, -es/x/y/.
			for j := 1; j < len(a); j++ {
				c := a[j]
				if c == 'e' || c == 'f' || c == 'l' {
					explicit = explicit || c != 'l'
					val := a[j+1:]
					if val == "" && i+1 < len(args) {
						i++
						val = args[i]
					}
					if c == 'e' && sedDangerous(val) {
						out = append(out, val)
					}
					break
				}
			}
		default:
			operands = append(operands, a)
		}
	}
	if !explicit && len(operands) > 0 && sedDangerous(operands[0]) {
		out = append(out, operands[0])
	}
	return out
}

// sedDangerous scans a sed script conservatively: anything it cannot
// parse counts as dangerous.
func sedDangerous(s string) bool {
	i := 0
	n := len(s)
	skipSpace := func() {
		for i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == ';') {
			i++
		}
	}
	// skipDelim skips a delimited part starting after the delimiter d.
	skipDelim := func(d byte) bool {
		for i < n {
			switch s[i] {
			case '\\':
				i += 2
				continue
			case d:
				i++
				return true
			}
			if d != '\n' && s[i] == '\n' {
				return false
			}
			i++
		}
		return false
	}
	for {
		skipSpace()
		if i >= n {
			return false
		}
		// Addresses: numbers, $, /re/, \cREc, first~step, ranges, !.
		for i < n {
			c := s[i]
			switch {
			case c >= '0' && c <= '9' || c == '$' || c == ',' || c == '~' || c == '+' || c == '!' || c == ' ':
				i++
			case c == '/':
				i++
				if !skipDelim('/') {
					return true
				}
				for i < n && (s[i] == 'I' || s[i] == 'M') {
					i++
				}
			case c == '\\' && i+1 < n:
				d := s[i+1]
				i += 2
				if !skipDelim(d) {
					return true
				}
			default:
				goto cmd
			}
		}
		return false
	cmd:
		c := s[i]
		i++
		switch c {
		case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		case 'l', 'q', 'Q', 'L':
			for i < n && (s[i] >= '0' && s[i] <= '9' || s[i] == ' ') {
				i++
			}
		case ':', 'b', 't', 'T':
			for i < n && s[i] != ';' && s[i] != '\n' && s[i] != '}' {
				i++
			}
		case 'a', 'i', 'c':
			// Text to the end of the line (GNU one-liner form included).
			for i < n && s[i] != '\n' {
				if s[i] == '\\' {
					i++
				}
				i++
			}
		case 's':
			if i >= n {
				return true
			}
			d := s[i]
			if d == '\n' || d == '\\' {
				return true
			}
			i++
			// The pattern, then the replacement (or the target set):
			// two delimited parts, skipped one after the other.
			if !skipDelim(d) {
				return true
			}
			if !skipDelim(d) {
				return true
			}
			for i < n && s[i] != ';' && s[i] != '\n' && s[i] != '}' && s[i] != ' ' {
				switch s[i] {
				case 'e', 'w', 'W', 'r', 'R':
					return true
				case 'g', 'p', 'i', 'I', 'm', 'M', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
				default:
					return true
				}
				i++
			}
		case 'y':
			if i >= n {
				return true
			}
			d := s[i]
			i++
			// The pattern, then the replacement (or the target set):
			// two delimited parts, skipped one after the other.
			if !skipDelim(d) {
				return true
			}
			if !skipDelim(d) {
				return true
			}
		case '#':
			for i < n && s[i] != '\n' {
				i++
			}
		default: // e, r, R, w, W and anything unknown
			return true
		}
	}
}

// awkPrograms returns the awk programs that run commands (system(),
// pipes to or from commands), write files (print > "file"), load
// extensions, and the -f flag when the program comes from a file.
func awkPrograms(args []string) []string {
	var out []string
	hasProg := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if !hasProg && i+1 < len(args) && awkDangerous(args[i+1]) {
				out = append(out, args[i+1])
			}
			return out
		case a == "-f" || a == "--file" || a == "-i" || a == "--include" || a == "-l" || a == "--load" || a == "-E" || a == "--exec":
			out = append(out, a)
			hasProg = hasProg || a != "-i" && a != "--include" && a != "-l" && a != "--load"
			i++
		case strings.HasPrefix(a, "-f") || strings.HasPrefix(a, "--file="):
			out = append(out, a)
			hasProg = true
		case a == "-e" || a == "--source":
			hasProg = true
			if i+1 < len(args) {
				i++
				if awkDangerous(args[i]) {
					out = append(out, args[i])
				}
			}
		case a == "-v" || a == "-F" || a == "--assign" || a == "--field-separator":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			if !hasProg {
				if awkDangerous(a) {
					out = append(out, a)
				}
				hasProg = true
			}
		}
	}
	return out
}

func awkDangerous(p string) bool {
	if strings.Contains(p, "system") || strings.Contains(p, "@load") {
		return true
	}
	if awkPipe(p) {
		return true
	}
	// print > "file", printf >> file
	for _, kw := range []string{"print", "printf"} {
		rest := p
		for {
			j := strings.Index(rest, kw)
			if j < 0 {
				break
			}
			rest = rest[j+len(kw):]
			end := strings.IndexAny(rest, ";}\n")
			if end < 0 {
				end = len(rest)
			}
			if strings.Contains(rest[:end], ">") {
				return true
			}
		}
	}
	return false
}

// awkPipe reports whether an awk program pipes to or from a command (a |
// that is not ||), outside string literals and regular expressions
// ("/a|b/" is an alternation). Anything it cannot scan counts as a pipe.
func awkPipe(p string) bool {
	last := byte(0) // the last significant character outside literals
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == ' ' || c == '\t':
			continue
		case c == '"':
			j := skipAwkLiteral(p, i+1, '"')
			if j < 0 {
				return true
			}
			i = j
		case c == '/' && (last == 0 || strings.IndexByte("(,{;!~&|=\n}?:", last) >= 0):
			j := skipAwkLiteral(p, i+1, '/')
			if j < 0 {
				return true
			}
			i = j
		case c == '|':
			if i+1 < len(p) && p[i+1] == '|' {
				i++
				break
			}
			return true
		}
		last = p[i]
	}
	return false
}

// skipAwkLiteral returns the index of the delimiter closing a string or
// regular expression that starts at i, -1 when there is none. A / inside
// a bracket expression does not close a regular expression.
func skipAwkLiteral(p string, i int, delim byte) int {
	bracket := false
	for ; i < len(p); i++ {
		switch c := p[i]; {
		case c == '\\':
			i++
		case c == '\n':
			return -1
		case delim == '/' && c == '[':
			bracket = true
		case delim == '/' && c == ']':
			bracket = false
		case c == delim && !bracket:
			return i
		}
	}
	return -1
}
