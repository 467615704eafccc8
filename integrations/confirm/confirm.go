package confirm

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/server/mount"
	"github.com/toolgate/toolgate/tokens"
)

// NotFoundMessage is the error of an answer to a confirmation that is not
// pending, word for word as seed 004's REST handler sends it.
const NotFoundMessage = "Confirmation not found or expired"

// Clients recorded as an answer's Via.
const (
	// Via is the client of answers made here.
	Via = "confirm"
	// ViaMemory marks answers, and the grants they remember, made under
	// allowedToolsStorage: memory; those grants are revoked when the
	// process stops and when the next one starts.
	ViaMemory = "confirm-memory"
)

// Defaults of Options.
const (
	DefaultHeartbeat    = 15 * time.Second
	DefaultWriteTimeout = 10 * time.Second
)

// Options are the server-side settings of the endpoints.
type Options struct {
	// Heartbeat is the interval of event-stream keep-alives (default 15 s).
	Heartbeat time.Duration
	// WriteTimeout bounds writing one event (default 10 s).
	WriteTimeout time.Duration
	// AllowedOrigins are extra WebSocket origins (host patterns) besides
	// the request's own host.
	AllowedOrigins []string
	// Logger gets errors that cannot be sent to a client.
	Logger *slog.Logger
}

// Confirm serves seed 004's event confirmation over one broker.
type Confirm struct {
	broker *approval.Broker // its event stream and seed calls
	gate   toolgate.Gate    // everything done as a credential
	cfg    Config
	mode   *toolgate.Mode
	opts   Options
	via    string

	mu           sync.Mutex
	descriptions map[string]string // session + "\x00" + call id → tool description
}

// New returns the endpoints for b with cfg (seed 004's toolConfirmation
// section). With memory storage it first revokes the remembered approvals
// a previous process left behind.
func New(ctx context.Context, b *approval.Broker, cfg Config, opts Options) (*Confirm, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	mode, _ := cfg.mode()
	if opts.Heartbeat <= 0 {
		opts.Heartbeat = DefaultHeartbeat
	}
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = DefaultWriteTimeout
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	c := &Confirm{broker: b, gate: b.Gate(), cfg: cfg, mode: mode, opts: opts, via: Via, descriptions: map[string]string{}}
	if cfg.AllowedToolsStorage == StorageMemory {
		c.via = ViaMemory
		if err := c.forgetMemory(ctx); err != nil {
			return nil, fmt.Errorf("confirm: revoke remembered approvals of an earlier run: %w", err)
		}
	}
	return c, nil
}

// Config returns the configuration in force, defaults filled in.
func (c *Confirm) Config() Config { return c.cfg }

// Close ends the process's remembered approvals under memory storage;
// under persistent storage it does nothing.
func (c *Confirm) Close(ctx context.Context) error {
	if c.cfg.AllowedToolsStorage != StorageMemory {
		return nil
	}
	return c.forgetMemory(ctx)
}

