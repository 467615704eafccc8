package bench

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
)

// Document returns the set as a toolgate rules document: the rules in
// order, and every generated tool declared a file reader whose "path"
// argument is the subject (a declared non-shell tool is its own family).
func (s *Set) Document() *policy.Document {
	doc := &policy.Document{Path: "bench", Workspace: true, Tools: map[string]policy.ToolSpec{}}
	for i, r := range s.Rules {
		doc.Rules = append(doc.Rules, policy.Rule{
			Tool: r.Tool, Pattern: r.Pattern, Action: r.Action,
			Source: policy.Source{File: "bench", Line: i + 1},
		})
	}
	for _, t := range s.Tools {
		doc.Tools[t] = policy.ToolSpec{Kind: policy.KindRead, Tier: toolgate.TierRead, Args: []string{"path"}}
	}
	return doc
}

// Rego returns the set as a Rego module, package toolgate, whose rule
// "decision" is "allow", "deny" or "ask". It is last-match-wins written
// directly: "matched" holds the index of every rule that matches the input
// ({"tool", "subject"}), and the decision is the action of the highest.
// Rules that name a tool test input.tool with ==, which OPA's rule index
// uses to skip the rules of other tools. glob.match is called with null
// delimiters, so "*" matches any run of characters, "/" included, as in
// toolgate (with [] OPA would default to ["."]).
func (s *Set) Rego() string {
	var b strings.Builder
	b.WriteString("package toolgate\n\n")
	b.WriteString("default decision := \"ask\"\n\n")
	b.WriteString("decision := actions[max(matched)]\n\n")
	b.WriteString("actions := [")
	for i, r := range s.Rules {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(r.Action.String()))
	}
	b.WriteString("]\n")
	for i, r := range s.Rules {
		var conds []string
		switch {
		case r.Tool == "*":
		case strings.Contains(r.Tool, "*"):
			conds = append(conds, fmt.Sprintf("glob.match(%s, null, input.tool)", strconv.Quote(r.Tool)))
		default:
			conds = append(conds, fmt.Sprintf("input.tool == %s", strconv.Quote(r.Tool)))
		}
		if r.Pattern != "*" && r.Pattern != "" {
			conds = append(conds, fmt.Sprintf("glob.match(%s, null, input.subject)", strconv.Quote(r.Pattern)))
		}
		if len(conds) == 0 {
			fmt.Fprintf(&b, "\nmatched contains %d\n", i)
			continue
		}
		fmt.Fprintf(&b, "\nmatched contains %d if {\n", i)
		for _, c := range conds {
			b.WriteString("\t" + c + "\n")
		}
		b.WriteString("}\n")
	}
	return b.String()
}

