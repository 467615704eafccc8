package policy

import (
	"path"
	"slices"
	"strings"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/glob"
	"github.com/toolgate/toolgate/shell"
)

// toolPathSubjects adds, for a tool decided by its name alone (an MCP
// server's read_file, an agent's own tools), a subject for each argument
// that names a file by a usual name (path, file_path, source, …) or holds
// a file glob (glob, include, a file search's pattern). They are checked
// like a shell command's file operands (DESIGN §3.5: a file tool is
// decided on every path argument it carries): against the workspace's
// read and write rules, the managed layer and the sensitive classes. They
// only restrict: an allow or an open result leaves the tool's own rule to
// decide. A tool whose name does not say it only reads (writerToolName)
// writes each path: tampering found so is denied, as it is for Write. A path next to a repository or host argument is checked all the
// same: the agent writes the arguments, and one named "repo" would
// otherwise carry ~/.ssh/id_rsa past the check.
func (e *Engine) toolPathSubjects(subs []subject, c *toolgate.Call) []subject {
	writes, search := writerToolName(c.Tool), fileSearchToolName(c.Tool)
	root := ""
	for k, v := range c.Args {
		if s, ok := v.(string); ok && isPathArg(c, k) && (root == "" || s < root) {
			root = s // a glob argument is relative to the path searched
		}
	}
	// The arguments are walked depth first with a stack of their own, not
	// by recursion: the subjects stay on the caller's stack.
	var w argWalk
	w.pushObject(c, c.Args, search, 0)
	for w.n > 0 {
		w.n--
		it := w.items[w.n]
		switch v := it.v.(type) {
		case string:
			subs = e.argString(subs, c, it.k, v, root, writes, search)
		case map[string]any:
			w.pushObject(c, v, search, it.depth+1)
		case []any:
			// Strings in place; at a nested object or list, the rest of
			// the list waits below it on the stack.
			for i := it.idx; i < len(v); i++ {
				if str, ok := v[i].(string); ok {
					subs = e.argString(subs, c, it.k, str, root, writes, search)
					continue
				}
				if i+1 < len(v) {
					w.pushFrom(it.k, v, i+1, it.depth)
				}
				w.push(it.k, v[i], it.depth+1)
				break
			}
		}
	}
	if w.over != "" && len(subs) < maxOperands {
		// Nested deeper, or wider, than the walk holds: a read of files
		// nobody can name (it asks).
		s := subject{family: familyRead, tool: canonicalTool(familyRead), toolArg: true, kind: toolgate.SubjectRead, opaque: true, n: 1}
		s.texts[0] = w.over
		subs = append(subs, s)
	}
	return subs
}

// argString adds the subjects of one string argument value v of
// argument k (toolPathSubjects).
func (e *Engine) argString(subs []subject, c *toolgate.Call, k, v, root string, writes, search bool) []subject {
	isPath := isPathArg(c, k)
	switch {
	case patchText(v):
		// A patch writes each file it names, whatever the tool.
		for rest := v; rest != ""; {
			var line string
			line, rest, _ = strings.Cut(rest, "\n")
			if p := patchLinePath(line); p != "" {
				subs = e.argPathSubjects(subs, p, c.Cwd, true)
			}
		}
	case isPath && fetchURL(v):
		subs = e.argURLSubject(subs, v) // a tool that takes a path or a URL
	case isPath:
		subs = e.argPathSubjects(subs, v, c.Cwd, writes)
	case globArgName(k, search):
		subs = e.globSubjects(subs, v, root, c.Cwd, true)
	case fileURI(v):
		subs = e.argPathSubjects(subs, v, c.Cwd, writes)
	case fetchURL(v):
		subs = e.argURLSubject(subs, v)
	case pathShaped(v):
		// An absolute, home or ./ ../ path under any name (an attachment, an
		// asset) is read: what it names goes to the tool.
		subs = e.argPathSubjects(subs, v, c.Cwd, false)
	}
	return subs
}

// maxArgDepth bounds how deep the walk of a tool's arguments looks into
// nested ones ({"file": {"path": …}}, {"edits": [{"path": …}]}).
const maxArgDepth = 8

// maxArgKeys bounds the arguments of one object sorted before they are
// checked; an object with more is checked all the same, in map order.
const maxArgKeys = 16

// argItem is one argument value still to check: its argument's name (a
// list's items keep their list's), the value, and how deeply it nests.
type argItem struct {
	k     string
	v     any
	idx   int // a list's first item still to check
	depth int
}

// argWalk is the stack of a walk over a tool's arguments; over names an
// argument left unchecked because the walk was too deep or too wide.
type argWalk struct {
	items [64]argItem
	n     int
	over  string
}

