package hosts

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/claudecode"
	"github.com/toolgate/toolgate/policy"
)

// TestCodexHash: the trust hashes of toolgate's hooks are the ones Codex
// itself computes (as Codex 0.171.0's app-server listed them in hooks/list
// for this hooks.json); a hook with fields toolgate does not write, or a
// matcher Codex versions normalise differently, gets none, and is left
// for Codex's /hooks to trust.
func TestCodexHash(t *testing.T) {
	t.Parallel()
	const file = "/tmp/cx/home/.codex/hooks.json"
	group := func(event, matcher, handler string) string {
		return `{"hooks":{"PostToolUse":[{"hooks":[{"type":"command","command":"audit"}]}],"` + event + `":[` +
			`{"matcher":"Bash","hooks":[{"type":"command","command":"other-hook"}]},` +
			`{` + matcher + `"hooks":[{"type":"command","command":"echo"},` + handler + `]}]}}`
	}
	const ours = `{"type":"command","command":"/opt/cxbin/toolgate-hook codex","timeout":160}`
	for _, tc := range []struct {
		name, src, key, hash string
	}{
		{"pre_tool_use", group("PreToolUse", `"matcher":"*",`, ours), file + ":pre_tool_use:1:1",
			"sha256:a9c1d6e031dab2f30643982285f3f50959290d7e6f021a613c7444e0579bc8f7"},
		{"user_prompt_submit", group("UserPromptSubmit", "", strings.Replace(ours, "160", "40", 1)), file + ":user_prompt_submit:1:1",
			"sha256:5efb416688ad20ec39f1bab0a716baf2159f3862628db1e94999daa93394dc09"},
		{"prompt matcher ignored", group("UserPromptSubmit", `"matcher":"*",`, strings.Replace(ours, "160", "40", 1)), file + ":user_prompt_submit:1:1",
			"sha256:5efb416688ad20ec39f1bab0a716baf2159f3862628db1e94999daa93394dc09"},
		{"async false", group("PreToolUse", `"matcher":"*",`, strings.Replace(ours, `"timeout"`, `"async":false,"timeout"`, 1)), file + ":pre_tool_use:1:1",
			"sha256:a9c1d6e031dab2f30643982285f3f50959290d7e6f021a613c7444e0579bc8f7"},
		{"status message", group("PreToolUse", `"matcher":"*",`, strings.Replace(ours, `"timeout"`, `"statusMessage":"x","timeout"`, 1)), file + ":pre_tool_use:1:1", ""},
		{"no timeout", group("PreToolUse", `"matcher":"*",`, `{"type":"command","command":"toolgate-hook codex"}`), file + ":pre_tool_use:1:1", ""},
		{"empty matcher", group("PreToolUse", `"matcher":"",`, ours), file + ":pre_tool_use:1:1", ""},
	} {
		hooks, err := codexHooks(file, []byte(tc.src), sha256.Sum256)
		if err != nil || len(hooks) != 1 {
			t.Fatalf("%s: %v %+v", tc.name, err, hooks)
		}
		if hooks[0].Key != tc.key || hooks[0].Hash != tc.hash {
			t.Errorf("%s: key %s hash %q, want %s %q", tc.name, hooks[0].Key, hooks[0].Hash, tc.key, tc.hash)
		}
	}
}

// TestCodexTrustTables: trust tables are replaced, not repeated, and
// other tables and keys stay; a key kept in another form is refused.
func TestCodexTrustTables(t *testing.T) {
	t.Parallel()
	hooks := []CodexHook{{Key: `/h "q"/hooks.json:pre_tool_use:0:0`, Hash: "sha256:new"}}
	src := "model = \"gpt-5\"\n\n[hooks.state.\"/h \\\"q\\\"/hooks.json:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:old\"\nenabled = false\n\n[tui]\nx = 1"
	out, err := codexTrust([]byte(src), hooks)
	if err != nil {
		t.Fatal(err)
	}
	want := "model = \"gpt-5\"\n\n[tui]\nx = 1\n\n[hooks.state.\"/h \\\"q\\\"/hooks.json:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:new\"\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	if st := codexStates(out)[hooks[0].Key]; st.trustedHash != "sha256:new" || st.disabled {
		t.Errorf("states: %+v", st)
	}
	for _, bad := range []string{
		"hooks.state.\"k\".trusted_hash = \"x\"\n",
		"[hooks]\nstate = {}\n",
		"hooks = { state = {} }\n",
		"[other]\nnote = \"/h \\\"q\\\"/hooks.json:pre_tool_use:0:0\"\n",
	} {
		if _, err := codexTrust([]byte(bad), hooks); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if !codexHooksOff([]byte("[features]\nhooks = false # off\n")) || codexHooksOff([]byte("[features]\nhooks = true\n")) ||
		!codexHooksOff([]byte("features.codex_hooks = false\n")) {
		t.Error("codexHooksOff")
	}
}

