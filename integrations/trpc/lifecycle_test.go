package trpc_test

import (
	"context"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/trpc"
	"github.com/toolgate/toolgate/store"
)

// Seed 001: "On worker disconnect, all pending approvals for sessions
// bound to that worker are cleared." A worker is a workspace; the host
// serving it says it went away with POST /v1/workspaces/{id}/disconnect.
// The stock client sees the prompts go, and answering them is
// {applied:false}; another worker's approvals stay.
func TestWorkerDisconnect(t *testing.T) {
	t.Parallel()
	s := newStack(t, trpc.Config{})
	c := startNode(t, s.Server.URL+"/trpc", s.Approver)
	c.subscribe("all", nil)
	ctx := context.Background()
	submit := func(ws, session, id string) *toolgate.Approval {
		res, err := s.Broker.Submit(ctx, toolgate.SubmitRequest{Call: toolgate.Call{
			ID: id, Session: session, Workspace: ws, Tool: "shell_exec", Args: map[string]any{"command": "make deploy"},
		}})
		if err != nil || res.Approval == nil {
			t.Fatalf("submit %s: %v %+v", id, err, res)
		}
		c.event("all", "requested "+id, isRequired(res.Approval.ID))
		return res.Approval
	}
	a := submit("w1", "s1", "c1")
	b := submit("w1", "s2", "c2")
	other := submit("w2", "s3", "c3")

	if r := s.do("POST", "/v1/workspaces/w1/disconnect", "application/json", "{}", s.Agent); r.status != 200 {
		t.Fatalf("disconnect: %d %s", r.status, r.body)
	}
	for _, x := range []*toolgate.Approval{a, b} {
		c.event("all", "cleared "+x.ID, isResolved(x.ID))
		if got := s.get(x.ID); got.Status != toolgate.StatusCancelled {
			t.Errorf("%s after disconnect: %s", x.Call.ID, got.Status)
		}
		res := c.mutate("http", call{"tool.approve", map[string]any{"sessionId": x.Call.Session, "approvalId": x.ID}})
		if applied(t, res[0]) {
			t.Errorf("approving a cleared approval was applied")
		}
	}
	if s.get(other.ID).Status != toolgate.StatusPending {
		t.Error("another worker's approval was cleared")
	}
}

// Seed 001: "Agent permissions are scoped to the child session and
// cleared when the subagent completes or errors." Ending the subagent's
// session (POST /v1/sessions/{id}/end) cancels its pending approvals,
// revokes what was granted in it, and denies its later calls, so nothing
// it was given (grants, the agent layer its calls named) outlives it. The
// parent session is untouched.
func TestSubagentSessionEnd(t *testing.T) {
	t.Parallel()
	s := newStack(t, trpc.Config{})
	c := startNode(t, s.Server.URL+"/trpc", s.Approver)
	c.subscribe("all", nil)
	ctx := context.Background()
	sub := func(id, cmd string) *toolgate.Result {
		res, err := s.Broker.Submit(ctx, toolgate.SubmitRequest{Call: toolgate.Call{
			ID: id, Session: "child", Agent: "general", Tool: "shell_exec", Args: map[string]any{"command": cmd},
		}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	first := sub("k1", "make test").Approval
	if first == nil {
		t.Fatal("make test did not ask")
	}
	c.event("all", "requested", isRequired(first.ID))
	if _, err := s.Broker.Gate().Approve(toolgate.WithActor(ctx, toolgate.Actor{Name: "alice"}), first.ID, toolgate.ApproveRequest{Scope: toolgate.ScopeSession, Pattern: "make test"}); err != nil {
		t.Fatal(err)
	}
	if v, _ := sub("k2", "make test").Final(); v != toolgate.Allow {
		t.Fatalf("session grant inside the subagent: %s", v)
	}
	pending := sub("k3", "make release").Approval
	c.event("all", "requested", isRequired(pending.ID))
	parent := s.shell("parent", "p1", "make release")

	if r := s.do("POST", "/v1/sessions/child/end", "application/json", "{}", s.Agent); r.status != 200 {
		t.Fatalf("end: %d %s", r.status, r.body)
	}
	c.event("all", "cleared", isResolved(pending.ID))
	if got := s.get(pending.ID); got.Status != toolgate.StatusCancelled || got.Resolution.Reason != "the session ended" {
		t.Errorf("pending after end: %s %+v", got.Status, got.Resolution)
	}
	if g, _ := s.Store.ListGrants(ctx, store.GrantFilter{Session: "child"}); len(g) != 0 {
		t.Errorf("grants of the ended session: %+v", g)
	}
	if v, _ := sub("k4", "make test").Final(); v != toolgate.Deny {
		t.Errorf("a call in the ended subagent session: %s, want deny", v)
	}
	if s.get(parent.ID).Status != toolgate.StatusPending {
		t.Error("ending the subagent touched the parent session")
	}
	// An unknown session is a 404, not a new ended session.
	if r := s.do("POST", "/v1/sessions/nope/end", "application/json", "{}", s.Agent); r.status != 404 {
		t.Errorf("end of an unknown session: %d %s", r.status, r.body)
	}
}
