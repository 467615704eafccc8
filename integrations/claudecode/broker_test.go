package claudecode_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/claudecode"
	"github.com/toolgate/toolgate/integrations/claudecode/hookhttp"
	"github.com/toolgate/toolgate/internal/stacktest"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/store"
)

// TestHandlerOnBroker is the gateway's own POST /hooks/claude-code: the
// handler over a real broker (SQLite store, rules directory), with a call
// held for approval and answered through the broker.
func TestHandlerOnBroker(t *testing.T) {
	ctx := context.Background()
	b := stacktest.New(t, stacktest.PolicyOptions(policy.WithHome("/home/dev"))).Broker

	hook := claudecode.Hook{Decider: &claudecode.Remote{
		Gate: b.Gate(), Actor: toolgate.Actor{Name: "hook", Via: "hook"},
		OnAsk: claudecode.AskPrompt,
	}}
	srv := httptest.NewServer(hookhttp.NewHandler(hook, hookhttp.WithMaxWait(time.Minute)))
	defer srv.Close()

	// Allowed and denied by the workspace's rules.
	for file, want := range map[string]string{"read.json": "allow", "read_env.json": "deny"} {
		_, body := post(t, srv.URL, string(readInput(t, file)))
		if a := decode(t, body); a.HookSpecificOutput.PermissionDecision != want {
			t.Errorf("%s: %s", file, body)
		}
	}
	// Ask handed to the prompt: recorded, not held (no approval at all).
	_, body := post(t, srv.URL, string(readInput(t, "bash.json")))
	if a := decode(t, body); a.HookSpecificOutput.PermissionDecision != "ask" {
		t.Errorf("ask: %s", body)
	}
	list, err := b.List(ctx, storeFilter(""))
	if err != nil || len(list) != 0 {
		t.Fatalf("approvals: %v %+v, want none", err, list)
	}
	asks, err := b.Audit(ctx, store.AuditFilter{Kind: "decision", Outcome: "ask"})
	if err != nil || len(asks) != 1 || asks[0].CallID != "toolu_01A7bXk2c9QhR4mN8sT3vW5y" || asks[0].Workspace != "shop" {
		t.Fatalf("unheld ask audited: %v %+v", err, asks)
	}

	// Held for approval, answered through the broker.
	done := make(chan []byte, 1)
	go func() {
		_, body := post(t, srv.URL+"?on_ask=wait&wait=5s", string(readInput(t, "webfetch.json")))
		done <- body
	}()
	var id string
	for deadline := time.Now().Add(30 * time.Second); id == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if l, _ := b.List(ctx, storeFilter(toolgate.StatusPending)); len(l) == 1 {
			id = l[0].ID
		}
	}
	if id == "" {
		t.Fatal("no pending approval")
	}
	if _, err := b.Gate().Deny(toolgate.WithActor(ctx, toolgate.Actor{Name: "bob", Via: "tui"}), id, toolgate.DenyRequest{Feedback: "fetch the vendored copy instead"}); err != nil {
		t.Fatal(err)
	}
	body = <-done
	a := decode(t, body)
	if a.HookSpecificOutput.PermissionDecision != "deny" || !strings.Contains(a.HookSpecificOutput.PermissionDecisionReason, "User rejected tool 'WebFetch'") || !strings.Contains(a.HookSpecificOutput.PermissionDecisionReason, "fetch the vendored copy instead") {
		t.Errorf("denied: %s", body)
	}
}

func storeFilter(s toolgate.Status) store.ApprovalFilter { return store.ApprovalFilter{Status: s} }

