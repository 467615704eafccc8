package cli_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// browser is an HTTP client with its own cookie jar: a browser or a phone.
type browser struct {
	t *testing.T
	c *http.Client
}

func newBrowser(t *testing.T) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, c: &http.Client{Jar: jar}}
}

func (b *browser) do(method, url, body string) (int, string) {
	b.t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

// signedIn reports whether the browser's session is live on the gateway.
func (b *browser) signedIn(base string) bool {
	b.t.Helper()
	_, body := b.do(http.MethodGet, base+"/ui/session", "")
	var info struct{ Authenticated bool }
	json.Unmarshal([]byte(body), &info)
	return info.Authenticated
}

// TestSessionsSurviveRestart signs a browser in with a token and pairs a
// phone with `toolgate pair`, restarts `toolgate serve` on the same data
// directory, and checks both are still signed in; then revokes the phone
// with `toolgate devices revoke` and checks it alone is signed out.
func TestSessionsSurviveRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts gateway processes")
	}
	t.Parallel()
	bin := toolgateBinary(t)
	data := t.TempDir()
	g := startGateway(t, bin, data)
	approver := createToken(t, bin, data, "approver")
	newClient(t, g.url, approver)
	cli := func(url string, args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, append(args, "--url", url)...)
		cmd.Env = append(os.Environ(), "TOOLGATE_TOKEN="+approver)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("toolgate %v: %v\n%s", args, err, out)
		}
		return string(out)
	}

	laptop := newBrowser(t)
	if st, body := laptop.do(http.MethodPost, g.url+"/ui/login", `{"token":"`+approver+`"}`); st != http.StatusOK {
		t.Fatalf("login: %d %s", st, body)
	}
	var p struct{ URL string }
	if err := json.Unmarshal([]byte(cli(g.url, "pair", "--label", "alice's phone", "--ttl", "720h", "--json")), &p); err != nil {
		t.Fatal(err)
	}
	phone := newBrowser(t)
	// Opening the link shows a button; it signs nobody in by itself.
	if st, body := phone.do(http.MethodGet, p.URL, ""); st != http.StatusOK || !strings.Contains(body, "alice&#39;s phone") {
		t.Fatalf("pairing page: %d %s", st, body)
	}
	if phone.signedIn(g.url) {
		t.Fatal("GET of a pairing link signed the device in")
	}
	if st, _ := phone.do(http.MethodPost, p.URL, ""); st != http.StatusOK {
		t.Fatalf("pairing: %d", st)
	}
	if !phone.signedIn(g.url) || !laptop.signedIn(g.url) {
		t.Fatal("not signed in before the restart")
	}
	// The link works once.
	if st, _ := newBrowser(t).do(http.MethodPost, p.URL, ""); st != http.StatusForbidden {
		t.Fatalf("second use of a pairing link: %d, want 403", st)
	}

	g.cmd.Process.Signal(syscall.SIGTERM)
	g.cmd.Wait()
	g2 := startGateway(t, bin, data)
	if !laptop.signedIn(g2.url) || !phone.signedIn(g2.url) {
		t.Fatal("a restart signed approvers out")
	}
	// The phone answers like any approver session: it can list approvals.
	if st, body := phone.do(http.MethodGet, g2.url+"/v1/approvals", ""); st != http.StatusOK {
		t.Fatalf("paired phone lists approvals: %d %s", st, body)
	}

	list := cli(g2.url, "devices", "list")
	if !strings.Contains(list, "alice's phone") || !strings.Contains(list, "paired device") {
		t.Fatalf("devices list:\n%s", list)
	}
	var devs []struct {
		ID, Label string
		Paired    bool
	}
	json.Unmarshal([]byte(cli(g2.url, "devices", "list", "--json")), &devs)
	var phoneID string
	for _, d := range devs {
		if d.Paired {
			phoneID = d.ID
		}
	}
	if len(devs) != 2 || phoneID == "" {
		t.Fatalf("devices %+v: want the laptop and the phone", devs)
	}
	cli(g2.url, "devices", "revoke", phoneID)
	if phone.signedIn(g2.url) {
		t.Fatal("a revoked device is still signed in")
	}
	if !laptop.signedIn(g2.url) {
		t.Fatal("revoking the phone signed the laptop out")
	}
}
