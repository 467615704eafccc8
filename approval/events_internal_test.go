package approval

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
)

func TestRingWrapsAndResumes(t *testing.T) {
	h := newHub(100, nil)
	const n = ringSize*2 + 10
	for range n {
		h.publish(toolgate.Event{Type: toolgate.EventModeChanged})
	}
	if len(h.ring) != ringSize {
		t.Fatalf("ring holds %d events, want %d", len(h.ring), ringSize)
	}
	// Resume from the oldest event still kept, then from one near the end.
	for _, after := range []int64{100 + n - ringSize, 100 + n - 5} {
		sub := h.subscribe(context.Background(), EventFilter{AfterSeq: after})
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
	h := newHub(0, nil)
	sub := h.subscribe(context.Background(), EventFilter{})
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
	h := newHub(0, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	before := runtime.NumGoroutine()
	subs := make([]*Subscription, 200)
	for i := range subs {
		subs[i] = h.subscribe(ctx, EventFilter{})
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
