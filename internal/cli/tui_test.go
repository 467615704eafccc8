package cli_test

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
)

// tmux drives a program in a real terminal: its own server socket, one
// 80×24 window.
type tmux struct {
	t      *testing.T
	socket string
}

func startTmux(t *testing.T, command string) *tmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (apt-get install tmux; .ci/run installs it): the terminal approver is not driven")
	}
	x := &tmux{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock")}
	x.run("new-session", "-d", "-s", "tg", "-x", "80", "-y", "24", command)
	t.Cleanup(func() { exec.Command("tmux", "-S", x.socket, "kill-server").Run() })
	return x
}

func (x *tmux) run(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", x.socket}, args...)...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %v: %v: %s", args, err, out)
	}
	return string(out)
}

func (x *tmux) screen() string { return x.run("capture-pane", "-p", "-t", "tg") }

// waitFor waits until the screen shows want.
func (x *tmux) waitFor(want string) string {
	x.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := x.screen()
		if strings.Contains(s, want) {
			return s
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("screen never showed %q; it shows:\n%s", want, s)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (x *tmux) keys(k ...string) { x.run(append([]string{"send-keys", "-t", "tg"}, k...)...) }
func (x *tmux) text(s string)    { x.run("send-keys", "-t", "tg", "-l", s) }

// TestTUIAnswersInATerminal runs `toolgate serve` and `toolgate tui` in a
// tmux terminal: an approval an agent submitted over HTTP before the
// approver started is replayed on screen; y approves it and the agent's
// long-poll returns allow; the next arrives live, and n with feedback
// denies it and the agent gets that feedback; e edits a call's arguments
// (an edit the rules deny is refused on screen); a question tool's call is
// answered with a number key and Enter.
func TestTUIAnswersInATerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("starts gateway processes")
	}
	t.Parallel()
	ctx := context.Background()
	bin := toolgateBinary(t)
	data := t.TempDir()
	g := startGateway(t, bin, data)
	agent := newClient(t, g.url, createToken(t, bin, data, "agent"))
	approver := createToken(t, bin, data, "approver")
	newClient(t, g.url, approver)

	type result struct {
		r   *toolgate.Result
		err error
	}
	longPollIn := func(session, id, command string) chan result {
		ch := make(chan result, 1)
		go func() {
			r, err := agent.SubmitWait(ctx, bash(session, id, command), 30*time.Second)
			ch <- result{r, err}
		}()
		return ch
	}
	longPoll := func(id, command string) chan result { return longPollIn("s1", id, command) }

	// The first call waits before the approver starts: the stream replays it.
	first := longPoll("c1", "git push origin feature-x")
	admin := newClient(t, g.url, g.token)
	for deadline := time.Now().Add(10 * time.Second); ; {
		list, err := admin.Approvals(ctx, toolgate.ApprovalFilter{Status: toolgate.StatusPending})
		if err == nil && len(list) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the call never became pending: %v %v", list, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	x := startTmux(t, fmt.Sprintf("env NO_COLOR=1 TERM=xterm-256color TOOLGATE_URL=%s TOOLGATE_TOKEN=%s %s tui; sleep 60", g.url, approver, bin))
	x.waitFor("git push origin feature-x")
	x.keys("y")
	res := <-first
	if res.err != nil {
		t.Fatal(res.err)
	}
	if act, final := res.r.Final(); !final || act != toolgate.Allow {
		t.Fatalf("after y the agent got %v (final %v), want allow: %+v", act, final, res.r.Approval)
	}
	if by := res.r.Approval.Resolution; by.Via != "tui" || by.Scope != toolgate.ScopeOnce {
		t.Fatalf("resolution %+v, want once via tui", by)
	}
	x.waitFor("approved once")

	// The second arrives while it watches.
	x.waitFor("No approvals waiting")
	second := longPoll("c2", "curl -X DELETE https://api.example.com/db")
	x.waitFor("curl -X DELETE")
	x.keys("n")
	x.waitFor("Feedback for the agent")
	x.text("use the staging API")
	x.keys("Enter")
	res = <-second
	if res.err != nil {
		t.Fatal(res.err)
	}
	if act, final := res.r.Final(); !final || act != toolgate.Deny {
		t.Fatalf("after n the agent got %v (final %v), want deny", act, final)
	}
	r := res.r.Approval.Resolution
	if r.Feedback != "use the staging API" || r.DenyMode != toolgate.DenyHard || !strings.Contains(r.Reason, "use the staging API") {
		t.Fatalf("deny resolution %+v, want the typed feedback in a hard deny", r)
	}
	x.waitFor("denied")

	// e: the arguments edited in the terminal; the agent gets allow with
	// the change to apply. (A new session: the hard deny stopped s1's turn.)
	x.waitFor("No approvals waiting")
	third := longPollIn("s2", "c3", "git push origin main")
	x.waitFor("git push origin main")
	x.keys("e")
	x.waitFor("Edit the arguments")
	x.keys("C-u")
	x.text(`{"command":"git push origin feature-y"}`)
	x.keys("Enter")
	res = <-third
	if res.err != nil {
		t.Fatal(res.err)
	}
	if act, final := res.r.Final(); !final || act != toolgate.Allow {
		t.Fatalf("after e the agent got %v (final %v), want allow", act, final)
	}
	if r := res.r.Approval.Resolution; string(r.Modifications) != `{"command":"git push origin feature-y"}` || r.Scope != toolgate.ScopeOnce {
		t.Fatalf("edit resolution %+v (modifications %s), want once with the edit", r, r.Modifications)
	}

	// An edit the rules deny: the gateway refuses it, the terminal shows
	// why and the call waits to be answered as it is.
	x.waitFor("No approvals waiting")
	fifth := longPollIn("s3", "c5", "git push origin main")
	x.waitFor("session s3")
	x.keys("e")
	x.waitFor("Edit the arguments")
	x.keys("C-u")
	x.text(`{"command":"cat ~/.ssh/id_rsa"}`)
	x.keys("Enter")
	x.waitFor("as modified is denied")
	x.keys("y")
	res = <-fifth
	if res.err != nil {
		t.Fatal(res.err)
	}
	if r := res.r.Approval.Resolution; res.r.Approval.Status != toolgate.StatusApproved || len(r.Modifications) != 0 {
		t.Fatalf("after a refused edit and y: %+v, want approved unchanged", r)
	}

	// A question tool's call: its options on screen, 2 picks, Enter sends.
	x.waitFor("No approvals waiting")
	fourth := make(chan result, 1)
	go func() {
		r, err := agent.SubmitWait(ctx, toolgate.SubmitRequest{Call: toolgate.Call{ID: "c4", Session: "s2", Tool: "AskUserQuestion",
			Args: map[string]any{"questions": []any{map[string]any{"question": "Which database?", "options": []any{
				map[string]any{"label": "SQLite"}, map[string]any{"label": "PostgreSQL"}}}}}}}, 30*time.Second)
		fourth <- result{r, err}
	}()
	x.waitFor("2 ( ) PostgreSQL")
	x.keys("2")
	x.waitFor("2 (•) PostgreSQL")
	x.keys("Enter")
	res = <-fourth
	if res.err != nil {
		t.Fatal(res.err)
	}
	if act, final := res.r.Final(); !final || act != toolgate.Allow {
		t.Fatalf("after answering the agent got %v (final %v), want allow", act, final)
	}
	if r := res.r.Approval.Resolution; string(r.Answer) != `{"answers":{"Which database?":"PostgreSQL"}}` {
		t.Fatalf("question resolution %+v (answer %s), want the picked answer", r, r.Answer)
	}
}
