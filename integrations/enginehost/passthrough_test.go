package enginehost_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
)

// The pass-through tests run three processes, as in use: a fake host
// (internal/testhost, playing an existing host's own approval UI), the
// real toolgate binary as `toolgate host --passthrough`, and the fake
// engine (internal/testengine). The test drives the host's stdin and
// reads what the host saw.

var passBins = sync.OnceValues(func() ([2]string, error) {
	dir, err := os.MkdirTemp("", "enginehost-pass")
	if err != nil {
		return [2]string{}, err
	}
	bins := [2]string{filepath.Join(dir, "toolgate"), filepath.Join(dir, "testhost")}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for i, pkg := range []string{"github.com/toolgate/toolgate/cmd/toolgate", "./internal/testhost"} {
		if out, err := exec.CommandContext(ctx, "go", "build", "-o", bins[i], pkg).CombinedOutput(); err != nil {
			return bins, &buildError{pkg: pkg, out: string(out), err: err}
		}
	}
	return bins, nil
})

type buildError struct {
	pkg, out string
	err      error
}

func (e *buildError) Error() string { return "build " + e.pkg + ": " + e.err.Error() + "\n" + e.out }

// passRun is a fake host running toolgate host --passthrough.
type passRun struct {
	*peer
	cmd  *exec.Cmd
	done chan struct{}
}

// startPass runs: testhost -answer ANSWER -- toolgate host --passthrough
// HOSTARGS… -- testengine.
func startPass(t *testing.T, answer string, env []string, hostArgs ...string) *passRun {
	t.Helper()
	bins, err := passBins()
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"-answer", answer, "--", bins[0], "host", "--passthrough"}
	args = append(append(args, hostArgs...), "--", engineBin, "-caps", "hitl_suspend")
	cmd := exec.Command(bins[1], args...)
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_DATA_HOME="+filepath.Join(home, "data"), "TOOLGATE_URL=", "TOOLGATE_TOKEN=")
	cmd.Env = append(cmd.Env, env...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &passRun{peer: &peer{writer: &writer{t: t, w: stdin}, out: newStream(t, stdout)}, cmd: cmd, done: make(chan struct{})}
	go func() { cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		stdin.Close()
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-p.done
		}
	})
	p.out.next("ready", isType("ready"))
	return p
}

const passRules = `{
  "*": "ask",
  "read_file": "allow",
  "write_file": {"*.env": "deny"}
}`

