package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/digest"
)

// longPoll submits a call with ?wait= in the background and returns the
// channel its result arrives on.
func (e *env) longPoll(c toolgate.Call, wait string) <-chan toolgate.Result {
	ch := make(chan toolgate.Result, 1)
	go func() {
		var res toolgate.Result
		r := e.do("POST", "/v1/calls?wait="+wait, e.Agent, map[string]any{"call": c})
		if r.status != 200 {
			e.t.Errorf("long poll: %d %s", r.status, r.body)
		}
		json.Unmarshal(r.body, &res)
		ch <- res
	}()
	return ch
}

// waitPending waits until n approvals are pending.
func (e *env) waitPending(n int) {
	e.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var list struct{ Approvals []toolgate.Approval }
		e.must(200, "GET", "/v1/approvals?status=pending", e.Approver, nil, &list)
		if len(list.Approvals) == n {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("%d approvals pending, want %d", len(list.Approvals), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func receive[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(30 * time.Second):
		t.Fatal("timed out")
	}
	panic("unreachable")
}

// The whole flow, once per scope: an agent's call asks and long-polls; an
// approver sees it on both event streams, approves at the scope, and the
// agent's long poll returns approved; the scope then reaches as far as it
// should.
func TestApproveEachScope(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		scope                              toolgate.Scope
		sameSession, otherSession, otherWS toolgate.Action
	}{
		{toolgate.ScopeOnce, toolgate.Ask, toolgate.Ask, toolgate.Ask},
		{toolgate.ScopeTurn, toolgate.Allow, toolgate.Ask, toolgate.Ask},
		{toolgate.ScopeSession, toolgate.Allow, toolgate.Ask, toolgate.Ask},
		{toolgate.ScopeWorkspace, toolgate.Allow, toolgate.Allow, toolgate.Ask},
		{toolgate.ScopeGlobal, toolgate.Allow, toolgate.Allow, toolgate.Allow},
	} {
		t.Run(string(tc.scope), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			sse := e.sse(ctx, "")
			ws := e.ws(ctx, "")
			poll := e.longPoll(shell("s1", "c1", "git push origin main"), "30s")

			isReq := func(ev toolgate.Event) bool { return ev.Type == toolgate.EventApprovalRequested }
			got := next(t, sse, "sse requested", func(ev sseEvent) bool { return ev.typ == "approval.requested" })
			if got.id != fmt.Sprint(got.ev.Seq) || got.ev.Approval.Call.Args["command"] != "git push origin main" {
				t.Fatalf("sse event %+v", got)
			}
			wsEv := next(t, ws, "ws requested", isReq)
			if wsEv.Approval.ID != got.ev.Approval.ID {
				t.Fatalf("streams disagree: %s vs %s", wsEv.Approval.ID, got.ev.Approval.ID)
			}
			id := got.ev.Approval.ID

			var a toolgate.Approval
			// A global grant is a rule for every workspace: an admin's.
			token, name := e.Approver, "alice"
			if tc.scope == toolgate.ScopeGlobal {
				token, name = e.Admin, "root"
			}
			e.must(200, "POST", "/v1/approvals/"+id+"/approve", token, toolgate.ApproveRequest{Scope: tc.scope, Pattern: "git push *"}, &a)
			if a.Status != toolgate.StatusApproved || a.Resolution.By != name || a.Resolution.Via != "api" {
				t.Fatalf("approved %+v %+v", a, a.Resolution)
			}
			res := receive(t, poll)
			if v, ok := res.Final(); !ok || v != toolgate.Allow || res.Approval.Resolution.Scope != tc.scope {
				t.Fatalf("long poll: %v %v %+v", v, ok, res.Approval)
			}
			next(t, sse, "sse resolved", func(ev sseEvent) bool { return ev.typ == "approval.resolved" && ev.ev.Approval.ID == id })
			next(t, ws, "ws resolved", func(ev toolgate.Event) bool { return ev.Type == toolgate.EventApprovalResolved && ev.Approval.ID == id })

			if got := e.final(shell("s1", "c2", "git push origin dev")); got != tc.sameSession {
				t.Errorf("same session: %s, want %s", got, tc.sameSession)
			}
			if got := e.final(shell("s2", "c3", "git push")); got != tc.otherSession {
				t.Errorf("other session: %s, want %s", got, tc.otherSession)
			}
			other := shell("s3", "c4", "git push")
			other.Workspace = "elsewhere"
			if got := e.final(other); got != tc.otherWS {
				t.Errorf("other workspace: %s, want %s", got, tc.otherWS)
			}
			// The dry run agrees with the submission.
			var d toolgate.Decision
			e.must(200, "POST", "/v1/evaluate", e.Agent, shell("s1", "", "git push origin dev"), &d)
			if d.Action != tc.sameSession {
				t.Errorf("evaluate: %s, want %s", d.Action, tc.sameSession)
			}
			// The granted wildcard does not cover the risky form (DESIGN §3.5).
			e.must(200, "POST", "/v1/evaluate", e.Agent, shell("s1", "", "git push --force"), &d)
			if d.Action != toolgate.Ask {
				t.Errorf("evaluate git push --force: %s, want ask", d.Action)
			}
			if tc.scope == toolgate.ScopeTurn {
				e.must(200, "POST", "/v1/sessions/s1/turn-end", e.Agent, nil, nil)
				if got := e.final(shell("s1", "c5", "git push")); got != toolgate.Ask {
					t.Errorf("next turn: %s", got)
				}
			}
			var grants struct{ Grants []toolgate.Grant }
			e.must(200, "GET", "/v1/grants?scope="+string(tc.scope), e.Approver, nil, &grants)
			if want := map[bool]int{true: 0, false: 1}[tc.scope == toolgate.ScopeOnce]; len(grants.Grants) != want {
				t.Errorf("grants %+v", grants.Grants)
			}
			if tc.scope == toolgate.ScopeWorkspace {
				r := e.must(200, "GET", "/v1/workspaces/default/rules", e.Admin, nil, nil)
				if !strings.Contains(string(r.body), `"git push *": "allow"`) {
					t.Errorf("workspace grant not in the document:\n%s", r.body)
				}
			}
		})
	}
}

