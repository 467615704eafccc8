package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHookHostPermissions: deciding locally, Gemini CLI's settings and
// opencode's config are a layer of the rules, as Claude Code's are: the
// user's allow, ask and deny entries count; a project's deny entries
// count, its allow entries do not (a cloned repository must not
// pre-approve its own commands); --agent-permissions=false leaves them
// out.
func TestHookHostPermissions(t *testing.T) {
	home, project := installEnv(t)
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	t.Setenv("GEMINI_CLI_SYSTEM_DEFAULTS_PATH", filepath.Join(home, "none.json"))
	t.Setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", filepath.Join(home, "none.json"))
	t.Setenv("OPENCODE_CONFIG", "")
	for path, text := range map[string]string{
		filepath.Join(home, ".gemini", "settings.json"):             `{"tools": {"exclude": ["run_shell_command(git push)"], "allowed": ["run_shell_command(make test)"]}}`,
		filepath.Join(project, ".gemini", "settings.json"):          `{"tools": {"exclude": ["run_shell_command(npm publish)"], "allowed": ["run_shell_command(make deploy)"]}}`,
		filepath.Join(home, ".config", "opencode", "opencode.json"): `{"permission": {"bash": {"git push *": "deny", "make test": "allow"}}}`,
		filepath.Join(project, "opencode.json"):                     `{"permission": {"bash": {"npm publish *": "deny", "make deploy": "allow"}}}`,
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	input := func(host, command string) []byte {
		var v any
		switch host {
		case "gemini":
			v = map[string]any{"hook_event_name": "BeforeTool", "session_id": "s", "cwd": project,
				"tool_name": "run_shell_command", "tool_input": map[string]any{"command": command}}
		case "opencode":
			v = map[string]any{"hook_event_name": "tool.execute.before", "session_id": "s", "tool_use_id": "c", "cwd": project,
				"tool_name": "bash", "tool_input": map[string]any{"command": command}}
		}
		data, _ := json.Marshal(v)
		return data
	}
	for _, host := range []string{"gemini", "opencode"} {
		for _, tc := range []struct {
			command, want string
			flags         []string
		}{
			// attacker: the user's and the project's deny entries deny; a
			// project's allow entry allows nothing
			{"git push origin main", `"deny"`, nil},
			{"npm publish --access public", `"deny"`, nil},
			{"make deploy", `"ask"`, nil},
			// benign twins: the user's allow entry allows; what no entry
			// names is decided by the rules alone
			{"make test", `"allow"`, nil},
			{"git status", `"allow"`, nil},
			{"npm test", `"ask"`, nil},
			// without the layer
			{"git push origin main", `"ask"`, []string{"--agent-permissions=false"}},
			{"make test", `"ask"`, []string{"--agent-permissions=false"}},
		} {
			code, stdout, stderr := hookExit(t, append([]string{host}, tc.flags...), input(host, tc.command))
			want := tc.want
			if host == "opencode" && want == `"ask"` {
				want = `"deny"` // opencode's plugin cannot ask: an ask is a deny that says so
				if !strings.Contains(stdout, "needs a human's approval") {
					t.Errorf("%s %q %v: %s, want an ask (a deny that says a human must approve)", host, tc.command, tc.flags, stdout)
				}
			}
			if code != 0 || !strings.Contains(stdout, `"decision":`+want) {
				t.Errorf("%s %q %v: exit %d, %s%s; want decision %s", host, tc.command, tc.flags, code, stdout, stderr, tc.want)
			}
		}
	}
	// Through a gateway (down here, so a call that reached it would say
	// so) their deny entries deny first, naming the file; the twin goes
	// to the gateway.
	for host, file := range map[string]string{"gemini": filepath.Join(home, ".gemini", "settings.json"), "opencode": filepath.Join(project, "opencode.json")} {
		command := map[string]string{"gemini": "git push origin main", "opencode": "npm publish"}[host]
		code, stdout, stderr := hookExit(t, []string{host, "--server", "http://127.0.0.1:1", "--timeout", "3s"}, input(host, command))
		if code != 0 || !strings.Contains(stdout, `"decision":"deny"`) || !strings.Contains(stdout, file) || strings.Contains(stdout, "unreachable") {
			t.Errorf("%s through a gateway, %q: exit %d, %s%s; want a deny naming %s", host, command, code, stdout, stderr, file)
		}
		code, stdout, stderr = hookExit(t, []string{host, "--server", "http://127.0.0.1:1", "--timeout", "3s"}, input(host, "git status"))
		if code != 0 || !strings.Contains(stdout, "unreachable") {
			t.Errorf("%s through a gateway, the twin: exit %d, %s%s; want it sent to the gateway", host, code, stdout, stderr)
		}
	}
	// A settings file that cannot be read is no allow.
	if err := os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), []byte(`{"tools": {"exclude": ["read_file(/etc)"]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := hookExit(t, []string{"gemini"}, input("gemini", "git status")); code != 0 || !strings.Contains(stdout, `"decision":"deny"`) || !strings.Contains(stdout, "Gemini CLI settings") {
		t.Errorf("broken settings: exit %d, %s%s; want a deny naming the file", code, stdout, stderr)
	}
}
