package hosts

import (
	"encoding/json"
	"path/filepath"

	"github.com/toolgate/toolgate/integrations/claudecode"
)

// Cursor's hook events (cursor.com/docs/agent/hooks). The three before-
// events gate a call and answer {"permission": "allow"|"deny"|"ask",
// "user_message": …, "agent_message": …}; beforeReadFile reads only the
// permission. beforeSubmitPrompt answers {"continue": true}.
const (
	cursorShell  = "beforeShellExecution"
	cursorRead   = "beforeReadFile"
	cursorMCP    = "beforeMCPExecution"
	cursorPrompt = "beforeSubmitPrompt"
)

// cursor adapts Cursor's hooks: a shell command becomes a Bash call, a
// file read a Read call (the file's content, which Cursor sends too, is
// not sent on), an MCP call mcp__cursor__TOOL (Cursor does not name the
// server), and conversation_id is the session.
type cursor struct{}

type cursorInput struct {
	HookEventName  string          `json:"hook_event_name"`
	ConversationID string          `json:"conversation_id"`
	GenerationID   string          `json:"generation_id"`
	WorkspaceRoots []string        `json:"workspace_roots"`
	Command        string          `json:"command"`
	Cwd            string          `json:"cwd"`
	FilePath       string          `json:"file_path"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
}

// Input implements Adapter.
func (cursor) Input(data []byte) ([]byte, error) {
	var in cursorInput
	if err := decodeInput("Cursor", data, &in); err != nil {
		return nil, err
	}
	out := claudecode.Input{SessionID: in.ConversationID, Cwd: in.Cwd, HookEventName: in.HookEventName}
	if out.Cwd == "" && len(in.WorkspaceRoots) > 0 {
		out.Cwd = in.WorkspaceRoots[0]
	}
	switch in.HookEventName {
	case cursorShell:
		out.HookEventName, out.ToolName = claudecode.EventPreToolUse, "Bash"
		out.ToolInput = map[string]any{"command": in.Command}
	case cursorRead:
		p := in.FilePath
		if p != "" && !filepath.IsAbs(p) && out.Cwd != "" {
			p = filepath.Join(out.Cwd, p)
		}
		out.HookEventName, out.ToolName = claudecode.EventPreToolUse, "Read"
		out.ToolInput = map[string]any{"file_path": p}
	case cursorMCP:
		args, err := argsObject(in.ToolInput)
		if err != nil {
			return nil, err
		}
		out.HookEventName, out.ToolName, out.ToolInput = claudecode.EventPreToolUse, mcpName("cursor", in.ToolName), args
	case cursorPrompt:
		if in.Command == "" && in.FilePath == "" && in.ToolName == "" {
			out.HookEventName = claudecode.EventUserPromptSubmit
			break
		}
		// A prompt event carrying a tool call is no prompt: it is left
		// unknown, which blocks, rather than let through.
		fallthrough
	default:
		// An event toolgate does not know: it blocks if it carries a call.
		out.HookEventName = foreignEvent("Cursor", in.HookEventName)
		out.ToolName = in.ToolName
		if in.Command != "" || in.FilePath != "" {
			out.ToolName = in.HookEventName
		}
	}
	return json.Marshal(&out)
}

type cursorOutput struct {
	Permission   string `json:"permission"`
	UserMessage  string `json:"user_message,omitempty"`
	AgentMessage string `json:"agent_message,omitempty"`
	// The camel-case names of Cursor's first hooks release.
	UserMessageV1  string `json:"userMessage,omitempty"`
	AgentMessageV1 string `json:"agentMessage,omitempty"`
}

// Answer implements Adapter.
func (cursor) Answer(ans *claudecode.Answer) ([]byte, string, int) {
	if ans.Event == claudecode.EventUserPromptSubmit && ans.Exit == claudecode.ExitOK {
		b, msg, code := encodeAnswer(map[string]bool{"continue": true})
		if ans.Stderr != "" {
			msg = ans.Stderr
		}
		return b, msg, code
	}
	perm, reason, updated, ok := decision(ans)
	if !ok {
		return nil, ans.Stderr, ans.Exit
	}
	if perm == "allow" && updated != nil {
		// Cursor's hooks cannot change a call: the human approved the
		// changed call, not this one.
		perm, reason = "deny", reason+" (approved with changes, which Cursor cannot apply to the call: run the changed call instead)"
	}
	out := cursorOutput{Permission: perm}
	if perm != "allow" {
		out.UserMessage, out.AgentMessage = reason, reason
		out.UserMessageV1, out.AgentMessageV1 = reason, reason
	}
	return encodeAnswer(&out)
}