func TestCascadeThroughAPI(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.ask(shell("s1", "c1", "git push origin main"))
	b := e.ask(shell("s1", "c2", "git push origin dev"))
	c := e.ask(shell("s1", "c3", "rm -rf build"))
	d := e.ask(shell("s2", "c4", "git push origin main"))
	poll := make(chan *toolgate.Approval, 1)
	go func() {
		var got toolgate.Approval
		e.must(200, "GET", "/v1/approvals/"+b.ID+"?wait=20s", e.Agent, nil, &got)
		poll <- &got
	}()
	e.must(200, "POST", "/v1/approvals/"+a.ID+"/approve", e.Approver, map[string]any{"scope": "session", "pattern": "git push *"}, nil)
	got := receive(t, poll)
	if got.Status != toolgate.StatusApproved || got.Resolution.Via != "cascade" {
		t.Fatalf("cascaded: %s %+v", got.Status, got.Resolution)
	}
	for _, x := range []*toolgate.Approval{c, d} {
		if s := e.get(x.ID).Status; s != toolgate.StatusPending {
			t.Errorf("%v: %s", x.Call.Args, s)
		}
	}
	var list struct{ Approvals []toolgate.Approval }
	e.must(200, "GET", "/v1/approvals?status=pending&session=s1", e.Approver, nil, &list)
	if len(list.Approvals) != 1 || list.Approvals[0].ID != c.ID {
		t.Fatalf("pending in s1: %+v", list.Approvals)
	}
}

