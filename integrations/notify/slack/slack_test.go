package slack

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/notify"
	"github.com/toolgate/toolgate/integrations/notify/notifytest"
)

const (
	botToken = "xoxb-test-bot-token"
	secret   = "8f742231b10e8888abcd99yyyzzz85a5"
	channel  = "C0APPROVALS"
	approver = "U0APPROVER"
	stranger = "U0STRANGER"
)

// fakeSlack is a stand-in for Slack's Web API: it records every call and
// can rate limit chat.postMessage.
type fakeSlack struct {
	mu      sync.Mutex
	calls   []call
	ts      int
	failing int
}

type call struct {
	method string
	body   map[string]any
}

func newFake(t *testing.T) (*fakeSlack, *httptest.Server) {
	f := &fakeSlack{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+botToken {
			json.NewEncoder(w).Encode(map[string]any{"ok": false, "error": "invalid_auth"})
			return
		}
		method := strings.TrimPrefix(r.URL.Path, "/")
		var body map[string]any
		json.NewDecoder(r.Body).Decode(&body)
		f.mu.Lock()
		defer f.mu.Unlock()
		if method == "chat.postMessage" && f.failing > 0 {
			f.failing--
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
			json.NewEncoder(w).Encode(map[string]any{"ok": false, "error": "ratelimited"})
			return
		}
		f.calls = append(f.calls, call{method, body})
		out := map[string]any{"ok": true}
		if method == "chat.postMessage" {
			f.ts++
			out["channel"], out["ts"] = body["channel"], "1700000000."+strconv.Itoa(f.ts)
		}
		json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(srv.Close)
	return f, srv
}

func (f *fakeSlack) find(method string, match func(map[string]any) bool) map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.calls {
		if c.method == method && (match == nil || match(c.body)) {
			return c.body
		}
	}
	return nil
}

func (f *fakeSlack) count(method string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.calls {
		if c.method == method {
			n++
		}
	}
	return n
}

func setup(t *testing.T) (*fakeSlack, *notifytest.Env) {
	t.Helper()
	fake, srv := newFake(t)
	cfg := Config{BotToken: botToken, SigningSecret: secret, Channel: channel, Approvers: []string{approver}, APIURL: srv.URL}
	if err := cfg.Check(); err != nil {
		t.Fatal(err)
	}
	env := notifytest.New(t, notify.Filter{}, func(*notify.Links) notify.Notifier { return New(cfg, nil) })
	return fake, env
}

// posted waits for the message of a command and returns its buttons'
// values.
func posted(t *testing.T, fake *fakeSlack, command string) (msg map[string]any, values []string) {
	t.Helper()
	notifytest.Eventually(t, "chat.postMessage for "+command, func() bool {
		msg = fake.find("chat.postMessage", func(b map[string]any) bool { return strings.Contains(toJSON(b), command) })
		return msg != nil
	})
	for _, b := range msg["blocks"].([]any) {
		b := b.(map[string]any)
		if b["type"] != "actions" {
			continue
		}
		for _, e := range b["elements"].([]any) {
			values = append(values, e.(map[string]any)["value"].(string))
		}
	}
	return msg, values
}

func toJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

// press is a signed interactivity request as Slack sends it, at time at.
func press(user, ch, value string, at time.Time) (http.Header, []byte) {
	action := strings.SplitN(value, ":", 2)[0]
	p := map[string]any{"type": "block_actions", "user": map[string]any{"id": user, "username": "u-" + user},
		"channel": map[string]any{"id": ch}, "actions": []any{map[string]any{"action_id": "toolgate_" + action, "value": value}}}
	body := []byte(url.Values{"payload": {toJSON(p)}}.Encode())
	ts := strconv.FormatInt(at.Unix(), 10)
	h := http.Header{}
	h.Set("Content-Type", "application/x-www-form-urlencoded")
	h.Set("X-Slack-Request-Timestamp", ts)
	h.Set("X-Slack-Signature", Sign(secret, ts, body))
	return h, body
}

