package shell

import (
	"path"
	"slices"
	"strings"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/sensitive"
	"mvdan.cc/sh/v3/syntax"
)

// walker collects one Analysis.
type walker struct {
	a        *Analyzer
	res      *Analysis
	left     Budget          // what remains of the analyzer's budget
	exceeded string          // the bound that stopped the walk, "" while within
	hashed   map[string]word // names hash -p bound to a program
	// written holds the text a static echo, printf or cat of a heredoc
	// wrote with > or >> to a static path of the same script, by the
	// path as written: a shell or source that runs the file later in
	// the script runs that text ("echo 'rm -rf ~' > a.sh; sh a.sh").
	written map[string]string
	// vars holds the static values the script assigns its variables
	// ("f=~/.ssh/id_rsa", "export D=.claude", "for f in a b"), each one
	// a value a later "$f" may have: deny rules and risk classes see the
	// paths they make (File.Alts).
	vars map[string][]string
	// secrets holds the variables assigned a secret from the environment
	// ("X=$GITHUB_TOKEN", "for v in $API_KEY"), each with the secret's
	// name: a later "$X" carries that secret (carriedSecrets).
	secrets map[string]string
	// lost holds the variables assigned a value remember cannot record
	// (a glob, a substitution, an append): the values vars holds for
	// them are not all they may have, so "$f" is a value nobody knows.
	lost map[string]bool
	// loops are the for loops over a glob whose body is being walked
	// (bindLoopGlob): there "$f" stands for the glob.
	loops []loopGlob
	// scanned is the source of the outermost loop being walked, whose
	// assignments loopAssigns read: a loop nested in it was read with it.
	scanned string
	// readsProduced holds the commands, by index, that only read and
	// whose operands an exec-capable form hands them at run time (find
	// -exec CMD {}, PRODUCER | xargs CMD): read-only once the form is
	// seen through, its files recorded (markProduced).
	readsProduced map[int]bool
	// env is what the caller knows of the environment (nil: nothing), and
	// assigned what the scripts may assign: a word whose variables the
	// environment gives and no script changes is resolved (resolveWord).
	env      Vars
	assigned assigned
	top      *syntax.File // the command line, until assignedVars scans it
	// funcs is set once the script defines a function, and external
	// holds, by index, the commands of the table's programs whose words
	// subscriptCode has yet to see: a function of the same name would
	// make them the script's own words (finish).
	funcs    bool
	external []int
	// line is the command line and nested the scripts parsed in it so
	// far (eval, bash -c, trap, alias, …); unseen reads the first
	// hiddenRead of them and sets hidden once one may hide code that
	// assigns a loop's variable.
	line       *syntax.File
	nested     []*syntax.File
	hiddenRead int
	hidden     bool
	// varsOff is set once a nameref may exist or code the walk does not
	// see may have made one: an assignment to one name may then set
	// another, so vars records nothing more.
	varsOff bool
}

// maxVars and maxVarValues bound what vars remembers.
const (
	maxVars      = 64
	maxVarValues = 4
)

// remember records value as one a variable may have, when it is static
// (or static once $HOME, $XDG_* and known variables are put in).
func (w *walker) remember(name string, v word) {
	w.taint(name, v.text)
	if name == "" || w.lost[name] {
		return
	}
	if v.glob || w.varsOff || len(v.text) > maxExpansionBytes {
		w.lose(name)
		return
	}
	val := v.text
	if v.tilde || strings.HasPrefix(val, "$") {
		if e, ok := expandHome(val, w.a.home); ok {
			val = e
		}
	}
	vals := []string{val}
	if strings.ContainsAny(val, "$`") {
		if vals = expansions(val, w.a.home, w.vars, maxVarValues); len(vals) == 0 {
			w.lose(name)
			return
		}
	}
	if w.vars == nil {
		w.vars = make(map[string][]string)
	}
	if _, ok := w.vars[name]; !ok && len(w.vars) >= maxVars {
		return
	}
	for _, v := range vals {
		if len(w.vars[name]) < maxVarValues && !slices.Contains(w.vars[name], v) {
			w.vars[name] = append(w.vars[name], v)
		}
	}
}

// lose marks name as assigned a value remember cannot record (lost).
func (w *walker) lose(name string) {
	if w.lost == nil {
		w.lost = make(map[string]bool)
	}
	w.lost[name] = true
	delete(w.vars, name)
}

// rememberAssign records a plain assignment's value (NAME=value). An
// append (f+=x) or an element (f[0]=x, f=(x y): "$f" is the first) makes
// a value it cannot record.
func (w *walker) rememberAssign(as *syntax.Assign, src string) {
	if as.Name == nil || as.Naked {
		return
	}
	if as.Array != nil || as.Index != nil || as.Append {
		w.taint(as.Name.Value, srcOf(src, as))
	}
	if as.Value == nil || as.Array != nil || as.Index != nil || as.Append {
		w.lose(as.Name.Value)
		return
	}
	w.remember(as.Name.Value, render(src, as.Value))
}

// forget marks lost the variables a command assigns where remember does
// not see it: read, mapfile, readarray, getopts, unset and printf -v
// lose the names they are given; eval, source, a command named at run
// time, or any command once the script defines functions (a function
// may be called so, and its body read or eval into any variable), lose
// every variable known so far. Code it does not see (hidesCode) may make
// a nameref: vars then records nothing more (varsOff).
func (w *walker) forget(x *syntax.CallExpr, src string) {
	if len(x.Args) == 0 {
		return
	}
	if hidesCode(x) {
		w.varsOff = true
	}
	if len(w.vars) == 0 {
		return
	}
	name, ok := litOf(x.Args[0])
	switch {
	case !ok || w.funcs || name == "eval" || name == "source" || name == "." || name == "builtin" ||
		name == "command" || name == "enable" || name == "let":
		w.loseAll()
	case name == "printf":
		for i := 1; i < len(x.Args); i++ {
			t := render(src, x.Args[i])
			switch {
			case !t.static:
				if i == 1 {
					w.loseAll() // printf $opt …: perhaps -v
				}
			case t.text == "-v" && i+1 < len(x.Args):
				if v := render(src, x.Args[i+1]); v.static {
					w.lose(v.text)
				} else {
					w.loseAll()
				}
			case strings.HasPrefix(t.text, "-v"):
				w.lose(t.text[2:])
			}
		}
	case slices.Contains(assignsVars, name):
		for _, a := range x.Args[1:] {
			t := render(src, a)
			if !t.static {
				w.loseAll()
				return
			}
			if isVarName(t.text) {
				w.lose(t.text)
			}
		}
	}
}

