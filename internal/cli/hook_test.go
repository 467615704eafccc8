package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/integrations/claudecode/claudecodetest"
	"github.com/toolgate/toolgate/internal/clibase"
)

// hookExit runs runHook as the process would and returns its exit code,
// mapping errors as Main does.
func hookExit(t *testing.T, args []string, input []byte) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	err := runHook(context.Background(), args, bytes.NewReader(input), &out, &errb)
	var silent clibase.ErrSilent
	var ee *clibase.ExitError
	switch {
	case err == nil:
		code = 0
	case errors.As(err, &silent):
		code = int(silent)
	case errors.As(err, &ee):
		code = ee.Code
	default:
		code = clibase.ExitFailure
	}
	return code, out.String(), errb.String()
}

// hookEnv isolates a hook run from the user's config and gateway.
func hookEnv(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
	t.Setenv("TOOLGATE_URL", "")
	t.Setenv("TOOLGATE_TOKEN", "")
	t.Setenv("TOOLGATE_WORKSPACE", "")
	t.Setenv("CLAUDE_PROJECT_DIR", "/home/dev/shop")
}

func recorded(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "integrations", "claudecode", "testdata", "inputs", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

type hookAnswer struct {
	SystemMessage      string `json:"systemMessage"`
	HookSpecificOutput *struct {
		HookEventName            string         `json:"hookEventName"`
		PermissionDecision       string         `json:"permissionDecision"`
		PermissionDecisionReason string         `json:"permissionDecisionReason"`
		UpdatedInput             map[string]any `json:"updatedInput"`
		Decision                 *struct {
			Behavior string `json:"behavior"`
			Message  string `json:"message"`
		} `json:"decision"`
	} `json:"hookSpecificOutput"`
}

func parseAnswer(t *testing.T, stdout string) hookAnswer {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	var a hookAnswer
	if err := dec.Decode(&a); err != nil {
		t.Fatalf("stdout %q: %v", stdout, err)
	}
	if strings.Count(stdout, "\n") != 1 {
		t.Errorf("stdout %q: want one line", stdout)
	}
	return a
}

// TestHookEveryToolLocal runs the command on the recorded input of every
// Claude Code tool with the built-in default rules: exit 0, one JSON
// answer, nothing on stderr.
func TestHookEveryToolLocal(t *testing.T) {
	hookEnv(t)
	for file, want := range map[string]string{
		"bash.json": "ask", "bash_allowed.json": "ask", "read.json": "allow", "read_env.json": "deny",
		"write.json": "allow", "edit.json": "allow", "multiedit.json": "allow", "notebookedit.json": "allow",
		"glob.json": "allow", "grep.json": "allow", "webfetch.json": "ask", "websearch.json": "ask",
		"task.json": "ask", "mcp.json": "ask", "subagent.json": "allow",
	} {
		code, stdout, stderr := hookExit(t, []string{"claude-code"}, recorded(t, file))
		if code != 0 || stderr != "" {
			t.Errorf("%s: exit %d, stderr %q", file, code, stderr)
			continue
		}
		a := parseAnswer(t, stdout)
		if a.HookSpecificOutput == nil || a.HookSpecificOutput.HookEventName != "PreToolUse" || a.HookSpecificOutput.PermissionDecision != want {
			t.Errorf("%s: %s, want %s", file, stdout, want)
		}
	}
}

// TestHookExitCodes pins the exit codes the agents depend on.
func TestHookExitCodes(t *testing.T) {
	hookEnv(t)
	for _, tc := range []struct {
		name  string
		args  []string
		input string
		code  int
	}{
		{"decision", []string{"claude-code"}, string(recorded(t, "read_env.json")), 0},
		{"permission request", []string{"claude-code"}, string(recorded(t, "permission_request.json")), 0},
		{"codex", []string{"codex"}, string(recorded(t, "codex_bash.json")), 0},
		{"not json", []string{"claude-code"}, "yes", 2},
		{"no event", []string{"claude-code"}, `{"tool_name":"Bash"}`, 2},
		{"bad tool_input", []string{"claude-code"}, `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":[1]}`, 0},
		{"other event", []string{"claude-code"}, `{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{}}`, 1},
		{"prompt", []string{"claude-code"}, string(recorded(t, "user_prompt_submit.json")), 0},
		{"codex prompt", []string{"codex"}, string(recorded(t, "codex_user_prompt_submit.json")), 0},
		{"bad prompt", []string{"claude-code"}, `{"hook_event_name":"UserPromptSubmit","prompt":7}`, 0},
		{"bad flag", []string{"claude-code", "--on-error", "allow"}, "", 2},
		{"unknown hook", []string{"nosuchagent"}, "", 2},
	} {
		code, stdout, stderr := hookExit(t, tc.args, []byte(tc.input))
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d (stdout %q, stderr %q)", tc.name, code, tc.code, stdout, stderr)
		}
		if code == 0 && strings.Contains(stdout, `"allow"`) {
			t.Errorf("%s: allowed: %s", tc.name, stdout)
		}
		if code != 0 && stdout != "" {
			t.Errorf("%s: stdout %q with exit %d", tc.name, stdout, code)
		}
	}
}

