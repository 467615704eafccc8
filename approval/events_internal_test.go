package approval

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
)

func TestRingWrapsAndResumes(t *testing.T) {
	h := newHub(100, nil, nil)
	const n = ringSize*2 + 10
	for range n {
		h.publish(toolgate.Event{Type: toolgate.EventModeChanged})
	}
	if len(h.ring) != ringSize {
		t.Fatalf("ring holds %d events, want %d", len(h.ring), ringSize)
	}
	// Resume from the oldest event still kept, then from one near the end.
	for _, after := range []int64{100 + n - ringSize, 100 + n - 5} {
		sub := h.subscribe(context.Background(), toolgate.EventFilter{AfterSeq: after})
		want := after + 1
		for len(sub.ch) > 0 {
			e := <-sub.ch
			if e.Seq != want {
				t.Fatalf("after %d: got seq %d, want %d", after, e.Seq, want)
			}
			want++
		}
		if last := int64(100 + n); want != last+1 && after > last-subscriberBuffer {
			t.Fatalf("after %d: resent up to %d, want %d", after, want-1, last)
		}
		sub.Close()
	}
}

func TestDroppedSubscriber(t *testing.T) {
	h := newHub(0, nil, nil)
	sub := h.subscribe(context.Background(), toolgate.EventFilter{})
	for range subscriberBuffer + 1 {
		h.publish(toolgate.Event{Type: toolgate.EventModeChanged})
	}
	n := 0
	for range sub.Events() {
		n++
	}
	if n != subscriberBuffer || !errors.Is(sub.Err(), ErrDropped) {
		t.Fatalf("got %d events, Err %v; want %d, ErrDropped", n, sub.Err(), subscriberBuffer)
	}
}

// A subscription whose context never ends leaves nothing running once the
// hub closes it.
func TestSubscriptionLeavesNoGoroutine(t *testing.T) {
	h := newHub(0, nil, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	before := runtime.NumGoroutine()
	subs := make([]*Subscription, 200)
	for i := range subs {
		subs[i] = h.subscribe(ctx, toolgate.EventFilter{})
	}
	h.closeAll()
	for _, s := range subs {
		if _, ok := <-s.Events(); ok || s.Err() != nil {
			t.Fatalf("subscription not closed cleanly: %v", s.Err())
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	for runtime.NumGoroutine() > before+20 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > before+20 {
		t.Fatalf("%d goroutines after closing 200 subscriptions, %d before", g, before)
	}
}

// fakeApprovals is the store the hub reads approvals back from, by id and
// by listing the pending ones; list blocks until release is closed, if set.
type fakeApprovals struct {
	mu      sync.Mutex
	m       map[string]*toolgate.Approval
	listed  chan struct{} // closed when ListApprovals is entered, if set
	release chan struct{}
	err     error
}

func (f *fakeApprovals) put(a *toolgate.Approval) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := *a
	f.m[a.ID] = &c
}

func (f *fakeApprovals) GetApproval(_ context.Context, id string) (*toolgate.Approval, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return nil, f.err
	}
	a, ok := f.m[id]
	if !ok {
		return nil, toolgate.Errorf(toolgate.ENotFound, "approval %s not found", id)
	}
	c := *a
	return &c, nil
}

func (f *fakeApprovals) ListApprovals(_ context.Context, flt store.ApprovalFilter) ([]*toolgate.Approval, error) {
	if f.listed != nil {
		close(f.listed)
	}
	if f.release != nil {
		<-f.release
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return nil, f.err
	}
	var out []*toolgate.Approval
	for _, a := range f.m {
		if a.Status == flt.Status && (flt.Session == "" || a.Call.Session == flt.Session) {
			c := *a
			out = append(out, &c)
		}
	}
	return out, nil
}

// hubWith publishes n approvals requested in sessions s0 and s1 and
// resolves every third; the store has each as it ends up.
func hubWith(t *testing.T, n int) (*hub, *fakeApprovals) {
	t.Helper()
	st := &fakeApprovals{m: map[string]*toolgate.Approval{}}
	h := newHub(0, nil, st)
	for i := range n {
		a := &toolgate.Approval{ID: fmt.Sprintf("ap_%d", i), Status: toolgate.StatusPending,
			Call: toolgate.Call{Session: fmt.Sprintf("s%d", i%2), Workspace: "w", Tool: "deploy"}}
		st.put(a)
		h.publish(toolgate.Event{Type: toolgate.EventApprovalRequested, Session: a.Call.Session, Workspace: "w", Approval: a})
	}
	for i := 0; i < n; i += 3 {
		done := *must(st.GetApproval(context.Background(), fmt.Sprintf("ap_%d", i)))
		done.Status, done.Resolution = toolgate.StatusApproved, &toolgate.Resolution{Status: toolgate.StatusApproved}
		st.put(&done)
		h.publish(toolgate.Event{Type: toolgate.EventApprovalResolved, Session: done.Call.Session, Workspace: "w", Approval: &done})
	}
	return h, st
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// drain returns what a subscription has queued.
func drain(s *Subscription) []toolgate.Event {
	var out []toolgate.Event
	for len(s.ch) > 0 {
		out = append(out, <-s.ch)
	}
	return out
}

// The hub keeps ids only: the events it sends again carry the approvals
// read back from the store, each as it was when the event happened.
func TestReplayReadsApprovalsBack(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		n     int
		f     toolgate.EventFilter
		check func(t *testing.T, got []toolgate.Event)
	}{
		{"pending, few (read by id)", 10, toolgate.EventFilter{}, nil},
		{"pending, many (listed)", 100, toolgate.EventFilter{}, nil},
		{"pending of one session", 100, toolgate.EventFilter{Session: "s1"}, nil},
		{"resumed from the ring", 30, toolgate.EventFilter{AfterSeq: 5}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, _ := hubWith(t, tc.n)
			s := h.subscribe(context.Background(), tc.f)
			defer s.Close()
			got := drain(s)
			var replayed, resent int
			for _, e := range got {
				if e.Approval == nil {
					t.Fatalf("event %d %s without its approval", e.Seq, e.Type)
				}
				if tc.f.Session != "" && e.Session != tc.f.Session {
					t.Fatalf("event of session %s on a stream of %s", e.Session, tc.f.Session)
				}
				var i int
				fmt.Sscanf(e.Approval.ID, "ap_%d", &i)
				switch {
				case e.Replay:
					replayed++
					if i%3 == 0 || e.Approval.Status != toolgate.StatusPending {
						t.Fatalf("replayed %s (%s), answered", e.Approval.ID, e.Approval.Status)
					}
				case e.Type == toolgate.EventApprovalRequested:
					resent++
					if e.Approval.Status != toolgate.StatusPending || e.Approval.Resolution != nil {
						t.Fatalf("requested event of %s shows it %s", e.Approval.ID, e.Approval.Status)
					}
				default:
					resent++
					if e.Approval.Status != toolgate.StatusApproved || i%3 != 0 {
						t.Fatalf("resolved event of %s shows it %s", e.Approval.ID, e.Approval.Status)
					}
				}
			}
			wantPending := 0
			for i := range tc.n {
				if i%3 != 0 && (tc.f.Session == "" || tc.f.Session == fmt.Sprintf("s%d", i%2)) {
					wantPending++
				}
			}
			if tc.f.AfterSeq == 0 && (replayed != wantPending || resent != 0) {
				t.Fatalf("replayed %d, resent %d; want %d pending replayed", replayed, resent, wantPending)
			}
			if tc.f.AfterSeq > 0 {
				// Every event after seq 5 again, then a replay of those
				// requested before it and still pending (ap_1, ap_2, ap_4).
				if wantEvents := tc.n + (tc.n+2)/3 - 5; resent != wantEvents || replayed != 3 {
					t.Fatalf("resent %d, replayed %d; want %d resent, 3 replayed", resent, replayed, wantEvents)
				}
				for k, e := range got[:resent] {
					if e.Seq != int64(6+k) {
						t.Fatalf("event %d has seq %d, want %d", k, e.Seq, 6+k)
					}
				}
			}
		})
	}
}

