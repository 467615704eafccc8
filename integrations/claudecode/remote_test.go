package claudecode_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/integrations/claudecode"
	"github.com/toolgate/toolgate/integrations/claudecode/claudecodetest"
	"github.com/toolgate/toolgate/mock"
)

func startGateway(t *testing.T) *claudecodetest.Gateway {
	t.Helper()
	return claudecodetest.New(t, testRules)
}

func remoteHook(t *testing.T, url, token string, onAsk claudecode.AskMode, wait time.Duration) *claudecode.Hook {
	t.Helper()
	c, err := client.New(url, token, client.WithVia("hook"))
	if err != nil {
		t.Fatal(err)
	}
	return &claudecode.Hook{Decider: &claudecode.Remote{Gate: c, OnAsk: onAsk, Wait: wait}}
}

func approver(t *testing.T, g *claudecodetest.Gateway) *client.Client {
	t.Helper()
	c, err := client.New(g.URL, g.Approver, client.WithVia("web"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func preToolUse(t *testing.T, ans claudecode.Answer) (decision, reason string) {
	t.Helper()
	if ans.Exit != 0 || ans.Output == nil {
		t.Fatalf("exit %d, output %v, err %v", ans.Exit, ans.Output, ans.Err)
	}
	a := decode(t, ans.Output.Marshal())
	if a.HookSpecificOutput == nil {
		t.Fatalf("answer %s", ans.Output.Marshal())
	}
	return a.HookSpecificOutput.PermissionDecision, a.HookSpecificOutput.PermissionDecisionReason
}

// TestRemoteRules: allow and deny by the gateway's rules, for every tool;
// the call reaches the gateway mapped from the hook input.
func TestRemoteRules(t *testing.T) {
	g := startGateway(t)
	h := remoteHook(t, g.URL, g.Agent, claudecode.AskPrompt, 0)
	h.Workspace = "shop"
	for file, want := range map[string]string{
		"bash_allowed.json": "allow", "read.json": "allow", "read_env.json": "deny",
		"write.json": "allow", "edit.json": "allow", "multiedit.json": "allow",
		"notebookedit.json": "allow", "glob.json": "allow", "grep.json": "allow",
		"webfetch.json": "ask", "websearch.json": "ask", "task.json": "ask", "mcp.json": "ask",
		"bash.json": "ask", "subagent.json": "allow",
	} {
		got, reason := preToolUse(t, h.Handle(context.Background(), readInput(t, file)))
		if got != want {
			t.Errorf("%s: %s (%s), want %s", file, got, reason, want)
		}
	}
	calls := g.Submitted()
	var sub *toolgate.Call
	for i := range calls {
		if calls[i].ID == "toolu_01Q5pLy6q3EvF8aB2gH7jK9m" {
			sub = &calls[i]
		}
	}
	if sub == nil || sub.Session != "9b1f3c2e-5d4a-4e8b-a1c7-2f6d8e0b4a13" || sub.Workspace != "shop" || sub.Agent != "Explore" || sub.Tool != "Read" || sub.Cwd != "/home/dev/shop" {
		t.Errorf("submitted subagent call %+v", sub)
	}
}

// TestRemoteAskPrompt: the question goes back to Claude Code's prompt;
// the gateway records the ask but holds nothing, so no approval is
// created (none to cancel, no "cancelled" card for approvers).
func TestRemoteAskPrompt(t *testing.T) {
	g := startGateway(t)
	h := remoteHook(t, g.URL, g.Agent, claudecode.AskPrompt, 0)
	got, reason := preToolUse(t, h.Handle(context.Background(), readInput(t, "bash.json")))
	if got != "ask" || !strings.Contains(reason, "asks for approval") {
		t.Errorf("got %s (%s)", got, reason)
	}
	if a := g.Approvals(); len(a) != 0 {
		t.Errorf("approvals %v, want none", a)
	}
	if c := g.Cancelled(); len(c) != 0 {
		t.Errorf("cancelled %v, want none", c)
	}
	entries, err := g.Audit("decision")
	if err != nil || len(entries) != 1 || entries[0].Outcome != "ask" || !strings.HasPrefix(entries[0].Reason, approval.NoHoldReason) || entries[0].CallID != "toolu_01A7bXk2c9QhR4mN8sT3vW5y" {
		t.Errorf("decision audit %+v, %v; want the one unheld ask", entries, err)
	}
	if requested, _ := g.Audit(string(toolgate.EventApprovalRequested)); len(requested) != 0 {
		t.Errorf("approval.requested audited: %+v", requested)
	}
}

// TestRemoteAskPromptAfterWait: a call id a waiting hook held before is
// resubmitted in prompt mode (the hook timed out, Claude Code asked
// again): it attaches to that approval, withdrawn when the wait ended, and
// comes back denied as it was; no second approval is created.
func TestRemoteAskPromptAfterWait(t *testing.T) {
	g := startGateway(t)
	waiting := remoteHook(t, g.URL, g.Agent, claudecode.AskWait, 50*time.Millisecond)
	if got, reason := preToolUse(t, waiting.Handle(context.Background(), readInput(t, "bash.json"))); got != "deny" {
		t.Fatalf("wait without an answer: %s (%s), want deny", got, reason)
	}
	h := remoteHook(t, g.URL, g.Agent, claudecode.AskPrompt, 0)
	if got, reason := preToolUse(t, h.Handle(context.Background(), readInput(t, "bash.json"))); got != "deny" {
		t.Fatalf("prompt after wait: %s (%s), want the withdrawn approval's deny", got, reason)
	}
	if a, p := g.Approvals(), g.Pending(); len(a) != 1 || len(p) != 0 {
		t.Errorf("approvals %v, pending %v: want the one, withdrawn", a, p)
	}
}

// TestRemoteWaitApproved holds a call for remote approval; the test
// approves it over the API while the hook waits, with a change to the
// command, which reaches Claude Code as updatedInput.
func TestRemoteWaitApproved(t *testing.T) {
	g := startGateway(t)
	h := remoteHook(t, g.URL, g.Agent, claudecode.AskWait, time.Minute)
	done := make(chan claudecode.Answer, 1)
	go func() { done <- h.Handle(context.Background(), readInput(t, "bash.json")) }()

	id, err := g.WaitPending(5 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case ans := <-done:
		t.Fatalf("hook answered before the approval: %s", ans.Output.Marshal())
	case <-time.After(50 * time.Millisecond):
	}
	a, err := approver(t, g).Approve(context.Background(), id, toolgate.ApproveRequest{
		Scope: toolgate.ScopeSession, Modifications: json.RawMessage(`{"command": "git push origin feature"}`),
	})
	if err != nil || a.Status != toolgate.StatusApproved {
		t.Fatalf("approve: %v %+v", err, a)
	}
	ans := <-done
	got, reason := preToolUse(t, ans)
	if got != "allow" || !strings.Contains(reason, "approved by alice via web") || !strings.Contains(reason, "session") {
		t.Errorf("got %s (%s)", got, reason)
	}
	in := decode(t, ans.Output.Marshal()).HookSpecificOutput.UpdatedInput
	if in["command"] != "git push origin feature" || in["description"] != "Push the main branch to origin" {
		t.Errorf("updatedInput %v: want the whole input with the change", in)
	}
	if sub := g.Submitted(); len(sub) != 1 || sub[0].ID != "toolu_01A7bXk2c9QhR4mN8sT3vW5y" {
		t.Errorf("submitted %+v", sub)
	}
}

// TestRemoteWaitDenied: a human's denial comes back with the feedback.
func TestRemoteWaitDenied(t *testing.T) {
	g := startGateway(t)
	h := remoteHook(t, g.URL, g.Agent, claudecode.AskWait, time.Minute)
	done := make(chan claudecode.Answer, 1)
	go func() { done <- h.Handle(context.Background(), readInput(t, "permission_request.json")) }()
	id, err := g.WaitPending(5 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := approver(t, g).Deny(context.Background(), id, toolgate.DenyRequest{
		Reason: "not on the shared box", Feedback: "use make clean instead", Mode: toolgate.DenySoft,
	}); err != nil {
		t.Fatal(err)
	}
	ans := <-done
	a := decode(t, ans.Output.Marshal())
	d := a.HookSpecificOutput.Decision
	if d == nil || d.Behavior != "deny" || !strings.Contains(d.Message, "not on the shared box") || !strings.Contains(d.Message, "use make clean instead") || !strings.Contains(d.Message, "Ask the user") {
		t.Errorf("answer %s", ans.Output.Marshal())
	}
}

// TestRemoteWaitTimeout: nobody answers in time: deny, and the approval
// ends (the hook withdraws it; its time to live is the same wait, so the
// gateway may expire it first). Nothing is left pending.
func TestRemoteWaitTimeout(t *testing.T) {
	g := startGateway(t)
	h := remoteHook(t, g.URL, g.Agent, claudecode.AskWait, 300*time.Millisecond)
	start := time.Now()
	got, reason := preToolUse(t, h.Handle(context.Background(), readInput(t, "mcp.json")))
	if got != "deny" || !strings.Contains(reason, "no approver answered within 300ms") {
		t.Errorf("got %s (%s)", got, reason)
	}
	// A hang detector, not a timing: the wait is 300ms, and a loaded
	// machine may take seconds more to run the hook's requests.
	if el := time.Since(start); el > time.Minute {
		t.Errorf("took %s", el)
	}
	if p := g.Pending(); len(p) != 0 {
		t.Errorf("left pending: %v", p)
	}
}

// TestRemoteDown: a gateway that is down is never an allow: deny by
// default, ask with OnError ask.
func TestRemoteDown(t *testing.T) {
	url := claudecodetest.ClosedURL()
	h := remoteHook(t, url, "tg_unused", claudecode.AskPrompt, 0)
	for _, file := range []string{"read.json", "bash_allowed.json", "write.json"} {
		got, reason := preToolUse(t, h.Handle(context.Background(), readInput(t, file)))
		if got != "deny" || !strings.Contains(reason, "unreachable") {
			t.Errorf("%s: %s (%s)", file, got, reason)
		}
	}
	h.OnError = toolgate.Ask
	if got, _ := preToolUse(t, h.Handle(context.Background(), readInput(t, "read.json"))); got != "ask" {
		t.Errorf("on-error ask: %s", got)
	}
	// PermissionRequest: deny, or no decision (the dialog) with ask.
	ans := h.Handle(context.Background(), readInput(t, "permission_request.json"))
	if a := decode(t, ans.Output.Marshal()); a.HookSpecificOutput != nil || !strings.Contains(a.SystemMessage, "unreachable") {
		t.Errorf("permission request, on-error ask: %s", ans.Output.Marshal())
	}
}

// TestRemoteErrors: a wrong token or a gateway error is a deny too.
func TestRemoteErrors(t *testing.T) {
	g := startGateway(t)
	c, err := client.New(g.URL, "wrong-token")
	if err != nil {
		t.Fatal(err)
	}
	h := &claudecode.Hook{Decider: &claudecode.Remote{Gate: c}}
	got, reason := preToolUse(t, h.Handle(context.Background(), readInput(t, "read.json")))
	if got != "deny" || !strings.Contains(reason, "unknown or revoked token") {
		t.Errorf("got %s (%s)", got, reason)
	}
	// A deadline that passes mid-request.
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	time.Sleep(time.Millisecond)
	h = remoteHook(t, g.URL, g.Agent, claudecode.AskPrompt, 0)
	if got, _ := preToolUse(t, h.Handle(ctx, readInput(t, "read.json"))); got != "deny" {
		t.Errorf("expired context: %s", got)
	}
}

// TestUserPromptSubmitRemote: with a gateway, the user's prompt ends the
// session's turn (POST /v1/sessions/{id}/turn-end); a subagent's prompt,
// which comes from an agent, does not.
func TestUserPromptSubmitRemote(t *testing.T) {
	g := startGateway(t)
	h := remoteHook(t, g.URL, g.Agent, claudecode.AskPrompt, 0)
	for _, file := range []string{"user_prompt_submit.json", "codex_user_prompt_submit.json"} {
		ans := h.Handle(context.Background(), readInput(t, file))
		if ans.Exit != 0 || ans.Output != nil || ans.Stderr != "" || ans.Err != nil {
			t.Errorf("%s: %+v", file, ans)
		}
	}
	if got := g.TurnsEnded(); len(got) != 2 || got[0] != "9b1f3c2e-5d4a-4e8b-a1c7-2f6d8e0b4a13" || got[1] != "0199a2b4-7c1e-7d30-9f4a-52e8c1d6b7a9" {
		t.Errorf("turns ended %v", got)
	}
	sub := `{"session_id": "s1", "turn_id": "t1", "hook_event_name": "UserPromptSubmit", "prompt": "look around", "agent_id": "a1", "agent_type": "explorer"}`
	if ans := h.Handle(context.Background(), []byte(sub)); ans.Exit != 0 || ans.Output != nil || ans.Stderr != "" {
		t.Errorf("subagent prompt: %+v", ans)
	}
	// No session_id: nothing to end, said on stderr.
	ans := h.Handle(context.Background(), []byte(`{"hook_event_name": "UserPromptSubmit", "prompt": "hi"}`))
	if ans.Exit != 0 || ans.Output != nil || !strings.Contains(ans.Stderr, "no session_id") {
		t.Errorf("no session: %+v", ans)
	}
	if got := g.TurnsEnded(); len(got) != 2 {
		t.Errorf("turns ended %v", got)
	}
}

// TestUserPromptSubmitGatewayDown: the prompt still goes through (exit 0,
// no output); one line on stderr says the turn was not ended.
func TestUserPromptSubmitGatewayDown(t *testing.T) {
	h := remoteHook(t, claudecodetest.ClosedURL(), "tg_unused", claudecode.AskWait, time.Minute)
	ans := h.Handle(context.Background(), readInput(t, "user_prompt_submit.json"))
	if ans.Exit != 0 || ans.Output != nil || ans.Err == nil {
		t.Fatalf("%+v", ans)
	}
	if !strings.HasPrefix(ans.Stderr, "toolgate: could not end the turn of session 9b1f3c2e-5d4a-4e8b-a1c7-2f6d8e0b4a13") || !strings.Contains(ans.Stderr, "unreachable") || strings.Contains(ans.Stderr, "\n") {
		t.Errorf("stderr %q", ans.Stderr)
	}
	// A wrong token, or a panic in the gateway: the same.
	c, err := client.New(startGateway(t).URL, "wrong-token")
	if err != nil {
		t.Fatal(err)
	}
	h = &claudecode.Hook{Decider: &claudecode.Remote{Gate: c}}
	if ans := h.Handle(context.Background(), readInput(t, "user_prompt_submit.json")); ans.Exit != 0 || ans.Output != nil || !strings.Contains(ans.Stderr, "unknown or revoked token") {
		t.Errorf("wrong token: %+v", ans)
	}
	h = &claudecode.Hook{Decider: &claudecode.Remote{Gate: &mock.Gate{EndTurnFn: func(context.Context, string) (*toolgate.Session, error) { panic("boom") }}}}
	if ans := h.Handle(context.Background(), readInput(t, "user_prompt_submit.json")); ans.Exit != 0 || ans.Output != nil || !strings.Contains(ans.Stderr, "internal error: boom") {
		t.Errorf("panic: %+v", ans)
	}
	h = &claudecode.Hook{Decider: &claudecode.Remote{}}
	if ans := h.Handle(context.Background(), readInput(t, "user_prompt_submit.json")); ans.Exit != 0 || ans.Output != nil || !strings.Contains(ans.Stderr, "no gateway") {
		t.Errorf("no gateway: %+v", ans)
	}
}