func send(t *testing.T, env *notifytest.Env, h http.Header, body []byte) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, env.URL+ActionsPath, strings.NewReader(string(body)))
	req.Header = h
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestSlackEndToEnd: approval → Block Kit message with buttons → forged,
// stale and replayed requests, a stranger's press and a press from
// another channel change nothing → the approver's press resolves it as
// that person via slack → the message is updated with the outcome.
func TestSlackEndToEnd(t *testing.T) {
	t.Parallel()
	fake, env := setup(t)
	a := env.Submit(t, "demo", "c1", "git push origin main")
	msg, values := posted(t, fake, "git push origin main")
	want := []string{"once:" + a.ID, "session:" + a.ID, "session30m:" + a.ID, "always:" + a.ID, "deny:" + a.ID}
	if strings.Join(values, ",") != strings.Join(want, ",") {
		t.Fatalf("buttons %v, want %v", values, want)
	}
	if msg["channel"] != channel || strings.Contains(toJSON(msg), botToken) || strings.Contains(toJSON(msg), env.Stack.Approver) {
		t.Fatalf("message: %s", toJSON(msg))
	}
	if strings.Contains(toJSON(msg), `"mrkdwn"`) {
		t.Error("the message reads agent text as mrkdwn")
	}

	now := time.Now()
	h, body := press(approver, channel, "once:"+a.ID, now)
	forged := h.Clone()
	forged.Set("X-Slack-Signature", Sign("another-secret-of-some-length", h.Get("X-Slack-Request-Timestamp"), body))
	unsigned := h.Clone()
	unsigned.Del("X-Slack-Signature")
	staleH, staleBody := press(approver, channel, "once:"+a.ID, now.Add(-Window-time.Minute))
	tampered := []byte(strings.Replace(string(body), approver, stranger, 1))
	for name, c := range map[string]struct {
		h    http.Header
		body []byte
	}{"forged": {forged, body}, "unsigned": {unsigned, body}, "stale": {staleH, staleBody}, "tampered": {h, tampered}} {
		if code := send(t, env, c.h, c.body); code != http.StatusUnauthorized {
			t.Errorf("%s request: %d, want 401", name, code)
		}
	}
	// A stranger's signed press, and the approver's from another channel.
	sh, sb := press(stranger, channel, "once:"+a.ID, now)
	if code := send(t, env, sh, sb); code != http.StatusOK {
		t.Fatalf("stranger's press: %d", code)
	}
	oh, ob := press(approver, "C0ELSEWHERE", "once:"+a.ID, now)
	send(t, env, oh, ob)
	notifytest.Eventually(t, "two refusals told", func() bool { return fake.count("chat.postEphemeral") == 2 })
	if e := fake.find("chat.postEphemeral", func(b map[string]any) bool { return b["user"] == stranger }); e == nil || !strings.Contains(e["text"].(string), "not an approver") {
		t.Errorf("stranger told %v", e)
	}
	if got := env.Get(t, a.ID); got.Status != toolgate.StatusPending {
		t.Fatalf("refused presses changed the approval: %s", got.Status)
	}

	if code := send(t, env, h, body); code != http.StatusOK {
		t.Fatalf("approver's press: %d", code)
	}
	got := env.Get(t, a.ID)
	if got.Status != toolgate.StatusApproved || got.Resolution.Via != "slack" || !strings.HasPrefix(got.Resolution.By, "slack:"+approver) {
		t.Fatalf("after the press: %s %+v", got.Status, got.Resolution)
	}
	if code := send(t, env, h, body); code != http.StatusUnauthorized {
		t.Errorf("replayed press: %d, want 401", code)
	}
	notifytest.Eventually(t, "chat.update", func() bool { return fake.find("chat.update", nil) != nil })
	up := fake.find("chat.update", nil)
	if up["channel"] != channel || up["ts"] != "1700000000.1" || strings.Contains(toJSON(up), `"actions"`) || !strings.Contains(toJSON(up), "slack:"+approver) {
		t.Fatalf("update: %s", toJSON(up))
	}
}

