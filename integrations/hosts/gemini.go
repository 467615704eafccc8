package hosts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/toolgate/toolgate/integrations/claudecode"
)

// Gemini CLI's hook events (geminicli.com/docs/hooks/reference).
const (
	// geminiBeforeTool fires before a tool runs: tool_name, tool_input,
	// mcp_context. Answer: {"decision": "allow"|"deny"|"ask", "reason":
	// …, "hookSpecificOutput": {"tool_input": {…}}}; the reason of a deny
	// goes to the model as the tool's error. Exit 2 blocks the call with
	// stderr as the reason; any other non-zero exit is only a warning and
	// the call runs, so the hook never uses one for BeforeTool.
	geminiBeforeTool = "BeforeTool"
	// geminiBeforeAgent fires when the user sends a prompt (prompt); it
	// ends the session's turn at a gateway, as UserPromptSubmit does.
	geminiBeforeAgent = "BeforeAgent"
)

// gemini adapts Gemini CLI's hooks. Its tool names (run_shell_command,
// read_file, write_file, replace, glob, grep_search, list_directory,
// web_fetch, google_web_search, read_many_files) and their argument names
// (command, file_path, dir_path, …) are in the policy's tool table as
// they are, so a call keeps them; MCP tools, which Gemini CLI names
// mcp_SERVER_TOOL, become mcp__SERVER__TOOL with the server taken from
// mcp_context, and a shell command's dir_path becomes its cwd.
type gemini struct{}

// geminiInput is the part of Gemini CLI's hook input the adapter reads.
type geminiInput struct {
	SessionID      string         `json:"session_id"`
	TranscriptPath string         `json:"transcript_path"`
	Cwd            string         `json:"cwd"`
	HookEventName  string         `json:"hook_event_name"`
	ToolName       string         `json:"tool_name"`
	ToolInput      map[string]any `json:"tool_input"`
	Prompt         string         `json:"prompt"`
	MCPContext     *struct {
		ServerName string `json:"server_name"`
		ToolName   string `json:"tool_name"`
	} `json:"mcp_context"`
}

// Input implements Adapter.
func (gemini) Input(data []byte) ([]byte, error) {
	var in geminiInput
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&in); err != nil {
		return nil, fmt.Errorf("bad Gemini CLI hook input: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	if dec.More() {
		return nil, errors.New("bad Gemini CLI hook input: more than one JSON value")
	}
	out := claudecode.Input{
		SessionID: in.SessionID, TranscriptPath: in.TranscriptPath, Cwd: in.Cwd,
		HookEventName: in.HookEventName, ToolName: in.ToolName, ToolInput: in.ToolInput,
	}
	switch in.HookEventName {
	case geminiBeforeTool:
		out.HookEventName = claudecode.EventPreToolUse
	case geminiBeforeAgent:
		if in.ToolName != "" {
			// A prompt event carrying a tool call is no prompt: it is
			// left unknown, which blocks, rather than let through.
			break
		}
		out.HookEventName = claudecode.EventUserPromptSubmit
		// The prompt is not used, and not sent on.
	default:
		out.HookEventName = foreignEvent("Gemini CLI", in.HookEventName)
	}
	if c := in.MCPContext; c != nil && c.ServerName != "" {
		tool := c.ToolName
		if tool == "" {
			tool = strings.TrimPrefix(in.ToolName, "mcp_"+c.ServerName+"_")
		}
		out.ToolName = "mcp__" + c.ServerName + "__" + tool
	}
	if d, _ := in.ToolInput["dir_path"].(string); d != "" && in.ToolName == "run_shell_command" {
		// The command runs in dir_path, relative to the project.
		if !filepath.IsAbs(d) {
			d = filepath.Join(in.Cwd, d)
		}
		out.Cwd = d
	}
	return json.Marshal(&out)
}

// geminiOutput is Gemini CLI's hook answer.
type geminiOutput struct {
	Decision           string         `json:"decision"`
	Reason             string         `json:"reason,omitempty"`
	SystemMessage      string         `json:"systemMessage,omitempty"`
	HookSpecificOutput map[string]any `json:"hookSpecificOutput,omitempty"`
}

// Answer implements Adapter.
func (gemini) Answer(ans *claudecode.Answer) ([]byte, string, int) {
	if ans.Output == nil || ans.Output.HookSpecificOutput == nil {
		return nil, ans.Stderr, ans.Exit
	}
	h := ans.Output.HookSpecificOutput
	out := geminiOutput{Decision: h.PermissionDecision, Reason: h.PermissionDecisionReason}
	switch h.PermissionDecision {
	case "allow":
		if h.UpdatedInput != nil {
			out.HookSpecificOutput = map[string]any{"tool_input": h.UpdatedInput}
		}
	case "ask":
		// Gemini CLI shows its confirmation; the reason goes beside it.
		out.SystemMessage = h.PermissionDecisionReason
	default:
		out.Decision = "deny"
	}
	return encodeAnswer(&out)
}
