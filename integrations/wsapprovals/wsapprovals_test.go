package wsapprovals_test

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/integrations/wsapprovals"
	"github.com/toolgate/toolgate/internal/stacktest"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/server/mount"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/fsrules"
	"github.com/toolgate/toolgate/tokens"
)

const waitLong = 20 * time.Second

// hostConfig is seed 002's host.yaml permission list, as toolgate.yaml's
// rules: (simple tool name, exact and wildcard Bash commands, parameter
// matching with when).
const hostConfig = `rules:
  - read_file
  - Bash(git status)
  - Bash(make build)
  - Bash(git diff *)
  - Bash(pwd)
  - Bash(ls *)
  - tool: write
    when: {file_path: "*.md"}
`

// env is a gateway (API and the WebSocket endpoint) on a loopback
// listener.
type env struct {
	*stacktest.Stack
	t     *testing.T
	url   string
	agent *client.Client
	api   *client.Client // approver over HTTP
}

func newEnv(t *testing.T, opts wsapprovals.Options) *env {
	t.Helper()
	cfg, err := policy.ParseConfig("toolgate.yaml", []byte(hostConfig))
	if err != nil {
		t.Fatal(err)
	}
	if opts.Heartbeat == 0 {
		opts.Heartbeat = 100 * time.Millisecond
	}
	s := stacktest.New(t, stacktest.Names("agent-host", "alice", "root"),
		stacktest.Rules(func(dir string) store.Rules {
			return fsrules.New(filepath.Join(dir, "workspaces"), policy.Seed002RulesJSONC())
		}),
		stacktest.Configs(cfg), stacktest.PolicyOptions(),
		stacktest.Handler(func(s *stacktest.Stack, api http.Handler) http.Handler {
			return compose(api, s.Tokens, wsapprovals.New(s.Broker, opts).Mount())
		}))
	e := &env{Stack: s, t: t, url: s.Server.URL}
	if e.agent, err = client.New(e.url, s.Agent); err != nil {
		t.Fatal(err)
	}
	if e.api, err = client.New(e.url, s.Approver); err != nil {
		t.Fatal(err)
	}
	return e
}

// compose puts a Mount beside the API as the server will through
// Deps.Mounts: bearer authentication, the role check, errors in the API's
// format.
func compose(api http.Handler, tok *tokens.Store, m mount.Route) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", api)
	mux.HandleFunc(m.Method+" "+m.Path, func(w http.ResponseWriter, r *http.Request) {
		fail := func(status int, code toolgate.ErrorCode, msg string) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"code": code, "message": msg}})
		}
		h := r.Header.Get("Authorization")
		entry, ok := tok.Verify(strings.TrimPrefix(h, "Bearer "))
		if !ok {
			fail(http.StatusUnauthorized, toolgate.EUnauthorized, "unknown or missing token")
			return
		}
		if !entry.Role.Allows(m.Role) {
			fail(http.StatusForbidden, toolgate.EForbidden, "needs "+string(m.Role))
			return
		}
		if err := m.Handler(w, r, entry); err != nil {
			status := http.StatusInternalServerError
			if toolgate.ErrorCodeOf(err) == toolgate.EForbidden {
				status = http.StatusForbidden
			}
			fail(status, toolgate.ErrorCodeOf(err), toolgate.ErrorMessageOf(err))
		}
	})
	return mux
}

// wsClient is an approver's WebSocket client.
type wsClient struct {
	t    *testing.T
	c    *websocket.Conn
	msgs chan map[string]any
	raw  chan string
}

func (e *env) dial(query string, hdr ...string) *wsClient {
	e.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	h := http.Header{"Authorization": {"Bearer " + e.Approver}}
	for i := 0; i+1 < len(hdr); i += 2 {
		h.Set(hdr[i], hdr[i+1])
	}
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(e.url, "http")+wsapprovals.Path+query, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		cancel()
		e.t.Fatalf("dial: %v", err)
	}
	w := &wsClient{t: e.t, c: c, msgs: make(chan map[string]any, 64), raw: make(chan string, 64)}
	go func() {
		defer close(w.msgs)
		for {
			_, data, err := c.Read(ctx)
			if err != nil {
				return
			}
			var m map[string]any
			if json.Unmarshal(data, &m) != nil {
				m = map[string]any{"type": "__unparsable__"}
			}
			w.raw <- string(data)
			w.msgs <- m
		}
	}()
	e.t.Cleanup(func() { c.Close(websocket.StatusNormalClosure, ""); cancel() })
	return w
}

