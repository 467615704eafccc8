package approval

import (
	"container/heap"
	"context"
	"time"

	"github.com/toolgate/toolgate"
)

// waiter is the in-memory side of a pending approval: what its waiters
// block on and when it expires. It holds no part of the approval but its
// id and session, so a pending approval costs little memory here; the
// store has the rest.
type waiter struct {
	id, session string
	expires     int64 // unix nanoseconds
	// done is made by the first Wait and closed when the approval is
	// resolved; nil while nobody waits.
	done chan struct{}
	// final is the approval as resolved, set before done is closed when
	// the broker resolved it itself (nil when it heard of it from the
	// feed): a waiter returns it without reading the store again.
	final *toolgate.Approval
	// at is the waiter's index in the broker's expiry heap, -1 once it
	// left it (its timer fired, or it was released).
	at int
}

// expiries is a min-heap of waiters by expiry: one timer, armed for the
// first, expires them all (container/heap's interface).
type expiries []*waiter

func (h expiries) Len() int           { return len(h) }
func (h expiries) Less(i, j int) bool { return h[i].expires < h[j].expires }
func (h expiries) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].at, h[j].at = i, j
}
func (h *expiries) Push(x any) {
	w := x.(*waiter)
	w.at = len(*h)
	*h = append(*h, w)
}
func (h *expiries) Pop() any {
	old := *h
	w := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	w.at = -1
	return w
}

// track arms the in-memory side of a pending approval.
func (b *Broker) track(a *toolgate.Approval) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.trackLocked(a)
}

// beginStoring counts an approval of session that Submit is about to
// store; endStoring ends the count and tracks a, the approval stored (nil
// if none was), in one step, so that from the moment it may be in the
// store until it is resolved it is always counted.
func (b *Broker) beginStoring(session string) {
	b.mu.Lock()
	b.storing[session]++
	b.mu.Unlock()
}

func (b *Broker) endStoring(session string, a *toolgate.Approval) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if a != nil {
		if _, answered := b.answered[a.ID]; answered {
			delete(b.answered, a.ID)
		} else {
			b.trackLocked(a)
		}
	}
	if b.storing[session]--; b.storing[session] <= 0 {
		delete(b.storing, session)
	}
	if len(b.storing) == 0 {
		clear(b.answered)
	}
}

func (b *Broker) trackLocked(a *toolgate.Approval) {
	if b.closed || b.waiters[a.ID] != nil {
		return
	}
	w := &waiter{id: a.ID, session: a.Call.Session, expires: a.ExpiresAt.UnixNano()}
	b.pending[w.session]++
	b.waiters[w.id] = w
	heap.Push(&b.expiries, w)
	if w.at == 0 {
		b.armLocked()
	}
}

// armLocked sets the expiry timer for the first approval to expire.
func (b *Broker) armLocked() {
	if b.closed || len(b.expiries) == 0 {
		return
	}
	d := max(time.Duration(b.expiries[0].expires-b.now().UnixNano()), 0)
	if b.timer == nil {
		b.timer = time.AfterFunc(d, b.expireDue)
	} else {
		b.timer.Reset(d)
	}
}

// expireDue is the expiry timer: it expires every approval whose time is
// up on the broker's clock (exact on the real clock; re-armed if an
// injected clock has not reached the first expiry yet). An approval whose
// expiry fails to be stored leaves the heap; the reaper's sweep expires
// it later, as it does any the timer missed.
func (b *Broker) expireDue() {
	b.mu.Lock()
	now := b.now().UnixNano()
	var due []string
	for len(b.expiries) > 0 && b.expiries[0].expires <= now {
		due = append(due, heap.Pop(&b.expiries).(*waiter).id)
	}
	b.armLocked()
	b.mu.Unlock()
	if len(due) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, id := range due {
		if _, err := b.expire(ctx, id); err != nil && toolgate.ErrorCodeOf(err) != toolgate.EConflict {
			b.log.Error("expire approval", "id", id, "err", err)
		}
	}
}

// waiterOf returns the waiter of approval id, its done channel made, or
// nil if the approval is not tracked here.
func (b *Broker) waiterOf(id string) *waiter {
	b.mu.Lock()
	defer b.mu.Unlock()
	w := b.waiters[id]
	if w != nil && w.done == nil {
		w.done = make(chan struct{})
	}
	return w
}

// release wakes an approval's waiters and drops its expiry.
func (b *Broker) release(id, session string) { b.releaseWith(id, session, nil) }

// releaseWith is release handing the waiters the approval as resolved.
func (b *Broker) releaseWith(id, session string, final *toolgate.Approval) {
	b.mu.Lock()
	w := b.waiters[id]
	if w == nil {
		if b.storing[session] > 0 {
			// Perhaps answered before Submit tracked it: see answered.
			b.answered[id] = struct{}{}
		}
		b.mu.Unlock()
		return
	}
	delete(b.waiters, id)
	if b.pending[w.session]--; b.pending[w.session] <= 0 {
		delete(b.pending, w.session)
	}
	if w.at >= 0 {
		first := w.at == 0
		heap.Remove(&b.expiries, w.at)
		if first {
			b.armLocked()
		}
	}
	done := w.done
	w.final = final
	b.mu.Unlock()
	if done != nil {
		close(done)
	}
}
