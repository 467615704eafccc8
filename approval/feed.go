package approval

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
)

// RulesChanged is the audit kind of a change to a workspace's rules
// document.
const RulesChanged = string(toolgate.EventRulesChanged)

// feedBatch is how many audit entries one catch-up read returns.
const feedBatch = 1000

// feed applies a shared store's change feed (store.Feed) to this broker:
// when several nodes share the store, every write any node makes reaches
// every node as an audit entry, in one order. Applying an entry wakes the
// waiters of a resolved approval, arms the timer of a new one (every node
// reaps; the guarded update keeps expiry single), drops the caches the
// change makes stale, and publishes the event with the entry's sequence
// number, so every node's event stream carries every node's events in the
// same order and resume-after works across nodes.
//
// In this mode the broker's write paths publish nothing themselves: their
// own entries come back through the feed like everyone else's.
type feed struct {
	src store.Feed
	// lease, when the store has leases, lets dry runs decide on the
	// caches without reading the head while it is current; stopLease
	// gives it up.
	lease     store.Leaser
	stopLease func()
	// mu serializes catching up: entries are applied once, in order.
	mu      sync.Mutex
	applied atomic.Int64 // sequence of the last entry applied

	// Head reads are shared: decisions that arrive while one is in flight
	// wait for the next, which starts after they arrived (so it sees every
	// change committed before them) and serves them all. Under load that
	// is one database round trip per batch of decisions, not per decision.
	hmu     sync.Mutex
	next    *headRead // the read the next arrivals join; nil if none yet
	running bool      // a read is in flight
}

// headRead is one shared read of the feed's head.
type headRead struct {
	done chan struct{}
	h    store.FeedHead
	err  error
}

// head returns the feed's head as read after the call began. A caller
// that finds no read in flight reads it itself (no goroutine, no hand-off:
// the one-caller case costs one round trip); callers arriving meanwhile
// share the next read, which a goroutine makes once this one is done.
func (f *feed) head(ctx context.Context) (store.FeedHead, error) {
	f.hmu.Lock()
	if f.next == nil {
		f.next = &headRead{done: make(chan struct{})}
	}
	r := f.next
	lead := !f.running
	if lead {
		f.running = true
		f.next = nil
	}
	f.hmu.Unlock()
	if lead {
		f.readOne(r)
		if nx := f.handOff(); nx != nil {
			go f.read(nx)
		}
		return r.h, r.err
	}
	select {
	case <-r.done:
		return r.h, r.err
	case <-ctx.Done():
		return store.FeedHead{}, ctx.Err()
	}
}

// readOne performs r and releases its waiters.
func (f *feed) readOne(r *headRead) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	r.h, r.err = f.src.Head(ctx)
	cancel()
	close(r.done)
}

// handOff takes the read that gathered while one ran, if any; with none,
// no read is running any more.
func (f *feed) handOff() *headRead {
	f.hmu.Lock()
	defer f.hmu.Unlock()
	r := f.next
	f.next = nil
	f.running = r != nil
	return r
}

// read performs r, then the reads that gather while it runs.
func (f *feed) read(r *headRead) {
	for r != nil {
		f.readOne(r)
		r = f.handOff()
	}
}

// forget is implemented by Policies that cache compiled rules which a
// rules.changed entry makes stale (Workspaces).
type forgetter interface {
	Forget(workspace string)
}

// startFeed connects the broker to st's feed, if st has one. It must run
// before the pending approvals are loaded, so that nothing between the
// two is missed (applying an entry twice is harmless; missing one is not).
func (b *Broker) startFeed(ctx context.Context, st store.Store) (int64, error) {
	src, ok := st.(store.Feed)
	if !ok {
		return 0, nil
	}
	h, err := src.Head(ctx)
	if err != nil {
		return 0, err
	}
	b.feed = &feed{src: src}
	b.guard, _ = st.(store.GuardedAppender)
	b.feed.applied.Store(h.Seq)
	if l, ok := st.(store.Leaser); ok {
		l.Applied(h.Seq)
		stop, err := l.StartLease(ctx)
		if err != nil {
			return 0, err
		}
		b.feed.lease, b.feed.stopLease = l, stop
	}
	// Sessions never stored are not cached as absent: creating one is no
	// entry on the feed, so another node's creation would not clear it.
	b.sessions.noAbsent = true
	return h.Seq, nil
}

// runFeed applies the feed whenever the store says it moved, until the
// broker closes.
func (b *Broker) runFeed() {
	if b.feed == nil {
		return
	}
	changes := b.feed.src.Changes()
	b.reapers.Add(1)
	go func() {
		defer b.reapers.Done()
		for {
			select {
			case <-b.stop:
				return
			case <-changes:
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				if err := b.catchUp(ctx, 0); err != nil {
					b.log.Error("apply change feed", "err", err)
					// The next notification, or the next decision, retries.
				}
				cancel()
			}
		}
	}()
}

