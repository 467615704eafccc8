package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/internal/stacktest"
)

// geminiStub is a stand-in of the Gemini API (generateContent and
// streamGenerateContent with SSE) that asks for one tool call and then
// answers with what the tool returned, so the test reads what reached
// the model.
func geminiStub(t *testing.T, tool string, args map[string]any) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Contents []struct {
				Parts []map[string]json.RawMessage `json:"parts"`
			} `json:"contents"`
			Tools []any `json:"tools"`
		}
		_ = json.Unmarshal(body, &req)
		var response json.RawMessage
		if n := len(req.Contents); n > 0 {
			for _, p := range req.Contents[n-1].Parts {
				if fr, ok := p["functionResponse"]; ok {
					response = fr
				}
			}
		}
		var parts []any
		switch {
		case response != nil:
			parts = []any{map[string]string{"text": "FINAL " + string(response)}}
		case strings.Contains(r.URL.Path, "streamGenerateContent") && len(req.Tools) > 0:
			parts = []any{map[string]any{"functionCall": map[string]any{"name": tool, "args": args}}}
		default:
			parts = []any{map[string]string{"text": "{}"}}
		}
		data, _ := json.Marshal(map[string]any{
			"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}},
			"usageMetadata": map[string]int{"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
		})
		if r.URL.Query().Get("alt") == "sse" {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: %s\r\n\r\n", data)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(data)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestGeminiCLI drives the real Gemini CLI (the gemini program named by
// $TOOLGATE_TEST_GEMINI; .ci/run installs @google/gemini-cli from npm)
// against a stand-in of its model API on loopback, with toolgate-hook
// installed on BeforeTool as "toolgate hook install gemini" writes it: the
// agent really calls the hook and runs its tool. Allow runs the tool; a
// deny's reason reaches the model and the secret does not; an ask held at
// a gateway runs once approved, and not when denied, the feedback
// reaching the model; a gateway that is down blocks the call.
func TestGeminiCLI(t *testing.T) {
	gemini := os.Getenv("TOOLGATE_TEST_GEMINI")
	if gemini == "" {
		t.Skip("TOOLGATE_TEST_GEMINI is unset: the real Gemini CLI is not driven (.ci/run installs it from npm)")
	}
	bin := sharedHookBin(t)
	gw := stacktest.New(t)
	approver, err := client.New(gw.Server.URL, gw.Approver)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, command string
		hookArgs      []string
		answer        func(ctx context.Context, id string) // for a call held at the gateway
		want, not     []string                            // in what reached the model
		made          string                              // a file the tool makes, if it ran
	}{
		{name: "allow", command: "ls", want: []string{"FINAL", "notes.txt"}},
		{name: "deny", command: "cat ~/.ssh/id_rsa", want: []string{"Tool execution blocked: toolgate: ", "SSH private keys"}, not: []string{"FAKE-KEY"}},
		{name: "ask approved", command: "touch approved.txt", hookArgs: []string{"--server", gw.Server.URL, "--on-ask", "wait", "--wait", "60s"},
			answer: func(ctx context.Context, id string) {
				_, _ = approver.Approve(ctx, id, toolgate.ApproveRequest{})
			}, want: []string{"FINAL"}, made: "approved.txt"},
		{name: "ask denied", command: "touch denied.txt", hookArgs: []string{"--server", gw.Server.URL, "--on-ask", "wait", "--wait", "60s"},
			answer: func(ctx context.Context, id string) {
				_, _ = approver.Deny(ctx, id, toolgate.DenyRequest{Feedback: "write it under build/ instead", Mode: toolgate.DenySoft})
			}, want: []string{"Tool execution blocked: toolgate: ", "write it under build/ instead"}},
		{name: "gateway down", command: "ls", hookArgs: []string{"--server", "http://127.0.0.1:1"},
			want: []string{"Tool execution blocked: toolgate: ", "unreachable"}, not: []string{"notes.txt"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			project := filepath.Join(home, "proj")
			for path, text := range map[string]string{
				filepath.Join(project, "notes.txt"):    "notes\n",
				filepath.Join(home, ".ssh", "id_rsa"): "FAKE-KEY-4711\n",
			} {
				if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			hook := strings.Join(append([]string{bin, "gemini"}, tc.hookArgs...), " ")
			settings, _ := json.Marshal(map[string]any{
				"hooks": map[string]any{
					"BeforeTool":  []any{map[string]any{"matcher": ".*", "hooks": []any{map[string]any{"type": "command", "command": hook, "timeout": 90000}}}},
					"BeforeAgent": []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": hook, "timeout": 40000}}}},
				},
				"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}, "folderTrust": map[string]any{"enabled": false}},
			})
			if err := os.MkdirAll(filepath.Join(home, ".gemini"), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), settings, 0o600); err != nil {
				t.Fatal(err)
			}
			model := geminiStub(t, "run_shell_command", map[string]any{"command": tc.command})
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			if tc.answer != nil {
				go func() { // answer the call once the gateway holds it
					for ctx.Err() == nil {
						as, err := approver.Approvals(ctx, toolgate.ApprovalFilter{Status: toolgate.StatusPending})
						if err == nil && len(as) > 0 {
							tc.answer(ctx, as[0].ID)
							return
						}
						time.Sleep(100 * time.Millisecond)
					}
				}()
			}
			cmd := exec.CommandContext(ctx, gemini, "-p", "do the task", "--yolo")
			cmd.Dir = project
			cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
				"GOOGLE_GEMINI_BASE_URL="+model.URL, "GEMINI_API_KEY=test", "TOOLGATE_URL=", "TOOLGATE_TOKEN="+gw.Agent,
				"NO_COLOR=1", "CI=1")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("gemini: %v\n%s", err, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(string(out), n) {
					t.Errorf("output has %q:\n%s", n, out)
				}
			}
			_, err = os.Stat(filepath.Join(project, "approved.txt"))
			if ran := err == nil; ran != (tc.made == "approved.txt") {
				t.Errorf("approved.txt made: %v, want %v\n%s", ran, tc.made != "", out)
			}
			if _, err := os.Stat(filepath.Join(project, "denied.txt")); err == nil {
				t.Errorf("denied.txt was made: the denied call ran\n%s", out)
			}
		})
	}
}
