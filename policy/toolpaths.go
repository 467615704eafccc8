package policy

import (
	"path"
	"slices"
	"strings"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/glob"
)

// toolPathSubjects adds, for a tool decided by its name alone (an MCP
// server's read_file, an agent's own tools), a subject for each argument
// that names a file by a usual name (path, file_path, source, …) or holds
// a file glob (glob, include, a file search's pattern). They are checked
// like a shell command's file operands (DESIGN §3.5: a file tool is
// decided on every path argument it carries): against the workspace's
// read and write rules, the managed layer and the sensitive classes. They
// only restrict: an allow or an open result leaves the tool's own rule to
// decide. A tool whose name says it writes (write_file, edit, move,
// delete…) writes each path: tampering found so is denied, as it is for
// Write. A path next to a repository or host argument is checked all the
// same: the agent writes the arguments, and one named "repo" would
// otherwise carry ~/.ssh/id_rsa past the check.
func (e *Engine) toolPathSubjects(subs []subject, c *toolgate.Call) []subject {
	var buf [8]string
	keys := buf[:0]
	search := fileSearchToolName(c.Tool)
	for k := range c.Args {
		if (isPathArg(c, k) || globArgName(k, search)) && len(keys) < len(buf) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return subs
	}
	slices.Sort(keys) // map order is random; the decision's is not
	writes := writerToolName(c.Tool)
	root := ""
	for _, k := range keys {
		if v, ok := c.Args[k].(string); ok && isPathArg(c, k) && root == "" {
			root = v // a glob argument is relative to the path searched
		}
	}
	add := func(p string) {
		p = strings.TrimPrefix(p, "file://") // a file URI names its path
		if p == "" || strings.Contains(p, "://") || len(subs) >= maxOperands {
			return
		}
		for _, fam := range [2]string{familyRead, familyWrite} {
			if fam == familyWrite && !writes {
				continue
			}
			kind := toolgate.SubjectRead
			if fam == familyWrite {
				kind = toolgate.SubjectWrite
			}
			s := e.fileSubject(subject{family: fam, tool: canonicalTool(fam), toolArg: true}, kind, p, c.Cwd, "")
			if !s.opaque {
				s.fclass = e.fileClass(&s, fam == familyWrite, false, false)
			}
			s.restrict = true
			subs = append(subs, s)
		}
	}
	for _, k := range keys {
		isPath := isPathArg(c, k)
		switch v := c.Args[k].(type) {
		case string:
			if isPath {
				add(v)
			} else {
				subs = e.globSubjects(subs, v, root, c.Cwd, true)
			}
		case []any:
			for _, x := range v {
				if p, ok := x.(string); ok && isPath {
					add(p)
				} else if ok {
					subs = e.globSubjects(subs, p, root, c.Cwd, true)
				}
			}
		}
	}
	return subs
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
// path, paths, file_path, filePath, filename, source, destination, …
func pathArgName(k string) bool {
	var buf [24]byte
	switch string(argKey(k, &buf)) {
	case "path", "paths", "filepath", "filepaths", "file", "files", "filename", "notebookpath",
		"source", "sources", "src", "destination", "dest", "dst", "target", "targetpath",
		"directory", "dir", "oldpath", "newpath", "frompath", "topath", "sourcepath", "destinationpath":
		return true
	}
	return false
}

// isPathArg reports whether argument k of call c holds paths: by its
// name, or by the tool's description of it (Call.PathArgs).
func isPathArg(c *toolgate.Call, k string) bool {
	return pathArgName(k) || slices.Contains(c.PathArgs, k)
}

// writerToolName reports whether a tool's name says it writes, moves or
// deletes files (write_file, edit_file, move_file, delete, create_directory).
func writerToolName(tool string) bool {
	t := strings.ToLower(tool)
	for _, w := range [...]string{"write", "edit", "create", "move", "rename", "delete", "remove", "append", "save", "put", "upload", "patch", "replace", "mkdir", "copy", "insert", "update"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}
