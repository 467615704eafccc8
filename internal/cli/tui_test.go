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
	"github.com/toolgate/toolgate/approval"
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
// denies it and the agent gets that feedback.
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
		r   *approval.Result
		err error
	}
	longPoll := func(id, command string) chan result {
		ch := make(chan result, 1)
		go func() {
			r, err := agent.SubmitWait(ctx, bash("s1", id, command), 30*time.Second)
			ch <- result{r, err}
		}()
		return ch
	}

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
}
