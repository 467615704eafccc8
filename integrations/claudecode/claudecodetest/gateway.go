// Package claudecodetest runs a real gateway for testing hooks (the
// broker, a SQLite store and the HTTP API, from stacktest) with a rules
// document of the test's choosing, and records what the hook asked of it:
// the calls it submitted, the approvals it withdrew and the turns it
// ended. It is an ordinary package so that the hook tests of several
// packages share it; only tests import it.
package claudecodetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/stacktest"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/store"
)

// Gateway is a running gateway.
type Gateway struct {
	// URL is the gateway's base URL.
	URL string
	// Agent and Approver are bearer tokens of those roles.
	Agent, Approver string
	stack           *stacktest.Stack
	t               testing.TB

	mu         sync.Mutex
	submitted  []toolgate.Call
	cancelled  []string
	turnsEnded []string
}

// New starts a gateway whose rules are the built-in defaults with the
// rules document doc after them; it stops when the test ends.
func New(t testing.TB, doc string) *Gateway {
	d, err := policy.ParseWorkspace("test.jsonc", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	g := &Gateway{t: t}
	g.stack = stacktest.New(t, stacktest.Configs(d),
		stacktest.Handler(func(_ *stacktest.Stack, api http.Handler) http.Handler { return g.record(api) }))
	g.URL, g.Agent, g.Approver = g.stack.Server.URL, g.stack.Agent, g.stack.Approver
	return g
}

// record passes every request to the API and notes the hook's calls,
// withdrawals and turn ends that the API accepted.
func (g *Gateway) record(api http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body []byte
		if r.Body != nil {
			body, _ = io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		rec := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		api.ServeHTTP(rec, r)
		if r.Method != http.MethodPost {
			return
		}
		g.mu.Lock()
		defer g.mu.Unlock()
		path := r.URL.Path
		if strings.HasPrefix(path, "/v1/sessions/") && strings.HasSuffix(path, "/turn-end") {
			// Asked for, whatever the answer: a session the gateway has not
			// seen yet has no turn to end (404), which the hook ignores.
			g.turnsEnded = append(g.turnsEnded, strings.TrimSuffix(strings.TrimPrefix(path, "/v1/sessions/"), "/turn-end"))
			return
		}
		if rec.status >= 300 {
			return
		}
		switch {
		case path == "/v1/calls":
			var req struct {
				Call toolgate.Call `json:"call"`
			}
			if json.Unmarshal(body, &req) == nil {
				g.submitted = append(g.submitted, req.Call)
			}
		case strings.HasPrefix(path, "/v1/approvals/") && strings.HasSuffix(path, "/cancel"):
			g.cancelled = append(g.cancelled, strings.TrimSuffix(strings.TrimPrefix(path, "/v1/approvals/"), "/cancel"))
		}
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(status int) {
	w.status = status
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Submitted returns the calls the gateway accepted, in order.
func (g *Gateway) Submitted() []toolgate.Call {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]toolgate.Call(nil), g.submitted...)
}

// Cancelled returns the ids of the approvals withdrawn through the API.
func (g *Gateway) Cancelled() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.cancelled...)
}

// TurnsEnded returns the sessions whose turn the hook asked to end.
func (g *Gateway) TurnsEnded() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.turnsEnded...)
}

// Pending returns the ids of the approvals still pending.
func (g *Gateway) Pending() []string {
	list, err := g.stack.Broker.List(context.Background(), store.ApprovalFilter{Status: toolgate.StatusPending})
	if err != nil {
		g.t.Fatalf("list pending approvals: %v", err)
	}
	var ids []string
	for _, a := range list {
		ids = append(ids, a.ID)
	}
	return ids
}

// Approvals returns the ids of every approval, whatever its status.
func (g *Gateway) Approvals() []string {
	list, err := g.stack.Broker.List(context.Background(), store.ApprovalFilter{})
	if err != nil {
		return []string{"error: " + err.Error()}
	}
	var ids []string
	for _, a := range list {
		ids = append(ids, a.ID)
	}
	return ids
}

// Audit returns the gateway's audit entries of a kind ("" for all).
func (g *Gateway) Audit(kind string) ([]toolgate.AuditEntry, error) {
	return g.stack.Broker.Audit(context.Background(), store.AuditFilter{Kind: kind})
}

// WaitPending waits for an approval to be pending and returns its id.
func (g *Gateway) WaitPending(timeout time.Duration) (string, error) {
	deadline := time.Now().Add(timeout)
	for {
		if p := g.Pending(); len(p) > 0 {
			return p[0], nil
		}
		if time.Now().After(deadline) {
			return "", errors.New("no approval became pending")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// ClosedURL returns the URL of a port nothing listens on: a gateway that
// is down.
func ClosedURL() string {
	s := httptest.NewServer(http.NotFoundHandler())
	url := s.URL
	s.Close()
	return strings.TrimRight(url, "/")
}
