package notify

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
)

// streams is a Subscriber that plays one scripted stream per call and
// records the filter of each.
type streams struct {
	mu      sync.Mutex
	script  []stream
	filters []toolgate.EventFilter
}

type stream struct {
	events []toolgate.Event
	err    error
}

func (s *streams) Events(_ context.Context, f toolgate.EventFilter) (<-chan toolgate.Event, <-chan error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.filters = append(s.filters, f)
	next := stream{} // past the script: ends cleanly
	if len(s.script) > 0 {
		next, s.script = s.script[0], s.script[1:]
	}
	events := make(chan toolgate.Event, len(next.events))
	for _, e := range next.events {
		events <- e
	}
	close(events)
	errc := make(chan error, 1)
	errc <- next.err
	return events, errc
}

// TestFollowResumes: a stream that ends with an error is followed again
// after the last sequence seen (a replay's sequence does not count), and
// one that ends cleanly stops the dispatcher's following.
func TestFollowResumes(t *testing.T) {
	t.Parallel()
	dropped := errors.New("fell behind")
	for _, tc := range []struct {
		name   string
		script []stream
		after  []int64 // AfterSeq of each subscription
	}{
		{"clean end", []stream{{events: []toolgate.Event{{Seq: 3}}}}, []int64{0}},
		{"drop resumes after the last live event", []stream{
			{events: []toolgate.Event{{Seq: 3}, {Seq: 7}, {Seq: 9, Replay: true}}, err: dropped},
			{events: []toolgate.Event{{Seq: 8}}},
		}, []int64{0, 7}},
		{"repeated failures keep the position", []stream{
			{events: []toolgate.Event{{Seq: 4}}, err: dropped},
			{err: dropped},
			{err: dropped},
		}, []int64{0, 4, 4, 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			src := &streams{script: tc.script}
			d := NewDispatcher(src, WithBackoff(time.Millisecond, 2*time.Millisecond))
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			d.follow(ctx)
			if ctx.Err() != nil {
				t.Fatal("follow did not return")
			}
			src.mu.Lock()
			defer src.mu.Unlock()
			var got []int64
			for _, f := range src.filters {
				got = append(got, f.AfterSeq)
			}
			if !slices.Equal(got, tc.after) {
				t.Fatalf("subscriptions after %v, want %v", got, tc.after)
			}
		})
	}
}
