package confirm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/coder/websocket"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/present"
	"github.com/toolgate/toolgate/internal/stream"
	"github.com/toolgate/toolgate/tokens"
)

// Message types on the event stream.
const (
	// TypeRequest is seed 004's toolConfirmationRequest.
	TypeRequest = "toolConfirmationRequest"
	// TypeResponse is an answer a WebSocket client sends
	// (toolConfirmationResponse).
	TypeResponse = "toolConfirmationResponse"
	// TypeResolved says a confirmation was answered, expired or
	// cancelled, so a UI can close its dialog. A toolgate addition.
	TypeResolved = "toolConfirmationResolved"
	// TypeResult answers a WebSocket client's response: {executionId,
	// success: true}. A toolgate addition.
	TypeResult = "toolConfirmationResult"
	// TypeError reports a WebSocket message that could not be applied:
	// {executionId?, error}. A toolgate addition.
	TypeError = "error"
)

// Message is one message of the event stream, as seed 004's WebSocket
// bridge sends it: {type, data}.
type Message struct {
	Type string `json:"type"`
	Data any    `json:"data"`
}

// Request is seed 004's ToolConfirmationEvent.
type Request struct {
	ToolName string         `json:"toolName"`
	Args     map[string]any `json:"args"`
	// Description is the tool's description, when the host gave one.
	Description string `json:"description,omitempty"`
	ExecutionID string `json:"executionId"`
	// Timestamp is when the call was requested, as JavaScript's
	// Date.toJSON writes it.
	Timestamp string `json:"timestamp"`
	SessionID string `json:"sessionId"`
}

// Resolved is the toolConfirmationResolved message's data.
type Resolved struct {
	ExecutionID string `json:"executionId"`
	SessionID   string `json:"sessionId"`
	Approved    bool   `json:"approved"`
	// Status is approved, denied, expired or cancelled.
	Status toolgate.Status `json:"status"`
}

// jsTime is JavaScript's Date.toISOString layout.
const jsTime = "2006-01-02T15:04:05.000Z"

// messageOf maps a broker event to a stream message, if it has one.
func (c *Confirm) messageOf(e *toolgate.Event) (Message, bool) {
	a := e.Approval
	if a == nil {
		return Message{}, false
	}
	switch {
	case e.Type == toolgate.EventApprovalRequested && a.Status == toolgate.StatusPending:
		args := a.Call.Args
		if args == nil {
			args = map[string]any{}
		}
		c.mu.Lock()
		desc := c.descriptions[a.Call.Session+"\x00"+a.Call.ID]
		c.mu.Unlock()
		// A seed-004 UI shows the description: it also says where an
		// MCP tool comes from (seed 003's "Origin: MCP server tool").
		if o := present.Origin(a.Call.Origin); o != "" && strings.HasPrefix(a.Call.Origin, "mcp") {
			if desc == "" {
				desc = o
			} else {
				desc += " (" + o + ")"
			}
		}
		return Message{Type: TypeRequest, Data: Request{
			ToolName: a.Call.Tool, Args: args, Description: desc, ExecutionID: a.ID,
			Timestamp: a.CreatedAt.UTC().Format(jsTime), SessionID: a.Call.Session,
		}}, true
	case e.Type == toolgate.EventApprovalResolved && a.Status.Final():
		return Message{Type: TypeResolved, Data: Resolved{
			ExecutionID: a.ID, SessionID: a.Call.Session, Approved: a.Status == toolgate.StatusApproved, Status: a.Status,
		}}, true
	}
	return Message{}, false
}

// handleEvents is GET /api/events: the confirmation requests, as
// WebSocket messages for an upgrade request, else as Server-Sent Events.
// ?sessionId= filters; every pending confirmation is sent first.
func (c *Confirm) handleEvents(w http.ResponseWriter, r *http.Request, caller tokens.Entry) error {
	f := toolgate.EventFilter{Session: r.URL.Query().Get("sessionId")}
	if strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		return c.streamWebSocket(w, r, f, caller)
	}
	if v := r.Header.Get("Last-Event-ID"); v != "" {
		if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil && n > 0 {
			f.AfterSeq = n
		}
	}
	return c.streamSSE(w, r, f)
}