// next returns the next message, which must be of type typ.
func (w *wsClient) next(typ string) map[string]any {
	w.t.Helper()
	select {
	case m, ok := <-w.msgs:
		if !ok {
			w.t.Fatalf("connection closed waiting for %s", typ)
		}
		<-w.raw // sent before m, so never blocks
		if m["type"] != typ {
			w.t.Fatalf("got %v, want a %s message", m, typ)
		}
		return m
	case <-time.After(waitLong):
		w.t.Fatalf("timed out waiting for %s", typ)
	}
	return nil
}

// quiet fails if a message arrives within d.
func (w *wsClient) quiet(d time.Duration) {
	w.t.Helper()
	select {
	case m := <-w.msgs:
		w.t.Fatalf("unexpected message %v", m)
	case <-time.After(d):
	}
}

func (w *wsClient) send(s string) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := w.c.Write(ctx, websocket.MessageText, []byte(s)); err != nil {
		w.t.Fatalf("send: %v", err)
	}
}

// submit is the agent host's tool executor: it submits a call with the
// rest of its batch and waits for the outcome, in the background.
func (e *env) submit(c toolgate.Call, rest ...toolgate.Call) <-chan *toolgate.Result {
	ch := make(chan *toolgate.Result, 1)
	go func() {
		r, err := e.agent.SubmitWait(context.Background(), toolgate.SubmitRequest{Call: c, BatchRemaining: rest}, 30*time.Second)
		if err != nil {
			e.t.Errorf("submit %s: %v", c.ID, err)
		}
		ch <- r
	}()
	return ch
}

func receive(t *testing.T, ch <-chan *toolgate.Result) *toolgate.Result {
	t.Helper()
	select {
	case r := <-ch:
		if r == nil {
			t.FailNow()
		}
		return r
	case <-time.After(waitLong):
		t.Fatal("timed out waiting for the agent's result")
	}
	return nil
}

func mustJSON(t *testing.T, what string, got any, want string) {
	t.Helper()
	var w any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: bad want: %v", what, err)
	}
	gb, _ := json.Marshal(got)
	wb, _ := json.Marshal(w)
	if string(gb) != string(wb) {
		t.Fatalf("%s:\n got %s\nwant %s", what, gb, wb)
	}
}

func call(session, id, tool string, args map[string]any, batch *toolgate.Batch) toolgate.Call {
	return toolgate.Call{ID: id, Session: session, Tool: tool, Args: args, Batch: batch}
}

