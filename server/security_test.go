package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/server"
	"github.com/toolgate/toolgate/server/mount"
	"github.com/toolgate/toolgate/tokens"
)

// An agent token tries every route that needs more than an agent: each
// answers 403 and nothing changes.
func TestAgentCannotAnswerOrAdminister(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.ask(shell("s1", "c1", "git push origin main"))
	q := e.ask(toolgate.Call{ID: "q1", Session: "s1", Tool: "AskUserQuestion"})
	before := e.counts()
	attacks := []struct {
		method, path string
		body         any
	}{
		{"POST", "/v1/approvals/" + a.ID + "/approve", map[string]any{"scope": "global"}},
		{"POST", "/v1/approvals/" + a.ID + "/approve", nil},
		{"POST", "/v1/approvals/" + q.ID + "/approve", map[string]any{"answer": "yes"}},
		{"POST", "/v1/approvals/" + a.ID + "/deny", map[string]any{"mode": "hard"}},
		{"GET", "/v1/approvals", nil},
		{"GET", "/v1/grants", nil},
		{"POST", "/v1/grants", map[string]any{"scope": "global", "tool": "Bash", "pattern": "*"}},
		{"DELETE", "/v1/grants/gr_x", nil},
		{"GET", "/v1/workspaces/default/rules", nil},
		{"PUT", "/v1/workspaces/default/rules", `{"*": "allow"}`},
		{"GET", "/v1/sessions", nil},
		{"GET", "/v1/sessions/s1", nil},
		{"PUT", "/v1/sessions/s1/mode", map[string]string{"mode": "yolo"}},
		{"POST", "/v1/sessions/s1/abort", nil},
		{"GET", "/v1/audit", nil},
		{"GET", "/v1/events", nil},
		{"GET", "/metrics", nil},
	}
	for _, at := range attacks {
		r := e.do(at.method, at.path, e.Agent, at.body, "Accept", "text/event-stream")
		if r.status != http.StatusForbidden || !strings.HasPrefix(r.errMessage(), "forbidden:") {
			t.Errorf("agent %s %s: %d %s", at.method, at.path, r.status, r.body)
		}
	}
	// The WebSocket upgrade is refused too.
	url := "ws" + strings.TrimPrefix(e.Server.URL, "http") + "/v1/events"
	_, resp, err := websocket.Dial(context.Background(), url, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + e.Agent}}})
	if err == nil || resp == nil || resp.StatusCode != 403 {
		t.Errorf("agent websocket: %v %v", resp, err)
	}
	if after := e.counts(); after != before {
		t.Fatalf("an agent changed something:\n%+v\n%+v", before, after)
	}
	if got := e.get(a.ID); got.Status != toolgate.StatusPending {
		t.Fatalf("approval %s", got.Status)
	}
	// Approvers cannot do what needs an admin either.
	for _, at := range []struct{ method, path string }{{"POST", "/v1/grants"}, {"PUT", "/v1/workspaces/default/rules"}, {"GET", "/v1/audit"}, {"DELETE", "/v1/grants/x"}} {
		if r := e.do(at.method, at.path, e.Approver, `{}`); r.status != 403 {
			t.Errorf("approver %s %s: %d", at.method, at.path, r.status)
		}
	}
}

func TestAuthentication(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	call := shell("s", "c", "ls")
	for _, tc := range []struct {
		name, header string
	}{
		{"missing", ""},
		{"unknown", "Bearer tg_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},
		{"not bearer", "Basic dXNlcjpwYXNz"},
		{"bare token", e.Agent},
	} {
		r := e.do("POST", "/v1/evaluate", "", call, "Authorization", tc.header)
		if r.status != 401 || r.header.Get("WWW-Authenticate") == "" || !strings.HasPrefix(r.errMessage(), "unauthorized:") {
			t.Errorf("%s: %d %s", tc.name, r.status, r.body)
		}
	}
	// A revoked token stops working at once.
	tok, err := e.Tokens.Create("temp", "agent")
	if err != nil {
		t.Fatal(err)
	}
	e.must(200, "POST", "/v1/evaluate", tok, call, nil)
	if err := e.Tokens.Revoke("temp"); err != nil {
		t.Fatal(err)
	}
	e.must(401, "POST", "/v1/evaluate", tok, call, nil)
	// Public routes need nothing.
	e.must(200, "GET", "/healthz", "", nil, nil)
	e.must(200, "GET", "/v1/openapi.json", "", nil, nil)
	e.must(401, "GET", "/metrics", "", nil, nil)
	e.must(404, "GET", "/v1/nothing", "", nil, nil)
}

func TestRateLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(d *server.Deps) { d.Limits.RatePerSecond = 1; d.Limits.Burst = 3 })
	call := shell("s", "c", "ls")
	for range 3 {
		e.must(200, "POST", "/v1/evaluate", e.Agent, call, nil)
	}
	r := e.do("POST", "/v1/evaluate", e.Agent, call)
	if r.status != 429 || r.header.Get("Retry-After") != "1" || !strings.HasPrefix(r.errMessage(), "rate_limited:") {
		t.Fatalf("flood: %d %q %s", r.status, r.header.Get("Retry-After"), r.body)
	}
	// Another token has its own bucket.
	e.must(200, "GET", "/v1/approvals", e.Approver, nil, nil)
}

