package ntfy

import (
	"encoding/json"
	"fmt"
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
	env := notifytest.New(t, notify.Filter{}, func(*notify.Links) notify.Notifier {
		cfg := Config{URL: srv.URL, Topic: "ops-approvals", Token: "tk_ntfy_publish_secret", PublicURL: "http://gateway.invalid"}
		if err := cfg.Check(); err != nil {
			t.Fatal(err)
		}
		return New(cfg, nil)
	})
	return fake, env
}

// published waits for the publish of command.
func published(t *testing.T, fake *fakeNtfy, command string) map[string]any {
	t.Helper()
	var msg map[string]any
	notifytest.Eventually(t, "publish of "+command, func() bool {
		msg = fake.find(func(m map[string]any) bool { s, _ := m["message"].(string); return strings.Contains(s, command) })
		return msg != nil
	})
	return msg
}

// answer posts an answer to the gateway's API as token ("" for none) and
// returns the status.
func answer(t *testing.T, env *notifytest.Env, token, id, verb string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, env.URL+"/v1/approvals/"+id+"/"+verb, strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestNtfyEndToEnd: approval → notification whose only button opens the
// approval in the web inbox, carrying no answer link or credential
// (whoever reads the topic cannot answer) → an answer needs an approver's
// own credential and is recorded as them → the notification is updated
// under the same sequence id.
func TestNtfyEndToEnd(t *testing.T) {
	t.Parallel()
	fake, env := setup(t)
	a := env.Submit(t, "demo", "c1", "git push origin main")
	msg := published(t, fake, "git push origin main")
	open := "http://gateway.invalid/#inbox/" + a.ID
	acts, _ := msg["actions"].([]any)
	if msg["topic"] != "ops-approvals" || msg["click"] != open || len(acts) != 1 {
		t.Fatalf("publish %v", msg)
	}
	if act := acts[0].(map[string]any); act["action"] != "view" || act["url"] != open {
		t.Fatalf("action %v: want a view of the inbox", act)
	}
	raw, _ := json.Marshal(msg)
	if strings.Contains(string(raw), "tk_ntfy_publish_secret") || strings.Contains(string(raw), env.Stack.Approver) || strings.Contains(string(raw), notify.LinkPath) {
		t.Fatalf("a credential or an answer link is in the notification: %s", raw)
	}
	if fake.auth[0] != "Bearer tk_ntfy_publish_secret" {
		t.Fatalf("publish auth %q", fake.auth[0])
	}
	// Someone who read the topic and knows the approval id: no answer.
	if st := answer(t, env, "", a.ID, "approve"); st != http.StatusUnauthorized {
		t.Fatalf("answer without a credential: %d, want 401", st)
	}
	if st := answer(t, env, env.Stack.Approver, a.ID, "approve"); st != http.StatusOK {
		t.Fatalf("the approver's answer: %d", st)
	}
	r := env.Get(t, a.ID).Resolution
	if r == nil || r.Status != toolgate.StatusApproved || strings.HasPrefix(r.By, "ntfy") {
		t.Fatalf("resolution %+v: want the approver, not the topic", r)
	}
	notifytest.Eventually(t, "notification updated", func() bool {
		m := fake.find(func(m map[string]any) bool {
			return m["sequence_id"] == msg["sequence_id"] && m["actions"] == nil
		})
		return m != nil && strings.Contains(m["title"].(string), "approved once by "+r.By)
	})
}

// TestNtfyReminder: a reminder publishes the approval again under the
// same sequence id, saying how long it has left, with the same inbox
// button and no answer in it.
func TestNtfyReminder(t *testing.T) {
	t.Parallel()
	fake, srv := newFake(t)
	cfg := Config{URL: srv.URL, Topic: "ops-approvals", PublicURL: "http://gateway.invalid"}
	if err := cfg.Check(); err != nil {
		t.Fatal(err)
	}
	n := New(cfg, nil)
	now := time.Now()
	n.now = func() time.Time { return now }
	a := notifytest.Pending(now, time.Minute)
	ref := notifytest.SendRemind(t, n, a)
	first := fake.find(func(m map[string]any) bool { s, _ := m["message"].(string); return strings.Contains(s, "npm publish") })
	rem := fake.find(func(m map[string]any) bool { s, _ := m["title"].(string); return strings.Contains(s, "Still waiting") })
	if first == nil || rem == nil {
		t.Fatalf("first %v reminder %v", first, rem)
	}
	if rem["sequence_id"] != ref || !strings.Contains(rem["title"].(string), "expires in 1m0s") || rem["click"] != first["click"] || fmt.Sprint(rem["actions"]) != fmt.Sprint(first["actions"]) {
		t.Fatalf("reminder %v, first %v", rem, first)
	}
}
