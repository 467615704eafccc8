package approval

import (
	"context"
	"fmt"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/present"
)

// perSessionReads is how many sessions WithWaiting reads one by one
// before it reads every pending approval at once instead.
const perSessionReads = 4

// WithWaiting returns the approvals with SessionWaiting filled for each
// pending one: the other calls of its session still waiting, as the store
// holds them now. The approvals returned are copies; as is unchanged.
func (b *Broker) WithWaiting(ctx context.Context, as []*toolgate.Approval) ([]*toolgate.Approval, error) {
	sessions := map[string]bool{}
	for _, a := range as {
		if a.Status == toolgate.StatusPending {
			sessions[a.Call.Session] = true
		}
	}
	if len(sessions) == 0 {
		return as, nil
	}
	var pending []*toolgate.Approval
	if len(sessions) > perSessionReads {
		all, err := b.store.ListApprovals(ctx, toolgate.ApprovalFilter{Status: toolgate.StatusPending})
		if err != nil {
			return nil, fmt.Errorf("read pending approvals: %w", err)
		}
		pending = all
	} else {
		for s := range sessions {
			ps, err := b.store.ListApprovals(ctx, toolgate.ApprovalFilter{Status: toolgate.StatusPending, Session: s})
			if err != nil {
				return nil, fmt.Errorf("read pending approvals of session %s: %w", s, err)
			}
			pending = append(pending, ps...)
		}
	}
	bySession := map[string][]*toolgate.Approval{}
	for _, p := range pending {
		bySession[p.Call.Session] = append(bySession[p.Call.Session], p)
	}
	now := b.now()
	out := make([]*toolgate.Approval, len(as))
	for i, a := range as {
		out[i] = a
		if w := present.WaitingOf(a, bySession[a.Call.Session], now); w != nil {
			c := *a
			c.SessionWaiting = w
			out[i] = &c
		}
	}
	return out, nil
}

// announced is a new approval as its approval.requested event carries it:
// with the other calls of its session that wait, when they can be read
// (the event goes out either way: context is a help, not a condition).
func (b *Broker) announced(ctx context.Context, a *toolgate.Approval) *toolgate.Approval {
	as, err := b.WithWaiting(ctx, []*toolgate.Approval{a})
	if err != nil {
		b.log.Warn("batch context for the approval event", "approval", a.ID, "err", err)
		return a
	}
	return as[0]
}