func TestDenySoftAndHardInBatch(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	batch := func(id string, i int, cmd string) toolgate.Call {
		c := shell("s1", id, cmd)
		c.Batch = &toolgate.Batch{ID: "b1", Index: i, Total: 3}
		return c
	}
	c1, c2, c3 := batch("c1", 0, "npm install"), batch("c2", 1, "npm run build"), batch("c3", 2, "npm test")
	var res toolgate.Result
	e.must(200, "POST", "/v1/calls", e.Agent, map[string]any{"call": c1, "batch_remaining": []toolgate.Call{c2, c3}, "ttl": "90s"}, &res)
	a := res.Approval
	if a == nil || len(a.BatchRemaining) != 2 || a.ExpiresAt.Sub(a.CreatedAt) != 90*time.Second {
		t.Fatalf("batch approval %+v", a)
	}
	b := e.ask(c2)
	c := e.ask(c3)
	var soft toolgate.Approval
	e.must(200, "POST", "/v1/approvals/"+a.ID+"/deny", e.Approver, map[string]any{"mode": "soft", "feedback": "not now"}, &soft)
	if soft.Resolution.DenyMode != toolgate.DenySoft || !strings.Contains(soft.Resolution.Reason, "Feedback: not now") {
		t.Fatalf("soft: %+v", soft.Resolution)
	}
	if s := e.get(b.ID).Status; s != toolgate.StatusPending {
		t.Fatalf("soft deny ended the batch: %s", s)
	}
	var hard toolgate.Approval
	e.must(200, "POST", "/v1/approvals/"+b.ID+"/deny", e.Approver, nil, &hard)
	if hard.Resolution.DenyMode != toolgate.DenyHard {
		t.Fatalf("default deny mode: %+v", hard.Resolution)
	}
	if s := e.get(c.ID).Status; s != toolgate.StatusDenied {
		t.Fatalf("rest of batch after a hard deny: %s", s)
	}
	var sess toolgate.Session
	e.must(200, "GET", "/v1/sessions/s1", e.Approver, nil, &sess)
	if !sess.Stopped {
		t.Fatal("stop flag not set")
	}
	if got := e.final(shell("s1", "c4", "ls")); got != toolgate.Deny {
		t.Fatalf("after hard deny: %s", got)
	}
	// Answering again conflicts.
	r := e.do("POST", "/v1/approvals/"+b.ID+"/approve", e.Approver, nil)
	if r.status != 409 {
		t.Fatalf("second answer: %d %s", r.status, r.body)
	}
}

func TestExpiryReleasesLongPoll(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.ask(shell("s1", "c1", "make deploy"))
	poll := make(chan toolgate.Approval, 1)
	go func() {
		var got toolgate.Approval
		e.must(200, "GET", "/v1/approvals/"+a.ID+"?wait=30s", e.Agent, nil, &got)
		poll <- got
	}()
	time.Sleep(50 * time.Millisecond)
	e.clock.Add(toolgate.DefaultTTL)
	if n, err := e.Broker.ReapNow(context.Background()); err != nil || n != 1 {
		t.Fatalf("reap %d %v", n, err)
	}
	got := receive(t, poll)
	if got.Status != toolgate.StatusExpired || got.Resolution.Reason != toolgate.TimeoutReason {
		t.Fatalf("expired: %+v", got.Resolution)
	}
	r := e.do("POST", "/v1/approvals/"+a.ID+"/approve", e.Approver, nil)
	if r.status != 409 {
		t.Fatalf("approve after expiry: %d", r.status)
	}
}

// A long poll that runs out of time returns the approval still pending;
// one whose client goes away does not cancel it.
func TestLongPollEndsWithoutCancelling(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var res toolgate.Result
	e.must(200, "POST", "/v1/calls?wait=100ms", e.Agent, shell("s1", "c1", "make"), &res)
	if res.Approval == nil || res.Approval.Status != toolgate.StatusPending {
		t.Fatalf("timed-out long poll: %+v", res.Approval)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		req, _ := newRequest(ctx, "GET", e.Server.URL+"/v1/approvals/"+res.Approval.ID+"?wait=1m", e.Agent)
		resp, err := e.Server.Client().Do(req)
		if err == nil {
			resp.Body.Close()
		}
	}()
	time.Sleep(100 * time.Millisecond)
	cancel()
	<-done
	time.Sleep(50 * time.Millisecond)
	if s := e.get(res.Approval.ID).Status; s != toolgate.StatusPending {
		t.Fatalf("client going away changed the approval: %s", s)
	}
	// Re-attach by call id.
	var again toolgate.Result
	e.must(200, "POST", "/v1/calls", e.Agent, shell("s1", "c1", "make"), &again)
	if again.Approval.ID != res.Approval.ID {
		t.Fatalf("re-attach: %s, want %s", again.Approval.ID, res.Approval.ID)
	}
	// The agent can cancel its own call.
	var c toolgate.Approval
	e.must(200, "POST", "/v1/approvals/"+res.Approval.ID+"/cancel", e.Agent, map[string]string{"reason": "done"}, &c)
	if c.Status != toolgate.StatusCancelled || c.Resolution.By != "agent-1" {
		t.Fatalf("cancel: %+v", c.Resolution)
	}
}

