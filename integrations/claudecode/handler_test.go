package claudecode_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/integrations/claudecode"
	"github.com/toolgate/toolgate/integrations/claudecode/hookhttp"
)

func post(t *testing.T, url, body string) (int, []byte) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, data
}

// TestHandlerLocal serves the hook over HTTP: 200 with the same JSON a
// command hook prints, for every answer.
func TestHandlerLocal(t *testing.T) {
	srv := httptest.NewServer(hookhttp.NewHandler(*localHook(t)))
	defer srv.Close()

	for file, want := range map[string]string{"read.json": "allow", "read_env.json": "deny", "bash.json": "ask"} {
		status, body := post(t, srv.URL, string(readInput(t, file)))
		if status != 200 {
			t.Fatalf("%s: status %d %s", file, status, body)
		}
		if a := decode(t, body); a.HookSpecificOutput.PermissionDecision != want {
			t.Errorf("%s: %s, want %s", file, body, want)
		}
	}
	// A body that is no hook input: 200 with the legacy block.
	status, body := post(t, srv.URL, "not json")
	if a := decode(t, body); status != 200 || a.Decision != "block" || !strings.HasPrefix(a.Reason, "toolgate: ") {
		t.Errorf("garbage: %d %s", status, body)
	}
	// A well-formed input with a bad tool_input: 200 deny.
	status, body = post(t, srv.URL, `{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": 7}`)
	if a := decode(t, body); status != 200 || a.HookSpecificOutput.PermissionDecision != "deny" {
		t.Errorf("bad tool_input: %d %s", status, body)
	}
	// A prompt: 200 with no decision, which lets it through.
	status, body = post(t, srv.URL, string(readInput(t, "user_prompt_submit.json")))
	if status != 200 || strings.TrimSpace(string(body)) != "{}" {
		t.Errorf("UserPromptSubmit: %d %s", status, body)
	}
	status, body = post(t, srv.URL+"?workspace=../etc", `{"hook_event_name": "UserPromptSubmit", "prompt": 7}`)
	if status != 200 || strings.TrimSpace(string(body)) != "{}" {
		t.Errorf("bad UserPromptSubmit: %d %s", status, body)
	}
	// An event that gates nothing: 400, which the agent shows the user.
	status, body = post(t, srv.URL, `{"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {}}`)
	if status != 400 || !strings.Contains(string(body), `"code":"invalid"`) {
		t.Errorf("PostToolUse: %d %s", status, body)
	}
	// A bad query parameter denies every call rather than opening them.
	status, body = post(t, srv.URL+"?workspace=../etc", string(readInput(t, "read.json")))
	if a := decode(t, body); status != 200 || a.HookSpecificOutput.PermissionDecision != "deny" || !strings.Contains(a.HookSpecificOutput.PermissionDecisionReason, "hook URL") {
		t.Errorf("bad query: %d %s", status, body)
	}
	// Codex by query parameter.
	status, body = post(t, srv.URL+"?dialect=codex", string(readInput(t, "read.json")))
	if status != 200 || strings.TrimSpace(string(body)) != "{}" {
		t.Errorf("codex allow: %d %s", status, body)
	}
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET: %d", resp.StatusCode)
	}
}

// TestHandlerRemoteWait: ?on_ask=wait holds the HTTP hook until an
// approver answers.
func TestHandlerRemoteWait(t *testing.T) {
	g := startGateway(t)
	c, err := client.New(g.URL, g.Agent)
	if err != nil {
		t.Fatal(err)
	}
	h := claudecode.Hook{Decider: &claudecode.Remote{Gate: c, OnAsk: claudecode.AskPrompt}}
	srv := httptest.NewServer(hookhttp.NewHandler(h, hookhttp.WithMaxWait(time.Minute)))
	defer srv.Close()

	type reply struct {
		status int
		body   []byte
	}
	done := make(chan reply, 1)
	go func() {
		s, b := post(t, srv.URL+"?on_ask=wait&wait=1h&workspace=shop", string(readInput(t, "task.json")))
		done <- reply{s, b}
	}()
	id, err := g.WaitPending(5 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := approver(t, g).Approve(context.Background(), id, toolgate.ApproveRequest{}); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if a := decode(t, r.body); r.status != 200 || a.HookSpecificOutput.PermissionDecision != "allow" {
		t.Errorf("%d %s", r.status, r.body)
	}
	if sub := g.Submitted(); len(sub) != 1 || sub[0].Workspace != "shop" {
		t.Errorf("submitted %+v", sub)
	}
	// The default stays prompt.
	_, body := post(t, srv.URL, string(readInput(t, "mcp.json")))
	if a := decode(t, body); a.HookSpecificOutput.PermissionDecision != "ask" {
		t.Errorf("default: %s", body)
	}
}
