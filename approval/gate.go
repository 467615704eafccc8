package approval

import (
	"context"

	"github.com/toolgate/toolgate"
)

// Gate returns the broker as a toolgate.Gate: the one door through which
// a credential answers, changes or reads approvals, sessions and grants,
// for code that should not care whether the gate is in process or behind
// the HTTP API. It takes the acting credential from the context
// (toolgate.WithActor) and decides what its role may do, the one place
// that does (the HTTP API's routes through it ask only for a credential):
// agents submit, wait, cancel and end turns (of their own sessions);
// approvers also answer and manage sessions; admins also write grants
// and read the audit log. A context without an actor is an in-process
// host: it may submit and read its calls, nothing that changes or answers
// something, so nothing is recorded as done by nobody.
func (b *Broker) Gate() toolgate.Gate { return gateAdapter{b} }

type gateAdapter struct{ b *Broker }

var _ toolgate.Gate = gateAdapter{}

func actor(ctx context.Context) (toolgate.Actor, error) {
	a, ok := toolgate.ActorFrom(ctx)
	if !ok {
		return a, toolgate.Errorf(toolgate.EUnauthorized, "no acting credential: the context carries no toolgate.Actor")
	}
	return a, nil
}

// approver returns the context's actor if it may answer approvals and
// manage sessions: any credential but an agent's. An agent never
// approves its own calls.
func approver(ctx context.Context) (toolgate.Actor, error) {
	a, err := actor(ctx)
	if err == nil && a.Agent {
		err = toolgate.Errorf(toolgate.EForbidden, "%s is an agent credential: only an approver or admin may do this", a.Name)
	}
	return a, err
}

// admin returns the context's actor if it may write grants and read the
// audit log.
func admin(ctx context.Context) (toolgate.Actor, error) {
	a, err := actor(ctx)
	if err == nil && !a.Admin {
		err = toolgate.Errorf(toolgate.EForbidden, "%s is not an admin credential", a.Name)
	}
	return a, err
}

// Evaluate decides a call as the context's actor: an agent credential
// cannot evaluate in a session another credential owns.
func (g gateAdapter) Evaluate(ctx context.Context, c toolgate.Call) (*toolgate.Decision, error) {
	by, _ := toolgate.ActorFrom(ctx)
	d, err := g.b.evaluateAs(ctx, c, by)
	if err != nil {
		return nil, err
	}
	return &d, nil
}

// Submit submits as the context's actor, so an agent credential opens (and
// may submit only into) its own sessions; without one it is an in-process
// host, which acts on every session.
func (g gateAdapter) Submit(ctx context.Context, req toolgate.SubmitRequest) (*toolgate.Result, error) {
	if by, ok := toolgate.ActorFrom(ctx); ok {
		req.By = by
	}
	return g.b.Submit(ctx, req)
}

func (g gateAdapter) Wait(ctx context.Context, id string) (*toolgate.Approval, error) {
	if _, err := g.Approval(ctx, id); err != nil {
		return nil, err
	}
	return g.b.Wait(ctx, id)
}

// Approval returns an approval; an agent credential gets only those of its
// own sessions (others are not found).
func (g gateAdapter) Approval(ctx context.Context, id string) (*toolgate.Approval, error) {
	by, _ := toolgate.ActorFrom(ctx)
	return g.b.getAs(ctx, id, by)
}

func (g gateAdapter) Approvals(ctx context.Context, f toolgate.ApprovalFilter) ([]*toolgate.Approval, error) {
	if _, err := approver(ctx); err != nil {
		return nil, err
	}
	return g.b.List(ctx, f)
}

func (g gateAdapter) Approve(ctx context.Context, id string, req toolgate.ApproveRequest) (*toolgate.Approval, error) {
	by, err := approver(ctx)
	if err != nil {
		return nil, err
	}
	return g.b.approve(ctx, id, req, by)
}

func (g gateAdapter) Deny(ctx context.Context, id string, req toolgate.DenyRequest) (*toolgate.Approval, error) {
	by, err := approver(ctx)
	if err != nil {
		return nil, err
	}
	return g.b.deny(ctx, id, req, by)
}

func (g gateAdapter) Cancel(ctx context.Context, id, reason string) (*toolgate.Approval, error) {
	by, err := actor(ctx)
	if err != nil {
		return nil, err
	}
	return g.b.cancel(ctx, id, reason, by)
}

func (g gateAdapter) Session(ctx context.Context, id string) (*toolgate.Session, error) {
	if _, err := approver(ctx); err != nil {
		return nil, err
	}
	return g.b.Session(ctx, id)
}

func (g gateAdapter) Sessions(ctx context.Context, f toolgate.SessionFilter) ([]*toolgate.Session, error) {
	if _, err := approver(ctx); err != nil {
		return nil, err
	}
	return g.b.Sessions(ctx, f)
}

func (g gateAdapter) SetMode(ctx context.Context, session string, m toolgate.Mode) (*toolgate.Session, error) {
	by, err := approver(ctx)
	if err != nil {
		return nil, err
	}
	return g.b.setMode(ctx, session, m, by)
}

func (g gateAdapter) Abort(ctx context.Context, session string) (*toolgate.Session, error) {
	by, err := approver(ctx)
	if err != nil {
		return nil, err
	}
	return g.b.abort(ctx, session, by)
}

func (g gateAdapter) EndTurn(ctx context.Context, session string) (*toolgate.Session, error) {
	by, err := actor(ctx)
	if err != nil {
		return nil, err
	}
	return g.b.endTurn(ctx, session, by)
}

func (g gateAdapter) Grants(ctx context.Context, f toolgate.GrantFilter) ([]*toolgate.Grant, error) {
	if _, err := approver(ctx); err != nil {
		return nil, err
	}
	return g.b.Grants(ctx, f)
}

func (g gateAdapter) AddGrant(ctx context.Context, gr toolgate.Grant) (*toolgate.Grant, error) {
	by, err := admin(ctx)
	if err != nil {
		return nil, err
	}
	return g.b.addGrant(ctx, gr, by)
}

func (g gateAdapter) RevokeGrant(ctx context.Context, id string) error {
	by, err := admin(ctx)
	if err != nil {
		return err
	}
	return g.b.revokeGrant(ctx, id, by)
}

func (g gateAdapter) Audit(ctx context.Context, f toolgate.AuditFilter) ([]toolgate.AuditEntry, error) {
	if _, err := admin(ctx); err != nil {
		return nil, err
	}
	return g.b.Audit(ctx, f)
}