// TestSlackSessionAndDeny: Session grants the exact call for the session;
// Deny ends the call; an answer to a resolved approval is told, not
// applied.
func TestSlackSessionAndDeny(t *testing.T) {
	t.Parallel()
	fake, env := setup(t)
	a := env.Submit(t, "demo", "c1", "npm publish")
	posted(t, fake, "npm publish")
	h, b := press(approver, channel, "session:"+a.ID, time.Now())
	send(t, env, h, b)
	if got := env.Get(t, a.ID); got.Status != toolgate.StatusApproved || got.Resolution.Scope != toolgate.ScopeSession {
		t.Fatalf("session press: %s %+v", got.Status, got.Resolution)
	}
	d := env.Submit(t, "demo", "c2", "terraform destroy")
	posted(t, fake, "terraform destroy")
	h, b = press(approver, channel, "deny:"+d.ID, time.Now())
	send(t, env, h, b)
	if got := env.Get(t, d.ID); got.Status != toolgate.StatusDenied {
		t.Fatalf("deny press: %s", got.Status)
	}
	h, b = press(approver, channel, "once:"+d.ID, time.Now().Add(time.Second))
	send(t, env, h, b)
	notifytest.Eventually(t, "the late press told", func() bool {
		return fake.find("chat.postEphemeral", func(m map[string]any) bool { return strings.Contains(m["text"].(string), "Not applied") }) != nil
	})
	if got := env.Get(t, d.ID); got.Status != toolgate.StatusDenied {
		t.Fatalf("a late press changed a denied call: %s", got.Status)
	}
}

// TestSlackRateLimited: a 429 from chat.postMessage is retried.
func TestSlackRateLimited(t *testing.T) {
	t.Parallel()
	fake, env := setup(t)
	fake.mu.Lock()
	fake.failing = 2
	fake.mu.Unlock()
	env.Submit(t, "demo", "c1", "git push --force")
	posted(t, fake, "git push --force")
}

func TestConfigCheck(t *testing.T) {
	t.Parallel()
	for _, c := range []Config{
		{SigningSecret: secret, Channel: channel, Approvers: []string{approver}},
		{BotToken: botToken, Channel: channel, Approvers: []string{approver}},
		{BotToken: botToken, SigningSecret: "short", Channel: channel, Approvers: []string{approver}},
		{BotToken: botToken, SigningSecret: secret, Approvers: []string{approver}},
		{BotToken: botToken, SigningSecret: secret, Channel: channel},
		{BotToken: botToken, SigningSecret: secret, Channel: channel, Approvers: []string{"U 1"}},
		{BotToken: botToken, SigningSecret: secret, Channel: channel, Approvers: []string{approver}, APIURL: "ftp://x"},
	} {
		if err := c.Check(); err == nil {
			t.Errorf("Check(%+v) = nil, want an error", c)
		}
	}
}

// TestSlackReminder: a reminder is a threaded chat.postMessage under the
// approval's message, saying how long it has left, without buttons.
func TestSlackReminder(t *testing.T) {
	t.Parallel()
	fake, srv := newFake(t)
	cfg := Config{BotToken: botToken, SigningSecret: secret, Channel: channel, Approvers: []string{approver}, APIURL: srv.URL}
	if err := cfg.Check(); err != nil {
		t.Fatal(err)
	}
	n := New(cfg, nil)
	now := time.Now()
	n.now = func() time.Time { return now }
	a := notifytest.Pending(now, time.Minute)
	ref := notifytest.SendRemind(t, n, a)
	msg := fake.find("chat.postMessage", func(b map[string]any) bool { return b["thread_ts"] != nil })
	if msg == nil {
		t.Fatal("no threaded reminder")
	}
	if ref != channel+" "+msg["thread_ts"].(string) || msg["channel"] != channel || !strings.Contains(toJSON(msg), "expires in 1m0s") {
		t.Fatalf("reminder %v for message %q", msg, ref)
	}
	if strings.Contains(toJSON(msg), `"actions"`) {
		t.Fatalf("reminder carries buttons: %v", msg)
	}
	if err := n.Remind(t.Context(), a, "no-space"); err == nil {
		t.Fatal("a bad reference was accepted")
	}
}

// TestSlackThirtyMinutes: the "30 min" button grants the call for the
// session, lapsing after 30 minutes; a stranger's press of it changes
// nothing.
func TestSlackThirtyMinutes(t *testing.T) {
	t.Parallel()
	fake, env := setup(t)
	a := env.Submit(t, "demo", "c1", "npm publish")
	posted(t, fake, "npm publish")
	h, b := press(stranger, channel, "session30m:"+a.ID, time.Now())
	send(t, env, h, b)
	if got := env.Get(t, a.ID); got.Status != toolgate.StatusPending {
		t.Fatalf("a stranger's 30 min press changed the approval to %s", got.Status)
	}
	h, b = press(approver, channel, "session30m:"+a.ID, time.Now().Add(time.Second))
	send(t, env, h, b)
	env.CheckTimeBoxed(t, a.ID, "slack")
}
