package approval_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/postgres"
)

// headStore counts a node's reads of the feed's head: a dry run that does
// not read it decided on the node's lease.
type headStore struct {
	*postgres.DB
	heads atomic.Int64
}

func (h *headStore) Head(ctx context.Context) (store.FeedHead, error) {
	h.heads.Add(1)
	return h.DB.Head(ctx)
}

// leaseNodes starts n nodes; node counted's store counts head reads.
// lease gives node i's lease timing.
func leaseNodes(t *testing.T, n, counted int, lease func(i int) (time.Duration, time.Duration)) ([]*approval.Broker, *headStore) {
	t.Helper()
	var a *headStore
	ns := nodesDB(t, n, func(i int) []postgres.Option {
		return []postgres.Option{postgres.WithLease(lease(i))}
	}, func(i int, db *postgres.DB) store.Store {
		if i == counted {
			a = &headStore{DB: db}
			return a
		}
		return db
	})
	return ns, a
}

// dry is a dry run on b that reports whether it read the feed's head.
func dry(t *testing.T, b *approval.Broker, h *headStore, c toolgate.Call) (toolgate.Action, bool) {
	t.Helper()
	before := h.heads.Load()
	d, err := b.Evaluate(context.Background(), c)
	if err != nil {
		t.Fatalf("evaluate %+v: %v", c, err)
	}
	return d.Action, h.heads.Load() != before
}