// Malformed bodies get a 400 that says what is wrong, and nothing is
// stored.
func TestMalformedBodies(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.ask(shell("s1", "c1", "make"))
	before := e.counts()
	for _, tc := range []struct {
		method, path, body, want string
	}{
		{"POST", "/v1/calls", `{"call": {"tool": "Bash", "args": {"command": "ls"}}`, "middle of a value"},
		{"POST", "/v1/calls", `{"call": {"tool": "Bash"}, "colour": "red"}`, `unknown field "colour"`},
		{"POST", "/v1/calls", `{"tool": "Bash", "args": "ls"}`, `field "args": expected an object, got string`},
		{"POST", "/v1/calls", `{"tool": "Bash", "tier": "root"}`, `unknown tier "root"`},
		{"POST", "/v1/calls", `{"tool": 7}`, `field "tool": expected a string, got number`},
		{"POST", "/v1/calls", `{"args": {}}`, `no "tool"`},
		{"POST", "/v1/calls", `{"call": {"tool": "Bash"}, "tool": "Read"}`, "not both"},
		{"POST", "/v1/calls", `{"call": {"tool": "Bash"}, "ttl": "soon"}`, `ttl "soon"`},
		{"POST", "/v1/calls", `{"call": {"tool": "Bash"}, "hold": "false"}`, `field "hold": expected a boolean`},
		{"POST", "/v1/calls", ``, "empty"},
		{"POST", "/v1/calls", `{"tool": "Bash"} {"tool": "Read"}`, "after the JSON value"},
		{"POST", "/v1/calls", `[1,2]`, "expected an object"},
		{"POST", "/v1/calls", `{"tool": "Bash",}`, "malformed JSON at byte"},
		{"POST", "/v1/calls?wait=forever", `{"tool": "Bash"}`, `wait="forever"`},
		{"POST", "/v1/evaluate", `{"tool": "Bash", "argz": {}}`, `unknown field "argz"`},
		{"POST", "/v1/approvals/" + a.ID + "/approve", `{"scope": "forever"}`, `unknown scope "forever"`},
		{"POST", "/v1/approvals/" + a.ID + "/approve", `{"scope": "session", "extra": 1}`, `unknown field "extra"`},
		{"POST", "/v1/approvals/" + a.ID + "/deny", `{"mode": "medium"}`, `unknown deny mode "medium"`},
		{"POST", "/v1/approvals/" + a.ID + "/deny", `{"mode": 1}`, `field "mode": expected`},
		{"POST", "/v1/grants", `{"scope": "global"}`, "no tool"},
		{"POST", "/v1/grants", `{"scope": "galaxy", "tool": "Bash"}`, `unknown scope "galaxy"`},
		{"PUT", "/v1/sessions/s1/mode", `{}`, `missing "mode"`},
		{"GET", "/v1/approvals?status=maybe", ``, `status="maybe"`},
		{"GET", "/v1/approvals?limit=-1", ``, `limit="-1"`},
		{"GET", "/v1/grants?scope=galaxy", ``, `scope="galaxy"`},
		{"GET", "/v1/audit?after=x", ``, `after="x"`},
	} {
		token := e.Admin
		r := e.do(tc.method, tc.path, token, tc.body)
		if r.status != 400 || !strings.Contains(r.errMessage(), tc.want) || !strings.HasPrefix(r.errMessage(), "invalid:") {
			t.Errorf("%s %s %s: %d %s, want 400 with %q", tc.method, tc.path, tc.body, r.status, r.body, tc.want)
		}
	}
	if after := e.counts(); after != before {
		t.Fatalf("a malformed request changed something:\n%+v\n%+v", before, after)
	}
	e.must(404, "POST", "/v1/approvals/ap_nope/approve", e.Approver, nil, nil)
	e.must(404, "GET", "/v1/sessions/nope", e.Approver, nil, nil)
}

