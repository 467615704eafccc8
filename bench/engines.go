package bench

import (
	"context"
	"fmt"

	"github.com/cedar-policy/cedar-go"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/topdown/cache"
	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
)

// Toolgate is the set compiled by toolgate's policy engine, with its calls
// prepared: each engine gets its input in the form it decides from, built
// before timing starts.
type Toolgate struct {
	Engine *policy.Engine
	set    *Set
}

// NewToolgate compiles the set with policy.New.
func NewToolgate(s *Set) (*Toolgate, error) {
	e, err := policy.New([]*policy.Document{s.Document()})
	if err != nil {
		return nil, err
	}
	return &Toolgate{Engine: e, set: s}, nil
}

// Input returns the toolgate.Call for c. A declared tool gets its path as
// "path"; any other tool gets it as text that is no path, under a name
// that does not say path: toolgate checks every tool's path-named
// arguments, and any whole value that reads as an absolute path, against
// the file rules, and the set's other tools are matched by name alone
// (Set.Subject).
func (t *Toolgate) Input(c Call) *toolgate.Call {
	if t.set.Declared(c.Tool) {
		return &toolgate.Call{Tool: c.Tool, Args: map[string]any{"path": c.Path}}
	}
	return &toolgate.Call{Tool: c.Tool, Args: map[string]any{"query": "find " + c.Path}}
}

// Decide decides a prepared call into d (reused, as a server worker does).
func (t *Toolgate) Decide(c *toolgate.Call, d *toolgate.Decision) toolgate.Action {
	t.Engine.Decide(c, policy.Env{}, d)
	return d.Action
}

// Cedar is the set translated to a Cedar policy set (see Set.Cedar).
type Cedar struct {
	Policies *cedar.PolicySet
	set      *Set
}

// NewCedar parses the set's Cedar translation.
func NewCedar(s *Set) (*Cedar, error) {
	ps, err := cedar.NewPolicySetFromBytes("bench.cedar", []byte(s.Cedar()))
	if err != nil {
		return nil, err
	}
	return &Cedar{Policies: ps, set: s}, nil
}

var (
	cedarPrincipal = cedar.NewEntityUID("Agent", "agent")
	cedarAction    = cedar.NewEntityUID("Action", "call")
)

// Input returns the Cedar request for c.
func (e *Cedar) Input(c Call) cedar.Request {
	return cedar.Request{
		Principal: cedarPrincipal,
		Action:    cedarAction,
		Resource:  cedar.NewEntityUID("Tool", cedar.String(c.Tool)),
		Context: cedar.NewRecord(cedar.RecordMap{
			"tool":    cedar.String(c.Tool),
			"subject": cedar.String(e.set.Subject(c)),
		}),
	}
}

// Decide authorizes a prepared request and reads the three-way answer back
// (see Set.Cedar). An evaluation error is reported as deny with err set.
func (e *Cedar) Decide(req cedar.Request) (toolgate.Action, error) {
	return cedarDecide(e.Policies, req)
}

// cedarDecide authorizes req against ps and reads the answer back.
func cedarDecide(ps *cedar.PolicySet, req cedar.Request) (toolgate.Action, error) {
	dec, diag := ps.IsAuthorized(nil, req)
	if len(diag.Errors) > 0 {
		return toolgate.Deny, fmt.Errorf("cedar: %s", diag.Errors[0].Message)
	}
	switch {
	case dec == cedar.Allow:
		return toolgate.Allow, nil
	case len(diag.Reasons) > 0:
		return toolgate.Deny, nil
	}
	return toolgate.Ask, nil
}

// OPA is the set translated to Rego (see Set.Rego) as a prepared query
// for data.toolgate.decision.
type OPA struct {
	Query rego.PreparedEvalQuery
	// Cache is the inter-query builtin value cache, where OPA keeps
	// compiled globs across evaluations as its server does; without it OPA
	// falls back to a 100-entry global cache that a 1,000-rule set thrashes.
	Cache cache.InterQueryValueCache
	set   *Set
}

// NewOPA compiles the set's Rego module and prepares the query.
func NewOPA(ctx context.Context, s *Set) (*OPA, error) {
	pq, err := rego.New(
		rego.Query("data.toolgate.decision"),
		rego.Module("bench.rego", s.Rego()),
	).PrepareForEval(ctx)
	if err != nil {
		return nil, err
	}
	c := cache.NewInterQueryValueCache(ctx, &cache.Config{})
	return &OPA{Query: pq, Cache: c, set: s}, nil
}

// Input returns the parsed OPA input for c: {"tool", "subject"}.
func (o *OPA) Input(c Call) ast.Value {
	return ast.NewObject(
		ast.Item(ast.StringTerm("tool"), ast.StringTerm(c.Tool)),
		ast.Item(ast.StringTerm("subject"), ast.StringTerm(o.set.Subject(c))),
	)
}

// Decide evaluates the prepared query on a prepared input.
func (o *OPA) Decide(ctx context.Context, input ast.Value) (toolgate.Action, error) {
	rs, err := o.Query.Eval(ctx, rego.EvalParsedInput(input), rego.EvalInterQueryBuiltinValueCache(o.Cache))
	if err != nil {
		return toolgate.Deny, err
	}
	if len(rs) != 1 || len(rs[0].Expressions) != 1 {
		return toolgate.Deny, fmt.Errorf("opa: %d results", len(rs))
	}
	s, ok := rs[0].Expressions[0].Value.(string)
	if !ok {
		return toolgate.Deny, fmt.Errorf("opa: decision %v", rs[0].Expressions[0].Value)
	}
	return toolgate.ParseAction(s)
}
