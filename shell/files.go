package shell

import (
	"path"
	"strings"

	"github.com/toolgate/toolgate/internal/sensitive"
)

// fileKind says how a command's operands map to files: the operand
// layout of its entry in the command table.
type fileKind uint8

const (
	noFiles      fileKind = iota // the table says nothing of its files
	readAll                      // every operand is read
	writeAll                     // every operand is written
	copyKind                     // sources read, destination written (cp, install)
	moveKind                     // sources and destination written (mv)
	linkKind                     // link names written (ln)
	modeKind                     // first operand is a mode or owner, the rest written
	pairKind                     // INPUT [OUTPUT] (uniq, xxd)
	firstKind                    // the first operand is read (source FILE ARGS…)
	scpKind                      // local sources read, local destination written
	writeFirst                   // the first operand is written (git init DIR)
	writeSecond                  // the second operand is written (git clone URL DIR)
	bySub                        // the subcommand's entry says (git)
	fetchKind                    // URLs fetched: saved under their names with -O (curl, wget)
	tarKind                      // members added (read) or extracted (written) by tar's mode
	compressKind                 // operands rewritten under another suffix (gzip, xz, …)
	codeKind                     // read by the entry's fileCode (mini-languages, patch headers)
	syncKind                     // scpKind, and a source ending in '/' merges its entries (rsync)
)

// fileRole is what an option's value, or an operand, is to the file
// checks.
type fileRole uint8

const (
	noRole      fileRole = iota
	fileRead             // a file read
	fileWrite            // a file written
	fileOutput           // the output: written, inside the output directory (curl -o, zstd -o)
	fileDir              // where copies, downloads and extractions go (cp -t, curl --output-dir, tar -C)
	fileArchive          // tar's archive: written when creating, read otherwise
	fileChdir            // the directory the command works in (git -C DIR)
	// fileKey is a key the command logs in or signs with (ssh -i): it
	// reads the key to sign and never prints or sends it, so the key is
	// not a read of a secret (cat ~/.ssh/deploy is; ssh -i it is a login,
	// as plain ssh, which reads ~/.ssh/id_* itself, is).
	fileKey
	// fileInto is a directory a download or extraction writes files
	// into that the call does not name (gh release download -D, helm
	// pull --untardir), whatever the operands are.
	fileInto
)

// valueForm says how an option's value or an operand names its file.
type valueForm uint8

const (
	formPath     valueForm = iota // the value is the path
	formAt                        // "@path" (curl -d @file)
	formAnyAt                     // "name@path" or "@path" (curl --data-urlencode)
	formField                     // "name=@path;type=…" or "name=<path" (curl -F)
	formNoAssign                  // a path unless it is name=value (curl -b)
	formWriteOut                  // %output{path} in a format (curl -w)
	formItem                      // HTTPie's request items: name@path, name=@path, name:=@path
	formRevPath                   // REV:PATH, the file as committed (git show HEAD:.env)
)

// path returns the file a value names in form f.
func (f valueForm) path(v string) (string, bool) {
	cut := func(p string) string {
		if k := strings.IndexByte(p, ';'); k >= 0 {
			p = p[:k]
		}
		return p
	}
	switch f {
	case formAt:
		if strings.HasPrefix(v, "@") {
			return cut(v[1:]), true
		}
	case formAnyAt:
		if j := strings.IndexByte(v, '@'); j >= 0 {
			return cut(v[j+1:]), true
		}
	case formField:
		if j := strings.IndexByte(v, '@'); j >= 0 {
			return cut(v[j+1:]), true
		}
		if j := strings.Index(v, "=<"); j >= 0 {
			return v[j+2:], true
		}
	case formNoAssign:
		return v, !strings.Contains(v, "=")
	case formItem:
		j := strings.IndexByte(v, '@')
		if j <= 0 || strings.Contains(v, "://") {
			return "", false
		}
		name := strings.TrimSuffix(strings.TrimSuffix(v[:j], "="), ":=")
		if name == "" || strings.ContainsAny(name, "/:=") {
			return "", false
		}
		return v[j+1:], true
	case formRevPath:
		if j := strings.IndexByte(v, ':'); j >= 0 && j+1 < len(v) {
			return v[j+1:], true
		}
	case formPath:
		return v, true
	}
	return "", false
}

