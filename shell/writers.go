package shell

import (
	"path"
	"slices"
	"strings"
)

// This file holds the file operands of commands that write files through
// options or operands that are not plain "every operand" lists: git's
// writer options, archivers and compressors, split, patch, in-place
// interpreters and the downloaders. Over-approximating a write is fine: a
// write subject only asks when no write rule covers it.

// joinWord returns w with text dir/name, static only when both are.
func joinWord(dir word, name string, nameStatic bool) word {
	out := dir
	if dir.text == "" || dir.text == "." {
		out = word{text: name, static: nameStatic, tilde: strings.HasPrefix(name, "~")}
	} else {
		out.text = strings.TrimSuffix(dir.text, "/") + "/" + name
		out.static = dir.static && nameStatic
	}
	out.glob = dir.glob || strings.ContainsAny(name, "*?[")
	return out
}

// into records the entry a copy of src creates inside the destination
// directory dst ("cp hook .git/hooks/" writes .git/hooks/hook). When dst
// is not a directory this names a file that is not written, which is
// harmless.
func (w *walker) into(dst, src word, owner string, d *dirState) {
	b := strings.TrimRight(src.text, "/")
	if b == "" || isRemote(src.text) && !strings.Contains(src.text, "/") {
		return
	}
	if isRemote(b) {
		b = b[strings.IndexByte(b, ':')+1:]
	}
	b = path.Base(b)
	if b == "." || b == ".." || b == "/" || b == "" {
		return // merges: the destination is recorded so (mergesInto)
	}
	w.file(joinWord(dst, b, src.static), true, owner, d) // a glob stays one: joinWord marks it
}

// mergesInto reports whether copying src into a directory merges src's
// entries into it instead of adding one entry named after it: "SRC/.",
// "SRC/..", "/", and for rsync (sync) any "SRC/". The names the entries
// get are not in the call, so the destination is a File.Into.
func mergesInto(src string, sync bool) bool {
	if sync && strings.HasSuffix(src, "/") {
		return true
	}
	if isRemote(src) {
		src = src[strings.IndexByte(src, ':')+1:]
	}
	b := path.Base(strings.TrimRight(src, "/"))
	return src != "" && (b == "." || b == ".." || b == "/" || strings.Trim(src, "/") == "")
}

// gitCheckoutFiles: git checkout [REV] [--] PATHS: a lone operand may be
// a branch or a path; one that looks like a path is counted as written.
func (w *walker) gitCheckoutFiles(s *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	texts := wordTexts(args)
	_, opIdx := s.scanWords(texts, args, false)
	for n, i := range opIdx {
		if n > 0 || i > 0 && texts[i-1] == "--" || strings.ContainsAny(args[i].text, "./") {
			w.file(args[i], true, owner, d)
		}
	}
}

// gitConfigFiles: git config -f FILE writes FILE when the command
// changes the configuration, else reads it.
func (w *walker) gitConfigFiles(s *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	texts := wordTexts(args)
	opts, _ := s.scanWords(texts, args, false)
	for _, o := range opts {
		if (o.name == "-f" || o.name == "--file") && o.valAt >= 0 {
			w.file(valWord(args, o), gitConfigSets(texts), owner, d)
		}
	}
}

// gitApplyFiles: git apply's patch files are read; the files a patch
// given inline names are written.
func (w *walker) gitApplyFiles(_ *cmdSpec, _ string, args []word, c scope, owner string, d *dirState) {
	w.patchFiles(nil, "git", args, c, owner, d)
}

func hasWord(args []word, opts ...string) bool {
	for _, a := range args {
		if a.text == "--" {
			return false
		}
		if contains(opts, a.text) {
			return true
		}
	}
	return false
}

// compressFiles records a compressor's operands: rewritten (and removed)
// in place, the output named by adding or removing the suffix, or only
// read with -c, -t or -l (mode "stdout"). An output named with -o was
// recorded with the options.
func (w *walker) compressFiles(s *cmdSpec, l *fileLine, owner string, d *dirState) {
	suffix, decomp := s.rareFields().suffix, s.decompress
	if v, ok := l.mode("suffix"); ok {
		suffix = v
	}
	if _, ok := l.mode("decompress"); ok {
		decomp = true
	}
	_, toStdout := l.mode("stdout")
	for _, o := range l.ops {
		if o.text == "-" {
			continue
		}
		if toStdout && l.outputs == 0 {
			w.file(o, false, owner, d)
			continue
		}
		w.file(o, true, owner, d)
		if l.outputs > 0 {
			continue
		}
		out := o
		if decomp {
			t, ok := strings.CutSuffix(o.text, suffix)
			if !ok || t == "" {
				continue
			}
			out.text = t
		} else {
			out.text += suffix
		}
		w.file(out, true, owner, d)
	}
}

// fetchFiles records the files a downloader saves under names it finds
// itself: the URL's own name with -O (by default for wget), and, when the
// server or a list chooses the names (-J, -r, -i), a pattern in the
// output directory no allow rule vouches for. Outputs, uploads and the
// other files its options name were recorded with the options.
func (w *walker) fetchFiles(s *cmdSpec, l *fileLine, owner string, d *dirState) {
	_, remoteName := l.mode("remote-name")
	_, unknownName := l.mode("server-names")
	if s.saves && l.outputs == 0 {
		remoteName = true // wget saves under the URL's name by default
		_, list := l.mode("input-list")
		unknownName = unknownName || list // … and the listed URLs' names
	}
	if unknownName {
		base := litWord(".")
		if l.dir != nil {
			base = *l.dir
		}
		w.file(joinWord(base, "*", false), true, owner, d)
	}
	if !remoteName {
		return
	}
	save := func(u word) {
		if !strings.Contains(u.text, "/") && !strings.Contains(u.text, ".") {
			return
		}
		b := urlBase(u.text)
		if b == "" || b == "/" || b == "." {
			if !s.saves {
				return
			}
			b = "index.html"
		}
		l.output(w, urlName(b), owner, d)
	}
	for _, o := range l.ops {
		save(o)
	}
	for _, m := range l.modes {
		if m.name == "url" {
			save(litWord(m.val))
		}
	}
}

