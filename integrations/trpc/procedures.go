package trpc

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/tokens"
)

// ApproveInput is tool.approve's input.
type ApproveInput struct {
	SessionID  string `json:"sessionId"`
	ApprovalID string `json:"approvalId"`
	// Always adds an "always approve" rule for the tool and pattern.
	Always bool `json:"always,omitempty"`
}

// DenyInput is tool.deny's input.
type DenyInput struct {
	SessionID  string `json:"sessionId"`
	ApprovalID string `json:"approvalId"`
	// Feedback goes back to the model as the tool result.
	Feedback string `json:"feedback,omitempty"`
}

// Applied is the output of tool.approve and tool.deny.
type Applied struct {
	// Applied is false when the approval was not found (unknown, already
	// answered, expired or cancelled, or of another session).
	Applied bool `json:"applied"`
}

// field is one input field: its name, whether it is required, and where
// its value goes.
type field struct {
	name     string
	required bool
	str      *string
	boolean  *bool
}

// decodeInput reads an input object field by field, with messages that
// name the field, as a schema validator would. Unknown fields are
// ignored (stripped), as zod objects do by default.
func decodeInput(raw json.RawMessage, fields ...field) error {
	if len(raw) == 0 || string(raw) == "null" {
		return errorf(codeBadRequest, "Invalid input: expected an object, received undefined")
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return errorf(codeBadRequest, "Invalid input: expected an object")
	}
	for _, f := range fields {
		v, ok := obj[f.name]
		if !ok || string(v) == "null" {
			if f.required {
				return errorf(codeBadRequest, "Invalid input: %s is required", f.name)
			}
			continue
		}
		switch {
		case f.str != nil:
			if err := json.Unmarshal(v, f.str); err != nil {
				return errorf(codeBadRequest, "Invalid input: %s: expected a string", f.name)
			}
			if f.required && *f.str == "" {
				return errorf(codeBadRequest, "Invalid input: %s must not be empty", f.name)
			}
		case f.boolean != nil:
			if err := json.Unmarshal(v, f.boolean); err != nil {
				return errorf(codeBadRequest, "Invalid input: %s: expected a boolean", f.name)
			}
		}
	}
	return nil
}

// actor is who answers: the token's name, via trpc.
func actor(caller tokens.Entry) toolgate.Actor {
	return caller.Actor(Via)
}

// pending returns the approval an answer is for, or nil when the answer
// cannot apply: unknown, resolved, or of another session.
func (h *Handler) pending(ctx context.Context, session, id string) (*toolgate.Approval, error) {
	a, err := h.gate.Approval(ctx, id)
	if toolgate.ErrorCodeOf(err) == toolgate.ENotFound {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load approval %s: %w", id, err)
	}
	if a.Call.Session != session || a.Status != toolgate.StatusPending {
		return nil, nil
	}
	return a, nil
}

// notApplied reports whether an answer's error means the approval was
// gone by the time it was answered (resolved meanwhile, expired on the
// spot).
func notApplied(err error) bool {
	c := toolgate.ErrorCodeOf(err)
	return c == toolgate.EConflict || c == toolgate.ENotFound
}

// pendingAnswered decodes an answer's sessionId and approvalId, with
// extra, and returns the approval if it is still pending in that session
// (nil if not).
func (h *Handler) pendingAnswered(ctx context.Context, raw json.RawMessage, session, id *string, extra field) (*toolgate.Approval, error) {
	if err := decodeInput(raw,
		field{name: "sessionId", required: true, str: session},
		field{name: "approvalId", required: true, str: id},
		extra,
	); err != nil {
		return nil, err
	}
	return h.pending(ctx, *session, *id)
}

// applied is an answer's result once the broker's call returned err:
// not applied if the approval was gone meanwhile.
func applied(verb, id string, err error) (any, error) {
	switch {
	case err == nil:
		return Applied{Applied: true}, nil
	case notApplied(err):
		return Applied{}, nil
	}
	return nil, fmt.Errorf("%s %s: %w", verb, id, err)
}

