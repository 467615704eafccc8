package approval_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store/fsrules"
)

// BenchmarkEvaluate is the broker's share of POST /v1/evaluate: rules
// engine, session and grant layers from the caches, the decision (the
// dry run of a read that the default rules allow).
func BenchmarkEvaluate(b *testing.B) {
	e := newEnv(b)
	ctx := context.Background()
	c := toolgate.Call{Session: "s1", Tool: "read_file", Args: map[string]any{"path": "src/main.go"}}
	if _, err := e.broker.Evaluate(ctx, c); err != nil {
		b.Fatal(err)
	}
	// Steady state: the rules document unchanged for longer than the
	// window in which every call re-reads it.
	time.Sleep(fsrules.RacyWindow + 100*time.Millisecond)
	b.ReportAllocs()
	for b.Loop() {
		d, err := e.broker.Evaluate(ctx, c)
		if err != nil || d.Action != toolgate.Allow {
			b.Fatalf("%s %v", d.Action, err)
		}
	}
}

// BenchmarkWithWaiting is the batch context an approval read or event
// costs at its worst: the other 99 calls of a session at the per-session
// limit, read from SQLite and summarized.
func BenchmarkWithWaiting(b *testing.B) {
	e := newEnv(b)
	ctx := context.Background()
	var first *toolgate.Approval
	for i := range 100 {
		r, err := e.broker.Submit(ctx, toolgate.SubmitRequest{Call: shellCall("s1", fmt.Sprint("c", i), fmt.Sprint("make target-", i))})
		if err != nil || r.Approval == nil {
			b.Fatalf("submit %d: %v", i, err)
		}
		if first == nil {
			first = r.Approval
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		as, err := e.broker.WithWaiting(ctx, []*toolgate.Approval{first})
		if err != nil || as[0].SessionWaiting == nil || as[0].SessionWaiting.Count != 99 {
			b.Fatalf("%+v %v", as[0].SessionWaiting, err)
		}
	}
}
