package approvals

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/store/postgres"
)

// pgNodes starts n brokers on one fresh PostgreSQL schema, each with its
// own pool and LISTEN connection, as n gateway nodes run: they hear of
// each other only through the database. It skips without
// TOOLGATE_TEST_POSTGRES.
func pgNodes(b *testing.B, n int) []*approval.Broker {
	b.Helper()
	dsn := os.Getenv("TOOLGATE_TEST_POSTGRES")
	if dsn == "" {
		b.Skip("TOOLGATE_TEST_POSTGRES is not set: skipping the PostgreSQL benchmarks")
	}
	var r [6]byte
	rand.Read(r[:])
	schema := "tg_bench_" + hex.EncodeToString(r[:])
	ctx := context.Background()
	b.Cleanup(func() {
		if db, err := postgres.Open(ctx, dsn); err == nil {
			db.Pool().Exec(ctx, `DROP SCHEMA IF EXISTS `+schema+` CASCADE`)
			db.Close()
		}
	})
	var out []*approval.Broker
	for range n {
		st, err := postgres.Open(ctx, dsn, postgres.WithSchema(schema))
		if err != nil {
			b.Fatal(err)
		}
		pol := approval.NewWorkspaces(st.Rules(policy.DefaultRulesJSONC()), nil)
		br, err := approval.New(ctx, st, pol, approval.WithTTL(time.Hour), approval.WithMaxPending(-1))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() {
			br.Close()
			st.Close()
		})
		out = append(out, br)
	}
	return out
}

// BenchmarkNodesRoundTrip measures the approval round trip with 10,000
// approvals pending, in one run: a single node on SQLite (the figure of
// BenchmarkApprovals), and two nodes on PostgreSQL where the agent waits
// on node A and the approver, subscribed to node B's event stream, answers
// on B: submit on A → the event reaches B through the database → answer
// on B → A's waiter released through the database. Run it with
// -benchtime=1x; filling 10,000 takes a while (every submit is a durable
// commit).
func BenchmarkNodesRoundTrip(b *testing.B) {
	pending, trips := 10000, 500
	if n, err := strconv.Atoi(os.Getenv("BENCH_PENDING")); err == nil && n >= 0 {
		pending = n // a quick run: BENCH_PENDING=100
	}
	b.Run(fmt.Sprintf("sqlite-1node/pending=%d", pending), func(b *testing.B) {
		br := newBroker(b)
		fill(b, br, "fill", pending)
		p50, p99 := crossRoundTrips(b, br, br, "rt", trips)
		b.ReportMetric(p50, "rt-p50-ms")
		b.ReportMetric(p99, "rt-p99-ms")
	})
	b.Run(fmt.Sprintf("postgres-2nodes/pending=%d", pending), func(b *testing.B) {
		ns := pgNodes(b, 2)
		t0 := time.Now()
		fill(b, ns[0], "fill", pending)
		b.ReportMetric(float64(time.Since(t0).Microseconds())/float64(max(pending, 1)), "µs/submit")
		p50, p99 := crossRoundTrips(b, ns[0], ns[1], "rt", trips)
		b.ReportMetric(p50, "rt-p50-ms")
		b.ReportMetric(p99, "rt-p99-ms")
	})
}

// crossRoundTrips runs n round trips one after another, the agent on a
// and the approver on b, and returns the median and p99 in milliseconds.
func crossRoundTrips(tb testing.TB, a, b *approval.Broker, session string, n int) (p50, p99 float64) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sub := b.Subscribe(ctx, toolgate.EventFilter{Session: session})
	defer sub.Close()
	approverErr := make(chan error, 1)
	go func() {
		for e := range sub.Events() {
			if e.Type != toolgate.EventApprovalRequested || e.Approval == nil {
				continue
			}
			if _, err := b.Gate().Approve(toolgate.WithActor(ctx, toolgate.Actor{Name: "bench", Via: "api"}), e.Approval.ID, toolgate.ApproveRequest{}); err != nil && ctx.Err() == nil {
				approverErr <- err
				return
			}
		}
	}()
	lat := make([]time.Duration, 0, n)
	for i := range n {
		t0 := time.Now()
		wctx, wcancel := context.WithTimeout(ctx, 30*time.Second)
		r, err := a.RequestApproval(wctx, toolgate.SubmitRequest{Call: toolgate.Call{
			ID: fmt.Sprintf("%s-%d", session, i), Session: session, Tool: tool, Args: map[string]any{"i": i},
		}})
		wcancel()
		lat = append(lat, time.Since(t0))
		if err != nil {
			tb.Fatalf("round trip %d: %v", i, err)
		}
		if act, ok := r.Final(); !ok || act != toolgate.Allow {
			select {
			case err := <-approverErr:
				tb.Fatalf("approver: %v", err)
			default:
			}
			tb.Fatalf("round trip %d ended %s", i, act)
		}
	}
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return ms(lat[len(lat)/2]), ms(lat[min(len(lat)*99/100, len(lat)-1)])
}