// awaitLeased waits until node b decides dry runs on its lease (no head
// read); a change another test step made must be applied first.
func awaitLeased(t *testing.T, b *approval.Broker, h *headStore, c toolgate.Call) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, read := dry(t, b, h, c); !read {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("node A never decided a dry run on its lease within 60s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestNodesDryRunOnLease: node A decides dry runs on its caches while its
// lease holds, without reading the feed's head, and yet every change made
// on B or C (grant added or revoked, mode, stop flag, turn) applies to A's
// very next dry run once the change's call returned: the writer waits for
// A. Each step checks the allow and the refusal (user-side twin).
func TestNodesDryRunOnLease(t *testing.T) {
	t.Parallel()
	// A long lease, renewed often: a loaded machine does not let it lapse
	// between renewals, so every dry run below must be on the lease.
	ns, h := leaseNodes(t, 3, 0, func(int) (time.Duration, time.Duration) { return 20 * time.Second, 200 * time.Millisecond })
	a, b, c := ns[0], ns[1], ns[2]
	ctx := context.Background()
	push := shellCall("s1", "p", "git push origin main")
	read := toolgate.Call{ID: "r", Session: "s1", Tool: "Read", Args: map[string]any{"file_path": "/home/user/notes.txt"}}
	mcp := toolgate.Call{ID: "m", Session: "s1", Tool: "mcp__x__y"}
	submitOn(t, a, read) // the session exists
	awaitLeased(t, a, h, read)

	step := func(what string, call toolgate.Call, allow bool) {
		t.Helper()
		got, readHead := dry(t, a, h, call)
		if readHead {
			t.Fatalf("%s: the dry run on A read the feed's head: not decided on the lease", what)
		}
		if (got == toolgate.Allow) != allow {
			t.Fatalf("%s: dry run on A: %s, want allow=%v", what, got, allow)
		}
	}
	step("before any grant", push, false)
	step("before any grant, user-side twin", read, true)
	for range 3 {
		g, err := c.AddGrant(ctx, toolgate.Grant{Scope: toolgate.ScopeSession, Session: "s1", Tool: "Bash", Kind: toolgate.GrantPrefix, Pattern: "git push"}, human)
		if err != nil {
			t.Fatal(err)
		}
		step("right after a grant on C", push, true)
		if err := b.RevokeGrant(ctx, g.ID, human); err != nil {
			t.Fatal(err)
		}
		step("right after the grant was revoked on B", push, false)
		step("right after the revoke, user-side twin", read, true)
		if _, err := b.SetMode(ctx, "s1", toolgate.ModeYolo, human); err != nil {
			t.Fatal(err)
		}
		step("right after yolo on B", mcp, true)
		if _, err := c.SetMode(ctx, "s1", toolgate.ModeDefault, human); err != nil {
			t.Fatal(err)
		}
		step("right after default mode on C", mcp, false)
	}

	// The stop flag: a hard deny on B stops the session on A.
	p := submitOn(t, a, shellCall("s1", "c7", "git push origin main"))
	if p.Approval == nil {
		t.Fatalf("c7: %s", p.Decision.Action)
	}
	awaitLeased(t, a, h, read)
	if _, err := b.Deny(ctx, p.Approval.ID, toolgate.DenyRequest{Mode: toolgate.DenyHard}, human); err != nil {
		t.Fatal(err)
	}
	step("right after a hard deny on B (session stopped)", read, false)
	if _, err := c.EndTurn(ctx, "s1", human); err != nil {
		t.Fatal(err)
	}
	step("right after the turn ended on C", read, true)
}

// TestNodesLeaseLapsed: a node whose lease is no longer renewed (here: it
// renews once an hour) stops deciding on its caches when the lease runs
// out by its own clock; it reads the head before each dry run again, and
// never allows what the database denies, while writers on other nodes no
// longer wait for it. Then its LISTEN connection is cut: still nothing
// stale is allowed.
func TestNodesLeaseLapsed(t *testing.T) {
	t.Parallel()
	// A is started last, so that its one lease (trusted 3.75 s from
	// when its LISTEN connection is up) is still trusted when the test
	// looks for it on a loaded machine.
	ns, h := leaseNodes(t, 2, 1, func(i int) (time.Duration, time.Duration) {
		if i == 1 {
			return 5 * time.Second, time.Hour
		}
		return 2 * time.Second, 500 * time.Millisecond
	})
	a, b := ns[1], ns[0]
	ctx := context.Background()
	push := shellCall("s1", "p", "git push origin main")
	read := toolgate.Call{ID: "r", Session: "s1", Tool: "Read", Args: map[string]any{"file_path": "/home/user/notes.txt"}}
	submitOn(t, a, read)
	awaitLeased(t, a, h, read)
	// Event-driven: the lease lapses when A's clock says so; wait for the
	// first dry run that reads the head.
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, readHead := dry(t, a, h, read); readHead {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("A kept deciding on a lease it stopped renewing")
		}
		time.Sleep(5 * time.Millisecond)
	}
	for range 5 {
		g, err := b.AddGrant(ctx, toolgate.Grant{Scope: toolgate.ScopeSession, Session: "s1", Tool: "Bash", Kind: toolgate.GrantPrefix, Pattern: "git push"}, human)
		if err != nil {
			t.Fatal(err)
		}
		if got, readHead := dry(t, a, h, push); got != toolgate.Allow || !readHead {
			t.Fatalf("after a grant on B, lease lapsed: %s (head read %v), want allow after a head read", got, readHead)
		}
		if err := b.RevokeGrant(ctx, g.ID, human); err != nil {
			t.Fatal(err)
		}
		if got, readHead := dry(t, a, h, push); got == toolgate.Allow || !readHead {
			t.Fatalf("after the revoke on B, lease lapsed: %s (head read %v), want no allow after a head read", got, readHead)
		}
		if got, _ := dry(t, a, h, read); got != toolgate.Allow {
			t.Fatalf("user-side twin: %s", got)
		}
	}

	// Cut B's LISTEN connection (B holds a live lease): B must not allow
	// what A's changes deny, before or after it reconnects.
	g, err := a.AddGrant(ctx, toolgate.Grant{Scope: toolgate.ScopeSession, Session: "s1", Tool: "Bash", Kind: toolgate.GrantPrefix, Pattern: "git push"}, human)
	if err != nil {
		t.Fatal(err)
	}
	if d, err := b.Evaluate(ctx, push); err != nil || d.Action != toolgate.Allow {
		t.Fatalf("on B after the grant: %s %v", d.Action, err)
	}
	var n int
	if err := h.Pool().QueryRow(ctx, `SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE application_name LIKE 'toolgate-listen-%' AND query = $1`, `LISTEN "`+h.Channel()+`"`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Fatalf("terminated %d LISTEN backends, want 2 (both nodes')", n)
	}
	if err := a.RevokeGrant(ctx, g.ID, human); err != nil {
		t.Fatal(err)
	}
	if d, err := b.Evaluate(ctx, push); err != nil || d.Action == toolgate.Allow {
		t.Fatalf("on B after the revoke on A, LISTEN cut: %s %v", d.Action, err)
	}
}

// TestNodesWriterBoundedByDeadLease: a node that died just after renewing
// its lease (a row with a live lease that never applies anything) holds a
// change's writer up until that lease lapses, and no longer: the writer
// neither hangs nor returns before the lease is gone.
func TestNodesWriterBoundedByDeadLease(t *testing.T) {
	t.Parallel()
	var db0 *postgres.DB
	ns := nodesDB(t, 1, nil, func(_ int, db *postgres.DB) store.Store { db0 = db; return db })
	b := ns[0]
	ctx := context.Background()
	submitOn(t, b, toolgate.Call{ID: "r", Session: "s1", Tool: "Read", Args: map[string]any{"file_path": "/home/user/notes.txt"}})
	const lease = 3 * time.Second
	var until time.Time
	if err := db0.Pool().QueryRow(ctx, `INSERT INTO nodes (node_id, applied_seq, lease_until)
		VALUES ('dead', 0, clock_timestamp() + $1::bigint * interval '1 microsecond') RETURNING lease_until`,
		lease.Microseconds()).Scan(&until); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	wctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if _, err := b.AddGrant(wctx, toolgate.Grant{Scope: toolgate.ScopeSession, Session: "s1", Tool: "Bash", Kind: toolgate.GrantPrefix, Pattern: "git push"}, human); err != nil {
		t.Fatalf("a write with a dead node's lease live: %v (after %v)", err, time.Since(start))
	}
	var lapsed bool
	if err := db0.Pool().QueryRow(ctx, `SELECT $1::timestamptz <= clock_timestamp()`, until).Scan(&lapsed); err != nil {
		t.Fatal(err)
	}
	if !lapsed {
		t.Fatalf("the write returned after %v, before the dead node's lease lapsed", time.Since(start))
	}
	// With the lease gone, writes no longer wait for it.
	if _, err := b.AddGrant(wctx, toolgate.Grant{Scope: toolgate.ScopeSession, Session: "s1", Tool: "Bash", Kind: toolgate.GrantPrefix, Pattern: "npm test"}, human); err != nil {
		t.Fatal(err)
	}
}
