package stream

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/toolgate/toolgate"
)

// SSE writes a Server-Sent Events response. Every write has its own
// deadline (http.ResponseController) and is flushed at once.
type SSE struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
	buf     []byte
}

// StartSSE starts an event-stream response: Content-Type:
// text/event-stream, X-Accel-Buffering: no, Cache-Control: no-cache unless
// the caller set one, and status 200. writeTimeout bounds each write.
func StartSSE(w http.ResponseWriter, writeTimeout time.Duration) *SSE {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	if h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", "no-cache")
	}
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	return &SSE{w: w, rc: http.NewResponseController(w), timeout: writeTimeout}
}

// Write writes p as it is and flushes it. An error is ErrGone.
func (s *SSE) Write(p []byte) error {
	_ = s.rc.SetWriteDeadline(time.Now().Add(s.timeout))
	if _, err := s.w.Write(p); err != nil {
		return gone(err)
	}
	return gone(s.rc.Flush())
}

// Comment writes ": text" and a blank line, as heartbeats are written.
func (s *SSE) Comment(text string) error {
	s.buf = append(append(append(s.buf[:0], ": "...), text...), "\n\n"...)
	return s.Write(s.buf)
}

// Event writes one event: "id: <seq>", "event: <typ>" if typ is not
// empty, "data: <data>" and a blank line. data must hold no newline
// (compact JSON has none).
func (s *SSE) Event(seq int64, typ string, data []byte) error {
	s.buf = append(s.buf[:0], "id: "...)
	s.buf = strconv.AppendInt(s.buf, seq, 10)
	if typ != "" {
		s.buf = append(s.buf, "\nevent: "...)
		s.buf = append(s.buf, typ...)
	}
	s.buf = append(s.buf, "\ndata: "...)
	s.buf = append(s.buf, data...)
	s.buf = append(s.buf, "\n\n"...)
	return s.Write(s.buf)
}

// Run streams events until ctx is done or events closes: every heartbeat
// interval it calls beat (typically a Comment), and it calls event with
// each event. It returns nil then, or when a write fails (ErrGone); any
// other error from beat or event is returned.
func (s *SSE) Run(ctx context.Context, heartbeat time.Duration, beat func() error,
	events <-chan toolgate.Event, event func(*toolgate.Event) error) error {
	_, err := loop[struct{}](ctx, heartbeat, beat, events, event, nil, nil)
	return err
}
