package confirm_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/confirm"
	"github.com/toolgate/toolgate/internal/stacktest"
	"github.com/toolgate/toolgate/store"
)

const notFound = `{"error":"Confirmation not found or expired"}`

// Every documented shape of POST /api/tool-confirmation/{executionId}.
func TestAnswer(t *testing.T) {
	t.Parallel()
	s := newStack(t, confirm.Config{})
	a := s.ask("session-123", "c1", "git_status", map[string]any{})
	b := s.ask("session-123", "c2", "git_commit", map[string]any{"message": "wip"})
	o := s.ask("session-456", "c3", "git_status", map[string]any{})

	// The seed's "User denied - don't remember".
	if r := s.answer(b.ID, map[string]any{"executionId": b.ID, "approved": false, "rememberChoice": false}); r.status != 200 || r.body != `{"success":true}` {
		t.Fatalf("deny: %d %s", r.status, r.body)
	}
	gb := s.get(b.ID)
	if gb.Status != toolgate.StatusDenied || gb.Resolution.DenyMode != toolgate.DenySoft || gb.Resolution.Via != "confirm" ||
		!strings.HasPrefix(gb.Resolution.Reason, "User rejected tool 'git_commit'.") {
		t.Errorf("denied: %s %+v", gb.Status, gb.Resolution)
	}
	// The REST handler's minimal body, {approved}.
	if r := s.answer(a.ID, `{"approved": true}`); r.status != 200 || r.body != `{"success":true}` {
		t.Fatalf("approve: %d %s", r.status, r.body)
	}
	if ga := s.get(a.ID); ga.Status != toolgate.StatusApproved || ga.Resolution.Scope != toolgate.ScopeOnce || ga.Resolution.GrantID != "" {
		t.Errorf("approved: %s %+v", ga.Status, ga.Resolution)
	}

	// Not pending any more, unknown, or of another session: 404, word for word.
	for name, tc := range map[string]struct {
		id   string
		body any
	}{
		"answered":      {a.ID, `{"approved": true}`},
		"denied":        {b.ID, `{"approved": false}`},
		"unknown":       {"ap_doesnotexist", `{"approved": true, "rememberChoice": true}`},
		"other session": {o.ID, map[string]any{"approved": true, "sessionId": "session-123"}},
	} {
		if r := s.answer(tc.id, tc.body); r.status != 404 || r.body != notFound {
			t.Errorf("%s: %d %s", name, r.status, r.body)
		}
	}
	if s.get(o.ID).Status != toolgate.StatusPending {
		t.Error("an answer naming another session resolved the confirmation")
	}

	// Bad input is a 400 {error} and changes nothing.
	for body, want := range map[string]string{
		`{}`:                        `{"error":"approved: required, a boolean"}`,
		`{"approved": "yes"}`:       `{"error":"approved: expected bool, got string"}`,
		`{"approved": true`:         `{"error":"malformed JSON: unexpected end of JSON input"}`,
		``:                          `{"error":"request body is empty; want a JSON object"}`,
		`{"approved": null}`:        `{"error":"approved: required, a boolean"}`,
		`{"rememberChoice": "yes"}`: `{"error":"rememberChoice: expected bool, got string"}`,
	} {
		if r := s.answer(o.ID, body); r.status != 400 || r.body != want {
			t.Errorf("%q: %d %s, want 400 %s", body, r.status, r.body, want)
		}
	}
	if s.get(o.ID).Status != toolgate.StatusPending {
		t.Error("a bad request resolved the confirmation")
	}
	// Answering needs an approver.
	if r := s.post("/api/tool-confirmation/"+o.ID, s.Agent, `{"approved": true}`); r.status != 403 {
		t.Errorf("agent answered: %d %s", r.status, r.body)
	}
	if r := s.answer(o.ID, map[string]any{"approved": true, "sessionId": "session-456"}); r.status != 200 {
		t.Errorf("matching session: %d %s", r.status, r.body)
	}
}

