// Package wsapprovals serves seed 002's WebSocket approval protocol over
// toolgate's broker: an approver's client connects, receives one
// approval_needed message per pending approval, in order, and answers
// each with {approved, scope, mode, feedback}.
//
// # Wire format
//
// Server to client, for the approval being asked (the first still pending,
// in the order the calls were submitted):
//
//	{"type": "approval_needed", "approval_id": "ap_…", "tool": "bash",
//	 "arguments": {"command": "npm install"},
//	 "batch_remaining": [{"tool": "write", "arguments": "{...}"},
//	                     {"tool": "bash", "arguments": "{\"command\": \"npm build\"}"}]}
//
// arguments is the call's argument object; batch_remaining lists the calls
// still to come in the call's batch, each with its arguments as a JSON
// string (as the seed sends them). A call submitted without a batch (a
// hook, POST /v1/calls with none) gets the other calls of its session
// waiting for an answer instead, the oldest five. approval_id, session, origin, reason
// and expires_at are toolgate's additions.
//
// Client to server, answering the approval last sent (or the one named by
// the optional approval_id):
//
//	{"approved": true, "scope": "once" | "session"}
//	{"approved": false, "mode": "reject_soft" | "reject_hard", "feedback": "…"}
//
// scope defaults to once; session saves the tool as approved for the rest
// of the session (a session grant of kind tool). mode defaults to
// reject_hard: the call and every remaining call of its batch are denied
// and the session's stop flag is set. reject_soft denies this call only;
// the agent is told "User rejected tool 'write'. Feedback: …" followed by
// a reminder to ask the user how to proceed (approval.DenyMessage).
//
// After an answer, or when the approval being asked is resolved elsewhere
// (another approver, a cascade, expiry), the server sends
// {"type": "approval_resolved", "approval_id", "status", "message"} and
// then the next approval_needed. A message it cannot use gets
// {"type": "error", "message"} and the connection stays open.
//
// Calls the rules allow never reach the client: that is how host-config
// auto-approval works. The host-config pattern list is toolgate.yaml's
// rules: ("read_file", "Bash(git status)", "Bash(git diff *)", {tool,
// when: {file_path: "*.md"}}), see policy.ParseConfig.
package wsapprovals

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/coder/websocket"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/internal/stream"
	"github.com/toolgate/toolgate/server/mount"
	"github.com/toolgate/toolgate/tokens"
)

// Path is where the endpoint is mounted.
const Path = "/v1/ws/approvals"

// Message types.
const (
	TypeApprovalNeeded   = "approval_needed"
	TypeApprovalResolved = "approval_resolved"
	TypeError            = "error"
)

// Scopes and rejection modes of an answer.
const (
	ScopeOnce    = "once"
	ScopeSession = "session"
	RejectSoft   = "reject_soft"
	RejectHard   = "reject_hard"
)

// Defaults.
const (
	DefaultHeartbeat       = 15 * time.Second
	DefaultWriteTimeout    = 10 * time.Second
	DefaultMaxMessageBytes = 64 << 10
)

// Options configure the endpoint.
type Options struct {
	// AllowedOrigins are extra origins (host patterns, as
	// github.com/coder/websocket's OriginPatterns) besides the request's
	// own host. Requests without an Origin header (not browsers) are
	// always accepted.
	AllowedOrigins []string
	// Heartbeat is the ping interval (default 15 s).
	Heartbeat time.Duration
	// WriteTimeout bounds writing one message (default 10 s).
	WriteTimeout time.Duration
	// MaxMessageBytes bounds one client message (default 64 KiB).
	MaxMessageBytes int64
	// Logger (default: discard).
	Logger *slog.Logger
}

// Handler serves the endpoint.
type Handler struct {
	broker *approval.Broker // its event stream and batch context
	gate   toolgate.Gate    // answers, as the caller
	opts   Options
}

// New returns the endpoint's handler over a broker.
func New(b *approval.Broker, opts Options) *Handler {
	if opts.Heartbeat <= 0 {
		opts.Heartbeat = DefaultHeartbeat
	}
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = DefaultWriteTimeout
	}
	if opts.MaxMessageBytes <= 0 {
		opts.MaxMessageBytes = DefaultMaxMessageBytes
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Handler{broker: b, gate: b.Gate(), opts: opts}
}