// Seed 000: "When the engine wants to call a tool …, it pauses and emits a
// tool_request event … The host is responsible for deciding whether to
// proceed." In pass-through the rules answer what they decide; the host's
// own UI gets the rest unchanged and its answers reach the engine; every
// other message passes both ways untouched.
func TestPassthroughKeepsTheHostsUI(t *testing.T) {
	t.Parallel()
	rules := filepath.Join(t.TempDir(), "permissions.jsonc")
	if err := os.WriteFile(rules, []byte(passRules), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startPass(t, "approve", nil, "--rules", rules)

	// Decided by the rules: answered at once, never shown to the host.
	p.call("r1", map[string]any{"name": "Read", "category": "info", "args": map[string]any{"file_path": "README.md"}})
	if r := p.result("r1"); r["approved"] != true {
		t.Fatalf("read: %v", r)
	}
	p.call("w1", map[string]any{"name": "Write", "category": "edit", "args": map[string]any{"file_path": ".env", "content": "x"}})
	if r := p.result("w1"); r["approved"] != false || !strings.Contains(r.str("reason"), "denied") {
		t.Fatalf("write .env: %v", r)
	}
	// Asked: the host's UI sees the tool_request and its answer is relayed.
	p.call("b1", map[string]any{"name": "Bash", "category": "exec", "args": map[string]any{"command": "make deploy"}})
	req := p.out.next("tool_request b1", typeAndCall("tool_request", "b1"))
	if tool, _ := req["tool"].(map[string]any); tool["name"] != "Bash" || req.str("msg_id") == "" {
		t.Fatalf("forwarded tool_request %v", req)
	}
	p.out.next("host answered b1", typeAndCall("host_answered", "b1"))
	if r := p.result("b1"); r["approved"] != true {
		t.Fatalf("host-approved call: %v", r)
	}
	p.out.none("tool_request for a call the rules decided", 100*time.Millisecond, func(e event) bool {
		return e.str("type") == "tool_request" && (e.str("call_id") == "r1" || e.str("call_id") == "w1")
	})

	// HITL suspend: approval_required and suspend reach the host, whose
	// approval_resume (with the user's answer) is relayed to the engine.
	p.send(`{"type":"test_suspend","call_id":"q1","tool_name":"AskUserQuestion","context":"AskUserQuestion: Which deployment target?"}`)
	ar := p.out.next("approval_required", isType("approval_required"))
	p.out.next("suspend", isType("suspend"))
	p.out.next("host answered q1", func(e event) bool {
		return e.str("type") == "host_answered" && e.str("resume_token") == ar.str("resume_token")
	})
	if r := p.result("q1"); r["approved"] != true || r.str("answer") != "from the host" {
		t.Fatalf("host-answered question: %v", r)
	}

	// Other messages pass untouched: an engine event, byte for byte, and
	// the host's commands, set_mode included (the host is in charge).
	raw := `{"type":"text", "text":"héllo",  "extra":[1,2]}`
	p.send(map[string]any{"type": "test_raw", "line": raw})
	if _, got := p.out.nextRaw("text event", isType("text")); got != raw {
		t.Fatalf("engine event changed on the way: %q, want %q", got, raw)
	}
	p.send(`{"type":"set_mode","mode":"AutoEdit"}`)
	if st := p.state(); st.str("mode") != "AutoEdit" {
		t.Fatalf("set_mode did not reach the engine: %v", st)
	}

	// The end of the host's commands ends the engine: exit 0.
	p.writer.w.(interface{ Close() error }).Close()
	select {
	case <-p.done:
	case <-time.After(waitLong):
		t.Fatal("the host did not end after its stdin closed")
	}
	if code := p.cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}

// With a gateway, an asked call waits at both the host's UI and the
// gateway's approvers: the first answer wins and the other side is told.
func TestPassthroughFirstAnswerWins(t *testing.T) {
	t.Parallel()
	g := newGateway(t, seedRules)
	p := startPass(t, "none", []string{"TOOLGATE_URL=" + g.url, "TOOLGATE_TOKEN=" + g.agent}, "--session", "s1")
	ctx := context.Background()

	// The gateway's approver first: the engine runs the call, the host
	// sees tool_running, and its late answer is refused, not relayed.
	p.call("c1", map[string]any{"name": "Bash", "category": "exec", "args": map[string]any{"command": "make deploy"}})
	p.out.next("tool_request c1", typeAndCall("tool_request", "c1"))
	a := g.pending("s1", "c1")
	g.approve(a.ID, toolgate.ApproveRequest{})
	if r := p.result("c1"); r["approved"] != true {
		t.Fatalf("gateway-approved call: %v", r)
	}
	p.out.next("tool_running c1", typeAndCall("tool_running", "c1"))
	p.send(`{"type":"tool_deny","call_id":"c1","reason":"too late"}`)
	if e := p.out.next("error for the late answer", isType("error")); e.str("code") != "refused" {
		t.Fatalf("late host answer: %v", e)
	}

	// The host first: its answer reaches the engine, and the gateway's
	// approval is withdrawn with the host's answer as the reason.
	p.call("c2", map[string]any{"name": "Bash", "category": "exec", "args": map[string]any{"command": "make release"}})
	p.out.next("tool_request c2", typeAndCall("tool_request", "c2"))
	a2 := g.pending("s1", "c2")
	p.send(`{"type":"tool_deny","call_id":"c2","reason":"not today"}`)
	if r := p.result("c2"); r["approved"] != false || r.str("reason") != "not today" {
		t.Fatalf("host-denied call: %v", r)
	}
	deadline := time.Now().Add(waitLong)
	for {
		got, err := g.ap.Approval(ctx, a2.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != toolgate.StatusPending {
			if got.Status != toolgate.StatusCancelled || !strings.Contains(got.Resolution.Reason, "denied by the host's own UI: not today") {
				t.Fatalf("gateway approval after the host's answer: %s %+v", got.Status, got.Resolution)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the host's answer was not recorded at the gateway")
		}
		time.Sleep(20 * time.Millisecond)
	}
	// A call the gateway's rules allow never reaches the host.
	p.call("r1", map[string]any{"name": "Read", "category": "info", "args": map[string]any{"file_path": "README.md"}})
	if r := p.result("r1"); r["approved"] != true {
		t.Fatalf("read: %v", r)
	}
	p.out.none("tool_request r1", 100*time.Millisecond, typeAndCall("tool_request", "r1"))
}

// `toolgate host … < /dev/null`, the real binary: its stdin is the null
// device, and it still answers the calls the rules allow and denies the
// ones they deny, and ends when the engine does.
func TestHostBinaryStdinDevNull(t *testing.T) {
	t.Parallel()
	bins, err := passBins()
	if err != nil {
		t.Fatal(err)
	}
	rules := filepath.Join(t.TempDir(), "permissions.jsonc")
	if err := os.WriteFile(rules, []byte(passRules), 0o644); err != nil {
		t.Fatal(err)
	}
	script := `{"type":"test_call","call_id":"r1","tool":{"name":"Read","category":"info","args":{"file_path":"README.md"}}}
{"type":"test_call","call_id":"w1","tool":{"name":"Write","category":"edit","args":{"file_path":".env","content":"x"}}}
{"type":"test_wait_exit","code":0}`
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	cmd := exec.CommandContext(ctx, bins[0], "host", "--rules", rules, "--", engineBin, "-script", script)
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "TOOLGATE_URL=")
	cmd.Stdin = nil // the null device
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("toolgate host < /dev/null: %v\n%s", err, out)
	}
	for _, want := range []string{`"call_id":"r1","approved":true`, `"call_id":"w1","approved":false`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("stdout lacks %s:\n%s", want, out)
		}
	}
}