// streamSSE writes each message as an SSE event: "id: SEQ" and "data:
// {type, data}", so EventSource's onmessage gets every message and a
// reconnecting client resumes with Last-Event-ID.
func (c *Confirm) streamSSE(w http.ResponseWriter, r *http.Request, f toolgate.EventFilter) error {
	ctx := r.Context()
	sub := c.broker.Subscribe(ctx, f)
	defer sub.Close()
	sse := stream.StartSSE(w, c.opts.WriteTimeout)
	if sse.Write([]byte(": connected\n\n")) != nil {
		return nil
	}
	// When the subscription ends the client reconnects and resumes.
	return sse.Run(ctx, c.opts.Heartbeat, func() error { return sse.Comment("ping") },
		sub.Events(), func(e *toolgate.Event) error {
			m, ok := c.messageOf(e)
			if !ok {
				return nil
			}
			data, err := json.Marshal(m)
			if err != nil {
				return fmt.Errorf("confirm: encode event %d: %w", e.Seq, err)
			}
			return sse.Event(e.Seq, "", data)
		})
}

// streamWebSocket sends each message as a JSON text message and applies
// the toolConfirmationResponse messages the client sends, answering each
// with toolConfirmationResult or error.
func (c *Confirm) streamWebSocket(w http.ResponseWriter, r *http.Request, f toolgate.EventFilter, caller tokens.Entry) error {
	conn, err := stream.AcceptWebSocket(w, r, c.opts.AllowedOrigins)
	if err != nil {
		return nil // Accept wrote the response
	}
	defer conn.CloseNow()
	conn.SetReadLimit(64 << 10)
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	defer cancel()
	sub := c.broker.Subscribe(ctx, f)
	defer sub.Close()

	out := make(chan Message, 16)
	stream.ReadMessages(ctx, cancel, conn, out, func(_ websocket.MessageType, data []byte) Message {
		return c.wsAnswer(ctx, data, caller)
	})
	ws := &stream.WebSocket{Conn: conn, Heartbeat: c.opts.Heartbeat, WriteTimeout: c.opts.WriteTimeout,
		EndReason: "event stream ended; reconnect"}
	_ = stream.Serve(ctx, ws, sub.Events(), func(e *toolgate.Event) error {
		if m, ok := c.messageOf(e); ok {
			return ws.WriteJSON(ctx, m)
		}
		return nil
	}, out, func(m Message) error { return ws.WriteJSON(ctx, m) })
	return nil
}

// wsAnswer applies one client message and returns the reply.
func (c *Confirm) wsAnswer(ctx context.Context, data []byte, caller tokens.Entry) Message {
	var msg struct {
		Type string          `json:"type"`
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(data, &msg); err != nil {
		return Message{Type: TypeError, Data: map[string]string{"error": "malformed JSON message"}}
	}
	if msg.Type != TypeResponse {
		return Message{Type: TypeError, Data: map[string]string{"error": fmt.Sprintf("unknown message type %q (want %s)", msg.Type, TypeResponse)}}
	}
	var resp Response
	if err := json.Unmarshal(msg.Data, &resp); err != nil {
		return Message{Type: TypeError, Data: map[string]string{"error": "data: want {executionId, approved, rememberChoice?, sessionId?}"}}
	}
	if resp.ExecutionID == "" {
		return Message{Type: TypeError, Data: map[string]string{"error": "data.executionId: required"}}
	}
	if err := c.Respond(ctx, resp.ExecutionID, resp, caller); err != nil {
		msg := "internal error"
		var br badRequest
		switch {
		case errors.Is(err, errNotFound):
			msg = NotFoundMessage
		case errors.As(err, &br):
			msg = string(br)
		default:
			c.opts.Logger.Error("confirm: websocket answer failed", "execution", resp.ExecutionID, "err", err)
		}
		return Message{Type: TypeError, Data: map[string]string{"executionId": resp.ExecutionID, "error": msg}}
	}
	return Message{Type: TypeResult, Data: map[string]any{"executionId": resp.ExecutionID, "success": true}}
}