// The lifecycle of seed 002, end to end: a batch of three calls from one
// model turn; npm install approved for the session, the write rejected
// softly with feedback, the second bash run without asking.
func TestSeedLifecycle(t *testing.T) {
	t.Parallel()
	e := newEnv(t, wsapprovals.Options{})
	// Saving a tool for the session is a tool-wide rule: an admin's answer.
	ws := e.dial("?session=s1", "Authorization", "Bearer "+e.Admin)
	batch := func(i int) *toolgate.Batch { return &toolgate.Batch{ID: "turn-1", Index: i, Total: 3} }
	install := call("s1", "t1", "bash", map[string]any{"command": "npm install"}, batch(0))
	write := call("s1", "t2", "write", map[string]any{"file_path": "config.json", "content": "{}"}, batch(1))
	build := call("s1", "t3", "bash", map[string]any{"command": "npm build"}, batch(2))

	// Tool #1: bash("npm install") is dangerous and not yet approved.
	res := e.submit(install, write, build)
	m := ws.next("approval_needed")
	if id, _ := m["approval_id"].(string); !strings.HasPrefix(id, "ap_") {
		t.Fatalf("approval_id %v", m["approval_id"])
	}
	for _, k := range []string{"approval_id", "session", "reason", "expires_at"} {
		delete(m, k) // toolgate's additions
	}
	mustJSON(t, "approval_needed #1", m, `{
		"type": "approval_needed",
		"tool": "bash",
		"arguments": {"command": "npm install"},
		"batch_remaining": [
			{"tool": "write", "arguments": "{\"content\": \"{}\", \"file_path\": \"config.json\"}"},
			{"tool": "bash", "arguments": "{\"command\": \"npm build\"}"}
		]
	}`)
	ws.send(`{"approved": true, "scope": "session"}`)
	if r := ws.next("approval_resolved"); r["status"] != "approved" || r["scope"] != "session" {
		t.Fatalf("resolved %v", r)
	}
	if v, ok := receive(t, res).Final(); !ok || v != toolgate.Allow {
		t.Fatalf("npm install: %v", v)
	}
	// "Save bash as session-approved": a session grant of the tool.
	grants, err := e.api.Grants(context.Background(), store.GrantFilter{Session: "s1"})
	if err != nil || len(grants) != 1 || grants[0].Kind != toolgate.GrantTool || grants[0].Tool != "bash" || grants[0].Scope != toolgate.ScopeSession {
		t.Fatalf("grants %+v %v", grants, err)
	}

	// Tool #2: write("config.json") asks; rejected softly.
	res = e.submit(write, build)
	m = ws.next("approval_needed")
	if m["tool"] != "write" {
		t.Fatalf("approval_needed #2 %v", m)
	}
	mustJSON(t, "batch_remaining #2", m["batch_remaining"], `[{"tool": "bash", "arguments": "{\"command\": \"npm build\"}"}]`)
	ws.send(`{"approved": false, "mode": "reject_soft", "feedback": "Don't write that file"}`)
	rr := ws.next("approval_resolved")
	r := receive(t, res)
	if v, _ := r.Final(); v != toolgate.Deny {
		t.Fatalf("write: %v", v)
	}
	// What the LLM gets.
	const want = "User rejected tool 'write'. Feedback: Don't write that file\n\n[System reminder: Ask the user"
	if msg := r.Approval.Resolution.Reason; !strings.HasPrefix(msg, want) || rr["message"] != msg {
		t.Fatalf("message to the model %q (ws %q)", msg, rr["message"])
	}
	if r.Approval.Resolution.DenyMode != toolgate.DenySoft {
		t.Fatalf("deny mode %s", r.Approval.Resolution.DenyMode)
	}

	// Tool #3: bash is session-approved: runs at once, the client is not
	// asked.
	r = receive(t, e.submit(build))
	if v, ok := r.Final(); !ok || v != toolgate.Allow || r.Approval != nil {
		t.Fatalf("npm build: %v %+v", v, r.Approval)
	}
	ws.quiet(100 * time.Millisecond)
	// The soft reject did not stop the session.
	if s, err := e.Broker.Session(context.Background(), "s1"); err != nil || s.Stopped {
		t.Fatalf("session %+v %v", s, err)
	}
}

// A rejection without a mode is reject_hard: this call and the rest of its
// batch are denied, the agent loop stops.
func TestRejectHardByDefault(t *testing.T) {
	t.Parallel()
	e := newEnv(t, wsapprovals.Options{})
	ws := e.dial("?session=s1")
	c1 := call("s1", "c1", "bash", map[string]any{"command": "rm -rf build"}, nil)
	c2 := call("s1", "c2", "write", map[string]any{"file_path": "a.txt"}, nil)
	r1 := e.submit(c1, c2)
	ws.next("approval_needed")
	r2 := e.submit(c2) // pending too, queued behind c1
	waitPending(t, e, 2)
	ws.send(`{"approved": false, "feedback": "stop"}`)
	if rr := ws.next("approval_resolved"); rr["status"] != "denied" {
		t.Fatalf("resolved %v", rr)
	}
	a := receive(t, r1).Approval
	if a.Resolution.DenyMode != toolgate.DenyHard || !strings.Contains(a.Resolution.Reason, "Feedback: stop") {
		t.Fatalf("c1 %+v", a.Resolution)
	}
	if v, _ := receive(t, r2).Final(); v != toolgate.Deny {
		t.Fatalf("c2 after a hard reject: %v", v)
	}
	ws.quiet(100 * time.Millisecond) // c2 was never asked
	r3 := receive(t, e.submit(call("s1", "c3", "bash", map[string]any{"command": "ls -la"}, nil)))
	if v, _ := r3.Final(); v != toolgate.Deny {
		t.Fatalf("after the stop: %v", v)
	}
}

