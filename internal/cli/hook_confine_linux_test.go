package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolgate/toolgate/sandbox"
)

// TestHookConfinedEveryHost: a call a "sandbox" rule offers a confined
// allow is allowed with its command rewritten to run under
// toolgate-sandbox on the hosts whose hooks can replace a call's input
// (Claude Code, Gemini CLI, opencode), and asks on those that cannot
// (Codex, which cannot ask either and so denies; Cursor; Copilot CLI).
// The deny beside it stays a deny everywhere, and without the sandbox
// program nothing is rewritten.
func TestHookConfinedEveryHost(t *testing.T) {
	if err := sandbox.Check(); err != nil {
		t.Skipf("the kernel sandbox cannot run here: %v", err)
	}
	hookEnv(t)
	dir := t.TempDir()
	rules := filepath.Join(dir, "rules.jsonc")
	if err := os.WriteFile(rules, []byte(`{"*": "ask", "Bash": {"make *": "sandbox", "make deploy*": "deny"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(bin, "toolgate-sandbox")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\nexit 125\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	// The session and workspace lead the command, for what the sandbox
	// reports or asks a gateway.
	wrapped := func(session string) string {
		return "TOOLGATE_SESSION='" + session + "' TOOLGATE_WORKSPACE='shop' '" + prog + "' --workspace '/home/dev/shop' -- bash -c 'make build'"
	}

	inputs := map[string]func(cmd string) string{
		"claude-code": func(cmd string) string {
			return `{"session_id":"s1","transcript_path":"/t","cwd":"/home/dev/shop","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + cmd + `"},"tool_use_id":"u1"}`
		},
		"codex": func(cmd string) string {
			return `{"session_id":"s1","turn_id":"t1","transcript_path":null,"cwd":"/home/dev/shop","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + cmd + `"},"tool_use_id":"u1","model":"m","permission_mode":"default"}`
		},
		"gemini": func(cmd string) string {
			return `{"session_id":"s1","transcript_path":"/t","cwd":"/home/dev/shop","hook_event_name":"BeforeTool","timestamp":"x","tool_name":"run_shell_command","tool_input":{"command":"` + cmd + `"}}`
		},
		"opencode": func(cmd string) string {
			return `{"hook_event_name":"tool.execute.before","session_id":"o1","cwd":"/home/dev/shop","tool_name":"bash","tool_input":{"command":"` + cmd + `"}}`
		},
		"cursor": func(cmd string) string {
			return `{"hook_event_name":"beforeShellExecution","conversation_id":"c1","command":"` + cmd + `","cwd":"/home/dev/shop"}`
		},
		"copilot": func(cmd string) string {
			return `{"timestamp":1,"cwd":"/home/dev/shop","toolName":"bash","toolArgs":{"command":"` + cmd + `"}}`
		},
	}
	// The command the host would run, found in its answer, and the answer's
	// decision word.
	type result struct{ decision, command string }
	read := func(host, stdout string) result {
		var a map[string]any
		if err := json.Unmarshal([]byte(stdout), &a); err != nil {
			t.Fatalf("%s: %q: %v", host, stdout, err)
		}
		str := func(m any, k string) string { s, _ := m.(map[string]any)[k].(string); return s }
		switch host {
		case "claude-code", "codex":
			h, _ := a["hookSpecificOutput"].(map[string]any)
			if h == nil {
				return result{"none", ""}
			}
			in, _ := h["updatedInput"].(map[string]any)
			return result{str(h, "permissionDecision"), str(in, "command")}
		case "gemini":
			h, _ := a["hookSpecificOutput"].(map[string]any)
			in, _ := h["tool_input"].(map[string]any)
			return result{str(a, "decision"), str(in, "command")}
		case "opencode":
			args, _ := a["args"].(map[string]any)
			return result{str(a, "decision"), str(args, "command")}
		case "cursor":
			return result{str(a, "permission"), ""}
		default:
			return result{str(a, "permissionDecision"), ""}
		}
	}
	want := map[string]result{
		"claude-code": {"allow", wrapped("s1")}, "gemini": {"allow", wrapped("s1")}, "opencode": {"allow", wrapped("o1")},
		"codex": {"deny", ""}, "cursor": {"ask", ""}, "copilot": {"ask", ""},
	}
	for host, in := range inputs {
		code, stdout, stderr := hookExit(t, []string{host, "--rules", rules}, []byte(in("make build")))
		if got := read(host, stdout); code != 0 || got != want[host] {
			t.Errorf("%s make build: exit %d, %+v (stderr %q), want %+v", host, code, got, stderr, want[host])
		}
		code, stdout, _ = hookExit(t, []string{host, "--rules", rules}, []byte(in("make deploy")))
		if got := read(host, stdout); code != 0 || got.decision != "deny" || got.command != "" {
			t.Errorf("%s make deploy: exit %d, %+v, want deny", host, code, got)
		}
	}
	// Without toolgate-sandbox the hosts that could rewrite ask instead
	// (opencode, which cannot ask, denies saying so).
	t.Setenv("PATH", "/usr/bin:/bin")
	for host, w := range map[string]string{"claude-code": "ask", "gemini": "ask", "opencode": "deny"} {
		_, stdout, _ := hookExit(t, []string{host, "--rules", rules}, []byte(inputs[host]("make build")))
		if got := read(host, stdout); got.decision != w || got.command != "" {
			t.Errorf("%s without the sandbox program: %+v, want %s", host, got, w)
		}
	}
}
