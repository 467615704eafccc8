package bench

import (
	"context"
	"fmt"
	"strings"

	"github.com/cedar-policy/cedar-go"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/topdown/cache"
	"github.com/toolgate/toolgate"
)

// The fair peers: each engine configured as someone who knows it would
// run a rule set like this one, instead of handed every rule as one
// policy per request (Cedar, OPA: the unsliced worst case).
//
// CedarSliced slices the policies per tool, as Cedar deployments do with
// policy slicing: a request is authorized against only the policies that
// can apply to its tool (the rules naming it, the tool globs that match
// it and the catch-all), each slice compiled from those rules alone.
//
// OPAData is the rule set as data, with one generic Rego policy that
// looks rules up by tool (data.by_tool) and tries only the tool-glob rules
// besides, in OPA's read-optimised store (what opa run's
// --optimize-store-for-read-speed selects), so no request copies the data.

// CedarSliced is the set as one Cedar policy set per tool.
type CedarSliced struct {
	set    *Set
	slices map[string]*cedar.PolicySet
}

// NewCedarSliced prepares the slices of the set's declared tools; the
// slice of any other tool is built the first time Input sees it.
func NewCedarSliced(s *Set) (*CedarSliced, error) {
	c := &CedarSliced{set: s, slices: map[string]*cedar.PolicySet{}}
	for _, t := range s.Tools {
		if err := c.slice(t); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// slice builds tool's policy set from the rules that can match it, in
// order: last-match-wins over them decides every call of the tool as over
// all the rules, since no other rule matches such a call.
func (c *CedarSliced) slice(tool string) error {
	if _, ok := c.slices[tool]; ok {
		return nil
	}
	sub := &Set{Tools: c.set.Tools, declared: c.set.declared, dirs: c.set.dirs}
	for _, r := range c.set.Rules {
		if starMatch(r.Tool, tool) {
			sub.Rules = append(sub.Rules, r)
		}
	}
	ps, err := cedar.NewPolicySetFromBytes("bench-"+tool+".cedar", []byte(sub.Cedar()))
	if err != nil {
		return fmt.Errorf("cedar slice %s: %w", tool, err)
	}
	c.slices[tool] = ps
	return nil
}

// Input returns the Cedar request for call (the same as Cedar's), making
// sure its tool's slice exists.
func (c *CedarSliced) Input(call Call) cedar.Request {
	_ = c.slice(call.Tool) // on error there is no slice, and Decide says so
	return (&Cedar{set: c.set}).Input(call)
}

// Decide picks the request's slice by its tool and authorizes it there.
func (c *CedarSliced) Decide(req cedar.Request) (toolgate.Action, error) {
	ps := c.slices[string(req.Resource.ID)]
	if ps == nil {
		return toolgate.Deny, fmt.Errorf("cedar: no slice for tool %q", req.Resource.ID)
	}
	return cedarDecide(ps, req)
}

// DataRego is the generic policy of the data-driven Rego: the rules are
// data (see Set.RegoData), the policy the same for any rule set. Rules are
// looked up as an expert would index them: by the input's tool and by the
// subject's directory (its first two path components, "/srv/p001"), plus
// the rules that name no directory (bucket ""); rules with a tool glob
// (the catch-all included) are indexed by directory alone and check the
// tool with glob.match. A rule matches when one of its patterns matches
// the subject; the highest index among the matching rules decides.
const DataRego = `package toolgate

default decision := "ask"

decision := data.actions[max(matched)]

subject_dir := concat("/", array.slice(split(input.subject, "/"), 0, 3))

dirs := {subject_dir, ""}

matched contains r.i if {
	some d in dirs
	some r in data.by_tool[input.tool][d]
	subject_matches(r)
}

matched contains r.i if {
	some d in dirs
	some r in data.globs[d]
	glob.match(r.tool, null, input.tool)
	subject_matches(r)
}

subject_matches(r) if r.any

subject_matches(r) if {
	some p in r.patterns
	glob.match(p, null, input.subject)
}
`

// RegoData returns the data DataRego decides from: actions (by rule
// index), by_tool (tool name → directory → rules) and globs (directory →
// rules whose tool is a glob). A rule entry is {i, tool, any, patterns}:
// any when the pattern matches every subject, else brace-expanded
// patterns (expanded once here, not per query); a rule whose alternatives
// name different directories has an entry in each.
func (s *Set) RegoData() map[string]any {
	actions := make([]any, len(s.Rules))
	byTool := map[string]map[string][]any{}
	globs := map[string][]any{}
	for i, r := range s.Rules {
		actions[i] = r.Action.String()
		buckets := map[string][]any{}
		var order []string
		for _, p := range expand(r.Pattern) {
			d := patternDir(p)
			if _, ok := buckets[d]; !ok {
				order = append(order, d)
			}
			buckets[d] = append(buckets[d], p)
		}
		for _, d := range order {
			rule := map[string]any{"i": i, "tool": r.Tool, "any": r.Pattern == "*" || r.Pattern == "", "patterns": buckets[d]}
			if strings.Contains(r.Tool, "*") {
				globs[d] = append(globs[d], rule)
				continue
			}
			if byTool[r.Tool] == nil {
				byTool[r.Tool] = map[string][]any{}
			}
			byTool[r.Tool][d] = append(byTool[r.Tool][d], rule)
		}
	}
	bt := map[string]any{}
	for t, m := range byTool {
		dm := map[string]any{}
		for d, l := range m {
			dm[d] = l
		}
		bt[t] = dm
	}
	gl := map[string]any{}
	for d, l := range globs {
		gl[d] = l
	}
	return map[string]any{"actions": actions, "by_tool": bt, "globs": gl}
}

// patternDir is the directory bucket of a brace-free pattern: its first
// two path components when they are literal and more follows ("/srv/p001"
// for "/srv/p001/*.go"), else "" (tried for every subject). A subject can
// match a pattern with bucket d only if it starts with d + "/", so its
// own first two components are d: the bucket DataRego looks up.
func patternDir(p string) string {
	parts := strings.SplitN(p, "/", 4)
	if len(parts) < 4 || parts[0] != "" || strings.ContainsAny(parts[1]+parts[2], "*?[{") || parts[1] == "" || parts[2] == "" {
		return ""
	}
	return "/" + parts[1] + "/" + parts[2]
}

// OPAData is DataRego over the set's RegoData in OPA's read-optimised
// in-memory store, as a prepared query for data.toolgate.decision.
type OPAData struct {
	OPA // the same query, input and reading of the answer
}

// NewOPAData loads the data into a read-optimised store and prepares the
// query.
func NewOPAData(ctx context.Context, s *Set) (*OPAData, error) {
	store := inmem.NewFromObjectWithOpts(s.RegoData(), inmem.OptRoundTripOnWrite(true), inmem.OptReturnASTValuesOnRead(true))
	pq, err := rego.New(
		rego.Query("data.toolgate.decision"),
		rego.Module("bench-data.rego", DataRego),
		rego.Store(store),
	).PrepareForEval(ctx)
	if err != nil {
		return nil, err
	}
	return &OPAData{OPA{Query: pq, Cache: cache.NewInterQueryValueCache(ctx, &cache.Config{}), set: s}}, nil
}