// forgetMemory revokes every grant made under memory storage.
func (c *Confirm) forgetMemory(ctx context.Context) error {
	// The gateway itself revokes what it remembered for this process.
	ctx = toolgate.WithActor(ctx, toolgate.Actor{Name: "toolgate", Via: ViaMemory, Admin: true})
	grants, err := c.gate.Grants(ctx, toolgate.GrantFilter{})
	if err != nil {
		return err
	}
	var errs []error
	for _, g := range grants {
		if g.Via != ViaMemory {
			continue
		}
		if err := c.gate.RevokeGrant(ctx, g.ID); err != nil && toolgate.ErrorCodeOf(err) != toolgate.ENotFound {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Mounts returns the server routes:
//
//	POST /api/tool-confirmation/{executionId}  approver: answer a confirmation
//	GET  /api/events                           approver: the event stream (SSE or WebSocket)
//	POST /api/tool-confirmation                agent: submit a call and wait for its outcome
func (c *Confirm) Mounts() []mount.Route {
	return []mount.Route{
		{Method: http.MethodPost, Path: "/api/tool-confirmation/{executionId}", Role: tokens.RoleApprover, Handler: c.handleAnswer},
		{Method: http.MethodGet, Path: "/api/events", Role: tokens.RoleApprover, Handler: c.handleEvents, Holds: true},
		{Method: http.MethodPost, Path: "/api/tool-confirmation", Role: tokens.RoleAgent, Handler: c.handleSubmit, Holds: true},
	}
}

// Response is an answer: seed 004's ToolConfirmationResponse.
type Response struct {
	// ExecutionID is only read from WebSocket messages; the REST route
	// takes it from the path.
	ExecutionID string `json:"executionId,omitempty"`
	// Approved is required.
	Approved *bool `json:"approved"`
	// RememberChoice remembers an approval for the tool: for the session
	// when SessionID is set, else for every session.
	RememberChoice bool `json:"rememberChoice,omitempty"`
	// SessionID, when set, must be the confirmation's session.
	SessionID *string `json:"sessionId,omitempty"`
}

// errNotFound is an answer to a confirmation that is not pending. Its text
// is seed 004's wire message, capital letter included.
//
//lint:ignore ST1005 the message is the seed's wire format
var errNotFound = errors.New(NotFoundMessage)

// badRequest is an answer that cannot be read; its message is sent.
type badRequest string

func (e badRequest) Error() string { return string(e) }

// Respond answers the confirmation executionID (an approval id). It
// returns errNotFound when it is not pending, belongs to another session
// than resp.SessionID, or was resolved meanwhile.
func (c *Confirm) Respond(ctx context.Context, executionID string, resp Response, caller tokens.Entry) error {
	if resp.Approved == nil {
		return badRequest("approved: required, a boolean")
	}
	ctx = toolgate.WithActor(ctx, caller.Actor(c.via))
	a, err := c.gate.Approval(ctx, executionID)
	if toolgate.ErrorCodeOf(err) == toolgate.ENotFound {
		return errNotFound
	}
	if err != nil {
		return fmt.Errorf("load confirmation %s: %w", executionID, err)
	}
	session := ""
	if resp.SessionID != nil {
		session = *resp.SessionID
	}
	if a.Status != toolgate.StatusPending || session != "" && session != a.Call.Session {
		return errNotFound
	}
	if *resp.Approved {
		req := toolgate.ApproveRequest{Scope: toolgate.ScopeOnce}
		if resp.RememberChoice {
			// Seed 004 remembers the tool: for the session when the
			// answer names it, else for every session. The engine looks
			// session grants up before global ones.
			// Under memory storage approvals are "cleared when the session
			// ends": they are the call's session's, whatever the answer
			// says, and end with it (Broker.EndSession) or with the process.
			req = toolgate.ApproveRequest{Scope: toolgate.ScopeGlobal, Grant: toolgate.GrantTool}
			if session != "" || c.cfg.AllowedToolsStorage == StorageMemory {
				req.Scope = toolgate.ScopeSession
			}
		}
		_, err = c.gate.Approve(ctx, a.ID, req)
	} else {
		// A denied tool's error goes back to the model and the agent goes
		// on: a soft deny.
		_, err = c.gate.Deny(ctx, a.ID, toolgate.DenyRequest{Mode: toolgate.DenySoft})
	}
	switch code := toolgate.ErrorCodeOf(err); {
	case err == nil:
		return nil
	case code == toolgate.EConflict || code == toolgate.ENotFound:
		return errNotFound
	default:
		return fmt.Errorf("answer confirmation %s: %w", a.ID, err)
	}
}

// handleAnswer is POST /api/tool-confirmation/{executionId}: {approved,
// rememberChoice?, sessionId?} → {success: true}, or 404 {error:
// "Confirmation not found or expired"}.
func (c *Confirm) handleAnswer(w http.ResponseWriter, r *http.Request, caller tokens.Entry) error {
	var resp Response
	if err := decodeBody(r, &resp); err != nil {
		return writeErr(w, err)
	}
	if err := c.Respond(r.Context(), r.PathValue("executionId"), resp, caller); err != nil {
		if code := toolgate.ErrorCodeOf(err); code != toolgate.EConflict && code != toolgate.EForbidden && code != toolgate.ENotFound {
			c.logInternal(r, err)
		}
		return writeErr(w, err)
	}
	return writeJSON(w, http.StatusOK, map[string]bool{"success": true})
}

func (c *Confirm) logInternal(r *http.Request, err error) {
	var br badRequest
	if !errors.Is(err, errNotFound) && !errors.As(err, &br) {
		c.opts.Logger.Error("confirm: request failed", "path", r.URL.Path, "err", err)
	}
}

// Submission is a call a seed-004 host submits for confirmation.
type Submission struct {
	ToolName string         `json:"toolName"`
	Args     map[string]any `json:"args,omitempty"`
	// Description is the tool's description, shown in the request event.
	Description string `json:"description,omitempty"`
	SessionID   string `json:"sessionId,omitempty"`
	// WorkerID names the workspace (default "default"); workspace is an
	// alias.
	WorkerID  string `json:"workerId,omitempty"`
	Workspace string `json:"workspace,omitempty"`
	// CallID makes the submission idempotent: the same call id in the
	// same session attaches to the same confirmation.
	CallID string `json:"callId,omitempty"`
}

// Outcome is how a submitted call ended.
type Outcome struct {
	CallID string `json:"callId"`
	// ExecutionID is the confirmation's id, when a human was asked.
	ExecutionID string `json:"executionId,omitempty"`
	Approved    bool   `json:"approved"`
	// Status is allowed or denied (by the rules and mode, no human asked),
	// approved, denied, expired or cancelled.
	Status string `json:"status"`
	// Reason is the message for the model when the call is not approved.
	Reason string `json:"reason,omitempty"`
}

// handleSubmit is POST /api/tool-confirmation: decide a call, and when it
// asks, wait up to the configured timeout for an answer; no answer in
// time denies it.
func (c *Confirm) handleSubmit(w http.ResponseWriter, r *http.Request, caller tokens.Entry) error {
	var sub Submission
	if err := decodeBody(r, &sub); err != nil {
		return writeErr(w, err)
	}
	if strings.TrimSpace(sub.ToolName) == "" {
		return writeErr(w, badRequest("toolName: required"))
	}
	by := caller.Actor(c.via)
	out, err := c.submit(r.Context(), sub, by)
	if err != nil {
		if r.Context().Err() != nil {
			return nil // the host went away; its confirmation is cancelled
		}
		if toolgate.ErrorCodeOf(err) != toolgate.EConflict {
			c.logInternal(r, err)
		}
		return writeErr(w, err)
	}
	return writeJSON(w, http.StatusOK, out)
}

// Submit decides a submitted call and waits for its outcome: the rules
// and mode first, then a human through the event stream for up to the
// configured timeout. If ctx ends first the confirmation is cancelled.
func (c *Confirm) Submit(ctx context.Context, sub Submission) (*Outcome, error) {
	return c.submit(ctx, sub, toolgate.Actor{})
}

// submit is Submit as a caller: an agent credential submits only into
// the sessions it owns.
func (c *Confirm) submit(ctx context.Context, sub Submission, by toolgate.Actor) (*Outcome, error) {
	call := toolgate.Call{ID: sub.CallID, Session: sub.SessionID, Workspace: sub.WorkerID, Tool: sub.ToolName, Args: sub.Args}
	if call.Workspace == "" {
		call.Workspace = sub.Workspace
	}
	if call.Workspace == "" {
		call.Workspace = approval.DefaultWorkspace
	}
	// A submission without a session is in its agent credential's own
	// default session: no agent takes the shared one from the others.
	session, err := approval.SessionFor(call.Session, by)
	if err != nil {
		return nil, err
	}
	call.Session = session
	if call.ID == "" {
		call.ID = newID("call_")
	}
	newSession, err := c.applyMode(ctx, call.Session, call.Workspace, false)
	if err != nil {
		return nil, err
	}
	if sub.Description != "" {
		key := call.Session + "\x00" + call.ID
		c.mu.Lock()
		c.descriptions[key] = sub.Description
		c.mu.Unlock()
		defer func() {
			c.mu.Lock()
			delete(c.descriptions, key)
			c.mu.Unlock()
		}()
	}
	req := toolgate.SubmitRequest{Call: call, TTL: c.cfg.Timeout, By: by}
	res, err := c.gate.Submit(toolgate.WithActor(ctx, by), req)
	if err != nil {
		return nil, fmt.Errorf("confirm: submit %s: %w", call.Tool, err)
	}
	if newSession && call.Workspace != approval.DefaultWorkspace {
		// The broker creates a session of another workspace only with its
		// first call, which is decided in the workspace's mode; the
		// configured mode applies from the next call on.
		if _, err := c.applyMode(ctx, call.Session, call.Workspace, true); err != nil {
			return nil, err
		}
	}
	if res.Approval != nil && res.Approval.Status == toolgate.StatusPending {
		// Submitting the same call again attaches to its approval and
		// waits; if ctx ends first the approval is cancelled.
		id := res.Approval.ID
		if res, err = c.broker.RequestApproval(ctx, req); err != nil {
			return nil, fmt.Errorf("confirm: wait for %s: %w", id, err)
		}
	}
	return outcomeOf(call.ID, res), nil
}

// applyMode sets the configured mode on a session this package sees for
// the first time, and reports whether the session was new. A session of
// the default workspace is created by setting its mode; one of another
// workspace is set when force is true (it was just created).
func (c *Confirm) applyMode(ctx context.Context, session, workspace string, force bool) (bool, error) {
	if c.mode == nil {
		return false, nil
	}
	// The gateway itself sets the mode its configuration names.
	ctx = toolgate.WithActor(ctx, toolgate.Actor{Name: "toolgate", Via: Via})
	if !force {
		_, err := c.gate.Session(ctx, session)
		if err == nil {
			return false, nil
		}
		if toolgate.ErrorCodeOf(err) != toolgate.ENotFound {
			return false, fmt.Errorf("load session %s: %w", session, err)
		}
		if workspace != approval.DefaultWorkspace {
			return true, nil
		}
	}
	if _, err := c.gate.SetMode(ctx, session, *c.mode); err != nil {
		return true, fmt.Errorf("set mode of session %s: %w", session, err)
	}
	return true, nil
}

// outcomeOf reports a submission's result.
func outcomeOf(callID string, res *toolgate.Result) *Outcome {
	out := &Outcome{CallID: callID}
	a := res.Approval
	if a == nil {
		out.Approved = res.Decision.Action == toolgate.Allow
		out.Status = "denied"
		if out.Approved {
			out.Status = "allowed"
		} else {
			out.Reason = res.Decision.Reason
		}
		return out
	}
	out.ExecutionID = a.ID
	out.Status = string(a.Status)
	out.Approved = a.Status == toolgate.StatusApproved
	if !out.Approved && a.Resolution != nil {
		out.Reason = a.Resolution.Reason
	}
	return out
}

// newID returns a random id with a prefix.
func newID(prefix string) string {
	var buf [16]byte
	_, _ = rand.Read(buf[:])
	return prefix + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(buf[:]))
}

// decodeBody reads a JSON object body. Unknown fields are ignored, as
// seed 004's handlers read only the fields they know.
func decodeBody(r *http.Request, v any) error {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return badRequest(fmt.Sprintf("request body larger than %d bytes", mbe.Limit))
		}
		return badRequest("could not read the request body")
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return badRequest("request body is empty; want a JSON object")
	}
	if err := json.Unmarshal(data, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return badRequest(fmt.Sprintf("%s: expected %s, got %s", te.Field, te.Type.Kind(), te.Value))
		}
		return badRequest("malformed JSON: " + strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

// writeErr writes an error as seed 004 does: {"error": "message"}.
func writeErr(w http.ResponseWriter, err error) error {
	var br badRequest
	switch {
	case errors.Is(err, errNotFound):
		return writeJSON(w, http.StatusNotFound, map[string]string{"error": NotFoundMessage})
	case errors.As(err, &br):
		return writeJSON(w, http.StatusBadRequest, map[string]string{"error": string(br)})
	}
	status := http.StatusInternalServerError
	msg := "internal error"
	switch toolgate.ErrorCodeOf(err) {
	case toolgate.EInvalid:
		status, msg = http.StatusBadRequest, toolgate.ErrorMessageOf(err)
	case toolgate.ENotFound:
		// Another credential's session, as if it did not exist.
		status, msg = http.StatusNotFound, toolgate.ErrorMessageOf(err)
	case toolgate.EForbidden:
		// An approver's answer that would write a rule only an admin may
		// (remembering a tool for every session).
		status, msg = http.StatusForbidden, toolgate.ErrorMessageOf(err)
	case toolgate.EConflict:
		// A callId reused for another call: refused, never attached.
		status, msg = http.StatusConflict, toolgate.ErrorMessageOf(err)
	case toolgate.EUnavailable:
		status, msg = http.StatusServiceUnavailable, toolgate.ErrorMessageOf(err)
	}
	return writeJSON(w, status, map[string]string{"error": msg})
}

// writeJSON writes v with a status.
func writeJSON(w http.ResponseWriter, status int, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("confirm: encode response: %w", err)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(status)
	if _, err := w.Write(data); err != nil {
		return fmt.Errorf("confirm: write response: %w", err)
	}
	return nil
}
