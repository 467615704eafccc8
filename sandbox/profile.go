package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolgate/toolgate/internal/sensitive"
)

// Spec names sensitive paths: every entry of directory Parent whose name
// matches Name ('*' matches any run of characters; case is folded, as
// sensitive.Lookup folds it).
type Spec struct {
	Parent string `json:"parent"`
	Name   string `json:"name"`
	// Dir reports that the entry names a directory and everything under it.
	Dir bool `json:"dir,omitempty"`
	// Except lists name patterns that are not sensitive although the spec
	// covers them: children of a Dir spec (~/.ssh's "*.pub"), or the
	// matching names themselves (".ssh/id_*" but not "*.pub").
	Except []string `json:"except,omitempty"`
	// Reason says what the path holds, to name it when access fails.
	Reason string `json:"reason"`
}

// Path is the spec as one path (its name may hold '*').
func (s Spec) Path() string { return join(s.Parent, s.Name) }

// matches reports whether path p (absolute, clean) is covered by the spec
// as a whole: it is a matching entry of Parent that Except does not free.
// A Dir spec with Except matches its directory, whose children the walk
// then decides one by one (covered reports them).
func (s Spec) matches(p string) bool {
	dir, name := filepath.Split(p)
	if strings.TrimSuffix(dir, "/") != s.Parent && !(dir == "/" && s.Parent == "/") {
		return false
	}
	if !nameMatch(s.Name, name) {
		return false
	}
	return s.Dir || !excepted(s.Except, name)
}

// covers reports whether child name of a directory the Dir spec matched
// is sensitive.
func (s Spec) covers(name string) bool { return !excepted(s.Except, name) }

func excepted(except []string, name string) bool {
	for _, e := range except {
		if nameMatch(e, name) {
			return true
		}
	}
	return false
}

// nameMatch matches one path element against a pattern with '*', folding
// case.
func nameMatch(pat, name string) bool {
	if !hasMeta(pat) {
		return strings.EqualFold(pat, name)
	}
	return lowerMatch(strings.ToLower(pat), strings.ToLower(name))
}