// writeOutFiles returns the files a curl --write-out format writes:
// %output{file} and %output{>>file}.
func writeOutFiles(v string) []string {
	var out []string
	for rest := v; ; {
		i := strings.Index(rest, "%output{")
		if i < 0 {
			return out
		}
		rest = rest[i+len("%output{"):]
		j := strings.IndexByte(rest, '}')
		if j < 0 {
			return out
		}
		out = append(out, strings.TrimLeft(rest[:j], ">"))
		rest = rest[j:]
	}
}

// fileLine is a command line read for its files: the options and
// operands the one parser found, and what the options set.
type fileLine struct {
	args    []word
	ops     []word
	dir     *word // fileDir
	archive *word // fileArchive
	outputs int   // fileOutput values seen
	pattern bool  // the first operand is a pattern or script
	dry     bool  // a dry run (rare.dryRun): it writes nothing
	modes   []optArg
}

// mode reports whether an option setting mode m was given, and its value.
func (l *fileLine) mode(m string) (string, bool) {
	for _, o := range l.modes {
		if o.name == m {
			return o.val, true
		}
	}
	return "", false
}

// describes reports whether the command table says which files a
// command's operands are.
func describes(name string) bool {
	return commandSpec(name).describes()
}

// describes is describes for a command's entry s, nil for one the table
// does not know.
func (s *cmdSpec) describes() bool {
	return s != nil && s.files != noFiles && !s.probe
}

// filesOf records the files a known command reads and writes, read from
// its entry s in the command table through the one option parser: the
// effect of each option (fileRole, valueForm, mode) and the operand
// layout (fileKind). A layout the fields cannot say is the entry's
// fileCode. A command with subcommands descends into the subcommand's
// entry.
func (w *walker) filesOf(s *cmdSpec, name string, args []word, owner string, c scope, d *dirState) {
	rare := s.rareFields()
	if s.files == noFiles && rare.fileCode == nil && !s.fileOpts {
		return
	}
	if rare.fileCode != nil {
		rare.fileCode(w, s, name, args, c, owner, d)
		return
	}
	if len(args) == 0 {
		return
	}
	var textBuf [8]string
	texts := appendTexts(textBuf[:0], args)
	var optBuf [8]optArg
	var opBuf [8]int
	opts, opIdx := s.scanInto(texts, args, s.files == bySub, optBuf[:0], opBuf[:0])
	l := fileLine{args: args, pattern: s.pattern, dry: s.dryRunGiven(opts, texts)}
	for _, i := range opIdx {
		for _, o := range opts {
			// The separate value of an ambiguous abbreviation may be an
			// operand after all ("rg --pr x y"): it counts as both.
			if o.ambiguous && o.valAt > o.at && o.valAt < i && (len(l.ops) == 0 || l.ops[len(l.ops)-1].text != args[o.valAt].text) {
				l.ops = append(l.ops, args[o.valAt])
			}
		}
		l.ops = append(l.ops, args[i])
	}
	if len(opIdx) > 0 && opIdx[0] > 0 && texts[opIdx[0]-1] == "--" {
		// "--" before every operand: none of them is an option's pattern.
		l.pattern = false
	}
	// The output directory first: an output named before it still goes
	// into it (curl -o f --output-dir d).
	for pass := 0; pass < 2; pass++ {
		d = l.optionFiles(w, s, opts, pass == 0, owner, d)
	}
	if s.files == bySub {
		if len(opIdx) == 0 {
			return
		}
		i := opIdx[0]
		sub := s.subs.get(texts[i])
		if sub == nil {
			sub = rare.otherSub
		}
		if sub != nil {
			w.filesOf(sub, name, args[i+1:], owner, c, d)
		}
		return
	}
	// Operand effects: a form of operand that names a file (HTTPie's
	// name@path), whatever the layout does with the operand.
	for k := range s.opts {
		e := &s.opts[k]
		if !e.operand || e.file == noRole || e.file == fileKey || e.class != "" {
			continue
		}
		for _, o := range l.ops {
			if p, ok := e.form.path(o.text); ok {
				o.text = p
				w.file(o, e.file != fileRead, owner, d)
			}
		}
	}
	if rare.needMode != "" {
		if _, ok := l.mode(rare.needMode); !ok {
			return
		}
	}
	w.layout(s, name, &l, owner, d)
}

