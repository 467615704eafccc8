package shell

import (
	"slices"
	"strings"
)

// findPrimary is what find makes of one word of its expression, as far
// as the analysis reads it.
type findPrimary uint8

// What a word of find's expression is.
const (
	// findValue: the primary takes the next word as its value.
	findValue findPrimary = 1 << iota
	// findTest: a test that picks files by name, path, type, time, size,
	// owner or permissions; without one, -delete deletes everything
	// under the starting points.
	findTest
	// findName: -name, the name test a file-name pattern says.
	findName
	// findUnsaid: a test the pattern of the printed names cannot say
	// (-iname, -path), or one read as such (-newerXY), so the names stay
	// unknown.
	findUnsaid
	// findWidens: after it a name test no longer bounds what is printed
	// (!, -o).
	findWidens
)

// findPrimaries is the words of find's expression the analysis knows,
// sorted by name: one list for the file tests (findTests) and the
// printed names (findNames). A word not listed (-printf, -exec, -delete)
// prints, runs or changes anything.
var findPrimaries = [...]namedPrimary{
	{"!", findWidens},
	{"(", 0},
	{")", 0},
	{"-a", 0},
	{"-amin", findValue | findTest},
	{"-and", 0},
	{"-anewer", findValue | findTest | findUnsaid},
	{"-atime", findValue | findTest},
	{"-cmin", findValue | findTest},
	{"-cnewer", findValue | findTest | findUnsaid},
	{"-context", findValue | findTest | findUnsaid},
	{"-ctime", findValue | findTest},
	{"-daystart", 0},
	{"-depth", 0},
	{"-empty", findTest},
	{"-executable", findTest},
	{"-false", 0},
	{"-follow", 0},
	{"-fstype", findValue | findTest},
	{"-gid", findValue | findTest},
	{"-group", findValue | findTest},
	{"-ilname", findValue | findTest | findUnsaid},
	{"-iname", findValue | findTest | findUnsaid},
	{"-inum", findValue | findTest},
	{"-ipath", findValue | findTest | findUnsaid},
	{"-iregex", findValue | findTest | findUnsaid},
	{"-iwholename", findValue | findTest | findUnsaid},
	{"-links", findValue | findTest},
	{"-lname", findValue | findTest | findUnsaid},
	{"-maxdepth", findValue},
	{"-mindepth", findValue},
	{"-mmin", findValue | findTest},
	{"-mount", 0},
	{"-mtime", findValue | findTest},
	{"-name", findValue | findTest | findName},
	{"-newer", findValue | findTest},
	{"-newerat", findValue | findTest | findUnsaid},
	{"-newerct", findValue | findTest | findUnsaid},
	{"-newermm", findValue | findTest | findUnsaid},
	{"-newermt", findValue | findTest | findUnsaid},
	{"-nogroup", findTest},
	{"-not", findWidens},
	{"-nouser", findTest},
	{"-o", findWidens},
	{"-or", findWidens},
	{"-path", findValue | findTest | findUnsaid},
	{"-perm", findValue | findTest},
	{"-print", 0},
	{"-print0", 0},
	{"-prune", 0},
	{"-readable", findTest},
	{"-regex", findValue | findTest | findUnsaid},
	{"-regextype", findValue},
	{"-samefile", findValue | findTest},
	{"-size", findValue | findTest},
	{"-true", 0},
	{"-type", findValue | findTest},
	{"-uid", findValue | findTest},
	{"-used", findValue | findTest},
	{"-user", findValue | findTest},
	{"-wholename", findValue | findTest | findUnsaid},
	{"-writable", findTest},
	{"-xdev", 0},
	{"-xtype", findValue | findTest},
}

// namedPrimary is an entry of findPrimaries.
type namedPrimary struct {
	name string
	p    findPrimary
}

// findPrimaryOf looks a word of find's expression up in findPrimaries.
func findPrimaryOf(a string) (findPrimary, bool) {
	i, ok := slices.BinarySearchFunc(findPrimaries[:], a, func(e namedPrimary, a string) int {
		return strings.Compare(e.name, a)
	})
	if !ok {
		return 0, false
	}
	return findPrimaries[i].p, true
}

// findNoFollow reports whether find reads symbolic links as links (no
// -L, -follow): what it deletes (-delete, -exec rm {}) is then the files
// under its starting points, as rm -r of them deletes them. Following a
// link into another directory deletes files there, under names the
// starting point does not show.
func findNoFollow(args []string) bool {
	for _, a := range args {
		if a == "-L" || a == "-follow" {
			return false
		}
	}
	return true
}

// findOnlyEmpty reports whether a find expression picks only empty files
// and directories: -empty and'ed with the rest, nothing negated or
// joined by -o.
func findOnlyEmpty(args []string) bool {
	empty := false
	for _, a := range args {
		switch a {
		case "-empty":
			empty = true
		case "-o", "-or", ",", "!", "-not":
			return false
		}
	}
	return empty
}

// findTests reports whether a find expression holds a test that picks
// files by name, path, type, time, size, owner or permissions: without
// one, -delete deletes everything under the starting points.
func findTests(args []string) bool {
	for _, a := range args {
		if p, _ := findPrimaryOf(a); p&findTest != 0 {
			return true
		}
	}
	return false
}

