package cli_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/digest"
	"github.com/toolgate/toolgate/store"
)

// gateway is a `toolgate serve` process started from this test binary,
// which testscript.Main turns into the toolgate command when it is run
// under that name.
type gateway struct {
	cmd   *exec.Cmd
	url   string
	token string // the admin token printed on first start
	// log holds every line the process wrote to stderr.
	log struct {
		sync.Mutex
		lines []string
	}
}

// logText returns what the gateway has logged so far.
func (g *gateway) logText() string {
	g.log.Lock()
	defer g.log.Unlock()
	return strings.Join(g.log.lines, "\n")
}

// toolgateBinary returns a path under which this test binary runs as the
// toolgate command.
func toolgateBinary(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The companion programs beside it, where toolgate finds them.
	dir := t.TempDir()
	for _, name := range []string{"toolgate-tui", "toolgate-mcp", "toolgate"} {
		if err := os.Symlink(self, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "toolgate")
}

var (
	urlLine   = regexp.MustCompile(`export TOOLGATE_URL=(http://127\.0\.0\.1:\d+)`) // the banner
	tokenLine = regexp.MustCompile(`export TOOLGATE_TOKEN=(tg_\S+)`)
)

func startGateway(t *testing.T, bin, data string, env ...string) *gateway {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data", data)
	home := filepath.Join(data, "home")
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "TOOLGATE_CONFIG=")
	cmd.Env = append(cmd.Env, env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	g := &gateway{cmd: cmd}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	found := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			g.log.Lock()
			g.log.lines = append(g.log.lines, line)
			g.log.Unlock()
			if m := tokenLine.FindStringSubmatch(line); m != nil {
				g.token = m[1]
			}
			if m := urlLine.FindStringSubmatch(line); m != nil && g.url == "" {
				g.url = m[1]
				close(found)
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	select {
	case <-found:
	case <-time.After(30 * time.Second):
		t.Fatalf("gateway did not start within 30s:\n%s", g.logText())
	}
	return g
}

// newClient returns a client once the gateway accepts its token: a token
// created while the gateway runs is picked up at its next file check.
func newClient(t *testing.T, url, token string) *client.Client {
	t.Helper()
	c, err := client.New(url, token)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := c.Evaluate(context.Background(), toolgate.Call{Tool: "Read", Args: map[string]any{"file_path": "x"}})
		if toolgate.ErrorCodeOf(err) != toolgate.EUnauthorized {
			return c
		}
		if time.Now().After(deadline) {
			t.Fatalf("gateway never accepted the token: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func createToken(t *testing.T, bin, data, role string) string {
	t.Helper()
	out, err := exec.Command(bin, "tokens", "create", "--data", data, "--role", role, "--name", fmt.Sprintf("%s-%d", role, time.Now().UnixNano())).Output()
	if err != nil {
		t.Fatalf("tokens create: %v", err)
	}
	return strings.TrimSpace(string(out))
}

func bash(session, id, command string) toolgate.SubmitRequest {
	return toolgate.SubmitRequest{Call: toolgate.Call{ID: id, Session: session, Tool: "Bash", Args: map[string]any{"command": command}}}
}

// TestCrashLosesNothing kills the gateway with SIGKILL while approvals
// are pending and grants exist, restarts it on the same data directory and
// checks that nothing was lost and nothing was allowed by the crash.
func TestCrashLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts gateway processes")
	}
	t.Parallel()
	ctx := context.Background()
	bin := toolgateBinary(t)
	data := t.TempDir()
	g := startGateway(t, bin, data)
	if g.token == "" {
		t.Fatal("first start printed no admin token")
	}
	admin := newClient(t, g.url, g.token)
	agentToken := createToken(t, bin, data, "agent")
	agent := newClient(t, g.url, agentToken)

	// A grant, an answered approval, and two left pending.
	first, err := agent.Submit(ctx, bash("s1", "c1", "git push origin main"))
	if err != nil {
		t.Fatal(err)
	}
	// A pattern: without one a session grant covers only the exact call.
	if _, err := admin.Approve(ctx, first.Approval.ID, toolgate.ApproveRequest{Scope: toolgate.ScopeSession, Pattern: "git push *"}); err != nil {
		t.Fatal(err)
	}
	pending := map[string]string{}
	for _, id := range []string{"c2", "c3"} {
		r, err := agent.Submit(ctx, bash("s1", id, "make deploy-"+id))
		if err != nil {
			t.Fatal(err)
		}
		if r.Approval == nil || r.Approval.Status != toolgate.StatusPending {
			t.Fatalf("%s: want pending, got %+v", id, r)
		}
		pending[id] = r.Approval.ID
	}
	grants, err := admin.Grants(ctx, store.GrantFilter{})
	if err != nil || len(grants) != 1 {
		t.Fatalf("grants before crash: %v %v", grants, err)
	}
	before, err := admin.Audit(ctx, toolgate.AuditFilter{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}

	if err := g.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	g.cmd.Wait()

	g2 := startGateway(t, bin, data)
	if g2.token != "" {
		t.Fatal("restart created a new admin token: the token file was lost")
	}
	admin = newClient(t, g2.url, g.token)
	// The same agent credential: its sessions are its own (another agent
	// token would be told they do not exist).
	agent = newClient(t, g2.url, agentToken)

	after, err := admin.Audit(ctx, toolgate.AuditFilter{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(after) < len(before) {
		t.Fatalf("audit entries: %d after restart, %d before", len(after), len(before))
	}
	for i := range before {
		if after[i].Hash != before[i].Hash {
			t.Fatalf("audit entry %d changed across the crash", before[i].Seq)
		}
	}
	if err := digest.VerifyChain(after, ""); err != nil {
		t.Fatalf("audit chain after crash: %v", err)
	}
	if grants, err := admin.Grants(ctx, store.GrantFilter{}); err != nil || len(grants) != 1 {
		t.Fatalf("grants after crash: %v %v", grants, err)
	}
	// The grant still works, and pending approvals are still pending and
	// re-attach by call id.
	r, err := agent.Submit(ctx, bash("s1", "c4", "git push --tags"))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := r.Final(); got != toolgate.Allow {
		t.Fatalf("granted command after crash: %s", r.Decision.Reason)
	}
	for id, apID := range pending {
		r, err := agent.Submit(ctx, bash("s1", id, "make deploy-"+id))
		if err != nil {
			t.Fatal(err)
		}
		if r.Approval == nil || r.Approval.ID != apID || r.Approval.Status != toolgate.StatusPending {
			t.Fatalf("%s after crash: %+v, want pending approval %s", id, r.Approval, apID)
		}
	}
	// And they can still be answered.
	if _, err := admin.Deny(ctx, pending["c2"], toolgate.DenyRequest{Mode: toolgate.DenySoft}); err != nil {
		t.Fatal(err)
	}
	a, err := agent.Approval(ctx, pending["c2"])
	if err != nil || a.Status != toolgate.StatusDenied {
		t.Fatalf("answered after crash: %+v %v", a, err)
	}
}

// TestCrashThenExpiry restarts a killed gateway after the approvals' time
// ran out: they come back expired, that is denied, never allowed.
func TestCrashThenExpiry(t *testing.T) {
	if testing.Short() {
		t.Skip("starts gateway processes")
	}
	t.Parallel()
	ctx := context.Background()
	bin := toolgateBinary(t)
	data := t.TempDir()
	g := startGateway(t, bin, data, "TOOLGATE_APPROVAL_TIMEOUT=2s", "TOOLGATE_SWEEP_INTERVAL=1s")
	agentToken := createToken(t, bin, data, "agent")
	agent := newClient(t, g.url, agentToken)
	r, err := agent.Submit(ctx, bash("s1", "c1", "make deploy"))
	if err != nil {
		t.Fatal(err)
	}
	g.cmd.Process.Signal(syscall.SIGKILL)
	g.cmd.Wait()
	time.Sleep(2500 * time.Millisecond)
	g2 := startGateway(t, bin, data, "TOOLGATE_APPROVAL_TIMEOUT=2s", "TOOLGATE_SWEEP_INTERVAL=1s")
	// The same agent credential: its sessions are its own (another agent
	// token would be told they do not exist).
	agent = newClient(t, g2.url, agentToken)
	a, err := agent.Approval(ctx, r.Approval.ID)
	if err != nil {
		t.Fatal(err)
	}
	if a.Status != toolgate.StatusExpired || a.Resolution.Reason != toolgate.TimeoutReason {
		t.Fatalf("after restart past expiry: %s %+v", a.Status, a.Resolution)
	}
}
