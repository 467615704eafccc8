package stream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/coder/websocket"

	"github.com/toolgate/toolgate"
)

// AcceptWebSocket accepts a WebSocket upgrade from origins
// (websocket.AcceptOptions.OriginPatterns) after clearing the server's
// read and write deadlines: they must not end a long-lived connection,
// the heartbeat and per-message timeouts bound it instead. On error,
// Accept has written the response.
func AcceptWebSocket(w http.ResponseWriter, r *http.Request, origins []string) (*websocket.Conn, error) {
	if err := CheckOrigin(r, origins); err != nil {
		http.Error(w, toolgate.ErrorMessageOf(err), http.StatusForbidden)
		return nil, err
	}
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
	return websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: origins})
}

// WebSocket streams JSON text messages over an accepted connection.
type WebSocket struct {
	Conn *websocket.Conn
	// Heartbeat is the ping interval; WriteTimeout bounds a ping or one
	// message.
	Heartbeat, WriteTimeout time.Duration
	// EndReason is the close reason sent, with StatusTryAgainLater, when
	// the event stream ends.
	EndReason string
	// Slow, if set, is called when a message write times out.
	Slow func()
}

// Write sends data as one text message. An error is ErrGone.
func (ws *WebSocket) Write(ctx context.Context, data []byte) error {
	wctx, cancel := context.WithTimeout(ctx, ws.WriteTimeout)
	defer cancel()
	err := ws.Conn.Write(wctx, websocket.MessageText, data)
	if err != nil && ws.Slow != nil && errors.Is(err, context.DeadlineExceeded) {
		ws.Slow()
	}
	return gone(err)
}

// WriteJSON sends v as one JSON text message.
func (ws *WebSocket) WriteJSON(ctx context.Context, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %T: %w", v, err)
	}
	return ws.Write(ctx, data)
}

func (ws *WebSocket) ping(ctx context.Context) error {
	pctx, cancel := context.WithTimeout(ctx, ws.WriteTimeout)
	defer cancel()
	return gone(ws.Conn.Ping(pctx))
}

// Run streams events until ctx is done, a ping or write fails, or events
// closes (the connection is then closed with StatusTryAgainLater and
// EndReason), returning nil; it returns any other error from event. The
// caller reads the connection, or calls Conn.CloseRead for ctx.
func (ws *WebSocket) Run(ctx context.Context, events <-chan toolgate.Event, event func(*toolgate.Event) error) error {
	return Serve[struct{}](ctx, ws, events, event, nil, nil)
}

// Serve is Run that also calls message with each value from in (as
// ReadMessages sends them), in the same goroutine as event.
//
// The heartbeat pings from a goroutine of its own: a ping waits for its
// pong, which the connection only reads while ReadMessages is reading, and
// ReadMessages waits for this loop to take its last message. Pinging from
// the loop deadlocked the two until the write timeout closed the stream.
func Serve[M any](ctx context.Context, ws *WebSocket, events <-chan toolgate.Event, event func(*toolgate.Event) error,
	in <-chan M, message func(M) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		t := time.NewTicker(ws.Heartbeat)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if ws.ping(ctx) != nil {
					cancel() // the client went away: end the stream
					return
				}
			}
		}
	}()
	ended, err := loop[M](ctx, 0, nil, events, event, in, message)
	if ended {
		ws.Conn.Close(websocket.StatusTryAgainLater, ws.EndReason)
	}
	return err
}

// ReadMessages reads the client's messages in a goroutine of its own,
// sending parse's result for each to out, until reading fails or ctx is
// done; then it calls cancel.
func ReadMessages[M any](ctx context.Context, cancel context.CancelFunc, conn *websocket.Conn, out chan<- M,
	parse func(typ websocket.MessageType, data []byte) M) {
	go func() {
		defer cancel()
		for {
			typ, data, err := conn.Read(ctx)
			if err != nil {
				return
			}
			select {
			case out <- parse(typ, data):
			case <-ctx.Done():
				return
			}
		}
	}()
}

// CheckOrigin accepts a WebSocket request with no Origin header (not a
// browser), an Origin naming the address the gateway listens on (the
// connection's local address, and localhost with its port when that is a
// loopback address), or one matching an allowed pattern (path.Match,
// against the host, or scheme://host for a pattern with a scheme).
//
// The request's own Host header is not trusted: under DNS rebinding a
// page from evil.example reaches the gateway with Host evil.example, and
// its Origin matches it. A gateway behind a proxy lists its public
// origin in allowed_origins.
func CheckOrigin(r *http.Request, allowed []string) error {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return toolgate.Errorf(toolgate.EForbidden, "bad Origin %q", origin)
	}
	if listening(r, u.Host) {
		return nil
	}
	for _, p := range allowed {
		target := u.Host
		if strings.Contains(p, "://") {
			target = u.Scheme + "://" + u.Host
		}
		if ok, _ := path.Match(strings.ToLower(p), strings.ToLower(target)); ok {
			return nil
		}
	}
	return toolgate.Errorf(toolgate.EForbidden, "WebSocket connections from origin %q are not allowed (add it to allowed_origins if the gateway is served there)", origin)
}

// listening reports whether host (an Origin's host:port) names the address
// the request came in on.
func listening(r *http.Request, host string) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false
	}
	ip, port, err := net.SplitHostPort(local.String())
	if err != nil {
		return false
	}
	oh, op, err := net.SplitHostPort(host)
	if err != nil {
		return false // an Origin without a port is another origin than host:port
	}
	if op != port {
		return false
	}
	if strings.EqualFold(oh, "localhost") {
		return net.ParseIP(ip).IsLoopback()
	}
	oip := net.ParseIP(strings.Trim(oh, "[]"))
	return oip != nil && oip.Equal(net.ParseIP(ip))
}