// loseAll marks lost every variable known so far.
func (w *walker) loseAll() {
	for name := range w.vars {
		w.lose(name)
	}
}

// loopAssigns records, before a loop's condition and body are walked,
// the values they assign anywhere in them: a later iteration runs the
// first words with the values the last ones assigned ("for …; do cat
// $f; f=~/.ssh/id_rsa; done"). A loop inside one already read (of the
// same source) is not read again. It returns w.scanned as it was, for
// the caller to put back once the loop is walked.
func (w *walker) loopAssigns(src string, loop syntax.Node) (outer string) {
	outer = w.scanned
	if outer == src {
		return outer
	}
	w.scanned = src
	syntax.Walk(loop, func(n syntax.Node) bool {
		if !w.step(1) {
			return false
		}
		switch n := n.(type) {
		case *syntax.Assign:
			w.rememberAssign(n, src)
		case *syntax.CallExpr:
			w.forget(n, src)
		case *syntax.DeclClause:
			w.varsOff = w.varsOff || declaresRef(n)
		case *syntax.ForClause:
			if wi, ok := n.Loop.(*syntax.WordIter); ok && wi.Name != nil {
				for _, item := range wi.Items {
					w.remember(wi.Name.Value, render(src, item))
				}
			}
		}
		return true
	})
	return outer
}

// scope is what a statement inherits from where it is found.
type scope struct {
	src   string // the source the nodes' positions refer to
	via   string // wrapper or context of the commands
	depth int    // nesting of parsed scripts
	nest  int    // nesting of substitutions, wrappers, scripts, … (Budget.Depth)
	stdin stdin  // where the statement's standard input comes from
}

// stdin describes a statement's standard input.
type stdin struct {
	kind   stdinKind
	script string // the text when known (heredoc, here-string, echo | …)
	static bool   // script has no expansions
	fetch  bool   // fed by a remote fetcher
	// names is the pattern of the file names the pipe carries, one per
	// line, when the previous stage only lists files ("find DIR -name
	// X": DIR/**): what xargs then hands its command.
	names string
	// tokens is set when the previous stage prints only words that never
	// start with "-" (pipeTokens: branch names, commit hashes, resource
	// names, ids): what xargs hands its command are operands.
	tokens bool
	// files is set when the pipe carries only what a reader the tables
	// describe made of the files it names or of such a pipe ("cat
	// README.md |", "tar cz . | gzip |"): its files are subjects of their
	// own, so sending the pipe sends nothing the rules did not see.
	files bool
	// secret is a file the pipe or redirection carries whose name says it
	// holds secrets (sensitive.SecretName): "cat .env |", "< .env".
	secret string
	// environ is set when the pipe carries the environment's values: the
	// stage before dumps it (dumpsEnviron: "env |", "export -p |") or
	// reads such a pipe ("env | sort |").
	environ bool
}

type stdinKind uint8

const (
	stdinNone stdinKind = iota // the terminal
	stdinText                  // a heredoc, here-string or static echo
	stdinPipe                  // a pipe from a command of unknown output
	stdinFile                  // a file redirection
)

// dirState tracks the working directory set by cd within one shell.
type dirState struct {
	dir   string
	stack []string // pushd
	// alt holds the other directories the shell may be in: a cd may fail
	// or may sit in a branch that does not run ("cd x; rm -rf *" runs rm
	// in the old directory when x does not exist). Nil for none (kept out
	// of line so the common state stays small); never modified once set.
	alt *dirAlts
}

// dirAlts are the alternative directories of a dirState.
type dirAlts struct {
	dirs []string
	// lost is set when there were too many alternatives to track: a
	// relative path may then resolve anywhere.
	lost bool
}

func (d *dirState) alts() []string {
	if d.alt == nil {
		return nil
	}
	return d.alt.dirs
}

func (d *dirState) lost() bool { return d.alt != nil && d.alt.lost }

// maxDirAlts bounds dirState.alts.
const maxDirAlts = 4

func (d *dirState) clone() *dirState {
	c := *d // stack is copied on write by pushd
	return &c
}

// stmts walks a sequential list of statements.
func (w *walker) stmts(list []*syntax.Stmt, c scope, d *dirState) {
	for _, s := range list {
		w.stmt(s, c, d)
	}
}

// pendingFile is a redirection target waiting for its command's text.
type pendingFile struct {
	w     word
	write bool
}