func TestAbortSession(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.ask(shell("s1", "c1", "make"))
	poll := e.longPoll(shell("s1", "c2", "make b"), "30s")
	// The long poll's call must be held before the abort: one that
	// arrives after it is refused, not cancelled.
	e.waitPending(2)
	var s toolgate.Session
	e.must(200, "POST", "/v1/sessions/s1/abort", e.Approver, nil, &s)
	if !s.Aborted {
		t.Fatalf("session %+v", s)
	}
	if got := receive(t, poll); got.Approval.Status != toolgate.StatusCancelled {
		t.Fatalf("long poll after abort: %s", got.Approval.Status)
	}
	if st := e.get(a.ID).Status; st != toolgate.StatusCancelled {
		t.Fatalf("pending after abort: %s", st)
	}
	if got := e.final(shell("s1", "c3", "ls")); got != toolgate.Deny {
		t.Fatalf("after abort: %s", got)
	}
}

func TestModeChange(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var s toolgate.Session
	// Sessions start with their first call.
	e.ask(toolgate.Call{ID: "c0", Session: "s1", Tool: "mcp__x__y"})
	e.must(200, "PUT", "/v1/sessions/s1/mode", e.Approver, map[string]string{"mode": "Force"}, &s)
	if s.Mode != toolgate.ModeYolo {
		t.Fatalf("mode %s", s.Mode)
	}
	if got := e.final(toolgate.Call{ID: "c1", Session: "s1", Tool: "mcp__x__y"}); got != toolgate.Allow {
		t.Fatalf("yolo: %s", got)
	}
	r := e.do("PUT", "/v1/sessions/s1/mode", e.Approver, map[string]string{"mode": "reckless"})
	if r.status != 400 || !strings.Contains(r.errMessage(), "unknown mode") {
		t.Fatalf("unknown mode: %d %s", r.status, r.body)
	}
	var list struct{ Sessions []toolgate.Session }
	e.must(200, "GET", "/v1/sessions", e.Approver, nil, &list)
	if len(list.Sessions) != 1 || list.Sessions[0].Mode != toolgate.ModeYolo {
		t.Fatalf("sessions %+v", list.Sessions)
	}
}

// An approver that reconnects gets what it missed: with Last-Event-ID
// (SSE) or ?after= (both), and every approval still pending.
func TestReplayAfterReconnect(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	first := e.sse(ctx, "")
	a := e.ask(shell("s1", "c1", "make a"))
	seen := next(t, first, "requested", func(ev sseEvent) bool { return ev.typ == "approval.requested" })
	cancel()
	// Missed while disconnected: a is approved, b asks.
	e.must(200, "POST", "/v1/approvals/"+a.ID+"/approve", e.Approver, nil, nil)
	b := e.ask(shell("s2", "c2", "make b"))

	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	again := e.sse(ctx2, "", "Last-Event-ID", seen.id)
	ev := next(t, again, "resolved a", func(ev sseEvent) bool { return true })
	if ev.typ != "approval.resolved" || ev.ev.Approval.ID != a.ID {
		t.Fatalf("first event after reconnect: %s %+v", ev.typ, ev.ev)
	}
	ev = next(t, again, "requested b", func(ev sseEvent) bool { return true })
	if ev.typ != "approval.requested" || ev.ev.Approval.ID != b.ID {
		t.Fatalf("second event after reconnect: %s", ev.typ)
	}
	// A WebSocket with ?after= and a session filter.
	ws := e.ws(ctx2, "?session=s2&after="+seen.id)
	wev := next(t, ws, "ws resume", func(toolgate.Event) bool { return true })
	if wev.Approval == nil || wev.Approval.ID != b.ID {
		t.Fatalf("ws resume: %+v", wev)
	}
	// A fresh subscriber is sent the pending approvals (replay).
	fresh := e.sse(ctx2, "?workspace=default")
	rev := next(t, fresh, "replay", func(sseEvent) bool { return true })
	if !rev.ev.Replay || rev.ev.Approval.ID != b.ID {
		t.Fatalf("replay: %+v", rev.ev)
	}
}

