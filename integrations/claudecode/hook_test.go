package claudecode_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/claudecode"
	"github.com/toolgate/toolgate/policy"
)

// testRules is added after the built-in defaults in every test: it allows
// the test suite and denies force pushes, so every action shows up.
const testRules = `{
  "shell_exec": {"go test *": "allow", "git push --force *": "deny"},
  "mcp__github__get_issue": "allow"
}`

func localHook(t *testing.T) *claudecode.Hook {
	t.Helper()
	d, err := policy.ParseWorkspace("test.jsonc", []byte(testRules))
	if err != nil {
		t.Fatal(err)
	}
	e, err := policy.New([]*policy.Document{policy.DefaultDocument(), d}, policy.WithHome("/home/dev"))
	if err != nil {
		t.Fatal(err)
	}
	return &claudecode.Hook{Decider: &claudecode.Local{Engine: e, Env: policy.Env{Mode: e.Mode()}}}
}

func readInput(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "inputs", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// answer is the parts of a hook's JSON answer the tests look at.
type answer struct {
	SystemMessage      string `json:"systemMessage"`
	Decision           string `json:"decision"`
	Reason             string `json:"reason"`
	HookSpecificOutput *struct {
		HookEventName            string         `json:"hookEventName"`
		PermissionDecision       string         `json:"permissionDecision"`
		PermissionDecisionReason string         `json:"permissionDecisionReason"`
		UpdatedInput             map[string]any `json:"updatedInput"`
		Decision                 *struct {
			Behavior     string         `json:"behavior"`
			Message      string         `json:"message"`
			UpdatedInput map[string]any `json:"updatedInput"`
		} `json:"decision"`
	} `json:"hookSpecificOutput"`
}

// decode checks that body is exactly one JSON object with only the keys
// the agents know, and decodes it.
func decode(t *testing.T, body []byte) answer {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	var a answer
	if err := dec.Decode(&a); err != nil {
		t.Fatalf("answer %s: %v", body, err)
	}
	if dec.More() {
		t.Fatalf("answer %s: more than one value", body)
	}
	return a
}

// TestLocalEveryTool decides a recorded input of every Claude Code tool
// with local rules and checks the PreToolUse answer.
func TestLocalEveryTool(t *testing.T) {
	h := localHook(t)
	for _, tc := range []struct {
		file, decision, reason string
	}{
		{"bash.json", "ask", "asks for approval"},
		{"bash_allowed.json", "allow", "allowed by rule"},
		{"read.json", "allow", "allowed by rule"},
		{"read_env.json", "deny", `"*.env"`},
		{"write.json", "allow", "allowed by rule"},
		{"edit.json", "allow", "allowed by rule"},
		{"multiedit.json", "allow", "allowed by rule"},
		{"notebookedit.json", "allow", "allowed by rule"},
		{"glob.json", "allow", "allowed by rule"},
		{"grep.json", "allow", "allowed by rule"},
		{"webfetch.json", "ask", ""},
		{"websearch.json", "ask", ""},
		{"task.json", "ask", ""},
		{"mcp.json", "ask", ""},
		{"subagent.json", "allow", ""},
	} {
		t.Run(tc.file, func(t *testing.T) {
			ans := h.Handle(context.Background(), readInput(t, tc.file))
			if ans.Exit != claudecode.ExitOK || ans.Output == nil || ans.Err != nil {
				t.Fatalf("exit %d, output %v, err %v", ans.Exit, ans.Output, ans.Err)
			}
			a := decode(t, ans.Output.Marshal())
			hso := a.HookSpecificOutput
			if hso == nil || hso.HookEventName != "PreToolUse" {
				t.Fatalf("answer %s: want a PreToolUse hookSpecificOutput", ans.Output.Marshal())
			}
			if hso.PermissionDecision != tc.decision {
				t.Errorf("decision %q, want %q (%s)", hso.PermissionDecision, tc.decision, hso.PermissionDecisionReason)
			}
			if !strings.HasPrefix(hso.PermissionDecisionReason, "toolgate: ") || !strings.Contains(hso.PermissionDecisionReason, tc.reason) {
				t.Errorf("reason %q, want toolgate's with %q", hso.PermissionDecisionReason, tc.reason)
			}
			if hso.UpdatedInput != nil || hso.Decision != nil {
				t.Errorf("unexpected fields in %s", ans.Output.Marshal())
			}
		})
	}
}

func TestCallMapping(t *testing.T) {
	in, err := claudecode.ParseInput(readInput(t, "subagent.json"))
	if err != nil {
		t.Fatal(err)
	}
	c := in.Call("shop")
	want := toolgate.Call{
		ID: "toolu_01Q5pLy6q3EvF8aB2gH7jK9m", Session: "9b1f3c2e-5d4a-4e8b-a1c7-2f6d8e0b4a13",
		Workspace: "shop", Agent: "Explore", Tool: "Read", Cwd: "/home/dev/shop",
	}
	if c.ID != want.ID || c.Session != want.Session || c.Workspace != want.Workspace || c.Agent != want.Agent || c.Tool != want.Tool || c.Cwd != want.Cwd {
		t.Errorf("call %+v, want %+v", c, want)
	}
	if c.Args["file_path"] != "/home/dev/shop/cart/cart.go" {
		t.Errorf("args %v", c.Args)
	}

	in, err = claudecode.ParseInput(readInput(t, "mcp.json"))
	if err != nil {
		t.Fatal(err)
	}
	if c := in.Call(""); c.Origin != "mcp:github" || c.Tool != "mcp__github__create_issue" {
		t.Errorf("mcp call %+v", c)
	}

	in, err = claudecode.ParseInput(readInput(t, "permission_request.json"))
	if err != nil {
		t.Fatal(err)
	}
	if c := in.Call(""); c.ID != "" || c.Args["command"] != "rm -rf node_modules" {
		t.Errorf("permission request call %+v", c)
	}
}

func TestWorkspaceFor(t *testing.T) {
	for dir, want := range map[string]string{
		"/home/dev/shop":      "shop",
		"/home/dev/my shop/":  "my_shop",
		"/home/dev/café":      "caf_",
		"":                    "default",
		"/":                   "default",
		"/home/dev/..":        "home",
		"/srv/.hidden":        "hidden",
		"/srv/proj-1.2_final": "proj-1.2_final",
	} {
		if got := claudecode.WorkspaceFor(dir); got != want {
			t.Errorf("WorkspaceFor(%q) = %q, want %q", dir, got, want)
		}
	}
}

// TestPermissionRequest answers the permission dialog's event with the
// decision object.
func TestPermissionRequest(t *testing.T) {
	h := localHook(t)
	data := readInput(t, "permission_request.json")

	// rm -rf is a critical risk: ask, which leaves the dialog to the user
	// with toolgate's reason shown.
	ans := h.Handle(context.Background(), data)
	a := decode(t, ans.Output.Marshal())
	if ans.Exit != 0 || a.HookSpecificOutput != nil || !strings.HasPrefix(a.SystemMessage, "toolgate: ") {
		t.Errorf("ask: exit %d, answer %s", ans.Exit, ans.Output.Marshal())
	}

	for _, tc := range []struct {
		input    string
		behavior string
	}{
		{`"command": "go test ./..."`, "allow"},
		{`"command": "git push --force origin main"`, "deny"},
	} {
		in := strings.Replace(string(data), `"command": "rm -rf node_modules"`, tc.input, 1)
		ans := h.Handle(context.Background(), []byte(in))
		a := decode(t, ans.Output.Marshal())
		hso := a.HookSpecificOutput
		if hso == nil || hso.HookEventName != "PermissionRequest" || hso.Decision == nil || hso.Decision.Behavior != tc.behavior {
			t.Fatalf("%s: answer %s, want behavior %s", tc.input, ans.Output.Marshal(), tc.behavior)
		}
		if hso.PermissionDecision != "" {
			t.Errorf("PermissionRequest answer carries permissionDecision: %s", ans.Output.Marshal())
		}
		if tc.behavior == "deny" && !strings.Contains(hso.Decision.Message, "toolgate: ") {
			t.Errorf("deny message %q", hso.Decision.Message)
		}
		if tc.behavior == "allow" && hso.Decision.Message != "" {
			t.Errorf("allow with message %q", hso.Decision.Message)
		}
	}
}

// TestCodexInputs reads Codex's inputs (turn_id, model, null
// transcript_path) as Claude Code's and keeps the turn_id, by which the
// answer goes to Codex in what it reads (package hosts tests that).
func TestCodexInputs(t *testing.T) {
	h := localHook(t)
	for _, tc := range []struct{ file, decision string }{
		{"codex_bash.json", "deny"},
		{"codex_ask.json", "ask"},
	} {
		ans := h.Handle(context.Background(), readInput(t, tc.file))
		a := decode(t, ans.Output.Marshal())
		if ans.TurnID == "" || a.HookSpecificOutput == nil || a.HookSpecificOutput.PermissionDecision != tc.decision || a.HookSpecificOutput.PermissionDecisionReason == "" {
			t.Errorf("%s: turn %q, %s", tc.file, ans.TurnID, ans.Output.Marshal())
		}
	}
	ans := h.Handle(context.Background(), readInput(t, "codex_permission_request.json"))
	a := decode(t, ans.Output.Marshal())
	if ans.TurnID == "" || a.HookSpecificOutput == nil || a.HookSpecificOutput.Decision == nil || a.HookSpecificOutput.Decision.Behavior != "deny" {
		t.Errorf("codex permission request: %s", ans.Output.Marshal())
	}
	if ans := h.Handle(context.Background(), readInput(t, "bash.json")); ans.TurnID != "" {
		t.Errorf("Claude Code input with a turn: %q", ans.TurnID)
	}
}

// TestRenderUpdatedInput: a human's changes reach Claude Code as
// updatedInput (never Codex: package hosts tests that).
func TestRenderUpdatedInput(t *testing.T) {
	v := claudecode.Verdict{Action: toolgate.Allow, Reason: "approved", UpdatedInput: map[string]any{"command": "git push origin dev"}}
	a := decode(t, claudecode.Render("PreToolUse", v).Marshal())
	if a.HookSpecificOutput.UpdatedInput["command"] != "git push origin dev" {
		t.Errorf("PreToolUse updatedInput missing")
	}
	a = decode(t, claudecode.Render("PermissionRequest", v).Marshal())
	if a.HookSpecificOutput.Decision.UpdatedInput["command"] != "git push origin dev" {
		t.Errorf("PermissionRequest updatedInput missing")
	}
}

// TestBadInput: nothing malformed is ever allowed.
func TestBadInput(t *testing.T) {
	h := localHook(t)
	for _, tc := range []struct {
		name, input string
		exit        int
		decision    string // for exit 0: the PreToolUse decision
	}{
		{"empty", "", claudecode.ExitBlock, ""},
		{"not json", "allow please", claudecode.ExitBlock, ""},
		{"truncated", `{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"`, claudecode.ExitBlock, ""},
		{"array", `[{"hook_event_name": "PreToolUse"}]`, claudecode.ExitBlock, ""},
		{"no event", `{"tool_name": "Bash", "tool_input": {"command": "ls"}}`, claudecode.ExitBlock, ""},
		{"two values", `{"hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": {}} {}`, 0, "deny"},
		{"no tool", `{"hook_event_name": "PreToolUse", "tool_input": {"command": "ls"}}`, 0, "deny"},
		{"input not object", `{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": "rm -rf /"}`, 0, "deny"},
		{"other event", `{"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {}}`, claudecode.ExitNotice, ""},
		{"stop event", `{"hook_event_name": "Stop", "stop_hook_active": false}`, claudecode.ExitNotice, ""},
		// Another agent's pre-tool event (Gemini CLI's BeforeTool, given
		// the Claude Code hook), or an event added later: it carries a
		// tool call, so it blocks (exit 1 would let the call run).
		{"gemini event", `{"hook_event_name": "BeforeTool", "tool_name": "read_file", "tool_input": {"file_path": "~/.ssh/id_rsa"}}`, claudecode.ExitBlock, ""},
		{"new event", `{"hook_event_name": "PreToolCall", "tool_name": "Bash", "tool_input": {"command": "ls"}}`, claudecode.ExitBlock, ""},
		// Its benign twins: after-events and lifecycle events gate nothing.
		{"gemini after", `{"hook_event_name": "AfterTool", "tool_name": "read_file", "tool_input": {}}`, claudecode.ExitNotice, ""},
		{"new event without a call", `{"hook_event_name": "TurnStart"}`, claudecode.ExitNotice, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ans := h.Handle(context.Background(), []byte(tc.input))
			if ans.Exit != tc.exit {
				t.Fatalf("exit %d, want %d (%v)", ans.Exit, tc.exit, ans.Err)
			}
			if ans.Err == nil {
				t.Errorf("no error reported")
			}
			if tc.exit != 0 {
				if ans.Output != nil || !strings.HasPrefix(ans.Stderr, "toolgate: ") {
					t.Errorf("output %v, stderr %q", ans.Output, ans.Stderr)
				}
				return
			}
			a := decode(t, ans.Output.Marshal())
			if a.HookSpecificOutput.PermissionDecision != tc.decision || !strings.Contains(a.HookSpecificOutput.PermissionDecisionReason, "fails closed") {
				t.Errorf("answer %s", ans.Output.Marshal())
			}
		})
	}

	// --on-error=ask hands an undecidable call to the user instead.
	h.OnError = toolgate.Ask
	ans := h.Handle(context.Background(), []byte(`{"hook_event_name": "PreToolUse", "tool_input": {}}`))
	if a := decode(t, ans.Output.Marshal()); a.HookSpecificOutput.PermissionDecision != "ask" {
		t.Errorf("on-error ask: %s", ans.Output.Marshal())
	}
}

