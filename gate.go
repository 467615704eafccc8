package toolgate

import (
	"context"
	"encoding/json"
	"time"
)

// Gate is toolgate as a service: it decides calls, holds the ones that ask
// until a human answers, and keeps the answers. The broker implements it in
// process (approval.Broker.Gate), the HTTP client over the network
// (client.Client), and a rules-only gate serves the hook's and the MCP
// proxy's local mode; the integrations take a Gate and do not care which.
//
// The acting credential travels in the context (WithActor): who answers,
// cancels or changes something is recorded in the audit log as that actor.
type Gate interface {
	// Evaluate decides a call without holding or recording it.
	Evaluate(ctx context.Context, c Call) (*Decision, error)
	// Submit decides a call. Allow and deny are final; ask holds the call as
	// a pending approval and returns at once (Wait for its outcome).
	// Resubmitting a call id attaches to the approval it created.
	Submit(ctx context.Context, req SubmitRequest) (*Result, error)
	// Wait blocks until the approval is resolved or ctx ends, and returns it
	// as it then stands (still pending, with ctx's error, if ctx ended).
	Wait(ctx context.Context, id string) (*Approval, error)
	// Approval returns an approval.
	Approval(ctx context.Context, id string) (*Approval, error)
	// Approvals lists approvals.
	Approvals(ctx context.Context, f ApprovalFilter) ([]*Approval, error)
	// Approve approves a pending approval.
	Approve(ctx context.Context, id string, req ApproveRequest) (*Approval, error)
	// Deny denies a pending approval.
	Deny(ctx context.Context, id string, req DenyRequest) (*Approval, error)
	// Cancel withdraws a pending approval nobody waits for any more.
	Cancel(ctx context.Context, id, reason string) (*Approval, error)
	// Session returns a session.
	Session(ctx context.Context, id string) (*Session, error)
	// Sessions lists sessions.
	Sessions(ctx context.Context, f SessionFilter) ([]*Session, error)
	// SetMode changes a session's mode.
	SetMode(ctx context.Context, session string, m Mode) (*Session, error)
	// Abort aborts a session: its pending approvals are cancelled and every
	// later call is denied.
	Abort(ctx context.Context, session string) (*Session, error)
	// EndTurn ends a session's turn: the user spoke again, turn grants and
	// the hard-deny stop flag are cleared.
	EndTurn(ctx context.Context, session string) (*Session, error)
	// Grants lists grants.
	Grants(ctx context.Context, f GrantFilter) ([]*Grant, error)
	// AddGrant adds a grant directly.
	AddGrant(ctx context.Context, g Grant) (*Grant, error)
	// RevokeGrant deletes a grant.
	RevokeGrant(ctx context.Context, id string) error
	// Audit lists audit entries in sequence order.
	Audit(ctx context.Context, f AuditFilter) ([]AuditEntry, error)
}

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

type actorKey struct{}

// WithActor returns a context that carries the acting credential to a Gate.
func WithActor(ctx context.Context, a Actor) context.Context {
	return context.WithValue(ctx, actorKey{}, a)
}

// ActorFrom returns the actor WithActor put in ctx.
func ActorFrom(ctx context.Context) (Actor, bool) {
	a, ok := ctx.Value(actorKey{}).(Actor)
	return a, ok && a.Name != ""
}