// Mount is the route for server.Deps.Mounts: GET /v1/ws/approvals, for
// approvers.
func (h *Handler) Mount() mount.Route {
	return mount.Route{Method: http.MethodGet, Path: Path, Role: tokens.RoleApprover, Handler: h.Serve, Holds: true}
}

// ApprovalNeeded asks the client about one call.
type ApprovalNeeded struct {
	Type           string         `json:"type"`
	ApprovalID     string         `json:"approval_id"`
	Tool           string         `json:"tool"`
	Arguments      map[string]any `json:"arguments"`
	BatchRemaining []BatchCall    `json:"batch_remaining"`
	Session        string         `json:"session,omitempty"`
	// Origin is where the tool comes from ("mcp:github" for
	// mcp__github__… tools).
	Origin    string    `json:"origin,omitempty"`
	Reason    string    `json:"reason,omitempty"`
	ExpiresAt time.Time `json:"expires_at"`
}

// BatchCall is a call still to come in the batch; Arguments is its
// argument object as a JSON string.
type BatchCall struct {
	Tool      string `json:"tool"`
	Arguments string `json:"arguments"`
}

// Answer is the client's answer. Other fields (the "type" some clients
// send, e.g. "approval_response") are ignored.
type Answer struct {
	// ApprovalID names the approval; empty answers the one last asked.
	ApprovalID string `json:"approval_id,omitempty"`
	Approved   *bool  `json:"approved"`
	// Scope is once (default) or session.
	Scope string `json:"scope,omitempty"`
	// Mode is reject_soft or reject_hard (default).
	Mode     string `json:"mode,omitempty"`
	Feedback string `json:"feedback,omitempty"`
}

// Resolved says the approval asked last is settled.
type Resolved struct {
	Type       string          `json:"type"`
	ApprovalID string          `json:"approval_id"`
	Status     toolgate.Status `json:"status"`
	// Message is what the agent was told: the denial message, the
	// timeout reason, empty for an approval.
	Message string `json:"message,omitempty"`
	// Scope is the approval's scope.
	Scope toolgate.Scope `json:"scope,omitempty"`
}

// ErrorMessage reports a client message the server could not use.
type ErrorMessage struct {
	Type       string `json:"type"`
	Message    string `json:"message"`
	ApprovalID string `json:"approval_id,omitempty"`
}

// NeededFor returns the approval_needed message for an approval.
func NeededFor(a *toolgate.Approval) ApprovalNeeded {
	m := ApprovalNeeded{
		Type: TypeApprovalNeeded, ApprovalID: a.ID, Tool: a.Call.Tool, Arguments: a.Call.Args,
		BatchRemaining: make([]BatchCall, 0, len(a.BatchRemaining)),
		Session:        a.Call.Session, Origin: a.Call.Origin, Reason: a.Decision.Reason, ExpiresAt: a.ExpiresAt,
	}
	if m.Arguments == nil {
		m.Arguments = map[string]any{}
	}
	for _, c := range a.BatchRemaining {
		args := c.Args
		if args == nil {
			args = map[string]any{}
		}
		m.BatchRemaining = append(m.BatchRemaining, BatchCall{Tool: c.Tool, Arguments: PythonJSON(args)})
	}
	return m
}

// PythonJSON encodes v as Python's json.dumps does by default (", " and
// ": " separators), the form seed 002's batch_remaining arguments take.
func PythonJSON(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "{}"
	}
	compact := strings.TrimSuffix(b.String(), "\n")
	var out strings.Builder
	out.Grow(len(compact) + len(compact)/8)
	inString, escaped := false, false
	for i := 0; i < len(compact); i++ {
		c := compact[i]
		out.WriteByte(c)
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && (c == ',' || c == ':'):
			out.WriteByte(' ')
		}
	}
	return out.String()
}

