package shell

import (
	"slices"
	"strings"
)

// readOnlyCommand reports whether the command table says the command
// name with arguments args (as normalised) only reads (DESIGN §3.6): its
// entry, or the entry of the subcommand its words name, is read-only and
// no option of notReadWith is given; or it names a service client's
// read-only operation (readVerbs). The caller adds what the other
// families say (classes, exec-capable flags, files written).
func readOnlyCommand(name string, args []string) bool {
	s := commandSpec(name)
	if s == nil || s.readFields().startsProject {
		return false
	}
	if len(args) == 1 && aboutForm(s, name, args[0]) {
		return true // a known command's version or usage, nothing else
	}
	var verbs []string // the parent's read verbs, inherited
	verbAt, verbOnly, verbLast := -1, false, false
	var optBuf [8]optArg
	var opBuf [8]int
	for depth := 0; depth < 4; depth++ {
		opts, ops := s.scanInto(args, nil, s.wraps || s.inOrder, optBuf[:0], opBuf[:0])
		r := s.readFields()
		for _, n := range r.notReadWith {
			if _, ok := optFound(opts, args, n, false); ok {
				return false
			}
		}
		if len(r.readVerbs) > 0 {
			verbs, verbAt, verbOnly, verbLast = r.readVerbs, r.verbAt, r.verbOnly, r.verbLast
		}
		next, _, rest := s.sub(name, args)
		if next == nil && len(r.readSQL) > 0 {
			if !sqlConnectsPlainly(r.readSQL, opts, args, ops) {
				return false
			}
			if reads, given := sqlGiven(r.readSQL, opts, args, ops); given {
				return reads
			}
		}
		if next == nil {
			switch {
			case s.readOnly && s.readBare:
				for _, n := range r.readWith {
					if optGivenExactly(opts, args, n) {
						return true
					}
				}
				return len(ops) == 0 || r.readKey && len(ops) == 1 && strings.Contains(args[ops[0]], ".")
			case s.readOnly:
				// An operand of a command with subcommands is one the
				// table does not list (git remote add).
				return len(s.subs) == 0 || len(ops) == 0
			case len(r.readWith) > 0:
				// Read-only only in a query mode (dpkg -l, tar -t).
				for _, n := range r.readWith {
					if optGivenExactly(opts, args, n) {
						return true
					}
				}
				return false
			case verbLast:
				return lastVerb(args, ops, verbs)
			case verbAt >= 0:
				return readVerb(args, ops, verbs, verbAt, verbOnly)
			case r.readEnvNames:
				return len(ops) > 0 && len(ops) == len(args) && allPlainEnv(args)
			}
			return false
		}
		verbAt--
		s, args = next, rest
	}
	return false
}

// optGivenExactly reports whether option n is given, as the table
// resolved it or as written. Unlike optFound it takes no abbreviation the
// table does not know: that reading is the cautious one for an option that
// makes a command write, and the careless one for an option that makes it
// only read (brew's --cask is no --caskroom).
func optGivenExactly(opts []optArg, args []string, n string) bool {
	for _, o := range opts {
		if w := args[o.at]; !o.assign && (o.name == n || len(n) > 2 && (w == n || strings.HasPrefix(w, n+"="))) {
			return true
		}
	}
	return false
}

// listers are the read-only commands that print the names and metadata
// of the files their operands name (sizes, modes, times), never what the
// files hold, and whose options name no file they read but as a file
// subject of its own (du --files0-from, judged by the file rules; tree's
// --fromfile prints its file unjudged): ListsNames.
var listers = []string{"ls", "dir", "vdir", "stat", "du"}

// listsOnly reports whether a lister (ListsNames) is given none of the
// options with which it reads a file (du --files0-from, abbreviated or
// not): it then prints names and metadata only.
func listsOnly(name string, args []string) bool {
	if !ListsNames(name) {
		return false
	}
	s := commandSpec(name)
	if s == nil {
		return true
	}
	for _, e := range s.opts {
		if e.file != fileRead {
			continue
		}
		for _, n := range e.names {
			for _, a := range args {
				o, _, _ := strings.Cut(a, "=")
				if o == n || len(o) > 3 && strings.HasPrefix(o, "--") && strings.HasPrefix(n, o) {
					return false
				}
			}
		}
	}
	return true
}

