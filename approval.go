package toolgate

import (
	"encoding/json"
	"time"
)

// Status is where a pending approval stands.
type Status string

// Approval statuses. Every status but pending is final.
const (
	StatusPending   Status = "pending"
	StatusApproved  Status = "approved"
	StatusDenied    Status = "denied"
	StatusExpired   Status = "expired"
	StatusCancelled Status = "cancelled"
)

// Final reports whether s is a resolved status.
func (s Status) Final() bool { return s != StatusPending && s != "" }

// TimeoutReason is the reason an expired approval is denied with, word for
// word as the seed engine sends it.
const TimeoutReason = "approval timed out (no host response)"

// The seed engine's defaults (DESIGN §4.3): how long an approval waits for
// an answer unless the call says otherwise, and how often expired ones are
// swept.
const (
	DefaultTTL           = 5 * time.Minute
	DefaultSweepInterval = 30 * time.Second
)

// Scope says how far an approval reaches (DESIGN §4.2).
type Scope string

// Scopes, narrowest first.
const (
	ScopeOnce      Scope = "once"
	ScopeTurn      Scope = "turn"
	ScopeSession   Scope = "session"
	ScopeWorkspace Scope = "workspace"
	ScopeGlobal    Scope = "global"
)

// GrantKind says what a grant allows.
type GrantKind string

// Grant kinds.
const (
	// GrantTool allows every call to the tool (and the names the alias
	// table gives the same tool in other agents), never its family, tier
	// or category: seed 000's H-2 fix. Every grant kind is scoped so.
	GrantTool GrantKind = "tool"
	// GrantPattern allows subjects matching a glob: the suggestion or a
	// pattern the human edited.
	GrantPattern GrantKind = "pattern"
	// GrantPrefix allows shell commands every one of whose simple commands
	// starts with a literal prefix (the seed's always_prefix).
	GrantPrefix GrantKind = "prefix"
)

// DenyMode says what a denial does to the rest of the batch.
type DenyMode string

// Deny modes.
const (
	// DenySoft denies this call; the agent is told to ask the user how to
	// proceed and the batch goes on.
	DenySoft DenyMode = "soft"
	// DenyHard denies this call and the rest of its batch and sets the
	// session's stop flag. It is the default.
	DenyHard DenyMode = "hard"
)

// Approval is a call held for a human answer.
type Approval struct {
	// ID is random and unguessable; approvers answer by it.
	ID string `json:"id"`
	// ResumeToken is the public correlation handle for suspend and resume.
	ResumeToken string `json:"resume_token"`
	Call        Call   `json:"call"`
	// Digest is the call's digest.Call as first submitted: a resubmission
	// of the call id with other content is refused, never attached.
	Digest    string    `json:"digest,omitempty"`
	Decision  Decision  `json:"decision"`
	Status    Status    `json:"status"`
	CreatedAt time.Time `json:"created_at"`
	ExpiresAt time.Time `json:"expires_at"`
	// BatchRemaining lists the calls still to come in the call's batch.
	BatchRemaining []Call `json:"batch_remaining,omitempty"`
	// Resolution is set once the approval is no longer pending.
	Resolution *Resolution `json:"resolution,omitempty"`
	// SessionWaiting is the other calls of the call's session waiting for
	// an answer when the approval was read or announced: batch context for
	// calls that arrive one at a time (POST /v1/calls without a batch,
	// hooks). The gateway fills it on reads and events; it is not stored.
	SessionWaiting *Waiting `json:"session_waiting,omitempty"`
}

// Waiting is the other calls of a session waiting for an answer.
type Waiting struct {
	// Count is how many there are.
	Count int `json:"count"`
	// Calls are the oldest of them, at most MaxWaitingShown.
	Calls []WaitingCall `json:"calls"`
}

// MaxWaitingShown bounds Waiting.Calls.
const MaxWaitingShown = 5

// WaitingCall is one call of a Waiting.
type WaitingCall struct {
	ApprovalID string `json:"approval_id"`
	Tool       string `json:"tool"`
	// Summary is what the call does in one line (its command, path or
	// arguments), cut short.
	Summary string `json:"summary"`
}

// Resolution is how an approval ended.
type Resolution struct {
	Status Status `json:"status"`
	// Scope and Grant are set for approvals.
	Scope   Scope     `json:"scope,omitempty"`
	Grant   GrantKind `json:"grant,omitempty"`
	Pattern string    `json:"pattern,omitempty"`
	GrantID string    `json:"grant_id,omitempty"`
	// Answer is a question tool's output, chosen by the human.
	Answer json.RawMessage `json:"answer,omitempty"`
	// Modifications are changes the human made to the call's arguments.
	Modifications json.RawMessage `json:"modifications,omitempty"`
	// DenyMode and Feedback are set for denials.
	DenyMode DenyMode `json:"deny_mode,omitempty"`
	Feedback string   `json:"feedback,omitempty"`
	// Reason is the message for the agent: why it was denied, expired or
	// cancelled.
	Reason string `json:"reason,omitempty"`
	// By names who answered (a token's name, "toolgate" for the gate
	// itself); Via the client (web, api, cli, tui, trpc, ws, engine, …).
	By  string    `json:"by"`
	Via string    `json:"via,omitempty"`
	At  time.Time `json:"at"`
}