// optionFiles records the files the options name: with dirs only the
// output and working directories, else every other effect. It returns
// the directory state the rest resolves against (git -C DIR).
func (l *fileLine) optionFiles(w *walker, s *cmdSpec, opts []optArg, dirs bool, owner string, d *dirState) *dirState {
	args := l.args
	for _, o := range opts {
		for k := range s.opts {
			e := &s.opts[k]
			if e.operand || e.class != "" || !contains(e.names, o.name) || dirs != (e.file == fileDir || e.file == fileChdir) {
				continue
			}
			if e.pattern {
				l.pattern = false
			}
			if e.mode != "" {
				l.modes = append(l.modes, optArg{name: e.mode, val: o.val})
			}
			if e.file == noRole || o.valAt < 0 {
				continue
			}
			vw := valWord(args, o)
			if o.ambiguous {
				// Whichever option it is, the file may be written.
				w.file(vw, true, owner, d)
			}
			switch e.form {
			case formWriteOut:
				for _, p := range writeOutFiles(o.val) {
					w.file(litWord(p), true, owner, d)
				}
				continue
			case formPath:
			default:
				p, ok := e.form.path(o.val)
				if !ok {
					continue
				}
				vw.text = p
			}
			switch e.file {
			case fileRead:
				w.file(vw, false, owner, d)
			case fileWrite:
				w.file(vw, true, owner, d)
			case fileInto:
				w.fileAs(vw, File{Write: true, Into: true}, owner, d)
			case fileOutput:
				l.outputs++
				l.output(w, vw, owner, d)
			case fileDir:
				l.dir = &vw
			case fileArchive:
				l.archive = &vw
			case fileChdir:
				nd := d.clone()
				w.chdir(nd, "cd", []word{vw}, false)
				d = nd
			}
		}
	}
	return d
}

// output records an output file, inside the output directory when one
// was given and the path is relative.
func (l *fileLine) output(w *walker, f word, owner string, d *dirState) {
	if f.text == "" || f.text == "-" {
		return
	}
	if l.dir != nil && !path.IsAbs(f.text) {
		f = joinWord(*l.dir, f.text, f.static)
	}
	w.file(f, true, owner, d)
}

// layout records the operands' files by the entry's operand layout.
func (w *walker) layout(s *cmdSpec, name string, l *fileLine, owner string, d *dirState) {
	ops := l.ops
	_, rewrite := l.mode("rewrite")
	if l.pattern && len(ops) > 0 {
		ops = ops[1:]
	}
	if n := s.rareFields().maxOps; n > 0 && len(ops) > n {
		ops = ops[:n]
	}
	switch s.files {
	case readAll, firstKind:
		if s.files == firstKind && len(ops) > 1 {
			ops = ops[:1]
		}
		for _, o := range ops {
			w.file(o, rewrite, owner, d)
		}
	case writeAll, modeKind:
		restricts := name == "chmod" && l.pattern && len(l.ops) > 0 && l.ops[0].static && chmodRestricts(l.ops[0].text) && !recursiveChmod(l.args)
		for _, o := range ops {
			if restricts && w.homeCredential(o) {
				// chmod 600 ~/.ssh/id_rsa, chmod 700 ~/.ssh: taking
				// permissions away from others changes no key as a write
				// would (ssh asks for it). Other files keep their write:
				// toolgate's and the agents' own may not be locked away.
				continue
			}
			w.file(o, true, owner, d)
		}
	case writeFirst, writeSecond:
		n := 0
		if s.files == writeSecond {
			n = 1
		}
		if _, toStdout := l.mode("stdout"); len(ops) > n && !toStdout {
			w.file(ops[n], true, owner, d)
		}
	case pairKind:
		for i, o := range ops {
			if i > 1 {
				break
			}
			w.file(o, i == 1, owner, d)
		}
	case copyKind, moveKind, linkKind:
		w.copyFiles(s.files, l.dir, ops, rewrite, l, owner, d)
	case scpKind, syncKind:
		if len(ops) == 1 {
			w.file(ops[0], false, owner, d) // rsync SRC lists it
			return
		}
		for i, o := range ops {
			last := i == len(ops)-1
			if !last && !isRemote(o.text) {
				w.file(o, false, owner, d)
			}
			if last && len(ops) > 1 && isRemote(o.text) {
				w.remoteDest(o, ops[:i], s.files == syncKind, owner, d)
			}
			if last && len(ops) > 1 && !isRemote(o.text) {
				merge := false
				for _, src := range ops[:i] {
					merge = merge || mergesInto(src.text, s.files == syncKind)
				}
				if l.dry {
					continue // rsync -n writes nothing
				}
				// rsync --delete deletes what the sources lack under
				// the destination.
				del := s.files == syncKind && syncDeletes(l.args)
				w.fileAs(o, File{Write: true, Into: merge, Delete: del, Under: del}, owner, d)
				for _, src := range ops[:i] {
					if !mergesInto(src.text, s.files == syncKind) {
						w.into(o, src, owner, d)
					}
				}
			}
		}
	case fetchKind:
		w.fetchFiles(s, l, owner, d)
	case tarKind:
		w.tarFiles(l, owner, d)
	case compressKind:
		w.compressFiles(s, l, owner, d)
	}
}

