package main

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/integrations/hosts"
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

// realAgent is an agent CLI from npm that the tests drive against a
// stand-in of its model API, with toolgate-hook installed as "toolgate
// hook install HOST" writes it.
type realAgent struct {
	// host is the hook's host name (toolgate-hook HOST).
	host string
	// env names the variable holding the agent's program (.ci/run
	// installs it from npm and sets it).
	env string
	// model starts the stand-in of the model API, which asks for one
	// shell call and then answers with the tool's result, prefixed
	// "FINAL".
	model func(t *testing.T, command string) *httptest.Server
	// settings writes the agent's settings under home, with hook as the
	// command of its pre-tool and prompt hooks, and returns what the
	// agent's environment needs to find them. The scenarios run in
	// parallel: it must not change the test process's environment.
	settings func(t *testing.T, home, hook string) []string
	// args and env are the agent's command line and environment for one
	// run against model.
	args    []string
	environ func(model string) []string
	// modelArgs, if set, are more arguments for a run against model.
	modelArgs func(model string) []string
	// blocked is what the agent puts before a blocked call's reason.
	blocked string
	// scenarios, if set, are the agent's runs instead of shellScenarios.
	scenarios func(agent realAgent) []scenario
	// firstAlone runs the first scenario before the others, which then
	// run in parallel (opencode's first run installs what the others
	// copy).
	firstAlone bool
}

// TestGeminiCLI drives the real Gemini CLI (@google/gemini-cli, the gemini
// program named by $TOOLGATE_TEST_GEMINI).
func TestGeminiCLI(t *testing.T) {
	testRealAgent(t, realAgent{
		host: "gemini",
		env:  "TOOLGATE_TEST_GEMINI",
		model: func(t *testing.T, command string) *httptest.Server {
			return geminiStub(t, "run_shell_command", map[string]any{"command": command})
		},
		settings: func(t *testing.T, home, hook string) []string {
			// The user's own settings, which install keeps.
			writeJSON(t, filepath.Join(home, ".gemini", "settings.json"), map[string]any{
				"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}, "folderTrust": map[string]any{"enabled": false}},
			})
			installHook(t, "gemini", home, hook, 60*time.Second, 10*time.Second)
			return nil
		},
		args: []string{"-p", "do the task", "--yolo"},
		environ: func(model string) []string {
			return []string{"GOOGLE_GEMINI_BASE_URL=" + model, "GEMINI_API_KEY=test"}
		},
		blocked: "Tool execution blocked: toolgate: ",
	})
}

// TestClaudeCode drives the real Claude Code (@anthropic-ai/claude-code,
// the claude program named by $TOOLGATE_TEST_CLAUDE) in print mode.
func TestClaudeCode(t *testing.T) { testRealAgent(t, claudeAgent()) }

// claudeAgent is Claude Code in print mode against the Anthropic API
// stand-in.
func claudeAgent() realAgent {
	return realAgent{
		host:  "claude-code",
		env:   "TOOLGATE_TEST_CLAUDE",
		model: anthropicStub,
		settings: func(t *testing.T, home, hook string) []string {
			installHook(t, "claude-code", home, hook, 60*time.Second, 10*time.Second)
			return nil
		},
		args: []string{"-p", "do the task"},
		environ: func(model string) []string {
			return []string{"ANTHROPIC_BASE_URL=" + model, "ANTHROPIC_API_KEY=test",
				"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1"}
		},
		blocked: "hook error: toolgate: ",
	}
}

// TestCodexCLI drives the real Codex CLI (@openai/codex, the codex program
// named by $TOOLGATE_TEST_CODEX) with codex exec, the hook installed and
// trusted as "toolgate hook install codex" does it (Codex skips an
// untrusted hook without a word).
func TestCodexCLI(t *testing.T) {
	testRealAgent(t, codexAgent())
}

