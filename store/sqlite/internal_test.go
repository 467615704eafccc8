package sqlite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/internal/sqlstore"
)

func TestConnectionPragmas(t *testing.T) {
	t.Parallel()
	db, err := Open(t.Context(), filepath.Join(t.TempDir(), "toolgate.db"), WithBusyTimeout(1234*time.Millisecond), WithReadConns(2))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, c := range []struct {
		name   string
		pragma string
		want   int
		writer bool
	}{
		{"writer synchronous", "synchronous", 2, true},
		{"writer foreign_keys", "foreign_keys", 1, true},
		{"writer busy_timeout", "busy_timeout", 1234, true},
		{"writer query_only", "query_only", 0, true},
		{"writer wal_autocheckpoint", "wal_autocheckpoint", writerCheckpointPages, true},
		{"reader synchronous", "synchronous", 2, false},
		{"reader foreign_keys", "foreign_keys", 1, false},
		{"reader busy_timeout", "busy_timeout", 1234, false},
		{"reader query_only", "query_only", 1, false},
	} {
		pool := db.r
		if c.writer {
			pool = db.w
		}
		var got int
		if err := pool.QueryRow("PRAGMA " + c.pragma).Scan(&got); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got != c.want {
			t.Errorf("%s = %d, want %d", c.name, got, c.want)
		}
	}
	if got := db.r.Stats().MaxOpenConnections; got != 2 {
		t.Errorf("read pool size %d, want 2", got)
	}
	if got := db.w.Stats().MaxOpenConnections; got != 1 {
		t.Errorf("write pool size %d, want 1", got)
	}
}

// writerSync is the writer connection's synchronous setting: that of the
// last commit (1 NORMAL, 2 FULL).
func writerSync(t *testing.T, db *DB) int {
	t.Helper()
	var got int
	if err := db.w.QueryRow("PRAGMA synchronous").Scan(&got); err != nil {
		t.Fatal(err)
	}
	return got
}

// Only a new pending approval is committed without an fsync; every
// answer, decision, grant and session change is durable when it returns.
func TestCommitDurability(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTemp(t)
	now := time.Now()
	a := &toolgate.Approval{ID: "ap_1", Call: toolgate.Call{ID: "c1", Session: "s", Workspace: "w", Tool: "deploy"}, CreatedAt: now, ExpiresAt: now.Add(time.Hour)}
	for _, c := range []struct {
		name  string
		write func() error
		want  int
	}{
		{"create approval", func() error {
			_, err := db.CreateApproval(ctx, a, toolgate.AuditEntry{Kind: "approval.requested"})
			return err
		}, 1},
		{"resolve approval", func() error {
			return db.ResolveApproval(ctx, "ap_1", toolgate.Resolution{Status: toolgate.StatusApproved, At: now}, nil, toolgate.AuditEntry{Kind: "approval.resolved"})
		}, 2},
		{"another approval", func() error {
			b := *a
			b.ID, b.Call.ID = "ap_2", "c2"
			_, err := db.CreateApproval(ctx, &b)
			return err
		}, 1},
		{"decision", func() error { return db.AppendAudit(ctx, toolgate.AuditEntry{Kind: "decision", Outcome: "allow"}) }, 2},
		{"a third approval", func() error {
			b := *a
			b.ID, b.Call.ID = "ap_3", "c3"
			_, err := db.CreateApproval(ctx, &b)
			return err
		}, 1},
		{"session", func() error {
			return db.PutSession(ctx, &toolgate.Session{ID: "s", Workspace: "w", CreatedAt: now, UpdatedAt: now})
		}, 2},
		{"grant", func() error {
			return db.AddGrant(ctx, &toolgate.Grant{ID: "gr_1", Scope: toolgate.ScopeWorkspace, Kind: toolgate.GrantTool, Tool: "deploy", Pattern: "*", Workspace: "w", CreatedAt: now})
		}, 2},
	} {
		if err := c.write(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := writerSync(t, db); got != c.want {
			t.Errorf("%s committed with synchronous=%d, want %d", c.name, got, c.want)
		}
	}
}

// A group commit is durable if any write in it must be.
func TestGroupSync(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		group []syncLevel
		want  syncLevel
	}{
		{[]syncLevel{syncNormal}, syncNormal},
		{[]syncLevel{syncNormal, syncNormal}, syncNormal},
		{[]syncLevel{syncFull}, syncFull},
		{[]syncLevel{syncNormal, syncFull, syncNormal}, syncFull},
		{[]syncLevel{syncFull, syncNormal}, syncFull},
	} {
		group := make([]writeReq, len(c.group))
		for i, l := range c.group {
			group[i].sync = l
		}
		if got := groupSync(group); got != c.want {
			t.Errorf("group %v commits at %d, want %d", c.group, got, c.want)
		}
	}
}

// The checkpointer copies the WAL into the database file in the
// background: the file grows without any commit checkpointing (the
// writer's own automatic checkpoint is far off).
func TestCheckpointer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "toolgate.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	size := func() int64 {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	time.Sleep(2 * checkpointEvery) // what opening wrote is checkpointed
	before := size()
	reason := strings.Repeat("x", 2000)
	for i := range 100 {
		if err := db.AppendAudit(ctx, toolgate.AuditEntry{Kind: "test", Reason: fmt.Sprint(i, reason)}); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	for size() < before+100*2000 {
		if time.Now().After(deadline) {
			t.Fatalf("database file %d bytes after 200 KB written (%d before): not checkpointed", size(), before)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestSessionPendingByIndex: the read behind every new approval's
// session_waiting (the oldest pending approvals of one session) is served
// by an index in the order asked, not by walking every pending approval
// and sorting them.
func TestSessionPendingByIndex(t *testing.T) {
	t.Parallel()
	db, err := Open(t.Context(), filepath.Join(t.TempDir(), "toolgate.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	q, args, err := sqlstore.ApprovalsQuery(sqlstore.SQLite(), store.ApprovalFilter{Status: toolgate.StatusPending, Session: "s1", Limit: toolgate.MaxWaitingShown + 1})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := db.r.QueryContext(t.Context(), "EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	text := strings.Join(plan, "; ")
	if !strings.Contains(text, "USING INDEX approvals_session_pending") || strings.Contains(text, "TEMP B-TREE") {
		t.Errorf("plan of %s:\n%s\nwant a search of approvals_session_pending with no sort", q, text)
	}
}

// openTemp opens a new database in a temporary directory, closed when
// the test ends.
func openTemp(t *testing.T) *DB {
	t.Helper()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "toolgate.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