func waitPending(t *testing.T, e *env, n int) {
	t.Helper()
	deadline := time.Now().Add(waitLong)
	for time.Now().Before(deadline) {
		list, err := e.Broker.List(context.Background(), store.ApprovalFilter{Status: toolgate.StatusPending})
		if err != nil {
			t.Fatal(err)
		}
		if len(list) == n {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("never %d pending", n)
}

// Config-based auto-approval: the host-config list allows what it names,
// and a command chain only when every command in it is permitted.
func TestConfigAutoApproval(t *testing.T) {
	t.Parallel()
	e := newEnv(t, wsapprovals.Options{})
	for _, tc := range []struct {
		tool string
		args map[string]any
		want toolgate.Action
	}{
		{"read_file", map[string]any{"path": "src/main.py"}, toolgate.Allow},          // simple tool name
		{"Bash", map[string]any{"command": "git status"}, toolgate.Allow},             // exact command
		{"Bash", map[string]any{"command": "make build"}, toolgate.Allow},             // exact command
		{"Bash", map[string]any{"command": "make build install"}, toolgate.Ask},       // exact only
		{"Bash", map[string]any{"command": "git status --short"}, toolgate.Allow},     // only reads: the built-in defaults allow it
		{"Bash", map[string]any{"command": "git diff HEAD~1"}, toolgate.Allow},        // wildcard
		{"write", map[string]any{"file_path": "README.md"}, toolgate.Allow},           // when: {file_path: "*.md"}
		{"write", map[string]any{"file_path": "config.json"}, toolgate.Ask},           // when does not hold
		{"list_files", map[string]any{"path": "."}, toolgate.Allow},                   // safe tool
		{"Bash", map[string]any{"command": "pwd && ls -la"}, toolgate.Allow},          // all permitted
		{"Bash", map[string]any{"command": "git status; git diff x"}, toolgate.Allow}, // all permitted
		{"Bash", map[string]any{"command": "pwd && rm -rf /"}, toolgate.Ask},          // one dangerous command
		{"Bash", map[string]any{"command": "ls src | npm test"}, toolgate.Ask},        // npm test not permitted
		{"Bash", map[string]any{"command": "npm test || make all"}, toolgate.Ask},     // neither permitted
	} {
		d, err := e.Broker.Evaluate(context.Background(), toolgate.Call{Session: "s1", Tool: tc.tool, Args: tc.args})
		if err != nil {
			t.Fatal(err)
		}
		if d.Action != tc.want {
			t.Errorf("%s %v: %s (%s), want %s", tc.tool, tc.args, d.Action, d.Reason, tc.want)
		}
	}
	// An allowed call never reaches the client; an asked one does.
	ws := e.dial("")
	r := receive(t, e.submit(call("s1", "g1", "Bash", map[string]any{"command": "git diff --stat"}, nil)))
	if v, ok := r.Final(); !ok || v != toolgate.Allow {
		t.Fatalf("git diff: %v", v)
	}
	res := e.submit(call("s1", "g2", "Bash", map[string]any{"command": "git push"}, nil))
	if m := ws.next("approval_needed"); m["tool"] != "Bash" || m["arguments"].(map[string]any)["command"] != "git push" {
		t.Fatalf("approval_needed %v", m)
	}
	ws.send(`{"approved": true}`)
	ws.next("approval_resolved")
	if a := receive(t, res).Approval; a.Resolution.Scope != toolgate.ScopeOnce || a.Resolution.By != "alice" || a.Resolution.Via != "ws" {
		t.Fatalf("resolution %+v", a.Resolution)
	}
}

// Seed 002's clients answer {"approved": true, "scope": "session"}; some
// add a "type" or fields of their own. The server is lenient as the seed's
// is: unknown fields are ignored, the type field accepted.
func TestLenientAnswers(t *testing.T) {
	t.Parallel()
	e := newEnv(t, wsapprovals.Options{})
	// "scope": "session" saves a tool for the session: an admin's answer.
	ws := e.dial("?session=s1", "Authorization", "Bearer "+e.Admin)
	for i, tc := range []struct {
		msg    string
		status toolgate.Status
		scope  toolgate.Scope
	}{
		{`{"type": "approval_response", "approved": true, "scope": "once", "client_ts": 1732500000}`, toolgate.StatusApproved, toolgate.ScopeOnce},
		{`{"type": "approval_response", "approved": true, "scope": "session", "request_id": "r-1"}`, toolgate.StatusApproved, toolgate.ScopeSession},
		{`{"type": "approval_response", "approved": false, "mode": "reject_soft", "feedback": "no", "ui": {"x": 1}}`, toolgate.StatusDenied, ""},
		// A mode on an approval, a scope on a rejection: ignored.
		{`{"approved": true, "mode": "reject_soft"}`, toolgate.StatusApproved, toolgate.ScopeOnce},
		{`{"approved": false, "scope": "session", "mode": "reject_soft"}`, toolgate.StatusDenied, ""},
	} {
		// Tools the session grant (case 2, on edit) does not cover.
		tools := []string{"run_background", "edit", "kill_task", "send_email", "post"}
		res := e.submit(call("s1", "l"+string(rune('0'+i)), tools[i], map[string]any{"command": "x", "file_path": "a.txt"}, nil))
		ws.next("approval_needed")
		ws.send(tc.msg)
		if m := ws.next("approval_resolved"); m["status"] != string(tc.status) {
			t.Errorf("%s: resolved %v", tc.msg, m)
		}
		a := receive(t, res).Approval
		if a.Status != tc.status || tc.scope != "" && a.Resolution.Scope != tc.scope {
			t.Errorf("%s: %s %+v", tc.msg, a.Status, a.Resolution)
		}
	}
	// "session | Approve for rest of session (stored in memory)": edit was
	// approved for the session, so the next edit runs without a question.
	d, err := e.agent.Evaluate(context.Background(), call("s1", "e1", "edit", map[string]any{"file_path": "b.txt"}, nil))
	if err != nil || d.Action != toolgate.Allow {
		t.Errorf("edit after a session approval: %v %v", d, err)
	}
}

// The origin of an MCP tool is on the prompt (seed 003: "Origin: MCP
// server tool for … mcp__... tools"), decided by its name.
func TestMCPOriginOnPrompt(t *testing.T) {
	t.Parallel()
	e := newEnv(t, wsapprovals.Options{})
	ws := e.dial("?session=s1")
	c := call("s1", "m1", "mcp__github__create_issue", map[string]any{"title": "x"}, nil)
	c.Origin = "local"
	res := e.submit(c)
	if m := ws.next("approval_needed"); m["origin"] != "mcp:github" {
		t.Fatalf("approval_needed %v", m)
	}
	ws.send(`{"approved": false, "mode": "reject_soft"}`)
	receive(t, res)
}

// Bad answers get an error message and the connection stays usable;
// approvals settled elsewhere move the client on; answers may name an
// approval; a reconnecting client is asked again.
func TestAnswersAndErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t, wsapprovals.Options{})
	ws := e.dial("?session=s1")
	ws.send(`{"approved": true}`)
	if m := ws.next("error"); !strings.Contains(m["message"].(string), "no approval is waiting") {
		t.Fatalf("error %v", m)
	}
	r1 := e.submit(call("s1", "c1", "bash", map[string]any{"command": "make"}, nil))
	first := ws.next("approval_needed")
	for _, tc := range []struct{ msg, want string }{
		{`not json`, "not a valid JSON object"},
		// Unknown fields are ignored, so a misspelt "approved" is missing.
		{`{"approve": true}`, `no "approved"`},
		// Anything but a JSON boolean is never a yes.
		{`{"approved": "true"}`, "not a valid JSON object"},
		{`{"approved": 1}`, "not a valid JSON object"},
		{`{"approved": null}`, `no "approved"`},
		{`{"scope": "once"}`, `no "approved"`},
		{`{"approved": true, "scope": "forever"}`, `unknown scope "forever"`},
		{`{"approved": false, "mode": "reject_later"}`, `unknown mode "reject_later"`},
		{`{"approved": true, "approval_id": "ap_nope"}`, "not found"},
	} {
		ws.send(tc.msg)
		if m := ws.next("error"); !strings.Contains(m["message"].(string), tc.want) {
			t.Errorf("%s: %v", tc.msg, m)
		}
	}
	ctx := context.Background()
	if err := ws.c.Write(ctx, websocket.MessageBinary, []byte(`{"approved": true}`)); err != nil {
		t.Fatal(err)
	}
	ws.next("error")
	if a, _ := e.Broker.Get(ctx, first["approval_id"].(string)); a.Status != toolgate.StatusPending {
		t.Fatalf("a bad answer changed the approval: %s", a.Status)
	}

	// A second call queues behind the first; answering the first by id
	// works, and the second is asked next.
	r2 := e.submit(call("s1", "c2", "bash", map[string]any{"command": "make test"}, nil))
	waitPending(t, e, 2)
	ws.quiet(50 * time.Millisecond) // one question at a time
	ws.send(`{"approval_id": "` + first["approval_id"].(string) + `", "approved": true}`)
	ws.next("approval_resolved")
	receive(t, r1)
	second := ws.next("approval_needed")
	if second["arguments"].(map[string]any)["command"] != "make test" {
		t.Fatalf("second %v", second)
	}
	// A reconnecting client is asked the pending one again (replay).
	ws2 := e.dial("?session=s1")
	if m := ws2.next("approval_needed"); m["approval_id"] != second["approval_id"] {
		t.Fatalf("replay %v", m)
	}
	// Settled elsewhere (the HTTP API): both clients are told and move on.
	if _, err := e.api.Deny(ctx, second["approval_id"].(string), toolgate.DenyRequest{Mode: toolgate.DenySoft}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*wsClient{ws, ws2} {
		if m := c.next("approval_resolved"); m["status"] != "denied" {
			t.Fatalf("resolved %v", m)
		}
	}
	receive(t, r2)
	// Answering it now is a conflict, reported.
	ws.send(`{"approval_id": "` + second["approval_id"].(string) + `", "approved": true}`)
	if m := ws.next("error"); !strings.Contains(m["message"].(string), "already denied") {
		t.Fatalf("error %v", m)
	}
	// Other sessions are not this client's.
	if _, err := e.agent.Submit(ctx, toolgate.SubmitRequest{Call: call("s2", "x1", "bash", map[string]any{"command": "make"}, nil)}); err != nil {
		t.Fatal(err)
	}
	ws.quiet(100 * time.Millisecond)
}

func TestOriginAndRoles(t *testing.T) {
	t.Parallel()
	e := newEnv(t, wsapprovals.Options{AllowedOrigins: []string{"approve.example.com"}})
	u := "ws" + strings.TrimPrefix(e.url, "http") + wsapprovals.Path
	ctx := context.Background()
	for _, tc := range []struct {
		token, origin string
		status        int
	}{
		{e.Approver, "https://evil.example", http.StatusForbidden},
		{e.Approver, "https://approve.example.com", http.StatusSwitchingProtocols},
		{e.Approver, "", http.StatusSwitchingProtocols},
		{e.Agent, "", http.StatusForbidden}, // an agent cannot answer
		{"", "", http.StatusUnauthorized},
	} {
		h := http.Header{}
		if tc.token != "" {
			h.Set("Authorization", "Bearer "+tc.token)
		}
		if tc.origin != "" {
			h.Set("Origin", tc.origin)
		}
		c, resp, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: h})
		if resp == nil || resp.StatusCode != tc.status {
			t.Errorf("%+v: %v %v", tc, resp, err)
		}
		if c != nil {
			c.Close(websocket.StatusNormalClosure, "")
		} else if err == nil {
			t.Errorf("%+v: no error", tc)
		}
	}
}