// codexAgent is the real Codex CLI run by codex exec.
func codexAgent() realAgent {
	return realAgent{
		host:  "codex",
		env:   "TOOLGATE_TEST_CODEX",
		model: responsesStub,
		settings: func(t *testing.T, home, hook string) []string {
			// install reads $CODEX_HOME, as Codex does; TestMain unsets
			// it, so install writes under home/.codex, which Codex is
			// told.
			installHook(t, "codex", home, hook, 70*time.Second, 10*time.Second)
			return []string{"CODEX_HOME=" + filepath.Join(home, ".codex")}
		},
		// Every call goes to the hook, not Codex's own approvals or
		// sandbox (Gemini CLI's --yolo); and nothing but the stand-in is
		// looked up (no update check, analytics, apps or plugins, which
		// would resolve api.github.com and chatgpt.com).
		args: []string{"exec", "--dangerously-bypass-approvals-and-sandbox", "--skip-git-repo-check",
			"-c", "check_for_update_on_startup=false", "-c", "analytics.enabled=false",
			"--disable", "apps", "--disable", "plugins", "--disable", "remote_plugin", "--disable", "plugin_sharing",
			"--disable", "api_key_model_discovery", "--disable", "in_app_updates", "do the task"},
		modelArgs: func(model string) []string { return codexModelArgs("gpt-5", model) },
		environ: func(string) []string {
			return []string{"TOOLGATE_TEST_STUB_KEY=test", "RUST_LOG=error"}
		},
		blocked: "Command blocked by PreToolUse hook: toolgate: ",
	}
}

// TestCodexApplyPatch drives the real Codex CLI's apply_patch, its tool
// for editing files, which Codex hands to PreToolUse hooks as tool
// apply_patch with the patch in tool_input.command (a model that is
// offered no apply_patch, like the gpt-5 of TestCodexCLI, edits by
// shell). A patch of one file is decided as its Write or Edit: one inside
// the project runs, one of a login key is denied with the reason reaching
// the model. A patch of several files asks, which through a gateway waits
// for an approver and runs only once approved. A gateway that is down, an
// input the hook cannot read, an event it does not know, a hook killed by
// a signal and a missing hook binary block it.
func TestCodexApplyPatch(t *testing.T) {
	agent := codexAgent()
	agent.model = patchStub                         // the scenario's command is the patch
	agent.modelArgs = func(model string) []string { // a model Codex offers apply_patch
		return codexModelArgs("gpt-5.5", model)
	}
	add := func(files ...string) string {
		p := "*** Begin Patch\n"
		for _, f := range files {
			p += "*** Add File: " + f + "\n+made by apply_patch\n"
		}
		return p + "*** End Patch\n"
	}
	agent.scenarios = func(agent realAgent) []scenario {
		return []scenario{
			{name: "allow", command: add("approved.txt"), want: []string{"FINAL", "approved.txt"}, made: true},
			{name: "deny", command: add("../.ssh/authorized_keys"), want: []string{agent.blocked, "authorized_keys"}},
			{name: "ask approved", command: add("approved.txt", "approved2.txt"), wait: true,
				answer: func(ctx context.Context, approver *client.Client, id string) {
					_, _ = approver.Approve(ctx, id, toolgate.ApproveRequest{})
				}, want: []string{"FINAL", "approved2.txt"}, made: true},
			{name: "ask denied", command: add("denied.txt", "approved.txt"), wait: true,
				answer: func(ctx context.Context, approver *client.Client, id string) {
					_, _ = approver.Deny(ctx, id, toolgate.DenyRequest{Feedback: "write it under build/ instead", Mode: toolgate.DenySoft})
				}, want: []string{agent.blocked, "write it under build/ instead"}},
			{name: "ask locally", command: add("denied.txt", "approved.txt"), want: []string{agent.blocked, "needs a human's approval"}},
			{name: "gateway down", command: add("approved.txt"), hookArgs: []string{"--server", "http://127.0.0.1:1"},
				want: []string{agent.blocked, "unreachable"}},
			{name: "unreadable input", command: add("approved.txt"), wrap: "garble", want: []string{"FINAL"}},
			{name: "unknown event", command: add("approved.txt"), wrap: "rename", want: []string{"FINAL"}},
			{name: "crash", command: add("approved.txt"), wrap: "kill", want: failed(agent, 137)},
			{name: "missing binary", command: add("approved.txt"), wrap: "missing", want: failed(agent, 127)},
		}
	}
	testRealAgent(t, agent)
}

