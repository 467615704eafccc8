package claudecode_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/integrations/claudecode"
)

// existing is a settings file with other keys and hooks, as a user has it.
const existing = `{
  "model": "opus",
  "permissions": {
    "allow": ["Bash(npm run lint)", "Read(~/.zshrc)"],
    "deny": ["Read(./.env)"]
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [{"type": "command", "command": "~/.claude/hooks/log-bash.sh"}]
      }
    ],
    "PostToolUse": [
      {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "prettier --write", "timeout": 30}]}
    ]
  },
  "env": {"BASH_DEFAULT_TIMEOUT_MS": 300000, "RATIO": 1.50},
  "includeCoAuthoredBy": false
}`

func TestMergeSettings(t *testing.T) {
	entry := claudecode.HookEntry{Command: "/usr/local/bin/toolgate hook claude-code", Timeout: 40}
	out, changed, err := claudecode.MergeSettings([]byte(existing), entry)
	if err != nil || !changed {
		t.Fatalf("changed %v, err %v", changed, err)
	}
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("result is not JSON: %v\n%s", err, out)
	}
	// Everything that was there is still there, in its order.
	var before map[string]any
	_ = json.Unmarshal([]byte(existing), &before)
	for _, k := range []string{"model", "permissions", "env", "includeCoAuthoredBy"} {
		if b, _ := json.Marshal(before[k]); string(b) != mustJSON(got[k]) {
			t.Errorf("%s changed: %s", k, mustJSON(got[k]))
		}
	}
	if !strings.Contains(string(out), `"RATIO": 1.50`) {
		t.Errorf("number not kept as written:\n%s", out)
	}
	order := []string{`"model"`, `"permissions"`, `"hooks"`, `"env"`, `"includeCoAuthoredBy"`}
	for i := 1; i < len(order); i++ {
		if strings.Index(string(out), order[i-1]) > strings.Index(string(out), order[i]) {
			t.Errorf("key order changed:\n%s", out)
		}
	}
	hooks := got["hooks"].(map[string]any)
	pre := hooks["PreToolUse"].([]any)
	if len(pre) != 2 || mustJSON(pre[0]) != `{"hooks":[{"command":"~/.claude/hooks/log-bash.sh","type":"command"}],"matcher":"Bash"}` {
		t.Fatalf("PreToolUse: %s", mustJSON(pre))
	}
	if mustJSON(pre[1]) != `{"hooks":[{"command":"/usr/local/bin/toolgate hook claude-code","timeout":40,"type":"command"}],"matcher":"*"}` {
		t.Errorf("toolgate entry: %s", mustJSON(pre[1]))
	}
	if mustJSON(hooks["PostToolUse"]) != `[{"hooks":[{"command":"prettier --write","timeout":30,"type":"command"}],"matcher":"Write|Edit"}]` {
		t.Errorf("PostToolUse: %s", mustJSON(hooks["PostToolUse"]))
	}

	// Idempotent: the same install again changes nothing.
	again, changed, err := claudecode.MergeSettings(out, entry)
	if err != nil || changed || string(again) != string(out) {
		t.Errorf("second install: changed %v, err %v\n%s", changed, err, again)
	}

	// New flags update toolgate's entry in place instead of adding one.
	entry.Command = "toolgate hook claude-code --server http://127.0.0.1:8787 --on-ask wait"
	entry.Timeout = 160
	upd, changed, err := claudecode.MergeSettings(out, entry)
	if err != nil || !changed {
		t.Fatalf("update: changed %v, err %v", changed, err)
	}
	_ = json.Unmarshal(upd, &got)
	pre = got["hooks"].(map[string]any)["PreToolUse"].([]any)
	if len(pre) != 2 || !strings.Contains(mustJSON(pre[1]), "--on-ask wait") || !strings.Contains(mustJSON(pre[1]), `"timeout":160`) {
		t.Errorf("update: %s", mustJSON(pre))
	}

	// The PermissionRequest event goes under its own key.
	pr, _, err := claudecode.MergeSettings(nil, claudecode.HookEntry{Event: "PermissionRequest", Command: "toolgate hook claude-code"})
	if err != nil || !strings.Contains(string(pr), `"PermissionRequest": [`) {
		t.Errorf("PermissionRequest: %v\n%s", err, pr)
	}
}