func (w *walker) stmt(s *syntax.Stmt, c scope, d *dirState) {
	if !w.step(1) {
		return
	}
	if s.Background || s.Coprocess || s.Disown {
		w.unprefixable("background", "a lone & runs a command in the background where no prefix can vet it", srcOf(c.src, s))
	}
	var pend []pendingFile
	for _, r := range s.Redirs {
		pend = w.redirect(r, &c, d, pend)
	}
	w.recordWritten(s, c)
	start := len(w.res.Commands)
	switch x := s.Cmd.(type) {
	case nil:
	case *syntax.CallExpr:
		w.forget(x, c.src)
		w.call(x, c, d)
		w.carriedSecrets(start)
	case *syntax.BinaryCmd:
		switch x.Op {
		case syntax.Pipe, syntax.PipeAll:
			w.pipeline(x, c, d)
		case syntax.AndStmt:
			w.andStmt(x, c, d)
		default:
			w.stmt(x.X, c, d)
			w.stmt(x.Y, c, d)
		}
	case *syntax.Subshell:
		w.stmts(x.Stmts, c, d.clone())
	case *syntax.Block:
		w.stmts(x.Stmts, c, d)
	case *syntax.IfClause:
		for ic := x; ic != nil; ic = ic.Else {
			w.stmts(ic.Cond, c, d)
			w.stmts(ic.Then, c, d)
		}
	case *syntax.WhileClause:
		outer := w.loopAssigns(c.src, x)
		w.stmts(x.Cond, c, d)
		lg, bound := w.bindReadLoop(x, c.stdin, c.src)
		if bound {
			w.loops = append(w.loops, lg)
		}
		w.stmts(x.Do, c, d)
		if bound {
			w.loops = w.loops[:len(w.loops)-1]
		}
		w.scanned = outer
	case *syntax.ForClause:
		outer := w.loopAssigns(c.src, x)
		c2 := c
		c2.stdin = stdin{}
		w.scanNode(x.Loop, c2, d)
		bound, walked := false, false
		if it, ok := x.Loop.(*syntax.WordIter); ok && it.Name != nil {
			items := make([]word, 0, len(it.Items))
			for _, item := range it.Items {
				items = append(items, render(c.src, item))
				w.remember(it.Name.Value, items[len(items)-1])
			}
			if lg, ok := w.bindLoopGlob(it, items, c.src, x.Do); ok {
				w.loops, bound = append(w.loops, lg), true
			} else if !x.Select && w.literalItems(it, items, x.Do) {
				// (select sets the variable to what is chosen, or to ""
				// for a choice out of range: no word of the list.)
				// for ns in dev staging: the body once per word.
				for _, item := range items {
					w.loops = append(w.loops, loopGlob{name: it.Name.Value, src: c.src, pat: item.text, lit: true})
					w.stmts(x.Do, c, d)
					w.loops = w.loops[:len(w.loops)-1]
				}
				walked = true
			}
		}
		if !walked {
			w.stmts(x.Do, c, d)
		}
		if bound {
			w.loops = w.loops[:len(w.loops)-1]
		}
		w.scanned = outer
	case *syntax.CaseClause:
		c2 := c
		c2.stdin = stdin{}
		w.scanWord(x.Word, c2, d)
		for _, it := range x.Items {
			for _, p := range it.Patterns {
				w.scanWord(p, c2, d)
			}
			w.stmts(it.Stmts, c, d)
		}
	case *syntax.FuncDecl:
		w.funcs = true
		w.forkBomb(x, c)
		if fc, ok := w.nest(scope{src: c.src, via: c.via, depth: c.depth, nest: c.nest}); ok {
			w.stmt(x.Body, fc, d.clone())
		}
	case *syntax.ArithmCmd:
		w.scanNode(x.X, c, d)
		w.testOnly(w.emit(Command{Text: strings.Join(strings.Fields(srcOf(c.src, x)), " "), Name: "((", Via: c.via}))
	case *syntax.TestClause:
		// A test is a command of its own (its status is the point of
		// "[[ -f go.mod ]]"); its substitutions were scanned above.
		w.scanNode(x.X, c, d)
		w.testOnly(w.emit(Command{Text: strings.Join(strings.Fields(srcOf(c.src, x)), " "), Name: "[[", Via: c.via}))
	case *syntax.DeclClause:
		w.decl(x, c, d)
	case *syntax.LetClause:
		for _, e := range x.Exprs {
			w.scanNode(e, c, d)
		}
		w.emit(Command{Text: strings.Join(strings.Fields(srcOf(c.src, x)), " "), Name: "let", Via: c.via})
	case *syntax.TimeClause:
		if x.Stmt != nil {
			w.stmt(x.Stmt, c, d)
		}
	case *syntax.CoprocClause:
		w.unprefixable("coproc", "coproc runs a command in the background where no prefix can vet it", srcOf(c.src, x))
		w.stmt(x.Stmt, c, d.clone())
	case *syntax.TestDecl:
		w.stmt(x.Body, c, d.clone())
	default:
		// Unknown construct: an opaque subject, never a hidden one.
		w.emit(Command{Text: srcOf(c.src, x), Opaque: true, Via: c.via})
	}
	if len(pend) == 0 {
		return
	}
	owner := ""
	if _, ok := s.Cmd.(*syntax.CallExpr); ok && len(w.res.Commands) > start {
		owner = w.res.Commands[len(w.res.Commands)-1].Text
	} else if s.Cmd != nil {
		owner = truncate(srcOf(c.src, s.Cmd))
	}
	for _, p := range pend {
		w.file(p.w, p.write, owner, d)
	}
}

// andStmt walks X && Y. When X is only cd commands, Y runs only if they
// succeeded, so Y is walked in the directory they lead to without the
// alternatives of their failure; after the list, either may hold.
func (w *walker) andStmt(x *syntax.BinaryCmd, c scope, d *dirState) {
	before := *d
	w.stmt(x.X, c, d)
	cds := cdChain(x.X, nil)
	if cds == nil || d.dir == before.dir {
		w.stmt(x.Y, c, d)
		return
	}
	y := before
	for _, ce := range cds {
		words := make([]word, 0, len(ce.Args))
		for _, a := range ce.Args {
			words = append(words, render(c.src, a))
		}
		w.chdir(&y, words[0].text, words[1:], false)
	}
	w.stmt(x.Y, c, &y)
	failed := d.dir // X's state: its own dir and the failure alternatives
	alts, lost := d.alts(), d.lost() || y.lost()
	d.dir, d.stack, d.alt = y.dir, y.stack, y.alt
	d.addAlts(append([]string{failed}, alts...)...)
	if lost && !d.lost() {
		d.alt = &dirAlts{dirs: d.alts(), lost: true}
	}
}

// maxCdChain bounds the cd commands andStmt follows: it looks at every
// prefix of a && list, so a longer bound would make a long list quadratic.
// Beyond it the list is walked as any other, which only adds directories.
const maxCdChain = 16

// cdChain returns the cd, pushd and popd commands of s when s consists of
// nothing else (joined by &&) and there are at most maxCdChain of them,
// nil otherwise.
func cdChain(s *syntax.Stmt, acc []*syntax.CallExpr) []*syntax.CallExpr {
	nodes := 2 * maxCdChain // a chain of n commands has 2n-1 nodes
	return cdChainN(s, acc, &nodes)
}

func cdChainN(s *syntax.Stmt, acc []*syntax.CallExpr, nodes *int) []*syntax.CallExpr {
	if *nodes--; *nodes < 0 || s == nil || len(s.Redirs) > 0 || s.Negated || s.Background {
		return nil
	}
	switch x := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(x.Assigns) > 0 || len(x.Args) == 0 {
			return nil
		}
		switch x.Args[0].Lit() {
		case "cd", "pushd", "popd":
			return append(acc, x)
		}
	case *syntax.BinaryCmd:
		if x.Op == syntax.AndStmt {
			if acc = cdChainN(x.X, acc, nodes); acc != nil {
				return cdChainN(x.Y, acc, nodes)
			}
		}
	}
	return nil
}

