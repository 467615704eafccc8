package policy

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
)

// hostRules prints rules as "TOOL(PATTERN)=ACTION" for comparison.
func hostRules(rules []Rule) string {
	var b []string
	for _, r := range rules {
		b = append(b, fmt.Sprintf("%s(%s)=%s", r.Tool, r.Pattern, r.Action))
	}
	return strings.Join(b, " ")
}

func TestParseGeminiSettings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src, want, err string
	}{
		{"exclude and allowed", `{"tools": {"exclude": ["run_shell_command(rm -rf)", "write_file"], "allowed": ["run_shell_command(git status)", "ShellTool(npm test)"]}}`,
			"run_shell_command(rm -rf *)=deny write_file(*)=deny run_shell_command(git status *)=allow run_shell_command(npm test *)=allow", ""},
		{"old format", `{"excludeTools": ["run_shell_command"], "allowedTools": ["read_file"]}`, "run_shell_command(*)=deny read_file(*)=allow", ""},
		{"glob characters are words", `{"tools": {"exclude": ["run_shell_command(rm *)"]}}`, `run_shell_command(rm \* *)=deny`, ""},
		{"nothing to layer", `{"tools": {"core": ["run_shell_command(git)"]}, "ui": {"theme": "x"}}`, "", ""},
		{"comments", "{\n// a comment\n\"tools\": {\"exclude\": [\"glob\"]}}", "glob(*)=deny", ""},
		{"argument of another tool", `{"tools": {"exclude": ["read_file(/etc)"]}}`, "", "want a tool name or run_shell_command(COMMAND)"},
		{"unclosed", `{"tools": {"exclude": ["run_shell_command(rm"]}}`, "", "want a tool name"},
		{"not a list", `{"tools": {"exclude": "rm"}}`, "", "want a list"},
		{"not an object", `[]`, "", "want a Gemini CLI settings object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, err := ParseGeminiSettings("settings.json", []byte(tc.src))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := hostRules(d.Rules); got != tc.want {
				t.Errorf("rules %s, want %s", got, tc.want)
			}
		})
	}
}

func TestParseOpencodeConfig(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src, want, err string
	}{
		{"per tool and pattern", `{"permission": {"bash": {"*": "ask", "git *": "allow", "rm *": "deny"}, "edit": "deny", "webfetch": "ask"}}`,
			"Bash(*)=ask Bash(git *)=allow Bash(rm *)=deny Edit(*)=deny Write(*)=deny WebFetch(*)=ask", ""},
		{"every tool", `{"permission": "ask"}`, "*(*)=ask", ""},
		{"catch-all key", `{"permission": {"*": "deny", "read": {"src/*": "allow"}}}`, "*(*)=deny Read(src/*)=allow", ""},
		{"permissions that gate no call", `{"permission": {"external_directory": {"~/x/**": "allow"}, "doom_loop": "ask"}, "model": "m"}`, "", ""},
		{"no permission", `{"$schema": "https://opencode.ai/config.json"}`, "", ""},
		{"bad action", `{"permission": {"bash": "maybe"}}`, "", `"maybe" (want allow, ask or deny)`},
		{"bad pattern action", `{"permission": {"bash": {"ls": 1}}}`, "", "want a string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, err := ParseOpencodeConfig("opencode.json", []byte(tc.src))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := hostRules(d.Rules); got != tc.want {
				t.Errorf("rules %s, want %s", got, tc.want)
			}
			for _, r := range d.Rules {
				if r.Action == toolgate.NoAction || r.Source.File != "opencode.json" || r.Source.Line == 0 {
					t.Errorf("rule %+v: want an action and a source line", r)
				}
			}
		})
	}
}