// TestHookGateway runs the command against a stand-in gateway: rules,
// ask handed to Claude Code's prompt, a call held for remote approval
// that the test approves over the API, and the gateway down.
func TestHookGateway(t *testing.T) {
	hookEnv(t)
	g := claudecodetest.New(t, `{"shell_exec": {"go test *": "allow"}}`)
	t.Setenv("TOOLGATE_URL", g.URL)
	t.Setenv("TOOLGATE_TOKEN", g.Agent)

	code, stdout, _ := hookExit(t, []string{"claude-code"}, recorded(t, "bash_allowed.json"))
	if a := parseAnswer(t, stdout); code != 0 || a.HookSpecificOutput.PermissionDecision != "allow" {
		t.Errorf("rule allow: %d %s", code, stdout)
	}
	if sub := g.Submitted(); len(sub) != 1 || sub[0].Workspace != "shop" || sub[0].Session != "9b1f3c2e-5d4a-4e8b-a1c7-2f6d8e0b4a13" {
		t.Errorf("submitted %+v", sub)
	}
	code, stdout, _ = hookExit(t, []string{"claude-code"}, recorded(t, "bash.json"))
	if a := parseAnswer(t, stdout); code != 0 || a.HookSpecificOutput.PermissionDecision != "ask" {
		t.Errorf("ask: %d %s", code, stdout)
	}
	// Prompt mode records the ask without holding it: no approval is
	// created, so none is left pending or cancelled.
	if a, c := g.Approvals(), g.Cancelled(); len(a) != 0 || len(c) != 0 {
		t.Errorf("prompt mode held an approval: approvals %v, cancelled %v; want none", a, c)
	}
	if asks, err := g.Audit("decision"); err != nil || !slices.ContainsFunc(asks, func(e toolgate.AuditEntry) bool { return e.Outcome == "ask" }) {
		t.Errorf("the prompt's ask is not audited: %+v, %v", asks, err)
	}

	// Held for a remote approver, who approves over the API. A session is
	// bound to the workspace of its first call, so the --workspace flag is
	// tried on a session of its own.
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	webfetch := bytes.ReplaceAll(recorded(t, "webfetch.json"), []byte("9b1f3c2e-5d4a-4e8b-a1c7-2f6d8e0b4a13"), []byte("payments-session"))
	go func() {
		c, o, e := hookExit(t, []string{"claude-code", "--on-ask", "wait", "--wait", "20s", "--workspace", "payments"}, webfetch)
		done <- result{c, o, e}
	}()
	id, err := g.WaitPending(10 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	approver, err := client.New(g.URL, g.Approver, client.WithVia("web"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := approver.Approve(context.Background(), id, toolgate.ApproveRequest{Scope: toolgate.ScopeOnce}); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if a := parseAnswer(t, r.stdout); r.code != 0 || a.HookSpecificOutput.PermissionDecision != "allow" || !strings.Contains(a.HookSpecificOutput.PermissionDecisionReason, "approved by alice via web") {
		t.Errorf("approved: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if sub := g.Submitted(); sub[len(sub)-1].Workspace != "payments" {
		t.Errorf("workspace flag ignored: %+v", sub[len(sub)-1])
	}

	// Codex against a gateway waits by default; nobody answers in time.
	code, stdout, _ = hookExit(t, []string{"codex", "--wait", "200ms"}, recorded(t, "codex_ask.json"))
	if a := parseAnswer(t, stdout); code != 0 || a.HookSpecificOutput.PermissionDecision != "deny" || !strings.Contains(a.HookSpecificOutput.PermissionDecisionReason, "no approver answered") {
		t.Errorf("codex wait: %d %s", code, stdout)
	}

	// The user's prompt ends the session's turn: exit 0, no output.
	code, stdout, stderr := hookExit(t, []string{"claude-code"}, recorded(t, "user_prompt_submit.json"))
	if code != 0 || stdout != "" || stderr != "" {
		t.Errorf("prompt: %d %q %q", code, stdout, stderr)
	}
	if got := g.TurnsEnded(); len(got) != 1 || got[0] != "9b1f3c2e-5d4a-4e8b-a1c7-2f6d8e0b4a13" {
		t.Errorf("turns ended %v", got)
	}

	// The gateway is down: deny, exit 0.
	t.Setenv("TOOLGATE_URL", claudecodetest.ClosedURL())
	for _, file := range []string{"read.json", "permission_request.json"} {
		code, stdout, _ = hookExit(t, []string{"claude-code"}, recorded(t, file))
		a := parseAnswer(t, stdout)
		denied := a.HookSpecificOutput != nil && (a.HookSpecificOutput.PermissionDecision == "deny" ||
			a.HookSpecificOutput.Decision != nil && a.HookSpecificOutput.Decision.Behavior == "deny")
		if code != 0 || !denied || !strings.Contains(stdout, "unreachable") {
			t.Errorf("down, %s: %d %s", file, code, stdout)
		}
	}
	// ... but the user's prompt still goes through: exit 0, no output,
	// one line on stderr.
	code, stdout, stderr = hookExit(t, []string{"claude-code", "--on-ask", "wait"}, recorded(t, "user_prompt_submit.json"))
	if code != 0 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "could not end the turn") || !strings.Contains(stderr, "unreachable") {
		t.Errorf("down, prompt: %d %q %q", code, stdout, stderr)
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"toolgate":                    "toolgate",
		"/usr/local/bin/toolgate":     "/usr/local/bin/toolgate",
		"/Users/me/my tools/toolgate": "'/Users/me/my tools/toolgate'",
		"it's":                        `'it'\''s'`,
		"http://127.0.0.1:8787":       "http://127.0.0.1:8787",
		"":                            "''",
		"$(rm -rf ~)":                 "'$(rm -rf ~)'",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestLeanHookInstall: install picks the lean hook binary only when it is
// an executable file next to toolgate.
func TestLeanHookInstall(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "toolgate")
	if got := leanHook(exe); got != "" {
		t.Errorf("no toolgate-hook: leanHook = %q", got)
	}
	lean := filepath.Join(dir, "toolgate-hook")
	if err := os.WriteFile(lean, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := leanHook(exe); got != "" {
		t.Errorf("toolgate-hook not executable: leanHook = %q", got)
	}
	if err := os.Chmod(lean, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := leanHook(exe); got != lean {
		t.Errorf("leanHook = %q, want %q", got, lean)
	}
}
