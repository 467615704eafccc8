package approval_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
)

// readCall is a Read of path in session s1.
func readCall(id, path string) toolgate.Call {
	return toolgate.Call{ID: id, Session: "s1", Tool: "Read", Args: map[string]any{"file_path": path}}
}

// TestConfirmNeedsPerson: a call submitted with Confirm is held for a
// person whatever the rules allow (the benign twin without Confirm is
// allowed), a deny stays a deny, and the reason leads with what the
// submitter said, its secrets masked.
func TestConfirmNeedsPerson(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const why = "the definition of tool write_note changed since it was pinned"
	for _, tc := range []struct {
		name    string
		call    toolgate.Call
		confirm string
		want    toolgate.Action
	}{
		{"allowed, no confirm", readCall("c1", "/home/user/project/main.go"), "", toolgate.Allow},
		{"allowed, confirm", readCall("c1", "/home/user/project/main.go"), why, toolgate.Ask},
		{"asks, confirm", shellCall("s1", "c1", "make deploy"), why, toolgate.Ask},
		{"denied, no confirm", readCall("c1", "/home/user/project/.env"), "", toolgate.Deny},
		{"denied, confirm", readCall("c1", "/home/user/project/.env"), why, toolgate.Deny},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			r, err := e.broker.Submit(ctx, toolgate.SubmitRequest{Call: tc.call, Confirm: tc.confirm})
			if err != nil {
				t.Fatal(err)
			}
			if r.Decision.Action != tc.want {
				t.Fatalf("action %s, want %s (%s)", r.Decision.Action, tc.want, r.Decision.Reason)
			}
			switch {
			case tc.want == toolgate.Ask && tc.confirm != "":
				if r.Approval == nil || r.Approval.Status != toolgate.StatusPending || r.Decision.Confirm != tc.confirm ||
					!strings.HasPrefix(r.Decision.Reason, tc.confirm) || r.Decision.Sandbox != nil {
					t.Errorf("want a pending approval led by the confirm reason: %+v %+v", r.Approval, r.Decision)
				}
			case r.Decision.Confirm != "" || r.Approval != nil:
				t.Errorf("a %s holds nothing and carries no confirm: %+v", r.Decision.Action, r)
			}
		})
	}
	t.Run("secrets masked, size bounded", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		key := "AKIA" + "Q3ZR7TX2LM4KD8WP"
		r, err := e.broker.Submit(ctx, toolgate.SubmitRequest{Call: readCall("c1", "/home/user/project/main.go"), Confirm: why + ": key " + key})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(r.Decision.Reason+r.Decision.Confirm, key) || !strings.Contains(r.Decision.Confirm, "AKIA…[redacted]") {
			t.Errorf("confirm reason not masked: %q / %q", r.Decision.Confirm, r.Decision.Reason)
		}
		_, err = e.broker.Submit(ctx, toolgate.SubmitRequest{Call: readCall("c2", "/home/user/project/main.go"), Confirm: strings.Repeat("x", approval.MaxConfirm+1)})
		if toolgate.ErrorCodeOf(err) != toolgate.ETooLarge {
			t.Errorf("oversized confirm: %v", err)
		}
	})
}

// TestConfirmOnlyPersonAnswers: a grant that allows the call, and an
// answer to the rest of its batch, approve the twin without Confirm and
// leave the one with Confirm pending; a person's approval resolves it.
func TestConfirmOnlyPersonAnswers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	twin := e.ask(t, batchCall("b1", 1, 3, "make release"))
	r, err := e.broker.Submit(ctx, toolgate.SubmitRequest{Call: batchCall("b1", 2, 3, "make release"), Confirm: "a person must see this"})
	if err != nil || r.Approval == nil {
		t.Fatalf("submit with confirm: %+v %v", r, err)
	}
	held := r.Approval
	first := e.ask(t, batchCall("b1", 0, 3, "make deploy"))
	if _, err := e.broker.Approve(ctx, first.ID, toolgate.ApproveRequest{Rest: true}, human); err != nil {
		t.Fatal(err)
	}
	if got := e.get(t, twin.ID); got.Status != toolgate.StatusApproved {
		t.Errorf("the rest of the batch: twin %s", got.Status)
	}
	if got := e.get(t, held.ID); got.Status != toolgate.StatusPending {
		t.Fatalf("the rest of the batch approved a call that needs a person's own answer: %s", got.Status)
	}
	// A session grant for every Bash call: the cascade passes it by.
	other := e.ask(t, shellCall("s1", "c9", "make lint"))
	if _, err := e.broker.Approve(ctx, other.ID, toolgate.ApproveRequest{Scope: toolgate.ScopeSession, Grant: toolgate.GrantTool}, root); err != nil {
		t.Fatal(err)
	}
	if got := e.get(t, held.ID); got.Status != toolgate.StatusPending {
		t.Fatalf("a grant's cascade approved a call that needs a person's own answer: %s", got.Status)
	}
	// Under that grant a new call with Confirm still asks, its twin is allowed.
	if a := e.final(t, shellCall("s1", "c10", "make release")); a != toolgate.Allow {
		t.Errorf("under the grant, the twin: %s", a)
	}
	r, err = e.broker.Submit(ctx, toolgate.SubmitRequest{Call: shellCall("s1", "c11", "make release"), Confirm: "a person must see this"})
	if err != nil || r.Approval == nil || r.Approval.Status != toolgate.StatusPending {
		t.Fatalf("under the grant, with confirm: %+v %v", r, err)
	}
	if _, err := e.broker.Approve(ctx, held.ID, toolgate.ApproveRequest{}, human); err != nil {
		t.Fatal(err)
	}
	if got := e.get(t, held.ID); got.Status != toolgate.StatusApproved || got.Resolution.By != human.Name {
		t.Errorf("a person's approval: %s %+v", got.Status, got.Resolution)
	}
}
