package policy

import (
	"strconv"
	"testing"

	"github.com/toolgate/toolgate"
)

// ruleReason builds the reason in one allocation; it words it as the
// plain concatenation with strconv.Quote does, for every action and for
// patterns that need escaping.
func TestRuleReasonWording(t *testing.T) {
	t.Parallel()
	concat := func(r *toolgate.RuleRef) string {
		where := r.Source
		if where == "" {
			where = string(r.Layer)
		}
		rule := "rule " + r.Tool + " " + strconv.Quote(r.Pattern) + " (" + where + ")"
		var s string
		switch r.Action {
		case toolgate.Allow:
			s = "allowed by " + rule
		case toolgate.Deny:
			s = "denied by " + rule
		case toolgate.Ask:
			s = rule + " asks for approval"
		default:
			s = " by " + rule
		}
		if r.Reason != "" {
			s = r.Reason + " — " + s
		}
		return s
	}
	for _, pat := range []string{"*", "git log *", `say "hi"`, `a\b`, "tab\there", "é*", "\x7f", "~/x", ""} {
		for _, act := range []toolgate.Action{toolgate.Allow, toolgate.Ask, toolgate.Deny, toolgate.NoAction} {
			for _, src := range []string{"rules.yaml:2", ""} {
				for _, why := range []string{"", "secrets stay put"} {
					r := &toolgate.RuleRef{Layer: toolgate.LayerStatic, Source: src, Tool: "shell_exec", Pattern: pat, Action: act, Reason: why}
					if got, want := ruleReason(r), concat(r); got != want {
						t.Errorf("ruleReason(%+v) = %q, want %q", r, got, want)
					}
				}
			}
		}
	}
}