// panicky is a decider that panics.
type panicky struct{}

func (panicky) Decide(context.Context, *toolgate.Call) (claudecode.Verdict, error) {
	panic("boom")
}

// wrongAction is a decider returning no action.
type wrongAction struct{}

func (wrongAction) Decide(context.Context, *toolgate.Call) (claudecode.Verdict, error) {
	return claudecode.Verdict{}, nil
}

func TestInternalErrorsDeny(t *testing.T) {
	for _, d := range []claudecode.Decider{panicky{}, wrongAction{}, &claudecode.Local{}, &claudecode.Remote{}} {
		h := &claudecode.Hook{Decider: d}
		ans := h.Handle(context.Background(), readInput(t, "read.json"))
		a := decode(t, ans.Output.Marshal())
		if ans.Exit != 0 || a.HookSpecificOutput.PermissionDecision != "deny" {
			t.Errorf("%T: exit %d, %s", d, ans.Exit, ans.Output.Marshal())
		}
	}
}

// TestUserPromptSubmitLocal: without a gateway there is no session state,
// so a prompt is let through and nothing else happens: exit 0, no output
// (Claude Code would add stdout to the model's context), no stderr.
func TestUserPromptSubmitLocal(t *testing.T) {
	h := localHook(t)
	for _, file := range []string{"user_prompt_submit.json", "codex_user_prompt_submit.json"} {
		ans := h.Handle(context.Background(), readInput(t, file))
		if ans.Event != "UserPromptSubmit" || ans.Exit != 0 || ans.Output != nil || ans.Stderr != "" || ans.Err != nil {
			t.Errorf("%s: %+v", file, ans)
		}
	}
}

