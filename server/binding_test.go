package server_test

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/internal/stacktest"
	"github.com/toolgate/toolgate/server"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/sqlite"
	"github.com/toolgate/toolgate/tokens"
)

// TestResubmittedCallIDOverHTTP: after a human approved `git push` as
// call tu9, POST /v1/calls with tu9 and other content is 409 and audited;
// the call the human saw, sent again, is still allowed.
func TestResubmittedCallIDOverHTTP(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.ask(shell("s1", "tu9", "git push origin main"))
	e.must(200, "POST", "/v1/approvals/"+a.ID+"/approve", e.Approver, map[string]any{}, nil)
	for _, c := range []toolgate.Call{
		shell("s1", "tu9", "rm -rf /"),
		{ID: "tu9", Session: "s1", Tool: "Read", Args: map[string]any{"file_path": "DATA/tokens.json"}},
		{ID: "tu9", Session: "s1", Tool: "Write", Args: map[string]any{"file_path": "~/.bashrc", "content": "x"}},
	} {
		for _, body := range []any{map[string]any{"call": c}, c} {
			r := e.do("POST", "/v1/calls?wait=1s", e.Agent, body)
			if r.status != http.StatusConflict || r.errMessage()[:9] != "conflict:" {
				t.Fatalf("resubmitted tu9 as %s %v: %d %s", c.Tool, c.Args, r.status, r.body)
			}
		}
	}
	got, err := e.Store.ListAudit(t.Context(), store.AuditFilter{Kind: approval.AuditCallConflict})
	if err != nil || len(got) != 6 {
		t.Fatalf("conflicts audited: %d, %v; want 6", len(got), err)
	}
	if action := e.final(shell("s1", "tu9", "git push origin main")); action != toolgate.Allow {
		t.Fatalf("the approved call resubmitted: %s", action)
	}
}

// TestApproverOverWideGrantOverHTTP: the grants of issue 10's report,
// answered by an approver, are 403 and write nothing (no grant, no audit
// entry, the rules document untouched); the suggestion is taken.
func TestApproverOverWideGrantOverHTTP(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.ask(shell("s1", "c1", "git push origin main"))
	before := e.counts()
	for _, body := range []map[string]any{
		{"scope": "workspace", "grant": "pattern", "pattern": "rm *"},
		{"scope": "global", "pattern": "*"},
		{"scope": "workspace", "grant": "tool"},
		{"scope": "session", "pattern": "*"},
	} {
		r := e.do("POST", "/v1/approvals/"+a.ID+"/approve", e.Approver, body)
		if r.status != http.StatusForbidden {
			t.Fatalf("approver %v: %d %s", body, r.status, r.body)
		}
	}
	if after := e.counts(); after != before {
		t.Fatalf("a refused grant changed something:\n%+v\n%+v", before, after)
	}
	var got toolgate.Approval
	e.must(200, "POST", "/v1/approvals/"+a.ID+"/approve", e.Approver, map[string]any{"scope": "workspace"}, &got)
	if got.Resolution.Pattern != "git push *" {
		t.Fatalf("suggested grant: %+v", got.Resolution)
	}
}

