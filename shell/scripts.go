package shell

import (
	"maps"
	"path"
	"slices"
	"strings"
)

// interpreterOpts returns the options of interpreter name
// (commandInterpreters): code lists the short options that give the code
// inline, val the short options that take a value.
func interpreterOpts(name string) (code, val string) {
	if e := roleEntry(name); e != nil {
		return e.code, e.val
	}
	return "", ""
}

// interpreterKey is the interpreter whose options a version's name has:
// python3.12 and pypy3 python's, ruby3 ruby's.
func interpreterKey(name string) string {
	switch {
	case strings.HasPrefix(name, "python") || strings.HasPrefix(name, "pypy"):
		return "python"
	case strings.HasPrefix(name, "ruby"):
		return "ruby"
	case strings.HasPrefix(name, "perl"):
		return "perl"
	case strings.HasPrefix(name, "php"):
		return "php"
	}
	return name
}

// isInterpreter reports whether name runs code.
func isInterpreter(name string) bool {
	return runsCode(name, rolesOf(name))
}

// runsCode is isInterpreter for a name whose roles r are looked up.
func runsCode(name string, r role) bool {
	return r&(roleInterpreter|roleShell) != 0 || strings.HasPrefix(name, "python")
}

// readsCodeFromStdin reports whether interpreter name with args reads the
// program from standard input.
func readsCodeFromStdin(name string, args []word) bool {
	if hasRole(name, roleSource) {
		return len(args) > 0 && isStdinPath(args[0].text)
	}
	key := interpreterKey(name)
	if hasRole(name, roleShell) {
		key = "sh"
	}
	code, val := interpreterOpts(key)
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case t == "-":
			return true
		case t == "--":
			return i+1 >= len(args) || isStdinPath(args[i+1].text)
		case strings.HasPrefix(t, "--"):
			if t == "--eval" || t == "--command" || t == "--print" {
				return false
			}
		case len(t) > 1 && t[0] == '-':
			for j := 1; j < len(t); j++ {
				if key == "sh" && t[j] == 's' {
					return true
				}
				if strings.IndexByte(code, t[j]) >= 0 {
					return false
				}
				if strings.IndexByte(val, t[j]) >= 0 {
					if j == len(t)-1 {
						i++
					}
					break
				}
			}
		default:
			return isStdinPath(t)
		}
	}
	return true
}

func isStdinPath(p string) bool {
	return p == "-" || p == "/dev/stdin" || p == "/dev/fd/0" || p == "/proc/self/fd/0"
}

// shell handles sh/bash/… : the -c script, a script file, or a script on
// standard input.
func (w *walker) shell(name string, words []word, assigns []string, c scope, d *dirState) {
	i, hasC, stdinMode := shellOpts(words)
	idx := w.emit(w.makeCommand(words, assigns, c.via, false))
	if shellAbout(name, words, assigns, c) {
		w.res.Commands[idx].ReadOnly = true
		return
	}
	via := name
	switch {
	case hasC:
		via = name + " -c"
		if i >= len(words) {
			break
		}
		s := words[i]
		text := s.text
		if argv := words[i+1:]; len(argv) > 0 {
			text = substPositional(text, argv)
		}
		from := len(w.res.Commands)
		if !w.script(text, s.static, c, d, via, true) {
			w.res.Commands[idx].Opaque = true
		} else if w.allReadOnly(from) && shellRunsOnly(name, wordTexts(words[1:])) && formatOnly(assigns) && allStatic(words) &&
			words[0].text == name && len(w.res.Commands[idx].Classes) == 0 {
			// bash -lc 'git status': the shell runs the script it is
			// given and nothing else, and every command of it reads.
			w.res.Commands[idx].ReadOnly = true
		}
		if argv := words[i+1:]; len(argv) > 1 && usesAllArgs(s.text) {
			// The words of "$@" ($0 is not among them) may form a command.
			if ac, ok := w.nest(scope{src: c.src, via: via, depth: c.depth + 1, nest: c.nest}); ok {
				w.run(argv[1:], nil, ac, d.clone(), false)
			}
		}
	case i < len(words) && !stdinMode:
		if !words[i].static {
			// "bash <(cmd)" runs what cmd prints.
			w.res.Commands[idx].Opaque = true
		}
		if !isStdinPath(words[i].text) {
			w.file(words[i], false, w.res.Commands[idx].Text, d)
			if text, ok := w.writtenScript(words[i]); ok && !w.script(text, true, c, d, via, true) {
				w.res.Commands[idx].Opaque = true
			}
			break
		}
		fallthrough
	default:
		w.stdinScript(idx, c, d, via, true)
	}
	w.checkCodeFetch(idx, words, c, true)
}