// lowerMatch is filepath.Match of a lower-case pattern against a
// lower-case name, false for a malformed pattern. A pattern whose only
// special character is '*' (most of the tables') is matched without
// filepath.Match's work: a name holds no separator for '*' to stop at.
func lowerMatch(pat, name string) bool {
	if strings.ContainsAny(pat, `?[\`) {
		ok, err := filepath.Match(pat, name)
		return err == nil && ok
	}
	return starMatch(pat, name)
}

// starMatch matches name against pat, where '*' matches any run of
// characters and every other character itself.
func starMatch(pat, name string) bool {
	// Greedy, going back to the last '*' on a mismatch.
	p, n, star, mark := 0, 0, -1, 0
	for n < len(name) {
		switch {
		case p < len(pat) && pat[p] == '*':
			star, mark = p, n
			p++
		case p < len(pat) && pat[p] == name[n]:
			p++
			n++
		case star >= 0:
			mark++
			p, n = star+1, mark
		default:
			return false
		}
	}
	for p < len(pat) && pat[p] == '*' {
		p++
	}
	return p == len(pat)
}

// hasMeta reports whether pat holds a character filepath.Match treats
// specially: without one, a pattern matches only its own text.
func hasMeta(pat string) bool { return strings.ContainsAny(pat, `*?[\`) }

// Profile is what a confined command may do. The zero Profile reads
// nothing and writes nothing; Default builds the usual one.
type Profile struct {
	// Write lists the directories the command may create, change and
	// delete files in: the workspace roots and the temporary directories.
	// They are also readable.
	Write []string `json:"write"`
	// DenyRead names what it may not read anywhere (secrets, the agents'
	// configuration, toolgate's own state) nor write in a Write root.
	DenyRead []Spec `json:"deny_read"`
	// Protect names what it may not change although a Write root holds it
	// (a repository's .git/hooks and .git/config, agent configuration,
	// start-up files).
	Protect []Spec `json:"protect"`
	// NoWrite names directories inside a Write root that stay read-only
	// as a whole (a home directory inside the temporary directory).
	NoWrite []string `json:"no_write,omitempty"`
	// Net lists the hosts the command may reach through toolgate's proxy;
	// empty means no network at all.
	Net []string `json:"net,omitempty"`

	// dirs are the directory listings Default took, which the Landlock
	// walk and the protected paths reuse in the same run (nil: list
	// afresh).
	dirs dirCache
}

// Options are the facts Default builds a profile from.
type Options struct {
	// Home is the user's home directory.
	Home string
	// Workspaces are the workspace roots: writable.
	Workspaces []string
	// Temp are the temporary directories: writable.
	Temp []string
	// State are toolgate's own directories (configuration, data, store):
	// neither readable nor writable.
	State []string
	// Net lists the hosts reachable through the proxy.
	Net []string
}

// Default builds the default profile from the same tables the static
// floor uses (internal/sensitive, its HomeFiles among them): read
// everything except credentials, the agents' configuration in the home
// directory and toolgate's state; write the workspace roots and the
// temporary directories, except the agents' configuration, automation
// and start-up files inside them. Paths are made absolute and resolved
// through symbolic links, so that a link does not hide what it points at.
func Default(o Options) (*Profile, error) {
	if o.Home == "" || !filepath.IsAbs(o.Home) {
		return nil, fmt.Errorf("home directory %q is not an absolute path", o.Home)
	}
	r := newResolver()
	home := r.realPath(o.Home)
	p := &Profile{Net: slices.Clone(o.Net)}
	var work []string // the workspace roots among p.Write
	for i, list := range [][]string{o.Workspaces, o.Temp} {
		for _, d := range list {
			abs, err := filepath.Abs(d)
			if err != nil {
				return nil, fmt.Errorf("writable directory %q: %w", d, err)
			}
			fi, err := os.Stat(abs)
			if err != nil {
				return nil, fmt.Errorf("writable directory: %w", err)
			}
			if !fi.IsDir() {
				return nil, fmt.Errorf("writable directory %s is not a directory", abs)
			}
			abs = r.realPath(abs)
			if abs == "/" {
				return nil, errors.New("the root directory cannot be writable")
			}
			if !slices.Contains(p.Write, abs) {
				p.Write = append(p.Write, abs)
				if i == 0 {
					work = append(work, abs)
				}
			}
		}
	}
	// Anywhere entries are looked for in the home directory, the
	// workspace roots and /etc (the machine's SSH host keys); a deeper
	// copy (a terraform.tfstate three levels into a project) is not.
	bases := append([]string{home, "/etc"}, work...)
	for e := range sensitive.All() {
		var parents []string
		switch {
		case e.Kind == sensitive.Credential && e.Anchor == sensitive.Root:
			// Process memory and environments are closed by Landlock's
			// ptrace scoping (/proc) and devices by their own allow list.
			if strings.HasPrefix(e.Path, "proc/") || strings.HasPrefix(e.Path, "dev/") {
				continue
			}
			parents = []string{"/"}
		case e.Kind == sensitive.Credential && e.Anchor == sensitive.Home,
			e.Kind == sensitive.AgentConfig && e.Anchor == sensitive.Home:
			parents = []string{home}
		case e.Kind == sensitive.Credential:
			parents = bases
		case e.Kind == sensitive.AgentConfig:
			// The agents' own configuration in the home directory is
			// neither read nor written; a project's copy is readable (it
			// is the project's file) and protected from writes below.
			parents = []string{home}
		}
		for _, parent := range parents {
			p.DenyRead = append(p.DenyRead, r.specsOf(parent, e)...)
		}
	}
	for _, d := range o.State {
		if d == "" {
			continue
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, fmt.Errorf("toolgate directory %q: %w", d, err)
		}
		p.DenyRead = append(p.DenyRead, PathSpecs(abs, "is toolgate's own state (its configuration, store and tokens)")...)
	}
	// Inside each workspace root: the agents' configuration, the
	// repository's hooks and configuration, the files later commands and
	// sessions obey, and shell start-up files.
	for _, root := range work {
		for e := range sensitive.All() {
			if e.Anchor == sensitive.Anywhere && (e.Kind == sensitive.AgentConfig || e.Kind == sensitive.Autostart) {
				p.Protect = append(p.Protect, r.specsOf(root, e)...)
			}
		}
		for _, f := range sensitive.HomeFiles() {
			p.Protect = append(p.Protect, r.specsOf(root, sensitive.Entry{Path: f.Path, Reason: "is a start-up or configuration file that runs code later"})...)
		}
	}
	// A home directory inside a writable root (a temporary home) keeps
	// its start-up files whether they exist yet or not: all of it stays
	// read-only, except the workspaces inside it.
	for _, root := range p.Write {
		if home != root && within(home, root) {
			p.NoWrite = append(p.NoWrite, home)
		}
	}
	p.dirs = r.dirs
	return p, nil
}

// resolver resolves symbolic links and lists directories once each.
type resolver struct {
	real map[string]string
	// missing holds resolved paths found not to exist: nothing below
	// them is looked up or listed.
	missing map[string]bool
	dirs    dirCache
}

func newResolver() *resolver {
	return &resolver{real: map[string]string{}, missing: map[string]bool{}, dirs: dirCache{}}
}

// specsOf instantiates entry e below directory parent: one spec, or two
// when the entry's directory part, or the entry itself, is a symbolic
// link (the second spec names the link's target, which is what a read
// through it reaches).
func (r *resolver) specsOf(parent string, e sensitive.Entry) []Spec {
	full := filepath.Join(parent, strings.TrimSuffix(e.Path, "/"))
	s := Spec{Parent: filepath.Dir(full), Name: filepath.Base(full), Dir: e.Dir(), Except: e.Except, Reason: e.Reason}
	out := []Spec{s}
	if real := r.realPath(s.Parent); real != s.Parent {
		s.Parent = real
		out = append(out, s)
	}
	if !strings.Contains(s.Name, "*") {
		if r.missing[s.Parent] {
			r.dirs.missing(s.Parent)
			return out
		}
		l := r.dirs.list(s.Parent)
		if i, ok := l.lower[strings.ToLower(s.Name)]; ok && l.entries[i].typ == typeSymlink {
			if target := r.realPath(s.Path()); target != s.Path() {
				t := s
				t.Parent, t.Name = filepath.Dir(target), filepath.Base(target)
				out = append(out, t)
			}
		}
	}
	return out
}

// realPath resolves symbolic links in p (absolute and clean) as far as
// p exists, one lstat per path prefix it has not seen (none below a
// prefix that does not exist).
func (r *resolver) realPath(p string) string { return r.resolve(p, 0) }

func (r *resolver) resolve(p string, depth int) string {
	if p == "/" || p == "" || !filepath.IsAbs(p) {
		return p
	}
	if q, ok := r.real[p]; ok {
		return q
	}
	parent := r.resolve(parentOf(p), depth)
	q := join(parent, filepath.Base(p))
	if r.missing[parent] {
		r.missing[q] = true
		r.real[p] = q
		return q
	}
	// A name a listing of its directory does not hold does not exist
	// (the listings Default takes come first for most paths).
	if listed, found := r.dirs.listed(parent, filepath.Base(p)); listed && !found {
		r.missing[q] = true
		r.real[p] = q
		return q
	}
	fi, err := os.Lstat(q)
	if errors.Is(err, fs.ErrNotExist) {
		r.missing[q] = true
	}
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 && depth < 40 {
		if t, err := os.Readlink(q); err == nil {
			if !filepath.IsAbs(t) {
				t = filepath.Join(parentOf(q), t)
			}
			q = r.resolve(filepath.Clean(t), depth+1)
		}
	}
	r.real[p] = q
	return q
}

// PathSpecs returns the specs that cover path p (a directory and
// everything under it, or a file), giving reason.
func PathSpecs(p, reason string) []Spec {
	abs, err := filepath.Abs(p)
	if err != nil {
		abs = p
	}
	if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
		return newResolver().specsOf(filepath.Dir(abs), sensitive.Entry{Path: filepath.Base(abs), Reason: reason})
	}
	return newResolver().specsOf(filepath.Dir(abs), sensitive.Entry{Path: filepath.Base(abs) + "/", Reason: reason})
}

// within reports whether p lies strictly inside dir.
func within(p, dir string) bool {
	if dir == "/" {
		return p != "/"
	}
	return strings.HasPrefix(p, dir+"/")
}

// join joins a directory and a name, "/" as the root.
func join(dir, name string) string {
	if dir == "/" {
		return "/" + name
	}
	return dir + "/" + name
}

// Summary says in one line what the profile confines, for a person (or
// an agent) looking at a failed command's output.
func (p *Profile) Summary() string {
	net := "no network"
	if len(p.Net) > 0 {
		net = "network only to " + strings.Join(p.Net, ", ") + " through toolgate's proxy"
	}
	return fmt.Sprintf("writes only in %s (not .git/hooks, .git/config, agent settings or start-up files), no reads of secrets, agent settings or toolgate's state, %s",
		strings.Join(p.Write, ", "), net)
}

// Explain returns the reason the profile gives for path p: the spec that
// denies reading it or protects it from writes, if any.
func (p *Profile) Explain(path string) (string, bool) {
	return explainIn(path, p.DenyRead, p.Protect)
}

// ExplainRead is Explain for the specs that deny reading alone.
func (p *Profile) ExplainRead(path string) (string, bool) {
	return explainIn(path, p.DenyRead)
}

func explainIn(path string, lists ...[]Spec) (string, bool) {
	path = filepath.Clean(path)
	for _, list := range lists {
		for _, s := range list {
			for q := path; q != "/" && q != "."; q = filepath.Dir(q) {
				if s.matches(q) {
					return s.Reason, true
				}
			}
		}
	}
	return "", false
}