// urlName is the word a downloader saves a URL under, b its base name:
// static unless the name itself holds an expansion (a glob character or
// an expansion in the URL's query is not in it).
func urlName(b string) word {
	f := litWord(b)
	f.static = !strings.ContainsAny(b, "$`")
	return f
}

// tarFiles records tar's archive (written when creating, read when
// extracting or listing), the files it adds (read) and where it extracts
// (written): the -C directory or the working directory, and the members
// named on the command line in it.
func (w *walker) tarFiles(l *fileLine, owner string, d *dirState) {
	_, creating := l.mode("create")
	_, extracting := l.mode("extract")
	_, toStdout := l.mode("stdout")
	dir := litWord(".")
	if l.dir != nil {
		dir = *l.dir
	}
	if a := l.archive; a != nil && a.text != "-" && !isRemote(a.text) {
		w.file(*a, creating, owner, d)
	}
	if creating {
		for _, o := range l.ops {
			w.file(joinWord(dir, o.text, o.static), false, owner, d)
		}
	}
	if _, absolute := l.mode("absolute"); extracting && !toStdout && absolute {
		// -P keeps members' leading "/": they land anywhere.
		w.extractInto(litWord("/"), owner, d)
	}
	if extracting && !toStdout {
		w.extractInto(dir, owner, d)
		for _, o := range l.ops {
			w.file(joinWord(dir, o.text, o.static), true, owner, d)
		}
	}
}

// cpioCode: cpio -i (--extract) writes its members under the working
// directory, or anywhere their absolute names say unless
// --no-absolute-filenames; -o and -p read the names on the input
// (roleListReader), -p writes under its operand directory.
func (w *walker) cpioCode(_ *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	extract, pass, relative, list := false, false, false, false
	var ops []word
	for _, a := range args {
		t := a.text
		short := strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--")
		extract = extract || t == "--extract" || short && strings.Contains(t, "i")
		pass = pass || t == "--pass-through" || short && strings.Contains(t, "p")
		list = list || t == "--list" || short && strings.Contains(t, "t")
		relative = relative || t == "--no-absolute-filenames"
		if !strings.HasPrefix(t, "-") {
			ops = append(ops, a)
		}
	}
	switch {
	case list:
	case extract && !relative:
		w.extractInto(litWord("/"), owner, d)
	case extract:
		w.extractInto(litWord("."), owner, d)
	case pass && len(ops) > 0:
		w.extractInto(ops[len(ops)-1], owner, d)
	}
}

// zipFiles: zip ARCHIVE FILES… writes the archive (ARCHIVE.zip when it
// has no suffix) and reads the files; -O/--out names another output.
func (w *walker) zipFiles(args []word, owner string, d *dirState) {
	var ops []word
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.text
		switch {
		case t == "--":
			ops = append(ops, args[i+1:]...)
			i = len(args)
		case t == "-O" || t == "--out":
			if i+1 < len(args) {
				i++
				w.file(args[i], true, owner, d)
			}
		case t == "-x" || t == "-i" || t == "--exclude" || t == "--include":
			// Patterns up to the next option.
			for i+1 < len(args) && !strings.HasPrefix(args[i+1].text, "-") {
				i++
			}
		case t == "-b" || t == "-n" || t == "-t" || t == "-tt" || t == "-P" || t == "-Z" || t == "-s" || t == "-sp" ||
			t == "--temp-path" || t == "--suffixes" || t == "--password" || t == "--compression-method" || t == "--split-size" || t == "-TT" || t == "--unzip-command":
			i++
		case strings.HasPrefix(t, "-") && len(t) > 1 && a.static:
		default:
			ops = append(ops, a)
		}
	}
	if len(ops) == 0 {
		return
	}
	w.file(ops[0], true, owner, d)
	if b := path.Base(ops[0].text); !strings.Contains(b, ".") && ops[0].text != "-" {
		z := ops[0]
		z.text += ".zip"
		w.file(z, true, owner, d)
	}
	for _, o := range ops[1:] {
		w.file(o, false, owner, d)
	}
}

// unzipFiles: unzip ARCHIVE [MEMBERS] [-d DIR] reads the archive and
// writes into DIR (the working directory by default); the members' names
// are not known, so DIR itself is the write subject, plus the members
// named on the command line.
func (w *walker) unzipFiles(args []word, owner string, d *dirState) {
	var ops []word
	dir := litWord(".")
	list := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.text
		switch {
		case t == "-d":
			if i+1 < len(args) {
				i++
				dir = args[i]
			}
		case strings.HasPrefix(t, "-d") && a.static:
			dir = a
			dir.text = t[2:]
		case t == "-x":
			for i+1 < len(args) && !strings.HasPrefix(args[i+1].text, "-") {
				i++
			}
		case t == "-P":
			i++
		case strings.HasPrefix(t, "-") && len(t) > 1 && a.static:
			if strings.ContainsAny(t[1:], "lptvzZ") {
				list = true
			}
		default:
			ops = append(ops, a)
		}
	}
	if len(ops) == 0 {
		return
	}
	w.file(ops[0], false, owner, d)
	if list {
		return
	}
	w.extractInto(dir, owner, d)
	for _, m := range ops[1:] {
		w.file(joinWord(dir, m.text, m.static), true, owner, d)
	}
}

