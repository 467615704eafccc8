package approval_test

import (
	"context"
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
