package approval

import (
	"strings"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/glob"
	"github.com/toolgate/toolgate/policy"
)

// authorizeGrant checks that by may create the grant g while answering a.
// An approver answers the call a human saw, so the grant must cover that
// call (its pattern or prefix decides a subject that asked) and be no
// wider than the subjects it decides: a pattern with a literal command
// name or path, a prefix ending at a word boundary. Global grants, tool-wide
// grants and wildcard-only patterns of a call with narrower subjects are
// rules for everything the agent may do next, and need an admin, as POST
// /v1/grants does. Nothing is written before this check passes.
func authorizeGrant(e *policy.Engine, a *toolgate.Approval, g *toolgate.Grant, by toolgate.Actor) error {
	if by.Admin {
		return nil
	}
	need := func(why string) error {
		return toolgate.Errorf(toolgate.EForbidden, "%s needs an admin credential; approve once, or grant a pattern that covers this call", why)
	}
	if g.Scope == toolgate.ScopeGlobal {
		return need("a global grant")
	}
	toolOnly := true // the call has no subject narrower than the tool
	for _, s := range a.Decision.Subjects {
		if s.Kind != toolgate.SubjectTool {
			toolOnly = false
		}
	}
	if len(a.Decision.Subjects) == 0 {
		return need("a grant for a call the rules could not analyse")
	}
	if !toolOnly {
		if g.Kind == toolgate.GrantTool {
			return need("a tool-wide grant for " + g.Tool)
		}
		if g.Kind == toolgate.GrantPattern {
			if gl, err := glob.Compile(g.Pattern); err != nil || gl.MatchesAll() {
				return need("the pattern " + quote(g.Pattern))
			}
		}
	}
	// The grant must decide a subject of the call that asked (a call of
	// several commands may be granted one of them, as the suggestions
	// are), and be no wider than each subject it decides.
	var texts []string
	matched := false
	for _, i := range mustCover(a.Decision.Subjects) {
		s := a.Decision.Subjects[i]
		texts = append(texts, string(s.Kind)+" "+quote(s.Text))
		if !covered(e, a, g, i) {
			continue
		}
		matched = true
		if g.Kind == toolgate.GrantTool || suggested(a, g) {
			continue // the gate's own suggestion is as narrow as it gets
		}
		if !literalEnough(g.Kind, g.Pattern, s) {
			return need("the pattern " + quote(g.Pattern) + ", wider than the " + string(s.Kind) + " " + quote(s.Text) + ",")
		}
	}
	if !matched {
		return toolgate.Errorf(toolgate.EForbidden, "the grant %s %s covers nothing this call asked about (%s): an approver's grant must cover the call it answers (a wider grant needs an admin credential)",
			g.Kind, quote(g.Pattern), strings.Join(texts, ", "))
	}
	return nil
}

// suggested reports whether g is a pattern grant the decision suggested.
func suggested(a *toolgate.Approval, g *toolgate.Grant) bool {
	if g.Kind != toolgate.GrantPattern {
		return false
	}
	for _, sg := range a.Decision.Suggestions {
		if sg.Pattern == g.Pattern && (sg.Tool == g.Tool || sg.Tool == "") {
			return true
		}
	}
	return false
}

// mustCover returns the indexes of the subjects a grant must cover: those
// that asked, or, when the call asked for another reason (a risk), every
// subject that decided anything.
func mustCover(subs []toolgate.SubjectResult) []int {
	var asked, decided []int
	for i, s := range subs {
		switch s.Action {
		case toolgate.Ask:
			asked = append(asked, i)
			decided = append(decided, i)
		case toolgate.Allow, toolgate.Deny:
			decided = append(decided, i)
		}
	}
	if len(asked) > 0 {
		return asked
	}
	return decided
}

// covered reports whether the grant alone decides subject i of the call:
// the call is decided again with the grant as its only grant layer.
func covered(e *policy.Engine, a *toolgate.Approval, g *toolgate.Grant, i int) bool {
	rs, err := e.Compile(toolgate.LayerSession, []policy.Rule{grantRule(g)})
	if err != nil {
		return false
	}
	c := a.Call
	var d toolgate.Decision
	e.Decide(&c, policy.Env{Mode: toolgate.ModeDefault, Grants: []*policy.Ruleset{rs}}, &d)
	if len(d.Subjects) != len(a.Decision.Subjects) || i >= len(d.Subjects) {
		return false
	}
	r := d.Subjects[i].Rule
	return r != nil && r.Layer == toolgate.LayerSession && r.Source == grantSource(g)
}

// literalEnough reports whether a pattern names its subject's command or
// path literally before its first wildcard: "git push *" and
// "/home/u/proj/**" do, "g*", "* push" and "~/**" do not. A prefix ends
// at a word boundary of the command: "git push", not "gi".
func literalEnough(kind toolgate.GrantKind, pattern string, s toolgate.SubjectResult) bool {
	if kind == toolgate.GrantPrefix {
		text := strings.TrimSpace(s.Text)
		return s.Kind != toolgate.SubjectCommand || text == pattern || strings.HasPrefix(text, strings.TrimRight(pattern, " ")+" ")
	}
	pattern = strings.TrimPrefix(pattern, "domain:")
	lit := pattern
	if gl, err := glob.Compile(pattern); err == nil {
		lit = gl.LiteralPrefix()
	}
	if lit == pattern {
		return true // no wildcard at all: the pattern is the subject
	}
	switch s.Kind {
	case toolgate.SubjectTool:
		return true // the subject is the tool itself
	case toolgate.SubjectCommand:
		// The whole command name, then a space.
		name, _, _ := strings.Cut(strings.TrimSpace(s.Text), " ")
		return name != "" && strings.HasPrefix(lit, name+" ")
	case toolgate.SubjectRead, toolgate.SubjectWrite, toolgate.SubjectPath:
		// A file, or the host or skill name of a path subject.
		rest := lit
		for _, root := range []string{"~/", "/", "./"} {
			rest = strings.TrimPrefix(rest, root)
		}
		// At least one whole directory below the root or home.
		return strings.Contains(rest, "/")
	}
	return lit != ""
}

func quote(s string) string { return "\"" + s + "\"" }
