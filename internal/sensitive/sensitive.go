package sensitive

import (
	"iter"
	"path"
	"strings"
	"sync"

	"github.com/toolgate/toolgate/internal/glob"
)

// Kind says what a sensitive path is and so which access to it matters.
type Kind uint8

const (
	// Credential paths hold secrets: reading them is credential access,
	// sending them anywhere is exfiltration.
	Credential Kind = iota + 1
	// AgentConfig paths configure an agent, its tools or the repository's
	// automation: writing them is tampering (it changes what later runs
	// without a question). Reading them is harmless.
	AgentConfig
	// Autostart paths hold programs and jobs that run later by themselves
	// (cron and systemd directories, launch agents, directories on every
	// user's PATH), programs' start-up files (~/.vimrc), and the project
	// files a routine later command or agent session obeys (a project's
	// .npmrc, hook managers' files, CI pipelines, the dev container,
	// CLAUDE.md and AGENTS.md): writing them is persistence. Reading them
	// is harmless, and so is deleting them in the workspace.
	Autostart
	// SecuritySetting paths hold the kernel's and the machine's security
	// settings (/proc/sys, PAM, sshd_config): writing them is privilege
	// escalation.
	SecuritySetting
	// AuditLog paths hold the machine's logs: overwriting them hides what
	// ran, so it is destructive.
	AuditLog
)

// String names the kind as the risk classes do.
func (k Kind) String() string {
	switch k {
	case Credential:
		return "credential"
	case AgentConfig:
		return "agent-config"
	case Autostart:
		return "autostart"
	case SecuritySetting:
		return "security-setting"
	case AuditLog:
		return "audit-log"
	}
	return "unknown"
}

// Anchor says where a path is looked for.
type Anchor uint8

const (
	// Home paths live in a home directory: ~/P, $HOME/P, /root/P,
	// /home/USER/P or /Users/USER/P.
	Home Anchor = iota + 1
	// Anywhere paths are recognised at any depth (a project's .claude/ as
	// well as ~/.claude/), relative or absolute.
	Anywhere
	// Root paths are absolute: /P (/etc/shadow, /proc/*/environ).
	Root
)

// Entry is one sensitive path.
type Entry struct {
	// Path is slash-separated and relative to its anchor. A trailing "/"
	// names a directory and everything under it. The last element may hold
	// '*' (any run of characters) (".ssh/id_*").
	Path   string
	Anchor Anchor
	Kind   Kind
	// Except lists patterns ('*' only) for a last element that is not
	// sensitive although Path covers it (public keys: "*.pub").
	Except []string
	// Reason is a plain-language clause naming what the path holds, to
	// follow "reads PATH, which": "holds SSH private keys".
	Reason string
}

// Dir reports whether the entry names a directory and everything under it.
func (e Entry) Dir() bool { return strings.HasSuffix(e.Path, "/") }

// Patterns renders the entry as rule patterns (the glob syntax of the rules
// documents, where '*' also crosses '/'), for building default rules. A
// Home entry yields "~/P" and the usual home roots; an Anywhere entry
// yields "P" and "*/P"; a directory adds "…/*" for its contents. Except
// is not rendered: a rule builder adds allow rules for it after the deny.
func (e Entry) Patterns() []string {
	p := strings.TrimSuffix(e.Path, "/")
	var roots []string
	switch e.Anchor {
	case Home:
		roots = []string{"~/", "/root/", "/home/*/", "/Users/*/"}
	case Root:
		roots = []string{"/"}
	default:
		roots = []string{"", "*/"}
	}
	var out []string
	for _, r := range roots {
		out = append(out, r+p)
		if e.Dir() {
			out = append(out, r+p+"/*")
		}
	}
	return out
}

// Entries returns every sensitive path, credentials first. The slice is a
// copy: changing it changes nothing here.
func Entries() []Entry {
	table := table()
	out := make([]Entry, 0, len(table.list))
	for _, c := range table.list {
		e := c.Entry
		e.Except = append([]string(nil), e.Except...)
		out = append(out, e)
	}
	return out
}

// All yields every sensitive path, credentials first, without copying
// the list: an entry's Except is the table's own and must not be changed.
// It is Entries for a caller on a start-up path (the sandbox's profile).
func All() iter.Seq[Entry] {
	return func(yield func(Entry) bool) {
		for _, c := range table().list {
			if !yield(c.Entry) {
				return
			}
		}
	}
}

