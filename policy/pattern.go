package policy

import (
	"path"
	"slices"
	"strings"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/glob"
	"github.com/toolgate/toolgate/internal/sensitive"
	"github.com/toolgate/toolgate/shell"
)

// A pattern subject is a file operand written as a shell glob ("*.log",
// "src/*.go"): static text the shell expands into the names of files that
// exist when the command runs. It is neither one known file nor opaque:
// an allow rule vouches for it when it matches every expansion
// (glob.Covers), and a deny or ask rule counts when it may match one
// (glob.MayMatch). When the rules would decide its expansions differently
// the subject asks, naming the rule that may restrict it; a possibility
// never denies.

// patForms are a pattern subject's forms, read as path patterns.
type patForms struct {
	texts [4]glob.Path // s.texts[:s.n]
	ws    glob.Path    // s.ws, when s.inWS
	// unc is the deny or ask rule that decides some expansions but not
	// all, found while the subject is judged.
	unc *compiledRule
	// search marks a search tool's file glob (toolpaths.go): a rule
	// counts only where the glob aims at it (glob.Glob.AimedByGlob).
	search bool
	// local marks a tool's glob under a relative root when the call has
	// no working directory: it names files inside the project, which
	// rules written for absolute paths elsewhere do not meet.
	local bool
	// hides marks a shell glob bash expands with its default options
	// (shell.File.HidesDots): a leading wildcard skips dot-files.
	hides bool
}

// parse reads a form of the subject's pattern as its expansion works.
func (pf *patForms) parse(p string) glob.Path {
	if pf.hides {
		return glob.ParseShellPath(p)
	}
	return glob.ParsePath(p)
}

// mayBeSensitive is sensitive.MayMatch for a form of the pattern.
func (pf *patForms) mayBeSensitive(p, home string, k sensitive.Kind) (sensitive.Entry, bool, bool) {
	if pf.hides {
		return sensitive.MayMatchShell(p, home, k)
	}
	return sensitive.MayMatch(p, home, k)
}

// maxPatternBytes bounds the glob operands compared with the rules: each
// comparison is a product of two automata, and a longer word stays opaque
// (asks) rather than make a call slow.
const maxPatternBytes = 512

// isPattern reports whether a static file operand is a shell pathname
// pattern this file can reason about: it holds a glob metacharacter, no
// expansion or extglob, and no element that may expand to "." or ".."
// (".*" and ".?" may, in bash before 5.2; "[.]*" may with dotglob), which
// would leave the directory the text names. hides is File.HidesDots.
func isPattern(p string, hides bool) bool {
	if len(p) > maxPatternBytes || !strings.ContainsAny(p, "*?[") || strings.ContainsAny(p, "$`(\x00") {
		return false
	}
	if !glob.ParsePath(p).HasMeta() {
		return false
	}
	for _, el := range strings.Split(p, "/") {
		// Without dotglob, an element that starts with a wildcard never
		// matches a leading '.', so neither "." nor "..".
		if el == "" || (el[0] != '.' && (el[0] != '[' || hides)) || !strings.ContainsAny(el, "*?[") {
			continue
		}
		e := glob.ParsePath(el)
		if e.MayMeet(glob.ParsePath(".")) || e.MayMeet(glob.ParsePath("..")) {
			return false
		}
	}
	return true
}

// patternSubject makes the file subject of a pattern operand.
func (e *Engine) patternSubject(base subject, kind toolgate.SubjectKind, p, cwd, dir string, hides bool) subject {
	s := e.fileSubject(base, kind, p, cwd, dir)
	pf := &patForms{hides: hides}
	for k := 0; k < s.n; k++ {
		pf.texts[k] = pf.parse(s.texts[k])
	}
	if s.inWS {
		pf.ws = pf.parse(s.ws)
	}
	s.pat = pf
	return s
}

