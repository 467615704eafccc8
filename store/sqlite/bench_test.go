package sqlite_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/sqlite"
)

func benchDB(b *testing.B) *sqlite.DB {
	b.Helper()
	db, err := sqlite.Open(b.Context(), filepath.Join(b.TempDir(), "toolgate.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

func benchApproval(i int, now time.Time) *toolgate.Approval {
	id := fmt.Sprintf("a%d", i)
	return &toolgate.Approval{
		ID: id, ResumeToken: "rt-" + id, Status: toolgate.StatusPending,
		Call: toolgate.Call{ID: fmt.Sprintf("c%d", i), Session: "s1", Workspace: "w1", Tool: "Bash",
			Args: map[string]any{"command": "git push origin main"}},
		Decision: toolgate.Decision{Action: toolgate.Ask, Reason: "no rule allows git push",
			Subjects:    []toolgate.SubjectResult{{Kind: toolgate.SubjectCommand, Text: "git push origin main", Action: toolgate.Ask, Open: true}},
			Suggestions: []toolgate.Suggestion{{Tool: "Bash", Pattern: "git push *"}}},
		CreatedAt: now, ExpiresAt: now.Add(5 * time.Minute),
	}
}

func benchEntry(kind string, now time.Time) toolgate.AuditEntry {
	return toolgate.AuditEntry{Time: now, Kind: kind, Session: "s1", Workspace: "w1", CallID: "c1",
		Tool: "Bash", Outcome: "ask", Who: "toolgate", Via: "rules", Data: []byte(`{"command":"git push origin main"}`)}
}

// BenchmarkApprovalRoundTrip creates an approval and resolves it with a
// session grant, each with its audit entry: two durable transactions.
func BenchmarkApprovalRoundTrip(b *testing.B) {
	db := benchDB(b)
	ctx := b.Context()
	now := time.Now()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		a := benchApproval(i, now)
		if _, err := db.CreateApproval(ctx, a, benchEntry("approval.requested", now)); err != nil {
			b.Fatal(err)
		}
		res := toolgate.Resolution{Status: toolgate.StatusApproved, Scope: toolgate.ScopeSession,
			Grant: toolgate.GrantPattern, Pattern: "git push *", GrantID: "g" + a.ID, By: "alice", Via: "web", At: now}
		g := &toolgate.Grant{ID: "g" + a.ID, Scope: toolgate.ScopeSession, Kind: toolgate.GrantPattern, Tool: "Bash",
			Pattern: "git push *", Session: "s1", Workspace: "w1", ApprovalID: a.ID, CreatedBy: "alice", CreatedAt: now}
		if err := db.ResolveApproval(ctx, a.ID, res, g, benchEntry("approval.resolved", now)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendAudit appends one entry per durable transaction.
func BenchmarkAppendAudit(b *testing.B) {
	db := benchDB(b)
	ctx := b.Context()
	e := benchEntry("decision", time.Now())
	b.ReportAllocs()
	for b.Loop() {
		if err := db.AppendAudit(ctx, e); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendAuditParallel appends from many goroutines at once.
func BenchmarkAppendAuditParallel(b *testing.B) {
	db := benchDB(b)
	ctx := b.Context()
	e := benchEntry("decision", time.Now())
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := db.AppendAudit(ctx, e); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkGetApproval reads one approval among 1,000.
func BenchmarkGetApproval(b *testing.B) {
	db := benchDB(b)
	ctx := b.Context()
	now := time.Now()
	for i := range 1000 {
		if _, err := db.CreateApproval(ctx, benchApproval(i, now)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		if _, err := db.GetApproval(ctx, fmt.Sprintf("a%d", i%1000)); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := db.ListApprovals(ctx, store.ApprovalFilter{Status: toolgate.StatusPending, Limit: 1}); err != nil {
		b.Fatal(err)
	}
}
