// Package notifytest runs a gateway with a notifier for tests: the whole
// stack (broker, SQLite store, HTTP server with the answer links mounted)
// and a Dispatcher feeding the notifier. Only tests import it.
package notifytest

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/notify"
	"github.com/toolgate/toolgate/internal/stacktest"
	"github.com/toolgate/toolgate/server"
	"github.com/toolgate/toolgate/server/mount"
)

// Env is a running gateway with one notifier.
type Env struct {
	Stack      *stacktest.Stack
	Links      *notify.Links
	Dispatcher *notify.Dispatcher
	// URL is the gateway's address, where the answer links point.
	URL string
}

// New starts the gateway; build makes the notifier given the links. A
// notifier that is a notify.Receiver has its routes mounted.
func New(t *testing.T, filter notify.Filter, build func(links *notify.Links) notify.Notifier) *Env {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	e := &Env{URL: "http://" + ln.Addr().String()}
	key := make([]byte, 32)
	copy(key, "notifytest link key, not secret")
	if e.Links, err = notify.NewLinks(key, nil); err != nil {
		t.Fatal(err)
	}
	n := build(e.Links)
	var api http.Handler
	e.Stack = stacktest.New(t,
		stacktest.Mounts(func(s *stacktest.Stack) []mount.Route {
			mounts := e.Links.Mounts(s.Broker.Gate())
			if r, ok := n.(notify.Receiver); ok {
				mounts = append(mounts, r.Mounts(s.Broker.Gate())...)
			}
			return mounts
		}),
		stacktest.Deps(func(_ *stacktest.Stack, d *server.Deps) {
			d.Metrics = func(w io.Writer) { e.Dispatcher.WriteMetrics(w) } // as serve wires it
		}),
		stacktest.Handler(func(_ *stacktest.Stack, h http.Handler) http.Handler { api = h; return h }))
	srv := &http.Server{Handler: api}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })

	e.Dispatcher = notify.NewDispatcher(e.Stack.Broker, notify.WithBackoff(10*time.Millisecond, 100*time.Millisecond))
	e.Dispatcher.Add(n, filter)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); e.Dispatcher.Run(ctx, e.Stack.Broker.Gate()) }()
	t.Cleanup(func() { cancel(); <-done })
	return e
}

// Submit submits a shell call in session "s-"+ws of workspace ws and returns
// its pending approval.
func (e *Env) Submit(t *testing.T, ws, id, command string) *toolgate.Approval {
	t.Helper()
	r, err := e.Stack.Broker.Submit(context.Background(), toolgate.SubmitRequest{Call: toolgate.Call{
		ID: id, Session: "s-" + ws, Workspace: ws, Tool: "Bash", Args: map[string]any{"command": command}}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Approval == nil || r.Approval.Status != toolgate.StatusPending {
		t.Fatalf("%s: want a pending approval, got %+v", command, r)
	}
	return r.Approval
}

// Get returns an approval's current state.
func (e *Env) Get(t *testing.T, id string) *toolgate.Approval {
	t.Helper()
	a, err := e.Stack.Broker.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// Eventually polls cond for up to 30 seconds: the deadline only matters
// when the test fails, and CI shares two cores with parallel packages.
func Eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Post posts to a URL (a phone pressing an http action button) and
// returns the status.
func Post(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Post(url, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// Pending is a pending approval of "npm publish" created four minutes
// before now with left to go: for a notifier's own calls without a
// gateway.
func Pending(now time.Time, left time.Duration) *toolgate.Approval {
	return &toolgate.Approval{ID: "ap_1", Status: toolgate.StatusPending, CreatedAt: now.Add(-4 * time.Minute), ExpiresAt: now.Add(left),
		Call: toolgate.Call{ID: "c1", Session: "s1", Workspace: "w", Tool: "Bash", Args: map[string]any{"command": "npm publish"}}}
}

// SendRemind sends a through n, then reminds of it with the reference
// Send returned, as the dispatcher does; it returns the reference.
func SendRemind(t *testing.T, n notify.Notifier, a *toolgate.Approval) string {
	t.Helper()
	ref, err := n.Send(t.Context(), a)
	if err != nil {
		t.Fatal(err)
	}
	r, ok := n.(notify.Reminder)
	if !ok {
		t.Fatalf("%s does not remind", n.Name())
	}
	if err := r.Remind(t.Context(), a, ref); err != nil {
		t.Fatal(err)
	}
	return ref
}

// CheckTimeBoxed fails the test unless approval id was approved via via
// for the session with a grant that lapses notify.SessionFor after it
// was made: what a "30 min" button does.
func (e *Env) CheckTimeBoxed(t *testing.T, id, via string) {
	t.Helper()
	Eventually(t, "approval "+id+" resolved", func() bool { return e.Get(t, id).Status != toolgate.StatusPending })
	a := e.Get(t, id)
	if a.Status != toolgate.StatusApproved || a.Resolution.Scope != toolgate.ScopeSession || a.Resolution.Via != via {
		t.Fatalf("resolution %s %+v, want approved for the session via %s", a.Status, a.Resolution, via)
	}
	grants, err := e.Stack.Broker.Grants(context.Background(), toolgate.GrantFilter{})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := time.ParseDuration(notify.SessionFor)
	for _, g := range grants {
		if g.ApprovalID != id {
			continue
		}
		if g.Scope != toolgate.ScopeSession || g.ExpiresAt.IsZero() || g.ExpiresAt.Sub(g.CreatedAt) != want {
			t.Fatalf("grant %+v, want a session grant lasting %s", g, want)
		}
		return
	}
	t.Fatalf("no grant for approval %s", id)
}
