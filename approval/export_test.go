package approval

import (
	"context"

	"github.com/toolgate/toolgate"
)

// The broker's own tests drive the decisions behind the Gate directly,
// with the actor as an argument and without the Gate's role checks (the
// Gate's are tested by internal/gatetest through every surface). These
// names exist only in the package's test build.

func (b *Broker) EvaluateAs(ctx context.Context, c toolgate.Call, by toolgate.Actor) (toolgate.Decision, error) {
	return b.evaluateAs(ctx, c, by)
}

func (b *Broker) GetAs(ctx context.Context, id string, by toolgate.Actor) (*toolgate.Approval, error) {
	return b.getAs(ctx, id, by)
}

func (b *Broker) Approve(ctx context.Context, id string, req toolgate.ApproveRequest, by toolgate.Actor) (*toolgate.Approval, error) {
	return b.approve(ctx, id, req, by)
}

func (b *Broker) Deny(ctx context.Context, id string, req toolgate.DenyRequest, by toolgate.Actor) (*toolgate.Approval, error) {
	return b.deny(ctx, id, req, by)
}

func (b *Broker) Cancel(ctx context.Context, id, reason string, by toolgate.Actor) (*toolgate.Approval, error) {
	return b.cancel(ctx, id, reason, by)
}

func (b *Broker) SetMode(ctx context.Context, session string, m toolgate.Mode, by toolgate.Actor) (*toolgate.Session, error) {
	return b.setMode(ctx, session, m, by)
}

func (b *Broker) Abort(ctx context.Context, session string, by toolgate.Actor) (*toolgate.Session, error) {
	return b.abort(ctx, session, by)
}

func (b *Broker) EndTurn(ctx context.Context, session string, by toolgate.Actor) (*toolgate.Session, error) {
	return b.endTurn(ctx, session, by)
}

func (b *Broker) AddGrant(ctx context.Context, g toolgate.Grant, by toolgate.Actor) (*toolgate.Grant, error) {
	return b.addGrant(ctx, g, by)
}

func (b *Broker) RevokeGrant(ctx context.Context, id string, by toolgate.Actor) error {
	return b.revokeGrant(ctx, id, by)
}
