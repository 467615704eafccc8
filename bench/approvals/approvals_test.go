// Package approvals measures the approval path at scale (DESIGN §10): the
// round trip request → event delivered → answer → waiter released with
// many approvals pending, the memory one pending approval costs, and
// holding 100,000 pending in one process. It uses the broker as `toolgate
// serve` builds it: the SQLite store and workspace rules on disk.
package approvals

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/store/fsrules"
	"github.com/toolgate/toolgate/store/sqlite"
)

// tool is a tool no rule names: the default rules ask for it.
const tool = "deploy"

func newBroker(tb testing.TB) *approval.Broker {
	tb.Helper()
	ctx := context.Background()
	dir := tb.TempDir()
	if base := os.Getenv("BENCH_DB_DIR"); base != "" {
		// e.g. /dev/shm: separates the broker's own cost from the disk's
		// fsync latency (the store commits with synchronous=FULL).
		d, err := os.MkdirTemp(base, "toolgate-bench-")
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { os.RemoveAll(d) })
		dir = d
	}
	st, err := sqlite.Open(ctx, filepath.Join(dir, "toolgate.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	pol := approval.NewWorkspaces(fsrules.New(dir, policy.DefaultRulesJSONC()), nil)
	br, err := approval.New(ctx, st, pol, approval.WithTTL(time.Hour), approval.WithMaxPending(-1))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { br.Close() })
	return br
}

// fill submits n calls that ask, leaving n approvals pending, in
// sessions of 100 (a session may hold only so many pending approvals).
func fill(tb testing.TB, br *approval.Broker, session string, n int) {
	tb.Helper()
	ctx := context.Background()
	for i := range n {
		r, err := br.Submit(ctx, toolgate.SubmitRequest{Call: toolgate.Call{
			ID: fmt.Sprintf("%s-%d", session, i), Session: fmt.Sprintf("%s-%d", session, i/100), Tool: tool,
			Args: map[string]any{"target": "staging", "n": i},
		}})
		if err != nil {
			tb.Fatal(err)
		}
		if r.Approval == nil || r.Approval.Status != toolgate.StatusPending {
			tb.Fatalf("call %d: %s, want a pending approval", i, r.Decision.Action)
		}
	}
}

// BenchmarkApprovals holds 10,000 and then 100,000 approvals pending in
// one broker (SQLite store, as `toolgate serve` runs it) and, at each
// level, reports the live heap per pending approval (after a GC, the
// store's page cache included: the SQLite driver is pure Go), the time a
// Submit took while filling, and the round trip of 500 more approvals:
// the agent's RequestApproval submits a call that asks and blocks, an
// approver subscribed to the session's events receives
// approval.requested and approves, and the agent is released. Run it with
// -benchtime=1x: each level is measured once. BENCH_DB_DIR puts the
// database in another directory (a tmpfs, to see what fsync costs).
func BenchmarkApprovals(b *testing.B) {
	br := newBroker(b)
	fill(b, br, "warm", 10) // schema, statements, the workspace's engine
	var base runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&base)
	filled := 0
	for _, n := range []int{10000, 100000} {
		b.Run(fmt.Sprintf("pending=%d", n), func(b *testing.B) {
			t0 := time.Now()
			fill(b, br, fmt.Sprintf("fill%d", n), n-filled)
			took := time.Since(t0)
			var m runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m)
			b.ReportMetric(float64(int64(m.HeapAlloc)-int64(base.HeapAlloc))/float64(n), "B/pending")
			b.ReportMetric(float64(took.Microseconds())/float64(n-filled), "µs/submit")
			filled = n
			p50, p99 := roundTrips(b, br, fmt.Sprintf("rt%d", n), 500)
			b.ReportMetric(p50, "rt-p50-ms")
			b.ReportMetric(p99, "rt-p99-ms")
		})
	}
}

// roundTrips runs n approval round trips one after another and returns
// the median and p99 in milliseconds.
func roundTrips(b *testing.B, br *approval.Broker, session string, n int) (p50, p99 float64) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sub := br.Subscribe(ctx, toolgate.EventFilter{Session: session})
	defer sub.Close()
	approverErr := make(chan error, 1)
	go func() {
		for e := range sub.Events() {
			if e.Type != toolgate.EventApprovalRequested || e.Approval == nil {
				continue
			}
			if _, err := br.Gate().Approve(toolgate.WithActor(ctx, toolgate.Actor{Name: "bench", Via: "api"}), e.Approval.ID, toolgate.ApproveRequest{}); err != nil && ctx.Err() == nil {
				approverErr <- err
				return
			}
		}
	}()
	lat := make([]time.Duration, 0, n)
	for i := range n {
		t0 := time.Now()
		r, err := br.RequestApproval(ctx, toolgate.SubmitRequest{Call: toolgate.Call{
			ID: fmt.Sprintf("%s-%d", session, i), Session: session, Tool: tool, Args: map[string]any{"i": i},
		}})
		lat = append(lat, time.Since(t0))
		if err != nil {
			b.Fatal(err)
		}
		if a, ok := r.Final(); !ok || a != toolgate.Allow {
			select {
			case err := <-approverErr:
				b.Fatalf("approver: %v", err)
			default:
			}
			b.Fatalf("round trip %d ended %s", i, a)
		}
	}
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return ms(lat[len(lat)/2]), ms(lat[min(len(lat)*99/100, len(lat)-1)])
}