// SubmitRequest is a call an agent host submits.
type SubmitRequest struct {
	Call Call
	// BatchRemaining lists the calls still to come in the call's batch, so
	// approvers see them (seed 002's batch_remaining).
	BatchRemaining []Call
	// TTL overrides the approval's time to live; zero uses the default.
	TTL time.Duration
	// NoHold, for a call that asks, records the decision without holding
	// the call: no approval is created and no approver is notified; the
	// Result carries the ask decision and no Approval. A host that puts
	// the question to its own user (the Claude Code hook's prompt mode)
	// sets it. It changes nothing for allow and deny, and a call id
	// already held attaches to its approval as ever. JSON "hold": false.
	NoHold bool
	// Confirm, when set, is why a person must answer this call whatever
	// the rules, grants and mode allow: an MCP proxy sets it for a call
	// of a tool whose definition changed since it was pinned, with what
	// changed. A call the rules deny stays denied; any other is held for
	// an approver with Confirm leading its reason, and no grant, mode,
	// cascade or answer to the rest of a batch approves it. It can only
	// make a call ask, so any credential may set it. JSON "confirm".
	Confirm string
	// Confined says the host runs a call offered a confined allow
	// (Decision.Sandbox, DESIGN §3.7) under the kernel sandbox, as the
	// Claude Code, Gemini CLI and opencode hooks can: such a call is
	// recorded as allowed confined and not held (no approval, no
	// approver notified), and its Result carries the decision, still an
	// ask with its Sandbox, which the host runs so. It changes nothing
	// for any other call. JSON "confined": true.
	Confined bool
	// By is who submits. An agent credential opens the sessions of its
	// first calls and may submit only into those. A Gate fills it from the
	// context's actor.
	By Actor
}

// SubmitBody is a SubmitRequest as the HTTP API's POST /v1/calls takes
// it: {"call": …, "batch_remaining": […], "ttl": "90s", "hold": false,
// "confirm": "…", "confined": true}.
// The Go client and the lean hook send it.
type SubmitBody struct {
	Call           Call   `json:"call"`
	BatchRemaining []Call `json:"batch_remaining,omitempty"`
	TTL            string `json:"ttl,omitempty"`
	Hold           *bool  `json:"hold,omitempty"`
	Confirm        string `json:"confirm,omitempty"`
	Confined       bool   `json:"confined,omitempty"`
}

// Body returns req as the HTTP API's request body (By travels as the
// credential, not in the body).
func (req SubmitRequest) Body() SubmitBody {
	b := SubmitBody{Call: req.Call, BatchRemaining: req.BatchRemaining, Confirm: req.Confirm, Confined: req.Confined}
	if req.NoHold {
		b.Hold = new(bool)
	}
	if req.TTL > 0 {
		b.TTL = req.TTL.String()
	}
	return b
}

// Result is the outcome of submitting a call.
type Result struct {
	// Decision is what the rules said.
	Decision Decision `json:"decision"`
	// Approval is set when the call asks: the pending approval (or, for a
	// resubmitted call, the approval it attached to, maybe resolved). A
	// call submitted with NoHold has none unless its id was held before.
	Approval *Approval `json:"approval,omitempty"`
}

// Final reports the call's final verdict and whether there is one yet:
// allow or deny by rule, or the resolved approval's outcome.
func (r *Result) Final() (Action, bool) {
	if r.Approval == nil {
		return r.Decision.Action, r.Decision.Action != Ask
	}
	switch r.Approval.Status {
	case StatusApproved:
		return Allow, true
	case StatusPending:
		return Ask, false
	}
	return Deny, true
}

// ApproveRequest is a human's approval.
type ApproveRequest struct {
	// Scope defaults to once.
	Scope Scope `json:"scope,omitempty"`
	// Grant is the kind of grant for scopes beyond once: tool (default for
	// calls without suggestions), pattern (default when the decision
	// suggested one) or prefix.
	Grant GrantKind `json:"grant,omitempty"`
	// Pattern is the grant's pattern; empty takes the first suggestion.
	Pattern string `json:"pattern,omitempty"`
	// Answer is a question tool's output. It is rejected for any other tool.
	Answer json.RawMessage `json:"answer,omitempty"`
	// Modifications are changes to the call's arguments.
	Modifications json.RawMessage `json:"modifications,omitempty"`
	// For time-boxes the grant of a scope beyond once: a Go duration
	// ("30m", "2h") after which the grant stops counting on every node
	// (MaxGrantFor at most). Empty: the grant lasts as its scope does.
	For string `json:"for,omitempty"`
	// Rest answers the other pending calls of the call's batch too: each
	// is first decided by its own rules as they stand (a deny stays a
	// deny), and approved once if they would ask or allow.
	Rest bool `json:"rest,omitempty"`
}