// findNames returns the pattern of the file names find prints, DIR/**
// (DIR/**/NAME with one -name test), when its expression only selects
// and prints them under one static starting point, with no other name
// test and no -o (-prune alone only stops the descent below what it
// picks; a test negated by ! or -not only narrows what the others pick);
// -printf, -exec and the like print anything, and then there is none.
func findNames(args []string) (string, bool) {
	i := 0
	for i < len(args) && (args[i] == "-H" || args[i] == "-L" || args[i] == "-P") {
		i++
	}
	dir := ""
	for ; i < len(args) && !strings.HasPrefix(args[i], "-") && args[i] != "(" && args[i] != "!"; i++ {
		if dir != "" {
			return "", false // several starting points
		}
		dir = args[i]
	}
	if dir == "" {
		dir = "."
	}
	if strings.ContainsAny(dir, "$`*?[{") {
		return "", false
	}
	name, names, widens := "", 0, false
	for ; i < len(args); i++ {
		p, ok := findPrimaryOf(args[i])
		switch {
		case !ok:
			return "", false
		case p&findWidens != 0 && negatesTest(args, i):
			// "! -name '*_test.go'", "-not -path './vendor/*'": with no
			// -o the expression is an and, and a negated test only
			// leaves out some of what the other tests pick.
			i++
			if q, _ := findPrimaryOf(args[i]); q&findValue != 0 {
				i++
			}
			continue
		case p&findWidens != 0:
			widens = true // a name test no longer bounds what is printed
		case p&findName != 0:
			if i+1 < len(args) {
				name = args[i+1]
			}
			names++
		case p&findUnsaid != 0:
			names += 2 // a test the pattern cannot say
		}
		if p&findValue != 0 {
			i++ // and its value
		}
	}
	// find reads "\c" as c; a backslash the glob matcher kept would
	// hide settings\.json from the rules on settings.json. An escaped
	// wildcard read as a wildcard picks more names, never fewer.
	name = strings.ReplaceAll(name, `\`, "")
	p := strings.TrimSuffix(dir, "/") + "/**"
	switch {
	case names == 0 && !widens:
		return p, true // every file below: find . -type f
	case names == 1 && !widens && strings.Trim(name, "*") == "":
		// find's -name '*' matches every name, dot-files too (fnmatch
		// without FNM_PERIOD), unlike the shell's *: every file below.
		return p, true
	case names == 1 && !widens && name != "" && !strings.ContainsAny(name, "/$`{"):
		return p + "/" + name, true // find . -name '*.go': ./**/*.go
	}
	// Name tests the pattern cannot say (-iname '*.ENV', -o, !): the
	// names they pick are where a command aims, so they stay unknown.
	return "", false
}

// findNameAlternatives returns the patterns of the files a find
// expression picks with one group of name tests joined by -o, "( -name A
// -o -name B )", and otherwise tests findNames reads: one findNames
// pattern per alternative, each a name test's. ok is false for any other
// expression.
func findNameAlternatives(args []string) (names []string, ok bool) {
	open := slices.Index(args, "(")
	if open < 0 || open > 0 && (args[open-1] == "!" || args[open-1] == "-not") {
		return nil, false // a negated group picks every other name
	}
	var alts []string
	i := open + 1
	for {
		if i+1 >= len(args) || args[i] != "-name" {
			return nil, false
		}
		alts, i = append(alts, args[i+1]), i+2
		if i < len(args) && (args[i] == "-o" || args[i] == "-or") {
			i++
			continue
		}
		break
	}
	if len(alts) < 2 || i >= len(args) || args[i] != ")" {
		return nil, false
	}
	end := i
	for _, a := range alts {
		variant := append(append(append([]string{}, args[:open]...), "-name", a), args[end+1:]...)
		n, ok := findNames(variant)
		if !ok || !namePicked(n) {
			return nil, false
		}
		names = append(names, n)
	}
	return names, true
}

// negatesTest reports whether args[i], ! or -not, negates the single test
// after it (not a group, another negation or an action), in an expression
// with no -o: the negation then only narrows what the other tests pick.
func negatesTest(args []string, i int) bool {
	if args[i] != "!" && args[i] != "-not" || i+1 >= len(args) {
		return false
	}
	q, ok := findPrimaryOf(args[i+1])
	if !ok || q&findTest == 0 || q&findValue != 0 && i+2 >= len(args) {
		return false
	}
	for _, a := range args {
		if a == "-o" || a == "-or" || a == "," {
			return false
		}
	}
	return true
}

// findDeleteAt returns the index of find's -delete action in its
// arguments, or -1: a word of the command an -exec, -execdir, -ok or
// -okdir runs ("find . -exec echo -delete ;") and the value of a test
// ("-name -delete") are not the action. A primary the table does not
// know is read as taking no value, so a -delete after it still counts.
func findDeleteAt(args []string) int {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "-delete":
			return i
		case "-exec", "-execdir", "-ok", "-okdir":
			for i++; i < len(args) && args[i] != ";" && args[i] != "+"; i++ {
			}
		default:
			if p, ok := findPrimaryOf(a); ok && p&findValue != 0 {
				i++
			}
		}
	}
	return -1
}
