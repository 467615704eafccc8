package hosts

import (
	"encoding/json"
	"fmt"

	"github.com/toolgate/toolgate/integrations/claudecode"
)

// GitHub Copilot CLI's hook events (docs.github.com, Copilot CLI hooks
// reference): files $COPILOT_HOME/hooks/*.json (~/.copilot/hooks) and
// the repository's .github/hooks/*.json, which Copilot CLI loads only in
// a folder the user trusts (trusted_folders in its config.json) and
// skips without a word elsewhere, {"version": 1, "hooks":
// {"preToolUse": [{"type": "command", "bash": CMD, "timeoutSec": N}]}}.
// preToolUse's input is {"timestamp", "cwd", "toolName", "toolArgs"} (the
// arguments as a string of JSON) and its answer {"permissionDecision":
// "allow"|"deny"|"ask", "permissionDecisionReason": …}.
// userPromptSubmitted's input carries the prompt.
const (
	copilotPreToolUse = "preToolUse"
	copilotPrompt     = "userPromptSubmitted"
)

// copilot adapts GitHub Copilot CLI's hooks. Its inputs name no event: a
// toolName is a preToolUse, a prompt a userPromptSubmitted. Its tools
// (bash, view, create, edit, …) map to Claude Code's by copilotTools.
type copilot struct{}

type copilotInput struct {
	SessionID     string          `json:"sessionId"`
	HookEventName string          `json:"hook_event_name"`
	Cwd           string          `json:"cwd"`
	ToolName      string          `json:"toolName"`
	ToolArgs      json.RawMessage `json:"toolArgs"`
	Prompt        *string         `json:"prompt"`
}

// Input implements Adapter.
func (copilot) Input(data []byte) ([]byte, error) {
	var in copilotInput
	if err := decodeInput("Copilot CLI", data, &in); err != nil {
		return nil, err
	}
	out := claudecode.Input{SessionID: in.SessionID, Cwd: in.Cwd, HookEventName: in.HookEventName}
	switch {
	case in.ToolName != "" && (in.HookEventName == "" || in.HookEventName == copilotPreToolUse):
		args, err := argsObject(in.ToolArgs)
		if err != nil {
			return nil, err
		}
		out.HookEventName = claudecode.EventPreToolUse
		if out.ToolName, out.ToolInput, err = mapTool(copilotTools[:], in.ToolName, args); err != nil {
			return nil, fmt.Errorf("bad Copilot CLI hook input: %w", err)
		}
	case in.Prompt != nil && in.ToolName == "" && (in.HookEventName == "" || in.HookEventName == copilotPrompt):
		out.HookEventName = claudecode.EventUserPromptSubmit
	default:
		// An input toolgate does not know: it blocks if it carries a call.
		out.ToolName = in.ToolName
		out.HookEventName = foreignEvent("Copilot CLI", in.HookEventName)
		if out.HookEventName == "" {
			out.HookEventName = "unknown"
		}
	}
	return json.Marshal(&out)
}

type copilotOutput struct {
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
}

// Answer implements Adapter.
func (copilot) Answer(ans *claudecode.Answer) ([]byte, string, int) {
	perm, reason, updated, ok := decision(ans)
	if !ok {
		return nil, ans.Stderr, ans.Exit
	}
	if perm == "allow" && updated != nil {
		perm, reason = "deny", reason+" (approved with changes, which toolgate cannot apply to a Copilot CLI call: run the changed call instead)"
	}
	out := copilotOutput{PermissionDecision: perm}
	if perm != "allow" {
		out.PermissionDecisionReason = reason
	}
	return encodeAnswer(&out)
}
