// Package suggest reads the audit log and proposes rules for calls a person
// approved again and again, and notices approvers who answer too fast to
// have read the call (rubber-stamping). It works through a toolgate.Gate,
// so the same code serves the broker in process and a gateway over HTTP.
//
// A proposal is never made for a call the gate found risky (a critical
// risk, an unprefixable construct or a risk class), for a call with no
// suggestion (interpreters and wrappers are never suggested), for a call a
// rule denies, for a pattern a person ever denied, or for a call the rules
// already allow.
package suggest

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/present"
	"github.com/toolgate/toolgate/policy"
)

// Auditor reads the audit log: a toolgate.Gate (an admin's), or the
// broker itself for the gateway's own summaries.
type Auditor interface {
	Audit(ctx context.Context, f toolgate.AuditFilter) ([]toolgate.AuditEntry, error)
}

// Gate reads the audit log and decides calls without holding them: a
// toolgate.Gate (an admin's, over HTTP), or the broker in process.
type Gate interface {
	Auditor
	Evaluate(ctx context.Context, c toolgate.Call) (*toolgate.Decision, error)
}

// Proposal is a rule set (one rule per subject of the calls) that would
// have allowed calls a person approved repeatedly.
type Proposal struct {
	Workspace string `json:"workspace"`
	// Rules are the patterns to allow, one per subject of the calls.
	Rules []Rule `json:"rules"`
	// Approvals is how many approved calls the rules would have allowed.
	Approvals int `json:"approvals"`
	// Distinct is how many different calls (by their exact patterns)
	// those were.
	Distinct int `json:"distinct"`
	// Approvers are who approved them.
	Approvers []string `json:"approvers"`
	// Examples are some of the calls, newest first.
	Examples []Example `json:"examples"`
}

// Rule is one allow rule of a proposal.
type Rule struct {
	Tool    string `json:"tool"`
	Pattern string `json:"pattern"`
}

// Example is an approved call a proposal would have allowed: its newest
// approval, and how many times the same call was approved.
type Example struct {
	ApprovalID string    `json:"approval_id"`
	Call       string    `json:"call"`
	By         string    `json:"by"`
	At         time.Time `json:"at"`
	Count      int       `json:"count"`
}

// JSONC returns the proposal in the workspace document form, with a
// comment that says what it would have allowed.
func (p Proposal) JSONC() string {
	var b strings.Builder
	fmt.Fprintf(&b, "// workspace %q: %d approvals of %d distinct calls by %s would have been allowed, e.g.\n",
		p.Workspace, p.Approvals, p.Distinct, strings.Join(p.Approvers, ", "))
	for _, e := range p.Examples {
		fmt.Fprintf(&b, "//   %s", oneLine(e.Call))
		if e.Count > 1 {
			fmt.Fprintf(&b, "  (×%d)", e.Count)
		}
		b.WriteByte('\n')
	}
	// Rules of one tool are one object: the document's form. Patterns come
	// from agents' calls, so one with a character a person cannot see is
	// written with every non-ASCII character escaped.
	tools := map[string][]string{}
	var order []string
	for _, r := range p.Rules {
		if tools[r.Tool] == nil {
			order = append(order, r.Tool)
		}
		tools[r.Tool] = append(tools[r.Tool], r.Pattern)
	}
	b.WriteString("{\n")
	for i, tool := range order {
		fmt.Fprintf(&b, "  %s: {", jsonString(tool))
		for j, pat := range tools[tool] {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "\n    %s: \"allow\"", jsonString(pat))
		}
		b.WriteString("\n  }")
		if i < len(order)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return b.String()
}

// oneLine shows agent text on one terminal line: suspect characters
// labelled, cut short.
func oneLine(s string) string {
	s = present.Visible(s)
	if r := []rune(s); len(r) > 120 {
		s = string(r[:119]) + "…"
	}
	return s
}

