package telegram

import (
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

const token = "123456:TEST-bot-token"

// fakeAPI is a stand-in for the Bot API: it records every call, serves
// queued updates to getUpdates and can fail sendMessage on demand.
type fakeAPI struct {
	t  *testing.T
	mu sync.Mutex
	// calls are the method and decoded body of every request.
	calls   []call
	updates []map[string]any
	nextID  int64
	failing int // sendMessage answers 429 this many more times
	wake    chan struct{}
}

type call struct {
	method string
	body   map[string]any
}

func newFakeAPI(t *testing.T) (*fakeAPI, *httptest.Server) {
	f := &fakeAPI{t: t, wake: make(chan struct{}, 1), nextID: 100}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	return f, srv
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	method, ok := strings.CutPrefix(r.URL.Path, "/bot"+token+"/")
	if !ok {
		http.Error(w, `{"ok":false,"error_code":401,"description":"Unauthorized"}`, http.StatusUnauthorized)
		return
	}
	var body map[string]any
	json.NewDecoder(r.Body).Decode(&body)
	f.mu.Lock()
	if method == "sendMessage" && f.failing > 0 {
		body["_failed"] = true
	}
	f.calls = append(f.calls, call{method, body})
	var result any = true
	switch method {
	case "sendMessage":
		if f.failing > 0 {
			f.failing--
			f.mu.Unlock()
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte(`{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 0","parameters":{"retry_after":0}}`))
			return
		}
		f.nextID++
		result = map[string]any{"message_id": f.nextID, "chat": map[string]any{"id": body["chat_id"]}}
	case "getUpdates":
		offset, _ := body["offset"].(float64)
		var ups []map[string]any
		for _, u := range f.updates {
			if u["update_id"].(float64) >= offset {
				ups = append(ups, u)
			}
		}
		if len(ups) == 0 {
			f.mu.Unlock()
			select { // a short long poll
			case <-f.wake:
			case <-time.After(200 * time.Millisecond):
			case <-r.Context().Done():
			}
			f.mu.Lock()
		}
		result = ups
	}
	f.mu.Unlock()
	json.NewEncoder(w).Encode(map[string]any{"ok": true, "result": result})
}

// press plays a button press by a user in a chat.
func (f *fakeAPI) press(user, chat, messageID int64, data string) string {
	f.mu.Lock()
	id := float64(len(f.updates) + 1)
	qid := "q" + strings.Repeat("x", len(f.updates)+1)
	f.updates = append(f.updates, map[string]any{"update_id": id, "callback_query": map[string]any{
		"id": qid, "from": map[string]any{"id": user, "username": "user" + strings.Repeat("1", int(user%3))},
		"message": map[string]any{"message_id": messageID, "chat": map[string]any{"id": chat}}, "data": data}})
	f.mu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
	return qid
}

func (f *fakeAPI) find(method string, match func(map[string]any) bool) map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.calls {
		if c.method == method && (match == nil || match(c.body)) {
			return c.body
		}
	}
	return nil
}

const (
	chat     = -1001
	approver = 111
	stranger = 999
)

func setup(t *testing.T, f notify.Filter) (*fakeAPI, *notifytest.Env) {
	fake, srv := newFakeAPI(t)
	cfg := Config{BotToken: token, ChatID: chat, Approvers: []int64{approver}, APIURL: srv.URL}
	if err := cfg.Check(); err != nil {
		t.Fatal(err)
	}
	env := notifytest.New(t, f, func(*notify.Links) notify.Notifier {
		b := New(cfg, nil)
		b.pollTimeout = 1
		return b
	})
	return fake, env
}

// sent waits for the sendMessage of an approval and returns its message
// id and the buttons' callback data.
func sent(t *testing.T, fake *fakeAPI, command string) (int64, []string) {
	t.Helper()
	var msg map[string]any
	notifytest.Eventually(t, "sendMessage for "+command, func() bool {
		msg = fake.find("sendMessage", func(b map[string]any) bool {
			_, failed := b["_failed"]
			return !failed && strings.Contains(b["text"].(string), command)
		})
		return msg != nil
	})
	if msg["chat_id"].(float64) != chat {
		t.Fatalf("sent to chat %v", msg["chat_id"])
	}
	var data []string
	for _, row := range msg["reply_markup"].(map[string]any)["inline_keyboard"].([]any) {
		for _, b := range row.([]any) {
			data = append(data, b.(map[string]any)["callback_data"].(string))
		}
	}
	fake.mu.Lock()
	defer fake.mu.Unlock()
	// The message id is the one the stand-in gave this message.
	var id int64
	n := int64(100)
	for _, c := range fake.calls {
		if c.method == "sendMessage" {
			if _, failed := c.body["_failed"]; !failed {
				n++
			}
			if _, failed := c.body["_failed"]; !failed && strings.Contains(c.body["text"].(string), command) {
				id = n
			}
		}
	}
	return id, data
}

