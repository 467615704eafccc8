package policy

import (
	"slices"
	"strings"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/shell"
)

// toolPathSubjects adds, for a tool decided by its name alone (an MCP
// server's read_file, an agent's own tools), a subject for each argument
// that names a file by a usual name (path, file_path, source, …). They
// only restrict, and only toolgate's own rules decide them (the managed
// layer, the built-in defaults' secret denies, the sensitive classes):
// the rules a person writes for file tools stay with file tools. A
// tool whose name says it writes (write_file, edit, move, delete…) may
// write each: a class found is a possibility, and tampering asks in
// every mode. A path next to a repository or host argument is checked
// all the same: the agent writes the arguments, and one named "repo"
// would otherwise carry ~/.ssh/id_rsa past the check.
func (e *Engine) toolPathSubjects(subs []subject, c *toolgate.Call) []subject {
	var buf [8]string
	keys := buf[:0]
	for k := range c.Args {
		if pathArgName(k) && len(keys) < len(buf) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return subs
	}
	slices.Sort(keys) // map order is random; the decision's is not
	writes := writerToolName(c.Tool)
	add := func(p string) {
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
			s := e.fileSubject(subject{family: fam, tool: canonicalTool(fam), builtin: true}, kind, p, c.Cwd, "")
			if !s.opaque {
				s.fclass = e.fileClass(&s, fam == familyWrite, false, false)
				if fam == familyWrite {
					s.fclass.Reason = mayVerb(s.fclass.Reason)
					s.maybe = s.fclass.Class == shell.ClassTampering
				}
			}
			s.restrict = true
			subs = append(subs, s)
		}
	}
	for _, k := range keys {
		switch v := c.Args[k].(type) {
		case string:
			add(v)
		case []any:
			for _, x := range v {
				if p, ok := x.(string); ok {
					add(p)
				}
			}
		}
	}
	return subs
}

// pathArgName reports whether an argument's name says it holds a path:
// path, paths, file_path, filePath, filename, source, destination, …
func pathArgName(k string) bool {
	var buf [24]byte
	n := buf[:0]
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case c == '_' || c == '-':
			continue
		case len(n) == len(buf):
			return false // longer than any name below
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		n = append(n, c)
	}
	switch string(n) {
	case "path", "paths", "filepath", "filepaths", "file", "files", "filename", "notebookpath",
		"source", "sources", "src", "destination", "dest", "dst", "target", "targetpath",
		"directory", "dir", "oldpath", "newpath", "frompath", "topath", "sourcepath", "destinationpath":
		return true
	}
	return false
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
