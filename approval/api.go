package approval

import (
	"encoding/json"
	"time"

	"github.com/toolgate/toolgate"
)

// TimeoutReason is the reason an expired approval is denied with, word for
// word as the seed engine sends it.
const TimeoutReason = "approval timed out (no host response)"

// Defaults from the seed engine (DESIGN §4.3).
const (
	DefaultTTL           = 5 * time.Minute
	DefaultSweepInterval = 30 * time.Second
)

// Actor is who answers or changes something, as the audit log records it.
type Actor struct {
	// Name identifies the person or credential ("alice", "token:ops").
	Name string
	// Via names the client: web, api, cli, tui, trpc, ws, engine, hook,
	// mcp, telegram, ntfy, webhook.
	Via string
	// Admin is set for a credential that may write rules: only an admin's
	// answer may grant globally, tool-wide or wider than the call.
	Admin bool
	// Agent is set for an agent credential. A session belongs to the agent
	// credential of its first call: another agent credential is told it
	// does not exist (its approvals, submitting into it, cancelling,
	// ending its turn). Approvers and admins, and in-process hosts (no
	// credential), act on every session.
	Agent bool
}

// owns reports whether by may act on session s as an agent.
func (by Actor) owns(s *toolgate.Session) bool {
	return !by.Agent || s.Owner == "" || s.Owner == by.Name
}

// SubmitRequest is a call an agent host submits.
type SubmitRequest struct {
	Call toolgate.Call
	// BatchRemaining lists the calls still to come in the call's batch, so
	// approvers see them (seed 002's batch_remaining).
	BatchRemaining []toolgate.Call
	// TTL overrides the approval's time to live; zero uses the default.
	TTL time.Duration
	// By is who submits. An agent credential opens the sessions of its
	// first calls and may submit only into those.
	By Actor
}

// Result is the outcome of submitting a call.
type Result struct {
	// Decision is what the rules said.
	Decision toolgate.Decision `json:"decision"`
	// Approval is set when the call asks: the pending approval (or, for a
	// resubmitted call, the approval it attached to, maybe resolved).
	Approval *toolgate.Approval `json:"approval,omitempty"`
}

// Final reports the call's final verdict and whether there is one yet:
// allow or deny by rule, or the resolved approval's outcome.
func (r *Result) Final() (toolgate.Action, bool) {
	if r.Approval == nil {
		return r.Decision.Action, r.Decision.Action != toolgate.Ask
	}
	switch r.Approval.Status {
	case toolgate.StatusApproved:
		return toolgate.Allow, true
	case toolgate.StatusPending:
		return toolgate.Ask, false
	}
	return toolgate.Deny, true
}

// ApproveRequest is a human's approval.
type ApproveRequest struct {
	// Scope defaults to once.
	Scope toolgate.Scope `json:"scope,omitempty"`
	// Grant is the kind of grant for scopes beyond once: tool (default for
	// calls without suggestions), pattern (default when the decision
	// suggested one) or prefix.
	Grant toolgate.GrantKind `json:"grant,omitempty"`
	// Pattern is the grant's pattern; empty takes the first suggestion.
	Pattern string `json:"pattern,omitempty"`
	// Answer is a question tool's output. It is rejected for any other tool.
	Answer json.RawMessage `json:"answer,omitempty"`
	// Modifications are changes to the call's arguments.
	Modifications json.RawMessage `json:"modifications,omitempty"`
}

// DenyRequest is a human's denial.
type DenyRequest struct {
	Reason   string `json:"reason,omitempty"`
	Feedback string `json:"feedback,omitempty"`
	// Mode defaults to hard.
	Mode toolgate.DenyMode `json:"mode,omitempty"`
}

// EventFilter selects events for a subscriber.
type EventFilter struct {
	Session   string
	Workspace string
	// AfterSeq resumes after the last event the subscriber saw.
	AfterSeq int64
}