// codexInput is a recorded hook input (claudecode's test data).
func codexInput(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "claudecode", "testdata", "inputs", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestCodexAnswers: the Codex host answers in the subset Codex reads, and
// so does the Claude Code host when Codex (by its turn_id) runs it: a
// deny with its reason, an ask denied saying a human is needed, an allow
// as no decision, a human's changes (which Codex cannot make) denied, and
// a prompt let through. Claude Code's own inputs keep Claude Code's
// format on its host.
func TestCodexAnswers(t *testing.T) {
	t.Parallel()
	e, err := policy.New([]*policy.Document{policy.DefaultDocument()}, policy.WithHome("/home/dev"))
	if err != nil {
		t.Fatal(err)
	}
	hook := &claudecode.Hook{Decider: &claudecode.Local{Engine: e, Env: policy.Env{Mode: e.Mode()}}}
	allow := strings.Replace(string(codexInput(t, "codex_ask.json")), "git push origin main", "git status", 1)
	codexHost, _ := Lookup("codex")
	claude, _ := Lookup("claude-code")
	for _, tc := range []struct {
		name  string
		hosts []*Host
		input []byte
		want  string // the answer on stdout, "" for none
	}{
		{"deny", []*Host{codexHost, claude}, codexInput(t, "codex_bash.json"), `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"toolgate: `},
		{"ask", []*Host{codexHost, claude}, codexInput(t, "codex_ask.json"), `"permissionDecision":"deny","permissionDecisionReason":"toolgate: `},
		{"allow", []*Host{codexHost, claude}, []byte(allow), "{}\n"},
		{"permission request", []*Host{codexHost, claude}, codexInput(t, "codex_permission_request.json"), `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"toolgate: `},
		{"Claude Code's input on the Codex host", []*Host{codexHost}, codexInput(t, "bash.json"), `"permissionDecision":"deny"`},
		{"Claude Code's input on its host", []*Host{claude}, codexInput(t, "bash.json"), `"permissionDecision":"ask"`},
		{"prompt", []*Host{codexHost, claude}, codexInput(t, "codex_user_prompt_submit.json"), ""},
	} {
		for _, h := range tc.hosts {
			ans := hook.Handle(context.Background(), tc.input)
			out, msg, code := h.Answer(&ans)
			if code != 0 || msg != "" || tc.want == "" && out != nil || !strings.HasPrefix(string(out), tc.want) && !strings.Contains(string(out), tc.want) {
				t.Errorf("%s on %s: exit %d, stdout %s, stderr %q; want %s", tc.name, h.Name, code, out, msg, tc.want)
			}
			if tc.name == "ask" && !strings.Contains(string(out), "Codex hooks cannot ask") {
				t.Errorf("ask on %s does not say why: %s", h.Name, out)
			}
		}
	}

	// --on-error=ask: Codex cannot ask, so a call that cannot be decided
	// is denied there.
	failing := &claudecode.Hook{Decider: hook.Decider, OnError: toolgate.Ask}
	bad := []byte(`{"hook_event_name": "PreToolUse", "turn_id": "t1", "tool_input": {}}`)
	ans := failing.Handle(context.Background(), bad)
	if out, _, _ := codexHost.Answer(&ans); !strings.Contains(string(out), `"permissionDecision":"deny"`) {
		t.Errorf("on-error ask on Codex: %s", out)
	}

	// A human approved the call with changes: Claude Code gets them,
	// Codex (which cannot change a call) denies the call as it was.
	changed := map[string]any{"command": "git push origin dev"}
	for _, event := range []string{claudecode.EventPreToolUse, claudecode.EventPermissionRequest} {
		v := claudecode.Verdict{Action: toolgate.Allow, Reason: "approved by ann", UpdatedInput: changed}
		ans := claudecode.Answer{Event: event, Verdict: v, Output: claudecode.Render(event, v)}
		out, _, _ := codexHost.Answer(&ans)
		if strings.Contains(string(out), "updatedInput") || !strings.Contains(string(out), "deny") || !strings.Contains(string(out), "which Codex cannot apply to the call") {
			t.Errorf("%s with changes on Codex: %s", event, out)
		}
		if out, _, _ := claude.Answer(&ans); !strings.Contains(string(out), `"updatedInput":{"command":"git push origin dev"}`) {
			t.Errorf("%s with changes on Claude Code: %s", event, out)
		}
	}
}

// TestCodexAsk asks stand-ins of Codex's app-server: a hook it lists as
// trusted is fine, one it lists as untrusted or does not list is to fix,
// and a Codex that cannot answer is said to be so, the config checks
// standing alone. (Not parallel: a script written while another test
// starts a process can be busy when it runs.)
func TestCodexAsk(t *testing.T) {
	dir := t.TempDir()
	hooks := []CodexHook{{Event: "PreToolUse", Key: "/h/hooks.json:pre_tool_use:0:0"}}
	fake := func(name, reply string) string {
		p := filepath.Join(dir, name)
		script := "#!/bin/sh\nread a; read b; read c\ncase \"$c\" in *hooks/list*) ;; *) exit 3;; esac\n" +
			"echo '{\"method\":\"configWarning\",\"params\":{}}'\necho '" + reply + "'\n"
		if reply == "" {
			script = "#!/bin/sh\nexit 1\n"
		}
		if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	list := func(status string, enabled bool) string {
		e := "false"
		if enabled {
			e = "true"
		}
		return `{"id":2,"result":{"data":[{"cwd":"/p","hooks":[{"key":"/h/hooks.json:pre_tool_use:0:0","enabled":` + e + `,"trustStatus":"` + status + `"}]}]}}`
	}
	for _, tc := range []struct {
		name, reply string
		ok          bool
		want        string
	}{
		{"trusted", list("trusted", true), true, "itself lists the toolgate PreToolUse hook as trusted"},
		{"modified", list("modified", true), false, "lists the toolgate PreToolUse hook as modified"},
		{"disabled", list("trusted", false), false, "(enabled: false)"},
		{"not listed", `{"id":2,"result":{"data":[{"cwd":"/p","hooks":[]}]}}`, false, "does not list the toolgate PreToolUse hook"},
		{"error", `{"id":2,"error":{"code":-1,"message":"boom"}}`, true, "could not be asked whether it runs the toolgate hook: hooks/list: boom"},
		{"no answer", "", true, "could not be asked"},
	} {
		got := codexAsk(t.Context(), fake(strings.ReplaceAll(tc.name, " ", "_"), tc.reply), "/", hooks)
		if len(got) != 1 || got[0].OK != tc.ok || !strings.Contains(got[0].Say, tc.want) {
			t.Errorf("%s: %+v, want ok %v and %q", tc.name, got, tc.ok, tc.want)
		}
	}
}

// TestCodexPatchInput: an apply_patch that adds or updates one file is
// that file's Write or Edit, its path made absolute from cwd; every other
// patch stays apply_patch (which asks), and so does one with a line of
// "***" the reading does not know, so no file a patch touches goes
// undecided.
func TestCodexPatchInput(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, patch, tool, path string
	}{
		{"add", "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch\n", "Write", "/w/p/a.txt"},
		{"update", "*** Begin Patch\n*** Update File: src/m.go\n@@\n-a\n+b\n*** End of File\n*** End Patch", "Edit", "/w/p/src/m.go"},
		{"absolute", "*** Begin Patch\n*** Add File: /etc/cron.d/x\n+x\n*** End Patch\n", "Write", "/etc/cron.d/x"},
		{"dot-dot", "*** Begin Patch\n*** Add File: ../../.ssh/authorized_keys\n+k\n*** End Patch\n", "Write", "/.ssh/authorized_keys"},
		{"crlf, indented", "*** Begin Patch\r\n  *** Add File: a.txt\r\n+hi\r\n*** End Patch\r\n", "Write", "/w/p/a.txt"},
		{"two files", "*** Begin Patch\n*** Add File: a.txt\n+x\n*** Update File: ../.bashrc\n@@\n+evil\n*** End Patch\n", "", ""},
		{"delete", "*** Begin Patch\n*** Delete File: a.txt\n*** End Patch\n", "", ""},
		{"move", "*** Begin Patch\n*** Update File: a.txt\n*** Move to: ../.bashrc\n@@\n-a\n+b\n*** End Patch\n", "", ""},
		{"header in content", "*** Begin Patch\n*** Add File: a.txt\n+*** Add File: ../.bashrc\n*** End Patch\n", "", ""},
		{"unknown marker", "*** Begin Patch\n***Add File: ../.bashrc\n*** Add File: a.txt\n+x\n*** End Patch\n", "", ""},
		{"no file", "*** Begin Patch\n*** End Patch\n", "", ""},
	} {
		in, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "turn_id": "t", "cwd": "/w/p",
			"tool_name": "apply_patch", "tool_input": map[string]any{"command": tc.patch}})
		out, err := codex{}.Input(in)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got struct {
			TurnID    string         `json:"turn_id"`
			ToolName  string         `json:"tool_name"`
			ToolInput map[string]any `json:"tool_input"`
		}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatal(err)
		}
		if tc.tool == "" {
			if string(out) != string(in) {
				t.Errorf("%s: rewritten to %s, want it left as apply_patch", tc.name, out)
			}
			continue
		}
		if got.ToolName != tc.tool || got.ToolInput["file_path"] != tc.path || got.ToolInput["patch"] != tc.patch || got.TurnID != "t" {
			t.Errorf("%s: %s, want %s of %s", tc.name, out, tc.tool, tc.path)
		}
		if c, _ := got.ToolInput["content"].(string); tc.tool == "Write" && (c == "" || !strings.Contains(tc.patch, "+"+c)) {
			t.Errorf("%s: content %q, not the patch's added lines", tc.name, c)
		}
	}
	// Not a patch of Codex's PreToolUse: left alone.
	for _, in := range []string{
		`{"hook_event_name":"PermissionRequest","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Add File: a\n+x\n*** End Patch"}}`,
		`{"hook_event_name":"PreToolUse","cwd":"rel","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Add File: a\n+x\n*** End Patch"}}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"apply_patch"}}`,
	} {
		if out, _ := (codex{}).Input([]byte(in)); string(out) != in {
			t.Errorf("%s: rewritten to %s", in, out)
		}
	}
}