// ListsNames reports whether the command name only lists the files its
// operands name: a listing of a directory secrets are under is no read
// of them.
func ListsNames(name string) bool { return slices.Contains(listers, name) }

// sqlGiven reports whether a command is given SQL to run by the options
// readSQL names (readSpec.readSQL), and whether every statement of it
// only reads.
func sqlGiven(readSQL []string, opts []optArg, args []string, ops []int) (reads, given bool) {
	reads = true
	for _, n := range readSQL {
		if n == "" {
			for _, i := range ops[min(1, len(ops)):] {
				given, reads = true, reads && sqlReadsOnly(args[i])
			}
			continue
		}
		for _, o := range opts {
			if o.name == n && !o.assign {
				given, reads = true, reads && o.valAt >= 0 && sqlReadsOnly(o.val)
			}
		}
	}
	return reads, given
}

// aboutWord reports whether w is a lone argument with which a command
// only prints its version or usage. "version", "help" and "-h" are words
// only a command with subcommands reads so (terraform version, kubectl
// help, git -h): to make and task runners they are targets to run, to an
// interpreter a script, to ls or df -h is an option.
func aboutWord(w string) bool {
	switch w {
	case "--version", "--help", "-V":
		return true
	}
	return false
}

// aboutForm reports whether arg alone asks the command whose entry is s
// only for its version or usage.
func aboutForm(s *cmdSpec, name, arg string) bool {
	if aboutWord(arg) || s.read != nil && slices.Contains(s.read.about, arg) {
		return true
	}
	return (arg == "version" || arg == "help" || arg == "-h") && len(s.subs) > 0 && !s.wraps &&
		(s.rare == nil || s.rare.analyse == nil) && !isInterpreter(name) // a shell is one
}

// readVerb reports whether the operand at position at is one of verbs
// (a name, or a prefix ending in "-") with at most one plain resource
// name after it.
func readVerb(args []string, ops []int, verbs []string, at int, verbOnly bool) bool {
	// A word after an option the table does not list is that option's
	// value (aws … --output text, --filters Name=x): not an operand.
	kept := ops[:0:0]
	for k, i := range ops {
		if k > at && i > 0 && strings.HasPrefix(args[i-1], "-") {
			continue
		}
		kept = append(kept, i)
	}
	ops = kept
	if at < 0 || at >= len(ops) || len(ops) > at+2 {
		return false
	}
	if verbOnly && len(ops) == at+2 && args[ops[at+1]] != "help" {
		return false // an output file (aws … OPERATION help prints its usage)
	}
	if len(ops) == at+2 && !plainName(args[ops[at+1]]) {
		return false
	}
	v := args[ops[at]]
	return !yieldsCredential(v) && isVerb(v, verbs)
}

// lastVerb reports whether a command whose commands take only options
// (readSpec.verbLast) names one of verbs last in its command path, after
// group words none of which names a credential (secretWord), with at
// most a resource's name after it (az vm show myvm). The path is the
// run of operands before the first option after it: the words after
// that are option values, which may be several (az keyvault set-policy
// --secret-permissions get list).
func lastVerb(args []string, ops []int, verbs []string) bool {
	var path []string
	for k, i := range ops {
		if k > 0 && i != ops[k-1]+1 && len(path) > 0 {
			break // an option came between: the path has ended
		}
		if i > 0 && strings.HasPrefix(args[i-1], "-") && !strings.Contains(args[i-1], "=") && len(path) == 0 {
			continue // a leading option's value (az --subscription S vm list)
		}
		path = append(path, args[i])
	}
	if len(path) > 1 && plainName(path[len(path)-1]) && isVerb(path[len(path)-2], verbs) {
		path = path[:len(path)-1]
	}
	if len(path) == 0 || !isVerb(path[len(path)-1], verbs) {
		return false
	}
	for _, w := range path {
		if !groupWord(w) || secretWord(w) {
			return false
		}
	}
	return true
}

// isVerb reports whether v is one of verbs: a name, or a prefix ending
// in '-'.
func isVerb(v string, verbs []string) bool {
	for _, r := range verbs {
		if v == r || strings.HasSuffix(r, "-") && strings.HasPrefix(v, r) && len(v) > len(r) {
			return true
		}
	}
	return false
}