// TestCodexTrustsInstall asks the real Codex (its app-server's
// hooks/list, as toolgate doctor does) whether it runs the hook install
// trusted: it does, and once the hook is changed by hand it does not, and
// doctor's check says so.
func TestCodexTrustsInstall(t *testing.T) {
	program := os.Getenv("TOOLGATE_TEST_CODEX")
	if program == "" {
		t.Skip("TOOLGATE_TEST_CODEX is unset: the real Codex is not asked (.ci/run installs it from npm)")
	}
	home := t.TempDir()
	t.Setenv("CODEX_HOME", filepath.Join(home, ".codex"))
	hook := "/usr/local/bin/toolgate-hook codex"
	installHook(t, "codex", home, hook, 70*time.Second, 10*time.Second)
	host, _ := hosts.Lookup("codex")
	path := filepath.Join(home, ".codex", "hooks.json")
	env := hosts.TrustEnv{Home: home, SHA256: sha256.Sum256, Program: program}
	check := func() (ok, fix []string) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range host.Adapter.(hosts.Trusting).CheckTrust(t.Context(), env, path, data) {
			if c.OK {
				ok = append(ok, c.Say)
			} else {
				fix = append(fix, c.Say)
			}
		}
		return ok, fix
	}
	ok, fix := check()
	if len(fix) > 0 || !slices.ContainsFunc(ok, func(s string) bool {
		return strings.Contains(s, "itself lists the toolgate PreToolUse hook as trusted")
	}) {
		t.Fatalf("after install: ok %q, fix %q", ok, fix)
	}
	data, _ := os.ReadFile(path)
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), `"timeout": 100`, `"timeout": 101`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	_, fix = check()
	if !slices.ContainsFunc(fix, func(s string) bool { return strings.Contains(s, "lists the toolgate PreToolUse hook as modified") }) {
		t.Errorf("a hook changed by hand: fix %q", fix)
	}
}

// installHook installs hook into the host's user settings under home as
// "toolgate hook install HOST" does (Host.Install: merged with what is
// there, and trusted where the host asks for that); tool and prompt are
// the hook's deadlines.
func installHook(t *testing.T, name, home, hook string, tool, prompt time.Duration) {
	t.Helper()
	host, err := hosts.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	scope, err := host.Scope("")
	if err != nil {
		t.Fatal(err)
	}
	path, err := scope.Path(filepath.Join(home, "proj"), home)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := host.Install(hosts.TrustEnv{Home: home, SHA256: sha256.Sum256}, path, host.Entries(hook, "", "", tool, prompt)); err != nil {
		t.Fatal(err)
	}
}

// codexModelArgs are Codex's flags for the model name served by the
// stand-in at url.
func codexModelArgs(name, url string) []string {
	return []string{"-c", `model="` + name + `"`, "-c", `model_provider="stub"`,
		"-c", `model_providers.stub={name="stub",base_url="` + url + `/v1",env_key="TOOLGATE_TEST_STUB_KEY",wire_api="responses"}`}
}

// responsesStub is a stand-in of the OpenAI Responses API (streamed with
// SSE) that asks for one exec_command call (Codex's shell tool) and then
// answers with its output.
func responsesStub(t *testing.T, command string) *httptest.Server {
	args, _ := json.Marshal(map[string]string{"cmd": command})
	return responsesCallStub(t, map[string]any{"type": "function_call", "id": "fc_1", "call_id": "call_1",
		"name": "exec_command", "arguments": string(args)})
}

// patchStub is responsesStub asking for one apply_patch call (Codex's
// file editing tool, a freeform tool whose input is the patch) instead.
func patchStub(t *testing.T, patch string) *httptest.Server {
	return responsesCallStub(t, map[string]any{"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_1",
		"name": "apply_patch", "input": patch})
}

