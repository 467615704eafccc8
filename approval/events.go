package approval

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
)

// ringSize is how many recent events the hub keeps for subscribers that
// resume after a sequence number.
const ringSize = 4096

// subscriberBuffer is how many events a subscriber may fall behind before
// it is dropped; a dropped subscriber reconnects and resumes by sequence.
const subscriberBuffer = 1024

// approvalReader is what the hub reads approvals back from: the store.
type approvalReader interface {
	GetApproval(ctx context.Context, id string) (*toolgate.Approval, error)
	ListApprovals(ctx context.Context, f store.ApprovalFilter) ([]*toolgate.Approval, error)
}

// hub orders events and fans them out to subscribers.
//
// It keeps no approvals: what it needs to replay them is their ids (the
// store has every approval, pending or resolved, and an approval changes
// once, from pending to its final status), so a pending approval costs
// the hub one map entry, and the ring of recent events holds no calls.
type hub struct {
	mu  sync.Mutex
	seq int64
	// ring holds the last ringSize events in a circular buffer: the oldest
	// is ring[head] once it is full (len(ring) == ringSize), ring[0] until then.
	ring []ringEvent
	head int
	subs map[*Subscription]struct{}
	// pending names the approvals still pending, kept under the same
	// lock as publishing so a new subscriber's replay and the live stream
	// neither miss nor repeat a resolution.
	pending map[string]pendingRef
	order   int64 // orders pending approvals by when the hub learnt of them
	// store reads back the approvals a subscriber is sent again.
	store approvalReader
}

// pendingRef is what the hub keeps of a pending approval: when it learnt
// of it, and what a filter matches on.
type pendingRef struct {
	order              int64
	session, workspace string
}

// ringEvent is an event as the ring keeps it: without its approval, read
// back from the store by id when the event is sent again.
type ringEvent struct {
	e        toolgate.Event // Approval nil
	approval string         // the approval's id, "" if the event has none
}

// newHub returns a hub whose sequence continues after startSeq, knowing the
// approvals still pending (oldest first); st reads approvals back.
func newHub(startSeq int64, pending []*toolgate.Approval, st approvalReader) *hub {
	h := &hub{seq: startSeq, subs: map[*Subscription]struct{}{}, pending: map[string]pendingRef{}, store: st}
	for _, a := range pending {
		h.order++
		h.pending[a.ID] = pendingRef{h.order, a.Call.Session, a.Call.Workspace}
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
	filter toolgate.EventFilter
	once   sync.Once
	hub    *hub
	// stop unregisters the context callback that closes the subscription.
	stop func() bool
	// The fields below are guarded by hub.mu.
	//
	// dropped is set when the subscriber fell too far behind, err when
	// its replay could not be read; closed once it is closed.
	dropped bool
	err     error
	closed  bool
	// loading is set while the approvals to send again are read from
	// the store; live events wait in backlog meanwhile, so they follow
	// the replay in order.
	loading bool
	backlog []toolgate.Event
}

// Events returns the subscription's events. The channel is closed when the
// subscription ends: its context was cancelled, it was closed, the broker
// closed, or the subscriber fell behind (Err tells which; resume with
// AfterSeq set to the last Seq seen).
func (s *Subscription) Events() <-chan toolgate.Event { return s.ch }

// Err tells why the subscription ended: ErrDropped if the subscriber fell
// too far behind or the approvals to send it again could not be read (it
// should subscribe again and resume by sequence), nil if it was closed,
// its context ended or the broker closed, and nil while it is still open.
func (s *Subscription) Err() error {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	if s.err != nil {
		return s.err
	}
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
		s.closed = true
		s.backlog = nil
		delete(s.hub.subs, s)
		close(s.ch)
		if s.stop != nil {
			s.stop() // nothing is left waiting on the context
		}
	})
}

// sendLocked delivers a live event, or drops a subscriber with no room
// left for it.
func (s *Subscription) sendLocked(e toolgate.Event) {
	if s.loading {
		if len(s.backlog) < subscriberBuffer {
			s.backlog = append(s.backlog, e)
			return
		}
	} else {
		select {
		case s.ch <- e:
			return
		default:
		}
	}
	s.dropped = true
	s.closeLocked()
}

