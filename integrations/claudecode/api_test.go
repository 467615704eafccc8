package claudecode_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/integrations/claudecode"
	"github.com/toolgate/toolgate/internal/stacktest"
	"github.com/toolgate/toolgate/policy"
)

// TestUserPromptSubmitOverAPI is the command hook's path: the HTTP client
// against the real gateway server, with an agent token. A hard deny stops
// the session; the next prompt ends the turn through POST
// /v1/sessions/{id}/turn-end, and a new call asks again.
func TestUserPromptSubmitOverAPI(t *testing.T) {
	ctx := context.Background()
	stack := stacktest.New(t, stacktest.Names("hook", "alice", "root"), stacktest.PolicyOptions(policy.WithHome("/home/dev")))
	b := stack.Broker
	c, err := client.New(stack.Server.URL, stack.Agent, client.WithVia("hook"))
	if err != nil {
		t.Fatal(err)
	}
	gw := c
	waiting := &claudecode.Hook{Decider: &claudecode.Remote{Gate: gw, OnAsk: claudecode.AskWait, Wait: time.Minute}}
	prompting := &claudecode.Hook{Decider: &claudecode.Remote{Gate: gw, OnAsk: claudecode.AskPrompt}}
	const session = "9b1f3c2e-5d4a-4e8b-a1c7-2f6d8e0b4a13"

	if got, reason := preToolUse(t, prompting.Handle(ctx, readInput(t, "read.json"))); got != "allow" {
		t.Fatalf("first call: %s (%s)", got, reason)
	}
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
	if _, err := b.Gate().Deny(toolgate.WithActor(ctx, toolgate.Actor{Name: "bob", Via: "web"}), id, toolgate.DenyRequest{Reason: "not now"}); err != nil {
		t.Fatal(err)
	}
	if got, reason := preToolUse(t, <-done); got != "deny" {
		t.Fatalf("hard deny: %s (%s)", got, reason)
	}
	if got, reason := preToolUse(t, prompting.Handle(ctx, readInput(t, "webfetch.json"))); got != "deny" || !strings.Contains(reason, "wait for the user's next message") {
		t.Fatalf("after the hard deny: %s (%s)", got, reason)
	}

	ans := prompting.Handle(ctx, readInput(t, "user_prompt_submit.json"))
	if ans.Exit != 0 || ans.Output != nil || ans.Stderr != "" || ans.Err != nil {
		t.Fatalf("UserPromptSubmit: %+v", ans)
	}
	if s, err := b.Session(ctx, session); err != nil || s.Stopped || s.Turn != 1 {
		t.Fatalf("session after the prompt: %+v %v", s, err)
	}
	if got, reason := preToolUse(t, prompting.Handle(ctx, readInput(t, "webfetch.json"))); got != "ask" {
		t.Fatalf("after the prompt: %s (%s), want ask", got, reason)
	}
}