// fresh makes the caches current with the shared store before a decision
// that depends on them: one read of the feed's head, and a catch-up only
// when a change the caches depend on was made since. Without a shared
// store it does nothing.
func (b *Broker) fresh(ctx context.Context) error {
	if b.feed == nil {
		return nil
	}
	h, err := b.feed.head(ctx)
	if err != nil {
		return err
	}
	if h.ChangeSeq <= b.feed.applied.Load() {
		return nil
	}
	return b.catchUp(ctx, h.ChangeSeq)
}

// freshDry is fresh for a dry run: while the node's lease is current
// (store.Leaser), every change whose write has returned is already applied
// and the head is not read.
func (b *Broker) freshDry(ctx context.Context) error {
	if f := b.feed; f != nil && f.lease != nil && f.lease.Current(f.applied.Load()) {
		return nil
	}
	return b.fresh(ctx)
}

// currentSince reports whether the caches, which held every change up to
// the entry seen, still hold every change in the shared store; when they
// do not, it applies the feed first.
func (b *Broker) currentSince(ctx context.Context, seen int64) (bool, error) {
	h, err := b.feed.head(ctx)
	if err != nil {
		return false, err
	}
	if h.ChangeSeq <= seen {
		return true, nil
	}
	if h.ChangeSeq > b.feed.applied.Load() {
		if err := b.catchUp(ctx, h.ChangeSeq); err != nil {
			return false, err
		}
	}
	return false, nil
}

// catchUp applies every entry after the last one applied; with target >
// 0, it returns early if another caller already applied up to target.
func (b *Broker) catchUp(ctx context.Context, target int64) error {
	f := b.feed
	f.mu.Lock()
	defer f.mu.Unlock()
	for {
		after := f.applied.Load()
		if target > 0 && after >= target {
			return nil
		}
		es, err := b.store.ListAudit(ctx, store.AuditFilter{AfterSeq: after, Limit: feedBatch})
		if err != nil {
			return err
		}
		for i := range es {
			b.apply(ctx, &es[i])
			f.applied.Store(es[i].Seq)
			if b.applied != nil {
				b.applied(&es[i])
			}
		}
		if f.lease != nil && len(es) > 0 {
			// Writers of these changes may be waiting for this node.
			f.lease.Applied(f.applied.Load())
		}
		if len(es) < feedBatch {
			return nil
		}
	}
}

// apply applies one entry of the feed.
func (b *Broker) apply(ctx context.Context, e *toolgate.AuditEntry) {
	ev := toolgate.Event{Seq: e.Seq, Type: toolgate.EventType(e.Kind), Time: e.Time, Session: e.Session, Workspace: e.Workspace}
	switch ev.Type {
	case toolgate.EventApprovalRequested, toolgate.EventApprovalResolved:
		if ev.Type == toolgate.EventApprovalResolved {
			b.release(e.ApprovalID, e.Session) // first: the waiters need nothing more
		}
		a, err := b.store.GetApproval(ctx, e.ApprovalID)
		if err != nil {
			b.log.Error("change feed: read approval", "id", e.ApprovalID, "err", err)
			return
		}
		if ev.Type == toolgate.EventApprovalRequested {
			if a.Status == toolgate.StatusPending {
				b.track(a)
				a = b.announced(ctx, a)
			} else {
				// Already answered: the resolved entry follows. The
				// event shows the approval as it was requested.
				a.Status, a.Resolution = toolgate.StatusPending, nil
			}
		}
		ev.Approval = a
	case toolgate.EventGrantAdded, toolgate.EventGrantRevoked:
		b.grantsChanged()
		var g toolgate.Grant
		if json.Unmarshal(e.Data, &g) == nil && g.ID != "" {
			ev.Grant = &g
		}
	case toolgate.EventModeChanged, toolgate.EventSessionAborted, toolgate.EventSessionEnded, toolgate.EventSessionStopped, toolgate.EventTurnEnded:
		b.sessions.forget(e.Session)
		if ev.Type == toolgate.EventTurnEnded {
			b.grantsChanged() // turn grants lapse
		}
		if ev.Type == toolgate.EventModeChanged {
			var m toolgate.Mode
			if m.UnmarshalText([]byte(e.Outcome)) == nil {
				ev.Mode = &m
			}
		}
	case toolgate.EventRulesChanged:
		if fg, ok := b.policies.(forgetter); ok {
			fg.Forget(e.Workspace)
		}
	default:
		if store.ChangesCaches(e.Kind) {
			// A change this broker does not know: drop every cache
			// rather than decide on one that may be stale.
			b.sessions.clear()
			b.grantsChanged()
			if fg, ok := b.policies.(forgetter); ok {
				fg.Forget("")
			}
		}
		return
	}
	b.hub.publishAt(ev)
}

// emit publishes an event made by this broker's own write, unless the
// feed carries it (then every node publishes it from there, in one order).
func (b *Broker) emit(e toolgate.Event) {
	if b.feed != nil {
		return
	}
	b.hub.publish(e)
}