func TestSizeLimits(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(d *server.Deps) { d.Limits.MaxArgsBytes = 1000 })
	before := e.counts()
	big := strings.Repeat("x", 2<<20)
	r := e.do("POST", "/v1/calls", e.Agent, `{"tool": "Bash", "args": {"command": "`+big+`"}}`)
	if r.status != 413 || !strings.Contains(r.errMessage(), "larger than 1048576 bytes") {
		t.Fatalf("big body: %d %s", r.status, r.body)
	}
	args := strings.Repeat("y", 2000)
	r = e.do("POST", "/v1/calls", e.Agent, shell("s", "c", args))
	if r.status != 413 || !strings.Contains(r.errMessage(), "args are") {
		t.Fatalf("big args: %d %s", r.status, r.body)
	}
	r = e.do("POST", "/v1/calls", e.Agent, map[string]any{"call": shell("s", "c", "ls"), "batch_remaining": []toolgate.Call{shell("s", "c2", args)}})
	if r.status != 413 {
		t.Fatalf("big args in batch_remaining: %d %s", r.status, r.body)
	}
	r = e.do("POST", "/v1/evaluate", e.Agent, shell("s", "c", args))
	if r.status != 413 {
		t.Fatalf("big args evaluate: %d %s", r.status, r.body)
	}
	doc := `{"*": "ask", "read_file": {` + strings.Repeat(`"a": "allow", `, 30000) + `"b": "allow"}}`
	r = e.do("PUT", "/v1/workspaces/default/rules", e.Admin, doc)
	if r.status != 413 || !strings.Contains(r.errMessage(), "262144") {
		t.Fatalf("big rules: %d %s", r.status, r.body)
	}
	if after := e.counts(); after != before {
		t.Fatalf("an oversized request changed something")
	}
}

func TestRulesDocument(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.must(200, "GET", "/v1/workspaces/default/rules", e.Admin, nil, nil)
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/jsonc") || !strings.Contains(string(r.body), "// toolgate default rules") {
		t.Fatalf("GET rules: %s\n%.200s", ct, r.body)
	}
	before := e.counts()
	bad := "{\n  \"*\": \"ask\",\n  \"Bash\": {\"git *\": \"perhaps\"}\n}\n"
	r = e.do("PUT", "/v1/workspaces/default/rules", e.Admin, bad)
	if r.status != 400 || !strings.Contains(r.errMessage(), ":3:") || !strings.Contains(r.errMessage(), "perhaps") {
		t.Fatalf("bad rules: %d %s", r.status, r.body)
	}
	if after := e.counts(); after != before {
		t.Fatal("a refused document changed something")
	}
	good := "// mine\n{\n  \"*\": \"ask\",\n  \"Bash\": {\"git status\": \"allow\"}, // keep\n}\n"
	e.must(204, "PUT", "/v1/workspaces/default/rules", e.Admin, good, nil)
	r = e.must(200, "GET", "/v1/workspaces/default/rules", e.Admin, nil, nil)
	if string(r.body) != good {
		t.Fatalf("stored document differs:\n%s", r.body)
	}
	if got := e.final(shell("s", "c1", "git status")); got != toolgate.Allow {
		t.Fatalf("new rules not in force: %s", got)
	}
	var au struct{ Entries []toolgate.AuditEntry }
	e.must(200, "GET", "/v1/audit?kind=rules.changed", e.Admin, nil, &au)
	if len(au.Entries) != 1 || au.Entries[0].Who != "root" {
		t.Fatalf("rules change not audited: %+v", au.Entries)
	}
	if r := e.do("GET", "/v1/workspaces/..%2F..%2Fetc/rules", e.Admin, nil); r.status != 400 {
		t.Fatalf("path traversal: %d %s", r.status, r.body)
	}
}

