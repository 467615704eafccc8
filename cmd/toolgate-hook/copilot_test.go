package main

import (
	"path/filepath"
	"testing"
	"time"
)

// TestCopilotCLI drives the real GitHub Copilot CLI (@github/copilot, the
// copilot program named by $TOOLGATE_TEST_COPILOT) in prompt mode, with
// the hook "toolgate hook install copilot" writes into
// $COPILOT_HOME/hooks, against a stand-in of an OpenAI-compatible chat
// completions API as its own model provider (COPILOT_PROVIDER_BASE_URL:
// no GitHub account is used, and COPILOT_OFFLINE keeps it off the
// network).
func TestCopilotCLI(t *testing.T) {
	testRealAgent(t, realAgent{
		host:  "copilot",
		env:   "TOOLGATE_TEST_COPILOT",
		model: chatStub,
		settings: func(t *testing.T, home, hook string) []string {
			// install reads $COPILOT_HOME, as Copilot CLI does; TestMain
			// unsets it, so install writes under home/.copilot, which
			// Copilot CLI is told.
			installHook(t, "copilot", home, hook, 90*time.Second, 10*time.Second)
			return []string{"COPILOT_HOME=" + filepath.Join(home, ".copilot")}
		},
		// Every call goes to the hook, not Copilot CLI's own approvals.
		args: []string{"-p", "do the task", "--allow-all-tools"},
		environ: func(model string) []string {
			return []string{"COPILOT_OFFLINE=true", "COPILOT_PROVIDER_TYPE=openai", "COPILOT_PROVIDER_BASE_URL=" + model + "/v1",
				"COPILOT_PROVIDER_API_KEY=test", "COPILOT_MODEL=m"}
		},
		blocked: "FINAL Denied by preToolUse hook: toolgate: ",
	})
}
