// Package rulesgate is a toolgate.Gate that decides from rules alone, in
// process, with nobody to ask and nothing stored: the local mode of the
// Claude Code hook, of toolgate host and of the MCP proxy. A call the
// rules ask about comes back as an ask with no approval; the caller puts
// the question where it can (the agent's own prompt, the MCP client) or
// denies it. It holds no approvals, keeps no grants and records nothing.
package rulesgate

import (
	"context"
	"sync"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
)

// Gate decides with one compiled policy. It is safe for concurrent use.
type Gate struct {
	engine *policy.Engine
	agent  *policy.Ruleset

	mu       sync.Mutex
	mode     toolgate.Mode
	modeSet  bool
	aborted  map[string]bool
	sessions map[string]toolgate.Mode
}

var _ toolgate.Gate = (*Gate)(nil)

// Option configures a Gate.
type Option func(*Gate)

// WithMode starts every session in mode m (default: the engine's mode).
func WithMode(m toolgate.Mode) Option { return func(g *Gate) { g.mode, g.modeSet = m, true } }

// WithAgent adds an agent layer whose denies veto.
func WithAgent(rs *policy.Ruleset) Option { return func(g *Gate) { g.agent = rs } }

// New returns a gate over a compiled policy.
func New(e *policy.Engine, opts ...Option) *Gate {
	g := &Gate{engine: e, aborted: map[string]bool{}, sessions: map[string]toolgate.Mode{}}
	for _, o := range opts {
		o(g)
	}
	if !g.modeSet {
		g.mode = e.Mode()
	}
	return g
}

func (g *Gate) sessionMode(session string) (toolgate.Mode, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	m, ok := g.sessions[session]
	if !ok {
		m = g.mode
	}
	return m, g.aborted[session]
}

// Evaluate decides a call.
func (g *Gate) Evaluate(_ context.Context, c toolgate.Call) (*toolgate.Decision, error) {
	m, aborted := g.sessionMode(c.Session)
	if aborted {
		return &toolgate.Decision{Action: toolgate.Deny, Reason: "the session was aborted"}, nil
	}
	var d toolgate.Decision
	g.engine.Decide(&c, policy.Env{Mode: m, Agent: g.agent}, &d)
	return &d, nil
}

// Submit decides a call; an ask comes back without an approval.
func (g *Gate) Submit(ctx context.Context, req toolgate.SubmitRequest) (*toolgate.Result, error) {
	d, err := g.Evaluate(ctx, req.Call)
	if err != nil {
		return nil, err
	}
	return &toolgate.Result{Decision: *d}, nil
}

func noApprovals() error {
	return toolgate.Errorf(toolgate.ENotFound, "a rules-only gate holds no approvals")
}

// Wait implements toolgate.Gate: there is nothing to wait for.
func (g *Gate) Wait(context.Context, string) (*toolgate.Approval, error) { return nil, noApprovals() }

// Approval implements toolgate.Gate: there are none.
func (g *Gate) Approval(context.Context, string) (*toolgate.Approval, error) {
	return nil, noApprovals()
}

// Approvals implements toolgate.Gate: there are none.
func (g *Gate) Approvals(context.Context, toolgate.ApprovalFilter) ([]*toolgate.Approval, error) {
	return nil, nil
}

// Approve implements toolgate.Gate: there is nothing to approve.
func (g *Gate) Approve(context.Context, string, toolgate.ApproveRequest) (*toolgate.Approval, error) {
	return nil, noApprovals()
}

// Deny implements toolgate.Gate: there is nothing to deny.
func (g *Gate) Deny(context.Context, string, toolgate.DenyRequest) (*toolgate.Approval, error) {
	return nil, noApprovals()
}

// Cancel implements toolgate.Gate: there is nothing to withdraw.
func (g *Gate) Cancel(context.Context, string, string) (*toolgate.Approval, error) {
	return nil, noApprovals()
}

// Session returns a session as this gate sees it: its mode and whether it
// was aborted.
func (g *Gate) Session(_ context.Context, id string) (*toolgate.Session, error) {
	m, aborted := g.sessionMode(id)
	return &toolgate.Session{ID: id, Mode: m, Aborted: aborted}, nil
}

// Sessions implements toolgate.Gate: sessions are not listed.
func (g *Gate) Sessions(context.Context, toolgate.SessionFilter) ([]*toolgate.Session, error) {
	return nil, nil
}

// SetMode changes a session's mode for its later calls.
func (g *Gate) SetMode(ctx context.Context, session string, m toolgate.Mode) (*toolgate.Session, error) {
	g.mu.Lock()
	g.sessions[session] = m
	g.mu.Unlock()
	return g.Session(ctx, session)
}

// Abort denies the session's later calls.
func (g *Gate) Abort(ctx context.Context, session string) (*toolgate.Session, error) {
	g.mu.Lock()
	g.aborted[session] = true
	g.mu.Unlock()
	return g.Session(ctx, session)
}

// EndTurn implements toolgate.Gate: there is no turn state to clear.
func (g *Gate) EndTurn(ctx context.Context, session string) (*toolgate.Session, error) {
	return g.Session(ctx, session)
}

// Grants implements toolgate.Gate: there are none.
func (g *Gate) Grants(context.Context, toolgate.GrantFilter) ([]*toolgate.Grant, error) {
	return nil, nil
}

// AddGrant implements toolgate.Gate: a rules-only gate keeps no grants;
// write a rule instead.
func (g *Gate) AddGrant(context.Context, toolgate.Grant) (*toolgate.Grant, error) {
	return nil, toolgate.Errorf(toolgate.EInvalid, "a rules-only gate keeps no grants: add a rule to the rules document instead")
}

// RevokeGrant implements toolgate.Gate: there are none.
func (g *Gate) RevokeGrant(context.Context, string) error {
	return toolgate.Errorf(toolgate.ENotFound, "a rules-only gate keeps no grants")
}

// Audit implements toolgate.Gate: nothing is recorded.
func (g *Gate) Audit(context.Context, toolgate.AuditFilter) ([]toolgate.AuditEntry, error) {
	return nil, nil
}
