package hosts

import (
	"strings"
	"testing"
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
		hooks, err := codexHooks(file, []byte(tc.src))
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
