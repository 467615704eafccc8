package approval

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/store/fsrules"
	"github.com/toolgate/toolgate/store/sqlite"
)

// TestTwoWaitersOneCall: two requests wait on one call id (seed 004's
// two POSTs of one callId). The first to go away does not cancel the
// approval the other still waits for; the last one does.
func TestTwoWaitersOneCall(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := sqlite.Open(ctx, filepath.Join(dir, "toolgate.db"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(ctx, db, NewWorkspaces(fsrules.New(dir, policy.DefaultRulesJSONC()), nil))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close(); db.Close() })
	req := toolgate.SubmitRequest{Call: toolgate.Call{ID: "c1", Session: "s1", Tool: "Bash", Args: map[string]any{"command": "git push origin main"}}}
	holders := func() int {
		b.mu.Lock()
		defer b.mu.Unlock()
		return b.holders["s1\x00c1"]
	}
	type out struct {
		r   *toolgate.Result
		err error
	}
	wait := func(ctx context.Context) <-chan out {
		ch := make(chan out, 1)
		go func() { r, err := b.RequestApproval(ctx, req); ch <- out{r, err} }()
		return ch
	}
	until := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}

	stored := func(id string) func() bool {
		return func() bool {
			x, err := b.store.GetApprovalByCall(ctx, "s1", id)
			return err == nil && x.Status == toolgate.StatusPending
		}
	}
	ctxA, leaveA := context.WithCancel(ctx)
	a := wait(ctxA)
	until("the first waiter's approval", stored("c1"))
	second := wait(ctx)
	until("the second waiter", func() bool { return holders() == 2 })

	leaveA()
	if o := <-a; o.err == nil || o.r.Approval.Status != toolgate.StatusPending {
		t.Fatalf("the waiter that left: %v %+v, want its context's error and the approval still pending", o.err, o.r)
	}
	pending, err := b.store.GetApprovalByCall(ctx, "s1", "c1")
	if err != nil || pending.Status != toolgate.StatusPending {
		t.Fatalf("after one of two waiters left: %+v %v, want pending", pending, err)
	}
	if _, err := b.Approve(ctx, pending.ID, toolgate.ApproveRequest{}, toolgate.Actor{Name: "alice", Via: "test"}); err != nil {
		t.Fatal(err)
	}
	if o := <-second; o.err != nil || o.r.Approval.Status != toolgate.StatusApproved {
		t.Fatalf("the waiter that stayed: %v %+v, want the approval", o.err, o.r)
	}

	// Alone, a waiter that leaves cancels its call.
	req.Call.ID = "c2"
	ctxC, leaveC := context.WithCancel(ctx)
	c := wait(ctxC)
	until("the lone waiter's approval", stored("c2"))
	leaveC()
	if o := <-c; o.r == nil || o.r.Approval.Status != toolgate.StatusCancelled {
		t.Fatalf("the lone waiter that left: %+v, want its approval cancelled", o.r)
	}
}