// responsesCallStub is a stand-in of the OpenAI Responses API that asks
// for the call item, if the request offers its tool (for a call with a
// namespace, a tool of that namespace), and then answers
// with the call's output, prefixed "FINAL".
func responsesCallStub(t *testing.T, call map[string]any) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/responses") {
			http.NotFound(w, r)
			return
		}
		var req struct {
			Input []struct {
				Type   string          `json:"type"`
				Output json.RawMessage `json:"output"`
			} `json:"input"`
			Tools []struct {
				Name  string `json:"name"`
				Tools []struct {
					Name string `json:"name"`
				} `json:"tools"` // a namespace's
			} `json:"tools"`
		}
		body, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(body, &req)
		var output json.RawMessage
		for _, in := range req.Input {
			if in.Type == "function_call_output" || in.Type == "custom_tool_call_output" {
				output = in.Output
			}
		}
		offered := false
		for _, tl := range req.Tools {
			if ns, ok := call["namespace"]; ok {
				for _, nt := range tl.Tools {
					offered = offered || tl.Name == ns && nt.Name == call["name"]
				}
				continue
			}
			offered = offered || tl.Name == call["name"]
		}
		text := func(s string) map[string]any {
			return map[string]any{"type": "message", "role": "assistant", "id": "msg_1",
				"content": []any{map[string]any{"type": "output_text", "text": s}}}
		}
		item := text("ok")
		switch {
		case output != nil:
			item = text("FINAL " + string(output))
		case offered:
			item = call
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, ev := range []map[string]any{
			{"type": "response.created", "response": map[string]any{"id": "resp_1"}},
			{"type": "response.output_item.done", "item": item},
			{"type": "response.completed", "response": map[string]any{"id": "resp_1",
				"usage": map[string]any{"input_tokens": 1, "output_tokens": 1, "total_tokens": 2}}},
		} {
			data, _ := json.Marshal(ev)
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev["type"], data)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// anthropicStub is a stand-in of the Anthropic Messages API (streamed
// with SSE, or not) that asks for one Bash call and then answers with its
// result.
func anthropicStub(t *testing.T, command string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/v1/messages") {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"input_tokens":1}`)
			return
		}
		var req struct {
			Model    string `json:"model"`
			Stream   bool   `json:"stream"`
			Messages []struct {
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		}
		body, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(body, &req)
		var result json.RawMessage
		if n := len(req.Messages); n > 0 {
			var parts []struct {
				Type    string          `json:"type"`
				Content json.RawMessage `json:"content"`
			}
			_ = json.Unmarshal(req.Messages[n-1].Content, &parts)
			for _, p := range parts {
				if p.Type == "tool_result" {
					result = p.Content
				}
			}
		}
		bash := false
		for _, tl := range req.Tools {
			bash = bash || tl.Name == "Bash"
		}
		block := map[string]any{"type": "text", "text": "ok"}
		stop := "end_turn"
		switch {
		case result != nil:
			block = map[string]any{"type": "text", "text": "FINAL " + string(result)}
		case bash:
			block = map[string]any{"type": "tool_use", "id": "toolu_01", "name": "Bash", "input": map[string]any{"command": command}}
			stop = "tool_use"
		}
		msg := map[string]any{"id": "msg_1", "type": "message", "role": "assistant", "model": req.Model, "content": []any{},
			"stop_reason": nil, "stop_sequence": nil, "usage": map[string]int{"input_tokens": 1, "output_tokens": 1}}
		if !req.Stream {
			msg["content"], msg["stop_reason"] = []any{block}, stop
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(msg)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		event := func(name string, v any) {
			data, _ := json.Marshal(v)
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data)
		}
		event("message_start", map[string]any{"type": "message_start", "message": msg})
		if block["type"] == "tool_use" {
			input, _ := json.Marshal(block["input"])
			event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
				"content_block": map[string]any{"type": "tool_use", "id": "toolu_01", "name": "Bash", "input": map[string]any{}}})
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
		} else {
			event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
				"content_block": map[string]any{"type": "text", "text": ""}})
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
				"delta": map[string]any{"type": "text_delta", "text": block["text"]}})
		}
		event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
		event("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
			"usage": map[string]int{"output_tokens": 1}})
		event("message_stop", map[string]any{"type": "message_stop"})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// wrapper writes a program named toolgate-hook (so the hosts that trust