// TestTelegramEndToEnd: approval created → message with buttons → a
// stranger's press changes nothing → the approver's press resolves it as
// that person via telegram → the message is edited with the outcome.
func TestTelegramEndToEnd(t *testing.T) {
	t.Parallel()
	fake, env := setup(t, notify.Filter{})
	a := env.Submit(t, "demo", "c1", "git push origin main")
	msgID, data := sent(t, fake, "git push origin main")
	want := []string{"once:" + a.ID, "session:" + a.ID, "session30m:" + a.ID, "always:" + a.ID, "deny:" + a.ID}
	if strings.Join(data, ",") != strings.Join(want, ",") {
		t.Fatalf("buttons %v, want %v", data, want)
	}
	if msg := fake.find("sendMessage", nil); strings.Contains(toJSON(msg), token) || strings.Contains(toJSON(msg), env.Stack.Approver) {
		t.Fatal("a credential is in the message")
	}

	// A press from someone not in approvers: answered, nothing applied.
	q := fake.press(stranger, chat, msgID, "once:"+a.ID)
	notifytest.Eventually(t, "the stranger's press answered", func() bool {
		return fake.find("answerCallbackQuery", func(b map[string]any) bool { return b["callback_query_id"] == q }) != nil
	})
	if got := fake.find("answerCallbackQuery", func(b map[string]any) bool { return b["callback_query_id"] == q }); !strings.Contains(got["text"].(string), "not an approver") {
		t.Fatalf("stranger told %q", got["text"])
	}
	if st := env.Get(t, a.ID).Status; st != toolgate.StatusPending {
		t.Fatalf("a stranger's press changed the approval to %s", st)
	}
	// An approver's press from another chat does not count either.
	q = fake.press(approver, 4242, msgID, "once:"+a.ID)
	notifytest.Eventually(t, "the other chat's press answered", func() bool {
		return fake.find("answerCallbackQuery", func(b map[string]any) bool { return b["callback_query_id"] == q }) != nil
	})
	if st := env.Get(t, a.ID).Status; st != toolgate.StatusPending {
		t.Fatalf("a press from another chat changed the approval to %s", st)
	}

	// The approver approves for the session.
	fake.press(approver, chat, msgID, "session:"+a.ID)
	notifytest.Eventually(t, "approval resolved", func() bool { return env.Get(t, a.ID).Status == toolgate.StatusApproved })
	r := env.Get(t, a.ID).Resolution
	// Session grants the call exactly as made, as on every surface.
	if exact := env.Get(t, a.ID).Decision.Suggestions[0].Exact; r.Via != "telegram" || !strings.HasPrefix(r.By, "telegram:111") || r.Scope != toolgate.ScopeSession || r.Pattern != exact || exact == "" || exact == "git push *" {
		t.Fatalf("resolution %+v, want session %q by telegram:111 via telegram", r, exact)
	}
	var edit map[string]any
	notifytest.Eventually(t, "message edited", func() bool {
		edit = fake.find("editMessageText", nil)
		return edit != nil
	})
	if edit["message_id"].(float64) != float64(msgID) || !strings.Contains(edit["text"].(string), "approved for the session") {
		t.Fatalf("edit %v", edit)
	}
	if _, ok := edit["reply_markup"]; ok {
		t.Fatal("the edited message keeps its buttons")
	}
	// A late press on the edited message changes nothing.
	q = fake.press(approver, chat, msgID, "deny:"+a.ID)
	notifytest.Eventually(t, "late press answered", func() bool {
		return fake.find("answerCallbackQuery", func(b map[string]any) bool { return b["callback_query_id"] == q }) != nil
	})
	if st := env.Get(t, a.ID).Status; st != toolgate.StatusApproved {
		t.Fatalf("late press changed the outcome to %s", st)
	}
}

// TestTelegramResolvedElsewhere: an approval answered in another client
// gets its message edited; one that never matched the filter is never
// sent.
func TestTelegramResolvedElsewhere(t *testing.T) {
	t.Parallel()
	fake, env := setup(t, notify.Filter{Workspaces: []string{"prod-*"}})
	skip := env.Submit(t, "dev", "c0", "make test-dev")
	a := env.Submit(t, "prod-eu", "c1", "make deploy")
	sent(t, fake, "make deploy")
	res := env.Stack.Do(http.MethodPost, "/v1/approvals/"+a.ID+"/deny", env.Stack.Approver, map[string]string{"feedback": "not today"})
	if res.Status != http.StatusOK {
		t.Fatalf("deny: %d %s", res.Status, res.Body)
	}
	notifytest.Eventually(t, "message edited", func() bool {
		e := fake.find("editMessageText", nil)
		return e != nil && strings.Contains(e["text"].(string), "denied by alice via api")
	})
	if fake.find("sendMessage", func(b map[string]any) bool { return strings.Contains(b["text"].(string), "make test-dev") }) != nil {
		t.Fatalf("approval %s outside the filter was sent", skip.ID)
	}
}

