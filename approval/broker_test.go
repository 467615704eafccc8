package approval_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/digest"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/fsrules"
	"github.com/toolgate/toolgate/store/sqlite"
)

// clock is a settable clock for expiry tests.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

type env struct {
	broker *approval.Broker
	store  store.Store
	clock  *clock
	dir    string
	rules  *fsrules.Dir
	pol    *approval.Workspaces
}

var human = toolgate.Actor{Name: "alice", Via: "test"}

// root is an admin: only an admin's answer may grant globally, tool-wide or
// wider than the call.
var root = toolgate.Actor{Name: "root", Via: "test", Admin: true}

// newEnv starts a broker on a fresh SQLite store and rules directory. The
// workspace "default" starts with a document where shell commands ask.
func newEnv(t testing.TB, opts ...approval.Option) *env {
	t.Helper()
	return openEnvOn(t, t.TempDir(), newClock(), nil, opts...)
}

// newClock is the clock of a new env, stopped at a fixed time.
func newClock() *clock { return &clock{t: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)} }

func openEnv(t testing.TB, dir string, c *clock, opts ...approval.Option) *env {
	t.Helper()
	return openEnvOn(t, dir, c, nil, opts...)
}

// openEnvOn is openEnv with the broker's store passed through wrap, when
// not nil (a test's store that watches or delays calls).
func openEnvOn(t testing.TB, dir string, c *clock, wrap func(store.Store) store.Store, opts ...approval.Option) *env {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(dir, "toolgate.db"))
	if err != nil {
		t.Fatal(err)
	}
	var st store.Store = db
	if wrap != nil {
		st = wrap(db)
	}
	rules := fsrules.New(dir, policy.DefaultRulesJSONC())
	pol := approval.NewWorkspaces(rules, nil, policy.WithHome("/home/user"))
	b, err := approval.New(ctx, st, pol, append([]approval.Option{approval.WithClock(c.Now)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		b.Close()
		db.Close()
	})
	return &env{broker: b, store: st, clock: c, dir: dir, rules: rules, pol: pol}
}

func shellCall(session, id, command string) toolgate.Call {
	return toolgate.Call{ID: id, Session: session, Tool: "Bash", Args: map[string]any{"command": command}}
}

func (e *env) submit(t *testing.T, c toolgate.Call) *toolgate.Result {
	t.Helper()
	r, err := e.broker.Submit(context.Background(), toolgate.SubmitRequest{Call: c})
	if err != nil {
		t.Fatalf("submit %+v: %v", c, err)
	}
	return r
}

func (e *env) ask(t *testing.T, c toolgate.Call) *toolgate.Approval {
	t.Helper()
	r := e.submit(t, c)
	if r.Approval == nil || r.Approval.Status != toolgate.StatusPending {
		t.Fatalf("submit %v: want a pending approval, got decision %s (%s)", c.Args, r.Decision.Action, r.Decision.Reason)
	}
	return r.Approval
}

func (e *env) final(t *testing.T, c toolgate.Call) toolgate.Action {
	t.Helper()
	r := e.submit(t, c)
	a, ok := r.Final()
	if !ok {
		return toolgate.Ask
	}
	return a
}