// only toolgate's own hook command, Codex CLI, trust it as install does)
// that runs the real hook on an input changed as mode says, for a tool
// call's input only (a prompt hook's exit 2 would block the prompt
// before any call): "garble" gives it an input that is not JSON,
// "rename" the input with its event's name changed to one no host sends,
// "kill" has the hook's process killed by a signal (as the kernel's
// OOM killer would) after the hook decided but before it answered, and
// "missing" runs a program that is not there (a binary removed after
// install: the shell's exit 127).
func wrapper(t *testing.T, mode string) string {
	t.Helper()
	var run string
	switch mode {
	case "missing":
		run = `exec "$hook.gone" "$@"`
	case "garble":
		run = `echo '{' | "$hook" "$@"`
	case "rename":
		// Copilot CLI's input names no event: it gets one.
		run = `printf %s "$in" | sed -e 's/"hook_event_name": *"[^"]*"/"hook_event_name":"PreToolCall"/' -e t -e 's/^{/{"hook_event_name":"PreToolCall",/' | "$hook" "$@"`
	case "kill":
		run = `printf %s "$in" | "$hook" "$@" >/dev/null; kill -9 $$`
	default:
		t.Fatalf("wrapper mode %q", mode)
	}
	p := filepath.Join(t.TempDir(), "toolgate-hook")
	script := "#!/bin/sh\nhook=" + sharedHookBin(t) + "\nin=$(cat)\ncase \"$in\" in\n*tool_name*|*toolName*) " + run +
		";;\n*) printf %s \"$in\" | exec \"$hook\" \"$@\";;\nesac\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// scenario is one run of a real agent: the call its model asks for
// (command, which the agent's model stand-in turns into its tool call),
// how the hook runs, and what must reach the model.
type scenario struct {
	name, command string
	hookArgs      []string
	wait          bool                                                          // the hook waits for the scenario's gateway to answer an ask
	wrap          string                                                        // the hook runs behind wrapper(wrap): a broken input, an unknown event, a crash
	answer        func(ctx context.Context, approver *client.Client, id string) // for a call held at the gateway
	want, not     []string                                                      // in what reached the model
	made          bool                                                          // the call made approved.txt
}

// shellScenarios are the scenarios of a shell call: allow runs the tool;
// a deny's reason reaches the model and the secret does not; an ask held
// at a gateway (wait) runs once approved, and not when denied, the
// feedback reaching the model; a gateway that is down blocks the call,
// and so do a tool call's input the hook cannot read, an event it does
// not know and a hook that crashed.
func shellScenarios(agent realAgent) []scenario {
	return []scenario{
		{name: "allow", command: "ls", want: []string{"FINAL", "notes.txt"}},
		{name: "deny", command: "cat ~/.ssh/id_rsa", want: []string{agent.blocked, "SSH private keys"}, not: []string{"FAKE-KEY"}},
		{name: "ask approved", command: "touch approved.txt", wait: true,
			answer: func(ctx context.Context, approver *client.Client, id string) {
				_, _ = approver.Approve(ctx, id, toolgate.ApproveRequest{})
			}, want: []string{"FINAL"}, made: true},
		{name: "ask denied", command: "touch denied.txt", wait: true,
			answer: func(ctx context.Context, approver *client.Client, id string) {
				_, _ = approver.Deny(ctx, id, toolgate.DenyRequest{Feedback: "write it under build/ instead", Mode: toolgate.DenySoft})
			}, want: []string{agent.blocked, "write it under build/ instead"}},
		{name: "gateway down", command: "ls", hookArgs: []string{"--server", "http://127.0.0.1:1"},
			want: []string{agent.blocked, "unreachable"}, not: []string{"notes.txt"}},
		// An input the hook cannot read, or an event it does not know that
		// carries a tool call, ends in exit 2 and no answer on stdout: the
		// agent must block the call, not run it.
		{name: "unreadable input", command: "ls", wrap: "garble", want: []string{"FINAL"}, not: []string{"notes.txt"}},
		{name: "unknown event", command: "ls", wrap: "rename", want: []string{"FINAL"}, not: []string{"notes.txt"}},
		// A hook killed by a signal, or a binary that is gone, is no
		// answer at all: the hosts that run a call after any exit but 0
		// and 2 get a command line that turns it into exit 2.
		{name: "crash", command: "ls", wrap: "kill", want: failed(agent, 137), not: []string{"notes.txt"}},
		{name: "missing binary", command: "ls", wrap: "missing", want: failed(agent, 127), not: []string{"notes.txt"}},
	}
}

// failed is what reaches the model of an agent whose hook failed with
// status: the reason FailClosed's command line gives, on a host that
// install writes it for; else (a host that blocks a failed hook by
// itself) only that the call did not run.
func failed(agent realAgent, status int) []string {
	if host, err := hosts.Lookup(agent.host); err == nil && host.ExitWrap {
		// After what the shell said (Killed, not found).
		return []string{fmt.Sprintf("toolgate: the hook failed (exit status %d), so the call is blocked", status)}
	}
	return []string{"FINAL"}
}

// testRealAgent runs the agent once per scenario (agent.scenarios, else
// shellScenarios), the scenarios in parallel, each against a gateway and a
// model stand-in of its own, in a home of its own with a project holding
// notes.txt and a secret in ~/.ssh/id_rsa.
func testRealAgent(t *testing.T, agent realAgent) {
	program := os.Getenv(agent.env)
	if program == "" {
		t.Skipf("%s is unset: the real agent is not driven (.ci/run installs it from npm)", agent.env)
	}
	t.Parallel()
	bin := sharedHookBin(t)
	scenarios := shellScenarios
	if agent.scenarios != nil {
		scenarios = agent.scenarios
	}
	for i, tc := range scenarios(agent) {
		t.Run(tc.name, func(t *testing.T) {
			if i > 0 || !agent.firstAlone {
				t.Parallel()
			}
			gw := stacktest.New(t)
			approver, err := client.New(gw.Server.URL, gw.Approver)
			if err != nil {
				t.Fatal(err)
			}
			hookArgs := tc.hookArgs
			if tc.wait {
				hookArgs = append(slices.Clip(hookArgs), "--server", gw.Server.URL, "--on-ask", "wait", "--wait", "60s")
			}
			// A home with no symbolic link in its path: Codex resolves
			// $CODEX_HOME's, and the trust that install writes must name
			// the same path.
			home, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			project := filepath.Join(home, "proj")
			for path, text := range map[string]string{
				filepath.Join(project, "notes.txt"):   "notes\n",
				filepath.Join(home, ".ssh", "id_rsa"): "FAKE-KEY-4711\n",
			} {
				if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			hook := strings.Join(append([]string{bin, agent.host}, hookArgs...), " ")
			if tc.wrap != "" {
				hook = wrapper(t, tc.wrap) + " " + strings.Join(append([]string{agent.host}, hookArgs...), " ")
			}
			env := agent.settings(t, home, hook)
			model := agent.model(t, tc.command)
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			if tc.answer != nil {
				go func() { // answer the call once the gateway holds it
					for ctx.Err() == nil {
						as, err := approver.Approvals(ctx, toolgate.ApprovalFilter{Status: toolgate.StatusPending})
						if err == nil && len(as) > 0 {
							tc.answer(ctx, approver, as[0].ID)
							return
						}
						time.Sleep(100 * time.Millisecond)
					}
				}()
			}
			args := agent.args
			if agent.modelArgs != nil {
				args = append(slices.Clip(args), agent.modelArgs(model.URL)...)
			}
			env = append(append([]string{"TOOLGATE_URL=", "TOOLGATE_TOKEN=" + gw.Agent}, env...), agent.environ(model.URL)...)
			out := runAgent(ctx, t, program, home, project, args, env)
			checkOutput(t, out, tc.want, tc.not)
			if _, err := os.Stat(filepath.Join(project, "approved.txt")); (err == nil) != tc.made {
				t.Errorf("approved.txt made: %v, want %v\n%s", err == nil, tc.made, out)
			}
			if _, err := os.Stat(filepath.Join(project, "denied.txt")); err == nil {
				t.Errorf("denied.txt was made: the denied call ran\n%s", out)
			}
		})
	}
}

// runAgent runs an agent's CLI in project, with home as its home and
// env added to the test's environment, and returns what it printed; a
// run that fails fails the test. PWD is set too: the test's own would
// name the package directory, and opencode runs its tools there.
func runAgent(ctx context.Context, t *testing.T, program, home, project string, args, env []string) string {
	t.Helper()
	cmd := exec.CommandContext(ctx, program, args...)
	cmd.Dir = project
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "PWD="+project,
		"NO_COLOR=1", "CI=1")
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", program, err, out)
	}
	return string(out)
}

// checkOutput fails t for each of want that out lacks and each of not
// that it holds.
func checkOutput(t *testing.T, out string, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	for _, n := range not {
		if strings.Contains(out, n) {
			t.Errorf("output has %q:\n%s", n, out)
		}
	}
}
