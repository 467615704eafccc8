package gatetest

import (
	"context"

	"github.com/toolgate/toolgate"
)

// As returns g acting as a: every call's context carries a, as the HTTP
// server's contexts carry the caller's credential. It lets one in-process
// gate stand for the agent, approver and admin clients of a test.
func As(g toolgate.Gate, a toolgate.Actor) toolgate.Gate { return asActor{g, a} }

type asActor struct {
	g toolgate.Gate
	a toolgate.Actor
}

func (x asActor) Evaluate(ctx context.Context, c toolgate.Call) (*toolgate.Decision, error) {
	return x.g.Evaluate(toolgate.WithActor(ctx, x.a), c)
}

func (x asActor) Submit(ctx context.Context, req toolgate.SubmitRequest) (*toolgate.Result, error) {
	return x.g.Submit(toolgate.WithActor(ctx, x.a), req)
}

func (x asActor) Wait(ctx context.Context, id string) (*toolgate.Approval, error) {
	return x.g.Wait(toolgate.WithActor(ctx, x.a), id)
}

func (x asActor) Approval(ctx context.Context, id string) (*toolgate.Approval, error) {
	return x.g.Approval(toolgate.WithActor(ctx, x.a), id)
}

func (x asActor) Approvals(ctx context.Context, f toolgate.ApprovalFilter) ([]*toolgate.Approval, error) {
	return x.g.Approvals(toolgate.WithActor(ctx, x.a), f)
}

func (x asActor) Approve(ctx context.Context, id string, req toolgate.ApproveRequest) (*toolgate.Approval, error) {
	return x.g.Approve(toolgate.WithActor(ctx, x.a), id, req)
}

func (x asActor) Deny(ctx context.Context, id string, req toolgate.DenyRequest) (*toolgate.Approval, error) {
	return x.g.Deny(toolgate.WithActor(ctx, x.a), id, req)
}

func (x asActor) Cancel(ctx context.Context, id, reason string) (*toolgate.Approval, error) {
	return x.g.Cancel(toolgate.WithActor(ctx, x.a), id, reason)
}

func (x asActor) Session(ctx context.Context, id string) (*toolgate.Session, error) {
	return x.g.Session(toolgate.WithActor(ctx, x.a), id)
}

func (x asActor) Sessions(ctx context.Context, f toolgate.SessionFilter) ([]*toolgate.Session, error) {
	return x.g.Sessions(toolgate.WithActor(ctx, x.a), f)
}

func (x asActor) SetMode(ctx context.Context, session string, m toolgate.Mode) (*toolgate.Session, error) {
	return x.g.SetMode(toolgate.WithActor(ctx, x.a), session, m)
}

func (x asActor) Abort(ctx context.Context, session string) (*toolgate.Session, error) {
	return x.g.Abort(toolgate.WithActor(ctx, x.a), session)
}

func (x asActor) EndTurn(ctx context.Context, session string) (*toolgate.Session, error) {
	return x.g.EndTurn(toolgate.WithActor(ctx, x.a), session)
}

func (x asActor) Grants(ctx context.Context, f toolgate.GrantFilter) ([]*toolgate.Grant, error) {
	return x.g.Grants(toolgate.WithActor(ctx, x.a), f)
}

func (x asActor) AddGrant(ctx context.Context, grant toolgate.Grant) (*toolgate.Grant, error) {
	return x.g.AddGrant(toolgate.WithActor(ctx, x.a), grant)
}

func (x asActor) RevokeGrant(ctx context.Context, id string) error {
	return x.g.RevokeGrant(toolgate.WithActor(ctx, x.a), id)
}

func (x asActor) Audit(ctx context.Context, f toolgate.AuditFilter) ([]toolgate.AuditEntry, error) {
	return x.g.Audit(toolgate.WithActor(ctx, x.a), f)
}