func TestEventsNegotiation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.do("GET", "/v1/events", e.Approver, nil, "Accept", "application/json")
	if r.status != 406 {
		t.Fatalf("plain GET: %d %s", r.status, r.body)
	}
	url := "ws" + strings.TrimPrefix(e.Server.URL, "http") + "/v1/events"
	hdr := http.Header{"Authorization": {"Bearer " + e.Approver}, "Origin": {"https://evil.example"}}
	_, resp, err := websocket.Dial(context.Background(), url, &websocket.DialOptions{HTTPHeader: hdr})
	if err == nil || resp == nil || resp.StatusCode != 403 {
		t.Fatalf("cross-origin websocket: %v %v", resp, err)
	}
	hdr.Set("Origin", e.Server.URL)
	c, _, err := websocket.Dial(context.Background(), url, &websocket.DialOptions{HTTPHeader: hdr})
	if err != nil {
		t.Fatalf("same-origin websocket: %v", err)
	}
	c.CloseNow()
	e2 := newEnv(t, func(d *server.Deps) { d.AllowedOrigins = []string{"*.example"} })
	url2 := "ws" + strings.TrimPrefix(e2.Server.URL, "http") + "/v1/events"
	hdr.Set("Authorization", "Bearer "+e2.Approver)
	hdr.Set("Origin", "https://ui.example")
	c, _, err = websocket.Dial(context.Background(), url2, &websocket.DialOptions{HTTPHeader: hdr})
	if err != nil {
		t.Fatalf("allowed origin: %v", err)
	}
	c.CloseNow()
}

func TestSSEHeartbeat(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := newRequest(ctx, "GET", e.Server.URL+"/v1/events", e.Approver)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := e.Server.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	buf := make([]byte, 0, 256)
	tmp := make([]byte, 64)
	for !strings.Contains(string(buf), ": heartbeat") {
		n, err := resp.Body.Read(tmp)
		if err != nil {
			t.Fatalf("read: %v (got %q)", err, buf)
		}
		buf = append(buf, tmp[:n]...)
	}
}

func TestHealthAndMetrics(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var h map[string]string
	e.must(200, "GET", "/healthz", "", nil, &h)
	if h["status"] != "ok" {
		t.Fatalf("health %v", h)
	}
	e.must(200, "POST", "/v1/evaluate", e.Agent, shell("s", "", "make all"), nil)
	a := e.ask(shell("s", "c1", "make"))
	e.ask(shell("s", "c2", "make b"))
	e.must(200, "POST", "/v1/approvals/"+a.ID+"/deny", e.Approver, map[string]string{"mode": "soft"}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	e.sse(ctx, "")
	wants := []string{
		`toolgate_http_requests_total{method="POST",route="/v1/evaluate",code="200"} 1`,
		`toolgate_http_request_duration_seconds_count{method="POST",route="/v1/calls"} 2`,
		`toolgate_decisions_total{endpoint="evaluate",action="ask"} 1`,
		`toolgate_decisions_total{endpoint="submit",action="ask"} 2`,
		`toolgate_approval_resolutions_total{status="denied"} 1`,
		`toolgate_approvals_pending 1`,
		`toolgate_event_subscribers 1`,
		`toolgate_approval_wait_seconds_count{status="denied"} 1`,
		`toolgate_approval_wait_seconds_bucket{status="denied",le="+Inf"} 1`,
		`toolgate_approval_wait_seconds_count{status="approved"} 0`,
		`toolgate_tool_decisions_total{workspace="default",tool="Bash",action="ask"} 3`,
	}
	// The pending gauge and the resolution counters follow the broker's
	// event stream, and request metrics are counted as a handler returns:
	// both can trail the answers the test has read, so poll.
	var missing []string
	var r response
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		r = e.must(200, "GET", "/metrics", e.Admin, nil, nil)
		missing = missing[:0]
		for _, want := range wants {
			if !strings.Contains(string(r.body), want) {
				missing = append(missing, want)
			}
		}
		if len(missing) == 0 || time.Now().After(deadline) {
			break
		}
	}
	for _, want := range missing {
		t.Errorf("metrics lack %s", want)
	}
	cancel()
	// Public metrics when configured; a failing store makes health 503.
	e2 := newEnv(t, func(d *server.Deps) {
		d.PublicMetrics = true
		d.Health = func(context.Context) error { return os.ErrClosed }
	})
	e2.must(200, "GET", "/metrics", "", nil, nil)
	r = e2.do("GET", "/healthz", "", nil)
	if r.status != 503 || strings.Contains(string(r.body), "closed") {
		t.Fatalf("unhealthy: %d %s", r.status, r.body)
	}
}

