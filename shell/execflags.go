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

// BuiltinExecFlags returns the exec-capable options of the command table
// as rules, one per option entry; WithExecFlags extends the table with
// more. The table itself (commands_exec.go and the other families of the
// command table) is where they are defined.
func BuiltinExecFlags() []ExecFlagRule {
	var out []ExecFlagRule
	for _, e := range commandTable {
		out = appendRules(out, e.name, "", e.spec, len(e.spec.subs) > 0)
	}
	return out
}

// appendRules appends the exec-capable entries of spec s as rules.
func appendRules(out []ExecFlagRule, name, sub string, s *cmdSpec, global bool) []ExecFlagRule {
	if s.exec && sub != "" {
		out = append(out, ExecFlagRule{Command: name, Sub: sub})
	}
	if analyse := s.rareFields().analyse; analyse != nil {
		out = append(out, ExecFlagRule{Command: name, Sub: sub, Check: analyse})
	}
	for _, o := range s.opts {
		if o.exec {
			out = append(out, ExecFlagRule{Command: name, Sub: sub, Global: global, Flags: o.names, Short: o.cluster, Values: o.values, Script: o.script})
		}
	}
	if sub == "" {
		for _, sc := range s.subs.sorted() {
			out = appendRules(out, name, sc.name, sc.spec, false)
		}
	}
	return out
}

// ruleSpec turns rules given to WithExecFlags into command table entries
// for one command, on top of the table's own entry (base, may be nil).
func ruleSpec(base *cmdSpec, rules []ExecFlagRule) *cmdSpec {
	add := &cmdSpec{}
	for _, r := range rules {
		s := add
		if r.Sub != "" {
			if s = add.subs.get(r.Sub); s == nil {
				s = &cmdSpec{}
				add.subs = append(add.subs, namedSpec{r.Sub, s})
			}
			if len(r.Flags) == 0 && r.Check == nil {
				s.exec = true
			}
		}
		if r.Check != nil {
			if s.rare == nil {
				s.rare = &rareSpec{}
			}
			s.rare.analyse = chainChecks(s.rare.analyse, r.Check)
		}
		var dashed, words []string
		for _, f := range r.Flags {
			if strings.HasPrefix(f, "-") {
				dashed = append(dashed, f)
			} else {
				words = append(words, f)
			}
		}
		if len(dashed) > 0 {
			s.opts = append(s.opts, optEffect{names: dashed, exec: true, script: r.Script, values: r.Values, cluster: r.Short})
		}
		if len(words) > 0 {
			s.opts = append(s.opts, optEffect{names: words, operand: true, exec: true})
		}
	}
	out := mergeSpec(base, add)
	declareOptions(out)
	return out
}

// chainChecks returns a check running both a and b.
func chainChecks(a, b func([]string) []string) func([]string) []string {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	return func(args []string) []string { return append(a(args), b(args)...) }
}

// execFlags returns the exec-capable words in args and the shell command
// lines given as values of script options, read through the command
// table (and the rules given to WithExecFlags).
func (w *walker) execFlags(name string, args []string) (flags, scripts []string) {
	s := w.a.extra[name]
	if s == nil {
		s = commandSpec(name)
	}
	if s == nil {
		return nil, nil
	}
	return s.execWords(args, false, nil, nil)
}

// execWords collects the exec-capable words of spec s in args, descending
// into the subcommand. inSub is set for a subcommand's arguments.
func (s *cmdSpec) execWords(args []string, inSub bool, flags, scripts []string) ([]string, []string) {
	if analyse := s.rareFields().analyse; analyse != nil {
		flags = appendNew(flags, analyse(args)...)
	}
	end := len(args)
	if len(s.subs) > 0 {
		end = s.firstOperand(args)
	}
	if s.hasExecOpts() {
		opts, ops := s.scan(args[:end], false)
		for i := range s.opts {
			o := &s.opts[i]
			if !o.exec {
				continue
			}
			flags, scripts = o.execMatch(args, opts, ops, inSub, flags, scripts)
		}
	}
	if end >= len(args) {
		return flags, scripts
	}
	ss := s.subs.get(args[end])
	if ss == nil {
		return flags, scripts
	}
	if ss.exec {
		flags = appendNew(flags, args[end])
	}
	rest := args[end+1:]
	f2, s2 := ss.execWords(rest, true, nil, nil)
	return appendNew(flags, f2...), append(scripts, s2...)
}

// hasExecOpts reports whether any option of s is exec-capable.
func (s *cmdSpec) hasExecOpts() bool {
	for i := range s.opts {
		if s.opts[i].exec {
			return true
		}
	}
	return false
}