// splitFiles: split [INPUT [PREFIX]] reads INPUT and writes PREFIXaa,
// PREFIXab, … (x by default); the names are a pattern, so the write
// subject is PREFIX* unless only the default suffixes are used.
func (w *walker) splitFiles(s *cmdSpec, args []word, owner string, d *dirState) {
	opts, opIdx := s.scanWords(wordTexts(args), args, false)
	in, prefix := litWord("-"), litWord("x")
	if len(opIdx) > 0 {
		in = args[opIdx[0]]
	}
	if len(opIdx) > 1 {
		prefix = args[opIdx[1]]
	}
	if in.text != "-" {
		w.file(in, false, owner, d)
	}
	add, _ := optValue(opts, "--additional-suffix")
	out := prefix
	if _, custom := optValue(opts, "-a", "-d", "-x", "--suffix-length", "--numeric-suffixes", "--hex-suffixes"); custom {
		out.text += "*" + add
		out.glob = true
	} else {
		out.text += "aa" + add
	}
	w.file(out, true, owner, d)
}

// patchFiles: patch writes the files its patch names. When the patch is
// a static heredoc or here-string its targets are read from the headers;
// otherwise they are unknown and the write subject is a pattern in the
// directory (ORIGFILE, -o and -r name files written too).
func (w *walker) patchFiles(s *cmdSpec, name string, args []word, c scope, owner string, d *dirState) {
	strip := -1
	dir := litWord(".")
	var ops []word
	patchFile := false
	if name == "git" { // git apply: args are the words after "apply"
		strip = 1
		for i := 0; i < len(args); i++ {
			t := args[i].text
			switch {
			case t == "--directory" && i+1 < len(args):
				i++
				dir = args[i]
			case strings.HasPrefix(t, "--directory="):
				dir = litWord(t[len("--directory="):])
			case strings.HasPrefix(t, "-p") && len(t) > 2:
				strip = atoi(t[2:])
			case t == "--stat" || t == "--numstat" || t == "--summary" || t == "--check":
				if !hasWord(args, "--apply") {
					return // only reports
				}
			case strings.HasPrefix(t, "-"):
			default:
				ops = append(ops, args[i])
			}
		}
		if len(ops) > 0 {
			for _, o := range ops {
				w.file(o, false, owner, d)
			}
			return // git apply refuses paths inside .git; targets unknown
		}
	} else {
		opts, opIdx := s.scanWords(wordTexts(args), args, false)
		for _, i := range opIdx {
			ops = append(ops, args[i])
		}
		for _, v := range opts {
			if v.valAt < 0 {
				continue
			}
			vw := valWord(args, v)
			switch v.name {
			case "-i", "--input":
				patchFile = true
				w.file(vw, false, owner, d)
			case "-o", "--output", "-r", "--reject-file":
				if v.val != "-" {
					w.file(vw, true, owner, d)
				}
			case "-p", "--strip":
				strip = atoi(v.val)
			case "-d", "--directory":
				dir = vw
			}
		}
		if len(ops) > 0 {
			w.file(ops[0], true, owner, d)
		}
		if len(ops) > 1 {
			patchFile = true
			w.file(ops[1], false, owner, d)
		}
		if _, ok := optValue(opts, "-o", "--output"); ok {
			return
		}
		if len(ops) > 0 {
			return // ORIGFILE is the one file patched
		}
	}
	if !patchFile && c.stdin.kind == stdinText && c.stdin.static {
		for _, t := range patchTargets(c.stdin.script, strip) {
			w.file(joinWord(dir, t, true), true, owner, d)
		}
		return
	}
	if name == "git" {
		return
	}
	w.file(joinWord(dir, "*", false), true, owner, d)
}

// patchTargets returns the files a unified or git diff names, with strip
// leading components removed (-1: both the full name and its base name).
func patchTargets(s string, strip int) []string {
	var out []string
	add := func(p string) {
		if i := strings.IndexByte(p, '\t'); i >= 0 {
			p = p[:i]
		}
		p = strings.TrimSpace(strings.Trim(p, `"`))
		if p == "" || p == "/dev/null" {
			return
		}
		cands := []string{p}
		switch {
		case strip < 0:
			cands = append(cands, path.Base(p))
		case strip > 0:
			parts := strings.Split(p, "/")
			if strip >= len(parts) {
				return
			}
			cands = []string{strings.Join(parts[strip:], "/")}
		}
		for _, c := range cands {
			if !contains(out, c) {
				out = append(out, c)
			}
		}
	}
	for _, line := range strings.Split(s, "\n") {
		switch {
		case strings.HasPrefix(line, "+++ "), strings.HasPrefix(line, "--- "):
			add(line[4:])
		case strings.HasPrefix(line, "rename to "), strings.HasPrefix(line, "copy to "):
			_, p, _ := strings.Cut(line, " to ")
			if strip > 0 {
				p = "x/" + p // git headers carry no prefix
			}
			add(p)
		case strings.HasPrefix(line, "diff --git "):
			f := strings.Fields(line[len("diff --git "):])
			for _, p := range f {
				add(p)
			}
		}
	}
	return out
}

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return -1
		}
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// inplaceFiles: perl -i and ruby -i rewrite their file operands.
func (w *walker) inplaceFiles(name string, args []word, owner string, d *dirState) {
	inplace, prog := false, false
	var ops []word
	vals := "eEIMmFlx0CdDr" // options with an attached (or, for e/E/r/I/C, next) value
	if name == "ruby" {
		vals = "eErIC0FKTWxU"
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.text
		switch {
		case t == "--":
			ops = append(ops, args[i+1:]...)
			i = len(args)
		case len(t) < 2 || t[0] != '-' || !a.static:
			ops = append(ops, args[i:]...)
			i = len(args)
		case strings.HasPrefix(t, "--"):
		default:
		opts:
			for j := 1; j < len(t); j++ {
				ch := t[j]
				switch {
				case ch == 'i':
					inplace = true
					break opts // the rest is the backup suffix
				case strings.IndexByte(vals, ch) >= 0:
					if ch == 'e' || ch == 'E' {
						prog = true
					}
					if j+1 == len(t) && strings.IndexByte("eErIC", ch) >= 0 && i+1 < len(args) {
						i++
					}
					break opts
				}
			}
		}
	}
	if !inplace {
		return
	}
	if !prog && len(ops) > 0 {
		w.file(ops[0], false, owner, d)
		ops = ops[1:]
	}
	for _, o := range ops {
		w.file(o, true, owner, d)
	}
}