// TestMergeSettingsPrompt: the UserPromptSubmit entry has no matcher, sits
// next to the user's own prompt hooks, and is updated in place.
func TestMergeSettingsPrompt(t *testing.T) {
	src := `{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "~/bin/add-branch-context"}]}]}}`
	entry := claudecode.HookEntry{Event: "UserPromptSubmit", Matcher: "Bash", Command: "toolgate hook claude-code", Timeout: 40}
	out, changed, err := claudecode.MergeSettings([]byte(src), entry)
	if err != nil || !changed {
		t.Fatalf("changed %v, err %v", changed, err)
	}
	var got struct{ Hooks map[string][]any }
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	ups := got.Hooks["UserPromptSubmit"]
	if len(ups) != 2 || mustJSON(ups[0]) != `{"hooks":[{"command":"~/bin/add-branch-context","type":"command"}]}` ||
		mustJSON(ups[1]) != `{"hooks":[{"command":"toolgate hook claude-code","timeout":40,"type":"command"}]}` {
		t.Fatalf("UserPromptSubmit: %s", mustJSON(ups))
	}
	if again, changed, err := claudecode.MergeSettings(out, entry); err != nil || changed || string(again) != string(out) {
		t.Errorf("second install: changed %v, err %v\n%s", changed, err, again)
	}
	// A matcher the user gave toolgate's prompt group is left alone.
	withMatcher := strings.Replace(string(out), `"command": "toolgate hook claude-code"`, `"command": "toolgate hook claude-code --server http://gw"`, 1)
	withMatcher = strings.Replace(withMatcher, `{
        "hooks": [
          {
            "type": "command",
            "command": "toolgate hook claude-code --server`, `{
        "matcher": "",
        "hooks": [
          {
            "type": "command",
            "command": "toolgate hook claude-code --server`, 1)
	upd, changed, err := claudecode.MergeSettings([]byte(withMatcher), entry)
	if err != nil || !changed {
		t.Fatalf("update: changed %v, err %v", changed, err)
	}
	_ = json.Unmarshal(upd, &got)
	if ups := got.Hooks["UserPromptSubmit"]; len(ups) != 2 || mustJSON(ups[1]) != `{"hooks":[{"command":"toolgate hook claude-code","timeout":40,"type":"command"}],"matcher":""}` {
		t.Errorf("update: %s\n%s", mustJSON(ups), withMatcher)
	}
}

func TestMergeSettingsEmptyAndBad(t *testing.T) {
	entry := claudecode.HookEntry{Command: "toolgate hook claude-code", Timeout: 40}
	for _, src := range []string{"", "  \n", "{}"} {
		out, changed, err := claudecode.MergeSettings([]byte(src), entry)
		if err != nil || !changed {
			t.Fatalf("%q: %v", src, err)
		}
		want := "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"*\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"toolgate hook claude-code\",\n            \"timeout\": 40\n          }\n        ]\n      }\n    ]\n  }\n}\n"
		if string(out) != want {
			t.Errorf("%q:\n%s", src, out)
		}
	}
	for _, src := range []string{`{"hooks": [`, `[1]`, `{"hooks": []}`, `{"hooks": {"PreToolUse": {}}}`, `{} {}`, `{"a": 1, // comment
}`} {
		if _, _, err := claudecode.MergeSettings([]byte(src), entry); err == nil {
			t.Errorf("%q: no error", src)
		}
	}
	if _, _, err := claudecode.MergeSettings(nil, claudecode.HookEntry{Event: "PostToolUse", Command: "x"}); err == nil {
		t.Errorf("PostToolUse accepted")
	}
}

func TestIsToolgateCommand(t *testing.T) {
	for cmd, want := range map[string]bool{
		"toolgate hook claude-code":                                true,
		"/usr/local/bin/toolgate hook claude-code --on-ask wait":   true,
		"'/Users/me/my tools/toolgate' hook codex":                 true,
		"toolgate hook claude-codex":                               false,
		"/opt/toolgate-1.2/bin/toolgate hook claude-code --server": true,
		"toolgate check":              false,
		"~/.claude/hooks/log-bash.sh": false,
		"python3 hook claude-code":    false,
		"/usr/local/bin/toolgate-hook claude-code --rules /r.yaml": true,
		"'/my tools/toolgate-hook' codex":                          true,
		"toolgate-hook claude-codex":                               false,
		"toolgate claude-code":                                     false,
		"python3 claude-code":                                      false,
	} {
		if got := claudecode.IsToolgateCommand(cmd); got != want {
			t.Errorf("%q: %v, want %v", cmd, got, want)
		}
	}
}

func TestWriteSettings(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "claude.json")
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(real, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if err := claudecode.WriteSettings(link, []byte("{\"a\": 1}\n")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("symlink replaced: %v", err)
	}
	data, _ := os.ReadFile(real)
	st, _ := os.Stat(real)
	if string(data) != "{\"a\": 1}\n" || st.Mode().Perm() != 0o600 {
		t.Errorf("target: %q %v", data, st.Mode())
	}
	// A new file in a new directory.
	p := filepath.Join(dir, "proj", ".claude", "settings.local.json")
	if err := claudecode.WriteSettings(p, []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	if src, err := claudecode.ReadSettings(filepath.Join(dir, "missing.json")); err != nil || src != nil {
		t.Errorf("missing file: %q %v", src, err)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