// BenchmarkNodesDecisions measures decisions on one node, SQLite beside
// PostgreSQL in the same run: Submit of a call the rules allow (decided
// from the caches, recorded in the audit log: a durable commit each) and
// Evaluate (the dry run: nothing recorded), each one caller at a time
// (serial) and from 8×GOMAXPROCS callers (parallel, decisions/s). On
// PostgreSQL a recorded decision commits only if no change its caches
// miss was appended first (checked in its append, which concurrent
// decisions share), and a dry run reads the change feed's head (shared
// between concurrent dry runs), so that no cache older than the database
// decides.
func BenchmarkNodesDecisions(b *testing.B) {
	stores := []struct {
		name string
		open func(b *testing.B) *approval.Broker
	}{
		{"sqlite", func(b *testing.B) *approval.Broker { return newBroker(b) }},
		{"postgres", func(b *testing.B) *approval.Broker { return pgNodes(b, 1)[0] }},
	}
	for _, st := range stores {
		b.Run(st.name, func(b *testing.B) {
			br := st.open(b)
			ctx := context.Background()
			call := func(id int64) toolgate.Call {
				return toolgate.Call{ID: fmt.Sprintf("d%d", id), Session: "s1", Tool: "read_file", Args: map[string]any{"path": "src/main.go"}}
			}
			if r, err := br.Submit(ctx, toolgate.SubmitRequest{Call: call(0)}); err != nil || r.Decision.Action != toolgate.Allow {
				b.Fatalf("warm-up: %v %v", r, err)
			}
			var n atomic.Int64
			n.Store(1)
			for _, mode := range []string{"submit", "evaluate"} {
				decide := func() {
					c := call(n.Add(1))
					var act toolgate.Action
					var err error
					if mode == "submit" {
						var r *toolgate.Result
						r, err = br.Submit(ctx, toolgate.SubmitRequest{Call: c})
						if err == nil {
							act = r.Decision.Action
						}
					} else {
						var d toolgate.Decision
						d, err = br.Evaluate(ctx, c)
						act = d.Action
					}
					if err != nil || act != toolgate.Allow {
						b.Fatalf("%s: %s %v", mode, act, err)
					}
				}
				b.Run(mode+"/serial", func(b *testing.B) {
					b.ReportAllocs()
					start := time.Now()
					for b.Loop() {
						decide()
					}
					b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "decisions/s")
				})
				b.Run(mode+"/parallel", func(b *testing.B) {
					b.ReportAllocs()
					b.SetParallelism(8)
					start := time.Now()
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() {
							decide()
						}
					})
					b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "decisions/s")
				})
			}
		})
	}
}

// BenchmarkPostgresCommit is the floor under every recorded decision on
// PostgreSQL: one durable single-row INSERT (a commit, fsynced as
// synchronous_commit = on requires), with nothing of toolgate's around it.
func BenchmarkPostgresCommit(b *testing.B) {
	dsn := os.Getenv("TOOLGATE_TEST_POSTGRES")
	if dsn == "" {
		b.Skip("TOOLGATE_TEST_POSTGRES is not set")
	}
	ctx := context.Background()
	db, err := postgres.Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Pool().Exec(ctx, `CREATE TABLE IF NOT EXISTS tg_bench_commit (a BIGINT)`); err != nil {
		b.Fatal(err)
	}
	defer db.Pool().Exec(ctx, `DROP TABLE tg_bench_commit`)
	start := time.Now()
	for i := 0; b.Loop(); i++ {
		if _, err := db.Pool().Exec(ctx, `INSERT INTO tg_bench_commit VALUES ($1)`, i); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "commits/s")
}

// BenchmarkNodesChangeWrite measures a write that caches depend on (a
// grant added, then revoked: two writes per op) on node A of three
// PostgreSQL nodes. With leases such a write returns only once every node
// has applied it.
func BenchmarkNodesChangeWrite(b *testing.B) {
	ns := pgNodes(b, 3)
	a := ns[0]
	ctx := context.Background()
	gate := a.Gate()
	admin := toolgate.WithActor(ctx, toolgate.Actor{Name: "bench", Via: "api", Admin: true})
	if _, err := a.Submit(ctx, toolgate.SubmitRequest{Call: toolgate.Call{ID: "c0", Session: "s1", Tool: "read_file", Args: map[string]any{"path": "src/main.go"}}}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		g, err := gate.AddGrant(admin, toolgate.Grant{Scope: toolgate.ScopeSession, Session: "s1", Tool: "Bash", Kind: toolgate.GrantPrefix, Pattern: "git push"})
		if err != nil {
			b.Fatal(err)
		}
		if err := gate.RevokeGrant(admin, g.ID); err != nil {
			b.Fatal(err)
		}
	}
}
