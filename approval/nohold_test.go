package approval_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/store"
)

// TestNoHold: a call submitted with NoHold (JSON "hold": false) that asks
// is recorded as an ask decision and held nowhere: no approval, no event.
// Allow and deny come back as they would without it (the user's twin and
// the attacker's: NoHold never turns an ask into an allow nor a deny into
// anything else).
func TestNoHold(t *testing.T) {
	t.Parallel()
	read := func(path string) toolgate.Call {
		return toolgate.Call{ID: "c1", Session: "s1", Tool: "Read", Args: map[string]any{"file_path": path}}
	}
	for _, tc := range []struct {
		name string
		call toolgate.Call
		want toolgate.Action
	}{
		{"ask", shellCall("s1", "c1", "git push origin main"), toolgate.Ask},
		{"dangerous ask", shellCall("s1", "c1", "rm -rf /"), toolgate.Ask},
		{"allow stays allow", read("/home/user/project/README.md"), toolgate.Allow},
		{"deny stays deny", read("/home/user/project/.env"), toolgate.Deny},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			ctx := context.Background()
			sub := e.broker.Subscribe(ctx, toolgate.EventFilter{})
			defer sub.Close()
			r, err := e.broker.Submit(ctx, toolgate.SubmitRequest{Call: tc.call, NoHold: true})
			if err != nil {
				t.Fatal(err)
			}
			if r.Decision.Action != tc.want || r.Approval != nil {
				t.Fatalf("got %s (%s) approval %v, want %s and no approval", r.Decision.Action, r.Decision.Reason, r.Approval, tc.want)
			}
			if action, final := r.Final(); action == toolgate.Allow && tc.want != toolgate.Allow || final != (tc.want != toolgate.Ask) {
				t.Fatalf("Final() = %s, %v", action, final)
			}
			pending, err := e.broker.List(ctx, store.ApprovalFilter{})
			if err != nil || len(pending) != 0 {
				t.Fatalf("approvals %v, %v; want none", pending, err)
			}
			entries, err := e.broker.Audit(ctx, store.AuditFilter{Kind: "decision"})
			if err != nil || len(entries) != 1 {
				t.Fatalf("decision entries %v, %v; want one", entries, err)
			}
			en := entries[0]
			if en.Outcome != tc.want.String() || en.CallID != "c1" || !strings.Contains(string(en.Data), `"digest":"sha256:`) {
				t.Fatalf("audit entry %+v", en)
			}
			if tc.want == toolgate.Ask && (!strings.HasPrefix(en.Reason, approval.NoHoldReason+": ") || !strings.Contains(en.Reason, r.Decision.Reason)) {
				t.Fatalf("ask audited with reason %q", en.Reason)
			}
			// No approver was told: the next event is a held call's.
			held := e.ask(t, shellCall("s2", "c2", "git push origin main"))
			if ev := <-sub.Events(); ev.Type != toolgate.EventApprovalRequested || ev.Approval.ID != held.ID {
				t.Fatalf("first event %+v, want the held call's request", ev)
			}
		})
	}
}

// TestNoHoldHalts: an agent cannot use NoHold to get past a hard deny's
// stop flag or an aborted session, and a call id already held keeps its
// binding: other content under it is a conflict, the same call attaches.
func TestNoHoldHalts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// halted are calls a halted session denies: one that would ask and
	// one that would be allowed.
	halted := func(session string) []toolgate.Call {
		return []toolgate.Call{
			shellCall(session, "h1", "git push origin main"),
			{ID: "h2", Session: session, Tool: "Read", Args: map[string]any{"file_path": "/home/user/project/README.md"}},
		}
	}
	noHold := func(e *env, c toolgate.Call) (*toolgate.Result, error) {
		return e.broker.Submit(ctx, toolgate.SubmitRequest{Call: c, NoHold: true})
	}
	t.Run("stop flag", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		a := e.ask(t, shellCall("s1", "c1", "git push origin main"))
		if _, err := e.broker.Deny(ctx, a.ID, toolgate.DenyRequest{Mode: toolgate.DenyHard}, human); err != nil {
			t.Fatal(err)
		}
		for i, c := range halted("s1") {
			r, err := noHold(e, c)
			if err != nil || r.Decision.Action != toolgate.Deny || r.Approval != nil {
				t.Fatalf("call %d after a hard deny: %+v, %v; want deny", i, r, err)
			}
		}
		// The user's twin: once the user speaks again, the ask is an ask.
		if _, err := e.broker.EndTurn(ctx, "s1", human); err != nil {
			t.Fatal(err)
		}
		if r, err := noHold(e, shellCall("s1", "c9", "git push origin main")); err != nil || r.Decision.Action != toolgate.Ask || r.Approval != nil {
			t.Fatalf("after the turn: %+v, %v; want an unheld ask", r, err)
		}
	})
	t.Run("abort", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		e.submit(t, shellCall("s1", "c0", "git status")) // opens the session
		if _, err := e.broker.Abort(ctx, "s1", human); err != nil {
			t.Fatal(err)
		}
		for i, c := range halted("s1") {
			r, err := noHold(e, c)
			if err != nil || r.Decision.Action != toolgate.Deny || r.Approval != nil {
				t.Fatalf("call %d after abort: %+v, %v; want deny", i, r, err)
			}
		}
	})
	t.Run("call id binding", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		a := e.ask(t, shellCall("s1", "tu9", "git push origin main"))
		if r, err := noHold(e, shellCall("s1", "tu9", "rm -rf ~")); toolgate.ErrorCodeOf(err) != toolgate.EConflict {
			t.Fatalf("other content under a held id: %+v, %v; want a conflict", r, err)
		}
		r, err := noHold(e, shellCall("s1", "tu9", "git push origin main"))
		if err != nil || r.Approval == nil || r.Approval.ID != a.ID {
			t.Fatalf("same call: %+v, %v; want it attached to %s", r, err, a.ID)
		}
	})
}