// jsonString quotes s as JSON, with every non-ASCII character escaped
// when s holds one a person cannot see (control, bidirectional,
// zero-width), so the pattern printed is the pattern stored.
func jsonString(s string) string {
	if present.Visible(s) == s {
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(s)
		return strings.TrimSuffix(b.String(), "\n")
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r >= 0x20 && r < 0x7f:
			b.WriteRune(r)
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, "\\u%04x\\u%04x", r1, r2)
		default:
			fmt.Fprintf(&b, "\\u%04x", r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// Options tune Suggest.
type Options struct {
	// Min is how many approvals (and, for a widened pattern, distinct
	// calls) a proposal needs; default 3.
	Min int
	// Since limits the audit read to entries at or after it.
	Since time.Time
	// MaxEntries bounds how many audit entries of each kind are read;
	// default 20000.
	MaxEntries int
	// Examples is how many calls each proposal shows; default 5.
	Examples int
	// Rules returns a workspace's rules document. A suggestion wider than
	// the calls (`git push *`) is proposed only when the document has no
	// deny or ask rule inside it: appended after `"git push origin prod":
	// "deny"`, an allow of `git push *` would win (last match wins).
	// Without Rules only the calls as made are proposed.
	Rules func(ctx context.Context, workspace string) ([]byte, error)
}

func (o *Options) defaults() {
	if o.Min <= 0 {
		o.Min = 3
	}
	if o.MaxEntries <= 0 {
		o.MaxEntries = 20000
	}
	if o.Examples <= 0 {
		o.Examples = 5
	}
}

// requested is what an approval.requested entry keeps of a call.
type requested struct {
	Args     map[string]any     `json:"args"`
	Agent    string             `json:"agent"`
	Decision *toolgate.Decision `json:"decision"`
}

// answer is an approval as the audit log tells it: the call, the decision
// it was asked with and how a person answered.
type answer struct {
	req       toolgate.AuditEntry
	call      toolgate.Call
	decision  toolgate.Decision
	res       toolgate.Resolution
	requested time.Time
	answered  time.Time
}

// human reports whether a person gave the answer: not the gate itself
// (expiry, cancellation) and not a cascade of a grant.
func (a *answer) human() bool {
	return a.res.By != "" && a.res.By != "toolgate" && a.res.Via != "cascade" && a.res.Via != "rules"
}

// answers reads the approvals the audit log records, in the order they
// were answered, pairing each answer with its request. Without calls it
// leaves the call and decision out (the larger part of an entry to decode).
func answers(ctx context.Context, g Auditor, since time.Time, max int, calls bool) ([]answer, error) {
	reqs := map[string]toolgate.AuditEntry{}
	if err := scan(ctx, g, string(toolgate.EventApprovalRequested), since, max, func(e toolgate.AuditEntry) {
		reqs[e.ApprovalID] = e
	}); err != nil {
		return nil, err
	}
	var out []answer
	err := scan(ctx, g, string(toolgate.EventApprovalResolved), since, max, func(e toolgate.AuditEntry) {
		q, ok := reqs[e.ApprovalID]
		if !ok {
			return
		}
		var rq requested
		var res toolgate.Resolution
		if json.Unmarshal(e.Data, &res) != nil {
			return // an entry this code cannot read counts for nothing
		}
		if calls && (json.Unmarshal(q.Data, &rq) != nil || rq.Decision == nil) {
			return
		}
		if rq.Decision == nil {
			rq.Decision = &toolgate.Decision{}
		}
		at := res.At
		if at.IsZero() {
			at = e.Time
		}
		out = append(out, answer{
			req: q,
			call: toolgate.Call{Session: q.Session, Workspace: q.Workspace, Agent: rq.Agent,
				Tool: q.Tool, Args: rq.Args},
			decision: *rq.Decision, res: res, requested: q.Time, answered: at,
		})
	})
	return out, err
}

// page is how many entries one audit read asks for (the HTTP API's most).
const page = 1000

func scan(ctx context.Context, g Auditor, kind string, since time.Time, max int, f func(toolgate.AuditEntry)) error {
	filter := toolgate.AuditFilter{Kind: kind, Since: since, Limit: page}
	n := 0
	for {
		es, err := g.Audit(ctx, filter)
		if err != nil {
			return fmt.Errorf("read the audit log: %w", err)
		}
		for _, e := range es {
			f(e)
		}
		n += len(es)
		if len(es) < page || n >= max {
			return nil
		}
		filter.AfterSeq = es[len(es)-1].Seq
	}
}

// eligible reports why a decision can never be proposed, "" when it can.
func eligible(d *toolgate.Decision) string {
	switch {
	case len(d.Risks) > 0:
		return "risky: " + d.Risks[0].Code
	case len(d.Suggestions) == 0:
		return "no suggestion (an interpreter, a wrapper or an unprefixable call)"
	}
	for _, s := range d.Subjects {
		if s.Action == toolgate.Deny {
			return "a rule denies " + s.Text
		}
	}
	return ""
}

// key names the rules of a call: its tool and patterns, wide (the
// suggestion) or exact (the call as written).
func key(ws string, d *toolgate.Decision, exact bool) (string, []Rule) {
	rules := make([]Rule, 0, len(d.Suggestions))
	for _, s := range d.Suggestions {
		p := s.Pattern
		if exact && s.Exact != "" {
			p = s.Exact
		}
		rules = append(rules, Rule{Tool: s.Tool, Pattern: p})
	}
	sort.Slice(rules, func(i, j int) bool {
		if rules[i].Tool != rules[j].Tool {
			return rules[i].Tool < rules[j].Tool
		}
		return rules[i].Pattern < rules[j].Pattern
	})
	var b strings.Builder
	b.WriteString(ws)
	for _, r := range rules {
		b.WriteString("\x00" + r.Tool + "\x00" + r.Pattern)
	}
	return b.String(), rules
}

type group struct {
	rules  []Rule
	ans    []*answer
	exacts map[string]bool
}

// Suggest proposes rules from the audit log g keeps (an admin's reading).
// Calls are grouped by their suggested patterns: when a person approved
// at least Min calls of at least Min different forms under one suggestion,
// the suggestion is proposed (if Options.Rules shows no deny or ask rule
// inside it); otherwise an exact form approved at least
// Min times is, so three approvals of `rm -rf ./build` propose that command
// and not `rm *`. Each proposal is then decided again by g as the rules
// stand now: one the rules deny, or already allow, is dropped.
func Suggest(ctx context.Context, g Gate, o Options) ([]Proposal, error) {
	o.defaults()
	as, err := answers(ctx, g, o.Since, o.MaxEntries, true)
	if err != nil {
		return nil, err
	}
	wide, exact := map[string]*group{}, map[string]*group{}
	deniedWide, deniedExact := map[string]bool{}, map[string]bool{}
	for i := range as {
		a := &as[i]
		if !a.human() || eligible(&a.decision) != "" {
			continue
		}
		wk, wr := key(a.call.Workspace, &a.decision, false)
		ek, er := key(a.call.Workspace, &a.decision, true)
		switch {
		case a.res.Status == toolgate.StatusDenied:
			deniedWide[wk], deniedExact[ek] = true, true
			continue
		case a.res.Status != toolgate.StatusApproved:
			continue
		case len(a.res.Modifications) > 0 || len(a.res.Answer) > 0:
			continue // the person changed the call or answered a question: not the call as made
		}
		for _, x := range []struct {
			m     map[string]*group
			k     string
			rules []Rule
		}{{wide, wk, wr}, {exact, ek, er}} {
			gr := x.m[x.k]
			if gr == nil {
				gr = &group{rules: x.rules, exacts: map[string]bool{}}
				x.m[x.k] = gr
			}
			gr.ans = append(gr.ans, a)
			gr.exacts[ek] = true
		}
	}
	var out []Proposal
	taken := map[string]bool{} // exact keys a wide proposal covers
	for _, k := range sortedKeys(wide) {
		gr := wide[k]
		if deniedWide[k] || len(gr.ans) < o.Min || len(gr.exacts) < o.Min || !o.widens(ctx, gr.ans[0].call.Workspace, gr.rules) {
			continue
		}
		if p, ok := propose(ctx, g, gr, o); ok {
			out = append(out, p)
			for ek := range gr.exacts {
				taken[ek] = true
			}
		}
	}
	for _, k := range sortedKeys(exact) {
		gr := exact[k]
		if taken[k] || deniedExact[k] || len(gr.ans) < o.Min {
			continue
		}
		if p, ok := propose(ctx, g, gr, o); ok {
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Approvals > out[j].Approvals })
	return out, nil
}

// widens reports whether allowing rules, appended to the workspace's
// document, would only widen it: no deny or ask rule the document has
// lies inside one of them (its literal start begins with theirs). An
// unreadable document widens nothing.
func (o *Options) widens(ctx context.Context, workspace string, rules []Rule) bool {
	if o.Rules == nil {
		return false
	}
	src, err := o.Rules(ctx, workspace)
	if err != nil {
		return false
	}
	doc, err := policy.ParseWorkspace(workspace, src)
	if err != nil {
		return false
	}
	for _, r := range rules {
		start := strings.TrimRight(literalStart(r.Pattern), " ")
		for _, d := range doc.Rules {
			if d.Action == toolgate.Allow || d.Pattern == "" || d.Pattern == "*" || d.Pattern == r.Pattern {
				continue
			}
			if strings.HasPrefix(literalStart(d.Pattern), start) {
				return false
			}
		}
	}
	return true
}

// literalStart is the part of a glob before its first special character.
func literalStart(glob string) string {
	if i := strings.IndexAny(glob, "*?[{\\"); i >= 0 {
		return glob[:i]
	}
	return glob
}

func sortedKeys(m map[string]*group) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// propose builds the proposal for a group, after deciding its calls again
// as the rules stand now: a call the rules now deny, or that is now risky,
// drops the proposal; so does every call being allowed already.
func propose(ctx context.Context, g Gate, gr *group, o Options) (Proposal, bool) {
	p := Proposal{Workspace: gr.ans[0].call.Workspace, Rules: gr.rules, Approvals: len(gr.ans), Distinct: len(gr.exacts)}
	allowed := 0
	seen := map[string]bool{}
	example := map[string]int{} // call text → index in p.Examples
	for i := len(gr.ans) - 1; i >= 0; i-- {
		a := gr.ans[i]
		if !seen[a.res.By] {
			seen[a.res.By] = true
			p.Approvers = append(p.Approvers, a.res.By)
		}
		c := a.call
		// Decided outside its session: a session grant is not a rule.
		c.Session, c.ID = "", ""
		d, err := g.Evaluate(ctx, c)
		if err != nil {
			return Proposal{}, false // fail closed: a call not decided now proposes nothing
		}
		if len(d.Risks) > 0 || d.Action == toolgate.Deny {
			return Proposal{}, false
		}
		if d.Action == toolgate.Allow {
			allowed++
		}
		text := callText(&a.call, &a.decision)
		if i, ok := example[text]; ok {
			p.Examples[i].Count++
		} else if len(p.Examples) < o.Examples {
			example[text] = len(p.Examples)
			p.Examples = append(p.Examples, Example{ApprovalID: a.req.ApprovalID, Call: text, By: a.res.By, At: a.answered, Count: 1})
		}
	}
	sort.Strings(p.Approvers)
	// What is printed must load as printed: a pattern the rules refuse is
	// no proposal.
	if _, err := policy.ParseWorkspace("proposal.jsonc", []byte(p.JSONC())); err != nil {
		return Proposal{}, false
	}
	return p, allowed < len(gr.ans)
}

// callText is how a call reads in an example: what present.Command shows
// of it, else the exact patterns of its subjects.
func callText(c *toolgate.Call, d *toolgate.Decision) string {
	if s := present.Command(*c); s != "" {
		return s
	}
	var parts []string
	for _, s := range d.Suggestions {
		parts = append(parts, s.Exact)
	}
	return present.Visible(c.Tool + " " + strings.Join(parts, "; "))
}