// TestSecondAgentCannotTouchSession: a second agent token against the
// first one's session is told it does not exist (404) on every agent
// route, and nothing changes; the owner still can.
func TestSecondAgentCannotTouchSession(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	other, err := e.Tokens.Create("agent-2", tokens.RoleAgent)
	if err != nil {
		t.Fatal(err)
	}
	a := e.ask(shell("s1", "c1", "git push origin main"))
	b := e.ask(shell("s1", "c2", "make deploy"))
	e.must(200, "POST", "/v1/approvals/"+b.ID+"/deny", e.Approver, map[string]any{"mode": "hard"}, nil)
	before := e.counts()
	for _, at := range []struct {
		method, path string
		body         any
	}{
		{"GET", "/v1/approvals/" + a.ID, nil},
		{"GET", "/v1/approvals/" + a.ID + "?wait=1s", nil},
		{"POST", "/v1/approvals/" + a.ID + "/cancel", nil},
		{"POST", "/v1/calls", shell("s1", "c1", "git push origin main")},
		{"POST", "/v1/calls", shell("s1", "c9", "ls")},
		{"POST", "/v1/evaluate", shell("s1", "", "ls")},
		{"POST", "/v1/sessions/s1/turn-end", nil},
		{"POST", "/v1/sessions/s1/end", nil},
	} {
		r := e.do(at.method, at.path, other, at.body)
		if r.status != http.StatusNotFound || strings.Contains(string(r.body), "git push") {
			t.Errorf("agent-2 %s %s: %d %s", at.method, at.path, r.status, r.body)
		}
	}
	if after := e.counts(); after != before {
		t.Fatalf("another agent changed something:\n%+v\n%+v", before, after)
	}
	if s, err := e.Broker.Session(t.Context(), "s1"); err != nil || !s.Stopped || s.Turn != 0 || s.Owner != "agent-1" {
		t.Fatalf("session s1: %+v %v", s, err)
	}
	// The owner still reads its approval and ends its turn; agent-2 has
	// sessions of its own.
	e.must(200, "GET", "/v1/approvals/"+a.ID, e.Agent, nil, nil)
	e.must(200, "POST", "/v1/sessions/s1/turn-end", e.Agent, nil, nil)
	if r := e.do("POST", "/v1/calls", other, shell("s2", "c1", "make deploy")); r.status != 200 {
		t.Fatalf("agent-2's own session: %d %s", r.status, r.body)
	}
}

// TestDisconnectClearsOwnSessions: an agent credential that says its
// workspace went away cancels the pending approvals of its own sessions
// there, not another agent credential's; an approver's clears them all.
func TestDisconnectClearsOwnSessions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	other, err := e.Tokens.Create("agent-2", tokens.RoleAgent)
	if err != nil {
		t.Fatal(err)
	}
	mine := e.ask(shell("s1", "c1", "git push origin main"))
	var res toolgate.Result
	e.must(200, "POST", "/v1/calls", other, map[string]any{"call": shell("s2", "c1", "make deploy")}, &res)
	theirs := res.Approval
	if theirs == nil || theirs.Status != toolgate.StatusPending || theirs.Call.Workspace != mine.Call.Workspace {
		t.Fatalf("agent-2's ask: %+v", res)
	}
	status := func(a *toolgate.Approval) toolgate.Status {
		got, err := e.Broker.Get(t.Context(), a.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got.Status
	}
	disconnect := "/v1/workspaces/" + mine.Call.Workspace + "/disconnect"
	e.must(200, "POST", disconnect, other, nil, nil)
	if s1, s2 := status(mine), status(theirs); s1 != toolgate.StatusPending || s2 != toolgate.StatusCancelled {
		t.Fatalf("after agent-2's disconnect: agent-1's %s (want pending), agent-2's %s (want cancelled)", s1, s2)
	}
	e.must(200, "POST", disconnect, e.Agent, nil, nil)
	if s1 := status(mine); s1 != toolgate.StatusCancelled {
		t.Fatalf("after agent-1's disconnect: its own %s, want cancelled", s1)
	}
	// An approver's disconnect clears every session's.
	again := e.ask(shell("s1", "c2", "git push origin main"))
	e.must(200, "POST", disconnect, e.Approver, nil, nil)
	if s := status(again); s != toolgate.StatusCancelled {
		t.Fatalf("after an approver's disconnect: %s, want cancelled", s)
	}
}