// addAlts adds directories the shell may be in instead of d.dir.
func (d *dirState) addAlts(dirs ...string) {
	for _, a := range dirs {
		if a == d.dir || contains(d.alts(), a) {
			continue
		}
		n := &dirAlts{}
		if d.alt != nil {
			*n = *d.alt
		}
		if len(n.dirs) >= maxDirAlts {
			n.lost = true
		} else {
			n.dirs = append(n.dirs[:len(n.dirs):len(n.dirs)], a) // copy on write
		}
		d.alt = n
	}
}

// each calls f with every directory the shell may be in, d.dir first.
func (d *dirState) each(f func(dir string)) {
	f(d.dir)
	for _, a := range d.alts() {
		f(a)
	}
}

// redirect walks a redirection: its substitutions, its effect on the
// statement's standard input, and the file it names.
func (w *walker) redirect(r *syntax.Redirect, c *scope, d *dirState, pend []pendingFile) []pendingFile {
	inner := *c
	inner.stdin = stdin{}
	fetch := w.scanWord(r.Word, inner, d)
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		if r.Hdoc == nil {
			c.stdin = stdin{kind: stdinText, static: true}
			return pend
		}
		fetch = w.scanWord(r.Hdoc, inner, d)
		text, static := heredocText(c.src, r)
		c.stdin = stdin{kind: stdinText, script: text, static: static, fetch: fetch}
		return pend
	case syntax.WordHdoc:
		rw := render(c.src, r.Word)
		c.stdin = stdin{kind: stdinText, script: rw.text + "\n", static: rw.static, fetch: fetch}
		return pend
	}
	rw := render(c.src, r.Word)
	if !rw.static {
		if res, ok := w.loopWord(c.src, r.Word); ok {
			rw = res
		} else if res, ok := w.resolveWord(c.src, r.Word); ok {
			rw = res
		}
	}
	if strings.HasPrefix(rw.text, "/dev/tcp/") || strings.HasPrefix(rw.text, "/dev/udp/") {
		w.critical(RiskDevTCP, "a redirection to "+rw.text+" opens a network connection from the shell", rw.text)
	}
	switch r.Op {
	case syntax.RdrIn:
		c.stdin = stdin{kind: stdinFile, fetch: fetch, secret: secretFile(rw)}
		return append(pend, pendingFile{rw, false})
	case syntax.DplIn:
		if isFD(rw.text) {
			return pend
		}
		c.stdin = stdin{kind: stdinFile, fetch: fetch}
		return append(pend, pendingFile{rw, false})
	case syntax.DplOut:
		if isFD(rw.text) {
			return pend
		}
		return append(pend, pendingFile{rw, true})
	case syntax.RdrInOut:
		if r.N == nil {
			c.stdin = stdin{kind: stdinFile, fetch: fetch}
		}
		return append(pend, pendingFile{rw, true})
	default: // >, >>, >|, &>, &>>, and zsh's clobbering forms
		return append(pend, pendingFile{rw, true})
	}
}

// secretFile returns the path rw names when it is static and its name
// says it holds secrets, or "".
func secretFile(rw word) string {
	if rw.static && sensitive.SecretName(rw.text) {
		return rw.text
	}
	return ""
}

func isFD(s string) bool {
	return s == "-" || s == "" || number(strings.TrimSuffix(s, "-"))
}

// heredocText returns a heredoc body as the shell would feed it.
func heredocText(src string, r *syntax.Redirect) (string, bool) {
	quoted := false
	for _, p := range r.Word.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.IndexByte(p.Value, '\\') >= 0 {
				quoted = true
			}
		default:
			quoted = true
		}
	}
	var b strings.Builder
	static := true
	for _, p := range r.Hdoc.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if quoted {
				b.WriteString(p.Value)
			} else {
				unquoteDbl(&b, p.Value, false)
			}
		default:
			static = false
			b.WriteString(srcOf(src, p))
		}
	}
	return b.String(), static
}

// pipeline walks a pipeline stage by stage: each stage is a subshell whose
// standard input is the previous stage's output.
func (w *walker) pipeline(x *syntax.BinaryCmd, c scope, d *dirState) {
	var buf [8]*syntax.Stmt
	stages := pipeStages(x.Y, pipeStages(x.X, buf[:0]))
	in := c.stdin
	// Each stage is a subshell with its own copy of the directory state,
	// made in one allocation for the whole pipeline.
	sds := make([]dirState, len(stages))
	for i, s := range stages {
		sc := c
		sc.stdin = in
		start, fstart := len(w.res.Commands), len(w.res.Files)
		sds[i] = *d
		w.stmt(s, sc, &sds[i])
		if i == len(stages)-1 {
			break
		}
		fetch := in.fetch
		for _, cmd := range w.res.Commands[start:] {
			if hasRole(cmd.Name, roleFetcher) {
				fetch = true
			}
		}
		if text, ok := staticOutput(c.src, s); ok {
			in = stdin{kind: stdinText, script: text, static: true, fetch: fetch}
		} else {
			prev := in
			in = stdin{kind: stdinPipe, fetch: fetch}
			if cmds := w.res.Commands[start:]; len(cmds) == 1 && len(s.Redirs) == 0 {
				in.names = pipeNames(&cmds[0], prev.names)
				in.tokens = pipeTokens(&cmds[0], prev.tokens)
				in.files = readsFiles(cmds[0].Name) && cmds[0].Effects&(EffectRuns|EffectNetwork) == 0 &&
					(prev.kind != stdinPipe || prev.files)
				in.environ = dumpsEnviron(&cmds[0]) ||
					prev.environ && (readsFiles(cmds[0].Name) || inputFilter(cmds[0].Name)) && cmds[0].Effects&(EffectRuns|EffectNetwork) == 0
				if in.files {
					in.secret = prev.secret
					for _, f := range w.res.Files[fstart:] {
						if !f.Write && f.Static && sensitive.SecretName(f.Path) {
							in.secret = f.Path
						}
					}
				}
			}
		}
	}
}

// pipeStages appends the stages of the pipeline s is (s itself when it is
// no pipeline) to out.
func pipeStages(s *syntax.Stmt, out []*syntax.Stmt) []*syntax.Stmt {
	if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) &&
		len(s.Redirs) == 0 && !s.Background && !s.Negated {
		return pipeStages(b.Y, pipeStages(b.X, out))
	}
	return append(out, s)
}

