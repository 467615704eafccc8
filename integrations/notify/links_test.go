package notify_test

import (
	"context"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/notify"
	"github.com/toolgate/toolgate/integrations/notify/notifytest"
)

// quiet is a notifier that sends nothing: the links are the subject.
type quiet struct{}

func (quiet) Name() string { return "quiet" }
func (quiet) Send(context.Context, *toolgate.Approval) (string, error) {
	return "ref", nil
}
func (quiet) Resolved(context.Context, *toolgate.Approval, string) error { return nil }

// TestLinks: a signed answer link answers its approval once, as its
// recipient; a forged link, one signed by another gateway's key, a GET
// (a link preview) and a second use answer nothing.
func TestLinks(t *testing.T) {
	t.Parallel()
	env := notifytest.New(t, notify.Filter{}, func(*notify.Links) notify.Notifier { return quiet{} })
	a := env.Submit(t, "demo", "c1", "git push origin main")
	b := env.Submit(t, "demo", "c2", "git push origin release")
	approve, _ := env.Links.URL(env.URL, a, notify.AnswerOnce, "hook:ops")
	deny, _ := env.Links.URL(env.URL, a, notify.AnswerDeny, "hook:ops")

	// A forged link: b's id swapped into a's signed payload.
	tok := strings.TrimPrefix(approve, env.URL+notify.LinkPath)
	p, sig, _ := strings.Cut(tok, ".")
	raw, _ := base64.RawURLEncoding.DecodeString(p)
	forged := base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(raw), a.ID, b.ID, 1)))
	if st := notifytest.Post(t, env.URL+notify.LinkPath+forged+"."+sig); st != http.StatusForbidden {
		t.Fatalf("forged link: %d, want 403", st)
	}
	other, _ := notify.NewLinks([]byte(strings.Repeat("k", 32)), nil)
	foreign, _ := other.URL(env.URL, b, notify.AnswerOnce, "hook:ops")
	if st := notifytest.Post(t, foreign); st != http.StatusForbidden {
		t.Fatalf("foreign link: %d, want 403", st)
	}
	resp, err := http.Get(approve)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || env.Get(t, a.ID).Status != toolgate.StatusPending {
		t.Fatalf("GET of a link: %d, status %s", resp.StatusCode, env.Get(t, a.ID).Status)
	}
	if st := notifytest.Post(t, approve); st != http.StatusOK {
		t.Fatalf("press: %d", st)
	}
	r := env.Get(t, a.ID).Resolution
	if r == nil || r.Status != toolgate.StatusApproved || r.By != "hook:ops" || r.Via != "hook" || r.Scope != toolgate.ScopeOnce {
		t.Fatalf("resolution %+v", r)
	}
	if st := notifytest.Post(t, approve); st != http.StatusForbidden {
		t.Fatalf("replayed link: %d, want 403", st)
	}
	if st := notifytest.Post(t, deny); st == http.StatusOK {
		t.Fatal("a second answer to the same approval was accepted")
	}
	if env.Get(t, a.ID).Status != toolgate.StatusApproved || env.Get(t, b.ID).Status != toolgate.StatusPending {
		t.Fatal("an outcome changed")
	}
}

// TestExpiredLink: a link past its approval's expiry is refused.
func TestExpiredLink(t *testing.T) {
	t.Parallel()
	env := notifytest.New(t, notify.Filter{}, func(*notify.Links) notify.Notifier { return quiet{} })
	a := env.Submit(t, "demo", "c1", "make deploy")
	past, _ := notify.NewLinks([]byte("notifytest link key, not secret\x00"), func() time.Time { return time.Now().Add(time.Hour) })
	u, _ := env.Links.URL(env.URL, a, notify.AnswerOnce, "hook:x")
	if _, err := past.Redeem(t.Context(), env.Stack.Broker.Gate(), strings.TrimPrefix(u, env.URL+notify.LinkPath)); err != notify.ErrLinkExpired {
		t.Fatalf("expired link: %v", err)
	}
	if env.Get(t, a.ID).Status != toolgate.StatusPending {
		t.Fatal("an expired link answered")
	}
}