// groupWord reports whether w can be a word of a CLI's command path:
// lower-case letters, digits and '-'.
func groupWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return w != ""
}

// secretWord reports whether a word of a command path names something
// that holds or yields a credential: keys, secrets, connection strings,
// app settings, publishing profiles, SAS tokens (az storage account
// keys list, az acr credential show, az webapp config appsettings list),
// besides yieldsCredential's.
func secretWord(w string) bool {
	if yieldsCredential(w) {
		return true
	}
	for part := range strings.FieldsFuncSeq(w, func(r rune) bool { return r == '-' || r == '_' }) {
		switch strings.TrimSuffix(part, "s") {
		case "key", "secret", "connection", "appsetting", "publishing", "sa", "password", "credential":
			return true
		}
	}
	return false
}

// yieldsCredential reports whether a service operation's name says it
// prints or makes a credential, whatever verb it starts with: aws ecr
// get-login-password, eks get-token, redshift get-cluster-credentials,
// lightsail get-instance-access-details, glue get-connection (with its
// password), appsync list-api-keys. A read verb does not make it a read.
// Names and metadata of secrets and keys (list-secrets, list-keys) are
// no credential.
func yieldsCredential(op string) bool {
	op = strings.ToLower(op)
	if strings.Contains(op, "api-key") || strings.Contains(op, "instance-access") || strings.Contains(op, "authorization-token") ||
		strings.HasPrefix(op, "get-connection") {
		return true
	}
	for part := range strings.FieldsFuncSeq(op, func(r rune) bool { return r == '-' || r == '_' }) {
		switch strings.TrimSuffix(part, "s") {
		case "token", "credential", "password", "login", "kubeconfig", "private":
			return true
		}
	}
	return false
}