// Serve is the endpoint: ?session= and ?workspace= narrow it to one
// session or workspace. Answers are recorded as the caller, via "ws".
func (h *Handler) Serve(w http.ResponseWriter, r *http.Request, caller tokens.Entry) error {
	if err := stream.CheckOrigin(r, h.opts.AllowedOrigins); err != nil {
		return err
	}
	q := r.URL.Query()
	f := toolgate.EventFilter{Session: q.Get("session"), Workspace: q.Get("workspace")}
	c, err := stream.AcceptWebSocket(w, r, h.opts.AllowedOrigins)
	if err != nil {
		return nil // Accept wrote the response
	}
	defer c.CloseNow()
	c.SetReadLimit(h.opts.MaxMessageBytes)
	by := caller.Actor("ws")
	ctx, cancel := context.WithCancel(toolgate.WithActor(context.WithoutCancel(r.Context()), by))
	defer cancel()
	s := &session{h: h, ctx: ctx, ws: &stream.WebSocket{
		Conn: c, Heartbeat: h.opts.Heartbeat, WriteTimeout: h.opts.WriteTimeout,
		EndReason: "event stream ended; reconnect",
		Slow:      func() { h.opts.Logger.Warn("websocket approvals client too slow; closing", "approver", by.Name) },
	}}
	return s.run(f, cancel)
}

// session is one client connection.
type session struct {
	h  *Handler
	ws *stream.WebSocket
	// ctx carries the caller (toolgate.WithActor): answers are its.
	ctx context.Context
	// queue holds the pending approvals the client has not answered, in
	// order; asked is the one last sent (the head), "" if none.
	queue []*toolgate.Approval
	asked string
}

func (s *session) run(f toolgate.EventFilter, cancel context.CancelFunc) error {
	answers := make(chan []byte)
	stream.ReadMessages(s.ctx, cancel, s.ws.Conn, answers, func(typ websocket.MessageType, data []byte) []byte {
		if typ != websocket.MessageText {
			return nil // answered with an error
		}
		return data
	})
	sub := s.h.broker.Subscribe(s.ctx, f)
	defer sub.Close()
	_ = stream.Serve(s.ctx, s.ws, sub.Events(), s.event, answers, s.answer)
	return nil
}

// write sends one message; an error means the client is gone.
func (s *session) write(v any) error { return s.ws.WriteJSON(s.ctx, v) }

// event tracks the pending approvals from the broker's events.
func (s *session) event(e *toolgate.Event) error {
	a := e.Approval
	if a == nil {
		return nil
	}
	switch e.Type {
	case toolgate.EventApprovalRequested:
		if a.Status != toolgate.StatusPending || s.index(a.ID) >= 0 {
			return nil
		}
		s.queue = append(s.queue, a)
	case toolgate.EventApprovalResolved:
		if err := s.settled(a, false); err != nil {
			return err
		}
	}
	return s.ask()
}

func (s *session) index(id string) int {
	for i, a := range s.queue {
		if a.ID == id {
			return i
		}
	}
	return -1
}

// settled drops a resolved approval; if it was the one asked, or the
// client answered it by id, the client is told.
func (s *session) settled(a *toolgate.Approval, answered bool) error {
	i := s.index(a.ID)
	if i < 0 {
		return nil
	}
	s.queue = append(s.queue[:i], s.queue[i+1:]...)
	asked := s.asked == a.ID
	if asked {
		s.asked = ""
	}
	if !asked && !answered {
		return nil
	}
	msg := Resolved{Type: TypeApprovalResolved, ApprovalID: a.ID, Status: a.Status}
	if res := a.Resolution; res != nil {
		msg.Scope = res.Scope
		if a.Status != toolgate.StatusApproved {
			msg.Message = res.Reason
		}
	}
	return s.write(msg)
}

// ask sends approval_needed for the first pending approval if the client
// is not already answering one.
// An approval settled meanwhile (a hard deny ends the rest of its
// session's calls before their events arrive) is dropped, not asked.
func (s *session) ask() error {
	for s.asked == "" && len(s.queue) > 0 {
		a := s.queue[0]
		if cur, err := s.h.broker.Get(s.ctx, a.ID); err == nil && cur.Status != toolgate.StatusPending {
			s.queue = s.queue[1:]
			continue
		}
		s.asked = a.ID
		m := NeededFor(a)
		if len(a.BatchRemaining) == 0 {
			m.BatchRemaining = append(m.BatchRemaining, s.waiting(a)...)
		}
		return s.write(m)
	}
	return nil
}