// recordWritten notes the text a static echo, printf or cat of a heredoc
// writes to a static path with > or >> (walker.written). A write whose
// text is not known forgets what an earlier write left there. Of several
// redirections of the output, as in bash only the last gets the text:
// an earlier > empties its file, an earlier >> leaves it. The text is
// rendered once per statement, and a file's recorded text stops growing
// at maxWrittenBytes: past it the content is unknown (unknownWritten),
// so the work stays linear in the script's size.
func (w *walker) recordWritten(s *syntax.Stmt, c scope) {
	last := -1
	for i, r := range s.Redirs {
		if stdoutWrite(r) {
			last = i
		}
	}
	if last < 0 {
		return
	}
	text, ok := "", false
	rendered := false
	for i, r := range s.Redirs {
		if !stdoutWrite(r) {
			continue
		}
		target := render(c.src, r.Word)
		if !target.static || target.text == "" {
			continue
		}
		key := path.Clean(target.text)
		if w.written == nil {
			w.written = map[string]string{}
		}
		appends := r.Op == syntax.AppOut || r.Op == syntax.AppAll
		if i != last {
			if !appends {
				w.written[key] = "" // emptied; the text goes further on
			}
			continue
		}
		if !rendered {
			text, ok = staticOutput(c.src, s)
			rendered = true
		}
		prev, had := w.written[key]
		switch {
		case !ok || appends && had && prev == unknownWritten:
			w.written[key] = unknownWritten
		case appends && len(prev)+len(text) > maxWrittenBytes:
			w.written[key] = unknownWritten
		case appends:
			w.written[key] = prev + text
		default:
			w.written[key] = text
		}
	}
}

// stdoutWrite reports whether a redirection writes the standard output to
// a file: >, >>, >|, &>, &>>.
func stdoutWrite(r *syntax.Redirect) bool {
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll:
		return r.N == nil || r.N.Value == "1"
	}
	return false
}

// unknownWritten marks a file the script wrote with a text it cannot
// know (a command's output, or more than maxWrittenBytes of appends):
// running it is running an unknown script.
const unknownWritten = "\x00unknown"

// maxWrittenBytes bounds the text recorded for one file.
const maxWrittenBytes = 64 << 10

// writtenScript returns the text the script wrote to a file it now runs
// (walker.written).
func (w *walker) writtenScript(p word) (string, bool) {
	if !p.static || w.written == nil {
		return "", false
	}
	text, ok := w.written[path.Clean(p.text)]
	return text, ok && text != unknownWritten
}

// staticOutput returns what a stage writes when it is a static echo,
// printf or cat of a heredoc.
func staticOutput(src string, s *syntax.Stmt) (string, bool) {
	x, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(x.Args) == 0 || len(x.Assigns) > 0 {
		return "", false
	}
	if first := render(src, x.Args[0]).text; first != "echo" && first != "printf" && first != "cat" {
		return "", false
	}
	args := make([]string, 0, len(x.Args))
	for _, a := range x.Args {
		rw := render(src, a)
		if !rw.static {
			return "", false
		}
		args = append(args, rw.text)
	}
	switch args[0] {
	case "echo":
		args = args[1:]
		esc := false
		for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" {
			esc = esc || strings.Contains(args[0], "e")
			args = args[1:]
		}
		text := strings.Join(args, " ") + "\n"
		if esc {
			var b strings.Builder
			ansiC(&b, text)
			text = b.String()
		}
		return text, true
	case "printf":
		if len(args) < 2 {
			return "", false
		}
		var b strings.Builder
		ansiC(&b, args[1])
		f, rest := b.String(), args[2:]
		var out strings.Builder
		for i := 0; i < len(f); i++ {
			if f[i] != '%' || i+1 >= len(f) {
				out.WriteByte(f[i])
				continue
			}
			i++
			switch f[i] {
			case '%':
				out.WriteByte('%')
			case 's', 'b':
				if len(rest) > 0 {
					out.WriteString(rest[0])
					rest = rest[1:]
				}
			default:
				return "", false
			}
		}
		return out.String(), true
	case "cat":
		if len(args) == 1 {
			for _, r := range s.Redirs {
				if (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc) && r.Hdoc != nil {
					return heredocText(src, r)
				}
			}
		}
	}
	return "", false
}

// scanWord walks the substitutions in x; their commands become Commands.
// It reports whether one of them runs a remote fetcher.
func (w *walker) scanWord(x *syntax.Word, c scope, d *dirState) (fetch bool) {
	if x == nil {
		return false
	}
	simple := true
	for _, p := range x.Parts {
		switch p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		default:
			simple = false
		}
	}
	if simple {
		return false
	}
	return w.scanNode(x, c, d)
}

// scanNode walks the substitutions anywhere under n.
func (w *walker) scanNode(n syntax.Node, c scope, d *dirState) (fetch bool) {
	if n == nil {
		return false
	}
	c.stdin = stdin{}
	sc, nested := c, false       // one level deeper, taken at the first substitution
	var known []*syntax.CmdSubst // "$(cat <<'EOF' …)": a text the words read
	syntax.Walk(n, func(n syntax.Node) bool {
		if !w.step(1) {
			return false
		}
		var stmts []*syntax.Stmt
		switch n := n.(type) {
		case *syntax.ParamExp:
			w.promptExpansion(n, c.src)
			return true
		case *syntax.DblQuoted:
			for _, p := range n.Parts {
				if cs, ok := p.(*syntax.CmdSubst); ok {
					if _, ok := catHeredoc(c.src, cs); ok {
						known = append(known, cs)
					}
				}
			}
			return true
		case *syntax.CmdSubst:
			if !slices.Contains(known, n) {
				w.unprefixable("command-substitution", "command substitution runs a command whose output no prefix can vet", srcOf(c.src, n))
			}
			stmts = n.Stmts
		case *syntax.ProcSubst:
			w.unprefixable("process-substitution", "process substitution runs a command no prefix can vet", srcOf(c.src, n))
			stmts = n.Stmts
		case *syntax.ExtGlob:
			// The parser keeps an extended glob's pattern as text; bash
			// runs the substitutions in it ("!($(id))0").
			if v := n.Pattern; v != nil && (strings.Contains(v.Value, "$(") || strings.Contains(v.Value, "`") ||
				strings.Contains(v.Value, "<(") || strings.Contains(v.Value, ">(")) {
				w.unprefixable(RiskUnparsed, "an extended glob holds a substitution the parser does not read", srcOf(c.src, n))
			}
			return true
		default:
			return true
		}
		if !nested {
			var ok bool
			if sc, ok = w.nest(c); !ok {
				return false
			}
			nested = true
		}
		start := len(w.res.Commands)
		w.stmts(stmts, sc, d.clone())
		fetched := false
		for _, cmd := range w.res.Commands[start:] {
			if hasRole(cmd.Name, roleFetcher) {
				fetch, fetched = true, true
			}
		}
		if fetched {
			w.critical(RiskFetchSubst, "a substitution's output comes from a network download, and what it makes the command do is not in the call", srcOf(c.src, n))
		}
		return false
	})
	return fetch
}