// findPattern is find for a pattern subject: the last rule that covers
// it, unless a later rule may decide some of its expansions otherwise.
// Then the most restrictive such rule is returned and recorded in
// s.pat.unc, and the subject asks (judge).
func (rs *Ruleset) findPattern(s *subject, args map[string]any) *compiledRule {
	var buf [32]int32
	ids := buf[:0]
	if ix := rs.exact[s.family]; ix != nil {
		ids = ix.all(ids)
	}
	if rs.any != nil {
		ids = rs.any.all(ids)
	}
	if !rs.profile.knownFamily(s.family) {
		for _, j := range rs.wild {
			r := &rs.rules[j]
			if r.toolGlob.Match(s.tool) || s.alias != "" && r.toolGlob.Match(s.alias) {
				ids = append(ids, j)
			}
		}
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	var cover *compiledRule
	var worst *compiledRule // the most restrictive rule above cover that may match
	mixed := false
	for k := len(ids) - 1; k >= 0; k-- {
		r := &rs.rules[ids[k]]
		if !r.eligible(s, args, true) {
			continue
		}
		if r.coversPattern(s) {
			cover = r
			break
		}
		if !r.mayMatchPattern(s) {
			continue
		}
		if worst == nil || restrictiveness(r.ref.Action) > restrictiveness(worst.ref.Action) {
			worst = r
		}
		if r.ref.Action != toolgate.Allow {
			mixed = true
		}
	}
	if worst == nil || !mixed {
		// Nothing above the cover, or only allows: every expansion is
		// allowed or decided by the cover (nil: by the layers after).
		return cover
	}
	if cover != nil && cover.ref.Action == worst.ref.Action && allSame(rs, ids, s, args, cover) {
		return cover
	}
	if s.pat.unc == nil || restrictiveness(worst.ref.Action) > restrictiveness(s.pat.unc.ref.Action) {
		s.pat.unc = worst
	}
	return worst
}

// allSame reports whether every rule above cover that may match s has
// cover's action.
func allSame(rs *Ruleset, ids []int32, s *subject, args map[string]any, cover *compiledRule) bool {
	for k := len(ids) - 1; k >= 0; k-- {
		r := &rs.rules[ids[k]]
		if r == cover {
			return true
		}
		if r.eligible(s, args, true) && r.mayMatchPattern(s) && r.ref.Action != cover.ref.Action {
			return false
		}
	}
	return true
}

func restrictiveness(a toolgate.Action) int {
	switch a {
	case toolgate.Deny:
		return 2
	case toolgate.Ask:
		return 1
	}
	return 0
}

// all appends every rule index the index holds.
func (ix *subjectIndex) all(dst []int32) []int32 {
	for i := range ix.nodes {
		dst = append(dst, ix.nodes[i].rules...)
	}
	return dst
}

// coversPattern reports whether r matches every expansion of s in one of
// its forms.
func (r *compiledRule) coversPattern(s *subject) bool {
	if r.ws {
		return s.inWS && r.coversForm(s.pat.ws)
	}
	for k := 0; k < s.n; k++ {
		if r.coversForm(s.pat.texts[k]) {
			return true
		}
	}
	return false
}

func (r *compiledRule) coversForm(p glob.Path) bool {
	switch {
	case r.sens != 0, r.readOnly:
		return false
	case r.any:
		return true
	case r.isPrefix:
		return strings.HasPrefix(p.Lead(), r.prefix)
	}
	return r.pat.Covers(p)
}

// mayMatchPattern reports whether r may match some expansion of s.
func (r *compiledRule) mayMatchPattern(s *subject) bool {
	if r.ws {
		return s.inWS && r.mayMatchForm(s, s.ws, s.pat.ws)
	}
	// The absolute form, when there is one, is last. A relative form then
	// meets an absolute rule only through "**", which the absolute form
	// says precisely; without one (no cwd) the relative form must.
	hasAbs := path.IsAbs(s.texts[s.n-1]) || s.pat.local
	for k := 0; k < s.n; k++ {
		if hasAbs && !path.IsAbs(s.texts[k]) && (strings.HasPrefix(r.ref.Pattern, "/") || strings.HasPrefix(r.ref.Pattern, "~")) {
			continue
		}
		if r.mayMatchForm(s, s.texts[k], s.pat.texts[k]) {
			return true
		}
	}
	return false
}

func (r *compiledRule) mayMatchForm(s *subject, text string, p glob.Path) bool {
	switch {
	case r.readOnly:
		return false
	case r.sens != 0:
		_, _, ok := s.pat.mayBeSensitive(text, r.home, r.sens)
		return ok
	case r.any:
		return true
	case r.isPrefix:
		lead := p.Lead()
		return strings.HasPrefix(lead, r.prefix) || strings.HasPrefix(r.prefix, lead) && p.HasMeta()
	}
	if s.pat.search {
		return r.pat.AimedByGlob(p)
	}
	return r.pat.AimedBy(p)
}

// uncertain turns the verdict on a pattern subject into an ask when a
// rule that denies or asks may decide some of its expansions: the
// command may reach a file the rules protect, or may not. A deny found
// for certain (every expansion) stands.
func uncertain(s *subject, v verdict) verdict {
	u := s.pat.unc
	if u == nil || v.action == toolgate.Ask || v.action == toolgate.Deny && v.rule != u {
		return v
	}
	verb := "reach"
	switch s.kind {
	case toolgate.SubjectRead:
		verb = "read"
	case toolgate.SubjectWrite:
		verb = "write"
	}
	return verdict{action: toolgate.Ask, rule: u, reason: s.display() + " may expand to a file the rules protect, so the command may " + verb + " it: " + u.reasonFor(s)}
}

// patternClass is fileClass for a pattern subject: the sensitive paths
// its expansions may reach, by the access. Tampering found only as a
// possibility (".cl*" may be .claude) asks instead of denying (s.maybe).
func (e *Engine) patternClass(s *subject, write, del, recursive bool) shell.ClassRisk {
	p := s.texts[s.n-1]
	if !path.IsAbs(p) {
		p = s.texts[0]
	}
	order := []sensitive.Kind{sensitive.Credential}
	if write {
		order = []sensitive.Kind{sensitive.AgentConfig, sensitive.Autostart, sensitive.SecuritySetting, sensitive.Credential, sensitive.AuditLog}
	}
	for _, k := range order {
		ent, every, ok := s.pat.mayBeSensitive(p, e.home, k)
		if !ok {
			continue
		}
		token := ent.Path
		if i := strings.IndexAny(token, "/*"); i > 0 {
			token = token[:i]
		}
		verb := "reads "
		switch {
		case k == sensitive.Credential && del:
			verb = "deletes "
		case k == sensitive.Credential && write, k == sensitive.AuditLog:
			verb = "overwrites "
		case write:
			verb = "writes "
		}
		what := "which " + ent.Reason
		if !every {
			verb = "may " + strings.TrimSuffix(verb, "s ") + " "
			what = "which may be " + ent.Path + ": that path " + ent.Reason
		}
		class := shell.ClassCredential
		switch k {
		case sensitive.AgentConfig:
			class = shell.ClassTampering
			s.maybe = !every
		case sensitive.Autostart:
			class = shell.ClassPersistence
		case sensitive.SecuritySetting:
			class = shell.ClassPrivilege
		case sensitive.AuditLog:
			class = shell.ClassDestructive
		default:
			if write {
				class = shell.ClassDestructive
			}
		}
		return shell.ClassRisk{Class: class, Reason: verb + s.texts[0] + ", " + what, Token: token}
	}
	if recursive && del && s.inWS && wildFirst(s.ws) {
		return shell.ClassRisk{Class: shell.ClassDestructive, Reason: "deletes " + s.texts[0] + ", which is everything in the workspace", Token: s.texts[0]}
	}
	return e.placeClass(s, del, recursive)
}

// wildFirst reports whether a path's first element is wildcards only
// ("*", "?*"): it may name every entry of the directory.
func wildFirst(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return glob.ParsePath(first).Wild()
}