// TestTelegramDownNeverBlocks: while the API answers 429 the gateway
// decides and answers as usual; the notifier retries, reports itself
// down in the metrics, and delivers once the API is back.
func TestTelegramDownNeverBlocks(t *testing.T) {
	t.Parallel()
	fake, env := setup(t, notify.Filter{})
	fake.mu.Lock()
	fake.failing = 3
	fake.mu.Unlock()
	a := env.Submit(t, "demo", "c1", "terraform apply")
	// Answered through the API while the notifier is failing.
	b := env.Submit(t, "demo", "c2", "terraform destroy")
	if res := env.Stack.Do(http.MethodPost, "/v1/approvals/"+b.ID+"/approve", env.Stack.Approver, nil); res.Status != http.StatusOK {
		t.Fatalf("approve while the notifier fails: %d %s", res.Status, res.Body)
	}
	sent(t, fake, "terraform apply")
	// The stand-in records the message before the notifier reads the
	// answer and counts the delivery: wait for the count.
	var h notify.Health
	notifytest.Eventually(t, "3 failures and a delivery in the notifier's health", func() bool {
		h = env.Dispatcher.Health()[0]
		return h.Failures >= 3 && h.Sent >= 1 && h.Up
	})
	if h.Failures != 3 {
		t.Fatalf("health %+v: want exactly 3 failures", h)
	}
	m := env.Stack.Do(http.MethodGet, "/metrics", env.Stack.Admin, nil)
	if m.Status != http.StatusOK || !strings.Contains(string(m.Body), `toolgate_notifier_failures_total{notifier="telegram"} 3`) ||
		!strings.Contains(string(m.Body), `toolgate_notifier_up{notifier="telegram"} 1`) {
		t.Fatalf("/metrics: %d\n%s", m.Status, m.Body)
	}
	if st := env.Get(t, a.ID).Status; st != toolgate.StatusPending {
		t.Fatalf("a failing notifier changed a decision: %s", st)
	}
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestTelegramReminder: a reminder is a new message replying to the
// approval's message, saying how long it has left, without buttons of its
// own; a reference that is no message id is refused.
func TestTelegramReminder(t *testing.T) {
	t.Parallel()
	fake, srv := newFakeAPI(t)
	cfg := Config{BotToken: token, ChatID: chat, Approvers: []int64{approver}, APIURL: srv.URL}
	if err := cfg.Check(); err != nil {
		t.Fatal(err)
	}
	b := New(cfg, nil)
	now := time.Now()
	a := notifytest.Pending(now, time.Minute+30*time.Second)
	ref := notifytest.SendRemind(t, b, a)
	msg := fake.find("sendMessage", func(m map[string]any) bool { return strings.Contains(m["text"].(string), "Still waiting") })
	if msg == nil {
		t.Fatal("no reminder sent")
	}
	reply, _ := msg["reply_parameters"].(map[string]any)
	if reply == nil || reply["message_id"] != float64(101) || msg["chat_id"] != float64(chat) {
		t.Fatalf("reminder not a reply to message %s in the chat: %v", ref, msg)
	}
	if text := msg["text"].(string); !strings.Contains(text, "expires in 1m") || !strings.Contains(text, "Bash") {
		t.Fatalf("reminder text %q", text)
	}
	if _, ok := msg["reply_markup"]; ok || strings.Contains(toJSON(msg), token) {
		t.Fatalf("reminder carries buttons or the token: %v", msg)
	}
	if err := b.Remind(t.Context(), a, "not-a-message"); err == nil {
		t.Fatal("a bad reference was accepted")
	}
}

// TestTelegramThirtyMinutes: the "30 min" button grants the call for the
// session, lapsing after 30 minutes; a stranger's press of it changes
// nothing.
func TestTelegramThirtyMinutes(t *testing.T) {
	t.Parallel()
	fake, env := setup(t, notify.Filter{})
	a := env.Submit(t, "demo", "c1", "git push origin main")
	msgID, _ := sent(t, fake, "git push origin main")
	q := fake.press(stranger, chat, msgID, "session30m:"+a.ID)
	notifytest.Eventually(t, "the stranger's press answered", func() bool {
		return fake.find("answerCallbackQuery", func(b map[string]any) bool { return b["callback_query_id"] == q }) != nil
	})
	if st := env.Get(t, a.ID).Status; st != toolgate.StatusPending {
		t.Fatalf("a stranger's 30 min press changed the approval to %s", st)
	}
	fake.press(approver, chat, msgID, "session30m:"+a.ID)
	env.CheckTimeBoxed(t, a.ID, "telegram")
}