// Cedar returns the set as a Cedar policy set. A request is principal
// Agent::"agent", action Action::"call", resource Tool::"<tool>" and context
// {tool, subject}.
//
// Cedar has no rule order (forbid overrides permit) and two outcomes, so
// last-match-wins is compiled away: rule i decides a call exactly when it
// matches and no later rule with a different action matches. Each allow
// rule becomes a permit and each deny rule a forbid, with "when" its own
// match and "unless" the disjunction of the matches of the later rules
// with a different action that can overlap it. Ask rules (the catch-all
// included) get no policy of their own: they appear only in the unless
// clauses of earlier rules. So exactly the rule that wins under
// last-match-wins is satisfied (or several of the same action), and the
// Cedar answer reads back as:
//
//	Allow                         → allow
//	Deny, a forbid among reasons  → deny
//	Deny, no policy satisfied     → ask (the catch-all, or an ask rule, won)
//
// Later rules that cannot overlap rule i are left out of its unless clause:
// two globs whose only metacharacter is "*" can match a common string only
// if one's literal prefix is a prefix of the other's and likewise for the
// suffixes, so leaving out a rule that fails that test never changes the
// result. Braces expand to a disjunction of "like" patterns; Cedar's
// "like" "*" matches any run of characters, "/" included, as toolgate's.
func (s *Set) Cedar() string {
	var b strings.Builder
	for i, r := range s.Rules {
		if r.Action == toolgate.Ask {
			continue
		}
		effect := "permit"
		if r.Action == toolgate.Deny {
			effect = "forbid"
		}
		scope := "resource"
		var when []string
		switch {
		case r.Tool == "*":
		case strings.Contains(r.Tool, "*"):
			when = append(when, "context.tool like "+cedarQuote(r.Tool))
		default:
			scope = "resource == Tool::" + strconv.Quote(r.Tool)
		}
		if m := cedarPattern(r.Pattern); m != "" {
			when = append(when, m)
		}
		var unless []string
		for j := i + 1; j < len(s.Rules); j++ {
			l := s.Rules[j]
			if l.Action == r.Action || !toolsOverlap(r.Tool, l.Tool) || !patternsOverlap(r.Pattern, l.Pattern) {
				continue
			}
			var conj []string
			switch {
			case l.Tool == "*" || toolImplied(r.Tool, l.Tool):
			case strings.Contains(l.Tool, "*"):
				conj = append(conj, "context.tool like "+cedarQuote(l.Tool))
			default:
				conj = append(conj, "resource == Tool::"+strconv.Quote(l.Tool))
			}
			if m := cedarPattern(l.Pattern); m != "" {
				conj = append(conj, m)
			}
			if len(conj) == 0 {
				conj = []string{"true"}
			}
			unless = append(unless, "("+strings.Join(conj, " && ")+")")
		}
		fmt.Fprintf(&b, "@rule(\"%d\")\n%s (principal, action == Action::\"call\", %s)", i, effect, scope)
		if len(when) > 0 {
			fmt.Fprintf(&b, "\nwhen { %s }", strings.Join(when, " && "))
		}
		if len(unless) > 0 {
			fmt.Fprintf(&b, "\nunless {\n  %s\n}", strings.Join(unless, " ||\n  "))
		}
		b.WriteString(";\n\n")
	}
	return b.String()
}

// cedarPattern returns the Cedar condition that context.subject matches a
// pattern, or "" for one that matches everything.
func cedarPattern(p string) string {
	if p == "*" || p == "" {
		return ""
	}
	alts := expand(p)
	var ors []string
	for _, a := range alts {
		ors = append(ors, "context.subject like "+cedarQuote(a))
	}
	if len(ors) == 1 {
		return ors[0]
	}
	return "(" + strings.Join(ors, " || ") + ")"
}

// cedarQuote quotes a "*"-glob as a Cedar like pattern: "*" stays the
// wildcard; quotes and backslashes are escaped.
func cedarQuote(p string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(p) + `"`
}

// toolsOverlap reports whether some tool name can match both tool patterns.
func toolsOverlap(a, b string) bool {
	ga, gb := strings.Contains(a, "*"), strings.Contains(b, "*")
	switch {
	case !ga && !gb:
		return a == b
	case !ga:
		return starMatch(b, a)
	case !gb:
		return starMatch(a, b)
	}
	return globsMayOverlap(a, b)
}

// toolImplied reports whether every tool a matches also matches b, so a
// condition on b adds nothing under a.
func toolImplied(a, b string) bool {
	return b == "*" || a == b || !strings.Contains(a, "*") && starMatch(b, a)
}

// patternsOverlap reports whether two subject patterns may match a common
// subject (false only when they certainly cannot).
func patternsOverlap(a, b string) bool {
	for _, x := range expand(a) {
		for _, y := range expand(b) {
			if globsMayOverlap(x, y) {
				return true
			}
		}
	}
	return false
}

// globsMayOverlap is the necessary condition for two "*"-globs to match a
// common string: compatible literal prefixes and compatible literal
// suffixes.
func globsMayOverlap(a, b string) bool {
	pa, sa := literalEnds(a)
	pb, sb := literalEnds(b)
	return (strings.HasPrefix(pa, pb) || strings.HasPrefix(pb, pa)) &&
		(strings.HasSuffix(sa, sb) || strings.HasSuffix(sb, sa))
}

func literalEnds(g string) (prefix, suffix string) {
	i, j := strings.IndexByte(g, '*'), strings.LastIndexByte(g, '*')
	if i < 0 {
		return g, g
	}
	return g[:i], g[j+1:]
}