// copyFiles records a copy, move or link: the sources read (written for a
// move or link), the destination written, and the entries the sources
// become inside a destination directory.
func (w *walker) copyFiles(kind fileKind, dir *word, ops []word, rewrite bool, l *fileLine, owner string, d *dirState) {
	srcs := ops
	switch {
	case dir != nil:
		merge := false
		for _, o := range ops {
			merge = merge || kind != linkKind && mergesInto(o.text, false)
		}
		w.fileAs(*dir, File{Write: true, Into: merge}, owner, d)
	case rewrite: // install -d: every operand is a directory made
		for _, o := range ops {
			w.file(o, true, owner, d)
		}
		return
	case len(ops) > 0:
		dst := ops[len(ops)-1]
		merge := false
		if len(ops) == 1 && kind == linkKind {
			dst.text = path.Base(dst.text)
		} else {
			srcs = ops[:len(ops)-1]
			if _, ok := l.mode("no-target"); !ok {
				dir = &dst
				for _, o := range srcs {
					merge = merge || kind != linkKind && mergesInto(o.text, false)
				}
			} else {
				// cp -rT SRC DEST: a directory's entries merge into
				// DEST, whose existing files they replace.
				merge = kind != linkKind
			}
		}
		w.fileAs(dst, File{Write: true, Into: merge}, owner, d)
	}
	for _, o := range srcs {
		if dir != nil {
			w.into(*dir, o, owner, d)
		}
		// A link's target is written through it later ("ln -s
		// ~/.bashrc notes; echo x >> notes"), so it counts as written.
		w.fileAs(o, File{Write: kind != copyKind, Moved: kind == moveKind}, owner, d)
	}
}

func wordTexts(args []word) []string {
	return appendTexts(make([]string, 0, len(args)), args)
}

// appendTexts appends the words' texts to out: a caller's buffer, which
// keeps the common short command line off the heap.
func appendTexts(out []string, args []word) []string {
	for _, a := range args {
		out = append(out, a.text)
	}
	return out
}

// syncDeletes reports whether rsync is told to delete what its sources
// lack at the destination (--delete, --delete-after, …, --del).
func syncDeletes(args []word) bool {
	for _, a := range args {
		switch {
		case a.text == "--":
			return false
		case a.text == "--del" || strings.HasPrefix(a.text, "--delete"):
			return true
		}
	}
	return false
}

// isRemote reports whether an scp/rsync operand names a remote path.
// remoteDest records what scp or rsync writes on the other machine
// (host:/etc/passwd, host:bin/x in the remote user's home), judged as the
// same write here would be and marked Remote: it only restricts. A
// merge's entries are not named (rsync -a dist/ host:/srv/app), so only
// the files a source names are; an rsync daemon's module
// (host::module/x, rsync://) is no path.
func (w *walker) remoteDest(dst word, srcs []word, sync bool, owner string, d *dirState) {
	p := dst.text[strings.IndexByte(dst.text, ':')+1:]
	if strings.HasPrefix(p, ":") || strings.HasPrefix(p, "//") {
		return
	}
	rw := word{text: p, static: dst.static, tilde: true}
	switch {
	case p == "" || p == "~" || p == "~/":
		rw.text = "~"
	case strings.HasPrefix(p, "~/"):
	case strings.HasPrefix(p, "/"):
		rw.tilde = false
	default:
		rw.text = "~/" + p
	}
	from := len(w.res.Files)
	if rw.text != "~" {
		w.fileAs(rw, File{Write: true}, owner, d)
	}
	for _, src := range srcs {
		if !mergesInto(src.text, sync) {
			w.into(rw, src, owner, d)
		}
	}
	for i := from; i < len(w.res.Files); i++ {
		w.res.Files[i].Remote = true
	}
}

func isRemote(s string) bool {
	i := strings.IndexByte(s, ':')
	return i > 0 && !strings.Contains(s[:i], "/")
}

