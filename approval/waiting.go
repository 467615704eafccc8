package approval

import (
	"context"
	"fmt"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/present"
)

// WithWaiting returns the approvals with SessionWaiting filled for each
// pending one: the other calls of its session still waiting. Each session
// costs one bounded read (its oldest pending approvals, enough to show),
// none when the broker's counts show nothing else of it can be pending
// (see alone); how many wait comes from the broker's count of pending
// approvals. The approvals returned are copies; as is unchanged.
func (b *Broker) WithWaiting(ctx context.Context, as []*toolgate.Approval) ([]*toolgate.Approval, error) {
	bySession := map[string][]*toolgate.Approval{}
	for _, a := range as {
		if a.Status != toolgate.StatusPending {
			continue
		}
		s := a.Call.Session
		if _, done := bySession[s]; done {
			continue
		}
		if b.alone(a) {
			bySession[s] = nil
			continue
		}
		// One more than shown: a itself may be among them.
		ps, err := b.store.ListApprovals(ctx, toolgate.ApprovalFilter{Status: toolgate.StatusPending, Session: s, Limit: toolgate.MaxWaitingShown + 1})
		if err != nil {
			return nil, fmt.Errorf("read pending approvals of session %s: %w", s, err)
		}
		bySession[s] = ps
	}
	if len(bySession) == 0 {
		return as, nil
	}
	now := b.now()
	out := make([]*toolgate.Approval, len(as))
	for i, a := range as {
		out[i] = a
		if a.Status != toolgate.StatusPending {
			continue
		}
		w := present.WaitingOf(a, bySession[a.Call.Session], now)
		b.mu.Lock()
		n := b.pending[a.Call.Session] - 1 // the others: a is pending too
		b.mu.Unlock()
		if w == nil && n <= 0 {
			continue
		}
		if w == nil {
			w = &toolgate.Waiting{}
		}
		w.Count = max(w.Count, n)
		c := *a
		c.SessionWaiting = w
		out[i] = &c
	}
	return out, nil
}

// alone reports whether no approval of a's session but a can be pending
// in the store, so that reading them would find none. The broker knows
// only on a store it alone writes (no change feed): there every pending
// approval is tracked (New tracks those stored before, Submit each it
// stores) or counted while Submit stores it, until its resolution is
// stored. So the answer is what a read at this moment would give.
func (b *Broker) alone(a *toolgate.Approval) bool {
	if b.feed != nil {
		return false
	}
	s := a.Call.Session
	b.mu.Lock()
	defer b.mu.Unlock()
	n := b.pending[s] + b.storing[s]
	if b.waiters[a.ID] != nil {
		n-- // a itself
	}
	return n <= 0
}

// WaitingFrom returns the approvals with SessionWaiting filled from
// pending, a list that holds every pending approval (GET
// /v1/approvals?status=pending read in full): no read at all.
func (b *Broker) WaitingFrom(as, pending []*toolgate.Approval) []*toolgate.Approval {
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
	return out
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