// TestStopFlagOnEvaluate: the dry run honours a hard deny's stop flag,
// for a call the rules allow, until the turn ends.
func TestStopFlagOnEvaluate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	read := toolgate.Call{Session: "s1", Tool: "Read", Args: map[string]any{"file_path": "README.md"}}
	evaluate := func() toolgate.Action {
		var d toolgate.Decision
		e.must(200, "POST", "/v1/evaluate", e.Agent, read, &d)
		return d.Action
	}
	if got := evaluate(); got != toolgate.Allow {
		t.Fatalf("before: %s", got)
	}
	a := e.ask(shell("s1", "c1", "make deploy"))
	e.must(200, "POST", "/v1/approvals/"+a.ID+"/deny", e.Approver, map[string]any{"mode": "hard"}, nil)
	if got := evaluate(); got != toolgate.Deny {
		t.Fatalf("after a hard deny: %s", got)
	}
	if got := e.final(toolgate.Call{ID: "c2", Session: "s1", Tool: "Read", Args: read.Args}); got != toolgate.Deny {
		t.Fatalf("submit after a hard deny: %s", got)
	}
	e.must(200, "POST", "/v1/sessions/s1/turn-end", e.Agent, nil, nil)
	if got := evaluate(); got != toolgate.Allow {
		t.Fatalf("after the turn ended: %s", got)
	}
}

// TestFailedAuthLimit: a client address that presents more unknown tokens
// than its bucket holds is refused with 429 and Retry-After before its
// tokens are checked, even a valid one, until the bucket refills; the
// count is per address.
func TestFailedAuthLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(d *server.Deps) { d.Limits.FailedAuthPerSecond, d.Limits.FailedAuthBurst = 0.001, 5 })
	for i := range 5 {
		if r := e.do("POST", "/v1/evaluate", "tg_wrong"+strings.Repeat("x", i), shell("s", "", "ls")); r.status != http.StatusUnauthorized {
			t.Fatalf("wrong token %d: %d %s", i, r.status, r.body)
		}
	}
	for _, tok := range []string{"tg_wrong-again", e.Agent} {
		r := e.do("POST", "/v1/evaluate", tok, shell("s", "", "ls"))
		if r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" {
			t.Fatalf("after 5 wrong tokens: %d %s %v", r.status, r.body, r.header)
		}
	}
}

// TestStrictBodies: a body whose keys repeat or differ in case from the
// field they would fill is refused, so {"tool":"Read","tool":"Bash"} can
// never be decided as Bash; ?wait= past any bound is the bound.
func TestStrictBodies(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	before := e.counts()
	for _, body := range []string{
		`{"tool":"Read","tool":"Bash","args":{"command":"rm -rf /"}}`,
		`{"Tool":"Bash","args":{"command":"rm -rf /"}}`,
		`{"call":{"tool":"Bash","args":{"command":"ls","command":"rm -rf /"}}}`,
		`{"call":{"tool":"Bash","args":{"command":"ls"}},"Call":{"tool":"Bash"}}`,
	} {
		for _, path := range []string{"/v1/calls", "/v1/evaluate"} {
			r := e.do("POST", path, e.Agent, body)
			if r.status != http.StatusBadRequest {
				t.Errorf("%s %s: %d %s", path, body, r.status, r.body)
			}
		}
	}
	if r := e.do("POST", "/v1/approvals/x/deny", e.Approver, `{"mode":"soft","Mode":"hard"}`); r.status != http.StatusBadRequest {
		t.Errorf("deny with a case variant: %d %s", r.status, r.body)
	}
	if after := e.counts(); after != before {
		t.Fatalf("a refused body changed something")
	}
	// The user's twin: argument names are the tool's, in any case.
	if r := e.do("POST", "/v1/evaluate", e.Agent, `{"tool":"Bash","args":{"command":"ls","Command":"x"}}`); r.status != 200 {
		t.Fatalf("args with two spellings: %d %s", r.status, r.body)
	}
	for _, wait := range []string{"9223372036854775807", "1e300", "9223372036854775807s"} {
		r := e.do("GET", "/v1/approvals/ap_x?wait="+wait, e.Approver, nil)
		if r.status != http.StatusNotFound && r.status != http.StatusBadRequest || strings.Contains(string(r.body), "negative") {
			t.Errorf("wait=%s: %d %s", wait, r.status, r.body)
		}
	}
}

// fullStore is a SQLite store whose writes fail as a full disk's do while
// full is set.
type fullStore struct {
	*sqlite.DB
	full atomic.Bool
}