func TestQuestionToolAnswer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	q := e.ask(toolgate.Call{ID: "q1", Session: "s", Tool: "AskUserQuestion", Args: map[string]any{"question": "Which target?"}})
	b := e.ask(shell("s", "c1", "make"))
	before := e.counts()
	r := e.do("POST", "/v1/approvals/"+b.ID+"/approve", e.Approver, map[string]any{"answer": "fabricated"})
	if r.status != 400 || !strings.Contains(r.errMessage(), "question tools") {
		t.Fatalf("answer for Bash: %d %s", r.status, r.body)
	}
	if after := e.counts(); after != before {
		t.Fatalf("rejected answer changed something: %+v -> %+v", before, after)
	}
	var got toolgate.Approval
	e.must(200, "POST", "/v1/approvals/"+q.ID+"/approve", e.Approver, map[string]any{"answer": map[string]string{"target": "staging"}}, &got)
	if string(got.Resolution.Answer) != `{"target":"staging"}` {
		t.Fatalf("answer %s", got.Resolution.Answer)
	}
}

func TestClientHeaderNamesVia(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.ask(shell("s", "c1", "make"))
	r := e.do("POST", "/v1/approvals/"+a.ID+"/approve", e.Approver, nil, "X-Toolgate-Client", "tui")
	var got toolgate.Approval
	r.decode(t, &got)
	if got.Resolution.Via != "tui" {
		t.Fatalf("via %q", got.Resolution.Via)
	}
	b := e.ask(shell("s", "c2", "make"))
	r = e.do("POST", "/v1/approvals/"+b.ID+"/approve", e.Approver, nil, "X-Toolgate-Client", "telegram-bot")
	r.decode(t, &got)
	if got.Resolution.Via != "api" {
		t.Fatalf("unknown client recorded as %q", got.Resolution.Via)
	}
}

func TestAuditAndGrantsAdmin(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var g toolgate.Grant
	e.must(200, "POST", "/v1/grants", e.Admin, map[string]any{"scope": "global", "tool": "Bash", "kind": "pattern", "pattern": "make *"}, &g)
	if g.ID == "" || g.CreatedBy != "root" {
		t.Fatalf("grant %+v", g)
	}
	if got := e.final(shell("s", "c1", "make all")); got != toolgate.Allow {
		t.Fatalf("after grant: %s", got)
	}
	e.must(204, "DELETE", "/v1/grants/"+g.ID, e.Admin, nil, nil)
	if got := e.final(shell("s", "c2", "make all")); got != toolgate.Ask {
		t.Fatalf("after revoke: %s", got)
	}
	e.must(404, "DELETE", "/v1/grants/"+g.ID, e.Admin, nil, nil)
	var au struct{ Entries []toolgate.AuditEntry }
	e.must(200, "GET", "/v1/audit?kind=grant.added", e.Admin, nil, &au)
	if len(au.Entries) != 1 || au.Entries[0].Who != "root" {
		t.Fatalf("audit %+v", au.Entries)
	}
	e.must(200, "GET", "/v1/audit?limit=2", e.Admin, nil, &au)
	if len(au.Entries) != 2 {
		t.Fatalf("limit: %d", len(au.Entries))
	}
	e.must(200, "GET", "/v1/audit?since=2026-11-21T08:00:00Z&until=2026-11-21T10:00:00Z&limit=5000", e.Admin, nil, &au)
	if err := digest.VerifyChain(au.Entries, ""); err != nil || len(au.Entries) < 4 {
		t.Fatalf("chain of %d: %v", len(au.Entries), err)
	}
	if r := e.do("GET", "/v1/audit?since=yesterday", e.Admin, nil); r.status != 400 || !strings.Contains(r.errMessage(), "RFC 3339") {
		t.Fatalf("bad since: %d %s", r.status, r.body)
	}
}