// Every route in routes.go is in the OpenAPI document and the document
// describes no route the server lacks.
func TestOpenAPIParity(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.must(200, "GET", "/v1/openapi.json", "", nil, nil)
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	r.decode(t, &doc)
	if doc.OpenAPI != "3.1.0" {
		t.Fatalf("openapi %q", doc.OpenAPI)
	}
	var documented []string
	for p, ops := range doc.Paths {
		for m := range ops {
			switch m {
			case "get", "put", "post", "delete", "patch", "head", "options":
				documented = append(documented, strings.ToUpper(m)+" "+p)
			}
		}
	}
	served := server.Routes()
	slices.Sort(documented)
	slices.Sort(served)
	for _, s := range served {
		if !slices.Contains(documented, s) {
			t.Errorf("route %s is not in openapi.json", s)
		}
	}
	for _, d := range documented {
		if !slices.Contains(served, d) {
			t.Errorf("openapi.json describes %s, which routes.go lacks", d)
		}
	}
}

// A Mount goes through the same authentication, role check and error
// format as the API's routes, and its handler sees the caller.
func TestMounts(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(d *server.Deps) {
		d.Mounts = []mount.Route{
			{Method: "POST", Path: "/trpc/{proc}", Role: tokens.RoleApprover, Handler: func(w http.ResponseWriter, r *http.Request, caller tokens.Entry) error {
				if r.PathValue("proc") == "fail" {
					return toolgate.Errorf(toolgate.EConflict, "nope")
				}
				w.Write([]byte(caller.Name + ":" + r.PathValue("proc")))
				return nil
			}},
			{Path: "/ui/", Handler: func(w http.ResponseWriter, r *http.Request, caller tokens.Entry) error {
				w.Write([]byte("page " + r.Method))
				return nil
			}},
		}
	})
	if r := e.must(200, "POST", "/trpc/tool.approve", e.Approver, `{}`, nil); string(r.body) != "alice:tool.approve" {
		t.Fatalf("mount: %s", r.body)
	}
	e.must(403, "POST", "/trpc/tool.approve", e.Agent, `{}`, nil)
	e.must(401, "POST", "/trpc/tool.approve", "", `{}`, nil)
	if r := e.must(409, "POST", "/trpc/fail", e.Admin, `{}`, nil); r.errMessage() != "conflict: nope" {
		t.Fatalf("mount error: %s", r.body)
	}
	if r := e.must(200, "HEAD", "/ui/x", "", nil, nil); r.status != 200 {
		t.Fatal(r.status)
	}
}

// A sandbox report is audited for an agent; one that names nothing, a
// kind the sandbox does not make or too many violations is refused.
func TestSandboxReport(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	v := func(n int, kind string) map[string]any {
		list := make([]map[string]string, n)
		for i := range list {
			list[i] = map[string]string{"kind": kind, "target": "~/.bashrc", "rule": "writes outside the workspace are blocked"}
		}
		return map[string]any{"command": "sh -c 'echo x >> ~/.bashrc'", "violations": list}
	}
	e.must(200, "POST", "/v1/sandbox/violations", e.Agent, v(2, "file"), nil)
	e.must(400, "POST", "/v1/sandbox/violations", e.Agent, v(0, "file"), nil)
	e.must(400, "POST", "/v1/sandbox/violations", e.Agent, v(1, "shell"), nil)
	e.must(413, "POST", "/v1/sandbox/violations", e.Agent, v(65, "network"), nil)
	var page struct {
		Entries []toolgate.AuditEntry `json:"entries"`
	}
	e.must(200, "GET", "/v1/audit?kind=sandbox.violation", e.Admin, nil, &page)
	if audit := page.Entries; len(audit) != 1 || audit[0].Outcome != "blocked" || !strings.HasPrefix(audit[0].Reason, "writes outside the workspace are blocked: ~/.bashrc (and 1 more)") {
		t.Errorf("audit %+v", page.Entries)
	}
}