// decl handles export, declare, local, readonly, typeset and nameref.
func (w *walker) decl(x *syntax.DeclClause, c scope, d *dirState) {
	args := make([]string, 0, len(x.Args))
	for _, as := range x.Args {
		args = append(args, w.assign(as, c, d))
		w.rememberAssign(as, c.src)
	}
	if declaresRef(x) {
		w.varsOff = true
		w.loseAll()
	}
	name := x.Variant.Value
	text := name
	if len(args) > 0 {
		text += " " + strings.Join(args, " ")
	}
	cmd := Command{Text: text, Name: name, Args: args, Via: c.via}
	classify(&cmd, name, args)
	w.emit(cmd)
}

// assign renders an assignment ("NAME=value") and walks its substitutions.
func (w *walker) assign(as *syntax.Assign, c scope, d *dirState) string {
	c.stdin = stdin{}
	if as.Array != nil || as.Index != nil {
		w.scanNode(as, c, d)
		return srcOf(c.src, as)
	}
	if as.Naked {
		if as.Value != nil {
			w.scanWord(as.Value, c, d)
			return render(c.src, as.Value).text
		}
		if as.Name != nil {
			return as.Name.Value
		}
		return ""
	}
	op := "="
	if as.Append {
		op = "+="
	}
	name := ""
	if as.Name != nil {
		name = as.Name.Value
	}
	if as.Value == nil {
		return name + op
	}
	w.scanWord(as.Value, c, d)
	return name + op + render(c.src, as.Value).text
}

// forkBomb reports a function that calls itself in a pipeline or in the
// background.
func (w *walker) forkBomb(x *syntax.FuncDecl, c scope) {
	if x.Name == nil || x.Body == nil {
		return
	}
	name := x.Name.Value
	calls := func(s *syntax.Stmt) bool {
		found := false
		syntax.Walk(s, func(n syntax.Node) bool {
			if !w.step(1) {
				return false
			}
			if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 && ce.Args[0].Lit() == name {
				found = true
			}
			return !found
		})
		return found
	}
	bomb := false
	syntax.Walk(x.Body, func(n syntax.Node) bool {
		if bomb || !w.step(1) {
			return false
		}
		switch n := n.(type) {
		case *syntax.Stmt:
			if n.Background && calls(n) {
				bomb = true
			}
		case *syntax.BinaryCmd:
			if (n.Op == syntax.Pipe || n.Op == syntax.PipeAll) && (calls(n.X) || calls(n.Y)) {
				bomb = true
			}
		}
		return !bomb
	})
	if bomb {
		w.critical(RiskForkBomb, "function "+name+" calls itself in a pipeline or in the background: a fork bomb that exhausts the machine's processes", truncate(srcOf(c.src, x)))
	}
}

// testOnly marks read-only the [[ ]] or (( )) test at idx, unless its
// words hide code (emit made it opaque): it reads no file's content and
// writes nothing, and the commands substituted into it are subjects of
// their own.
func (w *walker) testOnly(idx int) {
	if cmd := &w.res.Commands[idx]; !cmd.Opaque && len(cmd.Classes) == 0 {
		cmd.ReadOnly = true
	}
}

// emit appends a command and returns its index.
func (w *walker) emit(cmd Command) int {
	n := len(cmd.Text)
	for _, a := range cmd.Alts {
		n += len(a)
	}
	w.spendSubject(n)
	if cmd.Name == "[" || cmd.Name == "[[" || cmd.Name == "test" {
		if w.testCode(&cmd) || w.codeVar(&cmd) {
			cmd.Opaque = true
		}
	} else if externalProgram(&cmd) {
		// Bash hands a program its words as strings: it evaluates none
		// as a variable name or arithmetic ("aws … --query
		// 'Tags[?Key==`Name`]'"), unless a function takes the name. A
		// NAME=VALUE word may reach a shell's environment (env, sudo,
		// make), where arithmetic evaluates it.
		w.external = append(w.external, len(w.res.Commands))
		for _, a := range cmd.Args {
			if name, _, ok := strings.Cut(a, "="); ok && identifier(name) && w.subscriptCode(a) {
				cmd.Opaque = true
				break
			}
		}
		if w.codeVar(&cmd) {
			cmd.Opaque = true
		}
	} else if w.subscriptCode(cmd.Text) || w.codeVar(&cmd) {
		cmd.Opaque = true
	}
	historyOff(&cmd)
	programVar(&cmd)
	gateVars(&cmd)
	indexVar(&cmd)
	w.res.Commands = append(w.res.Commands, cmd)
	if strings.Contains(cmd.Text, "/dev/tcp/") || strings.Contains(cmd.Text, "/dev/udp/") {
		w.critical(RiskDevTCP, "the command uses /dev/tcp or /dev/udp to open a network connection from the shell", cmd.Text)
	}
	return len(w.res.Commands) - 1
}

// addRisk records r unless a risk with its code is already recorded.
func (w *walker) addRisk(r toolgate.Risk) {
	for _, o := range w.res.Risks {
		if o.Code == r.Code {
			return
		}
	}
	w.res.Risks = append(w.res.Risks, r)
}

func (w *walker) unprefixable(code, reason, subject string) {
	w.addRisk(toolgate.Risk{Code: code, Severity: toolgate.SeverityUnprefixable, Reason: reason, Subject: truncate(subject)})
}

func (w *walker) critical(code, reason, subject string) {
	w.addRisk(toolgate.Risk{Code: code, Severity: toolgate.SeverityCritical, Reason: reason, Subject: truncate(subject)})
}