// urlBase returns the file name a downloader saves a URL as.
func urlBase(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	i := strings.IndexByte(u, '/')
	if i < 0 {
		return ""
	}
	return path.Base("/" + u[i+1:])
}

// optValue returns the value of the first of opts among the parsed
// options, and whether any is there.
func optValue(parsed []optArg, opts ...string) (string, bool) {
	for _, o := range parsed {
		if contains(opts, o.name) {
			return o.val, true
		}
	}
	return "", false
}

// The file code of the entries whose arguments are a mini-language or
// whose layout the fields cannot say, as the command table names them.

func (w *walker) jqCode(_ *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	w.jqFiles(args, owner, d)
}

// findCode: find reads below its starting points (the words before the
// expression) and the files -newer and its kin compare with; the values
// of its name tests (-name '*secret*', -path, -regex) are patterns, not
// files.
func (w *walker) findFiles(_ *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	i := 0
	for i < len(args) && (args[i].text == "-H" || args[i].text == "-L" || args[i].text == "-P") {
		i++
	}
	for ; i < len(args) && !strings.HasPrefix(args[i].text, "-") && args[i].text != "(" && args[i].text != "!"; i++ {
		w.file(args[i], false, owner, d)
	}
	for ; i+1 < len(args); i++ {
		switch args[i].text {
		case "-newer", "-anewer", "-cnewer", "-samefile", "-files0-from":
			i++
			w.file(args[i], false, owner, d)
		}
	}
	w.findDeletes(args, owner, d)
}

// findDeletes records the files find -delete deletes (findTreeDeletes).
func (w *walker) findDeletes(args []word, owner string, d *dirState) {
	if !hasWord(args, "-delete") {
		return
	}
	if at := findDeleteAt(wordTexts(args)); at >= 0 {
		w.findTreeDeletes(args, at, owner, d)
	}
}

// findTreeDeletes records the files find's action at args[at] deletes
// (-delete, or -exec rm {}): those a name test picks, or else the
// starting points' trees, as rm -r of them deletes them (only some files
// under them when a test before the action picks). The same subjects as
// the rm that names those paths, so the same decision: "find build -type
// f -delete" is judged as "rm -rf build" is, "find . -type f -delete" as
// a delete in the workspace itself.
func (w *walker) findTreeDeletes(args []word, at int, owner string, d *dirState) {
	norm := wordTexts(args[:at])
	if alts, ok := findNameAlternatives(norm); ok {
		// "find . \( -name '*.orig' -o -name '*.rej' \) -delete": the
		// files each name test picks.
		for _, names := range alts {
			w.pickedFiles(names, File{Write: true, Delete: true, Picked: true}, owner, d)
		}
		return
	}
	if names, _ := findNames(norm); namePicked(names) {
		// The files a name test picks, as find -exec rm {} reads them:
		// "find . -name settings.json -delete" deletes
		// ./**/settings.json, which the rules and the critical paths
		// judge, not just files under ".".
		w.pickedFiles(names, File{Write: true, Delete: true, Picked: true}, owner, d)
		return
	}
	tested, empty := findTests(norm), findOnlyEmpty(norm)
	i := 0
	for i < len(args) && (args[i].text == "-H" || args[i].text == "-L" || args[i].text == "-P") {
		i++
	}
	for _, r := range args[i:] {
		if strings.HasPrefix(r.text, "-") || r.text == "(" || r.text == "!" {
			break
		}
		n := len(w.res.Files)
		w.file(r, true, owner, d)
		for i := n; i < len(w.res.Files); i++ {
			// A test picks the files: find deletes some of those under
			// r, not r's whole tree ("find . -type f -delete"), a part
			// of what "find r -delete" deletes.
			f := &w.res.Files[i]
			f.Delete, f.Recursive, f.Under = !empty, !tested, tested
			// Only empty files and directories ("find . -type d -empty
			// -delete"): no data goes, the tree is written, not emptied.
		}
	}
}

func (w *walker) awkCode(_ *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	w.awkFiles(args, owner, d)
}

func (w *walker) zipCode(_ *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	w.zipFiles(args, owner, d)
}

func (w *walker) unzipCode(_ *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	w.unzipFiles(args, owner, d)
}

// dittoCode: ditto SRC… DEST copies each source into DEST, a directory
// source's entries merged with what DEST holds (the form cp -rT and
// rsync SRC/ DEST write); -x extracts archives into DEST the same way,
// and -c writes one archive, DEST, from the one source.
func (w *walker) dittoCode(s *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	texts := wordTexts(args)
	opts, opIdx := s.scanWords(texts, args, false)
	if len(opIdx) < 2 {
		for _, i := range opIdx {
			w.file(args[i], false, owner, d)
		}
		return
	}
	archive := false
	for _, o := range opts {
		archive = archive || o.name == "-c"
	}
	for _, i := range opIdx[:len(opIdx)-1] {
		w.file(args[i], false, owner, d)
	}
	w.fileAs(args[opIdx[len(opIdx)-1]], File{Write: true, Into: !archive}, owner, d)
}

