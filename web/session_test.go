package web_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/tokens"
	"github.com/toolgate/toolgate/web"
)

// login signs in with a token and returns the cookie and the CSRF token.
func (e *env) login(token string) (*http.Cookie, string) {
	e.t.Helper()
	r := e.must(200, "POST", "/ui/login", map[string]string{"token": token}, nil)
	var info struct {
		Authenticated bool
		Name, Role    string
		CSRF          string `json:"csrf"`
	}
	r.decode(e.t, &info)
	if !info.Authenticated || info.CSRF == "" {
		e.t.Fatalf("login: %s", r.body)
	}
	cookies := (&http.Response{Header: r.header}).Cookies()
	if len(cookies) != 1 {
		e.t.Fatalf("login set %d cookies", len(cookies))
	}
	return cookies[0], info.CSRF
}

func TestLoginCookie(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, csrf := e.login(e.Approver)
	if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" || c.Secure {
		t.Fatalf("cookie attributes: %+v", c)
	}
	if strings.Contains(c.Value, e.Approver) || strings.Contains(c.Value, strings.TrimPrefix(e.Approver, "tg_")) || len(c.Value) < 40 {
		t.Fatalf("the cookie must be a random session id, not the token: %q", c.Value)
	}
	if c.Value == csrf {
		t.Fatal("the CSRF token must differ from the session id")
	}
	cookie := "Cookie"
	val := c.Name + "=" + c.Value

	// The session says who is signed in.
	var info struct {
		Authenticated bool
		Name          string
		CSRF          string `json:"csrf"`
	}
	e.must(200, "GET", "/ui/session", nil, &info, cookie, val)
	if !info.Authenticated || info.Name != "alice" || info.CSRF != csrf {
		t.Fatalf("session: %+v", info)
	}
	// Without a cookie: not signed in, still 200 (no console error).
	e.must(200, "GET", "/ui/session", nil, &info)
	if info.Authenticated {
		t.Fatal("no cookie, yet authenticated")
	}

	// GETs work with the cookie alone.
	e.must(200, "GET", "/v1/approvals?status=pending", nil, nil, cookie, val)
	// A state change needs the CSRF token.
	a := e.ask(shell("s1", "c1", "git push origin main"), "")
	path := "/v1/approvals/" + a.ID + "/approve"
	if r := e.do("POST", path, map[string]any{}, cookie, val); r.status != 401 {
		t.Fatalf("approve without CSRF token: %d %s", r.status, r.body)
	}
	if r := e.do("POST", path, map[string]any{}, cookie, val, web.CSRFHeader, "wrong"); r.status != 401 {
		t.Fatalf("approve with a wrong CSRF token: %d %s", r.status, r.body)
	}
	var got toolgate.Approval
	e.must(200, "POST", path, map[string]any{}, &got, cookie, val, web.CSRFHeader, csrf, "X-Toolgate-Client", "web")
	if got.Status != toolgate.StatusApproved || got.Resolution.By != "alice" || got.Resolution.Via != "web" {
		t.Fatalf("approved: %+v", got.Resolution)
	}
	// An approver cannot do an admin's things with the cookie either.
	if r := e.do("GET", "/v1/audit", nil, cookie, val); r.status != 403 {
		t.Fatalf("approver reading audit: %d", r.status)
	}
	if r := e.do("GET", "/ui/audit/verify", nil, cookie, val); r.status != 403 {
		t.Fatalf("approver verifying audit: %d", r.status)
	}

	// Logout needs the CSRF token and ends the session.
	if r := e.do("POST", "/ui/logout", nil, cookie, val); r.status != 403 {
		t.Fatalf("logout without CSRF: %d", r.status)
	}
	e.must(204, "POST", "/ui/logout", nil, nil, cookie, val, web.CSRFHeader, csrf)
	if r := e.do("GET", "/v1/approvals", nil, cookie, val); r.status != 401 {
		t.Fatalf("after logout: %d", r.status)
	}
}

func TestLoginRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct {
		name, body, ctype string
		status            int
		msg               string
	}{
		{"agent", `{"token":"` + e.Agent + `"}`, "application/json", 403, "only approver and admin"},
		{"unknown", `{"token":"tg_` + strings.Repeat("a", 52) + `"}`, "application/json", 401, "unknown"},
		{"form", "token=" + e.Approver, "application/x-www-form-urlencoded", 415, "JSON"},
		{"malformed", "{", "application/json", 400, "malformed"},
	} {
		resp, err := e.Server.Client().Post(e.Server.URL+"/ui/login", tc.ctype, strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status || !strings.Contains(string(body), tc.msg) {
			t.Errorf("%s: %d %s, want %d with %q", tc.name, resp.StatusCode, body, tc.status, tc.msg)
		}
		if len(resp.Cookies()) > 0 {
			t.Errorf("%s: a refused login set a cookie", tc.name)
		}
	}
}

