package ntfy

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/notify"
	"github.com/toolgate/toolgate/integrations/notify/notifytest"
)

// fakeNtfy is a stand-in ntfy server that records every publish.
type fakeNtfy struct {
	mu   sync.Mutex
	msgs []map[string]any
	auth []string
}

func newFake(t *testing.T) (*fakeNtfy, *httptest.Server) {
	f := &fakeNtfy{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m map[string]any
		if r.Method != http.MethodPost || r.URL.Path != "/" || json.NewDecoder(r.Body).Decode(&m) != nil {
			http.Error(w, "bad publish", http.StatusBadRequest)
			return
		}
		f.mu.Lock()
		f.msgs = append(f.msgs, m)
		f.auth = append(f.auth, r.Header.Get("Authorization"))
		f.mu.Unlock()
		json.NewEncoder(w).Encode(map[string]any{"id": "x", "topic": m["topic"]})
	}))
	t.Cleanup(srv.Close)
	return f, srv
}

func (f *fakeNtfy) find(match func(map[string]any) bool) map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, m := range f.msgs {
		if match(m) {
			return m
		}
	}
	return nil
}

func setup(t *testing.T) (*fakeNtfy, *notifytest.Env) {
	fake, srv := newFake(t)
	env := notifytest.New(t, notify.Filter{}, func(links *notify.Links) notify.Notifier {
		cfg := Config{URL: srv.URL, Topic: "ops-approvals", Token: "tk_ntfy_publish_secret", PublicURL: "http://gateway.invalid"}
		if err := cfg.Check(); err != nil {
			t.Fatal(err)
		}
		return New(cfg, links, nil)
	})
	return fake, env
}

// actions waits for the publish of command and returns its buttons by
// label.
func actions(t *testing.T, fake *fakeNtfy, command string) (map[string]any, map[string]string) {
	t.Helper()
	var msg map[string]any
	notifytest.Eventually(t, "publish of "+command, func() bool {
		msg = fake.find(func(m map[string]any) bool { s, _ := m["message"].(string); return strings.Contains(s, command) })
		return msg != nil
	})
	out := map[string]string{}
	for _, a := range msg["actions"].([]any) {
		a := a.(map[string]any)
		if a["action"] != "http" || a["method"] != "POST" {
			t.Fatalf("action %v: want an http POST", a)
		}
		out[a["label"].(string)] = a["url"].(string)
	}
	return msg, out
}

// TestNtfyEndToEnd: approval → message with http buttons → the phone's
// press posts the signed link → resolved as the topic's recipient via
// ntfy → the notification is updated under the same sequence id. The
// link does not work twice, nor for any other approval.
func TestNtfyEndToEnd(t *testing.T) {
	t.Parallel()
	fake, env := setup(t)
	a := env.Submit(t, "demo", "c1", "git push origin main")
	b := env.Submit(t, "demo", "c2", "git push origin release")
	msg, btn := actions(t, fake, "git push origin main")
	if msg["topic"] != "ops-approvals" || len(btn) != 3 || btn["Approve"] == "" || btn["Session"] == "" || btn["Deny"] == "" {
		t.Fatalf("publish %v", msg)
	}
	if raw, _ := json.Marshal(msg); strings.Contains(string(raw), "tk_ntfy_publish_secret") || strings.Contains(string(raw), env.Stack.Approver) {
		t.Fatal("a credential is in the notification")
	}
	if fake.auth[0] != "Bearer tk_ntfy_publish_secret" {
		t.Fatalf("publish auth %q", fake.auth[0])
	}
	// The links point at the configured public URL; the phone reaches the
	// gateway there (here: the test's address).
	local := func(u string) string {
		if !strings.HasPrefix(u, "http://gateway.invalid/answer/") {
			t.Fatalf("link %q is not on the public URL", u)
		}
		return env.URL + strings.TrimPrefix(u, "http://gateway.invalid")
	}

	// A forged link: b's id swapped into a's signed payload.
	tok := strings.TrimPrefix(btn["Approve"], "http://gateway.invalid/answer/")
	p, sig, _ := strings.Cut(tok, ".")
	raw, _ := base64.RawURLEncoding.DecodeString(p)
	forged := base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(raw), a.ID, b.ID, 1)))
	if st := notifytest.Post(t, env.URL+notify.LinkPath+forged+"."+sig); st != http.StatusForbidden {
		t.Fatalf("forged link: %d, want 403", st)
	}
	// A link signed with another gateway's key.
	other, _ := notify.NewLinks([]byte(strings.Repeat("k", 32)), nil)
	foreign, _ := other.URL(env.URL, b, notify.AnswerOnce, "ntfy:ops-approvals")
	if st := notifytest.Post(t, foreign); st != http.StatusForbidden {
		t.Fatalf("foreign link: %d, want 403", st)
	}
	// GET (a link preview, a scanner) shows the question and answers nothing.
	resp, err := http.Get(local(btn["Approve"]))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || env.Get(t, a.ID).Status != toolgate.StatusPending {
		t.Fatalf("GET of a link: %d, status %s", resp.StatusCode, env.Get(t, a.ID).Status)
	}

	if st := notifytest.Post(t, local(btn["Approve"])); st != http.StatusOK {
		t.Fatalf("press: %d", st)
	}
	r := env.Get(t, a.ID).Resolution
	if r == nil || r.Status != toolgate.StatusApproved || r.By != "ntfy:ops-approvals" || r.Via != "ntfy" || r.Scope != toolgate.ScopeOnce {
		t.Fatalf("resolution %+v", r)
	}
	// Replayed: refused. The other buttons of the same message: refused
	// too (the approval is answered).
	if st := notifytest.Post(t, local(btn["Approve"])); st != http.StatusForbidden {
		t.Fatalf("replayed link: %d, want 403", st)
	}
	if st := notifytest.Post(t, local(btn["Deny"])); st == http.StatusOK {
		t.Fatal("a second answer to the same approval was accepted")
	}
	if env.Get(t, a.ID).Status != toolgate.StatusApproved || env.Get(t, b.ID).Status != toolgate.StatusPending {
		t.Fatal("an outcome changed")
	}
	notifytest.Eventually(t, "notification updated", func() bool {
		m := fake.find(func(m map[string]any) bool {
			return m["sequence_id"] == msg["sequence_id"] && m["actions"] == nil
		})
		return m != nil && strings.Contains(m["title"].(string), "approved once by ntfy:ops-approvals via ntfy")
	})
}

// TestNtfyExpiredLink: a link past its approval's expiry is refused.
func TestNtfyExpiredLink(t *testing.T) {
	t.Parallel()
	_, env := setup(t)
	a := env.Submit(t, "demo", "c1", "make deploy")
	past, _ := notify.NewLinks([]byte("notifytest link key, not secret\x00"), func() time.Time { return time.Now().Add(time.Hour) })
	u, _ := env.Links.URL(env.URL, a, notify.AnswerOnce, "ntfy:x")
	if _, err := past.Redeem(t.Context(), env.Stack.Broker, strings.TrimPrefix(u, env.URL+notify.LinkPath)); err != notify.ErrLinkExpired {
		t.Fatalf("expired link: %v", err)
	}
	if env.Get(t, a.ID).Status != toolgate.StatusPending {
		t.Fatal("an expired link answered")
	}
}