// publish assigns the next sequence number and delivers the event.
func (h *hub) publish(e toolgate.Event) toolgate.Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.seq++
	e.Seq = h.seq
	re := ringEvent{e: e}
	re.e.Approval = nil
	if e.Approval != nil {
		re.approval = e.Approval.ID
	}
	if len(h.ring) < ringSize {
		h.ring = append(h.ring, re)
	} else {
		h.ring[h.head] = re
		h.head = (h.head + 1) % ringSize
	}
	if a := e.Approval; a != nil {
		if a.Status == toolgate.StatusPending {
			h.order++
			h.pending[a.ID] = pendingRef{h.order, a.Call.Session, a.Call.Workspace}
		} else {
			delete(h.pending, a.ID)
		}
	}
	for s := range h.subs {
		if s.filter.Match(&e) {
			s.sendLocked(e)
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

// pendingID is a pending approval a subscriber is sent again.
type pendingID struct {
	id    string
	order int64
}

// subscribe registers a subscriber and queues, in order, the recent events
// after f.AfterSeq and then replay events for the approvals still pending
// (those not already among the resent events), oldest first. The
// approvals are read back from the store, outside the hub's lock; live
// events published meanwhile are held back until the replay is queued.
func (h *hub) subscribe(ctx context.Context, f toolgate.EventFilter) *Subscription {
	h.mu.Lock()
	var recent []ringEvent
	resent := map[string]bool{}
	if f.AfterSeq > 0 {
		for i := range h.ring {
			re := h.ring[(h.head+i)%len(h.ring)]
			if re.e.Seq > f.AfterSeq && f.Match(&re.e) {
				recent = append(recent, re)
				if re.approval != "" {
					resent[re.approval] = true
				}
				if len(recent) == subscriberBuffer {
					break
				}
			}
		}
	}
	var pending []pendingID
	for id, p := range h.pending {
		if !resent[id] && (f.Session == "" || p.session == f.Session) && (f.Workspace == "" || p.workspace == f.Workspace) {
			pending = append(pending, pendingID{id, p.order})
		}
	}
	sort.Slice(pending, func(i, j int) bool { return pending[i].order < pending[j].order })
	s := &Subscription{
		ch: make(chan toolgate.Event, subscriberBuffer+len(pending)), filter: f, hub: h,
		loading: len(recent) > 0 || len(pending) > 0,
	}
	seq := h.seq
	h.subs[s] = struct{}{}
	// Registered under the lock, so closeLocked sees stop once it is set;
	// if ctx is already done the callback runs at once, after the lock is
	// released.
	s.stop = context.AfterFunc(ctx, s.Close)
	h.mu.Unlock()
	if !s.loading {
		return s
	}

	replay, err := h.replay(ctx, f, recent, pending, seq)
	h.mu.Lock()
	defer h.mu.Unlock()
	s.loading = false
	if s.closed {
		return s
	}
	if err != nil {
		if ctx.Err() == nil {
			s.err = fmt.Errorf("%w: read the approvals to send again: %w", ErrDropped, err)
		}
		s.closeLocked()
		return s
	}
	backlog := s.backlog
	s.backlog = nil
	for _, e := range replay {
		s.ch <- e // room was made for all of them
	}
	for _, e := range backlog {
		if s.sendLocked(e); s.closed {
			break
		}
	}
	return s
}

// replay builds the events a new subscriber is sent again: the recent
// events with their approvals read back from the store, then one replay
// event per pending approval, carrying seq (the last sequence number
// before the subscription). An approval answered since the subscription
// began is shown as it was, pending: its resolution is in the backlog.
func (h *hub) replay(ctx context.Context, f toolgate.EventFilter, recent []ringEvent, pending []pendingID, seq int64) ([]toolgate.Event, error) {
	out := make([]toolgate.Event, 0, len(recent)+len(pending))
	read := map[string]*toolgate.Approval{}
	get := func(id string) (*toolgate.Approval, error) {
		if a, ok := read[id]; ok {
			return a, nil
		}
		a, err := h.store.GetApproval(ctx, id)
		if err != nil {
			return nil, err
		}
		read[id] = a
		return a, nil
	}
	for _, re := range recent {
		e := re.e
		if re.approval != "" {
			a, err := get(re.approval)
			if toolgate.ErrorCodeOf(err) == toolgate.ENotFound {
				continue // never stored: nothing to show
			}
			if err != nil {
				return nil, err
			}
			if e.Type == toolgate.EventApprovalRequested {
				a = asRequested(a)
			}
			e.Approval = a
		}
		out = append(out, e)
	}
	if len(pending) > pendingReadOneByOne {
		// Many: one query for those still pending; any answered since
		// are read one by one below.
		list, err := h.store.ListApprovals(ctx, store.ApprovalFilter{Status: toolgate.StatusPending, Session: f.Session, Workspace: f.Workspace})
		if err != nil {
			return nil, err
		}
		for _, a := range list {
			read[a.ID] = a
		}
	}
	for _, p := range pending {
		a, err := get(p.id)
		if toolgate.ErrorCodeOf(err) == toolgate.ENotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, toolgate.Event{
			Seq: seq, Type: toolgate.EventApprovalRequested, Time: a.CreatedAt,
			Session: a.Call.Session, Workspace: a.Call.Workspace, Approval: asRequested(a), Replay: true,
		})
	}
	return out, nil
}

// pendingReadOneByOne is how many pending approvals a replay reads by id;
// more are listed with one query.
const pendingReadOneByOne = 16

// asRequested returns an approval as it was when it was requested: a
// copy, pending, if it has been answered since.
func asRequested(a *toolgate.Approval) *toolgate.Approval {
	if a.Status == toolgate.StatusPending {
		return a
	}
	c := *a
	c.Status, c.Resolution = toolgate.StatusPending, nil
	return &c
}

// closeAll ends every subscription.
func (h *hub) closeAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		s.closeLocked()
	}
}
