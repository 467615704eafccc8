package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/coder/websocket"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
)

// handleEvents streams the broker's events: over WebSocket for an upgrade
// request, else as Server-Sent Events for Accept: text/event-stream. A
// stream starts with the events after ?after= (or Last-Event-ID), then
// every approval still pending (replay), then live events.
func (s *server) handleEvents(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	f := approval.EventFilter{Session: q.Get("session"), Workspace: q.Get("workspace")}
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
func (s *server) streamSSE(w http.ResponseWriter, r *http.Request, f approval.EventFilter) error {
	ctx := r.Context()
	rc := http.NewResponseController(w)
	sub := s.broker.Subscribe(ctx, f)
	defer sub.Close()
	s.metrics.subscribers.Add(1)
	defer s.metrics.subscribers.Add(-1)

	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	// Tell the client how long to wait before reconnecting.
	if err := s.sseWrite(w, rc, []byte("retry: 2000\n\n")); err != nil {
		return errClientGone
	}
	tick := time.NewTicker(s.limits.Heartbeat)
	defer tick.Stop()
	var buf []byte
	for {
		select {
		case <-ctx.Done():
			return errClientGone
		case <-tick.C:
			if err := s.sseWrite(w, rc, []byte(": heartbeat\n\n")); err != nil {
				return errClientGone
			}
		case e, ok := <-sub.Events():
			if !ok {
				// The broker closed or the client fell behind: it reconnects
				// with Last-Event-ID and resumes.
				return nil
			}
			data, err := json.Marshal(&e)
			if err != nil {
				return fmt.Errorf("encode event %d: %w", e.Seq, err)
			}
			buf = buf[:0]
			buf = append(buf, "id: "...)
			buf = strconv.AppendInt(buf, e.Seq, 10)
			buf = append(buf, "\nevent: "...)
			buf = append(buf, e.Type...)
			buf = append(buf, "\ndata: "...)
			buf = append(buf, data...) // json.Marshal output has no newlines
			buf = append(buf, "\n\n"...)
			if err := s.sseWrite(w, rc, buf); err != nil {
				return errClientGone
			}
		}
	}
}

func (s *server) sseWrite(w http.ResponseWriter, rc *http.ResponseController, p []byte) error {
	_ = rc.SetWriteDeadline(time.Now().Add(s.limits.WriteTimeout))
	if _, err := w.Write(p); err != nil {
		return err
	}
	return rc.Flush()
}

// checkOrigin accepts a WebSocket request with no Origin header (not a
// browser), an Origin of the request's own host, or one matching an
// allowed pattern.
func (s *server) checkOrigin(r *http.Request) error {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return toolgate.Errorf(toolgate.EForbidden, "bad Origin %q", origin)
	}
	if strings.EqualFold(u.Host, r.Host) {
		return nil
	}
	for _, p := range s.origins {
		target := u.Host
		if strings.Contains(p, "://") {
			target = u.Scheme + "://" + u.Host
		}
		if ok, _ := path.Match(strings.ToLower(p), strings.ToLower(target)); ok {
			return nil
		}
	}
	return toolgate.Errorf(toolgate.EForbidden, "WebSocket connections from origin %q are not allowed", origin)
}

// streamWebSocket sends each event as one JSON text message and pings the
// client every heartbeat interval. Messages from the client are ignored.
func (s *server) streamWebSocket(w http.ResponseWriter, r *http.Request, f approval.EventFilter) error {
	if err := s.checkOrigin(r); err != nil {
		return err
	}
	// The server's read and write timeouts must not end a long-lived
	// connection; the heartbeat and per-message timeouts bound it instead.
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: s.origins})
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
	tick := time.NewTicker(s.limits.Heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
			pctx, cancel := context.WithTimeout(ctx, s.limits.WriteTimeout)
			err := c.Ping(pctx)
			cancel()
			if err != nil {
				return nil
			}
		case e, ok := <-sub.Events():
			if !ok {
				c.Close(websocket.StatusTryAgainLater, "event stream ended; reconnect with ?after=<last seq>")
				return nil
			}
			data, err := json.Marshal(&e)
			if err != nil {
				return fmt.Errorf("encode event %d: %w", e.Seq, err)
			}
			wctx, cancel := context.WithTimeout(ctx, s.limits.WriteTimeout)
			err = c.Write(wctx, websocket.MessageText, data)
			cancel()
			if err != nil {
				if errors.Is(err, context.DeadlineExceeded) {
					s.log.Warn("websocket client too slow; closing", "token", callerOf(w).Name)
				}
				return nil
			}
		}
	}
}