// execMatch records the exec-capable option o among the parsed options
// and operands of args.
func (o *optEffect) execMatch(args []string, opts []optArg, ops []int, inSub bool, flags, scripts []string) ([]string, []string) {
	for _, a := range opts {
		if !contains(o.names, a.name) {
			continue
		}
		rec := a.word(args)
		if len(o.values) > 0 {
			if !prefixFold(a.val, o.values) {
				continue
			}
			if a.valAt != a.at {
				rec = a.val
			}
		}
		flags = appendNew(flags, rec)
		if o.script && a.val != "" {
			scripts = appendNew(scripts, a.val) // once, however many options it may be
		}
	}
	for _, i := range ops {
		a := args[i]
		if contains(o.names, a) {
			flags = appendNew(flags, a) // an operand word (git submodule foreach)
			continue
		}
		if !inSub || a == "--" {
			continue
		}
		// A subcommand's option after "--" still counts: the "--" may be
		// the value of an option the table does not know.
		for _, n := range o.names {
			if strings.HasPrefix(n, "-") && (a == n || strings.HasPrefix(n, "--") && strings.HasPrefix(a, n+"=")) {
				flags = appendNew(flags, n)
			}
		}
	}
	for _, a := range args {
		if a == "--" {
			break
		}
		if len(a) < 2 || a[0] != '-' || a[1] == '-' {
			continue
		}
		for _, n := range o.names {
			switch {
			case len(n) > 2 && n[0] == '-' && n[1] != '-' && a == n:
				// A one-dash option of several letters (zip -TT).
				flags = appendNew(flags, a)
			case o.cluster && len(o.values) == 0 && len(n) == 2 && n[0] == '-' && strings.IndexByte(a[1:], n[1]) >= 0:
				// A one-letter option anywhere in a word of short options.
				flags = appendNew(flags, a)
			}
		}
	}
	return flags, scripts
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

// subcommand returns the index of the first operand after the global
// options of a command with subcommands (len(args) when there is none),
// read through the command table: git -C DIR --no-pager push.
func subcommand(name string, args []string) int {
	if s := commandSpec(name); s != nil {
		return s.firstOperand(args)
	}
	return (&cmdSpec{}).firstOperand(args)
}

// gitConfigCheck returns "config" for a git config command that changes
// the configuration; reading it (--get, --list, get, list, …) is plain.
// args are the words after "config".
func gitConfigCheck(args []string) []string {
	if !gitConfigSets(args) || gitConfigHarmless(args) {
		return nil
	}
	return []string{"config"}
}

// harmlessGitKeys are the git configuration keys whose values name no
// program, hook, path git loads, address or credential, and weaken no
// check: who commits, how pulls merge, colours, line endings. A key is
// "section.name", or "section.*.name" for any subsection; git reads both
// parts in any letter case. Everything else (core.pager, core.hooksPath,
// alias.*, url.*.insteadOf, remote.*.url, credential.*, include.path,
// filter.*, gpg.program, http.*) keeps config a flag only a rule naming
// it allows.
var harmlessGitKeys = []string{"user.name", "user.email", "init.defaultbranch", "pull.rebase", "pull.ff", "push.default",
	"push.autosetupremote", "push.followtags", "fetch.prune", "fetch.prunetags", "rebase.autosquash", "rebase.autostash",
	"rebase.updaterefs", "merge.conflictstyle", "merge.ff", "diff.colormoved", "diff.algorithm", "diff.renames", "color.ui",
	"color.diff", "color.status", "color.branch", "core.autocrlf", "core.eol", "core.filemode", "core.ignorecase",
	"core.quotepath", "core.whitespace", "core.precomposeunicode", "advice.detachedhead", "help.autocorrect", "log.date",
	"status.short", "branch.autosetuprebase", "commit.verbose", "tag.sort", "column.ui", "submodule.*.branch",
	"branch.*.rebase", "branch.*.merge"}

// gitConfigHarmless reports whether git config only sets one key of
// harmlessGitKeys to a value (NAME VALUE, or set NAME VALUE).
func gitConfigHarmless(args []string) bool {
	var ops []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, hasEq := strings.Cut(a, "=")
		switch {
		case name == "--global" || name == "--local" || name == "--worktree" || name == "--system":
		case name == "--file" || name == "-f" || name == "--type" || name == "-t" || name == "--comment":
			if !hasEq && i+1 < len(args) {
				i++
			}
		case strings.HasPrefix(a, "-"):
			return false // an action (--add, --unset, --edit…) or an option not read here
		default:
			ops = append(ops, a)
		}
	}
	if len(ops) == 3 && ops[0] == "set" {
		ops = ops[1:]
	}
	if len(ops) != 2 {
		return false
	}
	key := strings.ToLower(ops[0])
	for _, k := range harmlessGitKeys {
		if k == key {
			return true
		}
		sec, name, ok := strings.Cut(k, ".*.")
		if !ok {
			continue
		}
		i, j := strings.Index(key, "."), strings.LastIndex(key, ".")
		if i > 0 && j > i+1 && key[:i] == sec && key[j+1:] == name {
			return true
		}
	}
	return false
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
