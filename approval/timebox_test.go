package approval_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
)

// TestTimeBoxedGrant: "allow for 30 minutes" allows the call's twins
// until then and asks again after, at every scope; the stored grant
// keeps its expiry; a time-boxed workspace grant never reaches the rules
// document (which has no expiry); a time box on a once approval, or an
// unreadable or unbounded one, is refused with nothing applied.
func TestTimeBoxedGrant(t *testing.T) {
	t.Parallel()
	for _, scope := range []toolgate.Scope{toolgate.ScopeTurn, toolgate.ScopeSession, toolgate.ScopeWorkspace} {
		t.Run(string(scope), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			c := newClock()
			e := openEnv(t, dir, c)
			a := e.ask(t, shellCall("s1", "c1", "make deploy"))
			if _, err := e.broker.Approve(context.Background(), a.ID, toolgate.ApproveRequest{Scope: scope, For: "30m"}, human); err != nil {
				t.Fatal(err)
			}
			gs, err := e.broker.Grants(context.Background(), toolgate.GrantFilter{})
			if err != nil || len(gs) != 1 || !gs[0].ExpiresAt.Equal(c.Now().Add(30*time.Minute)) {
				t.Fatalf("grants: %+v %v", gs, err)
			}
			if got := e.final(t, shellCall("s1", "c2", "make deploy")); got != toolgate.Allow {
				t.Fatalf("within the time box: %s", got)
			}
			c.Add(29 * time.Minute)
			if got := e.final(t, shellCall("s1", "c3", "make deploy")); got != toolgate.Allow {
				t.Fatalf("a minute before the end: %s", got)
			}
			c.Add(time.Minute)
			if r := e.submit(t, shellCall("s1", "c4", "make deploy")); r.Approval == nil || r.Approval.Status != toolgate.StatusPending {
				t.Fatalf("at the end of the time box: %s, want ask", r.Decision.Action)
			}
			if got, err := e.broker.Evaluate(context.Background(), shellCall("s1", "", "make deploy")); err != nil || got.Action != toolgate.Ask {
				t.Fatalf("dry run after the end: %s %v", got.Action, err)
			}
			if scope == toolgate.ScopeWorkspace {
				doc, err := os.ReadFile(filepath.Join(dir, "workspaces", approval.DefaultWorkspace, "permissions.jsonc"))
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(string(doc), gs[0].ID) {
					t.Fatalf("the time-boxed grant is in the rules document:\n%s", doc)
				}
				// Revoking it needs no rule removed.
				if err := e.broker.RevokeGrant(context.Background(), gs[0].ID, human); err != nil {
					t.Fatalf("revoke: %v", err)
				}
			}
		})
	}
	t.Run("refused", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		a := e.ask(t, shellCall("s1", "c1", "make deploy"))
		for _, req := range []toolgate.ApproveRequest{
			{Scope: toolgate.ScopeOnce, For: "30m"},
			{For: "30m"},
			{Scope: toolgate.ScopeSession, For: "soon"},
			{Scope: toolgate.ScopeSession, For: "-5m"},
			{Scope: toolgate.ScopeSession, For: "10000h"},
		} {
			if _, err := e.broker.Approve(context.Background(), a.ID, req, human); toolgate.ErrorCodeOf(err) != toolgate.EInvalid {
				t.Errorf("%+v: %v, want invalid", req, err)
			}
		}
		if got, err := e.broker.Get(context.Background(), a.ID); err != nil || got.Status != toolgate.StatusPending {
			t.Fatalf("after refused answers: %+v %v", got, err)
		}
		// An admin's grant with an expiry in the past is refused too.
		past := toolgate.Grant{Scope: toolgate.ScopeGlobal, Tool: "Bash", Pattern: "make *", ExpiresAt: newClock().Now().Add(-time.Minute)}
		if _, err := e.broker.AddGrant(context.Background(), past, root); toolgate.ErrorCodeOf(err) != toolgate.EInvalid {
			t.Fatalf("a grant expired when added: %v", err)
		}
	})
}

// TestNodesTimeBoxedGrant: a time-boxed grant made on one node allows on
// another until its expiry, and no node allows by it after, each by its
// own clock.
func TestNodesTimeBoxedGrant(t *testing.T) {
	t.Parallel()
	c := newClock()
	ns := nodes(t, 2, approval.WithClock(c.Now))
	r := submitOn(t, ns[0], shellCall("s1", "c1", "make deploy"))
	if r.Approval == nil {
		t.Fatalf("want pending, got %s", r.Decision.Action)
	}
	if _, err := ns[0].Approve(context.Background(), r.Approval.ID, toolgate.ApproveRequest{Scope: toolgate.ScopeSession, For: "10m"}, human); err != nil {
		t.Fatal(err)
	}
	if got := actionOf(submitOn(t, ns[1], shellCall("s1", "c2", "make deploy"))); got != toolgate.Allow {
		t.Fatalf("on the other node within the time box: %s", got)
	}
	c.Add(10 * time.Minute)
	for i, n := range ns {
		if got := actionOf(submitOn(t, n, shellCall("s1", "c3"+string(rune('a'+i)), "make deploy"))); got != toolgate.Ask {
			t.Fatalf("node %d after the time box: %s", i, got)
		}
	}
}