func TestApproveOnceReleasesWaiter(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	sub := e.broker.Subscribe(ctx, toolgate.EventFilter{})
	defer sub.Close()
	a := e.ask(t, shellCall("s1", "c1", "git push origin main"))
	if a.ResumeToken == "" || a.ID == a.ResumeToken || !strings.HasPrefix(a.ID, "ap_") {
		t.Fatalf("ids: %q %q", a.ID, a.ResumeToken)
	}
	ev := <-sub.Events()
	if ev.Type != toolgate.EventApprovalRequested || ev.Approval.ID != a.ID {
		t.Fatalf("first event %+v", ev)
	}
	done := make(chan *toolgate.Approval)
	go func() {
		got, err := e.broker.Wait(ctx, a.ID)
		if err != nil {
			t.Error(err)
		}
		done <- got
	}()
	if _, err := e.broker.Approve(ctx, a.ID, toolgate.ApproveRequest{}, human); err != nil {
		t.Fatal(err)
	}
	got := <-done
	if got.Status != toolgate.StatusApproved || got.Resolution.By != "alice" || got.Resolution.Scope != toolgate.ScopeOnce {
		t.Fatalf("waiter got %+v %+v", got, got.Resolution)
	}
	if ev := <-sub.Events(); ev.Type != toolgate.EventApprovalResolved || ev.Approval.Status != toolgate.StatusApproved {
		t.Fatalf("resolved event %+v", ev)
	}
	// Once means once: the same command asks again.
	e.ask(t, shellCall("s1", "c2", "git push origin main"))
	// A second answer changes nothing.
	if _, err := e.broker.Deny(ctx, a.ID, toolgate.DenyRequest{}, human); toolgate.ErrorCodeOf(err) != toolgate.EConflict {
		t.Fatalf("second answer: %v, want conflict", err)
	}
}

func TestScopes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		scope                                        toolgate.Scope
		sameSession, nextTurn, otherSession, otherWS toolgate.Action
	}{
		{toolgate.ScopeTurn, toolgate.Allow, toolgate.Ask, toolgate.Ask, toolgate.Ask},
		{toolgate.ScopeSession, toolgate.Allow, toolgate.Allow, toolgate.Ask, toolgate.Ask},
		{toolgate.ScopeWorkspace, toolgate.Allow, toolgate.Allow, toolgate.Allow, toolgate.Ask},
		{toolgate.ScopeGlobal, toolgate.Allow, toolgate.Allow, toolgate.Allow, toolgate.Allow},
	} {
		t.Run(string(tc.scope), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			a := e.ask(t, shellCall("s1", "c1", "git push origin main"))
			by := human
			if tc.scope == toolgate.ScopeGlobal {
				by = root
			}
			// The person widens the grant to the suggested pattern.
			got, err := e.broker.Approve(ctx, a.ID, toolgate.ApproveRequest{Scope: tc.scope, Pattern: "git push *"}, by)
			if err != nil {
				t.Fatal(err)
			}
			if got.Resolution.Pattern != "git push *" || got.Resolution.Grant != toolgate.GrantPattern {
				t.Fatalf("grant %+v, want the suggested pattern", got.Resolution)
			}
			check := func(what string, c toolgate.Call, want toolgate.Action) {
				t.Helper()
				if got := e.final(t, c); got != want {
					t.Errorf("%s: %s, want %s", what, got, want)
				}
			}
			check("same session", shellCall("s1", "c2", "git push origin dev"), tc.sameSession)
			// The granted wildcard does not cover the risky form (DESIGN §3.5).
			check("risky form", shellCall("s1", "c2b", "git push --force origin dev"), toolgate.Ask)
			check("other command", shellCall("s1", "c3", "git reset --hard"), toolgate.Ask)
			other := shellCall("s2", "c4", "git push origin main")
			check("other session", other, tc.otherSession)
			ws := shellCall("s3", "c5", "git push")
			ws.Workspace = "elsewhere"
			check("other workspace", ws, tc.otherWS)
			if _, err := e.broker.EndTurn(ctx, "s1", human); err != nil {
				t.Fatal(err)
			}
			check("next turn", shellCall("s1", "c6", "git push"), tc.nextTurn)

			src, _, err := e.rules.Document(ctx, "default")
			if err != nil {
				t.Fatal(err)
			}
			inDoc := strings.Contains(string(src), `"git push *": "allow"`)
			if inDoc != (tc.scope == toolgate.ScopeWorkspace) {
				t.Errorf("rule appended to the workspace document: %v\n%s", inDoc, src)
			}
			if inDoc && !strings.Contains(string(src), "granted by alice") {
				t.Errorf("appended rule lacks its comment:\n%s", src)
			}
		})
	}
}

