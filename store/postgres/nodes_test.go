package postgres_test

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/digest"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/tokens"
)

// TestOpenConcurrently: nodes starting at once on an empty schema migrate
// it once (the advisory lock) and all come up.
func TestOpenConcurrently(t *testing.T) {
	t.Parallel()
	schema := newSchema(t)
	var wg sync.WaitGroup
	errs := make(chan error, 5)
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db := open(t, schema)
			errs <- db.Close()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	db := open(t, schema)
	defer db.Close()
	var n, v int
	if err := db.Pool().QueryRow(t.Context(), `SELECT COUNT(*), MAX(version) FROM schema_version`).Scan(&n, &v); err != nil {
		t.Fatal(err)
	}
	if n != v || n < 3 {
		t.Fatalf("schema_version: %d rows up to version %d: a migration ran twice or not at all", n, v)
	}
}

// TestAuditOneChainAcrossNodes: two nodes appending at once build one
// chain, with no fork and no gap, and the log refuses changes.
func TestAuditOneChainAcrossNodes(t *testing.T) {
	t.Parallel()
	schema := newSchema(t)
	a, b := open(t, schema), open(t, schema)
	defer a.Close()
	defer b.Close()
	ctx := t.Context()
	var wg sync.WaitGroup
	for i, db := range []store.Store{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 40 {
				e := toolgate.AuditEntry{Time: time.Now(), Kind: "decision", Tool: fmt.Sprintf("node%d-%d", i, j), Outcome: "allow"}
				if err := db.AppendAudit(ctx, e, e); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	es, err := a.ListAudit(ctx, store.AuditFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 160 {
		t.Fatalf("%d entries, want 160", len(es))
	}
	prev := ""
	for i, e := range es {
		if e.Seq != int64(i+1) || e.PrevHash != prev || e.Hash != digest.AuditEntry(e) {
			t.Fatalf("entry %d (seq %d) does not chain", i, e.Seq)
		}
		prev = e.Hash
	}
	for _, q := range []string{`UPDATE audit SET outcome = 'deny'`, `DELETE FROM audit`, `TRUNCATE audit`} {
		if _, err := a.Pool().Exec(ctx, q); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s: %v, want the append-only refusal", q, err)
		}
	}
	h, err := b.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if h.Seq != 160 || h.ChangeSeq != 0 {
		t.Fatalf("head %+v: want seq 160 and no cache-relevant change (decisions only)", h)
	}
}

// TestRulesShared: a workspace document is seeded once, and edits from
// two nodes at once all land, each moving the version and the feed head.
func TestRulesShared(t *testing.T) {
	t.Parallel()
	schema := newSchema(t)
	a, b := open(t, schema), open(t, schema)
	defer a.Close()
	defer b.Close()
	ctx := t.Context()
	defaults := []byte("{\n  // the defaults\n  \"shell_exec\": \"ask\"\n}\n")
	ra, rb := a.Rules(defaults), b.Rules(defaults)
	src, v1, err := ra.Document(ctx, "w1")
	if err != nil || !bytes.Equal(src, defaults) {
		t.Fatalf("seeded document %q %v", src, err)
	}
	var wg sync.WaitGroup
	for i, r := range []store.Rules{ra, rb} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 10 {
				err := r.UpdateDocument(ctx, "w1", func(src []byte) ([]byte, error) {
					return append(src, fmt.Sprintf("// node %d edit %d\n", i, j)...), nil
				})
				if err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	src, v2, err := rb.Document(ctx, "w1")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(src), "// node "); n != 20 || !bytes.HasPrefix(src, defaults) {
		t.Fatalf("%d of 20 edits landed:\n%s", n, src)
	}
	if v1 == v2 {
		t.Fatal("version did not move")
	}
	es, err := a.ListAudit(ctx, store.AuditFilter{Kind: "rules.changed", Workspace: "w1"})
	if err != nil || len(es) != 20 {
		t.Fatalf("%d rules.changed entries (want 20: one per edit, none for the seed): %v", len(es), err)
	}
	if h, _ := a.Head(ctx); h.ChangeSeq != es[len(es)-1].Seq {
		t.Fatalf("feed head %d, want the last rules change %d", h.ChangeSeq, es[len(es)-1].Seq)
	}
	if err := ra.PutDocument(ctx, "../etc", []byte("{}")); toolgate.ErrorCodeOf(err) != toolgate.EInvalid {
		t.Fatalf("workspace id ../etc: %v, want invalid", err)
	}
}

// TestTokensShared: a credential created through one node verifies on
// another, and a revoked one stops verifying there.
func TestTokensShared(t *testing.T) {
	t.Parallel()
	schema := newSchema(t)
	a, b := open(t, schema), open(t, schema)
	defer a.Close()
	defer b.Close()
	ta, err := tokens.OpenBackend(a.Tokens(), tokens.WithCheckInterval(0))
	if err != nil {
		t.Fatal(err)
	}
	tb, err := tokens.OpenBackend(b.Tokens(), tokens.WithCheckInterval(0))
	if err != nil {
		t.Fatal(err)
	}
	tok, err := ta.Create("alice", tokens.RoleApprover)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tb.Create("alice", tokens.RoleAdmin); toolgate.ErrorCodeOf(err) != toolgate.EConflict {
		t.Fatalf("same name on the other node: %v, want conflict", err)
	}
	if e, ok := tb.Verify(tok); !ok || e.Role != tokens.RoleApprover {
		t.Fatalf("verify on b: %v %v", e, ok)
	}
	if err := tb.Revoke("alice"); err != nil {
		t.Fatal(err)
	}
	if _, ok := ta.Verify(tok); ok {
		t.Fatal("a revoked token still verifies on the other node")
	}
}

// TestChangesAfterReconnect: when the LISTEN connection is cut (its
// backend terminated), the store reconnects and signals, so the reader
// catches up with what was written while it was gone.
func TestChangesAfterReconnect(t *testing.T) {
	t.Parallel()
	schema := newSchema(t)
	a, b := open(t, schema), open(t, schema)
	defer a.Close()
	defer b.Close()
	ctx := t.Context()
	ch := a.Changes()
	wait := func(what string) {
		t.Helper()
		select {
		case <-ch:
		case <-time.After(10 * time.Second):
			t.Fatalf("no change signalled %s", what)
		}
	}
	wait("on connect")
	e := toolgate.AuditEntry{Time: time.Now(), Kind: "grant.added", Tool: "Read"}
	if err := b.AppendAudit(ctx, e); err != nil {
		t.Fatal(err)
	}
	wait("for another node's append")
	var n int
	if err := b.Pool().QueryRow(ctx, `SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE application_name LIKE 'toolgate-listen-%' AND query = $1`, `LISTEN "`+a.Channel()+`"`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("terminated %d LISTEN backends, want 1", n)
	}
	wait("after the LISTEN connection came back")
}
