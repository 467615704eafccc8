package claudecode_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/integrations/claudecode"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/fsrules"
	"github.com/toolgate/toolgate/store/sqlite"
)

// TestHandlerOnBroker is the gateway's own POST /hooks/claude-code: the
// handler over a real broker (SQLite store, rules directory), with a call
// held for approval and answered through the broker.
func TestHandlerOnBroker(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := sqlite.Open(ctx, filepath.Join(dir, "toolgate.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	pol := approval.NewWorkspaces(fsrules.New(dir, policy.DefaultRulesJSONC), nil, policy.WithHome("/home/dev"))
	b, err := approval.New(ctx, st, pol)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()

	hook := claudecode.Hook{Decider: &claudecode.Remote{
		Gateway: &claudecode.BrokerGateway{Broker: b, Actor: approval.Actor{Name: "hook", Via: "hook"}},
		OnAsk:   claudecode.AskPrompt,
	}}
	srv := httptest.NewServer(claudecode.NewHandler(hook, claudecode.WithMaxWait(10*time.Second)))
	defer srv.Close()

	// Allowed and denied by the workspace's rules.
	for file, want := range map[string]string{"read.json": "allow", "read_env.json": "deny"} {
		_, body := post(t, srv.URL, string(readInput(t, file)))
		if a := decode(t, body); a.HookSpecificOutput.PermissionDecision != want {
			t.Errorf("%s: %s", file, body)
		}
	}
	// Ask handed to the prompt: the approval is cancelled.
	_, body := post(t, srv.URL, string(readInput(t, "bash.json")))
	if a := decode(t, body); a.HookSpecificOutput.PermissionDecision != "ask" {
		t.Errorf("ask: %s", body)
	}
	list, err := b.List(ctx, storeFilter(toolgate.StatusCancelled))
	if err != nil || len(list) != 1 || list[0].Call.ID != "toolu_01A7bXk2c9QhR4mN8sT3vW5y" || list[0].Call.Workspace != "shop" {
		t.Fatalf("cancelled approvals: %v %+v", err, list)
	}

	// Held for approval, answered through the broker.
	done := make(chan []byte, 1)
	go func() {
		_, body := post(t, srv.URL+"?on_ask=wait&wait=5s", string(readInput(t, "webfetch.json")))
		done <- body
	}()
	var id string
	for deadline := time.Now().Add(5 * time.Second); id == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if l, _ := b.List(ctx, storeFilter(toolgate.StatusPending)); len(l) == 1 {
			id = l[0].ID
		}
	}
	if id == "" {
		t.Fatal("no pending approval")
	}
	if _, err := b.Deny(ctx, id, approval.DenyRequest{Feedback: "fetch the vendored copy instead"}, approval.Actor{Name: "bob", Via: "tui"}); err != nil {
		t.Fatal(err)
	}
	body = <-done
	a := decode(t, body)
	if a.HookSpecificOutput.PermissionDecision != "deny" || !strings.Contains(a.HookSpecificOutput.PermissionDecisionReason, "denied by bob via tui") || !strings.Contains(a.HookSpecificOutput.PermissionDecisionReason, "fetch the vendored copy instead") {
		t.Errorf("denied: %s", body)
	}
}

func storeFilter(s toolgate.Status) store.ApprovalFilter { return store.ApprovalFilter{Status: s} }
