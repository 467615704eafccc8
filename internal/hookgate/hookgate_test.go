package hookgate_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/internal/hookgate"
	"github.com/toolgate/toolgate/internal/stacktest"
)

func shell(session, id, command string) toolgate.Call {
	return toolgate.Call{ID: id, Session: session, Workspace: "shop", Tool: "Bash",
		Args: map[string]any{"command": command}, Cwd: "/home/user/shop"}
}

// TestSameAsClient submits the same calls through hookgate and through
// package client (net/http) to a real gateway: the answers are the same,
// including a response large enough to come chunked.
func TestSameAsClient(t *testing.T) {
	t.Parallel()
	s := stacktest.New(t)
	ctx := context.Background()
	c, err := client.New(s.Server.URL, s.Agent, client.WithVia("hook"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := hookgate.New(s.Server.URL+"/", s.Agent, "hook")
	if err != nil {
		t.Fatal(err)
	}
	for i, command := range []string{"ls", "cat ~/.ssh/id_rsa", "rm -rf build", "echo " + strings.Repeat("x", 6000)} {
		for _, hold := range []bool{false, true} {
			id := string(rune('a'+i)) + map[bool]string{false: "-n", true: "-h"}[hold]
			req := toolgate.SubmitRequest{Call: shell("s1", id, command), NoHold: !hold, TTL: time.Minute}
			want, err := c.Submit(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			req.Call.ID += "2"
			got, err := g.Submit(ctx, req)
			if err != nil {
				t.Fatalf("%s: %v", command, err)
			}
			if got.Decision.Action != want.Decision.Action || got.Decision.Reason != want.Decision.Reason ||
				(got.Approval == nil) != (want.Approval == nil) {
				t.Errorf("%.40s hold=%v: hookgate %+v, client %+v", command, hold, got.Decision, want.Decision)
			}
			if got.Approval != nil {
				if _, err := g.Cancel(ctx, got.Approval.ID, "test"); err != nil {
					t.Errorf("cancel: %v", err)
				}
			}
		}
	}
}

// TestWaitAndAnswer holds a call, waits for it through hookgate and
// approves it as an approver would.
func TestWaitAndAnswer(t *testing.T) {
	t.Parallel()
	s := stacktest.New(t)
	ctx := context.Background()
	g, err := hookgate.New(s.Server.URL, s.Agent, "hook")
	if err != nil {
		t.Fatal(err)
	}
	approver, err := client.New(s.Server.URL, s.Approver)
	if err != nil {
		t.Fatal(err)
	}
	r, err := g.Submit(ctx, toolgate.SubmitRequest{Call: shell("s1", "w1", "rm -rf build"), TTL: time.Minute})
	if err != nil || r.Approval == nil {
		t.Fatalf("submit: %+v, %v", r, err)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		_, _ = approver.Approve(ctx, r.Approval.ID, toolgate.ApproveRequest{})
	}()
	a, err := g.Wait(ctx, r.Approval.ID)
	if err != nil || a.Status != toolgate.StatusApproved {
		t.Fatalf("wait: %+v, %v", a, err)
	}
	// A wait that runs out reports the approval still pending.
	r, err = g.Submit(ctx, toolgate.SubmitRequest{Call: shell("s1", "w2", "rm -rf dist"), TTL: time.Minute})
	if err != nil || r.Approval == nil {
		t.Fatalf("submit: %+v, %v", r, err)
	}
	wctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if _, err := g.Wait(wctx, r.Approval.ID); err == nil {
		t.Errorf("a wait past its deadline returned no error")
	}
	if a, err := g.Cancel(ctx, r.Approval.ID, "gone"); err != nil || a.Status == toolgate.StatusPending {
		t.Errorf("cancel: %+v, %v", a, err)
	}
	// Ending the turn of a session the gateway has seen works; of one it
	// has not, it is the gateway's not found.
	if _, err := g.EndTurn(ctx, "s1"); err != nil {
		t.Errorf("end turn: %v", err)
	}
	if _, err := g.EndTurn(ctx, "never-seen"); toolgate.ErrorCodeOf(err) != toolgate.ENotFound {
		t.Errorf("end turn of an unknown session: %v", err)
	}
}

// TestFailures: a gateway that is down, a wrong token and a URL it does
// not speak are errors, never an answer.
func TestFailures(t *testing.T) {
	t.Parallel()
	s := stacktest.New(t)
	ctx := context.Background()
	bad, err := hookgate.New(s.Server.URL, "tg_wrong", "hook")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bad.Submit(ctx, toolgate.SubmitRequest{Call: shell("s1", "f1", "ls")}); toolgate.ErrorCodeOf(err) != toolgate.EUnauthorized {
		t.Errorf("wrong token: %v", err)
	}
	down, err := hookgate.New("http://127.0.0.1:1", s.Agent, "hook")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := down.Submit(ctx, toolgate.SubmitRequest{Call: shell("s1", "f2", "ls")}); toolgate.ErrorCodeOf(err) != toolgate.EUnavailable {
		t.Errorf("gateway down: %v", err)
	}
	for _, u := range []string{"https://127.0.0.1:8787", "http://gw.example:8787", "http://gw.example"} {
		if _, err := hookgate.New(u, "", ""); !errors.Is(err, hookgate.ErrHandOff) {
			t.Errorf("%s: %v, want a hand-off to the full client", u, err)
		}
	}
	for _, u := range []string{"http://localhost:8787", "http://[::1]:8787", "http://10.0.0.2", "http://127.0.0.1:8787/gw/"} {
		if _, err := hookgate.New(u, "", ""); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
	for _, u := range []string{"ftp://x", "http://", "http://user@host:1", "http://127.0.0.1:1/?q", "127.0.0.1:8787", "http://127.0.0.1:99999"} {
		if _, err := hookgate.New(u, "", ""); err == nil || errors.Is(err, hookgate.ErrHandOff) {
			t.Errorf("%q: %v", u, err)
		}
	}
	if _, err := hookgate.New("http://127.0.0.1:1", "tok\r\nX-Evil: 1", ""); err == nil {
		t.Errorf("a token with a line break was accepted")
	}
}
