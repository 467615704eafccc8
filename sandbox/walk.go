package sandbox

import (
	"os"
	"strings"
)

// Access is what a grant allows beneath its path.
type Access uint8

const (
	// Read allows reading files and directories and running programs.
	Read Access = iota + 1
	// ReadWrite adds creating, changing, renaming and deleting files,
	// directories, links, sockets and pipes (never device nodes).
	ReadWrite
)

// Grant is one allow rule: Access to Path and, when it is a directory,
// everything beneath it.
type Grant struct {
	Path   string
	Dir    bool
	Access Access
}

// Grants computes the allow rules that give Access a to everything under
// root except what the deny specs and the denied directories cover.
// Landlock can only allow, and a rule on a directory covers its whole
// hierarchy; so a directory with a denied path below it gets no rule of
// its own: the walk goes down into it and grants each entry beside the
// denied one, down to the denied path's parent. What a denied
// directory's listing shows (names, not contents) stays visible through
// the read-directory right on "/", granted separately; symbolic links get
// no rule (what they point at is decided by its own path).
//
// Entries created after the walk directly inside a directory it went
// down into get no rule (they stay unreadable and unwritable); entries
// created anywhere below a granted directory are covered.
func Grants(root string, a Access, deny []Spec, denyDirs []string) []Grant {
	return grants(root, a, deny, denyDirs, dirCache{})
}

// grants is Grants with the directory listings of listed (read there
// once per run: building the profile already listed most of them).
func grants(root string, a Access, deny []Spec, denyDirs []string, listed dirCache) []Grant {
	w := walker{denyDirs: denyDirs, access: a, byParent: map[string][]*Spec{}, above: map[string]bool{}, listed: listed}
	for i := range deny {
		s := &deny[i]
		if (s.Parent != root && !within(s.Parent, root)) || !s.exists(listed) {
			continue
		}
		w.byParent[s.Parent] = append(w.byParent[s.Parent], s)
		w.markAbove(s.Parent, true)
	}
	for _, d := range denyDirs {
		w.markAbove(d, false)
	}
	fi, err := os.Stat(root)
	if err != nil {
		return nil
	}
	w.visit(root, fi.IsDir())
	return w.out
}

type walker struct {
	denyDirs []string
	access   Access
	out      []Grant
	// byParent files the deny specs under their directory.
	byParent map[string][]*Spec
	// above holds every directory with a denied path below it.
	above map[string]bool
	// listed lists each directory once.
	listed dirCache
}

// exists reports whether some entry the spec matches exists. Only
// existing paths shape the walk: a directory holds no rule of its own
// only when something in it is really denied.
func (s *Spec) exists(c dirCache) bool {
	l := c.list(s.Parent)
	if !hasMeta(s.Name) {
		_, ok := l.lower[strings.ToLower(s.Name)]
		return ok
	}
	// A pattern is matched against a listing once per run (the walks of
	// "/" and of each writable root ask again).
	pat := strings.ToLower(s.Name)
	if found, ok := l.matched[pat]; ok {
		return found
	}
	found := false
	for name := range l.lower {
		if lowerMatch(pat, name) {
			found = true
			break
		}
	}
	if l.matched == nil {
		l.matched = map[string]bool{}
	}
	l.matched[pat] = found
	return found
}

// markAbove records that the directories above p (and p itself when self
// is set) have a denied path below them.
func (w *walker) markAbove(p string, self bool) {
	if !self {
		p = parentOf(p)
	}
	for {
		if w.above[p] {
			return
		}
		w.above[p] = true
		if p == "/" || p == "." || p == "" {
			return
		}
		p = parentOf(p)
	}
}

// parentOf is the directory holding p ("/" for "/x").
func parentOf(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return "/"
	}
	return p[:i]
}

func (w *walker) visit(p string, isDir bool) {
	for _, d := range w.denyDirs {
		if p == d {
			return
		}
	}
	var partial *Spec
	for _, s := range w.byParent[parentOf(p)] {
		if !s.matches(p) {
			continue
		}
		if !s.Dir || len(s.Except) == 0 || !isDir {
			return
		}
		partial = s
	}
	if !isDir {
		w.out = append(w.out, Grant{Path: p, Access: w.access})
		return
	}
	if partial == nil && !w.above[p] {
		w.out = append(w.out, Grant{Path: p, Dir: true, Access: w.access})
		return
	}
	// An unreadable directory lists nothing: no rule, so denied.
	for _, e := range w.listed.list(p).entries {
		if e.typ == typeSymlink {
			continue
		}
		if partial != nil && partial.covers(e.name) {
			continue
		}
		w.visit(join(p, e.name), e.typ == typeDir)
	}
}

// dirCache lists each directory once.
type dirCache map[string]*listing

// listing is a directory's entries, their indexes by lower-case name,
// and whether a lower-case pattern matches one of them (Spec.exists).
type listing struct {
	entries []dirEntry
	lower   map[string]int
	matched map[string]bool
}

// missing records that dir does not exist: it lists nothing.
func (c dirCache) missing(dir string) {
	if _, ok := c[dir]; !ok {
		c[dir] = &listing{lower: map[string]int{}}
	}
}

// list lists dir (no entries when it cannot be read).
func (c dirCache) list(dir string) *listing {
	if l, ok := c[dir]; ok {
		return l
	}
	l := &listing{}
	l.entries = readDir(dir)
	l.lower = make(map[string]int, len(l.entries))
	for i, e := range l.entries {
		l.lower[strings.ToLower(e.name)] = i
	}
	c[dir] = l
	return l
}

// matching returns the entries the spec, whose Parent l lists, matches
// as a whole (Spec.matches). A name without a pattern is looked up first:
// most are not there.
func (l *listing) matching(s *Spec) []dirEntry {
	if _, ok := l.lower[strings.ToLower(s.Name)]; !ok && !hasMeta(s.Name) {
		return nil
	}
	var out []dirEntry
	for _, e := range l.entries {
		if nameMatch(s.Name, e.name) && (s.Dir || !excepted(s.Except, e.name)) {
			out = append(out, e)
		}
	}
	return out
}

// listed reports whether dir has been listed and, if so, whether it
// holds an entry of that name (case folded, as lookups are).
func (c dirCache) listed(dir, name string) (listed, found bool) {
	l, ok := c[dir]
	if !ok {
		return false, false
	}
	_, found = l.lower[strings.ToLower(name)]
	return true, found
}