// waiting is the batch context of a call that came without a batch: the
// other calls of its session waiting for an answer, as the gateway reads
// them now. Context is a help: a read that fails leaves it out.
func (s *session) waiting(a *toolgate.Approval) []BatchCall {
	as, err := s.h.broker.WithWaiting(s.ctx, []*toolgate.Approval{a})
	if err != nil || as[0].SessionWaiting == nil {
		return nil
	}
	var out []BatchCall
	for _, w := range as[0].SessionWaiting.Calls {
		x, err := s.h.broker.Get(s.ctx, w.ApprovalID)
		if err != nil || x.Status != toolgate.StatusPending {
			continue
		}
		args := x.Call.Args
		if args == nil {
			args = map[string]any{}
		}
		out = append(out, BatchCall{Tool: x.Call.Tool, Arguments: PythonJSON(args)})
	}
	return out
}

// fail tells the client a message could not be used.
func (s *session) fail(id, format string, args ...any) error {
	return s.write(ErrorMessage{Type: TypeError, Message: fmt.Sprintf(format, args...), ApprovalID: id})
}

// answer applies one client answer through the broker.
func (s *session) answer(data []byte) error {
	if data == nil {
		return s.fail("", "send answers as JSON text messages")
	}
	// Lenient, as the seed's server is: unknown fields (a "type", a
	// client's own bookkeeping) are ignored. Only "approved" must be there
	// and be a boolean: anything else about the answer is never a yes.
	var ans Answer
	if err := json.Unmarshal(data, &ans); err != nil {
		return s.fail("", "answer is not a valid JSON object: %s (want {\"approved\": true|false, \"scope\": \"once\"|\"session\", \"mode\": \"reject_soft\"|\"reject_hard\", \"feedback\": \"…\"})", strings.TrimPrefix(err.Error(), "json: "))
	}
	if ans.Approved == nil {
		return s.fail(ans.ApprovalID, `answer has no "approved" field`)
	}
	id := ans.ApprovalID
	if id == "" {
		id = s.asked
	}
	if id == "" {
		return s.fail("", "no approval is waiting for an answer")
	}
	var (
		resolved *toolgate.Approval
		err      error
	)
	if *ans.Approved {
		req := toolgate.ApproveRequest{Scope: toolgate.ScopeOnce}
		switch ans.Scope {
		case "", ScopeOnce:
		case ScopeSession:
			// Save the tool as approved for the session: a tool grant,
			// never a pattern or a tier.
			req.Scope, req.Grant = toolgate.ScopeSession, toolgate.GrantTool
		default:
			return s.fail(id, "unknown scope %q (want once or session)", ans.Scope)
		}
		// A mode sent with an approval is ignored: it says what a
		// rejection does.
		resolved, err = s.h.gate.Approve(s.ctx, id, req)
	} else {
		req := toolgate.DenyRequest{Mode: toolgate.DenyHard, Feedback: ans.Feedback}
		switch ans.Mode {
		case "", RejectHard:
		case RejectSoft:
			req.Mode = toolgate.DenySoft
		default:
			return s.fail(id, "unknown mode %q (want reject_soft or reject_hard)", ans.Mode)
		}
		// A scope sent with a rejection is ignored: a rejection is of
		// this call (and, hard, its batch), never remembered.
		resolved, err = s.h.gate.Deny(s.ctx, id, req)
	}
	if err != nil {
		if toolgate.ErrorCodeOf(err) == toolgate.EConflict && resolved != nil {
			// Settled meanwhile: tell the client how, and move on.
			if err := s.settled(resolved, true); err != nil {
				return err
			}
			if err := s.fail(id, "%s", toolgate.ErrorMessageOf(err)); err != nil {
				return err
			}
			return s.ask()
		}
		return s.fail(id, "%s", toolgate.ErrorMessageOf(err))
	}
	if err := s.settled(resolved, true); err != nil {
		return err
	}
	return s.ask()
}