// shellAbout reports whether a shell is asked only for its version: a
// lone --version, by name, with no input but the terminal and nothing in
// its environment. bash, zsh, fish and ksh print it and exit before any
// start-up file or script is read; a shell that does not know the option
// (dash) exits on it. Any other word (--rcfile FILE, -i, a script) or an
// input it could read a script from keeps the shell a shell.
func shellAbout(name string, words []word, assigns []string, c scope) bool {
	return len(words) == 2 && len(assigns) == 0 && c.stdin.kind == stdinNone &&
		words[0].static && words[0].text == name && words[1].static && words[1].text == "--version"
}

// shellOpts parses a shell's options: it returns the index of the first
// operand (the -c script or the script file), and whether -c and -s were
// given.
func shellOpts(words []word) (i int, hasC, stdinMode bool) {
	i = 1
loop:
	for ; i < len(words); i++ {
		t := words[i].text
		switch {
		case t == "--" || t == "-":
			i++
			break loop
		case strings.HasPrefix(t, "--"):
			if (t == "--rcfile" || t == "--init-file" || t == "--init-command") && i+1 < len(words) {
				i++
			}
		case len(t) > 1 && (t[0] == '-' || t[0] == '+'):
			for j := 1; j < len(t); j++ {
				switch t[j] {
				case 'c':
					hasC = hasC || t[0] == '-'
				case 's':
					stdinMode = true
				case 'o', 'O', 'C':
					if i+1 < len(words) {
						i++
					}
				}
			}
		default:
			break loop
		}
	}
	return i, hasC, stdinMode
}