func (w *argWalk) push(k string, v any, depth int) bool {
	if depth > maxArgDepth || w.n == len(w.items) {
		if w.over == "" {
			w.over = k
		}
		return false
	}
	w.items[w.n] = argItem{k: k, v: v, depth: depth}
	w.n++
	return true
}

// pushFrom pushes the rest of list v, from item i on.
func (w *argWalk) pushFrom(k string, v []any, i, depth int) {
	if w.push(k, v, depth) {
		w.items[w.n-1].idx = i
	}
}

// pushObject pushes the arguments of one object that may name a file or
// a URL (argOfInterest), sorted so that the first pops first: map order
// is random; the decision's is not.
func (w *argWalk) pushObject(c *toolgate.Call, args map[string]any, search bool, depth int) {
	var buf [maxArgKeys]string
	keys := buf[:0]
	for k, v := range args {
		if !argOfInterest(c, k, v, search) {
			continue
		}
		if len(keys) == len(buf) {
			for k, v := range args {
				if argOfInterest(c, k, v, search) {
					w.push(k, v, depth)
				}
			}
			return
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i := len(keys) - 1; i >= 0; i-- {
		w.push(keys[i], args[keys[i]], depth)
	}
}

// argOfInterest reports whether argument k (value v) may name a file or a
// URL: by its name, or by its value (a file URI, an http URL, an object
// or a list, which argSubjects looks into).
func argOfInterest(c *toolgate.Call, k string, v any, search bool) bool {
	if isPathArg(c, k) || globArgName(k, search) {
		return true
	}
	switch v := v.(type) {
	case string:
		return fileURI(v) || fetchURL(v) || pathShaped(v) || patchText(v)
	case map[string]any, []any:
		return true
	}
	return false
}

// argPathSubjects adds the subjects of one path a tool's argument names:
// a read, and a write when the tool's name says it writes. A file URI
// names its path; any other text but an http URL is a path as the file
// system reads it ("x://../../.ssh/id_rsa" is a directory "x:" and a
// climb).
func (e *Engine) argPathSubjects(subs []subject, p, cwd string, writes bool) []subject {
	if u, ok := fileURIPath(p); ok {
		p = u
	}
	if p == "" {
		return subs
	}
	for _, fam := range [2]string{familyRead, familyWrite} {
		if len(subs) >= maxOperands {
			break
		}
		if fam == familyWrite && !writes {
			continue
		}
		kind := toolgate.SubjectRead
		if fam == familyWrite {
			kind = toolgate.SubjectWrite
		}
		s := e.fileSubject(subject{family: fam, tool: canonicalTool(fam), toolArg: true}, kind, p, cwd, "")
		if !s.opaque {
			s.fclass = e.fileClass(&s, fam == familyWrite, false, false)
		}
		s.restrict = true
		subs = append(subs, s)
	}
	return subs
}

// argURLSubject adds a fetch of a URL a tool's argument holds, classified
// as WebFetch's and curl's are (urlClass): a cloud metadata service is a
// secret read, in any mode; this machine's services ask. Any other host
// restricts nothing: the tool's own rule decides.
func (e *Engine) argURLSubject(subs []subject, u string) []subject {
	if len(subs) >= maxOperands {
		return subs
	}
	h := urlSubject(u)
	s := subject{family: familyWebFetch, tool: "WebFetch", toolArg: true, kind: toolgate.SubjectPath, restrict: true, n: 1}
	s.texts[0], s.fclass = h, urlClass(h)
	return append(subs, s)
}

// fileURI reports whether s is a file URI ("file:///x", "FILE:/x") as a
// URL parser reads it (shell.URLText: " fi\tle:///x").
func fileURI(s string) bool {
	s = shell.URLText(s)
	return len(s) > 5 && strings.EqualFold(s[:5], "file:")
}

// fileURIPath returns the path a file URI names, as a URL library reads
// it (a WHATWG parser's file scheme): the scheme in any case, a
// backslash as a slash, the query and fragment dropped
// ("file:///home/u/.netrc#x" reads .netrc), an empty or "localhost"
// authority, and percent-escapes decoded ("file://localhost/home/u/%2essh"
// → "/home/u/.ssh"). ok is false for a text that is no file URI.
func fileURIPath(s string) (p string, ok bool) {
	if !fileURI(s) {
		return "", false
	}
	s = shell.URLText(s)
	p = strings.ReplaceAll(s[5:], `\`, "/")
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	if rest, ok := strings.CutPrefix(p, "//"); ok {
		i := strings.IndexByte(rest, '/')
		if i < 0 {
			i = len(rest)
		}
		if host := rest[:i]; host != "" && !strings.EqualFold(host, "localhost") {
			return s, true // another machine's file: the text as a path, which matches nothing open
		}
		p = rest[i:]
	}
	p = shell.PercentDecode(p)
	return p, true
}

// patchText reports whether a value is a patch: Codex's apply_patch
// format ("*** Begin Patch") or a unified diff ("--- a/x" then "+++ b/x").
func patchText(s string) bool {
	return strings.HasPrefix(strings.TrimSpace(s), "*** Begin Patch") ||
		strings.Contains(s, "\n+++ ") && (strings.HasPrefix(s, "--- ") || strings.Contains(s, "\n--- "))
}

// patchLinePath returns the file a patch's header line names ("*** Update
// File: x", "*** Move to: y", "+++ b/x", "--- a/x"), or "": the a/ and b/
// of a git diff and a timestamp after a tab are dropped; /dev/null names
// no file.
func patchLinePath(line string) string {
	line = strings.TrimSuffix(line, "\r")
	for _, pre := range [...]string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "} {
		if p, ok := strings.CutPrefix(line, pre); ok {
			return strings.TrimSpace(p)
		}
	}
	p, ok := strings.CutPrefix(line, "+++ ")
	if !ok {
		if p, ok = strings.CutPrefix(line, "--- "); !ok {
			return ""
		}
	}
	if i := strings.IndexByte(p, '\t'); i >= 0 {
		p = p[:i]
	}
	p = strings.TrimSpace(p)
	if p == "/dev/null" {
		return ""
	}
	if len(p) > 2 && (p[0] == 'a' || p[0] == 'b') && p[1] == '/' {
		p = p[2:]
	}
	return p
}

// pathShaped reports whether a whole value reads as an absolute, home or
// explicitly relative path ("/home/u/.ssh/id_rsa", "~/.aws/credentials",
// "$HOME/.netrc", "../.ssh/id_rsa", "./.env"): no space or line break,
// and more than a bare "/".
func pathShaped(s string) bool {
	if len(s) < 2 || strings.ContainsAny(s, " \t\n\r") {
		return false
	}
	return s[0] == '/' || strings.HasPrefix(s, "~/") || strings.HasPrefix(s, "$HOME/") || strings.HasPrefix(s, "${HOME}/") ||
		strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../")
}

// fetchURL reports whether s is a URL a fetch tool reaches over the
// network: an http, https, ftp or ws scheme in any case, read as a URL
// parser reads it (shell.URLText: "ht\ttp://…").
func fetchURL(s string) bool {
	s = shell.URLText(s)
	i := strings.Index(s, "://")
	if i <= 0 || i > 5 {
		return false
	}
	switch strings.ToLower(strings.TrimSpace(s[:i])) {
	case "http", "https", "ftp", "ws", "wss":
		return true
	}
	return false
}

// maxGlobAlternatives bounds the brace alternatives of one glob argument
// checked one by one; a glob with more is one opaque read (it asks).
const maxGlobAlternatives = 16

// globSubjects adds the read subjects of a file glob a search tool takes
// (Grep's glob, Glob's pattern, an MCP file search's pattern): the files
// under root it may name. A glob without a '/' matches a name at any
// depth (ripgrep's -g, a file search's pattern) when anyDepth is set. A
// deny or ask rule that may match one of its files asks (pattern.go); an
// exclusion ("!*.env") names no file to read.
func (e *Engine) globSubjects(subs []subject, g, root, cwd string, anyDepth bool) []subject {
	g = strings.TrimSpace(g)
	if g == "" || g[0] == '!' || len(subs) >= maxOperands {
		return subs
	}
	if root == "" {
		root = "."
	}
	base := subject{family: familyRead, tool: canonicalTool(familyRead), toolArg: true, restrict: true}
	alts, err := glob.ExpandBraces(g)
	if err != nil || len(alts) > maxGlobAlternatives {
		s := base
		s.kind, s.opaque, s.texts[0], s.n = toolgate.SubjectRead, true, g, 1
		return append(subs, s)
	}
	var buf [2 * maxGlobAlternatives]string
	paths := buf[:0]
	for _, a := range alts {
		switch {
		case path.IsAbs(a) || strings.HasPrefix(a, "~"):
			paths = append(paths, a)
		case anyDepth && !strings.HasPrefix(a, "**"):
			// In the root and below it ("**/" may be no directory, which
			// the reading of "**" as a run does not say).
			paths = append(paths, path.Join(root, a), path.Join(root, "**", a))
		default:
			paths = append(paths, path.Join(root, a))
		}
	}
	for _, p := range paths {
		if len(subs) >= maxOperands {
			break
		}
		var s subject
		if isPattern(p, false) {
			s = e.patternSubject(base, toolgate.SubjectRead, p, cwd, "", false)
			s.pat.local, s.pat.search = cwd == "" && !path.IsAbs(p), true
			s.fclass = e.patternClass(&s, false, false, false)
		} else {
			s = e.fileSubject(base, toolgate.SubjectRead, p, cwd, "")
			if !s.opaque {
				s.fclass = e.fileClass(&s, false, false, false)
			}
		}
		subs = append(subs, s)
	}
	return subs
}

// globArgName reports whether an argument's name says it holds a file
// glob: glob, include, file_pattern…, and a file search's pattern (in a
// content search, pattern is what to look for, not which files).
func globArgName(k string, fileSearch bool) bool {
	var buf [24]byte
	switch string(argKey(k, &buf)) {
	case "glob", "globs", "globpattern", "include", "includes", "includepattern", "filepattern", "filepatterns", "namepattern":
		return true
	case "pattern", "patterns":
		return fileSearch
	}
	return false
}

// fileSearchToolName reports whether a tool's name says it searches for
// files by name (search_files, find_files, glob), so its pattern is a
// file glob.
func fileSearchToolName(tool string) bool {
	has := func(w string) bool { return containsFold(tool, w) }
	return has("glob") || has("file") && (has("search") || has("find"))
}

// containsFold reports whether s contains the lower-case ASCII word w in
// any case, without allocating.
func containsFold(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(w)], w) {
			return true
		}
	}
	return false
}

// argKey folds an argument's name for the lists below: lower case,
// without '_' and '-' ("file_path", "filePath" → "filepath"). A name
// longer than any listed folds to "".
func argKey(k string, buf *[24]byte) []byte {
	n := buf[:0]
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case c == '_' || c == '-':
			continue
		case len(n) == len(buf):
			return nil
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		n = append(n, c)
	}
	return n
}

// pathArgName reports whether an argument's name says it holds a path:
// path, paths, file_path, filePath, filename, source, destination, …,
// or any name ending in path, file, dir, folder or uri.
func pathArgName(k string) bool {
	var buf [24]byte
	switch string(argKey(k, &buf)) {
	case "path", "paths", "filepath", "filepaths", "file", "files", "filename", "notebookpath",
		"source", "sources", "src", "destination", "dest", "dst", "target", "targetpath",
		"directory", "dir", "oldpath", "newpath", "frompath", "topath", "sourcepath", "destinationpath",
		"from", "to", "uri", "uris", "fileuri", "root", "rootpath", "cwd", "workdir", "workingdir", "workingdirectory",
		"location", "folder", "folderpath", "dirpath", "directorypath", "basedir", "basepath", "projectpath",
		"output", "outputpath", "outputfile", "outputdir", "outfile", "input", "inputpath", "inputfile",
		"sourcefile", "sourcedir", "targetfile", "targetdir", "destpath", "destfile", "destdir", "filenames":
		return true
	}
	// asset_path, localFile, config_dir, image_paths…: a name that ends
	// as a path's does.
	for _, suf := range [...]string{"path", "paths", "file", "files", "filename", "filenames", "dir", "directory", "folder", "uri"} {
		if len(k) > len(suf) && strings.EqualFold(k[len(k)-len(suf):], suf) {
			return true
		}
	}
	return false
}

// isPathArg reports whether argument k of call c holds paths: by its
// name, or by the tool's description of it (Call.PathArgs).
func isPathArg(c *toolgate.Call, k string) bool {
	return pathArgName(k) || slices.Contains(c.PathArgs, k)
}

// writerToolName reports whether a tool may write, move or delete the
// files its arguments name: a name that says it writes (write_file,
// edit, move, delete, apply_diff, extract…), or any name that does not say
// it only reads (read_file, get_file_info, list_directory,
// search_files…): set_file_content, mv and touch write too. Of
// an MCP tool's name only the tool's part counts (mcp__search__rm
// removes).
func writerToolName(tool string) bool {
	t := tool
	if rest, ok := strings.CutPrefix(t, "mcp__"); ok {
		if i := strings.LastIndex(rest, "__"); i >= 0 {
			t = rest[i+2:]
		}
	}
	for _, w := range [...]string{"write", "edit", "create", "move", "rename", "delete", "remove", "append", "save", "put", "upload", "patch", "replace", "mkdir", "copy", "insert", "update", "apply", "extract", "download", "truncate", "restore"} {
		if containsFold(t, w) {
			return true
		}
	}
	for _, w := range [...]string{"read", "get", "list", "search", "find", "view", "show", "stat", "info", "tree", "glob", "grep", "query", "fetch", "head", "tail", "describe", "exists", "count", "lookup", "inspect", "browse", "diff", "compare", "hash", "checksum", "validate", "lint", "analy", "summar"} {
		if containsFold(t, w) {
			return false
		}
	}
	return true
}
