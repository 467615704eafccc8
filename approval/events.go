package approval

import (
	"context"
	"errors"
	"sort"
	"sync"

	"github.com/toolgate/toolgate"
)

// ringSize is how many recent events the hub keeps for subscribers that
// resume after a sequence number.
const ringSize = 4096

// subscriberBuffer is how many events a subscriber may fall behind before
// it is dropped; a dropped subscriber reconnects and resumes by sequence.
const subscriberBuffer = 1024

// hub orders events and fans them out to subscribers.
type hub struct {
	mu  sync.Mutex
	seq int64
	// ring holds the last ringSize events in a circular buffer: the oldest
	// is ring[head] once it is full (len(ring) == ringSize), ring[0] until then.
	ring []toolgate.Event
	head int
	subs map[*Subscription]struct{}
	// pending mirrors the approvals still pending, kept under the same
	// lock as publishing so a new subscriber's replay and the live stream
	// neither miss nor repeat a resolution.
	pending map[string]pendingEntry
	order   int64 // orders pending approvals by when the hub learnt of them
}

type pendingEntry struct {
	order int64
	a     *toolgate.Approval
}

// newHub returns a hub whose sequence continues after startSeq, knowing the
// approvals still pending (oldest first).
func newHub(startSeq int64, pending []*toolgate.Approval) *hub {
	h := &hub{seq: startSeq, subs: map[*Subscription]struct{}{}, pending: map[string]pendingEntry{}}
	for _, a := range pending {
		h.order++
		h.pending[a.ID] = pendingEntry{h.order, a}
	}
	return h
}

// ErrDropped is Subscription.Err after the subscriber fell too far behind
// and the hub ended its subscription: subscribe again with AfterSeq set to
// the last Seq seen to resume.
var ErrDropped = errors.New("approval: event subscriber fell behind and was dropped")

// Subscription is a live view of the event stream.
type Subscription struct {
	ch     chan toolgate.Event
	filter EventFilter
	once   sync.Once
	hub    *hub
	// stop unregisters the context callback that closes the subscription.
	stop func() bool
	// dropped is set, under hub.mu, when the subscriber fell too far behind.
	dropped bool
}

// Events returns the subscription's events. The channel is closed when the
// subscription ends: its context was cancelled, it was closed, the broker
// closed, or the subscriber fell behind (Err tells which; resume with
// AfterSeq set to the last Seq seen).
func (s *Subscription) Events() <-chan toolgate.Event { return s.ch }

// Err tells why the subscription ended: ErrDropped if the subscriber fell
// too far behind (it should subscribe again and resume by sequence), nil
// if it was closed, its context ended or the broker closed, and nil while
// it is still open.
func (s *Subscription) Err() error {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	if s.dropped {
		return ErrDropped
	}
	return nil
}

// Close ends the subscription.
func (s *Subscription) Close() {
	s.hub.mu.Lock()
	s.closeLocked()
	s.hub.mu.Unlock()
}

func (s *Subscription) closeLocked() {
	s.once.Do(func() {
		delete(s.hub.subs, s)
		close(s.ch)
		if s.stop != nil {
			s.stop() // nothing is left waiting on the context
		}
	})
}

// publish assigns the next sequence number and delivers the event.
func (h *hub) publish(e toolgate.Event) toolgate.Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.seq++
	e.Seq = h.seq
	if len(h.ring) < ringSize {
		h.ring = append(h.ring, e)
	} else {
		h.ring[h.head] = e
		h.head = (h.head + 1) % ringSize
	}
	if e.Approval != nil {
		if e.Approval.Status == toolgate.StatusPending {
			h.order++
			h.pending[e.Approval.ID] = pendingEntry{h.order, e.Approval}
		} else {
			delete(h.pending, e.Approval.ID)
		}
	}
	for s := range h.subs {
		if !s.filter.Match(&e) {
			continue
		}
		select {
		case s.ch <- e:
		default:
			s.dropped = true
			s.closeLocked()
		}
	}
	return e
}

// publishAt delivers an event from a shared store's feed, with the
// sequence number the feed gave it.
func (h *hub) publishAt(e toolgate.Event) {
	h.mu.Lock()
	if e.Seq > h.seq {
		h.seq = e.Seq - 1
	}
	h.mu.Unlock()
	h.publish(e)
}

// subscribe registers a subscriber and queues, in order, the recent events
// after f.AfterSeq and then replay events for the approvals still pending
// (those not already among the resent events), oldest first.
func (h *hub) subscribe(ctx context.Context, f EventFilter) *Subscription {
	h.mu.Lock()
	entries := make([]pendingEntry, 0, len(h.pending))
	for _, p := range h.pending {
		entries = append(entries, p)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].order < entries[j].order })
	pending := make([]*toolgate.Approval, len(entries))
	for i, p := range entries {
		pending[i] = p.a
	}
	s := &Subscription{ch: make(chan toolgate.Event, subscriberBuffer+len(pending)), filter: f, hub: h}
	resent := map[string]bool{}
	if f.AfterSeq > 0 {
		for i := range h.ring {
			e := h.ring[(h.head+i)%len(h.ring)]
			if e.Seq > f.AfterSeq && f.Match(&e) {
				s.ch <- e
				if e.Approval != nil {
					resent[e.Approval.ID] = true
				}
				if len(s.ch) == cap(s.ch)-len(pending) {
					break
				}
			}
		}
	}
	for _, a := range pending {
		if resent[a.ID] {
			continue
		}
		e := toolgate.Event{
			Seq: h.seq, Type: toolgate.EventApprovalRequested, Time: a.CreatedAt,
			Session: a.Call.Session, Workspace: a.Call.Workspace, Approval: a, Replay: true,
		}
		if f.Match(&e) {
			s.ch <- e
		}
	}
	h.subs[s] = struct{}{}
	// Registered under the lock, so closeLocked sees stop once it is set;
	// if ctx is already done the callback runs at once, after the lock is
	// released.
	s.stop = context.AfterFunc(ctx, s.Close)
	h.mu.Unlock()
	return s
}

// closeAll ends every subscription.
func (h *hub) closeAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		s.closeLocked()
	}
}