func TestToolGrantIsToolScoped(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	a := e.ask(t, toolgate.Call{ID: "c1", Session: "s", Tool: "mcp__gh__create_issue"})
	if _, err := e.broker.Approve(ctx, a.ID, toolgate.ApproveRequest{Scope: toolgate.ScopeSession, Grant: toolgate.GrantTool}, human); err != nil {
		t.Fatal(err)
	}
	if got := e.final(t, toolgate.Call{ID: "c2", Session: "s", Tool: "mcp__gh__create_issue"}); got != toolgate.Allow {
		t.Fatalf("same tool: %s", got)
	}
	if got := e.final(t, toolgate.Call{ID: "c3", Session: "s", Tool: "mcp__gh__delete_repo"}); got != toolgate.Ask {
		t.Fatalf("other tool: %s", got)
	}
}

func TestCascade(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	a := e.ask(t, shellCall("s1", "c1", "git push origin main"))
	b := e.ask(t, shellCall("s1", "c2", "git push origin dev"))
	c := e.ask(t, shellCall("s1", "c3", "rm -rf build"))
	d := e.ask(t, shellCall("s2", "c4", "git push origin main"))
	if _, err := e.broker.Approve(ctx, a.ID, toolgate.ApproveRequest{Scope: toolgate.ScopeSession, Pattern: "git push *"}, human); err != nil {
		t.Fatal(err)
	}
	got, err := e.broker.Get(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != toolgate.StatusApproved || got.Resolution.Via != "cascade" {
		t.Fatalf("cascaded approval: %s %+v", got.Status, got.Resolution)
	}
	for _, id := range []string{c.ID, d.ID} {
		if got, _ := e.broker.Get(ctx, id); got.Status != toolgate.StatusPending {
			t.Errorf("approval %s outside the grant: %s", got.Call.Args["command"], got.Status)
		}
	}
}

func TestDenySoftAndHard(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	batch := func(id string, i int, cmd string) toolgate.Call {
		c := shellCall("s1", id, cmd)
		c.Batch = &toolgate.Batch{ID: "b1", Index: i, Total: 3}
		return c
	}
	a := e.ask(t, batch("c1", 0, "npm install"))
	b := e.ask(t, batch("c2", 1, "npm run build"))
	soft, err := e.broker.Deny(ctx, a.ID, toolgate.DenyRequest{Mode: toolgate.DenySoft, Feedback: "Don't install that"}, human)
	if err != nil {
		t.Fatal(err)
	}
	msg := soft.Resolution.Reason
	if !strings.Contains(msg, "User rejected tool 'Bash'") || !strings.Contains(msg, "Feedback: Don't install that") || !strings.Contains(msg, "Ask the user") {
		t.Fatalf("soft deny message %q", msg)
	}
	if got, _ := e.broker.Get(ctx, b.ID); got.Status != toolgate.StatusPending {
		t.Fatalf("soft deny ended the batch: %s", got.Status)
	}
	c := e.ask(t, batch("c3", 2, "npm test"))
	// Hard is the default: this call and the rest of the batch end.
	hard, err := e.broker.Deny(ctx, b.ID, toolgate.DenyRequest{}, human)
	if err != nil {
		t.Fatal(err)
	}
	if hard.Resolution.DenyMode != toolgate.DenyHard {
		t.Fatalf("default deny mode %q", hard.Resolution.DenyMode)
	}
	if got, _ := e.broker.Get(ctx, c.ID); got.Status != toolgate.StatusDenied {
		t.Fatalf("rest of batch after hard deny: %s", got.Status)
	}
	s, err := e.broker.Session(ctx, "s1")
	if err != nil || !s.Stopped {
		t.Fatalf("stop flag: %+v %v", s, err)
	}
	if got := e.final(t, shellCall("s1", "c4", "ls")); got != toolgate.Deny {
		t.Fatalf("call after hard deny: %s", got)
	}
	if _, err := e.broker.EndTurn(ctx, "s1", human); err != nil {
		t.Fatal(err)
	}
	e.ask(t, shellCall("s1", "c5", "npm test"))
}

func TestExpiry(t *testing.T) {
	t.Parallel()
	e := newEnv(t, approval.WithTTL(time.Minute))
	ctx := context.Background()
	a := e.ask(t, shellCall("s1", "c1", "make deploy"))
	if a.ExpiresAt.Sub(a.CreatedAt) != time.Minute {
		t.Fatalf("ttl %v", a.ExpiresAt.Sub(a.CreatedAt))
	}
	if n, err := e.broker.ReapNow(ctx); err != nil || n != 0 {
		t.Fatalf("early reap: %d %v", n, err)
	}
	e.clock.Add(time.Minute)
	if n, err := e.broker.ReapNow(ctx); err != nil || n != 1 {
		t.Fatalf("reap: %d %v", n, err)
	}
	got, err := e.broker.Wait(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != toolgate.StatusExpired || got.Resolution.Reason != "approval timed out (no host response)" {
		t.Fatalf("expired approval %+v", got.Resolution)
	}
	if _, err := e.broker.Approve(ctx, a.ID, toolgate.ApproveRequest{}, human); toolgate.ErrorCodeOf(err) != toolgate.EConflict {
		t.Fatalf("approve after expiry: %v", err)
	}
	// An answer that arrives after the expiry time but before any sweep
	// still cannot approve.
	b := e.ask(t, shellCall("s1", "c2", "make deploy"))
	e.clock.Add(2 * time.Minute)
	if got, err := e.broker.Approve(ctx, b.ID, toolgate.ApproveRequest{}, human); toolgate.ErrorCodeOf(err) != toolgate.EConflict || got.Status != toolgate.StatusExpired {
		t.Fatalf("late approve: %v %+v", err, got)
	}
}

func TestExpiryTimerIsExact(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	pol := approval.NewWorkspaces(fsrules.New(t.TempDir(), policy.DefaultRulesJSONC()), nil)
	b, err := approval.New(ctx, st, pol, approval.WithTTL(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	r, err := b.Submit(ctx, toolgate.SubmitRequest{Call: shellCall("s", "c", "make")})
	if err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	got, err := b.Wait(wctx, r.Approval.ID)
	if err != nil || got.Status != toolgate.StatusExpired {
		t.Fatalf("timer expiry: %v %v", got, err)
	}
}

func TestRequestApprovalCancelsWhenWaiterLeaves(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	sub := e.broker.Subscribe(context.Background(), toolgate.EventFilter{Session: "s1"})
	defer sub.Close()
	go func() {
		<-sub.Events() // requested
		cancel()
	}()
	r, err := e.broker.RequestApproval(ctx, toolgate.SubmitRequest{Call: shellCall("s1", "c1", "make")})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	if r.Approval.Status != toolgate.StatusCancelled {
		t.Fatalf("status %s", r.Approval.Status)
	}
}

func TestAttachByCallID(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.ask(t, shellCall("s1", "c1", "make"))
	again := e.ask(t, shellCall("s1", "c1", "make"))
	if again.ID != a.ID {
		t.Fatalf("resubmission created %s, want %s", again.ID, a.ID)
	}
	// The same call id in another session is another call.
	if other := e.ask(t, shellCall("s2", "c1", "make")); other.ID == a.ID {
		t.Fatal("call ids are per session")
	}
	if _, err := e.broker.Approve(context.Background(), a.ID, toolgate.ApproveRequest{}, human); err != nil {
		t.Fatal(err)
	}
	r := e.submit(t, shellCall("s1", "c1", "make"))
	if got, ok := r.Final(); !ok || got != toolgate.Allow {
		t.Fatalf("resubmitted after approval: %v %v", got, ok)
	}
}

func TestAbort(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	a := e.ask(t, shellCall("s1", "c1", "make"))
	if _, err := e.broker.Abort(ctx, "s1", human); err != nil {
		t.Fatal(err)
	}
	if got, _ := e.broker.Get(ctx, a.ID); got.Status != toolgate.StatusCancelled {
		t.Fatalf("pending after abort: %s", got.Status)
	}
	if got := e.final(t, shellCall("s1", "c2", "ls")); got != toolgate.Deny {
		t.Fatalf("call after abort: %s", got)
	}
}

func TestQuestionToolAnswers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	q := e.ask(t, toolgate.Call{ID: "q1", Session: "s", Tool: "AskUserQuestion", Args: map[string]any{"question": "Which target?"}})
	b := e.ask(t, shellCall("s", "c1", "make"))
	// An answer for a tool that is not a question tool is rejected and
	// changes nothing.
	if _, err := e.broker.Approve(ctx, b.ID, toolgate.ApproveRequest{Answer: json.RawMessage(`"fabricated"`)}, human); toolgate.ErrorCodeOf(err) != toolgate.EInvalid {
		t.Fatalf("answer for Bash: %v", err)
	}
	if got, _ := e.broker.Get(ctx, b.ID); got.Status != toolgate.StatusPending {
		t.Fatalf("rejected answer changed the approval: %s", got.Status)
	}
	got, err := e.broker.Approve(ctx, q.ID, toolgate.ApproveRequest{Answer: json.RawMessage(`"staging"`)}, human)
	if err != nil {
		t.Fatal(err)
	}
	if string(got.Resolution.Answer) != `"staging"` {
		t.Fatalf("answer %s", got.Resolution.Answer)
	}
}

func TestResumeByToken(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	q := e.ask(t, toolgate.Call{ID: "q1", Session: "s", Tool: "AskUserQuestion"})
	got, err := e.broker.ResumeByToken(toolgate.WithActor(ctx, human), q.ResumeToken, true, json.RawMessage(`{"answer":"staging"}`))
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != toolgate.StatusApproved || string(got.Resolution.Answer) != `"staging"` {
		t.Fatalf("resume: %s %s", got.Status, got.Resolution.Answer)
	}
	if _, err := e.broker.ResumeByToken(toolgate.WithActor(ctx, human), q.ID, true, nil); toolgate.ErrorCodeOf(err) != toolgate.ENotFound {
		t.Fatalf("the internal id is not a resume token: %v", err)
	}
}

func TestModeChangeAppliesToLaterCalls(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	pending := e.ask(t, toolgate.Call{ID: "c1", Session: "s", Tool: "mcp__x__y"})
	if _, err := e.broker.SetMode(ctx, "s", toolgate.ModeYolo, human); err != nil {
		t.Fatal(err)
	}
	if got := e.final(t, toolgate.Call{ID: "c2", Session: "s", Tool: "mcp__x__y"}); got != toolgate.Allow {
		t.Fatalf("after yolo: %s", got)
	}
	if got, _ := e.broker.Get(ctx, pending.ID); got.Status != toolgate.StatusPending {
		t.Fatalf("pending approval was re-decided: %s", got.Status)
	}
}

func TestEventsResumeAndReplay(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	a := e.ask(t, shellCall("s1", "c1", "make a"))
	b := e.ask(t, shellCall("s2", "c2", "make b"))
	// A new subscriber is sent every pending approval first.
	sub := e.broker.Subscribe(ctx, toolgate.EventFilter{})
	var replayed []string
	for range 2 {
		ev := <-sub.Events()
		if !ev.Replay || ev.Type != toolgate.EventApprovalRequested {
			t.Fatalf("replay event %+v", ev)
		}
		replayed = append(replayed, ev.Approval.ID)
	}
	if replayed[0] != a.ID || replayed[1] != b.ID {
		t.Fatalf("replay order %v", replayed)
	}
	if _, err := e.broker.Approve(ctx, a.ID, toolgate.ApproveRequest{}, human); err != nil {
		t.Fatal(err)
	}
	ev := <-sub.Events()
	sub.Close()
	// Resuming after the last seen event gets what came since; a session
	// filter keeps other sessions out.
	if _, err := e.broker.Deny(ctx, b.ID, toolgate.DenyRequest{Mode: toolgate.DenySoft}, human); err != nil {
		t.Fatal(err)
	}
	resumed := e.broker.Subscribe(ctx, toolgate.EventFilter{AfterSeq: ev.Seq, Session: "s2"})
	defer resumed.Close()
	next := <-resumed.Events()
	if next.Seq <= ev.Seq || next.Approval.ID != b.ID || next.Approval.Status != toolgate.StatusDenied {
		t.Fatalf("resumed event %+v", next)
	}
}

func TestRestartKeepsPending(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c := &clock{t: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)}
	ctx := context.Background()
	first := openEnv(t, dir, c)
	a := first.ask(t, shellCall("s1", "c1", "make"))
	b := first.ask(t, shellCall("s1", "c2", "make b"))
	first.broker.Close()
	first.store.Close()

	c.Add(toolgate.DefaultTTL / 2)
	second := openEnv(t, dir, c)
	if got := second.ask(t, shellCall("s1", "c1", "make")); got.ID != a.ID {
		t.Fatalf("re-attach after restart: %s, want %s", got.ID, a.ID)
	}
	if _, err := second.broker.Approve(ctx, b.ID, toolgate.ApproveRequest{}, human); err != nil {
		t.Fatal(err)
	}
	second.broker.Close()
	second.store.Close()

	// Restarting after the expiry time expires what is still pending.
	c.Add(toolgate.DefaultTTL)
	third := openEnv(t, dir, c)
	got, err := third.broker.Get(ctx, a.ID)
	if err != nil || got.Status != toolgate.StatusExpired {
		t.Fatalf("after late restart: %+v %v", got, err)
	}
	if got, _ := third.broker.Get(ctx, b.ID); got.Status != toolgate.StatusApproved {
		t.Fatalf("answered approval after restart: %s", got.Status)
	}
}

func TestConcurrentAnswersOneWins(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	a := e.ask(t, shellCall("s1", "c1", "make"))
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := 0
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			if i%2 == 0 {
				_, err = e.broker.Approve(ctx, a.ID, toolgate.ApproveRequest{}, human)
			} else {
				_, err = e.broker.Deny(ctx, a.ID, toolgate.DenyRequest{Mode: toolgate.DenySoft}, human)
			}
			if err == nil {
				mu.Lock()
				wins++
				mu.Unlock()
			} else if toolgate.ErrorCodeOf(err) != toolgate.EConflict {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if wins != 1 {
		t.Fatalf("%d answers won, want exactly 1", wins)
	}
}

func TestAuditRecordsEverything(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	e.final(t, toolgate.Call{ID: "r1", Session: "s", Tool: "read_file", Args: map[string]any{"path": ".env"}})
	a := e.ask(t, shellCall("s", "c1", "make"))
	if _, err := e.broker.Approve(ctx, a.ID, toolgate.ApproveRequest{Scope: toolgate.ScopeSession}, human); err != nil {
		t.Fatal(err)
	}
	entries, err := e.broker.Audit(ctx, store.AuditFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if err := digest.VerifyChain(entries, ""); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, en := range entries {
		if en.Kind == "decision" || strings.HasPrefix(en.Kind, "approval.") || strings.HasPrefix(en.Kind, "grant.") {
			kinds = append(kinds, en.Kind+":"+en.Outcome+":"+en.Who)
		}
	}
	want := []string{"decision:deny:toolgate", "approval.requested:ask:toolgate", "approval.resolved:approved:alice", "grant.added:session:alice"}
	if strings.Join(kinds, " ") != strings.Join(want, " ") {
		t.Fatalf("audit kinds\n got %v\nwant %v", kinds, want)
	}
}

func TestBrokenRulesFailClosed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	if err := e.rules.PutDocument(ctx, "default", []byte(`{"*": "allow"}`)); err != nil {
		t.Fatal(err)
	}
	if got := e.final(t, shellCall("s", "c1", "ls")); got != toolgate.Allow {
		t.Fatalf("permissive rules: %s", got)
	}
	// Someone breaks the document on disk: nothing is allowed until fixed.
	path := filepath.Join(e.dir, "workspaces", "default", "permissions.jsonc")
	time.Sleep(10 * time.Millisecond) // let the modification time move
	if err := os.WriteFile(path, []byte(`{"*": "allow",,}`), 0o600); err != nil {
		t.Fatal(err)
	}
	r := e.submit(t, shellCall("s", "c2", "ls"))
	if got, _ := r.Final(); got == toolgate.Allow {
		t.Fatalf("broken rules allowed a call: %s", r.Decision.Reason)
	}
}

func TestSessionModeBeforeFirstCall(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	if _, err := e.broker.EndTurn(ctx, "new", human); toolgate.ErrorCodeOf(err) != toolgate.ENotFound {
		t.Fatalf("ending the turn of an unseen session: %v", err)
	}
	if _, err := e.broker.SetMode(ctx, "new", toolgate.ModeYolo, human); err != nil {
		t.Fatal(err)
	}
	c := toolgate.Call{ID: "c1", Session: "new", Workspace: "shop", Tool: "mcp__x__y"}
	if got := e.final(t, c); got != toolgate.Allow {
		t.Fatalf("first call of a session set to yolo: %s", got)
	}
	s, err := e.broker.Session(ctx, "new")
	if err != nil || s.Workspace != "shop" {
		t.Fatalf("session bound to %q (%v), want shop", s.Workspace, err)
	}
	c.ID, c.Workspace = "c2", "elsewhere"
	if _, err := e.broker.Submit(ctx, toolgate.SubmitRequest{Call: c}); toolgate.ErrorCodeOf(err) != toolgate.EInvalid {
		t.Fatalf("call from another workspace: %v", err)
	}
}

// Revoking a workspace grant takes its rule out of the rules document
// too: a revoked grant must not go on allowing.
func TestRevokeWorkspaceGrant(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	a := e.ask(t, shellCall("s1", "c1", "git push origin main"))
	got, err := e.broker.Approve(ctx, a.ID, toolgate.ApproveRequest{Scope: toolgate.ScopeWorkspace}, human)
	if err != nil {
		t.Fatal(err)
	}
	if e.final(t, shellCall("s2", "c2", "git push")) != toolgate.Allow {
		t.Fatal("workspace grant does not allow")
	}
	if err := e.broker.RevokeGrant(ctx, got.Resolution.GrantID, human); err != nil {
		t.Fatal(err)
	}
	if got := e.final(t, shellCall("s3", "c3", "git push")); got != toolgate.Ask {
		t.Fatalf("after revoking the workspace grant: %s", got)
	}
	src, _, _ := e.rules.Document(ctx, "default")
	if strings.Contains(string(src), "git push *") {
		t.Fatalf("revoked rule still in the document:\n%s", src)
	}
}

func TestDenyMessageWording(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		req  toolgate.DenyRequest
		want string
	}{
		{toolgate.DenyRequest{Reason: "not now", Feedback: "use make", Mode: toolgate.DenySoft},
			"User rejected tool 'Bash'. Reason: not now. Feedback: use make\n\n[System reminder: Ask the user how they would like to proceed before trying this again.]"},
		{toolgate.DenyRequest{Reason: "why?", Feedback: "why?"},
			"User rejected tool 'Bash'. Reason: why?\n\n[System reminder: The user stopped this turn. Do not call more tools; wait for the user's next message.]"},
		{toolgate.DenyRequest{Feedback: "Don't write that file", Mode: toolgate.DenySoft},
			"User rejected tool 'Bash'. Feedback: Don't write that file\n\n[System reminder: Ask the user how they would like to proceed before trying this again.]"},
	} {
		if got := approval.DenyMessage("Bash", c.req); got != c.want {
			t.Errorf("DenyMessage(%+v)\n got %q\nwant %q", c.req, got, c.want)
		}
	}
}

// TestGrantVisibleWhenWaiterWakes: the agent's next call, made the moment
// its waiter hears "approved", is decided with the new grant (the grant
// caches were once dropped only after waiters woke, so it could still ask).
func TestGrantVisibleWhenWaiterWakes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	for i := range 20 {
		session := fmt.Sprintf("s%d", i)
		r := e.submit(t, shellCall(session, "c1", "git push origin main"))
		if r.Approval == nil {
			t.Fatalf("submit: %+v", r)
		}
		go e.broker.Approve(ctx, r.Approval.ID, toolgate.ApproveRequest{Scope: toolgate.ScopeSession, Pattern: "git push *"}, human)
		if a, err := e.broker.Wait(ctx, r.Approval.ID); err != nil || a.Status != toolgate.StatusApproved {
			t.Fatalf("wait: %+v %v", a, err)
		}
		next := e.submit(t, shellCall(session, "c2", "git push origin feature"))
		if next.Decision.Action != toolgate.Allow {
			t.Fatalf("run %d: the next call right after the approval: %s (%s)", i, next.Decision.Action, next.Decision.Reason)
		}
	}
}

// "For this turn" and "for this session" with no pattern grant the call
// exactly as it was made, not the wider suggestion (issue 17: `s` on
// `docker compose up -d` granted `docker compose up *`); the suggestion is
// still offered, and a person may widen to it. Glob characters in the
// call stay literal, so the exact grant never covers more than the call.
func TestSessionGrantsExactCall(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name, cmd, suggested, exact string
		same, other                 string // a call that must be allowed after, and one that must still ask
	}{
		{"arity", "docker compose up -d", "docker compose up *", "docker compose up -d", "docker compose up -d", "docker compose up --build"},
		{"risky class", "kubectl delete namespace prod", "", "kubectl delete namespace prod", "kubectl delete namespace prod", "kubectl delete namespace staging"},
		{"glob characters", "git add *.go", "git add *", `git add \*.go`, "git add *.go", "git add main.go"},
	} {
		for _, scope := range []toolgate.Scope{toolgate.ScopeTurn, toolgate.ScopeSession} {
			t.Run(tc.name+"/"+string(scope), func(t *testing.T) {
				t.Parallel()
				e := newEnv(t)
				a := e.ask(t, shellCall("s1", "c1", tc.cmd))
				sg := a.Decision.Suggestions
				if len(sg) == 0 || sg[0].Exact != tc.exact || (tc.suggested != "" && sg[0].Pattern != tc.suggested) {
					t.Fatalf("suggestions %+v, want exact %q and pattern %q", sg, tc.exact, tc.suggested)
				}
				got, err := e.broker.Approve(ctx, a.ID, toolgate.ApproveRequest{Scope: scope}, human)
				if err != nil {
					t.Fatal(err)
				}
				if got.Resolution.Pattern != tc.exact || got.Resolution.Grant != toolgate.GrantPattern {
					t.Fatalf("grant %+v, want exactly %q", got.Resolution, tc.exact)
				}
				if v := e.final(t, shellCall("s1", "c2", tc.same)); v != toolgate.Allow {
					t.Errorf("the same call again: %s", v)
				}
				if v := e.final(t, shellCall("s1", "c3", tc.other)); v != toolgate.Ask {
					t.Errorf("%q after an exact grant for %q: %s, want ask", tc.other, tc.cmd, v)
				}
			})
		}
	}
}

// TestEventsEndsWithCause: Events delivers what Subscribe does, and once
// its context ends the channel closes and the error channel says nil (a
// consumer that stopped), not a drop to resume from.
func TestEventsEndsWithCause(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	events, errc := e.broker.Events(ctx, toolgate.EventFilter{})
	a := e.ask(t, shellCall("s1", "c1", "git push origin main"))
	if ev := <-events; ev.Type != toolgate.EventApprovalRequested || ev.Approval.ID != a.ID {
		t.Fatalf("first event %+v", ev)
	}
	cancel()
	for range events { // drains until closed
	}
	if err := <-errc; err != nil {
		t.Fatalf("after the context ended: %v, want nil", err)
	}
}
