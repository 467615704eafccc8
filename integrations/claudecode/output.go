package claudecode

import (
	"encoding/json"
	"strings"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/jsonstr"
)

// Output is the JSON a hook answers with. Only the fields toolgate uses
// are declared.
type Output struct {
	// SystemMessage is shown to the user (both agents accept it).
	SystemMessage      string              `json:"systemMessage,omitempty"`
	HookSpecificOutput *HookSpecificOutput `json:"hookSpecificOutput,omitempty"`
}

// HookSpecificOutput is the event-specific part of an Output.
type HookSpecificOutput struct {
	HookEventName string `json:"hookEventName"`
	// PreToolUse: allow, deny or ask, with a reason.
	PermissionDecision       string         `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string         `json:"permissionDecisionReason,omitempty"`
	UpdatedInput             map[string]any `json:"updatedInput,omitempty"`
	// PermissionRequest: allow or deny on the user's behalf.
	Decision *PermissionDecision `json:"decision,omitempty"`
}

// PermissionDecision answers a PermissionRequest.
type PermissionDecision struct {
	// Behavior is "allow" or "deny".
	Behavior string `json:"behavior"`
	// Message tells the model why, for a deny.
	Message string `json:"message,omitempty"`
	// UpdatedInput replaces the tool's input, for an allow (Claude Code
	// only: Codex rejects it, see package hosts).
	UpdatedInput map[string]any `json:"updatedInput,omitempty"`
}

// Verdict is what the hook answers for one call.
type Verdict struct {
	// Action is allow, deny or ask; ask hands the question to the agent's
	// own permission prompt.
	Action toolgate.Action
	// Reason says why, in words for the user (ask) or the model (deny).
	Reason string
	// UpdatedInput, for an allow, is the call's input as a human changed
	// it; nil when unchanged.
	UpdatedInput map[string]any
	// Tier is the tier the rules decided the call at (TierUnset when no
	// rule decided it: a human's answer).
	Tier toolgate.Tier
}

const reasonPrefix = "toolgate: "

// reason prefixes r so the user and the model see who decided.
func reason(r string) string {
	r = strings.TrimSpace(r)
	if r == "" {
		r = "no reason given"
	}
	if strings.HasPrefix(r, reasonPrefix) {
		return r
	}
	return reasonPrefix + r
}

// Render returns the output for verdict v on event (PreToolUse or
// PermissionRequest) in Claude Code's format. Every verdict renders to a
// valid output: no input makes it allow. (Codex reads less of it: package
// hosts renders Codex's subset from this output.)
func Render(event string, v Verdict) *Output {
	why := reason(v.Reason)
	if event == EventPermissionRequest {
		switch v.Action {
		case toolgate.Allow:
			pd := &PermissionDecision{Behavior: "allow", UpdatedInput: v.UpdatedInput}
			return &Output{HookSpecificOutput: &HookSpecificOutput{HookEventName: event, Decision: pd}}
		case toolgate.Ask:
			// No decision: the permission dialog goes to the user, with
			// toolgate's reason shown next to it.
			return &Output{SystemMessage: why}
		default:
			return &Output{HookSpecificOutput: &HookSpecificOutput{HookEventName: event,
				Decision: &PermissionDecision{Behavior: "deny", Message: why}}}
		}
	}
	h := &HookSpecificOutput{HookEventName: EventPreToolUse, PermissionDecisionReason: why}
	switch v.Action {
	case toolgate.Allow:
		h.PermissionDecision = "allow"
		h.UpdatedInput = v.UpdatedInput
	case toolgate.Ask:
		h.PermissionDecision = "ask"
	default:
		h.PermissionDecision = "deny"
	}
	return &Output{HookSpecificOutput: h}
}

// Marshal encodes an output as one line of JSON, HTML left unescaped so
// reasons read as written. An output that cannot be encoded (only an
// UpdatedInput could fail, and it came from JSON) becomes a deny for the
// same event: the human approved the changed input, not the original.
func (o *Output) Marshal() []byte {
	if b, ok := o.appendPlain(nil); ok {
		return b
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(o); err != nil {
		event := EventPreToolUse
		if o.HookSpecificOutput != nil && o.HookSpecificOutput.HookEventName != "" {
			event = o.HookSpecificOutput.HookEventName
		}
		b.Reset()
		_ = enc.Encode(Render(event, Verdict{Action: toolgate.Deny, Reason: "cannot encode the answer: " + err.Error()}))
	}
	return []byte(b.String())
}

// appendPlain appends o as Marshal's encoder writes it, for an output
// without an updated input (every answer of a local decision); ok is false
// for one with, which goes through the encoder. The hook answers once per
// process, and building encoding/json's encoders for these types by
// reflection was a tenth of its work and its deepest stack
// (TestMarshalPlainAsEncoder compares the two).
func (o *Output) appendPlain(b []byte) (_ []byte, ok bool) {
	h := o.HookSpecificOutput
	if h != nil && (h.UpdatedInput != nil || h.Decision != nil && h.Decision.UpdatedInput != nil) {
		return nil, false
	}
	b = append(b, '{')
	if o.SystemMessage != "" {
		b = appendString(append(b, `"systemMessage":`...), o.SystemMessage)
		if h != nil {
			b = append(b, ',')
		}
	}
	if h != nil {
		b = appendString(append(b, `"hookSpecificOutput":{"hookEventName":`...), h.HookEventName)
		if h.PermissionDecision != "" {
			b = appendString(append(b, `,"permissionDecision":`...), h.PermissionDecision)
		}
		if h.PermissionDecisionReason != "" {
			b = appendString(append(b, `,"permissionDecisionReason":`...), h.PermissionDecisionReason)
		}
		if d := h.Decision; d != nil {
			b = appendString(append(b, `,"decision":{"behavior":`...), d.Behavior)
			if d.Message != "" {
				b = appendString(append(b, `,"message":`...), d.Message)
			}
			b = append(b, '}')
		}
		b = append(b, '}')
	}
	return append(b, '}', '\n'), true
}

// appendString appends s as encoding/json writes it with HTML escaping
// off, as the Encoder that wrote the answer before did.
func appendString(b []byte, s string) []byte { return jsonstr.Append(b, s, false) }

// BlockOutput is the answer to a body that is not a hook input: the
// legacy top-level block, which Claude Code and Codex both read as a block
// of a PreToolUse call whatever the event was meant to be.
func BlockOutput(msg string) any {
	return map[string]string{"decision": "block", "reason": reason(msg)}
}
