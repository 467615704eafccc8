package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/faultnet"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/postgres"
)

// faultOps are the store's calls a fault must fail fast and closed: reads,
// writes, the session lock, the feed's head.
var faultOps = []struct {
	name string
	call func(ctx context.Context, db *postgres.DB) error
}{
	{"get session", func(ctx context.Context, db *postgres.DB) error {
		_, err := db.GetSession(ctx, "s1")
		return err
	}},
	{"list approvals", func(ctx context.Context, db *postgres.DB) error {
		_, err := db.ListApprovals(ctx, store.ApprovalFilter{Status: toolgate.StatusPending})
		return err
	}},
	{"get approval", func(ctx context.Context, db *postgres.DB) error {
		_, err := db.GetApproval(ctx, "ap_none")
		return err
	}},
	{"put session", func(ctx context.Context, db *postgres.DB) error {
		now := time.Now()
		return db.PutSession(ctx, &toolgate.Session{ID: "s1", Workspace: "w", CreatedAt: now, UpdatedAt: now})
	}},
	{"append audit", func(ctx context.Context, db *postgres.DB) error {
		return db.AppendAudit(ctx, toolgate.AuditEntry{Kind: "decision", Time: time.Now(), Outcome: "allow"})
	}},
	{"resolve approval", func(ctx context.Context, db *postgres.DB) error {
		return db.ResolveApproval(ctx, "ap_none", toolgate.Resolution{Status: toolgate.StatusDenied, At: time.Now()}, nil)
	}},
	{"feed head", func(ctx context.Context, db *postgres.DB) error {
		_, err := db.Head(ctx)
		return err
	}},
	{"lock session", func(ctx context.Context, db *postgres.DB) error {
		unlock, err := db.LockSession(ctx, "s1")
		if err == nil {
			unlock()
		}
		return err
	}},
}

// TestBlackholedDatabase: a node whose network to the database goes
// silent (no reset: every packet dropped) fails each store call with
// EUnavailable after the call timeout, not when TCP gives up minutes
// later, and works again once the network is back.
func TestBlackholedDatabase(t *testing.T) {
	t.Parallel()
	u, err := url.Parse(dsn(t))
	if err != nil {
		t.Fatal(err)
	}
	schema := newSchema(t) // dropped after the relay closed, as the cleanups run last first
	relay := faultnet.New(t, u.Host)
	u.Host = relay.Addr()
	db, err := postgres.Open(t.Context(), u.String(), postgres.WithSchema(schema), postgres.WithMaxConns(2),
		postgres.WithOpTimeout(500*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, op := range faultOps {
		if err := op.call(t.Context(), db); err != nil && toolgate.ErrorCodeOf(err) != toolgate.ENotFound && toolgate.ErrorCodeOf(err) != toolgate.EConflict {
			t.Fatalf("%s before the cut: %v", op.name, err)
		}
	}
	relay.Cut()
	for _, op := range faultOps {
		// The caller's context has no deadline: the store's own bound
		// must end the call. A test-side limit far above it only keeps a
		// regression from hanging the suite for TCP's two minutes.
		done := make(chan error, 1)
		start := time.Now()
		go func() { done <- op.call(context.Background(), db) }()
		select {
		case err := <-done:
			t.Logf("%s with the network cut: %v after %s", op.name, toolgate.ErrorCodeOf(err), time.Since(start).Round(time.Millisecond))
			if toolgate.ErrorCodeOf(err) != toolgate.EUnavailable {
				t.Errorf("%s with the network cut: %v (code %q), want unavailable", op.name, err, toolgate.ErrorCodeOf(err))
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s with the network cut: no answer", op.name)
		}
	}
	relay.Restore()
	for _, op := range faultOps {
		var err error
		for range 20 { // connections that saw the cut are dropped as they fail
			if err = op.call(t.Context(), db); err == nil || toolgate.ErrorCodeOf(err) != toolgate.EUnavailable {
				break
			}
			st := db.Pool().Stat()
			t.Logf("%s: %v; pool total %d idle %d acquired %d constructing %d", op.name, err, st.TotalConns(), st.IdleConns(), st.AcquiredConns(), st.ConstructingConns())
		}
		if err != nil && toolgate.ErrorCodeOf(err) != toolgate.ENotFound && toolgate.ErrorCodeOf(err) != toolgate.EConflict {
			t.Errorf("%s after the network is back: %v", op.name, err)
		}
	}
}

// TestKilledConnections: when the database ends the store's connections
// (pg_terminate_backend, as an administrator or a restart does), every
// call either works on a new connection or fails with EUnavailable:
// never an internal error (a 500) for what is a fault.
func TestKilledConnections(t *testing.T) {
	t.Parallel()
	var b [6]byte
	rand.Read(b[:])
	app := "tgkill_" + hex.EncodeToString(b[:])
	u, err := url.Parse(dsn(t))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("application_name", app)
	u.RawQuery = q.Encode()
	db, err := postgres.Open(t.Context(), u.String(), postgres.WithSchema(newSchema(t)), postgres.WithMaxConns(2))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// The admin connection only terminates backends; it works in a schema of
	// its own so that whatever version the public schema holds cannot fail it.
	admin, err := postgres.Open(t.Context(), dsn(t), postgres.WithSchema(newSchema(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	killed, failed := 0, 0
	for round := range 3 {
		for _, op := range faultOps {
			var n int
			if err := admin.Pool().QueryRow(t.Context(), `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1`, app).Scan(&n); err != nil {
				t.Fatal(err)
			}
			killed += n
			err := op.call(t.Context(), db)
			switch code := toolgate.ErrorCodeOf(err); {
			case err == nil, code == toolgate.ENotFound, code == toolgate.EConflict:
			case code == toolgate.EUnavailable:
				if failed++; failed == 1 {
					t.Logf("%s: %v", op.name, err)
				}
			default:
				t.Errorf("round %d, %s after its connections were killed: %v (code %q)", round, op.name, err, code)
			}
		}
	}
	if killed == 0 {
		t.Fatal("no connection of the store's was killed: the test tested nothing")
	}
	t.Logf("%d connections killed, %d calls failed with unavailable", killed, failed)
}
