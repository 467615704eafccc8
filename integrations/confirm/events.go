package confirm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/coder/websocket"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
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
	f := approval.EventFilter{Session: r.URL.Query().Get("sessionId")}
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
func (c *Confirm) streamSSE(w http.ResponseWriter, r *http.Request, f approval.EventFilter) error {
	ctx := r.Context()
	sub := c.broker.Subscribe(ctx, f)
	defer sub.Close()
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	write := func(p []byte) error {
		_ = rc.SetWriteDeadline(time.Now().Add(c.opts.WriteTimeout))
		if _, err := w.Write(p); err != nil {
			return err
		}
		return rc.Flush()
	}
	if write([]byte(": connected\n\n")) != nil {
		return nil
	}
	tick := time.NewTicker(c.opts.Heartbeat)
	defer tick.Stop()
	var buf []byte
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
			if write([]byte(": ping\n\n")) != nil {
				return nil
			}
		case e, ok := <-sub.Events():
			if !ok {
				return nil // the client reconnects and resumes
			}
			m, ok := c.messageOf(&e)
			if !ok {
				continue
			}
			data, err := json.Marshal(m)
			if err != nil {
				return fmt.Errorf("confirm: encode event %d: %w", e.Seq, err)
			}
			buf = append(buf[:0], "id: "...)
			buf = strconv.AppendInt(buf, e.Seq, 10)
			buf = append(buf, "\ndata: "...)
			buf = append(buf, data...)
			buf = append(buf, "\n\n"...)
			if write(buf) != nil {
				return nil
			}
		}
	}
}

// streamWebSocket sends each message as a JSON text message and applies
// the toolConfirmationResponse messages the client sends, answering each
// with toolConfirmationResult or error.
func (c *Confirm) streamWebSocket(w http.ResponseWriter, r *http.Request, f approval.EventFilter, caller tokens.Entry) error {
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: c.opts.AllowedOrigins})
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
	go func() {
		defer cancel()
		for {
			_, data, err := conn.Read(ctx)
			if err != nil {
				return
			}
			reply := c.wsAnswer(ctx, data, caller)
			select {
			case out <- reply:
			case <-ctx.Done():
				return
			}
		}
	}()
	send := func(m Message) error {
		data, err := json.Marshal(m)
		if err != nil {
			return fmt.Errorf("confirm: encode message: %w", err)
		}
		wctx, wcancel := context.WithTimeout(ctx, c.opts.WriteTimeout)
		defer wcancel()
		return conn.Write(wctx, websocket.MessageText, data)
	}
	tick := time.NewTicker(c.opts.Heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
			pctx, pcancel := context.WithTimeout(ctx, c.opts.WriteTimeout)
			err := conn.Ping(pctx)
			pcancel()
			if err != nil {
				return nil
			}
		case m := <-out:
			if send(m) != nil {
				return nil
			}
		case e, ok := <-sub.Events():
			if !ok {
				conn.Close(websocket.StatusTryAgainLater, "event stream ended; reconnect")
				return nil
			}
			if m, ok := c.messageOf(&e); ok {
				if send(m) != nil {
					return nil
				}
			}
		}
	}
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