// rememberChoice with the session's id remembers the tool for that
// session; without it, for every session. Lookup: session, then global.
func TestRememberChoice(t *testing.T) {
	t.Parallel()
	s := newStack(t, confirm.Config{})
	commit := s.ask("session-123", "c1", "git_commit", map[string]any{"message": "one"})
	status := s.ask("session-123", "c2", "git_status", map[string]any{})

	// The seed's two examples, as they are.
	if r := s.answer(commit.ID, map[string]any{"executionId": commit.ID, "approved": true, "rememberChoice": true, "sessionId": commit.Call.Session}); r.status != 200 {
		t.Fatalf("session remember: %d %s", r.status, r.body)
	}
	// Remembering for every session is a global rule: an approver's
	// answer is refused and changes nothing; an admin's is taken.
	global := map[string]any{"executionId": status.ID, "approved": true, "rememberChoice": true}
	if r := s.answer(status.ID, global); r.status != 403 || !strings.Contains(r.body, "needs an admin credential") {
		t.Fatalf("global remember by an approver: %d %s", r.status, r.body)
	}
	if got := s.get(status.ID); got.Status != toolgate.StatusPending {
		t.Fatalf("after the refused answer: %s", got.Status)
	}
	if r := s.post("/api/tool-confirmation/"+status.ID, s.Admin, global); r.status != 200 {
		t.Fatalf("global remember: %d %s", r.status, r.body)
	}
	if got := s.get(commit.ID).Resolution; got.Scope != toolgate.ScopeSession || got.Grant != toolgate.GrantTool {
		t.Errorf("session remember: %+v", got)
	}
	if got := s.get(status.ID).Resolution; got.Scope != toolgate.ScopeGlobal || got.Grant != toolgate.GrantTool {
		t.Errorf("global remember: %+v", got)
	}
	for _, tc := range []struct {
		session, workspace, tool string
		want                     toolgate.Action
	}{
		{"session-123", "", "git_commit", toolgate.Allow},
		{"session-123", "", "git_status", toolgate.Allow},
		{"session-456", "", "git_commit", toolgate.Ask},
		{"session-456", "", "git_status", toolgate.Allow},
		{"session-789", "other", "git_status", toolgate.Allow},
		{"session-123", "", "git_push", toolgate.Ask},
	} {
		if got := s.decide(tc.session, tc.workspace, "d-"+tc.session+tc.tool, tc.tool, map[string]any{"message": "two"}); got != tc.want {
			t.Errorf("%s %s: %s, want %s", tc.session, tc.tool, got, tc.want)
		}
	}
	grants, err := s.Store.ListGrants(context.Background(), store.GrantFilter{})
	if err != nil || len(grants) != 2 {
		t.Fatalf("grants %v %v", grants, err)
	}
	for _, g := range grants {
		if g.Kind != toolgate.GrantTool || g.Pattern != "*" || g.Via != "confirm" {
			t.Errorf("grant %+v", g)
		}
	}
}