func (w *walker) jqFiles(args []word, owner string, d *dirState) {
	filter := true
	var ops []word
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case t == "--args" || t == "--jsonargs":
			i = len(args)
		case t == "--arg" || t == "--argjson":
			i += 2
		case t == "--slurpfile" || t == "--rawfile":
			if i+2 < len(args) {
				w.file(args[i+2], false, owner, d)
			}
			i += 2
		case t == "-f" || t == "--from-file":
			filter = false
			if i+1 < len(args) {
				i++
				w.file(args[i], false, owner, d)
			}
		case t == "--indent" || t == "-L" || t == "--tab-width":
			i++
		case len(t) > 1 && t[0] == '-':
		default:
			ops = append(ops, args[i])
		}
	}
	if filter && len(ops) > 0 {
		ops = ops[1:]
	}
	for _, o := range ops {
		w.file(o, false, owner, d)
	}
}

func (w *walker) awkFiles(args []word, owner string, d *dirState) {
	prog := true
	var ops []word
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case t == "--":
			ops = append(ops, args[i+1:]...)
			i = len(args)
		case t == "-f" || t == "--file" || t == "-i" || t == "--include" || t == "-E" || t == "--exec":
			prog = false
			if i+1 < len(args) {
				i++
				w.file(args[i], false, owner, d)
			}
		case t == "-v" || t == "-F" || t == "--assign" || t == "--field-separator" || t == "-e" || t == "--source" || t == "-l" || t == "--load":
			if t == "-e" || t == "--source" {
				prog = false
			}
			i++
		case len(t) > 1 && t[0] == '-':
		default:
			ops = append(ops, args[i])
		}
	}
	if prog && len(ops) > 0 {
		w.awkReads(ops[0], owner, d)
		ops = ops[1:]
	}
	for _, o := range ops {
		if isAssignment(o.text) {
			continue
		}
		w.file(o, false, owner, d)
	}
}

