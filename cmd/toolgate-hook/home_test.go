package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/stacktest"
	"github.com/toolgate/toolgate/policy"
)

// TestGatewayHome: through a gateway whose home is another directory, "~"
// in a call means the agent's home, which the hook sends with the call.
// A rule on the agent's own file applies to "~/…"; the gateway's own
// "~" protections still cover its home by absolute path; a home the
// agent makes up dodges neither.
func TestGatewayHome(t *testing.T) {
	bin := sharedHookBin(t)
	root := t.TempDir()
	gwHome, agentHome := filepath.Join(root, "gw"), filepath.Join(root, "alice")
	src := policy.Source{File: "test-rules"}
	gw := stacktest.New(t,
		stacktest.PolicyOptions(policy.WithHome(gwHome)),
		stacktest.Configs(&policy.Document{Path: "test-rules", Rules: []policy.Rule{
			{Tool: "Read", Pattern: agentHome + "/payroll/**", Action: toolgate.Deny, Reason: "alice's payroll", Source: src},
			{Tool: "Read", Pattern: "~/private/**", Action: toolgate.Deny, Reason: "a private file", Source: src},
		}}))
	for _, tc := range []struct {
		name, home, command, want, reason string
	}{
		{"rule on the agent's file", agentHome, "cat ~/payroll/2026.csv", "deny", "alice's payroll"},
		{"the gateway's ~ rule on the agent's home", agentHome, "cat ~/private/plan.txt", "deny", "a private file"},
		{"the gateway's home by its path", agentHome, "cat " + gwHome + "/private/plan.txt", "deny", "a private file"},
		{"a made-up home", "/nonexistent", "cat " + gwHome + "/private/plan.txt", "deny", "a private file"},
		{"made-up home, ~", "/nonexistent", "cat ~/private/plan.txt", "deny", "a private file"},
		// benign twins
		{"the agent's other file", agentHome, "cat ~/public/readme.txt", "allow", ""},
		{"alice's payroll file name under the gateway's home", agentHome, "cat " + gwHome + "/payroll/2026.csv", "allow", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			input, _ := json.Marshal(map[string]any{
				"session_id": "s-home", "cwd": filepath.Join(root, "proj"), "hook_event_name": "PreToolUse",
				"tool_name": "Bash", "tool_input": map[string]any{"command": tc.command}, "tool_use_id": "t-" + tc.name,
			})
			cmd := exec.Command(bin, "claude-code", "--server", gw.Server.URL, "--timeout", "20s")
			cmd.Env = append(os.Environ(), "HOME="+tc.home, "XDG_CONFIG_HOME="+filepath.Join(root, "cfg"),
				"TOOLGATE_URL=", "TOOLGATE_TOKEN="+gw.Agent, "TOOLGATE_WORKSPACE=", "CLAUDE_PROJECT_DIR=")
			cmd.Stdin = bytes.NewReader(input)
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Run(); err != nil {
				t.Fatalf("hook: %v\n%s%s", err, out.String(), errb.String())
			}
			var ans struct {
				Out struct {
					Decision string `json:"permissionDecision"`
					Reason   string `json:"permissionDecisionReason"`
				} `json:"hookSpecificOutput"`
			}
			if err := json.Unmarshal(out.Bytes(), &ans); err != nil {
				t.Fatalf("answer %q: %v", out.String(), err)
			}
			if ans.Out.Decision != tc.want || !strings.Contains(ans.Out.Reason, tc.reason) {
				t.Errorf("%s with HOME=%s: %s (%s), want %s naming %q", tc.command, tc.home, ans.Out.Decision, ans.Out.Reason, tc.want, tc.reason)
			}
		})
	}
}