func (w *walker) splitCode(s *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	w.splitFiles(s, args, owner, d)
}

func (w *walker) patchCode(s *cmdSpec, name string, args []word, c scope, owner string, d *dirState) {
	w.patchFiles(s, name, args, c, owner, d)
}

func (w *walker) inplaceCode(_ *cmdSpec, name string, args []word, _ scope, owner string, d *dirState) {
	w.inplaceFiles(name, args, owner, d)
}

// ddCode: dd's operands are if=FILE (read) and of=FILE (written).
// nmapCode records nmap's file options. nmap reads options as
// getopt_long_only does: a long option takes one dash or two ("-iL
// hosts.txt", "--excludefile=x"), so "-iL" and "-oN" are no clusters of
// short letters. -iL, --excludefile and --resume read a file (its lines
// echoed in errors); -oN, -oX, -oS, -oG write one, -oA three.
func (w *walker) nmapCode(_ *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		if t == "--" {
			return
		}
		if len(t) < 3 || t[0] != '-' {
			continue
		}
		name, val, eq := strings.Cut(strings.TrimPrefix(t[1:], "-"), "=")
		var write, all bool
		switch name {
		case "iL", "excludefile", "resume", "script-args-file", "stylesheet", "servicedb", "versiondb":
		case "oN", "oX", "oS", "oG", "oM", "oH":
			write = true
		case "oA":
			write, all = true, true
		default:
			continue
		}
		v := args[i]
		switch {
		case eq:
			v.text = val
		case i+1 < len(args):
			i++
			v = args[i]
		default:
			continue
		}
		if v.text == "-" {
			continue // standard input or output
		}
		if !all {
			w.file(v, write, owner, d)
			continue
		}
		for _, ext := range [...]string{".nmap", ".xml", ".gnmap"} {
			f := v
			f.text += ext
			w.file(f, true, owner, d)
		}
	}
}

func (w *walker) ddCode(_ *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	for _, a := range args {
		if v, ok := strings.CutPrefix(a.text, "if="); ok {
			a.text = v
			w.file(a, false, owner, d)
		} else if v, ok := strings.CutPrefix(a.text, "of="); ok {
			a.text = v
			w.file(a, true, owner, d)
		}
	}
}

// makeDirs records make's written directories: -C DIR's (its recipes run
// there) and those of the variables conventional makefiles install into
// (installDirVars).
func (w *walker) makeDirs(_ *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a.text == "--":
			return
		case (a.text == "-C" || a.text == "--directory") && i+1 < len(args):
			i++
			w.file(args[i], true, owner, d)
		case strings.HasPrefix(a.text, "--directory="):
			a.text = a.text[len("--directory="):]
			w.file(a, true, owner, d)
		case len(a.text) > 1 && a.text[0] == '-' && a.text[1] != '-':
			// A cluster of short options (-sC DIR, -kCDIR): -f, -I, -o
			// and -W take a value, -j, -l and -O an optional one in the
			// same word.
		letters:
			for j := 1; j < len(a.text); j++ {
				switch c := a.text[j]; {
				case strings.IndexByte("CfIoW", c) >= 0:
					v := a
					if j+1 < len(a.text) {
						v.text = a.text[j+1:]
					} else if i+1 < len(args) {
						i++
						v = args[i]
					} else {
						break letters
					}
					if c == 'C' {
						w.file(v, true, owner, d)
					}
					break letters
				case strings.IndexByte("jlO", c) >= 0:
					break letters
				}
			}
		case !strings.HasPrefix(a.text, "-"):
			name, v, ok := strings.Cut(a.text, "=")
			if ok && slices.Contains(installDirVars, strings.TrimRight(name, ":+?")) && v != "" {
				a.text, a.tilde = v, a.tilde || strings.HasPrefix(v, "~")
				w.file(a, true, owner, d)
			}
		}
	}
}

// goOutputs records go build's and go test's -o as a write, spelled as
// Go's flag package reads it: -o V, -o=V, --o V, --o=V.
func (w *walker) goOutputs(_ *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.text == "--" {
			return
		}
		if !strings.HasPrefix(a.text, "-") {
			continue
		}
		name, v, eq := strings.Cut(strings.TrimPrefix(a.text[1:], "-"), "=")
		if name != "o" {
			continue
		}
		switch {
		case eq:
			a.text, a.tilde = v, a.tilde || strings.HasPrefix(v, "~")
			w.file(a, true, owner, d)
		case i+1 < len(args):
			i++
			w.file(args[i], true, owner, d)
		}
	}
}

// installEnv are the environment variables that say where an installer
// puts what it installs (go install's GOBIN, or GOPATH's bin; cargo
// install's CARGO_INSTALL_ROOT; pip's --target, --prefix and --user
// base; pipx's and uv tool's homes and bin directories; gem's home; npm's
// --prefix): the spellings of the options pipFiles and the like read.
// set is the subcommand and option that set the variables for every
// later run (go env -w GOBIN=DIR).
var installEnv = [...]struct {
	cmd, sub string
	vars     []string
	set      *[2]string
}{
	{"go", "install", []string{"GOBIN", "GOPATH"}, &[2]string{"env", "-w"}},
	{"cargo", "install", []string{"CARGO_INSTALL_ROOT"}, nil},
	{"pip", "install", []string{"PIP_TARGET", "PIP_PREFIX", "PYTHONUSERBASE"}, nil},
	{"pip3", "install", []string{"PIP_TARGET", "PIP_PREFIX", "PYTHONUSERBASE"}, nil},
	{"pipx", "install", []string{"PIPX_HOME", "PIPX_BIN_DIR"}, nil},
	{"uv", "tool", []string{"UV_TOOL_DIR", "UV_TOOL_BIN_DIR"}, nil},
	{"gem", "install", []string{"GEM_HOME"}, nil},
	{"npm", "install", []string{"NPM_CONFIG_PREFIX", "npm_config_prefix"}, nil},
	{"npm", "i", []string{"NPM_CONFIG_PREFIX", "npm_config_prefix"}, nil},
	{"npm", "add", []string{"NPM_CONFIG_PREFIX", "npm_config_prefix"}, nil},
}

