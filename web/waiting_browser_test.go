package web_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/claudecode"
	"github.com/toolgate/toolgate/integrations/claudecode/hookhttp"
	"github.com/toolgate/toolgate/internal/stacktest"
	"github.com/toolgate/toolgate/server"
	"github.com/toolgate/toolgate/server/mount"
	"github.com/toolgate/toolgate/tokens"
)

// hookMount is the gateway's POST /hooks/claude-code (as `toolgate
// serve` mounts it), held for remote approval.
func hookMount(s *stacktest.Stack) mount.Route {
	return mount.Route{Method: http.MethodPost, Path: "/hooks/claude-code", Role: tokens.RoleAgent,
		Handler: func(w http.ResponseWriter, r *http.Request, caller tokens.Entry) error {
			by := toolgate.Actor{Name: caller.Name, Via: "hook", Agent: caller.Role == tokens.RoleAgent}
			hookhttp.NewHandler(claudecode.Hook{Decider: &claudecode.Remote{Gate: s.Broker.Gate(), Actor: by, OnAsk: claudecode.AskWait}}).ServeHTTP(w, r)
			return nil
		}}
}

// TestBrowserSessionWaiting: two calls Claude Code makes in parallel in
// one session arrive as two hook requests with no batch of their own;
// each card shows the other as waiting, the API and the approval event
// say so too, and when one is answered the other's card no longer lists
// it. A call of another session is no context.
func TestBrowserSessionWaiting(t *testing.T) {
	b := newBrowser(t)
	e := newEnvDeps(t, func(s *stacktest.Stack, d *server.Deps) { d.Mounts = append(d.Mounts, hookMount(s)) })
	b.do(t, "open the page", chromedp.Navigate(e.Server.URL+"/"))
	b.wait(t, "the login form", `!document.getElementById('login').hidden`)
	b.do(t, "sign in as the approver",
		chromedp.SetValue(chromedp.ID("token"), e.Approver),
		chromedp.Click(chromedp.CSS(`#login-form button[type=submit]`)))
	b.wait(t, "the inbox, live", `!document.getElementById('top').hidden && document.getElementById('conn').classList.contains('live')`)

	type answer struct {
		body string
		err  error
	}
	hook := func(session, toolUse, cmd string) <-chan answer {
		in, _ := json.Marshal(map[string]any{
			"session_id": session, "cwd": "/srv/app", "hook_event_name": "PreToolUse", "permission_mode": "default",
			"tool_name": "Bash", "tool_input": map[string]any{"command": cmd}, "tool_use_id": toolUse,
		})
		ch := make(chan answer, 1)
		go func() {
			req, _ := http.NewRequest("POST", e.Server.URL+"/hooks/claude-code?wait=60s", bytes.NewReader(in))
			req.Header.Set("Authorization", "Bearer "+e.Agent)
			req.Header.Set("Content-Type", "application/json")
			resp, err := e.Server.Client().Do(req)
			if err != nil {
				ch <- answer{err: err}
				return
			}
			defer resp.Body.Close()
			out, err := io.ReadAll(resp.Body)
			ch <- answer{body: string(out), err: err}
		}()
		return ch
	}
	pending := func(n int) []*toolgate.Approval {
		t.Helper()
		var list struct{ Approvals []*toolgate.Approval }
		for deadline := time.Now().Add(stepTimeout); ; time.Sleep(20 * time.Millisecond) {
			e.must(200, "GET", "/v1/approvals?status=pending", nil, &list, "Bearer", e.Approver)
			if len(list.Approvals) == n {
				return list.Approvals
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d approvals pending, want %d", len(list.Approvals), n)
			}
		}
	}
	sub := e.Broker.Subscribe(t.Context(), toolgate.EventFilter{})
	t.Cleanup(sub.Close)
	// announced collects the approval.requested events of the given ids.
	announced := func(ids ...string) map[string]*toolgate.Approval {
		t.Helper()
		got := map[string]*toolgate.Approval{}
		timeout := time.After(stepTimeout)
		for len(got) < len(ids) {
			select {
			case ev := <-sub.Events():
				if ev.Type == toolgate.EventApprovalRequested && ev.Approval != nil && !ev.Replay && slices.Contains(ids, ev.Approval.ID) {
					got[ev.Approval.ID] = ev.Approval
				}
			case <-timeout:
				t.Fatalf("approval.requested events for %v: got %d", ids, len(got))
			}
		}
		return got
	}
	test := hook("cc-1", "toolu_1", "npm test")
	lint := hook("cc-1", "toolu_2", "npm run lint")
	other := hook("cc-2", "toolu_3", "make")
	as := pending(3)
	byCmd := map[string]*toolgate.Approval{}
	for _, a := range as {
		byCmd[a.Call.Args["command"].(string)] = a
	}
	first, second, alone := byCmd["npm test"], byCmd["npm run lint"], byCmd["make"]
	if first == nil || second == nil || alone == nil {
		t.Fatalf("pending %v", byCmd)
	}
	// The API fills the context the hook never sent.
	for _, x := range []struct{ a, other *toolgate.Approval }{{first, second}, {second, first}} {
		w := x.a.SessionWaiting
		if w == nil || w.Count != 1 || len(w.Calls) != 1 || w.Calls[0].ApprovalID != x.other.ID || w.Calls[0].Summary != x.other.Call.Args["command"] {
			t.Fatalf("%s: session_waiting %+v", x.a.Call.Args["command"], w)
		}
	}
	if alone.SessionWaiting != nil {
		t.Fatalf("a call alone in its session: %+v", alone.SessionWaiting)
	}
	// So does the event that announces whichever of the two was stored
	// second (what the notifiers word): the other was waiting by then.
	evs := announced(first.ID, second.ID)
	n1, n2 := 0, 0
	if w := evs[first.ID].SessionWaiting; w != nil {
		n1 = w.Count
	}
	if w := evs[second.ID].SessionWaiting; w != nil {
		n2 = w.Count
	}
	if n1+n2 < 1 || n1 > 1 || n2 > 1 {
		t.Fatalf("the events carry %d and %d waiting, want the later one to carry 1", n1, n2)
	}

	// In the inbox, each card shows the other.
	waiting := func(id string) string {
		return card(id) + " .waiting-slot"
	}
	for _, x := range []struct{ a, other *toolgate.Approval }{{first, second}, {second, first}} {
		b.wait(t, "the other call on "+x.a.ID, `!`+q(waiting(x.a.ID))+`?.hidden && `+q(waiting(x.a.ID)+` li[data-id="`+x.other.ID+`"]`))
		got := eval[string](t, b, q(waiting(x.a.ID))+`.textContent`)
		if !strings.HasPrefix(got, "1 more call from this session is waiting") || !strings.Contains(got, x.other.Call.Args["command"].(string)) {
			t.Fatalf("card %s shows %q", x.a.ID, got)
		}
	}
	b.wait(t, "the lone card", q(card(alone.ID)))
	if !eval[bool](t, b, q(waiting(alone.ID))+`.hidden`) {
		t.Fatal("a call alone in its session shows others waiting")
	}
	shot := b.elemShot(t, card(first.ID), "inbox-waiting.png")

	// Answered: the other card no longer lists it.
	b.click(t, card(first.ID)+" button.approve.once")
	if got := <-test; got.err != nil || !strings.Contains(got.body, `"allow"`) {
		t.Fatalf("the first hook got %q %v", got.body, got.err)
	}
	b.wait(t, "the context gone", q(waiting(second.ID))+`.hidden`)
	b.click(t, card(second.ID)+" button.approve.once")
	b.click(t, card(alone.ID)+" button.approve.once")
	for _, ch := range []<-chan answer{lint, other} {
		if got := <-ch; got.err != nil || !strings.Contains(got.body, `"allow"`) {
			t.Fatalf("a hook got %q %v", got.body, got.err)
		}
	}
	// A browser notification says how many more wait.
	note := eval[string](t, b, `(async () => {
		const m = await import('./static/js/inbox.js');
		const c = { tool: 'Bash', session: 'cc-1', args: { command: 'npm test' } };
		return m.notifyText({ call: c }, 2).body + '|' + m.notifyText({ call: c }, 0).body;
	})()`, chromedp.EvalAwaitPromise)
	if note != "cc-1: npm test (2 more from this session waiting)|cc-1: npm test" {
		t.Fatalf("notification bodies %q", note)
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
	updateDocs(t, "inbox-waiting.png", shot)
}