func (f *fullStore) AppendAudit(ctx context.Context, entries ...toolgate.AuditEntry) error {
	if f.full.Load() {
		return &toolgate.Error{Code: toolgate.EUnavailable, Message: "sqlite: append audit: disk full", Err: store.ErrUnavailable}
	}
	return f.DB.AppendAudit(ctx, entries...)
}

// TestDiskFullOverHTTP: a write the store cannot take answers 503 with
// its cause and turns /healthz unhealthy, until a write succeeds again.
func TestDiskFullOverHTTP(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db, err := sqlite.Open(t.Context(), filepath.Join(dir, "toolgate.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	st := &fullStore{DB: db}
	e := stacktest.New(t, stacktest.On(st, dir))
	read := toolgate.Call{ID: "r1", Session: "s1", Tool: "Read", Args: map[string]any{"file_path": "README.md"}}
	if r := e.Do("GET", "/healthz", "", nil); r.Status != 200 {
		t.Fatalf("healthz: %d %s", r.Status, r.Body)
	}
	st.full.Store(true)
	r := e.Do("POST", "/v1/calls", e.Agent, read)
	if r.Status != http.StatusServiceUnavailable || !strings.Contains(string(r.Body), "disk full") {
		t.Fatalf("a call on a full disk: %d %s", r.Status, r.Body)
	}
	if r := e.Do("GET", "/healthz", "", nil); r.Status != http.StatusServiceUnavailable || !strings.Contains(string(r.Body), "disk full") {
		t.Fatalf("healthz on a full disk: %d %s", r.Status, r.Body)
	}
	st.full.Store(false)
	read.ID = "r2"
	if r := e.Do("POST", "/v1/calls", e.Agent, read); r.Status != 200 {
		t.Fatalf("a call after space was freed: %d %s", r.Status, r.Body)
	}
	if r := e.Do("GET", "/healthz", "", nil); r.Status != 200 {
		t.Fatalf("healthz after space was freed: %d %s", r.Status, r.Body)
	}
}

// TestOriginRebinding: a page from another name that resolves to the
// gateway (DNS rebinding) sends Host and Origin of that name; the Origin
// is checked against the address the gateway listens on, not the Host.
func TestOriginRebinding(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, port, _ := strings.Cut(strings.TrimPrefix(e.Server.URL, "http://"), ":")
	url := "ws" + strings.TrimPrefix(e.Server.URL, "http") + "/v1/events"
	for _, tc := range []struct {
		origin, host string
		ok           bool
	}{
		{"http://rebind.example:" + port, "rebind.example:" + port, false},
		{"http://rebind.example", "rebind.example", false},
		{"http://127.0.0.2:" + port, "127.0.0.2:" + port, false},
		{"http://127.0.0.1:1", "127.0.0.1:1", false},
		// The user's twins: the gateway's own address, by IP or localhost.
		{"http://127.0.0.1:" + port, "127.0.0.1:" + port, true},
		{"http://localhost:" + port, "localhost:" + port, true},
	} {
		hdr := http.Header{"Authorization": {"Bearer " + e.Approver}, "Origin": {tc.origin}}
		c, resp, err := websocket.Dial(t.Context(), url, &websocket.DialOptions{HTTPHeader: hdr, Host: tc.host})
		if tc.ok != (err == nil) {
			t.Errorf("Origin %s, Host %s: %v %v", tc.origin, tc.host, resp, err)
		}
		if err == nil {
			c.CloseNow()
		} else if resp == nil || resp.StatusCode != http.StatusForbidden {
			t.Errorf("Origin %s: want 403, got %v", tc.origin, resp)
		}
	}
}

// TestRuntimeMetrics: /metrics carries the Go runtime's series and the
// engines kept, each with its HELP and TYPE.
func TestRuntimeMetrics(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ask(shell("s1", "c1", "make"))
	r := e.must(200, "GET", "/metrics", e.Admin, nil, nil)
	m := string(r.body)
	for _, series := range []string{"go_goroutines", "go_memory_mapped_bytes", "go_heap_objects_bytes", "go_gc_cycles_total", "go_gomaxprocs", "toolgate_engines_cached"} {
		if !strings.Contains(m, "# TYPE "+series+" ") || !strings.Contains(m, "\n"+series+" ") {
			t.Errorf("metrics lack %s", series)
		}
	}
	if !strings.Contains(m, "\ntoolgate_engines_cached 1\n") {
		t.Errorf("engines cached after one workspace:\n%s", m)
	}
	if strings.Contains(m, "\ngo_goroutines 0\n") {
		t.Error("no goroutines reported")
	}
}

// TestTokensAPI: an admin creates, lists and revokes credentials over
// /v1/tokens; the token is shown once, never a hash; a revoked token is
// refused on its next request; approvers and agents get 403.
func TestTokensAPI(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tok := range []string{e.Agent, e.Approver} {
		if r := e.do("POST", "/v1/tokens", tok, map[string]string{"name": "x", "role": "admin"}); r.status != http.StatusForbidden {
			t.Fatalf("non-admin creating a token: %d %s", r.status, r.body)
		}
	}
	var created struct{ Name, Role, Token string }
	e.must(http.StatusCreated, "POST", "/v1/tokens", e.Admin, map[string]string{"name": "ci-bot", "role": "agent"}, &created)
	if created.Role != "agent" || !strings.HasPrefix(created.Token, tokens.Prefix) {
		t.Fatalf("created %+v", created)
	}
	if r := e.do("POST", "/v1/tokens", e.Admin, map[string]string{"name": "ci-bot", "role": "agent"}); r.status != http.StatusConflict {
		t.Fatalf("the same name again: %d %s", r.status, r.body)
	}
	if r := e.do("POST", "/v1/tokens", e.Admin, map[string]string{"name": "x", "role": "root"}); r.status != http.StatusBadRequest {
		t.Fatalf("unknown role: %d %s", r.status, r.body)
	}
	r := e.must(200, "GET", "/v1/tokens", e.Admin, nil, nil)
	if !strings.Contains(string(r.body), `"ci-bot"`) || strings.Contains(string(r.body), "hash") || strings.Contains(string(r.body), created.Token) {
		t.Fatalf("list: %s", r.body)
	}
	e.must(200, "POST", "/v1/evaluate", created.Token, shell("s", "", "ls"), nil)
	e.must(http.StatusNoContent, "DELETE", "/v1/tokens/ci-bot", e.Admin, nil, nil)
	if r := e.do("POST", "/v1/evaluate", created.Token, shell("s", "", "ls")); r.status != http.StatusUnauthorized {
		t.Fatalf("revoked token: %d %s", r.status, r.body)
	}
	if r := e.do("DELETE", "/v1/tokens/ci-bot", e.Admin, nil); r.status != http.StatusNotFound {
		t.Fatalf("revoking again: %d", r.status)
	}
	audit, _ := e.Store.ListAudit(t.Context(), store.AuditFilter{})
	kinds := map[string]int{}
	for _, a := range audit {
		kinds[a.Kind]++
	}
	if kinds["token.created"] != 1 || kinds["token.revoked"] != 1 {
		t.Fatalf("audit kinds %v", kinds)
	}
}

// TestSessionlessCallsPerCredential: a call that names no session is in
// its agent credential's own default session. The first agent to send
// one does not take it from the others, a hard deny in one credential's
// default session stops no other's, and no agent can name another's.
func TestSessionlessCallsPerCredential(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	other, err := e.Tokens.Create("agent-2", tokens.RoleAgent)
	if err != nil {
		t.Fatal(err)
	}
	a := e.ask(shell("", "c1", "git push origin main"))
	if a.Call.Session != "default:agent-1" {
		t.Fatalf("agent-1's session-less call is in session %q", a.Call.Session)
	}
	var res toolgate.Result
	e.must(200, "POST", "/v1/calls", other, map[string]any{"call": shell("", "c1", "make deploy")}, &res)
	if res.Approval == nil || res.Approval.Call.Session != "default:agent-2" {
		t.Fatalf("agent-2's session-less call: %+v", res)
	}
	// Naming "default" is the same as naming none.
	e.must(200, "POST", "/v1/calls", other, map[string]any{"call": shell("default", "c2", "make release")}, &res)
	if res.Approval == nil || res.Approval.Call.Session != "default:agent-2" {
		t.Fatalf("agent-2's call in %q: %+v", "default", res)
	}
	e.must(200, "POST", "/v1/approvals/"+res.Approval.ID+"/deny", e.Approver, map[string]any{"mode": "hard"}, nil)
	// agent-2's stop flag is its own: agent-1's default session goes on.
	read := toolgate.Call{ID: "c3", Tool: "Read", Args: map[string]any{"file_path": "README.md"}}
	if got := e.final(read); got != toolgate.Allow {
		t.Fatalf("agent-1's read after agent-2's hard deny: %s", got)
	}
	read.ID = "c4"
	var d toolgate.Result
	e.must(200, "POST", "/v1/calls", other, read, &d)
	if d.Decision.Action != toolgate.Deny {
		t.Fatalf("agent-2's read after its hard deny: %s", d.Decision.Action)
	}
	for _, at := range []struct {
		method, path string
		body         any
	}{
		{"POST", "/v1/calls", shell("default:agent-1", "c9", "ls")},
		{"POST", "/v1/calls", shell("default:agent-3", "c9", "ls")},
		{"POST", "/v1/evaluate", shell("default:agent-1", "", "ls")},
		{"POST", "/v1/sessions/default:agent-1/turn-end", nil},
		{"POST", "/v1/sessions/default:agent-1/end", nil},
	} {
		if r := e.do(at.method, at.path, other, at.body); r.status != http.StatusNotFound {
			t.Errorf("agent-2 %s %s: %d %s", at.method, at.path, r.status, r.body)
		}
	}
	// Its own turn ends by the name it knows its session by.
	e.must(200, "POST", "/v1/sessions/default/turn-end", other, nil, nil)
	if s, err := e.Broker.Session(t.Context(), "default:agent-2"); err != nil || s.Stopped || s.Owner != "agent-2" {
		t.Fatalf("agent-2's default session: %+v %v", s, err)
	}
}

// TestTimeBoxAndRestOverHTTP: "for" and "rest" reach the broker from the
// API; a time box on a once answer or "rest" for a call in no batch is
// 400 with nothing applied.
func TestTimeBoxAndRestOverHTTP(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.ask(shell("s1", "c1", "make deploy"))
	for _, body := range []map[string]any{{"for": "30m"}, {"scope": "session", "for": "forever"}, {"rest": true}} {
		if r := e.do("POST", "/v1/approvals/"+a.ID+"/approve", e.Approver, body); r.status != http.StatusBadRequest {
			t.Fatalf("approve %v: %d %s", body, r.status, r.body)
		}
	}
	if r := e.do("POST", "/v1/approvals/"+a.ID+"/deny", e.Approver, map[string]any{"rest": true}); r.status != http.StatusBadRequest {
		t.Fatalf("deny rest of no batch: %d %s", r.status, r.body)
	}
	e.must(200, "POST", "/v1/approvals/"+a.ID+"/approve", e.Approver, map[string]any{"scope": "session", "for": "30m"}, nil)
	var grants struct{ Grants []toolgate.Grant }
	e.must(200, "GET", "/v1/grants", e.Approver, nil, &grants)
	if len(grants.Grants) != 1 || !grants.Grants[0].ExpiresAt.Equal(e.clock.Now().Add(30*time.Minute)) {
		t.Fatalf("grants: %+v", grants.Grants)
	}
	if got := e.final(shell("s1", "c2", "make deploy")); got != toolgate.Allow {
		t.Fatalf("within the time box: %s", got)
	}
	e.clock.Add(31 * time.Minute)
	if got := e.final(shell("s1", "c3", "make deploy")); got != toolgate.Ask {
		t.Fatalf("after the time box: %s", got)
	}
}
