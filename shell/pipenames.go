package shell

import (
	"slices"
	"strings"
)

// pipeNames returns the pattern of the file names a pipeline stage
// prints, one per line (stdin.names), "" when it is not known: find's
// (findNames), git ls-files's (gitListedNames), or, for a filter that
// only passes on some of its input's lines in their order or another
// (grep -v, sort -u, head), the names the stage before it carried, prev.
func pipeNames(c *Command, prev string) string {
	if c.Opaque {
		return ""
	}
	switch {
	case c.Name == "find":
		names, _ := findNames(c.Args)
		return names
	case !namedFirst(c):
		return "" // an environment first (GIT_DIR=…, GIT_WORK_TREE=…)
	case c.Name == "git":
		return gitListedNames(c)
	case prev != "" && lineFilter(c.Name, c.Args):
		return prev
	}
	return ""
}

// namedFirst reports whether a command's text starts with its name: no
// environment assignment before it.
func namedFirst(c *Command) bool {
	return strings.HasPrefix(c.Text, c.Name) && (len(c.Text) == len(c.Name) || c.Text[len(c.Name)] == ' ')
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

// pipeTokens reports whether a pipeline stage prints only words that never
// start with "-", one or more a line: the branch names of git branch's
// listing (which git keeps from starting with "-"), the hashes of git
// rev-list, the type/name of kubectl get -o name, the ids of docker ps
// -q, the process ids of lsof -t and pgrep; or a filter of whole lines
// (lineFilter) of such a stage's output, prev. Each is only such with
// the options listed: git branch -v, git rev-list --objects or --format,
// docker ps --format print text.
func pipeTokens(c *Command, prev bool) bool {
	switch c.Name {
	case "git", "kubectl", "docker", "lsof", "pgrep":
	default:
		return prev && !c.Opaque && namedFirst(c) && lineFilter(c.Name, c.Args)
	}
	if c.Opaque || !namedFirst(c) {
		return false
	}
	a := c.Args
	switch {
	case c.Name == "git" && len(a) > 0 && a[0] == "branch":
		for i := 1; i < len(a); i++ {
			switch a[i] {
			case "--merged", "--no-merged":
				if i+1 < len(a) && !strings.HasPrefix(a[i+1], "-") {
					i++ // the commit
				}
			case "-r", "-a", "--remotes", "--all":
			default:
				return false // git branch NAME creates one
			}
		}
		return true
	case c.Name == "git" && len(a) > 0 && a[0] == "rev-list":
		for i := 1; i < len(a); i++ {
			switch x := a[i]; {
			case x == "--all" || x == "--branches" || x == "--tags" || x == "--remotes" || x == "--reverse" ||
				x == "--no-merges" || x == "--merges" || x == "--first-parent":
			case x == "-n" && i+1 < len(a) && number(a[i+1]):
				i++
			case strings.HasPrefix(x, "--max-count=") || strings.HasPrefix(x, "--since=") || strings.HasPrefix(x, "--until=") ||
				strings.HasPrefix(x, "--before=") || strings.HasPrefix(x, "--after="):
			case strings.HasPrefix(x, "-"):
				return false
			}
		}
		return true
	case c.Name == "kubectl" && len(a) > 0 && a[0] == "get":
		name := false
		for i, x := range a {
			switch {
			case x == "-oname" || x == "-o=name" || x == "--output=name":
				name = true
			case (x == "-o" || x == "--output") && i+1 < len(a) && a[i+1] == "name":
				name = true
			case strings.HasPrefix(x, "-o") || strings.HasPrefix(x, "--output") || strings.HasPrefix(x, "--template"):
				return false
			}
		}
		return name
	case c.Name == "docker" && len(a) > 0 && (a[0] == "ps" || a[0] == "images"):
		return clusters(a[1:], "aqln", 'q', "-f", "--filter")
	case c.Name == "lsof":
		return clusters(a, "tnPi", 't', "-i") // -ti:3000, -t -i :8080
	case c.Name == "pgrep":
		return clusters(a, "fxnoiu", 0, "-u", "-P", "-g")
	}
	return false
}

// clusters reports whether every option of args is a cluster of the
// letters allowed (a letter with a value, as in -i:3000, ends it), or one
// of valued followed by its value, and, unless need is 0, one of them
// holds the letter need. Operands are allowed.
func clusters(args []string, allowed string, need byte, valued ...string) bool {
	found := need == 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case slices.Contains(valued, a):
			i++
		case a == "--quiet" || a == "--all" || a == "--no-trunc":
			found = found || a == "--quiet" && need == 'q'
		case strings.HasPrefix(a, "--"):
			return false
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				if a[j] == ':' {
					break // -i:3000
				}
				if strings.IndexByte(allowed, a[j]) < 0 {
					return false
				}
				found = found || a[j] == need
			}
		}
	}
	return found
}
