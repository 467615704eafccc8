package web_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/stacktest"
	"github.com/toolgate/toolgate/server"
	"github.com/toolgate/toolgate/tokens"
	"github.com/toolgate/toolgate/web"
)

// env is the whole stack `toolgate serve` runs: a broker on a temporary
// SQLite store and rules directory, the API server with the UI's
// Authenticate, and the UI mounted beside it, over a real listener.
type env struct {
	*stacktest.Stack
	t  *testing.T
	ui *web.UI
}

func newEnv(t *testing.T, opts ...web.Option) *env {
	t.Helper()
	return newEnvDeps(t, nil, opts...)
}

// newEnvDeps is newEnv with a change to the server's dependencies.
func newEnvDeps(t *testing.T, deps func(*stacktest.Stack, *server.Deps), opts ...web.Option) *env {
	t.Helper()
	e := &env{t: t}
	e.Stack = stacktest.New(t, stacktest.TokenOptions(tokens.WithCheckInterval(0)),
		stacktest.Deps(func(s *stacktest.Stack, d *server.Deps) {
			e.ui = web.New(append([]web.Option{web.WithTokens(s.Tokens), web.WithAudit(s.Broker)}, opts...)...)
			d.Authenticate = e.ui.Authenticate
			d.Limits = server.Limits{RatePerSecond: -1, Heartbeat: 5 * time.Second}
			if deps != nil {
				deps(s, d)
			}
		}),
		stacktest.Handler(func(_ *stacktest.Stack, api http.Handler) http.Handler {
			mux := http.NewServeMux()
			mux.Handle("/", api)
			e.ui.Register(mux)
			return mux
		}))
	return e
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

// do sends a request. hdr holds header name/value pairs; a "Bearer"
// header name sets Authorization to Bearer <value>.
func (e *env) do(method, path string, body any, hdr ...string) response {
	e.t.Helper()
	var token string
	var h []string
	if body != nil {
		h = append(h, "Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "Bearer" {
			token = hdr[i+1]
			continue
		}
		h = append(h, hdr[i], hdr[i+1])
	}
	r := e.Do(method, path, token, body, h...)
	return response{status: r.Status, header: r.Header, body: r.Body}
}

// must sends a request and fails the test unless the status is want.
func (e *env) must(want int, method, path string, body, out any, hdr ...string) response {
	e.t.Helper()
	r := e.do(method, path, body, hdr...)
	if r.status != want {
		e.t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.status, want, r.body)
	}
	if out != nil {
		r.decode(e.t, out)
	}
	return r
}

// ask submits a call as the agent; it must ask. It returns the pending
// approval.
func (e *env) ask(c toolgate.Call, ttl string, batch ...toolgate.Call) *toolgate.Approval {
	e.t.Helper()
	body := map[string]any{"call": c}
	if ttl != "" {
		body["ttl"] = ttl
	}
	if len(batch) > 0 {
		body["batch_remaining"] = batch
	}
	var res toolgate.Result
	e.must(200, "POST", "/v1/calls", body, &res, "Bearer", e.Agent)
	if res.Approval == nil || res.Approval.Status != toolgate.StatusPending {
		e.t.Fatalf("submit %v: want pending, got %s (%s)", c.Args, res.Decision.Action, res.Decision.Reason)
	}
	return res.Approval
}

// await long-polls an approval as the agent would, in the background.
func (e *env) await(id string) <-chan *toolgate.Approval {
	ch := make(chan *toolgate.Approval, 1)
	go func() {
		req, _ := http.NewRequest("GET", e.Server.URL+"/v1/approvals/"+id+"?wait=60s", nil)
		req.Header.Set("Authorization", "Bearer "+e.Agent)
		resp, err := e.Server.Client().Do(req)
		if err != nil {
			ch <- nil
			return
		}
		defer resp.Body.Close()
		var a toolgate.Approval
		if resp.StatusCode != 200 || json.NewDecoder(resp.Body).Decode(&a) != nil {
			ch <- nil
			return
		}
		ch <- &a
	}()
	return ch
}

// result waits for what the agent's long poll received.
func result(t *testing.T, ch <-chan *toolgate.Approval) *toolgate.Approval {
	t.Helper()
	select {
	case a := <-ch:
		if a == nil {
			t.Fatal("the agent's long poll failed")
		}
		if a.Status == toolgate.StatusPending {
			t.Fatal("the agent's long poll returned still pending")
		}
		return a
	case <-time.After(30 * time.Second):
		t.Fatal("the agent received no answer")
	}
	return nil
}

func shell(session, id, cmd string) toolgate.Call {
	return toolgate.Call{ID: id, Session: session, Tool: "Bash", Args: map[string]any{"command": cmd}}
}

// grants lists the grants as the admin sees them.
func (e *env) grants() []toolgate.Grant {
	e.t.Helper()
	var out struct{ Grants []toolgate.Grant }
	e.must(200, "GET", "/v1/grants", nil, &out, "Bearer", e.Admin)
	return out.Grants
}

// final decides a call with the dry run (POST /v1/evaluate), which the
// submission agrees with, so no card is left pending.
func (e *env) final(c toolgate.Call) toolgate.Action {
	e.t.Helper()
	var d toolgate.Decision
	e.must(200, "POST", "/v1/evaluate", c, &d, "Bearer", e.Agent)
	return d.Action
}

// get reads an approval.
func (e *env) get(id string) *toolgate.Approval {
	e.t.Helper()
	var a toolgate.Approval
	e.must(200, "GET", "/v1/approvals/"+id, nil, &a, "Bearer", e.Admin)
	return &a
}
