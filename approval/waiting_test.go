package approval_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/store"
)

// watchedStore counts the reads of a session's pending approvals (the
// batch context's read) and can hold a CreateApproval after it is stored,
// before it returns to the broker.
type watchedStore struct {
	store.Store
	sessionReads atomic.Int32
	// hold, when set, is called by CreateApproval for the call with this
	// id after the approval is stored.
	holdCall string
	hold     func()
}

func (s *watchedStore) ListApprovals(ctx context.Context, f store.ApprovalFilter) ([]*toolgate.Approval, error) {
	if f.Session != "" {
		s.sessionReads.Add(1)
	}
	return s.Store.ListApprovals(ctx, f)
}

func (s *watchedStore) CreateApproval(ctx context.Context, a *toolgate.Approval, audit ...toolgate.AuditEntry) (*toolgate.Approval, error) {
	existing, err := s.Store.CreateApproval(ctx, a, audit...)
	if err == nil && s.hold != nil && a.Call.ID == s.holdCall {
		s.hold()
	}
	return existing, err
}

func newWatchedEnv(t *testing.T) (*approval.Broker, *watchedStore) {
	t.Helper()
	var ws *watchedStore
	e := openEnvOn(t, t.TempDir(), newClock(), func(st store.Store) store.Store {
		ws = &watchedStore{Store: st}
		return ws
	})
	return e.broker, ws
}

// requested returns the approval.requested event of approval id.
func requested(t *testing.T, sub *approval.Subscription, id string) *toolgate.Approval {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-sub.Events():
			if !ok {
				t.Fatalf("subscription ended before the event of %s", id)
			}
			if ev.Type == toolgate.EventApprovalRequested && ev.Approval.ID == id {
				return ev.Approval
			}
		case <-timeout:
			t.Fatalf("no approval.requested event for %s", id)
		}
	}
}

// TestWaitingAloneReadsNothing: the event of an approval alone in its
// session carries no batch context, as before, without reading the
// store; the next one in the session reads and names the first.
func TestWaitingAloneReadsNothing(t *testing.T) {
	t.Parallel()
	b, ws := newWatchedEnv(t)
	ctx := context.Background()
	sub := b.Subscribe(ctx, toolgate.EventFilter{})
	defer sub.Close()
	submit := func(c toolgate.Call) *toolgate.Approval {
		t.Helper()
		r, err := b.Submit(ctx, toolgate.SubmitRequest{Call: c})
		if err != nil || r.Approval == nil {
			t.Fatalf("submit %s: %v %+v", c.ID, err, r)
		}
		return r.Approval
	}
	first := submit(shellCall("s1", "c1", "make build"))
	if ev := requested(t, sub, first.ID); ev.SessionWaiting != nil {
		t.Errorf("first approval's event: waiting %+v, want none", ev.SessionWaiting)
	}
	if n := ws.sessionReads.Load(); n != 0 {
		t.Errorf("%d reads of the session's pending approvals for an approval alone in it, want 0", n)
	}
	second := submit(shellCall("s1", "c2", "make test"))
	ev := requested(t, sub, second.ID)
	if w := ev.SessionWaiting; w == nil || w.Count != 1 || len(w.Calls) != 1 || w.Calls[0].ApprovalID != first.ID {
		t.Errorf("second approval's event: waiting %+v, want the first", w)
	}
	if n := ws.sessionReads.Load(); n != 1 {
		t.Errorf("%d reads of the session's pending approvals, want 1", n)
	}
	// Answered, the first leaves the second alone again: an approval read
	// now shows nothing waiting, with no read.
	if _, err := b.Approve(ctx, first.ID, toolgate.ApproveRequest{}, human); err != nil {
		t.Fatal(err)
	}
	as, err := b.WithWaiting(ctx, []*toolgate.Approval{second})
	if err != nil || as[0].SessionWaiting != nil {
		t.Errorf("second approval after the first was answered: waiting %+v, %v; want none", as[0].SessionWaiting, err)
	}
	if n := ws.sessionReads.Load(); n != 1 {
		t.Errorf("%d reads of the session's pending approvals, want still 1", n)
	}
}

// TestWaitingCountsApprovalsBeingStored: an approval stored but not yet
// tracked by its Submit still counts, so another approval of the session
// announced in that moment reads the store and names it, as a read always
// did.
func TestWaitingCountsApprovalsBeingStored(t *testing.T) {
	t.Parallel()
	b, ws := newWatchedEnv(t)
	ctx := context.Background()
	sub := b.Subscribe(ctx, toolgate.EventFilter{})
	defer sub.Close()
	stored, release := make(chan struct{}), make(chan struct{})
	ws.holdCall = "slow"
	ws.hold = func() {
		close(stored)
		<-release
	}
	var wg sync.WaitGroup
	wg.Add(1)
	var slow *toolgate.Approval
	go func() {
		defer wg.Done()
		r, err := b.Submit(ctx, toolgate.SubmitRequest{Call: shellCall("s1", "slow", "make build")})
		if err != nil || r.Approval == nil {
			t.Errorf("submit slow: %v %+v", err, r)
			return
		}
		slow = r.Approval
	}()
	<-stored // in the store, its Submit not yet back
	r, err := b.Submit(ctx, toolgate.SubmitRequest{Call: shellCall("s1", "fast", "make test")})
	close(release)
	wg.Wait()
	if err != nil || r.Approval == nil || slow == nil {
		t.Fatalf("submit fast: %v %+v", err, r)
	}
	ev := requested(t, sub, r.Approval.ID)
	if w := ev.SessionWaiting; w == nil || len(w.Calls) != 1 || w.Calls[0].ApprovalID != slow.ID {
		t.Errorf("event of the approval announced while another of its session was being stored: waiting %+v, want the other", w)
	}
}
