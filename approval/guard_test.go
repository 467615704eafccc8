package approval_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/postgres"
)

// hookStore runs a function between a node's decision and its record: at
// the next guarded append, before the append.
type hookStore struct {
	*postgres.DB
	mu     sync.Mutex
	before func()
	stale  atomic.Int64 // guarded appends refused
}

func (h *hookStore) AppendAuditIfCurrent(ctx context.Context, applied int64, entries ...toolgate.AuditEntry) (bool, error) {
	h.mu.Lock()
	f := h.before
	h.before = nil
	h.mu.Unlock()
	if f != nil {
		f()
	}
	ok, err := h.DB.AppendAuditIfCurrent(ctx, applied, entries...)
	if err == nil && !ok {
		h.stale.Add(1)
	}
	return ok, err
}

func (h *hookStore) setBefore(f func()) {
	h.mu.Lock()
	h.before = f
	h.mu.Unlock()
}

// decisions returns the recorded decisions of a call.
func decisions(t *testing.T, b *approval.Broker, session, call string) []string {
	t.Helper()
	es, err := b.Audit(context.Background(), store.AuditFilter{Session: session, Kind: "decision"})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		if e.CallID == call {
			out = append(out, e.Outcome)
		}
	}
	return out
}

// TestNodesChangeBetweenDecisionAndRecord: node A decides on its caches
// and checks them when it records the decision. A grant revoked on node B
// after A decided (on caches that still held it) and before A recorded
// the decision must not allow: A applies the revoke and decides again.
// The twin: an unrelated change on B in the same window makes A decide
// again, and the call is still allowed, recorded once.
func TestNodesChangeBetweenDecisionAndRecord(t *testing.T) {
	t.Parallel()
	var hook *hookStore
	ns := nodesWith(t, 2, func(i int, db *postgres.DB) store.Store {
		if i > 0 {
			return db
		}
		hook = &hookStore{DB: db}
		return hook
	})
	a, b := ns[0], ns[1]
	ctx := context.Background()
	push := func(id string) toolgate.Call { return shellCall("s1", id, "git push origin main") }
	grant := func() *toolgate.Grant {
		g, err := b.AddGrant(ctx, toolgate.Grant{Scope: toolgate.ScopeSession, Session: "s1", Tool: "Bash", Kind: toolgate.GrantPrefix, Pattern: "git push"}, human)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}

	if got := actionOf(submitOn(t, a, push("c0"))); got != toolgate.Ask {
		t.Fatalf("before any grant: %s", got)
	}
	g := grant()
	if got := actionOf(submitOn(t, a, push("c1"))); got != toolgate.Allow {
		t.Fatalf("with the grant: %s", got)
	}
	hook.setBefore(func() {
		if err := b.RevokeGrant(ctx, g.ID, human); err != nil {
			t.Error(err)
		}
	})
	r := submitOn(t, a, push("c2"))
	if hook.stale.Load() == 0 {
		t.Fatal("A's record of c2 was not refused: the revoke did not land between its decision and its record")
	}
	if got := actionOf(r); got == toolgate.Allow {
		t.Fatal("allowed by a grant revoked on another node before the decision was recorded")
	}
	if got := decisions(t, a, "s1", "c2"); len(got) != 0 {
		t.Errorf("c2 recorded as decided %v; want only its approval", got)
	}

	// The twin: an unrelated change in the same window.
	grant()
	if got := actionOf(submitOn(t, a, push("c3"))); got != toolgate.Allow {
		t.Fatalf("with the new grant: %s", got)
	}
	staleBefore := hook.stale.Load()
	hook.setBefore(func() {
		if _, err := b.SetMode(ctx, "s2", toolgate.ModeYolo, human); err != nil {
			t.Error(err)
		}
	})
	if got := actionOf(submitOn(t, a, push("c4"))); got != toolgate.Allow {
		t.Fatalf("after an unrelated change on B: %s, want allow", got)
	}
	if hook.stale.Load() == staleBefore {
		t.Error("the unrelated change did not make A decide again: the window was not exercised")
	}
	if got := decisions(t, a, "s1", "c4"); len(got) != 1 || got[0] != "allow" {
		t.Errorf("c4 recorded as %v, want one allow", got)
	}
}
