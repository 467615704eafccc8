package trpc

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/stream"
)

// Event types on agent.onEvents.
const (
	// TypeApprovalRequired is seed 001's event: a call waits for a human.
	TypeApprovalRequired = "tool_approval_required"
	// TypeApprovalResolved says a pending approval was answered, expired
	// or cancelled, so a client can take its prompt down. It is a
	// toolgate addition; clients that do not know it ignore it.
	TypeApprovalResolved = "tool_approval_resolved"
)

// ApprovalRequired is the tool_approval_required event.
type ApprovalRequired struct {
	Type       string `json:"type"`
	ApprovalID string `json:"approvalId"`
	ToolName   string `json:"toolName"`
	// Arguments are the call's arguments as a JSON string.
	Arguments string `json:"arguments"`
	SessionID string `json:"sessionId"`
}

// ApprovalResolved is the tool_approval_resolved event.
type ApprovalResolved struct {
	Type       string `json:"type"`
	ApprovalID string `json:"approvalId"`
	SessionID  string `json:"sessionId"`
	// Status is approved, denied, expired or cancelled.
	Status toolgate.Status `json:"status"`
}

// EventsInput is agent.onEvents's input. Every field is optional.
type EventsInput struct {
	// SessionID limits the events to one session.
	SessionID string `json:"sessionId,omitempty"`
	// WorkerID limits them to one workspace (the seed's worker); worker
	// and workspace are accepted as aliases.
	WorkerID string `json:"workerId,omitempty"`
	// LastEventID is set by the client when it reconnects after a
	// tracked event (Config.Tracked).
	LastEventID string `json:"lastEventId,omitempty"`
}

// eventOf maps a broker event to the subscription's event, if it has one.
func eventOf(e *toolgate.Event) (any, bool) {
	a := e.Approval
	if a == nil {
		return nil, false
	}
	switch {
	case e.Type == toolgate.EventApprovalRequested && a.Status == toolgate.StatusPending:
		args := []byte("{}")
		if len(a.Call.Args) > 0 {
			var err error
			if args, err = json.Marshal(a.Call.Args); err != nil {
				args = []byte("{}")
			}
		}
		return ApprovalRequired{Type: TypeApprovalRequired, ApprovalID: a.ID, ToolName: a.Call.Tool, Arguments: string(args), SessionID: a.Call.Session}, true
	case e.Type == toolgate.EventApprovalResolved && a.Status.Final():
		return ApprovalResolved{Type: TypeApprovalResolved, ApprovalID: a.ID, SessionID: a.Call.Session, Status: a.Status}, true
	}
	return nil, false
}

// parseEventsInput reads agent.onEvents's input; the Last-Event-ID header
// and ?lastEventId= stand in for the input's lastEventId, as @trpc/server
// merges them.
func parseEventsInput(r *http.Request, raw json.RawMessage) (EventsInput, *Error) {
	var in EventsInput
	var worker, workspace string
	if len(raw) > 0 && string(raw) != "null" {
		if err := decodeInput(raw,
			field{name: "sessionId", str: &in.SessionID},
			field{name: "workerId", str: &in.WorkerID},
			field{name: "worker", str: &worker},
			field{name: "workspace", str: &workspace},
			field{name: "lastEventId", str: &in.LastEventID},
		); err != nil {
			return in, asError(err)
		}
	}
	for _, alias := range []string{worker, workspace} {
		if in.WorkerID == "" {
			in.WorkerID = alias
		}
	}
	for _, v := range []string{r.Header.Get("Last-Event-ID"), r.URL.Query().Get("lastEventId"), r.URL.Query().Get("Last-Event-Id")} {
		if v != "" {
			in.LastEventID = v
			break
		}
	}
	return in, nil
}

// sse writes Server-Sent Events in @trpc/server's layout: "event:",
// "data:", "id:" lines, then a blank line (and one more, as
// sseStreamProducer ends every message with "\n\n").
type sse struct {
	*stream.SSE
	buf []byte
}

func (s *sse) send(event string, data []byte, id string) error {
	s.buf = s.buf[:0]
	if event != "" {
		s.buf = append(s.buf, "event: "...)
		s.buf = append(s.buf, event...)
		s.buf = append(s.buf, '\n')
	}
	s.buf = append(s.buf, "data: "...)
	s.buf = append(s.buf, data...) // compact JSON: no newlines
	s.buf = append(s.buf, '\n')
	if id != "" {
		s.buf = append(s.buf, "id: "...)
		s.buf = append(s.buf, id...)
		s.buf = append(s.buf, '\n')
	}
	s.buf = append(s.buf, "\n\n"...)
	return s.Write(s.buf)
}

// startSSE writes the stream's headers and the connected event.
func (h *Handler) startSSE(w http.ResponseWriter) (*sse, error) {
	hdr := w.Header()
	hdr.Set("Cache-Control", "no-cache, no-transform")
	hdr.Set("Vary", "trpc-accept, accept")
	s := &sse{SSE: stream.StartSSE(w, h.cfg.WriteTimeout)}
	// The connected event carries the client options (none).
	if err := s.send("connected", []byte("{}"), ""); err != nil {
		return nil, err
	}
	return s, nil
}

// streamError answers a subscription that cannot start: connected, then
// the error as a serialized-error event.
func (h *Handler) streamError(w http.ResponseWriter, r *http.Request, e *Error, path string) error {
	s, err := h.startSSE(w)
	if err != nil {
		return nil // the client went away
	}
	data, err := json.Marshal(e.shape(path))
	if err != nil {
		return fmt.Errorf("trpc: encode error: %w", err)
	}
	_ = s.send("serialized-error", data, "")
	return nil
}

// subscribe streams agent.onEvents: the approvals still pending (replay),
// then live events, until the client goes away. When the stream ends
// from the server's side (the broker closed, or the client fell too far
// behind) the connection just closes: EventSource reconnects and the
// client is sent the pending approvals again.
func (h *Handler) subscribe(w http.ResponseWriter, r *http.Request, raw json.RawMessage) error {
	in, perr := parseEventsInput(r, raw)
	if perr != nil {
		return h.streamError(w, r, perr, "agent.onEvents")
	}
	f := toolgate.EventFilter{Session: in.SessionID, Workspace: in.WorkerID}
	if h.cfg.Tracked && in.LastEventID != "" {
		// Ids are sequence numbers; anything else (an id from another
		// server) only means "replay what is pending".
		if n, err := strconv.ParseInt(strings.TrimSpace(in.LastEventID), 10, 64); err == nil && n > 0 {
			f.AfterSeq = n
		}
	}
	ctx := r.Context()
	sub := h.broker.Subscribe(ctx, f)
	defer sub.Close()
	s, err := h.startSSE(w)
	if err != nil {
		return nil
	}
	return s.Run(ctx, h.cfg.Heartbeat, func() error { return s.send("ping", nil, "") },
		sub.Events(), func(e *toolgate.Event) error {
			ev, ok := eventOf(e)
			if !ok {
				return nil
			}
			data, err := json.Marshal(ev)
			if err != nil {
				return fmt.Errorf("trpc: encode event %d: %w", e.Seq, err)
			}
			id := ""
			if h.cfg.Tracked {
				id = strconv.FormatInt(e.Seq, 10)
			}
			return s.send("", data, id)
		})
}