// MaxGrantFor bounds a time-boxed grant's duration.
const MaxGrantFor = 30 * 24 * time.Hour

// ParseGrantFor reads a time-boxed grant's duration ("30m"): positive,
// at most MaxGrantFor.
func ParseGrantFor(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 || d > MaxGrantFor {
		return 0, Errorf(EInvalid, "for %q: want a positive duration up to %s, such as 30m or 2h", s, MaxGrantFor)
	}
	return d, nil
}

// DenyRequest is a human's denial.
type DenyRequest struct {
	Reason   string `json:"reason,omitempty"`
	Feedback string `json:"feedback,omitempty"`
	// Mode defaults to hard.
	Mode DenyMode `json:"mode,omitempty"`
	// Rest denies the other pending calls of the call's batch too (a hard
	// deny ends the batch anyway; with soft, the session goes on).
	Rest bool `json:"rest,omitempty"`
}

// EventFilter selects events for a subscriber.
type EventFilter struct {
	Session   string
	Workspace string
	// AfterSeq resumes after the last event the subscriber saw.
	AfterSeq int64
}

// Match reports whether an event is one the filter selects (AfterSeq aside:
// it is where a stream resumes, not a property of the event).
func (f EventFilter) Match(e *Event) bool {
	return (f.Session == "" || e.Session == f.Session) &&
		(f.Workspace == "" || e.Workspace == f.Workspace)
}

// ApprovalFilter selects approvals. Zero fields select everything.
type ApprovalFilter struct {
	Status    Status
	Session   string
	Workspace string
	// ExpiresBefore selects approvals whose expiry is at or before it.
	ExpiresBefore time.Time
	Limit         int
}

// GrantFilter selects grants. Zero fields select everything.
type GrantFilter struct {
	Scope     Scope
	Session   string
	Workspace string
	Tool      string
}

// SessionFilter selects sessions. Zero fields select everything.
type SessionFilter struct {
	Workspace string
	Limit     int
}

// AuditFilter selects audit entries. Zero fields select everything.
type AuditFilter struct {
	AfterSeq  int64
	Session   string
	Workspace string
	Tool      string
	Outcome   string
	Kind      string
	// Query selects entries whose text holds it, case-insensitively (see
	// AuditEntry.Contains). Stores ignore it; the broker applies it.
	Query string
	// Since and Until select Since <= time < Until.
	Since time.Time
	Until time.Time
	Limit int
}

// RequestApproval submits a call and waits for its final outcome: the seed
// engine's request_approval, for any Gate. If ctx ends while the call is
// pending, the waiter has gone away: the approval is withdrawn (never
// allowed) and ctx's error returned with the result as it then stands.
func RequestApproval(ctx context.Context, g Gate, req SubmitRequest) (*Result, error) {
	r, err := g.Submit(ctx, req)
	if err != nil || r.Approval == nil || r.Approval.Status != StatusPending {
		return r, err
	}
	a, err := g.Wait(ctx, r.Approval.ID)
	if err != nil && ctx.Err() != nil {
		// The caller gave up: withdraw with a context of its own, since ctx
		// is already done.
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if c, cerr := g.Cancel(wctx, r.Approval.ID, "the agent stopped waiting for approval"); cerr == nil {
			a = c
		} else if ErrorCodeOf(cerr) == EConflict {
			// Answered meanwhile: report the answer, not a cancellation.
			a, _ = g.Approval(wctx, r.Approval.ID)
		}
		if a != nil {
			r.Approval = a
		}
		return r, ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	r.Approval = a
	return r, nil
}
