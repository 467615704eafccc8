package claudecode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/toolgate/toolgate"
)

// Hook events the hook answers.
const (
	EventPreToolUse        = "PreToolUse"
	EventPermissionRequest = "PermissionRequest"
	// EventUserPromptSubmit fires when the user sends a prompt, before the
	// model sees it: the user spoke again, so with a gateway the hook ends
	// the session's turn. It gates no tool call, and the hook never blocks
	// the prompt.
	EventUserPromptSubmit = "UserPromptSubmit"
)

// MaxInputBytes bounds one hook input. A Write call carries the whole file
// it writes, so the bound is generous; a larger input is denied.
const MaxInputBytes = 16 << 20

// Input is the JSON a hook receives: on stdin for command hooks, as the
// POST body for HTTP hooks.
type Input struct {
	SessionID string `json:"session_id"`
	// TranscriptPath is null in some Codex inputs; null decodes as "".
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	// PermissionMode is Claude Code's mode (default, plan, acceptEdits,
	// dontAsk, bypassPermissions). The mode comes from toolgate's config
	// or the gateway's session; plan only makes the answer stricter (an
	// allow of a call that is not read-tier asks).
	PermissionMode string         `json:"permission_mode"`
	HookEventName  string         `json:"hook_event_name"`
	ToolName       string         `json:"tool_name"`
	ToolInput      map[string]any `json:"tool_input"`
	ToolUseID      string         `json:"tool_use_id"`
	// AgentID is set when the call comes from a subagent; AgentType names
	// the subagent (or the --agent of the main thread).
	AgentID   string `json:"agent_id,omitempty"`
	AgentType string `json:"agent_type,omitempty"`
	// TurnID and Model are sent by Codex only.
	TurnID string `json:"turn_id,omitempty"`
	Model  string `json:"model,omitempty"`
	// PermissionSuggestions come with PermissionRequest; kept as sent.
	PermissionSuggestions json.RawMessage `json:"permission_suggestions,omitempty"`
	// Prompt is the user's message, with UserPromptSubmit. It is not used
	// (and never sent to the gateway): the event itself is the signal.
	Prompt string `json:"prompt,omitempty"`
}

// InputError is a hook input that cannot be read. Event is the event name
// if it could be read, so the answer can still use the event's shape.
type InputError struct {
	Event string
	Err   error
}