// GET /v1/audit?q= finds entries by the text of the call decided (its
// command, as typed, though JSON escapes its quotes and angle brackets),
// ignoring case, across the broker's store pages, and bounds the query.
func TestAuditSearch(t *testing.T) {
	t.Parallel()
	// Hundreds of sessions of one agent token asking: past its quotas.
	e := newEnvWith(t, []approval.Option{approval.WithCredentialQuotas(-1, -1)})
	e.final(shell("s", "c1", `echo "Hello" > /tmp/out.txt`))
	e.final(shell("s", "c2", "ls -la"))
	// Enough entries that the search reads more than one store page.
	for i := range 520 {
		e.final(shell(fmt.Sprintf("s%d", i+10), fmt.Sprintf("n%d", i), "make pwd"))
	}
	e.final(shell("s", "c3", "ECHO again"))
	var au struct{ Entries []toolgate.AuditEntry }
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{`"Hello" > /tmp`, []string{"c1"}},
		// Not a bare word: approval IDs are random base32 ("ap_h6rzjoeb…"),
		// and one of the 520 here holds "echo" about once in ninety runs.
		{"echo ", []string{"c1", "c3"}},
		{"LS -LA", []string{"c2"}},
		{"no such text", nil},
	} {
		e.must(200, "GET", "/v1/audit?q="+url.QueryEscape(tc.q), e.Admin, nil, &au)
		var got []string
		for _, x := range au.Entries {
			got = append(got, x.CallID)
		}
		got = slices.Compact(got) // a call that asks has two entries
		if !slices.Equal(got, tc.want) {
			t.Errorf("q=%q: calls %v, want %v", tc.q, got, tc.want)
		}
	}
	// The resolution names the call it answered, so a search finds it.
	a := e.ask(shell("s", "c4", "terraform destroy -auto-approve"))
	e.must(200, "POST", "/v1/approvals/"+a.ID+"/deny", e.Approver, map[string]any{"mode": "soft"}, nil)
	e.must(200, "GET", "/v1/audit?q=terraform+destroy", e.Admin, nil, &au)
	var kinds []string
	for _, x := range au.Entries {
		kinds = append(kinds, x.Kind)
	}
	if !slices.Equal(kinds, []string{"approval.requested", "approval.resolved"}) {
		t.Errorf("search for a denied call: kinds %v, want its request and its resolution", kinds)
	}
	e.must(200, "GET", "/v1/audit?q=echo&limit=1", e.Admin, nil, &au)
	if len(au.Entries) != 1 || au.Entries[0].CallID != "c1" {
		t.Fatalf("limit: %+v", au.Entries)
	}
	e.must(200, "GET", "/v1/audit?q=pwd&kind=approval.requested&limit=1000", e.Admin, nil, &au)
	// Every filler call's request; another call's only by its random ID.
	filler := 0
	for _, x := range au.Entries {
		if strings.HasPrefix(x.CallID, "n") {
			filler++
		}
	}
	if filler != 520 || len(au.Entries) > 524 {
		t.Fatalf("search across pages: %d entries, %d of the filler calls, want 520", len(au.Entries), filler)
	}
	if r := e.do("GET", "/v1/audit?q="+strings.Repeat("x", 1025), e.Admin, nil); r.status != 400 || !strings.Contains(r.errMessage(), "q is longer") {
		t.Fatalf("long q: %d %s", r.status, r.body)
	}
}

// TestSubmitWithoutHold: "hold": false records an ask without creating an
// approval, in the wrapped and the bare body; an agent cannot use it to
// get an allow (the result is the ask, not final) nor to attach other
// content to a call id already held.
func TestSubmitWithoutHold(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for i, body := range []map[string]any{
		{"call": shell("s1", "c1", "make"), "hold": false},
		{"id": "c2", "session": "s1", "tool": "Bash", "args": map[string]any{"command": "make"}, "hold": false},
	} {
		var res toolgate.Result
		e.must(200, "POST", "/v1/calls", e.Agent, body, &res)
		if action, final := res.Final(); res.Approval != nil || res.Decision.Action != toolgate.Ask || final || action != toolgate.Ask {
			t.Fatalf("body %d: %+v, want an unheld ask", i, res)
		}
	}
	var list struct{ Approvals []toolgate.Approval }
	e.must(200, "GET", "/v1/approvals?status=", e.Approver, nil, &list)
	if len(list.Approvals) != 0 {
		t.Fatalf("approvals %+v, want none", list)
	}
	// "hold": true (or no hold) holds as ever.
	var held toolgate.Result
	e.must(200, "POST", "/v1/calls", e.Agent, map[string]any{"call": shell("s1", "c3", "make"), "hold": true}, &held)
	if held.Approval == nil || held.Approval.Status != toolgate.StatusPending {
		t.Fatalf("hold true: %+v", held)
	}
	// The held id keeps its content.
	r := e.do("POST", "/v1/calls", e.Agent, map[string]any{"call": shell("s1", "c3", "rm -rf ~"), "hold": false})
	if r.status != 409 {
		t.Fatalf("other content under a held id without hold: %d %s, want 409", r.status, r.body)
	}
}