// isInstaller reports whether installEnv names command name.
func isInstaller(name string) bool {
	for _, e := range installEnv {
		if e.cmd == name {
			return true
		}
	}
	return false
}

// installEnvDirs records as written the directories an installer is told
// to install into by its environment: a prefix assignment
// ("GOBIN=~/.local/bin go install ./..."), or a value the script gave
// the variable earlier (export GOPATH=/opt/go); and go env -w GOBIN=DIR,
// where every later go install writes. A value known only at run time
// is a write of a path nobody knows; an empty one is the installer's
// default place, which is no write the call names.
func (w *walker) installEnvDirs(name string, norm, assigns []string, owner string, d *dirState) {
	if !isInstaller(name) {
		return // most commands: no need to find the subcommand
	}
	sub := subcommand(name, norm)
	if sub >= len(norm) {
		return
	}
	for _, e := range installEnv {
		if e.cmd == name && e.set != nil && e.set[0] == norm[sub] && contains(norm[sub+1:], e.set[1]) {
			w.envDirs(e.vars, norm[sub+1:], true, owner, d)
			return
		}
	}
	for _, e := range installEnv {
		if e.cmd == name && e.sub == norm[sub] {
			w.envDirs(e.vars, assigns, false, owner, d)
		}
	}
}

// installDefaults are the places the installEnv variables name when
// unset, under the home directory: naming one writes where the
// installer writes anyway (export GOPATH=$HOME/go).
var installDefaults = [...]struct{ name, dir string }{
	{"GOPATH", "go"}, {"GOBIN", "go/bin"}, {"CARGO_INSTALL_ROOT", ".cargo"}, {"PYTHONUSERBASE", ".local"},
	{"PIPX_HOME", ".local/share/pipx"}, {"PIPX_BIN_DIR", ".local/bin"}, {"UV_TOOL_DIR", ".local/share/uv/tools"},
	{"UV_TOOL_BIN_DIR", ".local/bin"},
}

// installDefault reports whether p, the value of variable v, is its
// default place.
func (w *walker) installDefault(v, p string) bool {
	if e, ok := expandHome(p, w.a.home); ok {
		p = e
	}
	if w.a.home == "" || !path.IsAbs(p) {
		return false
	}
	for _, d := range installDefaults {
		if d.name == v && path.Clean(p) == w.a.home+"/"+d.dir {
			return true
		}
	}
	return false
}

// envDirs records the directories the variables vars name as written:
// the values assigns give them, else (unless only) those the script gave
// them earlier.
func (w *walker) envDirs(vars, assigns []string, only bool, owner string, d *dirState) {
	for _, v := range vars {
		vals, given := assignedValue(assigns, v)
		switch {
		case given || only:
		case w.lost[v]:
			vals = []string{"$" + v}
		default:
			vals = w.vars[v]
		}
		for _, val := range vals {
			for _, p := range strings.Split(val, ":") { // GOPATH is a list
				if p = cwdRelative(p); p != "" && !w.installDefault(v, p) {
					w.file(word{text: p, static: !strings.ContainsAny(p, "$`"), tilde: strings.HasPrefix(p, "~")}, true, owner, d)
				}
			}
		}
	}
}

// assignedValue returns the value a command's prefix assignments give
// variable v, the last one counting.
func assignedValue(assigns []string, v string) ([]string, bool) {
	for i := len(assigns) - 1; i >= 0; i-- {
		if val, ok := strings.CutPrefix(assigns[i], v+"="); ok {
			return []string{val}, true
		}
	}
	return nil, false
}

// installDirVars are the make variables that say where an install writes,
// as GNU's conventions and common makefiles name them.
var installDirVars = []string{
	"DESTDIR", "PREFIX", "prefix", "exec_prefix", "BINDIR", "bindir",
	"SBINDIR", "sbindir", "LIBDIR", "libdir", "LIBEXECDIR", "libexecdir",
	"SYSCONFDIR", "sysconfdir", "DATADIR", "datadir", "INSTALL_ROOT",
	"INSTALL_PREFIX", "INSTALL_DIR", "MANDIR", "mandir",
}

func (w *walker) storeCopyCode(s *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	w.storeFiles(s, args, false, false, owner, d)
}

func (w *walker) storeMoveCode(s *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	w.storeFiles(s, args, true, false, owner, d)
}

func (w *walker) storeSyncCode(s *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	w.storeFiles(s, args, false, true, owner, d)
}

// storeFiles records an object store client's copy (aws s3 cp, gsutil
// cp, azcopy copy, rclone copy…): SRC… DST, where a bucket is named in
// the store's scheme (isRemote: s3://, gs://, https://, remote:) and a
// local path is read as a source or written as the destination. These
// clients take many options the table does not list, whose values then
// read as operands; so that none hides the destination, every local
// operand after the first bucket counts as written (a download), those
// before it as read (an upload's sources; a move's are deleted, so
// written). With no bucket, the last operand is written, as cp's is. A
// recursive copy or a sync writes files the call does not name into
// its destination (File.Into).
func (w *walker) storeFiles(s *cmdSpec, args []word, move, sync bool, owner string, d *dirState) {
	texts := wordTexts(args)
	opts, opIdx := s.scanWords(texts, args, false)
	into := sync
	for _, o := range opts {
		into = into || o.name == "-r" || o.name == "-R" || o.name == "--recursive"
	}
	remoteAt := -1
	for k, i := range opIdx {
		if isRemote(texts[i]) {
			remoteAt = k
			break
		}
	}
	for k, i := range opIdx {
		o := args[i]
		switch {
		case isRemote(o.text):
		case remoteAt >= 0 && k > remoteAt || remoteAt < 0 && k == len(opIdx)-1 && k > 0:
			w.fileAs(o, File{Write: true, Into: into}, owner, d)
		default:
			w.file(o, move, owner, d)
		}
	}
}