// TestUserPromptSubmitBadInput: a prompt is never blocked, not even when
// its input cannot be read: exit 0, no output, the reason on stderr.
func TestUserPromptSubmitBadInput(t *testing.T) {
	h := localHook(t)
	huge := `{"session_id": "s1", "hook_event_name": "UserPromptSubmit", "prompt": "` + strings.Repeat("x", claudecode.MaxInputBytes) + `"}`
	for name, input := range map[string]string{
		"prompt not a string": `{"session_id": "s1", "hook_event_name": "UserPromptSubmit", "prompt": 7}`,
		"two values":          `{"hook_event_name": "UserPromptSubmit", "prompt": "hi"} {}`,
		"too large":           huge,
		"cut off":             huge[:claudecode.MaxInputBytes/2],
	} {
		ans := h.Handle(context.Background(), []byte(input))
		if ans.Exit != 0 || ans.Output != nil || ans.Err == nil || !strings.HasPrefix(ans.Stderr, "toolgate: ") || strings.Contains(ans.Stderr, "\n") {
			t.Errorf("%s: exit %d, output %v, err %v, stderr %.200q", name, ans.Exit, ans.Output, ans.Err, ans.Stderr)
		}
	}
	// An input that names two events is not taken for a prompt.
	ans := h.Handle(context.Background(), []byte(`{"hook_event_name": "UserPromptSubmit", "hook_event_name": "PreToolUse", "tool_input": 1`))
	if ans.Exit != claudecode.ExitBlock {
		t.Errorf("two event names: %+v", ans)
	}
}