// finish runs the checks on the whole source.
func (w *walker) finish(src string) {
	if w.funcs {
		for _, i := range w.external {
			if w.subscriptCode(w.res.Commands[i].Text) {
				w.res.Commands[i].Opaque = true
			}
		}
	}
	w.res.NoCaseGlob = w.caseGlob(src)
	if w.dotGlob(src) {
		w.res.DotGlob = true
		for i := range w.res.Files {
			w.res.Files[i].HidesDots = false
		}
	}
	w.arithCode(src)
	w.exfiltration()
	w.fetchThenRun()
	w.pushToNewRemote()
	if strings.Contains(src, "/dev/tcp/") || strings.Contains(src, "/dev/udp/") {
		w.critical(RiskDevTCP, "the command uses /dev/tcp or /dev/udp to open a network connection from the shell", truncate(src))
	}
}

func truncate(s string) string { return clip(s, maxRiskSubject) }

// testCode is subscriptCode for a test ([ … ], [[ … ]], test), whose own
// brackets hold no subscript: the words inside are checked, and a word
// known only when it runs counts where the test reads a word as a
// variable name (-v, -R), since a value "a[$(cmd)]" there runs cmd.
// Where [[ ]] evaluates a word as arithmetic (-eq, -lt, …), arithCode
// judges what it reads.
func (w *walker) testCode(cmd *Command) bool {
	closer := "" // test
	switch cmd.Name {
	case "[":
		closer = "]"
	case "[[":
		closer = "]]"
	}
	inner, ok := strings.CutPrefix(cmd.Text, cmd.Name+" ")
	if !ok {
		return w.subscriptCode(cmd.Text) // assignments in front: the whole text
	}
	inner = strings.TrimSuffix(inner, " "+closer)
	if w.subscriptCode(inner) {
		return true
	}
	if !strings.ContainsAny(inner, "$`") {
		return false
	}
	for _, f := range strings.Fields(inner) {
		if f != "-v" && f != "-R" {
			continue // [[ -eq ]]'s arithmetic is arithCode's
		}
		w.unprefixable(RiskSubscriptCode, "a test reads a word known only when it runs as a variable name or as arithmetic, where a value holding an array subscript with a command substitution runs it", cmd.Text)
		return true
	}
	return false
}

// externalProgram reports whether a command runs a program of the command
// table that is not a bash builtin, by a static name: bash passes its
// words on and evaluates none of them.
func externalProgram(cmd *Command) bool {
	if cmd.Name == "" || cmd.Opaque || bashBuiltin(cmd.Name) || commandSpec(cmd.Name) == nil {
		return false
	}
	first, _, _ := strings.Cut(cmd.Text, " ")
	if name, _, ok := strings.Cut(first, "="); ok && identifier(name) {
		return false // assignments in front: judged as before
	}
	return true
}