// Of returns the entries of one kind, as Entries does.
func Of(k Kind) []Entry {
	var out []Entry
	for _, e := range Entries() {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// Lookup classifies a path: the first entry that covers it, if any. The
// path may be relative or absolute and is cleaned first; home is the home
// directory ("" when unknown); "~/" and "$HOME/" (and "${HOME}/") count as
// the home directory. A directory that contains a sensitive directory
// (~/ itself, ~/.config) is not reported: the caller decides what reading
// a whole home means. Lookup does not allocate for paths that are already
// clean and either match an entry or hold no upper-case letter.
//
// A path that matches no entry as written is tried again with its letters
// folded to lower case: on a case-insensitive file system (macOS's
// default) ".Claude/settings.json" and "~/.SSH/id_rsa" are the protected
// files themselves.
func Lookup(p, home string) (Entry, bool) {
	if e, ok := lookup(p, home); ok {
		return e, true
	}
	if !hasUpper(p) {
		return Entry{}, false
	}
	return lookup(foldCase(p), foldCase(home))
}

// LookupExact is Lookup without the second, case-folded try: it never
// allocates for a clean path, for callers on a path that must not.
func LookupExact(p, home string) (Entry, bool) { return lookup(p, home) }

// hasUpper reports whether s holds an ASCII upper-case letter.
func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

// foldCase lowers a path's letters, keeping a leading $HOME or ${HOME}
// that stands for the home directory.
func foldCase(p string) string {
	for _, pre := range [...]string{"$HOME", "${HOME}"} {
		if rest, ok := strings.CutPrefix(p, pre); ok && (rest == "" || rest[0] == '/') {
			return pre + strings.ToLower(rest)
		}
	}
	return strings.ToLower(p)
}

// lookup is Lookup for the path as written.
func lookup(p, home string) (Entry, bool) {
	if p == "" {
		return Entry{}, false
	}
	if strings.Contains(p, "//") || strings.Contains(p, "/.") || strings.HasSuffix(p, "/") || strings.HasPrefix(p, "./") {
		p = path.Clean(p)
	}
	p = ProcRoot(p)
	table := table()
	best := len(table.list)
	// Home entries: the path below a home directory, matched from its start.
	if rel := underHome(p, home); rel != "" {
		first, _, _ := strings.Cut(rel, "/")
		for _, i := range table.home.get(first) {
			if i < best && table.list[i].covers(rel, true) {
				best = i
				break
			}
		}
	}
	// Root entries: the absolute path, matched from its start.
	if len(p) > 1 && p[0] == '/' {
		rel := p[1:]
		first, _, _ := strings.Cut(rel, "/")
		for _, i := range table.root.get(first) {
			if i < best && table.list[i].covers(rel, true) {
				best = i
				break
			}
		}
	}
	// Anywhere entries: matched at every element boundary.
	for start := 0; start < len(p); {
		end := strings.IndexByte(p[start:], '/')
		if end < 0 {
			end = len(p)
		} else {
			end += start
		}
		for _, i := range table.anywhere.get(p[start:end]) {
			if i < best && table.list[i].coversAt(p, start) {
				best = i
				break
			}
		}
		start = end + 1
	}
	base := p[strings.LastIndexByte(p, '/')+1:]
	for _, i := range table.globbed {
		c := &table.list[i]
		if len(c.elems) == 1 && !c.Dir() {
			// A file pattern ("*.kdbx") can only be the last element.
			if i < best && starMatch(c.elems[0], base) && !c.excepted(p) {
				best = i
				break
			}
			continue
		}
		if i < best && c.covers(p, false) {
			best = i
			break
		}
	}
	if best < len(table.list) {
		return table.list[best].Entry, true
	}
	return Entry{}, false
}

// ProcRoot returns p without a leading /proc/PID/root (PID a number,
// "self" or "thread-self"): that link is the process's root directory, so
// /proc/self/root/etc/shadow and /proc/1/root/etc/shadow are /etc/shadow.
// A path that does not start so is returned as it is, without allocating.
func ProcRoot(p string) string {
	rest, ok := strings.CutPrefix(p, "/proc/")
	if !ok {
		return p
	}
	pid, tail, ok := strings.Cut(rest, "/")
	if !ok || !isPID(pid) {
		return p
	}
	if tail == "root" {
		return "/"
	}
	if after, ok := strings.CutPrefix(tail, "root/"); ok {
		return ProcRoot("/" + after)
	}
	return p
}

// isPID reports whether s names a process in /proc: digits, "self" or
// "thread-self".
func isPID(s string) bool {
	if s == "self" || s == "thread-self" {
		return true
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// underHome returns p relative to the home directory it is in, or "".
func underHome(p, home string) string {
	for _, pre := range [...]string{"~/", "$HOME/", "${HOME}/"} {
		if rest, ok := strings.CutPrefix(p, pre); ok {
			return rest
		}
	}
	if home != "" && home != "/" {
		if rest, ok := strings.CutPrefix(p, home); ok && len(rest) > 1 && rest[0] == '/' {
			return rest[1:]
		}
	}
	if rest, ok := strings.CutPrefix(p, "/root/"); ok {
		return rest
	}
	for _, pre := range [...]string{"/home/", "/Users/"} {
		if rest, ok := strings.CutPrefix(p, pre); ok {
			if i := strings.IndexByte(rest, '/'); i > 0 {
				return rest[i+1:]
			}
		}
	}
	return ""
}

// compiled is an entry with its path split for matching.
type compiled struct {
	Entry
	elems []string
}

// covers reports whether the entry covers p: p starts with the entry's
// elements (anchored) or contains them at an element boundary.
func (c *compiled) covers(p string, anchored bool) bool {
	for start := 0; ; {
		if c.coversAt(p, start) {
			return true
		}
		i := strings.IndexByte(p[start:], '/')
		if anchored || i < 0 {
			return false
		}
		start += i + 1
	}
}

// coversAt reports whether the entry's elements match p from start and p
// is the entry's path itself or, for a directory, lies under it.
func (c *compiled) coversAt(p string, start int) bool {
	end, ok := c.matchAt(p, start)
	if !ok {
		return false
	}
	if rest := p[end:]; rest != "" && (!c.Dir() || rest[0] != '/') {
		return false
	}
	return !c.excepted(p)
}

// matchAt matches the entry's elements against p from start, returning the
// end of the match.
func (c *compiled) matchAt(p string, start int) (int, bool) {
	i := start
	for n, el := range c.elems {
		if n > 0 {
			if i >= len(p) || p[i] != '/' {
				return 0, false
			}
			i++
		}
		j := strings.IndexByte(p[i:], '/')
		if j < 0 {
			j = len(p) - i
		}
		seg := p[i : i+j]
		if !starMatch(el, seg) {
			return 0, false
		}
		i += j
	}
	return i, true
}

// excepted reports whether p's last element is one of the entry's
// exceptions.
func (c *compiled) excepted(p string) bool {
	base := p[strings.LastIndexByte(p, '/')+1:]
	for _, x := range c.Except {
		if starMatch(x, base) {
			return true
		}
	}
	return false
}

// starMatch matches one path element against a pattern whose only
// wildcard is '*' (any run of characters), which is all the table uses.
func starMatch(pat, s string) bool {
	star := strings.IndexByte(pat, '*')
	if star < 0 {
		return pat == s
	}
	if !strings.HasPrefix(s, pat[:star]) {
		return false
	}
	s, pat = s[star:], pat[star+1:]
	for {
		next := strings.IndexByte(pat, '*')
		if next < 0 {
			return strings.HasSuffix(s, pat)
		}
		i := strings.Index(s, pat[:next])
		if i < 0 {
			return false
		}
		s, pat = s[i+next:], pat[next+1:]
	}
}

// Within reports an entry of kind k (any kind when k is 0) that lies
// inside directory dir: "/",
// a directory of homes (/home, /Users), a home directory, or a directory
// above a credential directory (~/.config holds ~/.config/gcloud, /etc
// holds /etc/shadow). Searching or copying dir recursively takes that
// entry along. Entries recognised anywhere (".ssh/id_*", "*.kdbx") are
// not reported: any directory may hold one, and reporting them would
// flag every search of a project. home is as for Lookup.
//
// Searching or copying dir recursively reads its credentials; extracting
// an archive into it may write its start-up, autostart and agent files.
func Within(dir, home string, k Kind) (Entry, bool) {
	if dir == "" {
		return Entry{}, false
	}
	dir = path.Clean(dir)
	switch dir {
	case "~", "$HOME", "${HOME}":
		dir = "~/"
	}
	if dir == "." || dir == ".." || strings.HasPrefix(dir, "../") {
		return Entry{}, false // relative: the caller resolves it first
	}
	var homeRel string // dir relative to the home it is in; "" for the home itself
	allHomes := dir == "/" || dir == "/home" || dir == "/Users"
	inHome := allHomes
	switch {
	case allHomes:
	case dir == "~/" || dir == "/root" || home != "" && home != "/" && dir == home:
		inHome = true
	case strings.HasPrefix(dir, "/home/") && !strings.Contains(dir[len("/home/"):], "/"),
		strings.HasPrefix(dir, "/Users/") && !strings.Contains(dir[len("/Users/"):], "/"):
		inHome = true
	default:
		if homeRel = underHome(dir, home); homeRel != "" {
			inHome = true
		}
	}
	for _, c := range table().list {
		if k != 0 && c.Kind != k {
			continue
		}
		switch c.Anchor {
		case Home:
			if inHome && (homeRel == "" || strings.HasPrefix(c.Path, homeRel+"/")) {
				return c.Entry, true
			}
		case Root:
			if dir == "/" || len(dir) > 1 && dir[0] == '/' && strings.HasPrefix(c.Path, dir[1:]+"/") {
				return c.Entry, true
			}
		}
	}
	if k == 0 && inHome {
		// The critical home files too: files written into ~/.config/fish
		// may replace its config.fish.
		for _, f := range homeFiles {
			if homeRel == "" || strings.HasPrefix(f.Path, homeRel+"/") {
				return Entry{Path: f.Path, Anchor: Home, Kind: Autostart, Reason: f.Kind.why()}, true
			}
		}
	}
	return Entry{}, false
}

// MayMatch classifies a shell pathname pattern ("~/.ssh/id_*",
// "/etc/sha*", ".git/hook*/*"): the first entry of kind k some expansion
// of the pattern may fall under, if any. A kind is asked for on its own
// because one pattern may reach several (".claude/*" holds agent
// configuration, and may hold a file named like a credential). every reports whether each expansion
// does (the pattern lies inside the entry and none of the entry's
// exceptions may apply), so that a caller can tell "reads a credential"
// from "may read one". The pattern is read as glob.ParsePath reads it,
// home as for Lookup; like Lookup, a pattern whose expansions only contain
// sensitive paths (~/.con*) is not reported. It over-approximates: it may
// report an entry no expansion reaches, never miss one.
func MayMatch(pattern, home string, k Kind) (e Entry, every, ok bool) {
	return mayMatch(pattern, home, k, glob.ParsePath)
}

// MayMatchShell is MayMatch for a glob bash expands with its default
// options, read as glob.ParseShellPath reads it: a wildcard that starts
// an element does not match a leading '.'.
func MayMatchShell(pattern, home string, k Kind) (e Entry, every, ok bool) {
	return mayMatch(pattern, home, k, glob.ParseShellPath)
}

func mayMatch(pattern, home string, k Kind, parse func(string) glob.Path) (e Entry, every, ok bool) {
	if pattern == "" {
		return Entry{}, false, false
	}
	forms := [2]glob.Path{parse(pattern)}
	n := 1
	if home != "" && home != "/" {
		if rest, ok := strings.CutPrefix(pattern, strings.TrimSuffix(home, "/")+"/"); ok {
			forms[1], n = parse("~/"+rest), 2
		}
	}
	var base glob.Path
	baseKnown := !forms[0].Crosses()
	if baseKnown {
		base = parse(pattern[strings.LastIndexByte(pattern, '/')+1:])
	}
	v := viewOf(pattern, home)
	pats := patterns()
	for i := range pats {
		c := &pats[i]
		if c.entry.Kind != k || !v.possible(c) {
			continue
		}
		may, all := false, false
		for _, p := range forms[:n] {
			for _, q := range c.paths {
				// An entry found by its name anywhere counts for a word
				// that spells it out, not for every glob that may
				// expand to it (glob.Path.Aims).
				if c.entry.Anchor == Anywhere && p.AimsName(q) || c.entry.Anchor != Anywhere && q.MayMeet(p) {
					may = true
					all = all || q.Holds(p)
				}
			}
		}
		if !may {
			continue
		}
		if len(c.except) > 0 {
			if !baseKnown {
				all = false
			} else {
				excepted := false
				for _, x := range c.except {
					excepted = excepted || x.Holds(base)
					all = all && !x.MayMeet(base)
				}
				if excepted {
					continue // every expansion is an exception ("*.pub")
				}
			}
		}
		return c.entry, all, true
	}
	return Entry{}, false, false
}

// view is what a pattern's literal start says about where its expansions
// lie, so MayMatch compares it only with the entries that can be there.
type view struct {
	abs       bool
	rootFirst string // the first element, when literal
	homeKnown bool   // whether the expansions lie in a home is known
	inHome    bool
	homeFirst string // the first element below the home, when literal
}

// viewOf reads the literal start of a pattern (the text before its first
// metacharacter).
func viewOf(pattern, home string) view {
	lead := pattern
	if i := strings.IndexAny(pattern, "*?["); i >= 0 {
		lead = pattern[:i]
	}
	// first returns the element of p at from when lead holds it whole.
	first := func(from int) string {
		end := strings.IndexByte(pattern[from:], '/')
		if end < 0 {
			end = len(pattern) - from
		}
		if from+end > len(lead) {
			return ""
		}
		return pattern[from : from+end]
	}
	v := view{abs: strings.HasPrefix(pattern, "/")}
	if v.abs {
		v.rootFirst = first(1)
	}
	home = strings.TrimSuffix(home, "/")
	relAt := -1
	switch {
	case strings.HasPrefix(lead, "~/"):
		relAt = 2
	case home != "" && strings.HasPrefix(lead, home+"/"):
		relAt = len(home) + 1
	case strings.HasPrefix(lead, "/root/"):
		relAt = len("/root/")
	case strings.HasPrefix(lead, "/home/"), strings.HasPrefix(lead, "/Users/"):
		at := strings.IndexByte(pattern[1:], '/') + 2
		if end := strings.IndexByte(pattern[at:], '/'); end >= 0 && at+end < len(lead) {
			relAt = at + end + 1
		}
	case !v.abs && !strings.HasPrefix(pattern, "~"):
		v.homeKnown = true // relative: never anchored at a home
	default:
		v.homeKnown = true
		for _, r := range [...]string{"~/", "/root/", "/home/", "/Users/", home + "/"} {
			if r != "/" && (strings.HasPrefix(r, lead) || strings.HasPrefix(lead, r)) {
				v.homeKnown = false
			}
		}
	}
	if relAt >= 0 {
		v.homeKnown, v.inHome = true, true
		v.homeFirst = first(relAt)
	}
	return v
}

// possible reports whether the entry may hold an expansion at all.
func (v *view) possible(c *entryPaths) bool {
	switch c.entry.Anchor {
	case Root:
		return v.abs && (v.rootFirst == "" || v.rootFirst == c.first)
	case Home:
		return !v.homeKnown || v.inHome && (v.homeFirst == "" || v.homeFirst == c.first)
	}
	return true
}

// entryPaths is an entry as path patterns, read as glob.ParsePath reads
// them: '*' stays within an element, "**" crosses elements.
type entryPaths struct {
	entry  Entry
	first  string // the entry path's first element
	paths  []glob.Path
	except []glob.Path
}

// patterns reads every entry's paths once, on first use: a Home entry
// under "~/", /root and any user's home, a Root entry under "/", an
// Anywhere entry at the start or after any directory; a directory with
// everything under it.
var patterns = sync.OnceValue(func() []entryPaths {
	list := table().list
	out := make([]entryPaths, len(list))
	for i := range list {
		e := list[i].Entry
		out[i].entry = e
		out[i].first = list[i].elems[0]
		p := strings.TrimSuffix(e.Path, "/")
		var roots []string
		switch e.Anchor {
		case Home:
			roots = []string{"~/", "/root/", "/home/*/", "/Users/*/"}
		case Root:
			roots = []string{"/"}
		default:
			roots = []string{"", "**/"}
		}
		for _, r := range roots {
			out[i].paths = append(out[i].paths, glob.ParsePath(r+p))
			if e.Dir() {
				out[i].paths = append(out[i].paths, glob.ParsePath(r+p+"/**"))
			}
		}
		for _, x := range e.Except {
			out[i].except = append(out[i].except, glob.ParsePath(x))
		}
	}
	return out
})

// secretNames are the names a project gives the files it keeps its own
// secrets in, as the built-in defaults' file rules name them
// (policy/defaults.jsonc: *.env, *.env.*, *secret*, *credentials*), and
// templateNames the spellings of their harmless templates. They are not
// entries: reading one is the project's business, which the rules decide
// (a build reads .env, a container gets it with --env-file); sending one
// to the network is exfiltration (package shell).
var (
	secretNames   = [...]string{"*.env", "*.env.*", "*secret*", "*credentials*"}
	templateNames = [...]string{"*.example", "*.sample", "*.template", "*.dist", "*.tmpl"}
)

// SecretName reports whether the last element of p names a file a
// project keeps its secrets in: .env, prod.env, .env.local,
// secrets.yml, credentials.json, but not .env.example.
func SecretName(p string) bool {
	base := strings.ToLower(path.Base(p))
	for _, t := range templateNames {
		if ok, _ := path.Match(t, base); ok {
			return false
		}
	}
	for _, n := range secretNames {
		if ok, _ := path.Match(n, base); ok {
			return true
		}
	}
	return false
}