// The event stream carries toolConfirmationRequest in the seed's shape;
// a host submits through POST /api/tool-confirmation and gets the answer.
func TestEventsAndSubmission(t *testing.T) {
	t.Parallel()
	s := newStack(t, confirm.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events := s.events(ctx, "?sessionId=session-123")

	start := time.Now().UTC().Add(-time.Second)
	done := s.submit(map[string]any{"toolName": "git_status", "args": map[string]any{"short": true},
		"description": "Show the working tree status", "sessionId": "session-123"})
	m := next(t, events, "request", func(m sseMsg) bool { return m.Type == "toolConfirmationRequest" })
	var data map[string]any
	if err := json.Unmarshal(m.Data, &data); err != nil {
		t.Fatal(err)
	}
	id, _ := data["executionId"].(string)
	ts, err := time.Parse(time.RFC3339Nano, data["timestamp"].(string))
	if err != nil || ts.Before(start) || !strings.HasSuffix(data["timestamp"].(string), "Z") || len(data["timestamp"].(string)) != len("2026-01-02T15:04:05.000Z") {
		t.Errorf("timestamp %v: %v", data["timestamp"], err)
	}
	want := map[string]any{"toolName": "git_status", "args": map[string]any{"short": true}, "description": "Show the working tree status",
		"executionId": id, "timestamp": data["timestamp"], "sessionId": "session-123"}
	if len(data) != len(want) || !strings.HasPrefix(id, "ap_") || m.id == "" {
		t.Errorf("request %s (id %q)", m.Data, m.id)
	}
	for k, v := range want {
		if got, _ := json.Marshal(data[k]); string(got) != mustJSON(v) {
			t.Errorf("%s = %s, want %s", k, got, mustJSON(v))
		}
	}
	if r := s.answer(id, map[string]any{"approved": true}); r.status != 200 {
		t.Fatalf("answer: %d %s", r.status, r.body)
	}
	out := receive(t, done)
	if !out.Approved || out.Status != "approved" || out.ExecutionID != id || out.CallID == "" {
		t.Errorf("outcome %+v", out)
	}
	res := next(t, events, "resolved", func(m sseMsg) bool { return m.Type == "toolConfirmationResolved" })
	if string(res.Data) != `{"executionId":"`+id+`","sessionId":"session-123","approved":true,"status":"approved"}` {
		t.Errorf("resolved %s", res.Data)
	}

	// Seed 003's "Origin: MCP server tool" reaches a seed-004 UI in the
	// description it shows.
	mcp := s.submit(map[string]any{"toolName": "mcp__github__create_issue", "args": map[string]any{"title": "x"}, "sessionId": "session-123"})
	m = next(t, events, "mcp request", func(m sseMsg) bool { return m.Type == "toolConfirmationRequest" })
	var md map[string]any
	if err := json.Unmarshal(m.Data, &md); err != nil || md["description"] != "MCP server tool (github)" {
		t.Errorf("mcp request %s", m.Data)
	}
	if r := s.answer(md["executionId"].(string), map[string]any{"approved": false}); r.status != 200 {
		t.Fatalf("answer: %d %s", r.status, r.body)
	}
	receive(t, mcp)

	// Another session's request is filtered out; a rule's answer asks no one.
	other := s.submit(map[string]any{"toolName": "glob", "args": map[string]any{"pattern": "*.go"}, "sessionId": "session-456"})
	if out := receive(t, other); !out.Approved || out.Status != "allowed" || out.ExecutionID != "" {
		t.Errorf("rule outcome %+v", out)
	}
	denied := s.submit(map[string]any{"toolName": "read_file", "args": map[string]any{"path": ".env"}, "sessionId": "session-123"})
	if out := receive(t, denied); out.Approved || out.Status != "denied" || out.Reason == "" {
		t.Errorf("deny outcome %+v", out)
	}
	// Bad submissions.
	if r := s.post("/api/tool-confirmation", s.Agent, `{"args": {}}`); r.status != 400 || r.body != `{"error":"toolName: required"}` {
		t.Errorf("no tool: %d %s", r.status, r.body)
	}
	if r := s.post("/api/tool-confirmation", "tg_nope", `{"toolName": "x"}`); r.status != 401 {
		t.Errorf("unknown token: %d %s", r.status, r.body)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// The timeout denies: 30 s by default, configurable.
func TestTimeout(t *testing.T) {
	t.Parallel()
	// The default is the seed's 30 seconds.
	s := newStack(t, confirm.Config{})
	if got := s.confirm.Config().Timeout; got != 30*time.Second {
		t.Errorf("default timeout %s", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events := s.events(ctx, "")
	done := s.submit(map[string]any{"toolName": "deploy", "sessionId": "s1"})
	m := next(t, events, "request", func(m sseMsg) bool { return m.Type == "toolConfirmationRequest" })
	var req confirm.Request
	json.Unmarshal(m.Data, &req)
	a := s.get(req.ExecutionID)
	if got := a.ExpiresAt.Sub(a.CreatedAt); got != 30*time.Second {
		t.Errorf("confirmation expires after %s, want 30s", got)
	}
	s.answer(a.ID, `{"approved": false}`)
	if out := receive(t, done); out.Approved || out.Status != "denied" {
		t.Errorf("outcome %+v", out)
	}

	// A short configured timeout ends in a deny, and the late answer is 404.
	s = newStack(t, confirm.Config{Timeout: 300 * time.Millisecond})
	began := time.Now()
	out := receive(t, s.submit(map[string]any{"toolName": "deploy", "sessionId": "s1"}))
	if out.Approved || out.Status != string(toolgate.StatusExpired) || out.Reason != toolgate.TimeoutReason {
		t.Errorf("timed out: %+v", out)
	}
	if d := time.Since(began); d < 300*time.Millisecond {
		t.Errorf("denied after %s, before the timeout", d)
	}
	if r := s.answer(out.ExecutionID, `{"approved": true}`); r.status != 404 || r.body != notFound {
		t.Errorf("late answer: %d %s", r.status, r.body)
	}
}

// The modes are toolgate's: auto-approve is yolo, auto-deny is auto-deny.
// They apply over the built-in defaults (deploy falls to the "*" catch-all,
// the default document asks for shell_exec), so auto-approve runs the
// shell call with no prompt and auto-deny denies every call, as seed 004
// says; the default deny on reading .env protects a secret in every mode.
func TestModes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		mode                string
		open, shell, dotenv string // outcome status of an open call, a shell call and reading .env
	}{
		{confirm.ModeAutoApprove, "allowed", "allowed", "denied"},
		{confirm.ModeAutoDeny, "denied", "denied", "denied"},
		{confirm.ModeEventBased, "expired", "expired", "denied"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			s := newStack(t, confirm.Config{Mode: tc.mode, Timeout: 200 * time.Millisecond})
			session := "s-" + tc.mode
			for _, c := range []struct {
				what string
				body map[string]any
				want string
			}{
				{"open", map[string]any{"toolName": "deploy", "args": map[string]any{"env": "staging"}}, tc.open},
				{"shell", map[string]any{"toolName": "shell_exec", "args": map[string]any{"command": "npm install"}}, tc.shell},
				{".env", map[string]any{"toolName": "read_file", "args": map[string]any{"path": ".env"}}, tc.dotenv},
			} {
				c.body["sessionId"] = session
				if out := receive(t, s.submit(c.body)); out.Status != c.want {
					t.Errorf("%s: %+v, want %s", c.what, out, c.want)
				}
			}
			// A session of another workspace takes the mode from its
			// second call on (its first, allowed by a rule, creates it).
			w := map[string]any{"toolName": "glob", "args": map[string]any{"pattern": "*"}, "sessionId": "w-" + tc.mode, "workerId": "w2"}
			if out := receive(t, s.submit(w)); out.Status != "allowed" {
				t.Errorf("glob: %+v", out)
			}
			w = map[string]any{"toolName": "deploy", "sessionId": "w-" + tc.mode, "workerId": "w2"}
			if out := receive(t, s.submit(w)); out.Status != tc.open {
				t.Errorf("other workspace: %+v, want %s", out, tc.open)
			}
		})
	}
}

// Memory storage: remembered approvals work until the process stops, and
// are gone after a restart, even one after a crash.
func TestStorageMemory(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStack(t, confirm.Config{AllowedToolsStorage: confirm.StorageMemory})
	a := s.ask("s1", "c1", "git_status", nil)
	b := s.ask("s1", "c2", "git_commit", nil)
	// Seed 004: memory — "Approvals are stored only in memory and cleared
	// when the session ends." Even an answer without a sessionId (which
	// under storage remembers for every session) is the session's.
	if r := s.answer(a.ID, map[string]any{"approved": true, "rememberChoice": true}); r.status != 200 {
		t.Fatalf("remember: %d %s", r.status, r.body)
	}
	s.answer(b.ID, map[string]any{"approved": true, "rememberChoice": true, "sessionId": "s1"})
	if got := s.get(a.ID).Resolution; got.Scope != toolgate.ScopeSession {
		t.Errorf("memory remember without sessionId: scope %s, want session", got.Scope)
	}
	if got := s.decide("s2", "", "c3", "git_status", nil); got != toolgate.Ask {
		t.Errorf("another session: %s, want ask", got)
	}
	for _, tool := range []string{"git_status", "git_commit"} {
		if got := s.decide("s1", "", "c4-"+tool, tool, nil); got != toolgate.Allow {
			t.Errorf("remembered for the session: %s %s", tool, got)
		}
	}
	grants, _ := s.Store.ListGrants(ctx, store.GrantFilter{})
	if len(grants) != 2 || grants[0].Via != confirm.ViaMemory || grants[0].Scope != toolgate.ScopeSession {
		t.Fatalf("grants %+v", grants)
	}
	// The session ends: its remembered approvals are gone with it.
	if _, err := s.Broker.EndSession(toolgate.WithActor(ctx, toolgate.Actor{Name: "host"}), "s1"); err != nil {
		t.Fatal(err)
	}
	if grants, _ := s.Store.ListGrants(ctx, store.GrantFilter{}); len(grants) != 0 {
		t.Fatalf("grants after the session ended: %+v", grants)
	}
	// Approvals a session remembers before a crash are cleared on restart.
	e := s.ask("s5", "c5", "git_status", nil)
	s.answer(e.ID, map[string]any{"approved": true, "rememberChoice": true})
	// A crash (no Close), then a restart over the same store.
	s.Stop()
	dir := t.TempDir()
	s2 := newStack(t, confirm.Config{AllowedToolsStorage: confirm.StorageMemory}, stacktest.On(s.Store, dir))
	if grants, _ := s2.Store.ListGrants(ctx, store.GrantFilter{}); len(grants) != 0 {
		t.Errorf("after restart: %+v", grants)
	}
	if got := s2.decide("s2", "", "c5", "git_status", nil); got != toolgate.Ask {
		t.Errorf("after restart: %s, want ask", got)
	}
	// A clean stop revokes them too.
	c := s2.ask("s3", "c6", "git_status", nil)
	if r := s2.post("/api/tool-confirmation/"+c.ID, s2.Admin, map[string]any{"approved": true, "rememberChoice": true}); r.status != 200 {
		t.Fatalf("remember: %d %s", r.status, r.body)
	}
	if err := s2.confirm.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if got := s2.decide("s4", "", "c7", "git_status", nil); got != toolgate.Ask {
		t.Errorf("after Close: %s, want ask", got)
	}

	// Persistent storage keeps them across a restart.
	p := newStack(t, confirm.Config{})
	d := p.ask("s1", "c1", "git_status", nil)
	if r := p.post("/api/tool-confirmation/"+d.ID, p.Admin, map[string]any{"approved": true, "rememberChoice": true}); r.status != 200 {
		t.Fatalf("remember: %d %s", r.status, r.body)
	}
	p.confirm.Close(ctx)
	p.Stop()
	p2 := newStack(t, confirm.Config{AllowedToolsStorage: confirm.StorageStorage}, stacktest.On(p.Store, t.TempDir()))
	if got := p2.decide("s9", "", "c2", "git_status", nil); got != toolgate.Allow {
		t.Errorf("persistent after restart: %s", got)
	}
}

// The WebSocket carries the same messages and takes seed 004's
// toolConfirmationResponse.
func TestWebSocket(t *testing.T) {
	t.Parallel()
	s := newStack(t, confirm.Config{})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	url := "ws" + strings.TrimPrefix(s.Server.URL, "http") + "/api/events"
	conn, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: map[string][]string{"Authorization": {"Bearer " + s.Approver}}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	read := func(typ string) map[string]any {
		t.Helper()
		for {
			_, data, err := conn.Read(ctx)
			if err != nil {
				t.Fatalf("read %s: %v", typ, err)
			}
			var m struct {
				Type string         `json:"type"`
				Data map[string]any `json:"data"`
			}
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			if m.Type == typ {
				return m.Data
			}
		}
	}
	write := func(v any) {
		t.Helper()
		data, _ := json.Marshal(v)
		if err := conn.Write(ctx, websocket.MessageText, data); err != nil {
			t.Fatal(err)
		}
	}
	done := s.submit(map[string]any{"toolName": "git_commit", "args": map[string]any{"message": "x"}, "sessionId": "session-123"})
	ev := read("toolConfirmationRequest")
	id := ev["executionId"].(string)
	if ev["toolName"] != "git_commit" || ev["sessionId"] != "session-123" {
		t.Errorf("request %v", ev)
	}
	write(map[string]any{"type": "toolConfirmationResponse", "data": map[string]any{"executionId": id, "approved": true, "rememberChoice": true, "sessionId": "session-123"}})
	if r := read("toolConfirmationResult"); r["executionId"] != id || r["success"] != true {
		t.Errorf("result %v", r)
	}
	if out := receive(t, done); !out.Approved {
		t.Errorf("outcome %+v", out)
	}
	if got := s.get(id).Resolution; got.Scope != toolgate.ScopeSession {
		t.Errorf("resolution %+v", got)
	}
	write(map[string]any{"type": "toolConfirmationResponse", "data": map[string]any{"executionId": id, "approved": false}})
	if r := read("error"); r["error"] != confirm.NotFoundMessage || r["executionId"] != id {
		t.Errorf("error %v", r)
	}
}

// The seed's configuration examples, as they are.
func TestParseConfig(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src string
		want      confirm.Config
	}{
		{"schema", "toolConfirmation:\n  mode: \"event-based\" # Confirmation mode\n  timeout: 30000 # Timeout in milliseconds (30 seconds)\n  allowedToolsStorage: \"storage\" # Storage type for remembered approvals\n",
			confirm.Config{Mode: "event-based", Timeout: 30 * time.Second, AllowedToolsStorage: "storage"}},
		{"development", "toolConfirmation:\n  mode: \"auto-approve\"\n  allowedToolsStorage: \"memory\"\n",
			confirm.Config{Mode: "auto-approve", Timeout: 30 * time.Second, AllowedToolsStorage: "memory"}},
		{"production", "toolConfirmation:\n  mode: \"event-based\"\n  timeout: 60000 # 1 minute timeout\n  allowedToolsStorage: \"storage\"\n",
			confirm.Config{Mode: "event-based", Timeout: time.Minute, AllowedToolsStorage: "storage"}},
		{"high security", "toolConfirmation:\n  mode: \"auto-deny\"\n",
			confirm.Config{Mode: "auto-deny", Timeout: 30 * time.Second, AllowedToolsStorage: "storage"}},
		{"custom timeout", "toolConfirmation:\n  mode: \"event-based\"\n  timeout: 120000 # 2 minute timeout\n  allowedToolsStorage: \"storage\"\n",
			confirm.Config{Mode: "event-based", Timeout: 2 * time.Minute, AllowedToolsStorage: "storage"}},
		{"no section", "llm:\n  provider: openai\n", confirm.Config{Timeout: 30 * time.Second, AllowedToolsStorage: "storage"}},
		{"empty", "", confirm.Config{Timeout: 30 * time.Second, AllowedToolsStorage: "storage"}},
	} {
		got, err := confirm.ParseConfig("agent.yml", []byte(tc.src))
		if err != nil || got != tc.want {
			t.Errorf("%s: %+v %v, want %+v", tc.name, got, err, tc.want)
		}
	}
	for src, want := range map[string]string{
		"toolConfirmation:\n  mode: ask\n":                   `agent.yml:2: toolConfirmation.mode: "ask" is not event-based, auto-approve or auto-deny`,
		"toolConfirmation:\n  allowedToolsStorage: disk\n":   `agent.yml:2: toolConfirmation.allowedToolsStorage: "disk" is not storage or memory`,
		"toolConfirmation:\n  timeout: -5\n":                 `agent.yml:2: toolConfirmation.timeout: want milliseconds between 1 and 86400000, got -5`,
		"toolConfirmation:\n  mode: event-based\n  ttl: 5\n": `agent.yml:3: toolConfirmation: unknown key "ttl" (want mode, timeout or allowedToolsStorage)`,
		"toolConfirmation: auto-deny\n":                      `agent.yml:1: toolConfirmation: want a mapping`,
		"toolConfirmation:\n  timeout: soon\n":               "agent.yml:2: toolConfirmation: yaml: unmarshal errors:\n  line 2: cannot unmarshal !!str `soon` into float64",
	} {
		if _, err := confirm.ParseConfig("agent.yml", []byte(src)); err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %s", src, err, want)
		}
	}
	if _, err := confirm.New(context.Background(), nil, confirm.Config{Mode: "sometimes"}, confirm.Options{}); err == nil {
		t.Error("New accepted a bad mode")
	}
}
