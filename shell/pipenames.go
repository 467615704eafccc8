package shell

import "strings"

// pipeNames returns the pattern of the file names a pipeline stage
// prints, one per line (stdin.names), "" when it is not known: find's
// (findNames), git ls-files's (gitListedNames), or, for a filter that
// only passes on some of its input's lines in their order or another
// (grep -v, sort -u, head), the names the stage before it carried, prev.
func pipeNames(c *Command, prev string) string {
	if c.Opaque {
		return ""
	}
	if c.Name != "find" && c.Text != c.Name && !strings.HasPrefix(c.Text, c.Name+" ") {
		return "" // an environment first (GIT_DIR=…, GIT_WORK_TREE=…)
	}
	switch {
	case c.Name == "find":
		names, _ := findNames(c.Args)
		return names
	case c.Name == "git":
		return gitListedNames(c)
	case prev != "" && lineFilter(c.Name, c.Args):
		return prev
	}
	return ""
}

// gitListedNames returns the pattern of the paths "git ls-files" prints
// when every option only picks which tracked or untracked files it lists:
// ./** (every file below the working directory, dot-files included),
// ./**/*SUFFIX for one quoted pathspec "*SUFFIX" (a wildcard that may
// cross "/", so the path ends in SUFFIX, which holds no "/" or wildcard:
// the file's name does). A global option (git -C DIR) or any other
// pathspec (a directory, which lists what is under it) leaves it unknown.
func gitListedNames(c *Command) string {
	if len(c.Args) == 0 || c.Args[0] != "ls-files" {
		return ""
	}
	spec := ""
	dashdash := false
	for i, a := range c.Args[1:] {
		if !dashdash && strings.HasPrefix(a, "-") {
			switch a {
			case "--":
				dashdash = true
			case "-z", "-c", "--cached", "-m", "--modified", "-o", "--others", "-d", "--deleted", "--exclude-standard":
			default:
				return ""
			}
			continue
		}
		if spec != "" || !literalArg(c, i+1) {
			return ""
		}
		spec = a
	}
	if spec == "" {
		return "./**"
	}
	suffix, ok := strings.CutPrefix(spec, "*")
	if !ok || suffix == "" || strings.ContainsAny(suffix, "*?[]{}/\\:$`") {
		return ""
	}
	return "./**/*" + suffix
}

// literalArg reports whether c's argument i reaches the command as
// written: its glob characters were quoted (Command.Literal).
func literalArg(c *Command, i int) bool {
	return i < len(c.Literal) && c.Literal[i]
}

// lineFilter reports whether a command reading its standard input prints
// only whole lines of it, unchanged: grep -v PATTERN, sort -u, uniq,
// head -n N, tail -n N, with no operand that is a file and no option
// that adds to a line (grep -n, uniq -c), prints a part of one (grep -o,
// head -c) or writes elsewhere (sort -o).
func lineFilter(name string, args []string) bool {
	var allowed string
	grep := false
	switch name {
	case "grep", "egrep", "fgrep":
		allowed, grep = "viEFGwx", true
	case "sort":
		allowed = "urnfVb"
	case "uniq":
		allowed = "diu"
	case "head", "tail":
	default:
		return false
	}
	patterns, operands := 0, 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case grep && a == "-e" && i+1 < len(args):
			i++
			patterns++
		case (name == "head" || name == "tail") && a == "-n" && i+1 < len(args) && number(strings.TrimPrefix(args[i+1], "+")):
			i++
		case (name == "head" || name == "tail") && len(a) > 1 && a[0] == '-' && number(a[1:]):
			// head -20
		case strings.HasPrefix(a, "--"):
			return false
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for _, l := range a[1:] {
				if !strings.ContainsRune(allowed, l) {
					return false
				}
			}
		default:
			operands++
		}
	}
	if grep && patterns == 0 {
		return operands == 1 // the pattern; a file after it is read instead
	}
	return operands == 0
}

// number reports whether s is a decimal number.
func number(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