// clock is a settable clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func TestSessionEnds(t *testing.T) {
	t.Parallel()
	c := &clock{t: time.Now()}
	e := newEnv(t, web.WithClock(c.Now), web.WithSessionTTL(time.Hour), web.WithIdleTimeout(20*time.Minute))
	ck, _ := e.login(e.Approver)
	val := ck.Name + "=" + ck.Value
	if ck.MaxAge != 3600 {
		t.Fatalf("max age %d", ck.MaxAge)
	}
	ok := func() bool { return e.do("GET", "/v1/sessions", nil, "Cookie", val).status == 200 }
	// Use keeps it alive past the idle timeout, up to the TTL.
	for range 3 {
		c.Add(15 * time.Minute)
		if !ok() {
			t.Fatal("session ended while in use")
		}
	}
	c.Add(16 * time.Minute) // 61 minutes after login
	if ok() {
		t.Fatal("session outlived its TTL")
	}
	// Idle timeout.
	ck, _ = e.login(e.Approver)
	val = ck.Name + "=" + ck.Value
	c.Add(21 * time.Minute)
	if ok() {
		t.Fatal("session outlived its idle timeout")
	}
	// Revoking the token ends its sessions.
	ck, _ = e.login(e.Approver)
	val = ck.Name + "=" + ck.Value
	if !ok() {
		t.Fatal("fresh session refused")
	}
	if err := e.Tokens.Revoke("alice"); err != nil {
		t.Fatal(err)
	}
	c.Add(3 * time.Second)
	if ok() {
		t.Fatal("session outlived its revoked token")
	}
}

func TestSecureCookieOverTLS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tok, err := tokens.Open(filepath.Join(dir, "tokens.json"))
	if err != nil {
		t.Fatal(err)
	}
	token, _ := tok.Create("alice", tokens.RoleApprover)
	ui := web.New(web.WithTokens(tok))
	srv := httptest.NewTLSServer(ui.Handler())
	defer srv.Close()
	resp, err := srv.Client().Post(srv.URL+"/ui/login", "application/json", strings.NewReader(`{"token":"`+token+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cs := resp.Cookies()
	if resp.StatusCode != 200 || len(cs) != 1 || !cs[0].Secure || cs[0].Name != "__Host-toolgate_session" {
		t.Fatalf("TLS login: %d %+v", resp.StatusCode, cs)
	}
	req, _ := http.NewRequest("GET", srv.URL+"/ui/session", nil)
	req.AddCookie(cs[0])
	if _, ok := ui.Authenticate(req); !ok {
		t.Fatal("the __Host- cookie does not authenticate")
	}
}

func TestPageAndAssets(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.must(200, "GET", "/", nil, nil)
	if !strings.Contains(string(r.body), `<script type="module" src="static/js/app.js">`) {
		t.Fatalf("page: %.300s", r.body)
	}
	csp := r.header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") || r.header.Get("X-Frame-Options") != "DENY" {
		t.Fatalf("headers: %v", r.header)
	}
	for _, p := range []string{"/static/js/app.js", "/static/js/inbox.js", "/static/style.css", "/static/icon.svg"} {
		r := e.must(200, "GET", p, nil, nil)
		if len(r.body) == 0 {
			t.Errorf("%s is empty", p)
		}
	}
	if ct := e.must(200, "GET", "/static/js/app.js", nil, nil).header.Get("Content-Type"); !strings.Contains(ct, "javascript") {
		t.Errorf("module content type %q", ct)
	}
	for _, p := range []string{"/static/", "/static/js/", "/static/nope.js", "/ui/nope"} {
		if r := e.do("GET", p, nil); r.status != 404 {
			t.Errorf("%s: %d", p, r.status)
		}
	}
	// The API still owns its routes.
	e.must(200, "GET", "/healthz", nil, nil)
	// No file of the page loads anything from elsewhere.
	for _, p := range []string{"/", "/static/style.css", "/static/js/app.js", "/static/js/api.js", "/static/js/dom.js", "/static/js/inbox.js", "/static/js/shell.js", "/static/js/stream.js", "/static/js/views.js"} {
		body := string(e.must(200, "GET", p, nil, nil).body)
		for _, bad := range []string{"http://", "https://", "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("} {
			if strings.Contains(body, bad) {
				t.Errorf("%s contains %q", p, bad)
			}
		}
	}
}

// The API server checks the Origin of WebSocket upgrades made with the
// cookie, so another site's page cannot open the event stream.
func TestWebSocketOrigin(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ck, _ := e.login(e.Approver)
	url := "ws" + strings.TrimPrefix(e.Server.URL, "http") + "/v1/events"
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	hdr := func(origin string) http.Header {
		return http.Header{"Cookie": {ck.Name + "=" + ck.Value}, "Origin": {origin}}
	}
	c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: hdr(e.Server.URL)})
	if err != nil {
		t.Fatalf("same origin: %v", err)
	}
	c.CloseNow()
	if _, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: hdr("https://evil.example")}); err == nil || resp == nil || resp.StatusCode != 403 {
		t.Fatalf("cross origin: %v %v", err, resp)
	}
	// And without the cookie there is no stream at all.
	if _, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {e.Server.URL}}}); err == nil || resp == nil || resp.StatusCode != 401 {
		t.Fatalf("no cookie: %v %v", err, resp)
	}
}

func TestVerifyChain(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for i := range 3 {
		a := e.ask(shell("s1", "c"+string(rune('0'+i)), "git push origin main"), "")
		e.must(200, "POST", "/v1/approvals/"+a.ID+"/deny", map[string]any{"mode": "soft"}, nil, "Bearer", e.Approver)
	}
	ck, _ := e.login(e.Admin)
	var st struct {
		OK      bool
		Entries int
		Head    string
		Error   string
	}
	e.must(200, "GET", "/ui/audit/verify", nil, &st, "Cookie", ck.Name+"="+ck.Value)
	if !st.OK || st.Entries < 6 || st.Head == "" || st.Error != "" {
		t.Fatalf("verify: %+v", st)
	}
}