// identifier reports whether s is a shell variable name: the names an
// environment entry gives a shell.
func identifier(s string) bool {
	if s == "" || !isNameStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !isNameStart(c) && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// bashBuiltin reports whether bash runs name itself (builtins and the
// keywords that take words): those may read a word as a variable name or
// evaluate it as arithmetic.
func bashBuiltin(name string) bool {
	switch name {
	case ".", ":", "[", "[[", "((", "alias", "bg", "bind", "break", "builtin", "caller", "cd", "command", "compgen",
		"complete", "compopt", "continue", "declare", "dirs", "disown", "echo", "enable", "eval", "exec", "exit",
		"export", "false", "fc", "fg", "getopts", "hash", "help", "history", "jobs", "kill", "let", "local",
		"logout", "mapfile", "popd", "printf", "pushd", "pwd", "read", "readarray", "readonly", "return", "set",
		"shift", "shopt", "source", "suspend", "test", "times", "trap", "true", "type", "typeset", "ulimit",
		"umask", "unalias", "unset", "wait":
		return true
	}
	return false
}

// dotGlob reports whether the script may make a glob match dot-files
// (Analysis.DotGlob): its text or a command's words name dotglob,
// GLOBIGNORE, BASHOPTS or zsh's GLOB_DOTS, however spelled; or a command
// that sets shell options or variables takes a word known only when it
// runs; or it sources a file, runs eval or an opaque command, whose
// options are not seen.
func (w *walker) dotGlob(src string) bool {
	return w.globOption(src, func(s string) bool {
		return strings.Contains(s, "dotglob") || strings.Contains(s, "globdots") ||
			strings.Contains(s, "globignore") || strings.Contains(s, "bashopts")
	})
}

// caseGlob reports whether the script may make a glob match regardless
// of case (Analysis.NoCaseGlob): bash's nocaseglob, zsh's CASE_GLOB or
// NO_CASE_GLOB, BASHOPTS, however spelled, or what dotGlob cannot see.
func (w *walker) caseGlob(src string) bool {
	return w.globOption(src, func(s string) bool {
		return strings.Contains(s, "caseglob") || strings.Contains(s, "bashopts")
	})
}

// globOption reports whether the script may set a glob option named as
// names says (given a word lower-cased, without "_"), or one it cannot
// see.
func (w *walker) globOption(src string, is func(string) bool) bool {
	names := func(s string) bool {
		return is(strings.ReplaceAll(strings.ToLower(s), "_", ""))
	}
	if names(src) {
		return true
	}
	for i := range w.res.Commands {
		c := &w.res.Commands[i]
		if c.Opaque || names(c.Text) {
			return true
		}
		switch c.Name {
		case "source", ".", "eval", "setopt", "emulate", "enable":
			return true
		case "shopt", "set", "declare", "typeset", "export", "local", "readonly", "read", "printf",
			"mapfile", "readarray", "let", "unsetopt":
			for _, a := range c.Args {
				if strings.ContainsAny(a, "$`") {
					return true
				}
			}
		}
	}
	return false
}

// fetchThenRun marks a command that runs a file a network command or a
// decoder of the same script wrote ("curl -o i.sh URL && sh i.sh", "wget
// -O x URL; chmod +x x; ./x", "base64 -d > x; sh x"): a download or a
// hidden payload run unseen, as "curl URL | sh" is.
func (w *walker) fetchThenRun() {
	// The commands that download or decode, by text: one pass over the
	// commands, then one over the files (linear, DESIGN §10).
	var fetchers map[string]bool
	for _, c := range w.res.Commands {
		if c.Effects&EffectNetwork != 0 || decodes(c.Name, c.Args) {
			if fetchers == nil {
				fetchers = map[string]bool{}
			}
			fetchers[c.Text] = true
		}
	}
	var fetched map[string]bool
	for _, f := range w.res.Files {
		if f.Write && f.Static && !f.Remote && fetchers[f.Command] {
			if fetched == nil {
				fetched = map[string]bool{}
			}
			fetched[path.Clean(f.Path)] = true
		}
	}
	if len(fetched) == 0 {
		return
	}
	for i := range w.res.Commands {
		cmd := &w.res.Commands[i]
		if cmd.Remote {
			continue
		}
		// The program as written: Name is its base name.
		run, by := cmd.Name, ""
		for _, f := range strings.Fields(cmd.Text) {
			if f == cmd.Name || strings.HasSuffix(f, "/"+cmd.Name) {
				run = f
				break
			}
		}
		if isInterpreter(cmd.Name) { // a shell is one
			run, by = "", cmd.Name+" "
			for _, a := range cmd.Args {
				if !strings.HasPrefix(a, "-") {
					run = a
					break
				}
			}
		}
		if run == "" {
			continue
		}
		if fetched[path.Clean(run)] {
			addClass(cmd, ClassRisk{Class: ClassSupplyChain, Reason: by + "runs " + run + ", which a download or decoder of the same line wrote", Token: run})
		}
	}
}

// exfiltration marks the network commands of a script that also reads a
// credential file: the secret may leave the machine in this one call.
func (w *walker) exfiltration() {
	secret := ""
	for _, f := range w.res.Files {
		if f.Write || !f.Static || f.Remote {
			continue
		}
		if e, ok := sensitive.Lookup(f.Path, w.a.home); ok && e.Kind == sensitive.Credential {
			secret = f.Path
			break
		}
		if p := joinDir(f.Dir, f.Path); wholeTree(p) {
			// "tar czf - ~ | nc", "cd ~ && tar cz . | curl -T -"
			secret = "the whole home directory " + p
			break
		}
	}
	if secret == "" {
		secret = w.environmentDump()
	}
	if secret == "" {
		w.sendsSecretFile()
		return
	}
	for i := range w.res.Commands {
		if cmd := &w.res.Commands[i]; cmd.Effects&EffectNetwork != 0 {
			addClass(cmd, ClassRisk{Class: ClassExfiltrate, Reason: cmd.Name + " talks to the network in the same command that reads " + secret, Token: secret})
		}
	}
}

// sendsSecretFile marks a general network client that reads a file whose
// name says a project keeps secrets in it (sensitive.SecretName: .env,
// secrets.yml) as sending it: "curl -d @.env URL", "scp .env host:". A
// tool that reads such a file to do its own work (docker run --env-file
// .env, kubectl create secret --from-env-file) is not such a client, and
// an upload to this machine only (curl -d @.env http://localhost:3000/)
// leaves nothing.
func (w *walker) sendsSecretFile() {
	for _, f := range w.res.Files {
		if f.Write || !f.Static || f.Remote || !sensitive.SecretName(f.Path) {
			continue
		}
		for i := range w.res.Commands {
			cmd := &w.res.Commands[i]
			if cmd.Text == f.Command && cmd.Effects&EffectNetwork != 0 && !cmd.Remote && hasRole(cmd.Name, roleUploader) &&
				!uploadsLocally(cmd.Name, cmd.Args) {
				addClass(cmd, ClassRisk{Class: ClassExfiltrate, Reason: cmd.Name + " sends " + f.Path + ", whose name says it holds secrets, to the network", Token: f.Path})
			}
		}
	}
}

// environmentDump names a command of the script that prints the
// environment or the shell history, where tokens and passwords live
// (env, printenv, history, export -p, set), or "".
func (w *walker) environmentDump() string {
	for _, c := range w.res.Commands {
		if c.Remote {
			continue // another machine's environment
		}
		switch c.Name {
		case "printenv", "history":
			return "the " + c.Name + " output"
		case "env", "set", "export", "declare", "typeset":
			if len(c.Args) == 0 || c.Args[0] == "-p" || c.Args[0] == "-x" {
				return "the environment"
			}
		}
		if c.Name == "" || c.Effects&EffectNetwork != 0 {
			continue
		}
		for _, a := range c.Args {
			if strings.Contains(a, "/proc/") && strings.Contains(a, "/environ") {
				return a
			}
		}
	}
	return ""
}

// decodes reports whether a command decodes its input (base64 -d, xxd -r,
// openssl enc -d): what it writes is a payload nobody could read.
func decodes(name string, args []string) bool {
	switch name {
	case "base64", "base32", "basenc", "xxd", "openssl", "gpg":
		for _, a := range args {
			switch a {
			case "-d", "-D", "--decode", "-r", "--revert", "--decrypt":
				return true
			}
		}
	case "uudecode", "gunzip", "zcat", "bunzip2", "unxz":
		return true
	}
	return false
}

// pushToNewRemote marks a git push to a remote the same line added ("git
// remote add x URL && git push x --all"): the repository goes to a place
// the user never configured, as a push to a URL does.
func (w *walker) pushToNewRemote() {
	added := map[string]string{}
	for _, c := range w.res.Commands {
		if c.Name != "git" || c.Remote {
			continue
		}
		if i := slices.Index(c.Args, "remote"); i >= 0 && i+1 < len(c.Args) && (c.Args[i+1] == "add" || c.Args[i+1] == "set-url") {
			var ops []string
			for _, a := range c.Args[i+2:] {
				if !strings.HasPrefix(a, "-") {
					ops = append(ops, a)
				}
			}
			if len(ops) >= 2 {
				added[ops[len(ops)-2]] = ops[len(ops)-1]
			}
		}
	}
	if len(added) == 0 {
		return
	}
	for i := range w.res.Commands {
		cmd := &w.res.Commands[i]
		if cmd.Name != "git" || cmd.Remote {
			continue
		}
		j := slices.Index(cmd.Args, "push")
		if j < 0 {
			continue
		}
		for _, a := range cmd.Args[j+1:] {
			if strings.HasPrefix(a, "-") {
				continue
			}
			if url, ok := added[a]; ok {
				addClass(cmd, ClassRisk{Class: ClassExfiltrate, Reason: "git push sends the repository to " + url + ", a remote the same line added", Token: a})
			}
			break
		}
	}
}