// Live events published while a new subscriber's replay is read from the
// store follow the replay, in order, and a resolution among them is not
// lost: the replay shows that approval pending, then it resolves.
func TestReplayThenLiveEventsInOrder(t *testing.T) {
	t.Parallel()
	h, st := hubWith(t, 40)
	st.listed, st.release = make(chan struct{}), make(chan struct{})
	subscribed := make(chan *Subscription)
	go func() { subscribed <- h.subscribe(context.Background(), toolgate.EventFilter{}) }()
	<-st.listed
	// ap_1 is pending: answer it while the replay is being read.
	done := *must(st.GetApproval(context.Background(), "ap_1"))
	done.Status, done.Resolution = toolgate.StatusDenied, &toolgate.Resolution{Status: toolgate.StatusDenied}
	st.put(&done)
	live := h.publish(toolgate.Event{Type: toolgate.EventApprovalResolved, Session: "s1", Workspace: "w", Approval: &done})
	close(st.release)
	s := <-subscribed
	defer s.Close()
	got := drain(s)
	if len(got) == 0 || got[len(got)-1].Seq != live.Seq || got[len(got)-1].Type != toolgate.EventApprovalResolved {
		t.Fatalf("the live resolution is not last: %+v", got[len(got)-1])
	}
	for _, e := range got[:len(got)-1] {
		if !e.Replay || e.Seq >= live.Seq {
			t.Fatalf("event %d (%s, replay %v) before the live one", e.Seq, e.Type, e.Replay)
		}
		if e.Approval.ID == "ap_1" && e.Approval.Status != toolgate.StatusPending {
			t.Fatalf("ap_1 replayed as %s, want pending (its resolution follows)", e.Approval.Status)
		}
	}
	h.publish(toolgate.Event{Type: toolgate.EventModeChanged})
	if e := <-s.ch; e.Type != toolgate.EventModeChanged {
		t.Fatalf("after the replay got %s, want the live event", e.Type)
	}
}

// A replay the store cannot read ends the subscription with an error the
// subscriber treats as a drop: it subscribes again.
func TestReplayReadFailure(t *testing.T) {
	t.Parallel()
	h, st := hubWith(t, 40)
	st.err = errors.New("disk on fire")
	s := h.subscribe(context.Background(), toolgate.EventFilter{})
	if _, ok := <-s.ch; ok {
		t.Fatal("got an event from a subscription whose replay failed")
	}
	if err := s.Err(); !errors.Is(err, ErrDropped) {
		t.Fatalf("Err() = %v, want ErrDropped", err)
	}
}
