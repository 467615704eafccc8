package hosts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/toolgate/toolgate/integrations/claudecode"
)

// decodeInput decodes a host's hook input: one JSON object.
func decodeInput(title string, data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("bad %s hook input: %s", title, strings.TrimPrefix(err.Error(), "json: "))
	}
	if dec.More() {
		return fmt.Errorf("bad %s hook input: more than one JSON value", title)
	}
	return nil
}

// foreignEvent is what an adapter passes on as the event of an input whose
// event it does not know: the name as sent, unless that is one of the
// events the hook answers in Claude Code's format (PreToolUse,
// PermissionRequest, UserPromptSubmit). From another host's input such a
// name would be answered without the adapter's translation (a tool call
// decided without its arguments, a prompt's "no output" read by the host
// as an allow), so it is named as the host's own unknown event, which
// blocks when it carries a tool call.
func foreignEvent(title, event string) string {
	switch event {
	case claudecode.EventPreToolUse, claudecode.EventPermissionRequest, claudecode.EventUserPromptSubmit:
		return title + " " + event
	}
	return event
}

// decision is the hook's decision on a tool call, read from its answer in
// Claude Code's format: allow, deny or ask, the reason (prefixed with
// "toolgate: ") and the input as a human changed it. ok is false when the
// answer is no decision but an exit code (an input that could not be read,
// a prompt event).
func decision(ans *claudecode.Answer) (perm, reason string, updated map[string]any, ok bool) {
	if ans.Output == nil || ans.Output.HookSpecificOutput == nil {
		return "", "", nil, false
	}
	h := ans.Output.HookSpecificOutput
	perm = h.PermissionDecision
	if perm != "allow" && perm != "ask" {
		perm = "deny"
	}
	return perm, h.PermissionDecisionReason, h.UpdatedInput, true
}

// encodeAnswer is one line of JSON for stdout; a value that cannot be
// encoded blocks the call.
func encodeAnswer(v any) ([]byte, string, int) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, "toolgate: cannot encode the answer: " + err.Error() + "; the call is blocked", claudecode.ExitBlock
	}
	return append(b, '\n'), "", claudecode.ExitOK
}

// argsObject reads tool arguments sent as an object or as a string of
// JSON (Cursor's MCP input, Copilot CLI's toolArgs).
func argsObject(raw json.RawMessage) (map[string]any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return map[string]any{}, nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		raw = []byte(s)
		if strings.TrimSpace(s) == "" {
			return map[string]any{}, nil
		}
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, errors.New("the tool's arguments are not a JSON object")
	}
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}