// approve is tool.approve.
func (h *Handler) approve(ctx context.Context, raw json.RawMessage, caller tokens.Entry) (any, error) {
	var in ApproveInput
	ctx = toolgate.WithActor(ctx, actor(caller))
	a, err := h.pendingAnswered(ctx, raw, &in.SessionID, &in.ApprovalID, field{name: "always", boolean: &in.Always})
	if err != nil || a == nil {
		return Applied{}, err
	}
	req := toolgate.ApproveRequest{Scope: toolgate.ScopeOnce}
	// "Always" grants the decision's arity patterns at workspace scope:
	// the broker appends the rule to the workspace's permissions.jsonc,
	// adds it to the session's layers at once and cascades. A call with
	// no suggestion (an interpreter, a wrapper) can only be approved once.
	suggestions := a.Decision.Suggestions
	if in.Always && len(suggestions) == 1 {
		req = toolgate.ApproveRequest{Scope: toolgate.ScopeWorkspace, Grant: toolgate.GrantPattern}
	}
	if !in.Always || len(suggestions) <= 1 {
		_, err := h.gate.Approve(ctx, a.ID, req)
		return applied("approve", a.ID, err)
	}
	// A pipeline: each command gets its own arity rule (seed 001: every
	// sub-command is evaluated on its own). No one of them covers the
	// call, which the broker requires of an answer's grant, so the rules
	// are added first (their cascade approves the call) and the call is
	// then approved once if it is still pending.
	grantErr := h.broker.GrantSuggestions(ctx, a.ID)
	_, err = h.gate.Approve(ctx, a.ID, toolgate.ApproveRequest{Scope: toolgate.ScopeOnce})
	if notApplied(err) {
		if got, gerr := h.gate.Approval(ctx, a.ID); gerr == nil && got.Status == toolgate.StatusApproved {
			err = nil // the cascade of the new rules approved it
		}
	}
	if err != nil {
		return applied("approve", a.ID, err)
	}
	if err := grantErr; err != nil {
		// The call is approved; only some of its "always" rules are
		// missing. Say so rather than pretend it all worked.
		return nil, fmt.Errorf("approve %s always: %w", a.ID, err)
	}
	return Applied{Applied: true}, nil
}

// deny is tool.deny: a soft deny carrying the feedback.
func (h *Handler) deny(ctx context.Context, raw json.RawMessage, caller tokens.Entry) (any, error) {
	var in DenyInput
	ctx = toolgate.WithActor(ctx, actor(caller))
	a, err := h.pendingAnswered(ctx, raw, &in.SessionID, &in.ApprovalID, field{name: "feedback", str: &in.Feedback})
	if err != nil || a == nil {
		return Applied{}, err
	}
	req := toolgate.DenyRequest{Feedback: strings.TrimSpace(in.Feedback), Mode: toolgate.DenySoft}
	_, err = h.gate.Deny(ctx, a.ID, req)
	return applied("deny", a.ID, err)
}

// fromToolgate maps a toolgate error to a tRPC error with its message;
// any other error is internal.
func fromToolgate(err error) *Error {
	c := codeInternal
	switch toolgate.ErrorCodeOf(err) {
	case toolgate.EInvalid:
		c = codeBadRequest
	case toolgate.EUnauthorized:
		c = codeUnauthorized
	case toolgate.EForbidden:
		c = codeForbidden
	case toolgate.ENotFound:
		c = codeNotFound
	case toolgate.EConflict:
		c = codeConflict
	case toolgate.ETooLarge:
		c = codePayloadTooLarge
	case toolgate.ERateLimited:
		c = codeTooManyRequests
	case toolgate.EUnavailable:
		c = codeUnavailable
	}
	return &Error{Code: c, Message: toolgate.ErrorMessageOf(err), Err: err}
}