// plainName reports whether s is a resource's name: letters, digits and
// "-_.", no path, host or URL; or a bucket's object path in the storage
// service's own scheme (s3://bucket/logs/, gs://bucket), which names no
// destination a client could send to.
func plainName(s string) bool {
	for _, scheme := range [...]string{"s3://", "gs://"} {
		if rest, ok := strings.CutPrefix(s, scheme); ok {
			return rest != "" && !strings.Contains(rest, "..") && plainName(strings.ReplaceAll(rest, "/", "_"))
		}
	}
	if s == "" || s[0] == '.' || s[0] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// markReadOnly sets Command.ReadOnly on the command at idx, whose files
// start at fstart, when the table says it only reads and nothing else
// found in it says otherwise: a word known only when it runs ($X, $(…))
// may name any file.
func (w *walker) markReadOnly(idx int, name string, norm []string, args []word, assigns []string, fstart int) {
	cmd := &w.res.Commands[idx]
	text := cmd.Text
	if len(assigns) > 0 {
		text = strings.TrimPrefix(text, strings.Join(assigns, " ")+" ")
	}
	if text != name && !strings.HasPrefix(text, name+" ") {
		return // named by path (./ls): not the command the table describes
	}
	for _, a := range args {
		if !a.static && (a.text != "{}" && !a.token || !runtimeOperands(cmd.Via)) && !inputPipe(a.text) && !w.printedParam(name, a) &&
			!(a.substOnly() && substHarmless(name)) {
			return // "{}" is the file an exec-capable form hands it, a token what xargs does
		}
	}
	if !formatOnly(assigns) || cmd.Opaque || len(cmd.ExecFlags) > 0 || len(cmd.Classes) > 0 ||
		len(cmd.Paths) > 0 || cmd.Remote || cmd.Runner || cmd.ServesCwd != "" ||
		!readOnlyCommand(name, norm) && !w.aboutKnown(name, norm) {
		return
	}
	for _, f := range w.res.Files[fstart:] {
		if f.Write || f.Delete || f.Into {
			return
		}
	}
	if runtimeOperands(cmd.Via) {
		// What it reads is known only once the form that runs it is
		// seen through (markProduced).
		if w.readsProduced == nil {
			w.readsProduced = map[int]bool{}
		}
		w.readsProduced[idx] = true
		return
	}
	cmd.ReadOnly = true
}

// substHarmless reports whether a command given what a command
// substitution prints only prints it, tests it or lists the files it
// names, or works on the names alone (echo "Branch: $(git branch
// --show-current)", [ -n "$(git status --porcelain)" ], ls -la $(which
// node), dirname "$(pwd)"): it reads no file's content, so
// what it may be handed reveals nothing the substituted commands, judged
// as subjects of their own, did not print already (DESIGN §3.2).
func substHarmless(name string) bool {
	switch name {
	case "[", "test", "dirname", "basename", "realpath", "readlink":
		return true
	}
	return hasRole(name, rolePrinter) || ListsNames(name)
}

// markProduced marks read-only the commands from index from on that an
// exec-capable form seen through runs (find -name X -exec CMD {}, find
// … | xargs CMD): each only reads, and the files they get are the
// pattern runtimeFiles recorded, judged by the file rules and the
// policy's secret check like a glob's. It reports whether every one of
// them is read-only, and at least one ran.
func (w *walker) markProduced(from int) bool {
	cmds := w.res.Commands[from:]
	all := len(cmds) > 0
	for i := range cmds {
		if w.readsProduced[from+i] {
			cmds[i].ReadOnly = true
		}
		all = all && cmds[i].ReadOnly
	}
	return all
}

// aboutKnown reports whether a command the analyser knows but the table
// has no entry for (an interpreter, a plain command) is asked only for
// its version or usage: python3 --version, node --help.
func (w *walker) aboutKnown(name string, norm []string) bool {
	return len(norm) == 1 && aboutWord(norm[0]) && commandSpec(name) == nil && w.known(name, nil)
}

// formatOnly reports whether every environment assignment in front of a
// command only changes how it formats what it prints: a locale, a time
// zone, a terminal type, colours and width by plain values, or a pager
// turned off (PAGER=cat, GIT_PAGER=""). Any other variable may make it
// load code or read elsewhere (LD_PRELOAD, GIT_DIR, PAGER=./x).
func formatOnly(assigns []string) bool {
	for _, a := range assigns {
		name, val, ok := strings.Cut(a, "=")
		if !ok {
			return false
		}
		switch {
		case strings.HasSuffix(name, "PAGER") && (name == "PAGER" || name == "GIT_PAGER" || name == "MANPAGER" ||
			name == "SYSTEMD_PAGER" || name == "AWS_PAGER"):
			if val != "cat" && val != "" && val != "''" && val != `""` {
				return false
			}
		case name == "LANG" || name == "LANGUAGE" || strings.HasPrefix(name, "LC_") || name == "TZ" || name == "TERM" ||
			name == "NO_COLOR" || name == "CLICOLOR" || name == "CLICOLOR_FORCE" || name == "FORCE_COLOR" ||
			name == "COLUMNS" || name == "LINES":
			for i := 0; i < len(val); i++ {
				c := val[i]
				if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-' || c == '+' || c == '@') {
					return false // a path (LC_ALL=/tmp/x loads that locale), an expansion
				}
			}
		case name == "IFS":
			// How read splits its line (IFS= read -r f); bash does not
			// take IFS from its environment, so no program it starts sees it.
			if strings.ContainsAny(val, "$`") {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// inputPipe reports whether a word's source form is one process
// substitution read as a file, "<(…)": the command gets a pipe's name
// (/dev/fd/63), never a path or an option, and reads what the commands
// inside print; those are subjects of their own, judged as any other.
func inputPipe(text string) bool {
	if !strings.HasPrefix(text, "<(") || !strings.HasSuffix(text, ")") {
		return false
	}
	depth := 0
	for i := 1; i < len(text); i++ {
		switch text[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 && i != len(text)-1 {
				return false // "<(a)x", "<(a)<(b)": more than one pipe's name
			}
		}
	}
	return depth == 0
}

// runtimeOperands reports whether a command found in context via gets
// operands only known when it runs (xargs CMD, find -exec CMD {}): what
// it reads is not in the call.
func runtimeOperands(via string) bool {
	head, _, _ := strings.Cut(via, " ")
	switch head {
	case "xargs", "parallel", "find", "fd", "fdfind", "git":
		return true
	}
	return false
}

// dynWord is what is known of a word of a command line whose value is
// known only when the command runs (dynamicWords).
type dynWord uint8

const (
	notDyn   dynWord = iota
	dynAny           // any word: an option, an operand
	dynToken         // an operand, never an option (word.token)
)

// dynamicWords says which of words are values known only when the
// command runs (DESIGN §3.1), nil when none is: a word that is a command
// or process substitution's output from its start, or a word xargs hands
// its command from a pipe of tokens (dynToken). The working directory
// ($(pwd), `pwd`) is known: the call's cwd. A parameter expansion keeps
// its name, which the table's matchers read ($AWS_SECRET_ACCESS_KEY).
func dynamicWords(words []word) []dynWord {
	var dyn []dynWord
	for i, wd := range words {
		k := dynAny
		switch {
		case wd.token:
			k = dynToken
		case wd.static || !substituted(wd.text) || cwdOnly(wd.text):
			continue
		}
		if dyn == nil {
			dyn = make([]dynWord, len(words))
		}
		dyn[i] = k
	}
	return dyn
}

// printedParam reports whether a, a word of command name, is a variable's
// value that the command only prints: an operand of a command that only prints (rolePrinter, echo) whose only
// expansions are plain parameters ($PATH, "${NAME}") the command line
// does not assign, each a name that says it holds no secret (plainEnv),
// or arithmetic (arithOnly: a number).
// It names no file and runs nothing. A variable the line may assign may
// hold any other's value (X=$GITHUB_TOKEN; for v in $X), and printf's
// words may be -v NAME.
func (w *walker) printedParam(name string, a word) bool {
	// A number an arithmetic expansion makes holds no secret (what it
	// reads is judged where bash evaluates it: arithCode).
	return hasRole(name, rolePrinter) && (arithOnly(a.text) || paramOnly(a.text, func(v string) bool { return plainEnv(v) && !w.assignedVars().has(v) }))
}

// allPlainEnv reports whether every name of names is an environment
// variable's that holds no secret (plainEnv).
func allPlainEnv(names []string) bool {
	for _, n := range names {
		if !plainEnv(n) {
			return false
		}
	}
	return true
}

// plainEnv reports whether an environment variable's name says what it
// holds and that is no secret: the shell's own, the locale's, a tool
// chain's directories, a CI run's names of its repository. Any other
// name may hold a credential no pattern of secretName knows
// (DATABASE_URL, MYSQL_PWD, SENTRY_DSN), so printing it stays asked.
func plainEnv(n string) bool {
	if secretName(n) {
		return false
	}
	switch n {
	case "PATH", "HOME", "SHELL", "USER", "LOGNAME", "PWD", "OLDPWD", "LANG", "LANGUAGE", "TZ", "TERM",
		"EDITOR", "VISUAL", "PAGER", "HOSTNAME", "HOSTTYPE", "OSTYPE", "MACHTYPE", "TMPDIR", "SHLVL",
		"COLUMNS", "LINES", "UID", "EUID", "PPID", "BASHPID", "BASH_VERSION", "RANDOM", "SECONDS", "LINENO",
		"GOPATH", "GOROOT", "GOOS", "GOARCH", "GOBIN", "GOFLAGS", "GOCACHE", "GOMODCACHE", "JAVA_HOME",
		"PYTHONPATH", "VIRTUAL_ENV", "CONDA_PREFIX", "NODE_ENV", "CARGO_HOME", "RUSTUP_HOME", "NVM_DIR",
		"MANPATH", "DISPLAY", "CI":
		return true
	}
	for _, p := range [...]string{"LC_", "XDG_", "GITHUB_", "RUNNER_"} {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}

// paramOnly reports whether the only expansions in a word's source form
// are plain parameters, $NAME or ${NAME}, each one ok accepts: no
// substitution, arithmetic, parameter operation (${X:-$(…)}), escape or
// tilde.
func paramOnly(text string, ok func(name string) bool) bool {
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '`', '\\', '~', '<', '>':
			return false
		case '$':
			j := i + 1
			brace := j < len(text) && text[j] == '{'
			if brace {
				j++
			}
			k := j
			for k < len(text) && (isWordByte(text[k]) && (k > j || text[k] < '0' || text[k] > '9')) {
				k++
			}
			if k == j || !ok(text[j:k]) {
				return false // $(, $((, $@, $1, …
			}
			if brace {
				k = paramSuffix(text, k)
				if k >= len(text) || text[k] != '}' {
					return false
				}
				k++
			}
			i = k - 1
		}
	}
	return true
}

// paramSuffix returns where a braced expansion's operator and literal
// word end, from k just after the name: a default (:-, -), a trimmed
// prefix or suffix (#, ##, %, %%) or a case change (^, ^^, ",", ",,"),
// whose word is plain text (echo "${PWD##*/}", "${HOME:-unset}"). Any
// other operator (an assignment, an indirection, a substitution) leaves
// k where it was, at no "}".
func paramSuffix(text string, k int) int {
	for _, op := range [...]string{":-", "##", "%%", "^^", ",,", "-", "#", "%", "^", ","} {
		if !strings.HasPrefix(text[k:], op) {
			continue
		}
		j := k + len(op)
		for j < len(text) && text[j] != '}' {
			if strings.IndexByte("$`\\{~'\"", text[j]) >= 0 {
				return k
			}
			j++
		}
		return j
	}
	return k
}

// cwdForms are the spellings of the working directory in a word's source.
var cwdForms = [...]string{"$(pwd)", "`pwd`", "${PWD}", "$PWD"}

// cwdRelative returns a value that starts with the working directory
// ("$PWD/bin") as the relative path it names ("./bin"), which resolves
// against wherever the shell is.
func cwdRelative(v string) string {
	for _, f := range cwdForms {
		if rest, ok := strings.CutPrefix(v, f); ok && (rest == "" || rest[0] == '/') {
			return "." + rest
		}
	}
	return v
}

// cwdOnly reports whether the only expansions in a word's source form
// name the working directory.
func cwdOnly(text string) bool {
	for _, f := range cwdForms {
		text = strings.ReplaceAll(text, f, "")
	}
	return !strings.ContainsAny(text, "$`")
}

// substituted reports whether a word's source form starts with a command
// or process substitution: its whole text is known only when it runs.
func substituted(text string) bool {
	return strings.HasPrefix(text, "$(") || strings.HasPrefix(text, "`") ||
		strings.HasPrefix(text, "<(") || strings.HasPrefix(text, ">(")
}

// writeForms drops from the command at idx, whose table entry is s, the
// exec-capable flags whose whole effect is writing its files
// (optEffect.writes: sed -i, find -delete) once those files are
// recorded, from fstart on: the command is then judged by the writes
// (DESIGN §3.1). Without a recorded write the flag stays, and only a
// rule naming it allows the command; so does a flag whose form the
// arguments do not take (optEffect.when).
func (w *walker) writeForms(idx int, s *cmdSpec, norm []string, fstart int) {
	cmd := &w.res.Commands[idx]
	if s == nil || len(cmd.ExecFlags) == 0 {
		return
	}
	wrote := false
	for _, f := range w.res.Files[fstart:] {
		wrote = wrote || f.Write || f.Delete
	}
	if !wrote {
		return
	}
	// The short letters of the exec options that are not writes: a
	// cluster holding one of them ("-if") keeps its flag.
	var other []byte
	for _, o := range s.opts {
		for _, n := range o.names {
			if o.exec && !o.writes && len(n) == 2 && n[0] == '-' {
				other = append(other, n[1])
			}
		}
	}
	for _, o := range s.opts {
		if !o.exec || !o.writes || o.when != nil && !o.when(norm) {
			continue
		}
		for _, n := range o.names {
			w.dropFlag(idx, n)
			if !o.cluster || len(n) != 2 {
				continue
			}
			for _, f := range slices.Clone(cmd.ExecFlags) {
				if len(f) > 2 && f[0] == '-' && f[1] != '-' && strings.IndexByte(f, n[1]) > 0 && !strings.ContainsAny(f[1:], string(other)) {
					w.dropFlag(idx, f) // -ni, -i.bak
				}
			}
		}
	}
}

// dropFlag removes flag from the exec-capable flags of the command at idx.
func (w *walker) dropFlag(idx int, flag string) {
	cmd := &w.res.Commands[idx]
	for i, f := range cmd.ExecFlags {
		if f == flag {
			cmd.ExecFlags = append(cmd.ExecFlags[:i:i], cmd.ExecFlags[i+1:]...)
			return
		}
	}
}

// seesThrough reports whether the command an exec-capable form runs
// (find -exec CMD, xargs CMD), whose first word is first and whose
// commands were emitted from start on, is one the analysis sees through:
// a static name the table knows the files of, no command of it opaque,
// no shell, interpreter or eval among them.
func (w *walker) seesThrough(first word, start int) bool {
	name := cmdName(first)
	if name == "" || !describes(name) || isInterpreter(name) { // a shell is one
		return false
	}
	return w.plainFrom(start)
}

// plainFrom reports whether no command from index start on is opaque,
// eval or an interpreter: what they run is all seen.
func (w *walker) plainFrom(start int) bool {
	for _, c := range w.res.Commands[start:] {
		if c.Opaque || c.Name == "eval" || isInterpreter(c.Name) {
			return false
		}
	}
	return true
}

// findAction returns the index of find's first action that runs or
// deletes (-exec, -delete, …), len(args) for none: the tests before it
// pick the files it acts on.
func findAction(args []word) int {
	for i, a := range args {
		switch a.text {
		case "-exec", "-execdir", "-ok", "-okdir", "-delete":
			return i
		}
	}
	return len(args)
}

// namePicked reports whether a producer's file-name pattern (findNames)
// has a name test: DIR/**/NAME, not every file below DIR, which takes
// the dot-files (.env, .git) along.
func namePicked(names string) bool {
	return names != "" && !strings.HasSuffix(names, "/**")
}

// ArgSet is a set of indexes of a command's arguments, the first 64: a
// value, so that finding it allocates nothing on the decision's path.
type ArgSet uint64

// Has reports whether index i is in the set.
func (s ArgSet) Has(i int) bool { return i >= 0 && i < 64 && s&(1<<uint(i)) != 0 }

// with returns the set with index i added; an index past 64 is left out,
// so that word is read as what it is not known to be a pattern: a path.
func (s ArgSet) with(i int) ArgSet {
	if i < 0 || i >= 64 {
		return s
	}
	return s | 1<<uint(i)
}

// PatternArgs returns the indexes in args of the words that are
// patterns, not paths: the operand that is the command's pattern or
// script (grep PATTERN FILE, sed SCRIPT FILE), as the command table says,
// and the values of find's name and path tests (-name '.*', -path
// '*/vendor/*'), which pick among the names below its starting points. A
// pattern names no file and no destination, so a check of the paths a
// command reads skips these words; the files it reads are the others.
func PatternArgs(name string, args []string) ArgSet {
	if s := commandSpec(name); s != nil && s.rare != nil && s.rare.patternArgs != nil {
		return s.rare.patternArgs(args)
	}
	return ArgSet(0).with(patternOperand(name, args))
}

// findPatterns returns the indexes of the values of find's name and path
// tests (rareSpec.patternArgs).
func findPatterns(args []string) ArgSet {
	var out ArgSet
	for i := 0; i+1 < len(args); i++ {
		if p, ok := findPrimaryOf(args[i]); ok && p&findValue != 0 {
			if findNamePattern(args[i]) {
				out = out.with(i + 1)
			}
			i++ // the value
		}
	}
	return out
}

// findNamePattern reports whether find's test t takes a pattern of names
// or paths; -newer and -samefile name a file, whose status they read.
func findNamePattern(t string) bool {
	switch t {
	case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname", "-ilname":
		return true
	}
	return false
}

// patternOperand returns the index in args of the operand that is the
// command's pattern or script, or -1 when it has none: a pattern option
// (-e, -f) or "--" before it leaves every operand a file.
func patternOperand(name string, args []string) int {
	s := commandSpec(name)
	if s == nil || !s.pattern || s.files == bySub {
		return -1
	}
	var optBuf [8]optArg
	var opBuf [8]int
	opts, ops := s.scanInto(args, nil, false, optBuf[:0], opBuf[:0])
	if len(ops) == 0 || ops[0] > 0 && args[ops[0]-1] == "--" {
		return -1
	}
	for _, o := range opts {
		for k := range s.opts {
			if e := &s.opts[k]; e.pattern && contains(e.names, o.name) {
				return -1
			}
		}
	}
	return ops[0]
}
