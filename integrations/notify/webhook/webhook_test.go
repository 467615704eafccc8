package webhook

import (
	"encoding/json"
	"io"
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

const secret = "webhook-shared-secret-0123456789"

// receiver is a stand-in webhook endpoint: it keeps the posts whose
// signature verifies and counts the others.
type receiver struct {
	mu    sync.Mutex
	posts []Payload
	raw   []string
	bad   int
}

func newReceiver(t *testing.T) (*receiver, *httptest.Server) {
	rc := &receiver{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		defer rc.mu.Unlock()
		if !Verify(secret, body, r.Header.Get(SignatureHeader)) {
			rc.bad++
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		var p Payload
		if err := json.Unmarshal(body, &p); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		rc.posts = append(rc.posts, p)
		rc.raw = append(rc.raw, string(body))
	}))
	t.Cleanup(srv.Close)
	return rc, srv
}

func (rc *receiver) find(typ toolgate.EventType, id string) *Payload {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for i := range rc.posts {
		if rc.posts[i].Type == typ && rc.posts[i].Approval.ID == id {
			return &rc.posts[i]
		}
	}
	return nil
}

func TestWebhookEndToEnd(t *testing.T) {
	t.Parallel()
	rc, srv := newReceiver(t)
	env := notifytest.New(t, notify.Filter{Tools: []string{"Bash"}}, func(links *notify.Links) notify.Notifier {
		cfg := Config{URL: srv.URL + "/hook", Secret: secret, PublicURL: "http://unused.invalid"}
		if err := cfg.Check(); err != nil {
			t.Fatal(err)
		}
		return New(cfg, links, nil)
	})
	a := env.Submit(t, "demo", "c1", "npm publish")
	var p *Payload
	notifytest.Eventually(t, "webhook post", func() bool { p = rc.find(toolgate.EventApprovalRequested, a.ID); return p != nil })
	if p.Approval.ResumeToken != "" {
		t.Fatal("the resume token was posted")
	}
	rc.mu.Lock()
	raw := rc.raw[0]
	rc.mu.Unlock()
	if strings.Contains(raw, secret) || strings.Contains(raw, env.Stack.Approver) || strings.Contains(raw, a.ResumeToken) {
		t.Fatal("a credential is in the post")
	}
	if !strings.Contains(p.Text, "npm publish") || len(p.Links) != len(notify.Answers) {
		t.Fatalf("payload %+v", p)
	}
	link := env.URL + strings.TrimPrefix(p.Links[notify.AnswerDeny], "http://unused.invalid")
	if st := notifytest.Post(t, link); st != http.StatusOK {
		t.Fatalf("deny link: %d", st)
	}
	r := env.Get(t, a.ID).Resolution
	if r.Status != toolgate.StatusDenied || r.Via != "webhook" || !strings.HasPrefix(r.By, "webhook:127.0.0.1") {
		t.Fatalf("resolution %+v", r)
	}
	if st := notifytest.Post(t, link); st != http.StatusForbidden {
		t.Fatalf("replayed link: %d, want 403", st)
	}
	notifytest.Eventually(t, "resolved post", func() bool {
		q := rc.find(toolgate.EventApprovalResolved, a.ID)
		return q != nil && strings.HasPrefix(q.Outcome, "denied by webhook:")
	})
	if rc.bad != 0 {
		t.Fatalf("%d posts failed the signature check", rc.bad)
	}
}

func TestSignature(t *testing.T) {
	t.Parallel()
	body := []byte(`{"type":"approval.requested"}`)
	sig := Sign(secret, body)
	tests := []struct {
		name   string
		secret string
		body   string
		sig    string
		ok     bool
	}{
		{"genuine", secret, string(body), sig, true},
		{"body changed", secret, `{"type":"approval.resolved"}`, sig, false},
		{"other secret", "another-secret-of-16+", string(body), sig, false},
		{"no signature", secret, string(body), "", false},
		{"bare hex", secret, string(body), strings.TrimPrefix(sig, "sha256="), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := Verify(tc.secret, []byte(tc.body), tc.sig); got != tc.ok {
				t.Fatalf("Verify = %v, want %v", got, tc.ok)
			}
		})
	}
}

// TestWebhookReminder: a reminder posts the approval still pending, with
// how long it has left and its answer links, signed like every post.
func TestWebhookReminder(t *testing.T) {
	t.Parallel()
	rc, srv := newReceiver(t)
	key := []byte(strings.Repeat("k", 32))
	links, err := notify.NewLinks(key, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := New(Config{URL: srv.URL + "/hook", Secret: secret, PublicURL: "http://gateway.invalid"}, links, nil)
	now := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	n.now = func() time.Time { return now }
	a := &toolgate.Approval{ID: "ap_1", ResumeToken: "rt_secret", Status: toolgate.StatusPending, CreatedAt: now.Add(-4 * time.Minute), ExpiresAt: now.Add(time.Minute),
		Call: toolgate.Call{ID: "c1", Session: "s1", Workspace: "w", Tool: "Bash", Args: map[string]any{"command": "npm publish"}}}
	if err := n.Remind(t.Context(), a, "ap_1"); err != nil {
		t.Fatal(err)
	}
	p := rc.find(EventReminder, "ap_1")
	if p == nil || !strings.Contains(p.Text, "expires in 1m0s") || !strings.Contains(p.Text, "npm publish") || len(p.Links) == 0 || p.Approval.ResumeToken != "" {
		t.Fatalf("reminder %+v", p)
	}
}
