package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/server"
	"github.com/toolgate/toolgate/store/fsrules"
	"github.com/toolgate/toolgate/store/sqlite"
	"github.com/toolgate/toolgate/tokens"
	"github.com/toolgate/toolgate/web"
)

// env is the whole stack `toolgate serve` runs: a broker on a temporary
// SQLite store and rules directory, the API server with the UI's
// Authenticate, and the UI mounted beside it, over a real listener.
type env struct {
	t                      *testing.T
	srv                    *httptest.Server
	broker                 *approval.Broker
	ui                     *web.UI
	tokens                 *tokens.Store
	agent, approver, admin string
}

func newEnv(t *testing.T, opts ...web.Option) *env {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	st, err := sqlite.Open(ctx, filepath.Join(dir, "toolgate.db"))
	if err != nil {
		t.Fatal(err)
	}
	rules := fsrules.New(dir, policy.DefaultRulesJSONC)
	pol := approval.NewWorkspaces(rules, nil, policy.WithHome("/home/user"))
	b, err := approval.New(ctx, st, pol)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := tokens.Open(filepath.Join(dir, "tokens.json"), tokens.WithCheckInterval(0))
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, broker: b, tokens: tok}
	for _, x := range []struct {
		name string
		role tokens.Role
		dst  *string
	}{{"agent-1", tokens.RoleAgent, &e.agent}, {"alice", tokens.RoleApprover, &e.approver}, {"root", tokens.RoleAdmin, &e.admin}} {
		if *x.dst, err = tok.Create(x.name, x.role); err != nil {
			t.Fatal(err)
		}
	}
	e.ui = web.New(append([]web.Option{web.WithTokens(tok), web.WithAudit(b)}, opts...)...)
	api := server.NewServer(server.Deps{
		Broker: b, Policies: pol, Rules: rules, Tokens: tok, Store: st,
		Authenticate: e.ui.Authenticate,
		Limits:       server.Limits{RatePerSecond: -1, Heartbeat: 5 * time.Second},
	})
	mux := http.NewServeMux()
	mux.Handle("/", api)
	e.ui.Register(mux)
	e.srv = httptest.NewServer(mux)
	t.Cleanup(func() {
		e.srv.CloseClientConnections()
		e.srv.Close()
		b.Close()
		st.Close()
	})
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
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "Bearer" {
			req.Header.Set("Authorization", "Bearer "+hdr[i+1])
			continue
		}
		req.Header.Add(hdr[i], hdr[i+1])
	}
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: data}
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
	var res approval.Result
	e.must(200, "POST", "/v1/calls", body, &res, "Bearer", e.agent)
	if res.Approval == nil || res.Approval.Status != toolgate.StatusPending {
		e.t.Fatalf("submit %v: want pending, got %s (%s)", c.Args, res.Decision.Action, res.Decision.Reason)
	}
	return res.Approval
}

// await long-polls an approval as the agent would, in the background.
func (e *env) await(id string) <-chan *toolgate.Approval {
	ch := make(chan *toolgate.Approval, 1)
	go func() {
		req, _ := http.NewRequest("GET", e.srv.URL+"/v1/approvals/"+id+"?wait=60s", nil)
		req.Header.Set("Authorization", "Bearer "+e.agent)
		resp, err := e.srv.Client().Do(req)
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
	e.must(200, "GET", "/v1/grants", nil, &out, "Bearer", e.admin)
	return out.Grants
}