// awsOutfileCode records the output file of an AWS operation that
// writes its response to one (aws s3api get-object --bucket B --key K
// FILE, aws lambda invoke --function-name F FILE): any word after the
// operation that is neither an option nor an option's value. Every
// option takes a value but the switches (--debug, --no-…, --dry-run),
// given in its word (--key=K) or as the next word.
func (w *walker) awsOutfileCode(_ *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	op := false
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case strings.HasPrefix(t, "-"):
			if !strings.Contains(t, "=") && !awsSwitch(t) {
				i++ // its value
			}
		case !op:
			op = true
		default:
			w.file(args[i], true, owner, d)
		}
	}
}

// awsSwitch reports whether the AWS CLI option t takes no value.
func awsSwitch(t string) bool {
	switch t {
	case "--debug", "--dry-run", "--dryrun", "--cli-auto-prompt", "--generate-cli-skeleton", "--include-value",
		"--include-values", "--recursive", "--quiet":
		return true
	}
	return strings.HasPrefix(t, "--no-")
}

// sevenZipCode records 7z's files: 7z COMMAND ARCHIVE [FILE…]. a and u
// write the archive and read the files, d and rn rewrite the archive; x
// and e extract into -oDIR (the value attached: -o~/out) or the working
// directory, files the call does not name (File.Into); l, t and h read.
// -an names no archive (the files follow the command), -si reads it from
// standard input, -so writes the extracted files to standard output.
func (w *walker) sevenZipCode(_ *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	var ops []word
	out := word{text: ".", static: true}
	noArchive, toStdout := false, false
	for _, a := range args {
		switch {
		case a.text == "-an" || a.text == "-si":
			noArchive = true
		case a.text == "-so":
			toStdout = true
		case strings.HasPrefix(a.text, "-o") && len(a.text) > len("-o"):
			out = a
			out.text = a.text[len("-o"):]
		case strings.HasPrefix(a.text, "-"):
		default:
			ops = append(ops, a)
		}
	}
	if len(ops) == 0 {
		return
	}
	files := ops[1:]
	if !noArchive && len(files) > 0 {
		archive := files[0]
		files = files[1:]
		switch ops[0].text {
		case "a", "u", "d", "rn":
			w.file(archive, true, owner, d)
		default:
			w.file(archive, false, owner, d)
		}
	}
	switch ops[0].text {
	case "x", "e":
		if !toStdout {
			w.fileAs(out, File{Write: true, Into: true}, owner, d)
		}
	case "d", "rn":
	default:
		for _, f := range files {
			w.file(f, false, owner, d)
		}
	}
}

// cloneIntoCode records the directory git clone creates and writes the
// repository's files into: its second operand, as its table entry reads
// the options.
func (w *walker) cloneIntoCode(s *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	_, ops := s.scanWords(wordTexts(args), args, false)
	if len(ops) > 1 {
		w.fileAs(args[ops[1]], File{Write: true, Into: true}, owner, d)
	}
}

// ghCloneCode is cloneIntoCode for gh repo clone and gh gist clone,
// whose words after "--" are git clone's flags.
func (w *walker) ghCloneCode(s *cmdSpec, name string, args []word, c scope, owner string, d *dirState) {
	for i, a := range args {
		if a.text == "--" {
			args = args[:i]
			break
		}
	}
	w.cloneIntoCode(s, name, args, c, owner, d)
}

// sqliteCode records sqlite3's files: the database (its first operand),
// and what the dot commands in its other operands and -cmd values name.
func (w *walker) sqliteCode(_ *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	db := true
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case t == "-cmd" && i+1 < len(args):
			i++
			w.sqlClientFiles(args[i].text, args[i].static, owner, d)
		case strings.HasPrefix(t, "-"):
		case db:
			db = false
			w.file(args[i], false, owner, d)
		default:
			w.sqlClientFiles(t, args[i].static, owner, d)
		}
	}
}

// psqlCode records psql's files: -o and -L write, -f reads, and the
// meta-commands in -c's SQL name theirs.
func (w *walker) psqlCode(_ *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	w.clientOptionFiles(args, []string{"-c", "--command"}, []string{"-o", "--output", "-L", "--log-file"}, []string{"-f", "--file"}, owner, d)
}

// mysqlCode records the files mysql's -e statements and its --tee name.
func (w *walker) mysqlCode(_ *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	w.clientOptionFiles(args, []string{"-e", "--execute"}, []string{"--tee"}, nil, owner, d)
}

// clientOptionFiles records an SQL client's option files: the values of
// sql hold client commands (sqlClientFiles), those of writes are files
// written, of reads files read; a value is the next word, or attached
// after "=" to a long option or directly to a short one.
func (w *walker) clientOptionFiles(args []word, sql, writes, reads []string, owner string, d *dirState) {
	const (
		isSQL = iota
		isWrite
		isRead
	)
	for i := 0; i < len(args); i++ {
		t := args[i].text
		for kind, names := range [...][]string{isSQL: sql, isWrite: writes, isRead: reads} {
			for _, n := range names {
				vw, ok := args[i], false
				switch {
				case t == n && i+1 < len(args):
					vw, ok = args[i+1], true
				case strings.HasPrefix(n, "--") && strings.HasPrefix(t, n+"="):
					vw.text, ok = t[len(n)+1:], true
				case !strings.HasPrefix(n, "--") && len(t) > len(n) && strings.HasPrefix(t, n):
					vw.text, ok = t[len(n):], true
				}
				switch {
				case !ok:
				case kind == isSQL:
					w.sqlClientFiles(vw.text, vw.static, owner, d)
				default:
					w.file(vw, kind == isWrite, owner, d)
				}
			}
		}
	}
}