// awkReads records the files an awk program reads with getline < FILE:
// a quoted name is that file; any other expression names a file known
// only when the program runs. A "<" after getline that is a comparison
// ((getline) < 0) is read as a redirection too: fail closed.
func (w *walker) awkReads(prog word, owner string, d *dirState) {
	p := prog.text
	for {
		i := strings.Index(p, "getline")
		if i < 0 {
			return
		}
		p = p[i+len("getline"):]
		stmt := p
		if end := strings.IndexAny(stmt, ";}\n"); end >= 0 {
			stmt = stmt[:end]
		}
		j := strings.IndexByte(stmt, '<')
		if j < 0 {
			continue
		}
		target := strings.TrimSpace(stmt[j+1:])
		if rest, ok := strings.CutPrefix(target, `"`); ok {
			if k := strings.IndexByte(rest, '"'); k >= 0 && !strings.Contains(rest[:k], `\`) {
				w.file(word{text: rest[:k], static: prog.static}, false, owner, d)
				continue
			}
		}
		if k := strings.IndexAny(target, ")"); k >= 0 {
			target = target[:k]
		}
		w.file(word{text: "$(" + strings.TrimSpace(target) + ")"}, false, owner, d)
	}
}

// nonFiles are device paths that are not file subjects.
func nonFile(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/zero",
		"/dev/random", "/dev/urandom", "/dev/full", "{}", "", "-":
		return true
	}
	return strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/proc/self/fd/")
}

// file records one file the script touches.
func (w *walker) file(wd word, write bool, owner string, d *dirState) {
	w.fileAs(wd, File{Write: write}, owner, d)
}

// extractInto records dir as the directory an archive's members are
// written into (File.Into).
func (w *walker) extractInto(dir word, owner string, d *dirState) {
	w.fileAs(dir, File{Write: true, Into: true}, owner, d)
}

// fileAs records the file wd names, with the access and flags of as.
func (w *walker) fileAs(wd word, as File, owner string, d *dirState) {
	if nonFile(wd.text) || strings.HasPrefix(wd.text, "/dev/tcp/") || strings.HasPrefix(wd.text, "/dev/udp/") ||
		!wd.static && (strings.HasPrefix(wd.text, "<(") || strings.HasPrefix(wd.text, ">(")) {
		return
	}
	p := wd.text
	static := wd.static && !wd.glob
	glob := wd.static && wd.glob
	if wd.tilde || strings.HasPrefix(p, "$") {
		if e, ok := expandHome(p, w.a.home); ok {
			p = e
			static = !wd.glob && !strings.ContainsAny(p, "$`")
			glob = wd.glob && !strings.ContainsAny(p, "$`")
		}
	}
	f := as
	f.Path, f.Static, f.Glob, f.Command = p, static, glob, owner
	f.HidesDots = glob && !wd.names && !strings.Contains(p, "(") // an extglob keeps the wide reading
	if !static {
		f.Alts = expansions(p, w.a.home, w.vars, maxExpansions)
		f.Unknown = w.unknownVar(p)
	} else if wd.src != "" {
		// Read with the environment's values: the places its $XDG_*
		// variables default to are still where their tools look.
		f.Alts = expansions(wd.src, w.a.home, nil, maxExpansions)
	}
	rel := !path.IsAbs(p) && !strings.HasPrefix(p, "~") && !strings.HasPrefix(p, "$")
	if d == nil || !rel {
		w.addFile(f)
		return
	}
	// A relative path resolves against every directory the shell may be
	// in (a cd that fails or does not run leaves it elsewhere).
	d.each(func(dir string) {
		g := f
		g.Dir = dir
		if strings.ContainsAny(dir, "*?[$`") {
			// A directory a cd named by a glob or an expansion ("cd
			// ~/.s* && cat id_rsa"): the path is under any of them.
			g.Static, g.Unknown = false, true
		}
		w.addFile(g)
	})
	if d.lost() {
		f.Dir, f.Static, f.Glob, f.HidesDots, f.Unknown = "", false, false, false, true
		w.addFile(f)
	}
}

// addFile records f and the critical risk of writing it.
func (w *walker) addFile(f File) {
	w.spendSubject(len(f.Path) + len(f.Dir))
	w.res.Files = append(w.res.Files, f)
	if f.Write && !f.Named { // a named path may only be read: its class asks
		full := f.Path
		if f.Dir != "" {
			full = joinDir(f.Dir, f.Path)
		}
		if code, reason, ok := IsCriticalWritePath(full, w.a.home); ok {
			w.critical(code, reason, full)
		}
	}
}

// homeCredential reports whether wd names a credential file or directory
// in the home directory (sensitive.Credential: ~/.ssh/id_rsa, ~/.ssh), or
// another file of ~/.ssh, whose modes ssh checks (config, known_hosts).
func (w *walker) homeCredential(wd word) bool {
	p := wd.text
	if wd.tilde || strings.HasPrefix(p, "$") {
		e, ok := expandHome(p, w.a.home)
		if !ok {
			return false
		}
		p = e
	} else if !wd.static {
		return false
	}
	p = path.Clean(p)
	if w.a.home == "" || !strings.HasPrefix(p, strings.TrimSuffix(w.a.home, "/")+"/") {
		return false
	}
	if strings.HasPrefix(p, strings.TrimSuffix(w.a.home, "/")+"/.ssh/") {
		return true
	}
	e, ok := sensitive.Lookup(p, w.a.home)
	return ok && e.Kind == sensitive.Credential
}

// recursiveChmod reports whether chmod's arguments change a whole tree
// (-R, --recursive): a tree's mode taken away (chmod -R 000 ~/.config) is
// no fix of one file's.
func recursiveChmod(args []word) bool {
	for _, a := range args {
		t := a.text
		if t == "--" {
			break
		}
		if t == "--recursive" || len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.ContainsRune(t, 'R') {
			return true
		}
	}
	return false
}

// chmodRestricts reports whether a chmod mode only takes permissions
// away from the group and others (600, 0700, go-rwx, u=rw,go=) or gives
// the owner more (u+x): no setuid, setgid or sticky bit, nothing
// granted to anyone but the owner.
func chmodRestricts(mode string) bool {
	if mode == "" {
		return false
	}
	if mode[0] >= '0' && mode[0] <= '7' {
		if len(mode) != 3 && len(mode) != 4 {
			return false
		}
		for i := 0; i < len(mode); i++ {
			if mode[i] < '0' || mode[i] > '7' {
				return false
			}
		}
		n := len(mode)
		return (n == 3 || mode[0] == '0') && mode[n-2] == '0' && mode[n-1] == '0'
	}
	for _, clause := range strings.Split(mode, ",") {
		who := strings.TrimLeft(clause, "ugoa")
		w := clause[:len(clause)-len(who)]
		if who == "" {
			return false
		}
		for who != "" {
			op := who[0]
			if op != '+' && op != '-' && op != '=' {
				return false
			}
			perms := who[1:]
			end := strings.IndexAny(perms, "+-=")
			if end < 0 {
				end = len(perms)
			}
			p := perms[:end]
			who = perms[end:]
			switch {
			case op == '-':
			case strings.ContainsAny(p, "st"):
				return false
			case w == "u":
			case op == '=' && p == "":
			default:
				return false
			}
		}
	}
	return true
}
