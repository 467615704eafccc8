package toolgate_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/mock"
)

// TestRequestApprovalWithdrawsOnGiveUp: a caller that stops waiting
// withdraws its approval; it is never reported as allowed.
func TestRequestApprovalWithdrawsOnGiveUp(t *testing.T) {
	t.Parallel()
	pending := &toolgate.Approval{ID: "ap1", Status: toolgate.StatusPending}
	var cancelled []string
	g := &mock.Gate{
		SubmitFn: func(context.Context, toolgate.SubmitRequest) (*toolgate.Result, error) {
			return &toolgate.Result{Decision: toolgate.Decision{Action: toolgate.Ask}, Approval: pending}, nil
		},
		WaitFn: func(ctx context.Context, id string) (*toolgate.Approval, error) {
			<-ctx.Done()
			return pending, ctx.Err()
		},
		CancelFn: func(ctx context.Context, id, reason string) (*toolgate.Approval, error) {
			if ctx.Err() != nil {
				t.Error("Cancel got the caller's finished context")
			}
			cancelled = append(cancelled, id)
			return &toolgate.Approval{ID: id, Status: toolgate.StatusCancelled}, nil
		},
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	r, err := toolgate.RequestApproval(ctx, g, toolgate.SubmitRequest{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the deadline", err)
	}
	if action, final := r.Final(); action == toolgate.Allow || !final {
		t.Errorf("Final() = %v %v, want a final deny", action, final)
	}
	if len(cancelled) != 1 || cancelled[0] != "ap1" {
		t.Errorf("cancelled %v, want [ap1]", cancelled)
	}
}

func TestRequestApprovalAnswered(t *testing.T) {
	t.Parallel()
	g := &mock.Gate{
		SubmitFn: func(context.Context, toolgate.SubmitRequest) (*toolgate.Result, error) {
			return &toolgate.Result{Decision: toolgate.Decision{Action: toolgate.Ask}, Approval: &toolgate.Approval{ID: "ap1", Status: toolgate.StatusPending}}, nil
		},
		WaitFn: func(ctx context.Context, id string) (*toolgate.Approval, error) {
			return &toolgate.Approval{ID: id, Status: toolgate.StatusApproved}, nil
		},
	}
	r, err := toolgate.RequestApproval(context.Background(), g, toolgate.SubmitRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if action, final := r.Final(); action != toolgate.Allow || !final {
		t.Errorf("Final() = %v %v", action, final)
	}
}

func TestMockUnsetMethodIsAnError(t *testing.T) {
	t.Parallel()
	if _, err := (&mock.Gate{}).Submit(context.Background(), toolgate.SubmitRequest{}); err == nil {
		t.Fatal("an unset mock method answered without an error")
	}
}

func TestApprovalOutcome(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		a      toolgate.Approval
		action toolgate.Action
		msg    string
	}{
		{toolgate.Approval{Status: toolgate.StatusPending}, toolgate.Ask, "waiting for an approver"},
		{toolgate.Approval{Status: toolgate.StatusApproved, Resolution: &toolgate.Resolution{By: "alice", Via: "web", Scope: toolgate.ScopeOnce}},
			toolgate.Allow, "approved by alice via web"},
		{toolgate.Approval{Status: toolgate.StatusApproved, Resolution: &toolgate.Resolution{By: "bob", Scope: toolgate.ScopeSession, Modifications: json.RawMessage(`{"command":"ls"}`)}},
			toolgate.Allow, "approved by bob for this session, with changes to the input"},
		{toolgate.Approval{Status: toolgate.StatusApproved, Resolution: &toolgate.Resolution{Scope: toolgate.ScopeGlobal}}, toolgate.Allow, "approved everywhere"},
		{toolgate.Approval{Status: toolgate.StatusDenied, Resolution: &toolgate.Resolution{Reason: "User rejected tool 'Bash'."}}, toolgate.Deny, "User rejected tool 'Bash'."},
		{toolgate.Approval{Status: toolgate.StatusExpired}, toolgate.Deny, "the approval was expired"},
		{toolgate.Approval{Status: toolgate.StatusCancelled, Resolution: &toolgate.Resolution{By: "toolgate"}}, toolgate.Deny, "the approval was cancelled by toolgate"},
	} {
		action, msg := c.a.Outcome()
		if action != c.action || msg != c.msg {
			t.Errorf("%s: Outcome() = %v %q, want %v %q", c.a.Status, action, msg, c.action, c.msg)
		}
	}
}
