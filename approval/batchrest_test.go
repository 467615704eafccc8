package approval_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/toolgate/toolgate"
)

// batchCall is call i of a batch of n.
func batchCall(batch string, i, n int, command string) toolgate.Call {
	c := shellCall("s1", fmt.Sprint(batch, "-", i), command)
	c.Batch = &toolgate.Batch{ID: batch, Index: i, Total: n}
	return c
}

// TestAnswerRestOfBatch: one answer approves or denies the other pending
// calls of the batch; approving, each is decided again by its own rules
// as they stand (here the session's mode now denies everything it asks
// about), so a deny stays a deny. Calls of another batch are left; a
// call in no batch has no rest (400, nothing applied).
func TestAnswerRestOfBatch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("approve", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		first := e.ask(t, batchCall("b1", 0, 3, "make deploy"))
		second := e.ask(t, batchCall("b1", 1, 3, "make release"))
		third := e.ask(t, batchCall("b1", 2, 3, "make publish"))
		other := e.ask(t, batchCall("b2", 0, 1, "make clean"))
		if _, err := e.broker.Approve(ctx, first.ID, toolgate.ApproveRequest{Rest: true}, human); err != nil {
			t.Fatal(err)
		}
		for _, a := range []*toolgate.Approval{first, second, third} {
			if got := e.get(t, a.ID); got.Status != toolgate.StatusApproved {
				t.Errorf("%s: %s", got.Call.ID, got.Status)
			}
		}
		if got := e.get(t, other.ID); got.Status != toolgate.StatusPending {
			t.Errorf("another batch's call: %s", got.Status)
		}
	})
	t.Run("approve, own rules deny", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		first := e.ask(t, batchCall("b1", 0, 2, "make deploy"))
		second := e.ask(t, batchCall("b1", 1, 2, "make release"))
		if _, err := e.broker.SetMode(ctx, "s1", toolgate.ModeAutoDeny, human); err != nil {
			t.Fatal(err)
		}
		if _, err := e.broker.Approve(ctx, first.ID, toolgate.ApproveRequest{Rest: true}, human); err != nil {
			t.Fatal(err)
		}
		if got := e.get(t, first.ID); got.Status != toolgate.StatusApproved {
			t.Errorf("the answered call: %s", got.Status)
		}
		if got := e.get(t, second.ID); got.Status != toolgate.StatusDenied || got.Resolution.DenyMode != toolgate.DenySoft {
			t.Errorf("the rest, which its rules now deny: %s %+v", got.Status, got.Resolution)
		}
	})
	t.Run("deny", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		first := e.ask(t, batchCall("b1", 0, 2, "make deploy"))
		second := e.ask(t, batchCall("b1", 1, 2, "make release"))
		other := e.ask(t, batchCall("b2", 0, 1, "make clean"))
		if _, err := e.broker.Deny(ctx, first.ID, toolgate.DenyRequest{Mode: toolgate.DenySoft, Feedback: "not today", Rest: true}, human); err != nil {
			t.Fatal(err)
		}
		if got := e.get(t, second.ID); got.Status != toolgate.StatusDenied || got.Resolution.Feedback != "not today" {
			t.Errorf("the rest: %s %+v", got.Status, got.Resolution)
		}
		if got := e.get(t, other.ID); got.Status != toolgate.StatusPending {
			t.Errorf("another batch's call after a soft deny: %s", got.Status)
		}
	})
	t.Run("no batch", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		a := e.ask(t, shellCall("s1", "c1", "make deploy"))
		if _, err := e.broker.Approve(ctx, a.ID, toolgate.ApproveRequest{Rest: true}, human); toolgate.ErrorCodeOf(err) != toolgate.EInvalid {
			t.Fatalf("approve rest: %v", err)
		}
		if _, err := e.broker.Deny(ctx, a.ID, toolgate.DenyRequest{Rest: true}, human); toolgate.ErrorCodeOf(err) != toolgate.EInvalid {
			t.Fatalf("deny rest: %v", err)
		}
		if got := e.get(t, a.ID); got.Status != toolgate.StatusPending {
			t.Fatalf("after refused answers: %s", got.Status)
		}
	})
}

func (e *env) get(t *testing.T, id string) *toolgate.Approval {
	t.Helper()
	a, err := e.broker.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