// TestUserPromptSubmitOnBroker: a human's hard deny stops the Claude
// session (later calls are denied until the user speaks again), and the
// next UserPromptSubmit ends the turn, so a new call asks again. The
// broker is real; the prompt goes through the gateway's HTTP handler.
func TestUserPromptSubmitOnBroker(t *testing.T) {
	ctx := context.Background()
	b := stacktest.New(t, stacktest.PolicyOptions(policy.WithHome("/home/dev"))).Broker
	gw := b.Gate()
	waiting := &claudecode.Hook{Decider: &claudecode.Remote{Gate: gw, OnAsk: claudecode.AskWait, Wait: time.Minute}}
	prompting := &claudecode.Hook{Decider: &claudecode.Remote{Gate: gw, OnAsk: claudecode.AskPrompt}}
	srv := httptest.NewServer(hookhttp.NewHandler(*waiting))
	defer srv.Close()
	const session = "9b1f3c2e-5d4a-4e8b-a1c7-2f6d8e0b4a13"
	submitPrompt := func(what string) {
		t.Helper()
		status, body := post(t, srv.URL, string(readInput(t, "user_prompt_submit.json")))
		if status != 200 || strings.TrimSpace(string(body)) != "{}" {
			t.Fatalf("%s: UserPromptSubmit answered %d %s, want 200 {}", what, status, body)
		}
	}

	// The session's first prompt comes before its first call: the gateway
	// does not know the session yet, and must not create it (in the
	// default workspace, where the calls of workspace shop would be
	// refused).
	submitPrompt("first prompt")
	if _, err := b.Session(ctx, session); toolgate.ErrorCodeOf(err) != toolgate.ENotFound {
		t.Fatalf("first prompt created the session: %v", err)
	}
	if got, reason := preToolUse(t, prompting.Handle(ctx, readInput(t, "read.json"))); got != "allow" {
		t.Fatalf("first call: %s (%s)", got, reason)
	}

	// A call held for a human, who denies it hard.
	done := make(chan claudecode.Answer, 1)
	go func() { done <- waiting.Handle(ctx, readInput(t, "bash.json")) }()
	var id string
	for deadline := time.Now().Add(30 * time.Second); id == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if l, _ := b.List(ctx, storeFilter(toolgate.StatusPending)); len(l) == 1 {
			id = l[0].ID
		}
	}
	if id == "" {
		t.Fatal("no pending approval")
	}
	if _, err := b.Gate().Deny(toolgate.WithActor(ctx, toolgate.Actor{Name: "bob", Via: "web"}), id, toolgate.DenyRequest{Reason: "not now", Mode: toolgate.DenyHard}); err != nil {
		t.Fatal(err)
	}
	if got, reason := preToolUse(t, <-done); got != "deny" || !strings.Contains(reason, "not now") {
		t.Fatalf("hard deny: %s (%s)", got, reason)
	}

	// The session is stopped: the next call is denied without asking.
	got, reason := preToolUse(t, prompting.Handle(ctx, readInput(t, "webfetch.json")))
	if got != "deny" || !strings.Contains(reason, "wait for the user's next message") {
		t.Fatalf("after the hard deny: %s (%s)", got, reason)
	}

	// The user speaks again: the turn ends and the stop flag clears.
	submitPrompt("next prompt")
	s, err := b.Session(ctx, session)
	if err != nil || s.Stopped || s.Turn != 1 || s.Workspace != "shop" {
		t.Fatalf("session after the prompt: %+v %v", s, err)
	}
	got, reason = preToolUse(t, prompting.Handle(ctx, readInput(t, "webfetch.json")))
	if got != "ask" {
		t.Fatalf("after the prompt: %s (%s), want ask", got, reason)
	}

	// The command hook's path, without HTTP: exit 0, no output, nothing on
	// stderr.
	ans := waiting.Handle(ctx, readInput(t, "user_prompt_submit.json"))
	if ans.Exit != 0 || ans.Output != nil || ans.Stderr != "" || ans.Err != nil {
		t.Errorf("UserPromptSubmit: %+v", ans)
	}
	if s, err := b.Session(ctx, session); err != nil || s.Turn != 2 {
		t.Errorf("second prompt: %+v %v", s, err)
	}
}