// sqlClientFiles records the files an SQL client's commands name:
// sqlite3's .output, .once, .backup, .save and .log write, .read and
// .import read; psql's \o, \w and \g write, \i and \ir read, \copy … to
// FILE writes and … from FILE reads; mysql's tee and \T write, source
// and \. read. A file begun with "|" is a command (sqliteShell,
// clientShell judge it).
func (w *walker) sqlClientFiles(text string, static bool, owner string, d *dirState) {
	for _, line := range strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == ';' }) {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		file, write := "", false
		cmd := f[0]
		if !strings.HasPrefix(cmd, `\`) && !strings.HasPrefix(cmd, ".") {
			cmd = strings.ToLower(cmd) // mysql's TEE and SOURCE; its \T and psql's \t differ
		}
		switch cmd {
		case ".output", ".once", ".save", ".log", ".backup", `\o`, `\out`, `\w`, `\write`, `\g`, `\gx`, "tee", `\T`:
			file, write = f[len(f)-1], true
		case ".read", `\i`, `\include`, `\ir`, `\include_relative`, "source", `\.`:
			file = f[1]
		case ".import":
			for _, a := range f[1:] {
				if !strings.HasPrefix(a, "-") {
					file = a
					break
				}
			}
		case `\copy`:
			for i, a := range f {
				if l := strings.ToLower(a); (l == "to" || l == "from") && i+1 < len(f) {
					file, write = f[i+1], l == "to"
				}
			}
		}
		file = strings.Trim(file, `'"`)
		if file == "" || strings.HasPrefix(file, "|") || file == "stdout" || file == "stderr" || file == "off" || file == "-" ||
			strings.EqualFold(file, "stdin") || strings.EqualFold(file, "pstdin") || strings.EqualFold(file, "pstdout") {
			continue
		}
		w.file(word{text: file, static: static, tilde: true}, write, owner, d)
	}
}

// buildOutputCode records where a container build exports its result
// (docker build -o, --output): type=local,dest=DIR, type=tar,dest=FILE
// or a bare DIR, written with files the call does not name; "-" is
// standard output, and an image pushed or loaded writes no file here.
func (w *walker) buildOutputCode(_ *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		vw, ok := args[i], false
		switch {
		case (t == "-o" || t == "--output") && i+1 < len(args):
			i++
			vw, ok = args[i], true
		case strings.HasPrefix(t, "--output="):
			vw.text, ok = t[len("--output="):], true
		case strings.HasPrefix(t, "-o") && len(t) > 2 && t[2] != '-':
			vw.text, ok = t[2:], true
		}
		if !ok {
			continue
		}
		dest := vw.text
		if strings.Contains(dest, "=") {
			dest = ""
			for _, kv := range strings.Split(vw.text, ",") {
				if v, found := strings.CutPrefix(kv, "dest="); found {
					dest = v
				}
			}
		}
		if dest == "" || dest == "-" {
			continue
		}
		vw.text = dest
		w.fileAs(vw, File{Write: true, Into: true}, owner, d)
	}
}

// skopeoCode records what skopeo copy SRC DEST writes here: a
// destination in a local transport (dir:PATH, oci:PATH[:TAG],
// oci-archive:PATH, docker-archive:PATH) is written with files the call
// does not name; a local source is read.
func (w *walker) skopeoCode(_ *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	var ops []word
	for _, a := range args {
		if !strings.HasPrefix(a.text, "-") {
			ops = append(ops, a)
		}
	}
	for i, o := range ops {
		for _, t := range [...]string{"dir:", "oci:", "oci-archive:", "docker-archive:"} {
			p, ok := strings.CutPrefix(o.text, t)
			if !ok || p == "" {
				continue
			}
			if t != "dir:" {
				p, _, _ = strings.Cut(p, ":") // a tag or reference after the path
			}
			o.text = p
			if i == len(ops)-1 {
				w.fileAs(o, File{Write: true, Into: true}, owner, d)
			} else {
				w.file(o, false, owner, d)
			}
		}
	}
}

// lastWrittenCode records a converter's files (convert IN… OUT): the
// last word that is no option is written, the others read.
func (w *walker) lastWrittenCode(_ *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	var ops []word
	for _, a := range args {
		if !strings.HasPrefix(a.text, "-") && !strings.HasPrefix(a.text, "+") {
			ops = append(ops, a)
		}
	}
	for i, o := range ops {
		w.file(o, i == len(ops)-1 && i > 0, owner, d)
	}
}

// ffmpegSwitches are ffmpeg's options that take no value.
var ffmpegSwitches = []string{"-y", "-n", "-hide_banner", "-nostdin", "-stats", "-nostats", "-an", "-vn", "-sn", "-dn",
	"-shortest", "-re", "-copyts", "-benchmark", "-ignore_unknown", "-report", "-dump", "-hex"}

// ffmpegCode records ffmpeg's files: -i INPUT is read; every word that
// is neither an option nor an option's value is an output, written.
func (w *walker) ffmpegCode(_ *cmdSpec, _ string, args []word, _ scope, owner string, d *dirState) {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case t == "-i" && i+1 < len(args):
			i++
			w.file(args[i], false, owner, d)
		case strings.HasPrefix(t, "-") && len(t) > 1:
			if !slices.Contains(ffmpegSwitches, t) {
				i++ // its value
			}
		default:
			w.file(args[i], true, owner, d)
		}
	}
}
