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
)

func startGateway(t *testing.T) *claudecodetest.Gateway {
	t.Helper()
	g, err := claudecodetest.New(testRules)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	return g
}

func remoteHook(t *testing.T, url string, onAsk claudecode.AskMode, wait time.Duration) *claudecode.Hook {
	t.Helper()
	c, err := client.New(url, claudecodetest.Token, client.WithVia("hook"))
	if err != nil {
		t.Fatal(err)
	}
	return &claudecode.Hook{Decider: &claudecode.Remote{Gateway: c, OnAsk: onAsk, Wait: wait}}
}

func approver(t *testing.T, g *claudecodetest.Gateway) *client.Client {
	t.Helper()
	c, err := client.New(g.URL, claudecodetest.Token, client.WithVia("web"))
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
	h := remoteHook(t, g.URL, claudecode.AskPrompt, 0)
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

// TestRemoteAskPrompt: the question goes back to Claude Code's prompt and
// the gateway's approval is cancelled, not left for approvers.
func TestRemoteAskPrompt(t *testing.T) {
	g := startGateway(t)
	h := remoteHook(t, g.URL, claudecode.AskPrompt, 0)
	got, reason := preToolUse(t, h.Handle(context.Background(), readInput(t, "bash.json")))
	if got != "ask" || !strings.Contains(reason, "asks for approval") {
		t.Errorf("got %s (%s)", got, reason)
	}
	if c := g.Cancelled(); len(c) != 1 {
		t.Errorf("cancelled %v, want the one approval", c)
	}
	if p := g.Pending(); len(p) != 0 {
		t.Errorf("left pending: %v", p)
	}
}

// TestRemoteWaitApproved holds a call for remote approval; the test
// approves it over the API while the hook waits, with a change to the
// command, which reaches Claude Code as updatedInput.
func TestRemoteWaitApproved(t *testing.T) {
	g := startGateway(t)
	h := remoteHook(t, g.URL, claudecode.AskWait, 10*time.Second)
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
	a, err := approver(t, g).Approve(context.Background(), id, approval.ApproveRequest{
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
	h := remoteHook(t, g.URL, claudecode.AskWait, 10*time.Second)
	done := make(chan claudecode.Answer, 1)
	go func() { done <- h.Handle(context.Background(), readInput(t, "permission_request.json")) }()
	id, err := g.WaitPending(5 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := approver(t, g).Deny(context.Background(), id, approval.DenyRequest{
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
// is cancelled.
func TestRemoteWaitTimeout(t *testing.T) {
	g := startGateway(t)
	h := remoteHook(t, g.URL, claudecode.AskWait, 300*time.Millisecond)
	start := time.Now()
	got, reason := preToolUse(t, h.Handle(context.Background(), readInput(t, "mcp.json")))
	if got != "deny" || !strings.Contains(reason, "no approver answered within 300ms") {
		t.Errorf("got %s (%s)", got, reason)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("took %s", el)
	}
	if c := g.Cancelled(); len(c) != 1 {
		t.Errorf("cancelled %v", c)
	}
}

// TestRemoteDown: a gateway that is down is never an allow: deny by
// default, ask with OnError ask.
func TestRemoteDown(t *testing.T) {
	url := claudecodetest.ClosedURL()
	h := remoteHook(t, url, claudecode.AskPrompt, 0)
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
	h := &claudecode.Hook{Decider: &claudecode.Remote{Gateway: c}}
	got, reason := preToolUse(t, h.Handle(context.Background(), readInput(t, "read.json")))
	if got != "deny" || !strings.Contains(reason, "unknown token") {
		t.Errorf("got %s (%s)", got, reason)
	}
	// A deadline that passes mid-request.
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	time.Sleep(time.Millisecond)
	h = remoteHook(t, g.URL, claudecode.AskPrompt, 0)
	if got, _ := preToolUse(t, h.Handle(ctx, readInput(t, "read.json"))); got != "deny" {
		t.Errorf("expired context: %s", got)
	}
}
