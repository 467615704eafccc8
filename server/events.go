package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/stream"
)

// handleEvents streams the broker's events: over WebSocket for an upgrade
// request, else as Server-Sent Events for Accept: text/event-stream. A
// stream starts with the events after ?after= (or Last-Event-ID), then
// every approval still pending (replay), then live events.
func (s *server) handleEvents(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	f := toolgate.EventFilter{Session: q.Get("session"), Workspace: q.Get("workspace")}
	for _, v := range []string{q.Get("after"), r.Header.Get("Last-Event-ID")} {
		if v == "" {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || n < 0 {
			return toolgate.Errorf(toolgate.EInvalid, "after / Last-Event-ID %q: want an event sequence number", v)
		}
		f.AfterSeq = max(f.AfterSeq, n)
	}
	switch {
	case headerHasToken(r.Header, "Connection", "upgrade") && headerHasToken(r.Header, "Upgrade", "websocket"):
		return s.streamWebSocket(w, r, f)
	case acceptsEventStream(r.Header.Get("Accept")):
		return s.streamSSE(w, r, f)
	}
	return errNotAcceptable
}

func headerHasToken(h http.Header, name, token string) bool {
	for _, v := range h.Values(name) {
		for t := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return true
			}
		}
	}
	return false
}

func acceptsEventStream(accept string) bool {
	for t := range strings.SplitSeq(accept, ",") {
		mt, _, _ := strings.Cut(t, ";")
		if strings.EqualFold(strings.TrimSpace(mt), "text/event-stream") {
			return true
		}
	}
	return false
}

// streamSSE writes events as Server-Sent Events: "id: <seq>", "event:
// <type>", "data: <json>", and a comment every heartbeat interval.
func (s *server) streamSSE(w http.ResponseWriter, r *http.Request, f toolgate.EventFilter) error {
	ctx := r.Context()
	sub := s.broker.Subscribe(ctx, f)
	defer sub.Close()
	s.metrics.subscribers.Add(1)
	defer s.metrics.subscribers.Add(-1)

	sse := stream.StartSSE(w, s.limits.WriteTimeout)
	// Tell the client how long to wait before reconnecting.
	if err := sse.Write([]byte("retry: 2000\n\n")); err != nil {
		return errClientGone
	}
	// When the broker closes or the client falls behind the stream ends:
	// the client reconnects with Last-Event-ID and resumes.
	return sse.Run(ctx, s.limits.Heartbeat, func() error { return sse.Comment("heartbeat") },
		sub.Events(), func(e *toolgate.Event) error {
			data, err := json.Marshal(e)
			if err != nil {
				return fmt.Errorf("encode event %d: %w", e.Seq, err)
			}
			return sse.Event(e.Seq, string(e.Type), data) // json.Marshal output has no newlines
		})
}

// streamWebSocket sends each event as one JSON text message and pings the
// client every heartbeat interval. Messages from the client are ignored.
func (s *server) streamWebSocket(w http.ResponseWriter, r *http.Request, f toolgate.EventFilter) error {
	if err := stream.CheckOrigin(r, s.origins); err != nil {
		return err
	}
	c, err := stream.AcceptWebSocket(w, r, s.origins)
	if err != nil {
		return errClientGone // Accept wrote the response
	}
	defer c.CloseNow()
	s.metrics.subscribers.Add(1)
	defer s.metrics.subscribers.Add(-1)
	// CloseRead answers pings and the close handshake, and cancels ctx
	// when the client goes away.
	ctx := c.CloseRead(context.WithoutCancel(r.Context()))
	sub := s.broker.Subscribe(ctx, f)
	defer sub.Close()
	ws := &stream.WebSocket{
		Conn: c, Heartbeat: s.limits.Heartbeat, WriteTimeout: s.limits.WriteTimeout,
		EndReason: "event stream ended; reconnect with ?after=<last seq>",
		Slow:      func() { s.log.Warn("websocket client too slow; closing", "token", callerOf(w).Name) },
	}
	return ws.Run(ctx, sub.Events(), func(e *toolgate.Event) error {
		data, err := json.Marshal(e)
		if err != nil {
			return fmt.Errorf("encode event %d: %w", e.Seq, err)
		}
		return ws.Write(ctx, data)
	})
}