// usesAllArgs reports whether a script refers to all its positional
// parameters ("$@", $*, or shifts them), whose words may form a command.
func usesAllArgs(s string) bool {
	for _, p := range [...]string{"$@", "${@", "$*", "${*", "shift"} {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// xargs handles xargs and parallel: the command itself is a subject with
// an exec-capable flag, and so is the command it runs.
func (w *walker) xargs(name string, words []word, assigns []string, c scope, d *dirState) {
	cmd := w.makeCommand(words, assigns, c.via, false)
	cmd.ExecFlags = []string{name}
	idx := w.emit(cmd)
	spec := xargsSpec
	if name == "parallel" {
		spec = parallelSpec
	}
	start, vals, _, unknown := spec.wrapped(words)
	if unknown {
		w.res.Commands[len(w.res.Commands)-1].Opaque = true
	}
	names := c.stdin.names
	for _, v := range vals {
		if v.name == "-a" || v.name == "--arg-file" {
			w.file(litWord(v.val), false, cmd.Text, d)
			names = "" // the names come from the file, not the pipe
		}
	}
	inner := words[start:]
	if name == "parallel" && !unknown && w.parallelArgs(idx, inner, vals, c, d) {
		return
	}
	if name == "parallel" {
		for i, wd := range inner {
			if wd.text == ":::" || wd.text == "::::" || wd.text == ":::+" || wd.text == "::::+" {
				inner = inner[:i]
				break
			}
		}
		if len(inner) == 1 && strings.ContainsRune(inner[0].text, ' ') {
			w.script(inner[0].text, inner[0].static, c, d, name, true)
			return
		}
	}
	if len(inner) == 0 {
		if name == "parallel" {
			return
		}
		inner = []word{litWord("echo")}
	}
	// xargs echo prints what it is handed, whatever that holds, and xargs
	// ls (a lister: ListsNames) the names and metadata of the files it
	// names, never what they hold: the words either gets at run time run
	// nothing and read no file, so they are read as the words given (echo
	// a b c | xargs -n1, xargs -I{} echo 'x {}', git diff --name-only |
	// xargs ls -la). What feeds xargs (-a FILE, < FILE, a reader in the
	// pipe) is a subject of its own.
	prints := name == "xargs" && len(assigns) == 0 && inner[0].static && (inner[0].text == "echo" || listsOnly(inner[0].text, wordTexts(inner[1:])))
	if !prints {
		inner = runtimeWords(inner)
	}
	inner, code := xargsInput(inner, vals)
	tokens := c.stdin.tokens && !prints && !code && len(assigns) == 0
	if tokens {
		inner, tokens = tokenWords(words[start:], inner, vals)
	}
	if prints {
		inner, code = words[start:], false
		if len(inner) == 0 {
			inner = []word{litWord("echo")}
		}
	}
	from, ffrom := len(w.res.Commands), len(w.res.Files)
	if ic, ok := w.nest(scope{src: c.src, via: name, depth: c.depth, nest: c.nest}); ok {
		w.run(inner, nil, ic, d.clone(), code)
	}
	if tokens && !unknown && w.seesTokens(inner[0], from, ffrom) {
		// PRODUCER | xargs CMD, where the producer prints only operands:
		// CMD with operands known only when it runs, where its input
		// goes, which its classes judge as such (kill may be sent pid 1,
		// docker rm toolgate's container) and which it takes for no file.
		w.dropFlag(idx, name)
		if w.markProduced(from) {
			w.res.Commands[idx].ReadOnly = true
		}
		return
	}
	w.runtimeFiles(inner, from, name, names, d)
	if prints && !unknown && len(w.res.Commands) == from+1 && w.markProduced(from) {
		w.dropFlag(idx, name)
		w.res.Commands[idx].ReadOnly = true
		return
	}
	if !code && !unknown && (namePicked(names) || w.readsEvery(names, inner, d)) && w.seesThrough(inner[0], from) {
		// PRODUCER | xargs CMD is CMD with operands known only when it
		// runs, its files those runtimeFiles recorded (DESIGN §3.1).
		w.dropFlag(idx, name)
		if w.markProduced(from) && len(assigns) == 0 {
			// xargs itself then only hands those names on.
			w.res.Commands[idx].ReadOnly = true
		}
	}
}

// parallelArgs walks "parallel CMD ::: ARG…", the arguments given on the
// command line: parallel puts each, shell-quoted, where CMD says {} (else
// at its end) and runs that line through a shell, so each line is a
// script ("parallel -j4 gzip ::: logs/*.log", "parallel rm -rf {} :::
// build dist"); with no CMD each argument is one ("parallel ::: 'make a'
// 'make b'"). When every line is seen (nothing opaque, no eval, shell
// or interpreter) the flag goes and the lines are judged as they are.
// It reports whether it read the command so; other forms (other
// replacement strings, argument files, remote hosts, -q, more than 8
// arguments, a glob with quoted parts, options it does not list) are
// read as before, with their arguments known only at run time.
func (w *walker) parallelArgs(idx int, words []word, vals []optArg, c scope, d *dirState) bool {
	for _, v := range vals {
		switch v.name {
		case "-j", "--jobs", "-k", "--keep-order", "-u", "--ungroup", "-g", "--group", "-v", "--verbose",
			"--bar", "--progress", "--eta", "--tag", "--line-buffer", "--will-cite", "--no-notice", "--halt-on-error", "--shuf":
		default:
			return false
		}
	}
	sep := -1
	for i, wd := range words {
		switch wd.text {
		case ":::":
			if sep >= 0 {
				return false // a second list: every combination
			}
			sep = i
		case "::::", ":::+", "::::+":
			return false
		}
	}
	if sep < 0 || sep == len(words)-1 || len(words)-sep-1 > 8 {
		return false
	}
	tmpl := make([]string, 0, sep)
	for _, wd := range words[:sep] {
		if !wd.static || strings.Contains(strings.ReplaceAll(wd.text, "{}", ""), "{") {
			return false // {.}, {/}, {#}, …: not read here
		}
		tmpl = append(tmpl, wd.text)
	}
	for _, a := range words[sep+1:] {
		if !a.static || a.glob && strings.ContainsAny(a.text, " \t\n'\"\\$`;&|<>(){}#") {
			// A glob goes into the line as written, so its words must
			// read the same there ("my keys"/* would split).
			return false
		}
	}
	line := strings.Join(tmpl, " ")
	ic, ok := w.nest(scope{src: c.src, via: "parallel", depth: c.depth, nest: c.nest})
	if !ok {
		return false
	}
	from := len(w.res.Commands)
	for _, a := range words[sep+1:] {
		arg := a.text
		if !a.glob {
			arg = "'" + strings.ReplaceAll(arg, "'", `'\''`) + "'"
		}
		script := line + " " + arg
		switch {
		case sep == 0:
			script = a.text // the argument is the command
		case strings.Contains(line, "{}"):
			script = strings.ReplaceAll(line, "{}", arg)
		}
		if !w.script(script, true, ic, d, "parallel", true) {
			w.res.Commands[idx].Opaque = true
			return true
		}
	}
	if w.plainFrom(from) {
		w.dropFlag(idx, "parallel")
	}
	return true
}

// tokenWords returns the words xargs runs, inner (given, after the
// run-time words were marked: xargsInput), with the words its input
// fills marked as tokens (word.token) and its input spelled inputWord in
// them: the words holding the replace string, or, without one, a word
// after the others, where xargs appends its input. A token is a file
// subject where the command takes a file ("{}" is none: nonFile). It
// reports false when a word the input fills starts with "-" (-{}): that
// word may be any option.
func tokenWords(given, inner []word, vals []optArg) ([]word, bool) {
	out := make([]word, len(inner), len(inner)+1)
	repl := xargsReplace(vals)
	for i, wd := range inner {
		if repl != "" && given[i].static && strings.Contains(wd.text, repl) {
			if strings.HasPrefix(wd.text, "-") {
				return inner, false
			}
			wd.text, wd.static, wd.token = strings.ReplaceAll(wd.text, repl, inputWord), false, true
		}
		out[i] = wd
	}
	if repl == "" {
		out = append(out, word{text: inputWord, token: true})
	}
	return out, true
}

// inputWord spells what xargs appends from its input in the command it
// runs (tokenWords).
const inputWord = "{input}"

// seesTokens reports whether the command xargs runs on a pipe of tokens,
// whose first word is first and whose commands and files were recorded
// from from and ffrom on, is one the analysis sees through: a static
// name the table knows, no command of it opaque, no shell, interpreter or
// eval among them, and no token taken for a file.
func (w *walker) seesTokens(first word, from, ffrom int) bool {
	name := cmdName(first)
	if !first.static || name == "" || commandSpec(name) == nil || isInterpreter(name) {
		return false
	}
	for _, c := range w.res.Commands[from:] {
		if c.Opaque || c.Name == "eval" || isInterpreter(c.Name) {
			return false
		}
	}
	for _, f := range w.res.Files[ffrom:] {
		if !f.Static {
			return false
		}
	}
	return true
}

var xargsSpec = &cmdSpec{wraps: true, wrap: &wrapSpec{short: "0oprtx", shortAttached: "eil"}, shortVal: "adEILnPs", long: []string{"null", "interactive", "no-run-if-empty", "verbose", "exit", "open-tty", "show-limits", "eof", "replace", "max-lines", "arg-file=", "delimiter=", "max-args=", "max-procs=", "max-chars=", "process-slot-var="}}

var parallelSpec = &cmdSpec{wraps: true, wrap: &wrapSpec{short: "0gkquvX"}, shortVal: "jSaIdnNLlsCE", long: []string{"null", "group", "keep-order", "quote", "ungroup", "verbose", "dry-run", "halt-on-error", "tag", "line-buffer", "progress", "bar", "eta", "pipe", "will-cite", "xapply", "shuf", "no-notice", "jobs=", "sshlogin=", "arg-file=", "delimiter=", "max-args=", "max-lines=", "max-chars=", "colsep=", "halt=", "joblog=", "results=", "timeout=", "workdir=", "env=", "basefile=", "transfer=", "return=", "tmpdir=", "retries=", "delay=", "sshloginfile=", "memfree=", "load="}}

// substPositional replaces $0…$9 and ${0}…${9} in a -c script with the
// static arguments that follow it, so "rm -rf \"$1\"" _ / is seen as
// rm -rf /. Non-static arguments are left alone.
func substPositional(s string, argv []word) string {
	if !strings.Contains(s, "$") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		n, l := -1, 0
		switch {
		case s[i+1] >= '0' && s[i+1] <= '9':
			n, l = int(s[i+1]-'0'), 2
		case s[i+1] == '{' && i+3 < len(s) && s[i+2] >= '0' && s[i+2] <= '9' && s[i+3] == '}':
			n, l = int(s[i+2]-'0'), 4
		}
		if n < 0 || (i > 0 && s[i-1] == '\\') {
			b.WriteByte(s[i])
			continue
		}
		if n < len(argv) {
			if !argv[n].static {
				b.WriteString(s[i : i+l])
			} else {
				b.WriteString(argv[n].text)
			}
		}
		i += l - 1
	}
	return b.String()
}

// runParts walks, as scripts, the files the command line wrote to the
// directory run-parts runs (runsParts); a file written with a text it
// cannot know makes the command opaque, as running it would.
func (w *walker) runParts(idx int, args []word, c scope, d *dirState) {
	var dir word
	for i := 0; i < len(args); i++ {
		a := args[i].text
		switch {
		case a == "--test" || a == "--list" || a == "-V" || a == "--version" || a == "-h" || a == "--help":
			return
		case a == "-a" || a == "-u" || a == "--arg" || a == "--regex" || a == "--umask" || a == "--ignore-suffixes":
			i++
		case strings.HasPrefix(a, "-") && a != "--":
		case a != "--":
			dir = args[i]
		}
	}
	if dir.text == "" || w.written == nil {
		return
	}
	if !dir.static {
		w.res.Commands[idx].Opaque = true
		return
	}
	clean := path.Clean(dir.text)
	for _, f := range slices.Sorted(maps.Keys(w.written)) {
		if path.Dir(f) != clean {
			continue
		}
		text := w.written[f]
		if text == unknownWritten || !w.script(text, true, c, d, "run-parts", true) {
			w.res.Commands[idx].Opaque = true
		}
	}
}

// shellRunsOnly reports whether a shell's arguments are options that
// change no more than how it reports and where it starts (-l, -x, -e,
// -u, -v, -i, -o pipefail), then -c and its script, and nothing after:
// bash -lc 'ls', sh -ec 'git status'. The shell then runs the script
// and nothing else: no rc file named, no arguments for the script.
func shellRunsOnly(name string, args []string) bool {
	switch name {
	case "bash", "sh", "dash", "zsh", "ksh":
	default:
		return false
	}
	command := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case command:
			return i == len(args)-1 // the script, last
		case a == "-o" && i+1 < len(args):
			switch args[i+1] {
			case "pipefail", "errexit", "nounset", "xtrace":
				i++
			default:
				return false
			}
		case a == "--login" || a == "--noprofile" || a == "--norc":
		case len(a) > 1 && a[0] == '-' && a[1] != '-':
			for _, l := range a[1:] {
				if !strings.ContainsRune("lxeuvic", l) {
					return false
				}
			}
			command = strings.ContainsRune(a, 'c')
		default:
			return false
		}
	}
	return false
}

// allReadOnly reports whether the commands emitted from index from on
// are some, and each read-only.
func (w *walker) allReadOnly(from int) bool {
	cs := w.res.Commands[from:]
	for _, c := range cs {
		if !c.ReadOnly {
			return false
		}
	}
	return len(cs) > 0
}
