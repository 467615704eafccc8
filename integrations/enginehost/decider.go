package enginehost

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
)

// Decider decides the calls the host sees: a gateway, whose approvers
// answer what the rules ask about, or the rules alone.
type Decider interface {
	// Decide decides a call. A result whose approval is still pending is
	// waiting for a human: Wait for it.
	Decide(ctx context.Context, req toolgate.SubmitRequest) (*toolgate.Result, error)
	// Wait blocks until a pending approval is resolved or ctx ends.
	Wait(ctx context.Context, a *toolgate.Approval) (*toolgate.Approval, error)
	// Cancel withdraws an approval nobody waits for any more, saying why.
	Cancel(ctx context.Context, id, reason string) error
	// SetMode changes the session's mode.
	SetMode(ctx context.Context, session string, m toolgate.Mode) error
}

// Local decides by rules only, with no human to ask: a call the rules
// would ask about is denied, with the rules' reason and a word on why.
type Local struct {
	engine *policy.Engine
	agent  *policy.Ruleset

	mu   sync.Mutex
	mode toolgate.Mode
}

// NoGatewayReason starts the reason of a call denied because it needs a
// human and the host has no gateway to ask.
const NoGatewayReason = "needs approval, and toolgate host has no gateway to ask (start it with --server URL or $TOOLGATE_URL)"

// NewLocal returns a decider over a compiled policy, starting in mode m;
// agent is an optional agent layer.
func NewLocal(e *policy.Engine, agent *policy.Ruleset, m toolgate.Mode) *Local {
	return &Local{engine: e, agent: agent, mode: m}
}

// Decide implements Decider. It never leaves an approval pending.
func (l *Local) Decide(_ context.Context, req toolgate.SubmitRequest) (*toolgate.Result, error) {
	d := l.Evaluate(req.Call)
	if d.Action == toolgate.Ask {
		d.Action = toolgate.Deny
		d.Reason = NoGatewayReason + ": " + d.Reason
	}
	return &toolgate.Result{Decision: d}, nil
}

// IsQuestionTool reports whether the rules know tool as a question tool.
func (l *Local) IsQuestionTool(tool string) bool { return l.engine.IsQuestionTool(tool) }

// errNoApprovals is returned by Local's Wait and Cancel: it holds none.
var errNoApprovals = errors.New("local decisions hold no approvals")

// Wait implements Decider; Local holds no approvals.
func (l *Local) Wait(context.Context, *toolgate.Approval) (*toolgate.Approval, error) {
	return nil, errNoApprovals
}

// Cancel implements Decider; Local holds no approvals.
func (l *Local) Cancel(context.Context, string, string) error { return errNoApprovals }

// SetMode implements Decider.
func (l *Local) SetMode(_ context.Context, _ string, m toolgate.Mode) error {
	l.mu.Lock()
	l.mode = m
	l.mu.Unlock()
	return nil
}

// Mode returns the current mode.
func (l *Local) Mode() toolgate.Mode {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.mode
}

// Gateway decides through a gate: the HTTP client of a running gateway
// (calls are submitted as its token, an agent credential) or a broker in
// the same process; what the rules ask about goes to the gateway's
// approvers (web UI, API, TUI, phone).
type Gateway struct {
	Gate toolgate.Gate
	// Actor names the host to an in-process gate; zero is the agent
	// credential "engine" via "engine", so an engine may no more raise its
	// own mode in process than over HTTP. The HTTP client acts as its
	// token whatever this says.
	Actor toolgate.Actor
	// Retry is the pause between attempts when the gateway cannot be
	// reached while a call waits (default 1 s).
	Retry time.Duration
}

func (g *Gateway) ctx(ctx context.Context) context.Context {
	a := g.Actor
	if a.Name == "" {
		a = toolgate.Actor{Name: "engine", Via: "engine", Agent: true}
	}
	return toolgate.WithActor(ctx, a)
}

// Decide implements Decider.
func (g *Gateway) Decide(ctx context.Context, req toolgate.SubmitRequest) (*toolgate.Result, error) {
	return g.Gate.Submit(g.ctx(ctx), req)
}

// Wait implements Decider: it long-polls the approval, riding out
// transient errors until ctx ends.
func (g *Gateway) Wait(ctx context.Context, a *toolgate.Approval) (*toolgate.Approval, error) {
	retry := g.Retry
	if retry <= 0 {
		retry = time.Second
	}
	for {
		got, err := g.Gate.Wait(g.ctx(ctx), a.ID)
		if err == nil {
			return got, nil
		}
		switch toolgate.ErrorCodeOf(err) {
		case toolgate.ENotFound, toolgate.EUnauthorized, toolgate.EForbidden, toolgate.EInvalid:
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(retry):
		}
	}
}

// Cancel implements Decider.
func (g *Gateway) Cancel(ctx context.Context, id, reason string) error {
	_, err := g.Gate.Cancel(g.ctx(ctx), id, reason)
	return err
}

// SetMode implements Decider. The gateway lets approver and admin tokens
// change a session's mode; an agent token is refused, so an agent cannot
// raise its own autonomy.
func (g *Gateway) SetMode(ctx context.Context, session string, m toolgate.Mode) error {
	_, err := g.Gate.SetMode(g.ctx(ctx), session, m)
	return err
}
