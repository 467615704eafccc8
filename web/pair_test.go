package web_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate/web"
)

// pair makes a pairing link as token and returns its path.
func (e *env) pair(token string, body any) string {
	e.t.Helper()
	var p struct{ URL, QR string }
	e.must(200, "POST", "/ui/pair", body, &p, "Bearer", token)
	if !strings.HasPrefix(p.QR, "data:image/png;base64,") {
		e.t.Fatalf("no QR code: %.40s", p.QR)
	}
	i := strings.Index(p.URL, web.PairPath)
	if i < 0 {
		e.t.Fatalf("pairing URL %q", p.URL)
	}
	return p.URL[i:]
}

// redeem posts a pairing link and returns the status and the session
// cookie it set.
func (e *env) redeem(path string, hdr ...string) (int, string) {
	e.t.Helper()
	req, _ := http.NewRequest("POST", e.Server.URL+path, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	resp.Body.Close()
	for _, c := range resp.Cookies() {
		return resp.StatusCode, c.Name + "=" + c.Value
	}
	return resp.StatusCode, ""
}

func TestPairing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	path := e.pair(e.Approver, map[string]string{"label": "phone", "ttl": "48h", "public_url": "https://gate.example.com"})

	// GET shows the question; it signs nobody in.
	r := e.do("GET", path, nil)
	if r.status != 200 || len((&http.Response{Header: r.header}).Cookies()) != 0 || !strings.Contains(string(r.body), "for 48h0m0s") {
		t.Fatalf("pairing page: %d %s", r.status, r.body)
	}
	// A cross-site form cannot redeem it for the visitor.
	if st, _ := e.redeem(path, "Origin", "https://evil.example"); st != http.StatusForbidden {
		t.Fatalf("cross-origin redeem: %d", st)
	}
	// Redeemed by many at once, it signs exactly one device in.
	var wg sync.WaitGroup
	var mu sync.Mutex
	var cookies []string
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if st, c := e.redeem(path); st == http.StatusSeeOther && c != "" {
				mu.Lock()
				cookies = append(cookies, c)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(cookies) != 1 {
		t.Fatalf("pairing link signed %d devices in", len(cookies))
	}
	var info struct {
		Authenticated bool
		Name, Role    string
		ExpiresAt     time.Time `json:"expires_at"`
	}
	e.must(200, "GET", "/ui/session", nil, &info, "Cookie", cookies[0])
	if !info.Authenticated || info.Name != "alice" || info.Role != "approver" || time.Until(info.ExpiresAt) < 47*time.Hour {
		t.Fatalf("paired session %+v", info)
	}
}

func TestPairingRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// Agents cannot pair a device; nobody without a credential can.
	e.must(403, "POST", "/ui/pair", map[string]string{}, nil, "Bearer", e.Agent)
	e.must(401, "POST", "/ui/pair", map[string]string{}, nil)
	e.must(401, "POST", "/ui/pair", map[string]string{}, nil, "Bearer", "tg_not_a_token")
	// Bad input names what is wrong.
	for _, body := range []map[string]string{{"ttl": "10000h"}, {"ttl": "soon"}, {"public_url": "javascript:alert(1)"}, {"publicurl": "x"}} {
		e.must(400, "POST", "/ui/pair", body, nil, "Bearer", e.Approver)
	}
	// A made-up code is refused.
	if st, _ := e.redeem(web.PairPath + "made-up-code"); st != http.StatusForbidden {
		t.Fatalf("made-up code: %d", st)
	}
	// A session cookie without the CSRF token cannot pair.
	c, _ := e.login(e.Approver)
	e.must(403, "POST", "/ui/pair", map[string]string{}, nil, "Cookie", c.Name+"="+c.Value)
}

func TestDevices(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, csrf := e.login(e.Approver)
	alice := c.Name + "=" + c.Value
	e.login(e.Admin)
	_, phone := e.redeem(e.pair(e.Approver, map[string]string{"label": "alice phone"}))

	type dev struct {
		ID, Label, Token string
		Paired, Current  bool
	}
	var list struct{ Devices []dev }
	e.must(200, "GET", "/ui/devices", nil, &list, "Cookie", alice)
	if len(list.Devices) != 2 {
		t.Fatalf("alice sees %+v: want her browser and her phone, not the admin's", list.Devices)
	}
	var phoneID string
	for _, d := range list.Devices {
		if d.Token != "alice" {
			t.Fatalf("alice sees another's device %+v", d)
		}
		if d.Paired {
			phoneID = d.ID
		}
	}
	e.must(200, "GET", "/ui/devices", nil, &list, "Bearer", e.Admin)
	if len(list.Devices) != 3 {
		t.Fatalf("admin sees %d devices, want 3", len(list.Devices))
	}
	var adminID string
	for _, d := range list.Devices {
		if d.Token == "root" {
			adminID = d.ID
		}
	}
	// Alice cannot revoke the admin's session, nor revoke without CSRF.
	e.must(404, "DELETE", "/ui/devices/"+adminID, nil, nil, "Cookie", alice, web.CSRFHeader, csrf)
	e.must(403, "DELETE", "/ui/devices/"+phoneID, nil, nil, "Cookie", alice)
	e.must(204, "DELETE", "/ui/devices/"+phoneID, nil, nil, "Cookie", alice, web.CSRFHeader, csrf)
	var info struct{ Authenticated bool }
	e.must(200, "GET", "/ui/session", nil, &info, "Cookie", phone)
	if info.Authenticated {
		t.Fatal("a revoked device is still signed in")
	}
	// Revoking the token that paired ends what it made.
	if err := e.Tokens.Revoke("alice"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2100 * time.Millisecond) // the recheck interval
	e.must(200, "GET", "/ui/session", nil, &info, "Cookie", alice)
	if info.Authenticated {
		t.Fatal("a session outlived its revoked token")
	}
}