func (e *InputError) Error() string { return "bad hook input: " + e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// UnsupportedEventError is a well-formed input for an event the hook does
// not answer (PostToolUse, Stop, another agent's BeforeTool, …): it was
// installed on the wrong event, or for the wrong agent.
type UnsupportedEventError struct {
	Event string
	// Gates is true when the input carries a tool call (a tool_name) and
	// the event is not one known to come after the call ran: it may be a
	// pre-tool event of an agent this hook does not speak, so the answer
	// must block, never let the call through.
	Gates bool
}

func (e *UnsupportedEventError) Error() string {
	msg := fmt.Sprintf("toolgate answers only %s, %s and %s hooks, not %q: install it on those events", EventPreToolUse, EventPermissionRequest, EventUserPromptSubmit, e.Event)
	if e.Gates {
		msg += " (or install the hook of the agent that sent it: toolgate hook install HOST; toolgate hook -h lists them)"
	}
	return msg
}

// afterEvent reports the events of the agents toolgate knows that carry a
// tool call after it ran, or none at all: an input for one of them that
// reaches the hook gates nothing, and is answered as a notice, not a
// block (blocking a Stop hook keeps the agent from stopping).
// (A switch, not a map: the lean hook binary initialises no tables at
// start-up.)
func afterEvent(event string) bool {
	switch event {
	// Claude Code and Codex.
	case "PostToolUse", "PostToolUseFailure", "Notification",
		"Stop", "StopFailure", "SubagentStart", "SubagentStop",
		"PreCompact", "PostCompact", "SessionStart", "SessionEnd",
		// Gemini CLI.
		"AfterTool", "AfterAgent", "AfterModel", "PreCompress":
		return true
	}
	return false
}

// supported reports whether the hook answers event.
func supported(event string) bool {
	switch event {
	case EventPreToolUse, EventPermissionRequest, EventUserPromptSubmit:
		return true
	}
	return false
}

// ParseInput reads one hook input. It checks what answering needs: a JSON
// object, a supported hook_event_name and, for the tool events, a
// tool_name and tool_input as an object (absent or null counts as empty).
// A UserPromptSubmit needs nothing more. Other fields are optional and
// unknown ones are ignored.
func ParseInput(data []byte) (*Input, error) {
	if len(data) > MaxInputBytes {
		return nil, &InputError{Event: sniffEvent(data), Err: fmt.Errorf("input larger than %d bytes", MaxInputBytes)}
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, &InputError{Err: errors.New("no input on stdin (want the hook's JSON object)")}
	}
	var in Input
	more, err := decodeInput(data, &in)
	if err != nil {
		return nil, &InputError{Event: sniffEvent(data), Err: fmt.Errorf("invalid JSON: %s", strings.TrimPrefix(err.Error(), "json: "))}
	}
	if more {
		return nil, &InputError{Event: in.HookEventName, Err: errors.New("more than one JSON value")}
	}
	switch in.HookEventName {
	case EventPreToolUse, EventPermissionRequest:
	case EventUserPromptSubmit:
		return &in, nil
	case "":
		return nil, &InputError{Err: errors.New(`"hook_event_name" is missing`)}
	default:
		gates := strings.TrimSpace(in.ToolName) != "" && !afterEvent(in.HookEventName)
		return nil, &UnsupportedEventError{Event: in.HookEventName, Gates: gates}
	}
	if strings.TrimSpace(in.ToolName) == "" {
		return nil, &InputError{Event: in.HookEventName, Err: errors.New(`"tool_name" is missing`)}
	}
	if in.ToolInput == nil {
		in.ToolInput = map[string]any{}
	}
	return &in, nil
}

// sniffEvent reads hook_event_name from an input that failed to decode as
// a whole (say tool_input is not an object), so the answer can still use
// the event's shape. It returns "" when the name cannot be read.
func sniffEvent(data []byte) string {
	var probe struct {
		HookEventName string `json:"hook_event_name"`
	}
	if len(data) > MaxInputBytes || json.Unmarshal(data, &probe) != nil {
		// Field by field: decode as a map of raw values.
		var m map[string]json.RawMessage
		if len(data) > MaxInputBytes || json.Unmarshal(data, &m) != nil {
			// Not even that: a UserPromptSubmit cut off at MaxInputBytes
			// (a huge pasted prompt) must still be known as one, so it is
			// let through rather than blocked.
			return sniffPrompt(data)
		}
		_ = json.Unmarshal(m["hook_event_name"], &probe.HookEventName)
	}
	if supported(probe.HookEventName) {
		return probe.HookEventName
	}
	return ""
}

// sniffPrompt returns EventUserPromptSubmit if a JSON object that may be
// cut short names that event before the point where it breaks off (both
// agents send hook_event_name before the prompt), else "". It walks the
// top-level keys; a second, different hook_event_name is "".
func sniffPrompt(data []byte) string {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	event := ""
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			break
		}
		if k, _ := kt.(string); k == "hook_event_name" {
			var name string
			if err := dec.Decode(&name); err != nil || (event != "" && name != event) {
				return ""
			}
			event = name
			continue
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			break
		}
	}
	if event != EventUserPromptSubmit {
		return ""
	}
	return event
}

// Call maps a hook input to a toolgate call: session_id → Session, cwd →
// Cwd, tool_name → Tool, tool_input → Args, tool_use_id → ID, agent_type →
// Agent; workspace is given (from config) or derived from the project
// directory. An mcp__server__tool call gets origin "mcp:server".
//
// A PermissionRequest's call id is the tool_use_id with "#permission"
// appended: the gateway treats the id as the idempotency key, and the
// dialog a PreToolUse "ask" opens must not attach to the approval that
// PreToolUse already settled.
func (in *Input) Call(workspace string) toolgate.Call {
	c := toolgate.Call{
		ID:        in.ToolUseID,
		Session:   in.SessionID,
		Workspace: workspace,
		Agent:     in.AgentType,
		Tool:      in.ToolName,
		Args:      in.ToolInput,
		Cwd:       in.Cwd,
	}
	if c.ID != "" && in.HookEventName == EventPermissionRequest {
		c.ID += "#permission"
	}
	if rest, ok := strings.CutPrefix(in.ToolName, "mcp__"); ok {
		if server, _, ok := strings.Cut(rest, "__"); ok && server != "" {
			c.Origin = "mcp:" + server
		}
	}
	return c
}

// WorkspaceFor derives a workspace id from a project directory: its base
// name, reduced to the letters, digits, '.', '_' and '-' that workspace ids
// allow (the gateway names a directory after them). It returns "default"
// when nothing usable is left.
func WorkspaceFor(dir string) string {
	base := filepath.Base(filepath.Clean(dir))
	var b strings.Builder
	for _, r := range base {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
		if b.Len() >= 128 {
			break
		}
	}
	ws := strings.TrimRight(strings.TrimLeft(b.String(), "._-"), ".")
	if dir == "" || ws == "" || strings.Trim(ws, "_") == "" {
		return "default"
	}
	if toolgate.ValidWorkspaceID(ws) != nil {
		return "ws-" + ws // a reserved device name such as con
	}
	return ws
}