func TestPythonJSON(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{"command":"npm build"}`:         `{"command": "npm build"}`,
		`{"a":[1,2],"b":{"c":"x, y: z"}}`: `{"a": [1, 2], "b": {"c": "x, y: z"}}`,
		`{"q":"say \"hi\", then: go"}`:    `{"q": "say \"hi\", then: go"}`,
		`{"html":"<a&b>"}`:                `{"html": "<a&b>"}`,
	} {
		var v any
		if err := json.Unmarshal([]byte(in), &v); err != nil {
			t.Fatal(err)
		}
		if got := wsapprovals.PythonJSON(v); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}

// An approver's "scope": "session" would allow every bash command for the
// rest of the session: refused with an error message, the call stays
// pending, and the approver can still approve it once.
func TestSessionScopeNeedsAdmin(t *testing.T) {
	t.Parallel()
	e := newEnv(t, wsapprovals.Options{})
	ws := e.dial("?session=s1")
	res := e.submit(call("s1", "t1", "bash", map[string]any{"command": "npm install"}, nil))
	ws.next("approval_needed")
	ws.send(`{"approved": true, "scope": "session"}`)
	if m := ws.next("error"); !strings.Contains(m["message"].(string), "needs an admin credential") {
		t.Fatalf("approver's session scope: %v", m)
	}
	ws.send(`{"approved": true}`)
	if r := ws.next("approval_resolved"); r["status"] != "approved" || r["scope"] != "once" {
		t.Fatalf("resolved %v", r)
	}
	if v, ok := receive(t, res).Final(); !ok || v != toolgate.Allow {
		t.Fatalf("npm install: %v", v)
	}
	if grants, err := e.api.Grants(context.Background(), store.GrantFilter{}); err != nil || len(grants) != 0 {
		t.Fatalf("grants %+v %v", grants, err)
	}
}

// Calls that arrive one at a time with no batch (parallel hook calls)
// are each other's batch_remaining: the first asked lists the second,
// and once the first is answered the second lists nothing.
func TestSessionWaitingAsBatch(t *testing.T) {
	t.Parallel()
	e := newEnv(t, wsapprovals.Options{})
	// One after the other, so the order they are asked in is known.
	r1 := e.submit(call("s1", "c1", "bash", map[string]any{"command": "npm test"}, nil))
	waitPending(t, e, 1)
	r2 := e.submit(call("s1", "c2", "bash", map[string]any{"command": "npm run lint"}, nil))
	waitPending(t, e, 2)
	r3 := e.submit(call("s2", "c3", "bash", map[string]any{"command": "make"}, nil)) // another session
	waitPending(t, e, 3)
	ws := e.dial("?session=s1")
	m := ws.next("approval_needed")
	if m["arguments"].(map[string]any)["command"] != "npm test" {
		t.Fatalf("asked first %v", m)
	}
	mustJSON(t, "batch_remaining of the first", m["batch_remaining"], `[{"tool": "bash", "arguments": "{\"command\": \"npm run lint\"}"}]`)
	ws.send(`{"approved": true}`)
	ws.next("approval_resolved")
	receive(t, r1)
	m = ws.next("approval_needed")
	mustJSON(t, "batch_remaining of the second", m["batch_remaining"], `[]`)
	ws.send(`{"approved": true}`)
	ws.next("approval_resolved")
	receive(t, r2)
	// The other session's call is answered elsewhere.
	list, err := e.Broker.List(context.Background(), store.ApprovalFilter{Status: toolgate.StatusPending, Session: "s2"})
	if err != nil || len(list) != 1 {
		t.Fatalf("%v %v", list, err)
	}
	if _, err := e.Broker.Gate().Deny(toolgate.WithActor(context.Background(), toolgate.Actor{Name: "alice", Via: "api"}), list[0].ID, toolgate.DenyRequest{Mode: toolgate.DenySoft}); err != nil {
		t.Fatal(err)
	}
	receive(t, r3)
}