// Grant is a rule created by a human answer.
type Grant struct {
	ID    string    `json:"id"`
	Scope Scope     `json:"scope"`
	Kind  GrantKind `json:"kind"`
	Tool  string    `json:"tool"`
	// Pattern is the subject glob (GrantPattern) or literal prefix
	// (GrantPrefix); "*" for GrantTool.
	Pattern string `json:"pattern"`
	// Session is set for turn and session grants, Workspace for every
	// scope but global, Turn for turn grants.
	Session    string    `json:"session,omitempty"`
	Workspace  string    `json:"workspace,omitempty"`
	Turn       int       `json:"turn,omitempty"`
	ApprovalID string    `json:"approval_id,omitempty"`
	CreatedBy  string    `json:"created_by"`
	Via        string    `json:"via,omitempty"`
	CreatedAt  time.Time `json:"created_at"`
	// ExpiresAt, when set, is when a time-boxed grant ("allow for 30
	// minutes") stops counting: from then on no node decides by it.
	ExpiresAt time.Time `json:"expires_at,omitzero"`
}

// Session is one agent conversation.
type Session struct {
	ID        string `json:"id"`
	Workspace string `json:"workspace"`
	Mode      Mode   `json:"mode"`
	// Turn counts the session's turns; turn grants last until it moves on.
	Turn int `json:"turn"`
	// Stopped is the stop flag a hard deny sets: the host should end the
	// agent loop until the user speaks. Ending the turn clears it.
	Stopped bool `json:"stopped"`
	Aborted bool `json:"aborted"`
	// Owner names the credential that opened the session (its first
	// call); other agent credentials can neither see nor use it. Empty
	// for a session opened without a credential (in-process hosts).
	Owner     string    `json:"owner,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// AuditEntry is one record of the append-only audit log. Each entry is
// chained to the previous one by hash, so tampering shows.
type AuditEntry struct {
	Seq  int64     `json:"seq"`
	Time time.Time `json:"time"`
	// Kind is what happened: decision, approval.requested,
	// approval.resolved, grant.added, grant.revoked, mode.changed,
	// session.aborted, session.ended, session.turn_ended, rules.changed, call.conflict (a
	// call id resubmitted with other content), approval.file_read (an
	// approver asked for the file a pending call would change),
	// sandbox.violation (a confined command tried what its sandbox refuses),
	// mcp.pinned (an MCP proxy pinned a tool's definition, PinEvent).
	Kind       string `json:"kind"`
	Session    string `json:"session,omitempty"`
	Workspace  string `json:"workspace,omitempty"`
	CallID     string `json:"call_id,omitempty"`
	ApprovalID string `json:"approval_id,omitempty"`
	Tool       string `json:"tool,omitempty"`
	// Outcome is the action or status: allow, ask, deny, approved, denied,
	// expired, cancelled.
	Outcome string `json:"outcome,omitempty"`
	// Who and Via say who decided and through which client; "toolgate"
	// with via "rules" for an automatic decision.
	Who    string          `json:"who,omitempty"`
	Via    string          `json:"via,omitempty"`
	Reason string          `json:"reason,omitempty"`
	Data   json.RawMessage `json:"data,omitempty"`
	// PrevHash and Hash chain the entry: Hash covers PrevHash and every
	// field above.
	PrevHash string `json:"prev_hash"`
	Hash     string `json:"hash"`
}

// EventType names an event on the gateway's stream (DESIGN §4.4).
type EventType string

// Event types.
const (
	EventApprovalRequested EventType = "approval.requested"
	EventApprovalResolved  EventType = "approval.resolved"
	EventGrantAdded        EventType = "grant.added"
	EventGrantRevoked      EventType = "grant.revoked"
	EventModeChanged       EventType = "mode.changed"
	EventSessionAborted    EventType = "session.aborted"
	// EventSessionEnded: the session ended for good (a subagent completed,
	// a conversation closed); its session grants were revoked.
	EventSessionEnded   EventType = "session.ended"
	EventSessionStopped EventType = "session.stopped"
	// EventTurnEnded: the user spoke again; turn grants lapsed and the
	// stop flag cleared.
	EventTurnEnded EventType = "session.turn_ended"
	// EventRulesChanged: a workspace's rules document was replaced.
	EventRulesChanged EventType = "rules.changed"
)

// Event is one entry of the ordered event stream.
type Event struct {
	// Seq orders events; a subscriber resumes after the last it saw.
	Seq       int64     `json:"seq"`
	Type      EventType `json:"type"`
	Time      time.Time `json:"time"`
	Session   string    `json:"session,omitempty"`
	Workspace string    `json:"workspace,omitempty"`
	Approval  *Approval `json:"approval,omitempty"`
	Grant     *Grant    `json:"grant,omitempty"`
	Mode      *Mode     `json:"mode,omitempty"`
	// Replay marks a pending approval re-sent to a new subscriber.
	Replay bool `json:"replay,omitempty"`
}

// Outcome words a resolved approval's outcome for the agent, the same on
// every surface (hook, MCP proxy, engine host): allow with who approved it
// and for how long, or deny with the message the broker composed when it
// was denied, expired or cancelled (the human's reason, feedback and what
// to do next). A pending approval is ask.
func (a *Approval) Outcome() (Action, string) {
	r := a.Resolution
	if r == nil {
		r = &Resolution{Status: a.Status}
	}
	by := ""
	if r.By != "" {
		by = " by " + r.By
		if r.Via != "" {
			by += " via " + r.Via
		}
	}
	switch a.Status {
	case StatusPending:
		return Ask, "waiting for an approver"
	case StatusApproved:
		msg := "approved" + by
		switch r.Scope {
		case "", ScopeOnce:
		case ScopeGlobal:
			msg += " everywhere"
		default:
			msg += " for this " + string(r.Scope)
		}
		if len(r.Modifications) > 0 && string(r.Modifications) != "null" {
			msg += ", with changes to the input"
		}
		return Allow, msg
	}
	if r.Reason != "" {
		return Deny, r.Reason
	}
	return Deny, "the approval was " + string(a.Status) + by
}
