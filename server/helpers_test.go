package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/internal/stacktest"
	"github.com/toolgate/toolgate/server"
	"github.com/toolgate/toolgate/store"
)

// clock is a settable clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// env is a server over a real listener with a real broker on a temporary
// SQLite store and rules directory, and one token per role.
type env struct {
	*stacktest.Stack
	t     *testing.T
	clock *clock
}

type envOption func(*server.Deps)

func newEnv(t *testing.T, opts ...envOption) *env {
	t.Helper()
	return newEnvWith(t, nil, opts...)
}

// newEnvWith is newEnv with broker options.
func newEnvWith(t *testing.T, brokerOpts []approval.Option, opts ...envOption) *env {
	t.Helper()
	c := &clock{t: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)}
	s := stacktest.New(t, stacktest.Broker(append([]approval.Option{approval.WithClock(c.Now)}, brokerOpts...)...),
		stacktest.Rules(func(dir string) store.Rules { return newRules(t, dir) }),
		stacktest.Deps(func(_ *stacktest.Stack, d *server.Deps) {
			d.Limits = server.Limits{RatePerSecond: -1, Heartbeat: 50 * time.Millisecond}
			for _, o := range opts {
				o(d)
			}
		}))
	return &env{Stack: s, t: t, clock: c}
}

// response is a finished request.
type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
}

func (r response) errMessage() string {
	var b struct {
		Error struct{ Code, Message string }
	}
	json.Unmarshal(r.body, &b)
	return b.Error.Code + ": " + b.Error.Message
}

// do sends a request with a token and a body (a string is sent as is,
// anything else as JSON).
func (e *env) do(method, path, token string, body any, hdr ...string) response {
	e.t.Helper()
	r := e.Do(method, path, token, body, hdr...)
	return response{status: r.Status, header: r.Header, body: r.Body}
}

// must sends a request and fails the test unless the status is want.
func (e *env) must(want int, method, path, token string, body any, out any) response {
	e.t.Helper()
	r := e.do(method, path, token, body)
	if r.status != want {
		e.t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.status, want, r.body)
	}
	if out != nil {
		r.decode(e.t, out)
	}
	return r
}

func shell(session, id, cmd string) toolgate.Call {
	return toolgate.Call{ID: id, Session: session, Tool: "Bash", Args: map[string]any{"command": cmd}}
}

// submit posts a call that must ask and returns its pending approval.
func (e *env) ask(c toolgate.Call) *toolgate.Approval {
	e.t.Helper()
	var res toolgate.Result
	e.must(200, "POST", "/v1/calls", e.Agent, map[string]any{"call": c}, &res)
	if res.Approval == nil || res.Approval.Status != toolgate.StatusPending {
		e.t.Fatalf("submit %v: want pending, got %s (%s)", c.Args, res.Decision.Action, res.Decision.Reason)
	}
	return res.Approval
}

// final submits a call and returns its verdict.
func (e *env) final(c toolgate.Call) toolgate.Action {
	e.t.Helper()
	var res toolgate.Result
	e.must(200, "POST", "/v1/calls", e.Agent, c, &res)
	a, ok := res.Final()
	if !ok {
		return toolgate.Ask
	}
	return a
}

func (e *env) get(id string) *toolgate.Approval {
	e.t.Helper()
	var a toolgate.Approval
	e.must(200, "GET", "/v1/approvals/"+id, e.Approver, nil, &a)
	return &a
}

// counts is what a request must not change when it fails.
type counts struct {
	approvals, pending, grants, audit, sessions int
	rules                                       string
}

func (e *env) counts() counts {
	e.t.Helper()
	ctx := context.Background()
	all, err := e.Store.ListApprovals(ctx, store.ApprovalFilter{})
	if err != nil {
		e.t.Fatal(err)
	}
	pend, _ := e.Store.ListApprovals(ctx, store.ApprovalFilter{Status: toolgate.StatusPending})
	gr, _ := e.Store.ListGrants(ctx, store.GrantFilter{})
	au, _ := e.Store.ListAudit(ctx, store.AuditFilter{})
	ss, _ := e.Store.ListSessions(ctx, store.SessionFilter{})
	doc, _, _ := e.Rules.Document(ctx, "default")
	return counts{len(all), len(pend), len(gr), len(au), len(ss), string(doc)}
}

// sseEvent is one parsed Server-Sent Event.
type sseEvent struct {
	id, typ string
	ev      toolgate.Event
}

// sse opens an event stream and returns its events.
func (e *env) sse(ctx context.Context, query string, hdr ...string) <-chan sseEvent {
	e.t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", e.Server.URL+"/v1/events"+query, nil)
	req.Header.Set("Authorization", "Bearer "+e.Approver)
	req.Header.Set("Accept", "text/event-stream")
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := e.Server.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		e.t.Fatalf("events: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	ch := make(chan sseEvent, 256)
	go func() {
		defer close(ch)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		var cur sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if cur.typ != "" {
					ch <- cur
				}
				cur = sseEvent{}
			case strings.HasPrefix(line, "id: "):
				cur.id = line[4:]
			case strings.HasPrefix(line, "event: "):
				cur.typ = line[7:]
			case strings.HasPrefix(line, "data: "):
				if err := json.Unmarshal([]byte(line[6:]), &cur.ev); err != nil {
					panic(err)
				}
			}
		}
	}()
	return ch
}

// ws opens a WebSocket event stream and returns its events.
func (e *env) ws(ctx context.Context, query string) <-chan toolgate.Event {
	e.t.Helper()
	url := "ws" + strings.TrimPrefix(e.Server.URL, "http") + "/v1/events" + query
	c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + e.Approver}}})
	if err != nil {
		e.t.Fatal(err)
	}
	ch := make(chan toolgate.Event, 256)
	go func() {
		defer close(ch)
		defer c.CloseNow()
		for {
			_, data, err := c.Read(ctx)
			if err != nil {
				return
			}
			var ev toolgate.Event
			if err := json.Unmarshal(data, &ev); err != nil {
				panic(err)
			}
			ch <- ev
		}
	}()
	return ch
}

// next waits for the first event that matches.
func next[T any](t *testing.T, ch <-chan T, what string, match func(T) bool) T {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case v, ok := <-ch:
			if !ok {
				t.Fatalf("%s: stream ended", what)
			}
			if match(v) {
				return v
			}
		case <-timeout:
			t.Fatalf("%s: timed out", what)
		}
	}
}

func newRequest(ctx context.Context, method, url, token string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	return req, nil
}
