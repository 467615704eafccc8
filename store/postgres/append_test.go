package postgres_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/digest"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/postgres"
)

func entry(kind, id string) toolgate.AuditEntry {
	return toolgate.AuditEntry{Time: time.Unix(1700000000, 0), Kind: kind, Session: "s1", CallID: id, Outcome: "allow"}
}

// verify checks that the log holds want entries, numbered 1…want and
// chained.
func verify(t *testing.T, db *postgres.DB, want int) []toolgate.AuditEntry {
	t.Helper()
	es, err := db.ListAudit(t.Context(), store.AuditFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != want {
		t.Fatalf("%d entries, want %d", len(es), want)
	}
	for i, e := range es {
		if e.Seq != int64(i+1) {
			t.Fatalf("entry %d has seq %d", i, e.Seq)
		}
	}
	if err := digest.VerifyChain(es, ""); err != nil {
		t.Fatal(err)
	}
	return es
}

// TestGuardedAppend: a decision made on caches current up to entry n is
// appended only if no change caches depend on was appended after n, on
// this node or another; a plain decision appended meanwhile does not
// count. Node A appends in one round trip while it made the last append,
// and falls back to reading the head when another node appended.
func TestGuardedAppend(t *testing.T) {
	t.Parallel()
	schema := newSchema(t)
	a, b := open(t, schema), open(t, schema)
	defer a.Close()
	defer b.Close()
	ctx := t.Context()
	appendIf := func(db *postgres.DB, applied int64, id string) bool {
		t.Helper()
		ok, err := db.AppendAuditIfCurrent(ctx, applied, entry("decision", id))
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if !appendIf(a, 0, "d1") { // an empty log: nothing to be stale about
		t.Fatal("first decision refused")
	}
	if !appendIf(a, 0, "d2") { // a decision is no change
		t.Fatal("decision after a decision refused")
	}
	if fast, _, _ := a.AppendCounts(); fast == 0 {
		t.Error("A made the last append but never appended in one round trip")
	}
	// A change on B (a revoked grant) after A's caches were current at 2.
	if err := b.AppendAudit(ctx, entry(string(toolgate.EventGrantRevoked), "")); err != nil {
		t.Fatal(err)
	}
	_, _, missedBefore := a.AppendCounts()
	if appendIf(a, 2, "stale") {
		t.Fatal("decision on caches older than a change on another node was appended")
	}
	if _, slow, missed := a.AppendCounts(); missed == missedBefore && slow == 0 {
		t.Error("the stale decision was refused without the head being read")
	}
	if !appendIf(a, 3, "d3") { // caught up to the change
		t.Fatal("decision on current caches refused")
	}
	// The same on one node: A's own change.
	if err := a.AppendAudit(ctx, entry(string(toolgate.EventModeChanged), "")); err != nil {
		t.Fatal(err)
	}
	if appendIf(a, 4, "stale2") {
		t.Fatal("decision on caches older than this node's own change was appended")
	}
	if !appendIf(b, 5, "d4") {
		t.Fatal("decision on B on current caches refused")
	}
	es := verify(t, a, 6)
	for _, e := range es {
		if e.CallID == "stale" || e.CallID == "stale2" {
			t.Errorf("a refused decision is in the log: %+v", e)
		}
	}
	h, err := b.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if h.Seq != 6 || h.ChangeSeq != 5 {
		t.Errorf("head %+v, want seq 6, change 5", h)
	}
}

// TestGroupedAppendsKeepOneChain: appends made at once on two nodes, some
// guarded and some not, are committed in groups and still make one
// chain, each entry once.
func TestGroupedAppendsKeepOneChain(t *testing.T) {
	t.Parallel()
	schema := newSchema(t)
	nodes := []*postgres.DB{open(t, schema), open(t, schema)}
	for _, db := range nodes {
		defer db.Close()
	}
	ctx := context.Background()
	const per = 40
	var wg sync.WaitGroup
	errs := make(chan error, 2*per)
	for n, db := range nodes {
		for i := range per {
			wg.Go(func() {
				e := entry("decision", fmt.Sprintf("n%d-%d", n, i))
				var err error
				if i%2 == 0 {
					var ok bool
					// No change is ever appended: every guard holds.
					if ok, err = db.AppendAuditIfCurrent(ctx, 0, e); err == nil && !ok {
						err = fmt.Errorf("%s refused", e.CallID)
					}
				} else {
					err = db.AppendAudit(ctx, e, entry("decision", e.CallID+"b"))
				}
				if err != nil {
					errs <- err
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	es := verify(t, nodes[0], 2*per+per) // the unguarded half append two each
	seen := map[string]int{}
	for _, e := range es {
		seen[e.CallID]++
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s appended %d times", id, n)
		}
	}
	for i, db := range nodes {
		fast, slow, missed := db.AppendCounts()
		t.Logf("node %d: %d groups in one round trip, %d in two, %d found the head moved", i, fast, slow, missed)
	}
}
