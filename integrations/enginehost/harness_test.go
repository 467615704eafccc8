package enginehost_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/integrations/enginehost"
	"github.com/toolgate/toolgate/internal/stacktest"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/fsrules"
)

// The tests run the engine (internal/testengine, built once per run) as a
// real child process speaking the protocol on its stdin and stdout. The
// host runs in the test process, against a real gateway on a loopback
// listener, or with local rules.

// waitLong bounds every wait: generous, since only a broken host gets
// near it on a loaded machine.
const waitLong = 20 * time.Second

var engineBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "enginehost-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	engineBin = filepath.Join(dir, "testengine")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	out, err := exec.CommandContext(ctx, "go", "build", "-o", engineBin, "./internal/testengine").CombinedOutput()
	cancel()
	if err != nil {
		fmt.Fprintf(os.Stderr, "build testengine: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// event is one line a peer wrote, decoded.
type event map[string]any

func (e event) str(k string) string { s, _ := e[k].(string); return s }

// stream collects the JSON lines of a reader and lets a test wait for the
// one it expects, in any order.
type stream struct {
	t      *testing.T
	mu     sync.Mutex
	cond   chan struct{} // closed and replaced whenever lines arrive
	events []event
	raw    []string
	done   bool
}

func newStream(t *testing.T, r io.Reader) *stream {
	s := &stream{t: t, cond: make(chan struct{})}
	go func() {
		br := bufio.NewReaderSize(r, 1<<20)
		for {
			line, err := br.ReadString('\n')
			if line != "" {
				var ev event
				if json.Unmarshal([]byte(line), &ev) != nil {
					ev = event{"type": "__unparsable__", "line": line}
				}
				s.mu.Lock()
				s.events = append(s.events, ev)
				s.raw = append(s.raw, strings.TrimRight(line, "\n"))
				close(s.cond)
				s.cond = make(chan struct{})
				s.mu.Unlock()
			}
			if err != nil {
				s.mu.Lock()
				s.done = true
				close(s.cond)
				s.cond = make(chan struct{})
				s.mu.Unlock()
				return
			}
		}
	}()
	return s
}

// next removes and returns the first event that matches.
func (s *stream) next(what string, match func(event) bool) event {
	s.t.Helper()
	ev, raw, ok := s.take(match, waitLong)
	if !ok {
		s.t.Fatalf("timed out waiting for %s; seen: %s", what, s.seen())
	}
	_ = raw
	return ev
}

// nextRaw is next returning the line as written.
func (s *stream) nextRaw(what string, match func(event) bool) (event, string) {
	s.t.Helper()
	ev, raw, ok := s.take(match, waitLong)
	if !ok {
		s.t.Fatalf("timed out waiting for %s; seen: %s", what, s.seen())
	}
	return ev, raw
}

// none fails if an event matching arrives within d.
func (s *stream) none(what string, d time.Duration, match func(event) bool) {
	s.t.Helper()
	if ev, _, ok := s.take(match, d); ok {
		s.t.Fatalf("unexpected %s: %v", what, ev)
	}
}

func (s *stream) take(match func(event) bool, d time.Duration) (event, string, bool) {
	deadline := time.After(d)
	for {
		s.mu.Lock()
		for i, ev := range s.events {
			if match(ev) {
				raw := s.raw[i]
				s.events = append(s.events[:i], s.events[i+1:]...)
				s.raw = append(s.raw[:i], s.raw[i+1:]...)
				s.mu.Unlock()
				return ev, raw, true
			}
		}
		cond, done := s.cond, s.done
		s.mu.Unlock()
		if done {
			return nil, "", false
		}
		select {
		case <-cond:
		case <-deadline:
			return nil, "", false
		}
	}
}

func (s *stream) seen() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	for _, r := range s.raw {
		b.WriteString(truncate(r, 300))
		b.WriteString("\n")
	}
	return b.String()
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

func isType(typ string) func(event) bool {
	return func(e event) bool { return e.str("type") == typ }
}

func typeAndCall(typ, callID string) func(event) bool {
	return func(e event) bool { return e.str("type") == typ && e.str("call_id") == callID }
}

// writer writes lines to a peer.
type writer struct {
	t  *testing.T
	mu sync.Mutex
	w  io.Writer
}

func (w *writer) send(v any) {
	w.t.Helper()
	var line []byte
	switch v := v.(type) {
	case string:
		line = []byte(v)
	default:
		var err error
		if line, err = json.Marshal(v); err != nil {
			w.t.Fatal(err)
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := w.w.Write(append(line, '\n')); err != nil {
		w.t.Fatalf("send: %v", err)
	}
}

// peer is one side of the protocol the test talks to: an engine process
// directly, or a host running an engine.
type peer struct {
	*writer
	out *stream
}

func (p *peer) call(callID string, tool any) {
	p.t.Helper()
	p.send(map[string]any{"type": "test_call", "call_id": callID, "tool": tool})
}

func (p *peer) result(callID string) event {
	p.t.Helper()
	return p.out.next("test_result "+callID, typeAndCall("test_result", callID))
}

func (p *peer) state() event {
	p.t.Helper()
	p.send(`{"type":"test_state"}`)
	return p.out.next("test_state", isType("test_state"))
}

// startEngine runs the test engine directly; the test is its host.
func startEngine(t *testing.T, args ...string) *peer {
	t.Helper()
	cmd := exec.Command(engineBin, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	p := &peer{writer: &writer{t: t, w: stdin}, out: newStream(t, stdout)}
	p.out.next("ready", isType("ready"))
	return p
}

// hostRun is a host running the test engine in the test process.
type hostRun struct {
	*peer
	stdin *io.PipeWriter
	code  chan int
	err   chan error
	ready event
}

// startHost runs a host with the test engine (given engine flags).
func startHost(t *testing.T, cfg enginehost.Config, engineArgs ...string) *hostRun {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	cfg.Command = append([]string{engineBin}, engineArgs...)
	cfg.Stdin, cfg.Stdout, cfg.Stderr = inR, outW, os.Stderr
	h := &hostRun{peer: &peer{writer: &writer{t: t, w: inW}, out: newStream(t, outR)}, stdin: inW, code: make(chan int, 1), err: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		code, err := enginehost.Run(ctx, cfg)
		outW.Close()
		h.code <- code
		h.err <- err
	}()
	t.Cleanup(func() {
		// The end of stdin does not end the engine (the host still
		// answers it); interrupting the host does.
		inW.Close()
		cancel()
		select {
		case <-h.code:
		case <-time.After(30 * time.Second):
			t.Error("host did not end after it was interrupted")
		}
	})
	h.ready = h.out.next("ready", isType("ready"))
	return h
}

// exit waits for the host to end and returns the engine's exit code.
func (h *hostRun) exit() int {
	h.t.Helper()
	select {
	case code := <-h.code:
		if err := <-h.err; err != nil {
			h.t.Fatalf("host: %v", err)
		}
		h.code <- code // for Cleanup
		h.err <- nil
		return code
	case <-time.After(waitLong):
		h.t.Fatal("host did not end")
	}
	return -1
}

// gateway is a real gateway: broker on SQLite, rules directory, tokens,
// HTTP API on a loopback listener.
type gateway struct {
	t        *testing.T
	url      string
	broker   *approval.Broker
	agent    string
	approver string
	ap       *client.Client // approver's client
	admin    *client.Client // admin's client
}

// newGateway starts a gateway whose workspace documents start as rules.
func newGateway(t *testing.T, rules string, opts ...approval.Option) *gateway {
	t.Helper()
	s := stacktest.New(t, stacktest.Names("engine-host", "alice", "root"), stacktest.Broker(opts...),
		stacktest.Rules(func(dir string) store.Rules { return fsrules.New(filepath.Join(dir, "workspaces"), []byte(rules)) }),
		stacktest.PolicyOptions(policy.WithHome("/home/dev")))
	g := &gateway{t: t, url: s.Server.URL, broker: s.Broker, agent: s.Agent, approver: s.Approver}
	var err error
	if g.ap, err = client.New(g.url, g.approver, client.WithVia("api")); err != nil {
		t.Fatal(err)
	}
	if g.admin, err = client.New(g.url, s.Admin, client.WithVia("api")); err != nil {
		t.Fatal(err)
	}
	return g
}

// decider returns a gateway decider with the agent's token (or another).
func (g *gateway) decider(token string) enginehost.Decider {
	g.t.Helper()
	if token == "" {
		token = g.agent
	}
	c, err := client.New(g.url, token, client.WithVia("engine"))
	if err != nil {
		g.t.Fatal(err)
	}
	return &enginehost.Gateway{Gate: c, Retry: 50 * time.Millisecond}
}

// pending waits until the call is pending at the gateway and returns its
// approval.
func (g *gateway) pending(session, callID string) *toolgate.Approval {
	g.t.Helper()
	deadline := time.Now().Add(waitLong)
	for time.Now().Before(deadline) {
		list, err := g.ap.Approvals(context.Background(), toolgate.ApprovalFilter{Session: session})
		if err != nil {
			g.t.Fatal(err)
		}
		for _, a := range list {
			if a.Call.ID == callID {
				if a.Status != toolgate.StatusPending {
					g.t.Fatalf("approval of %s is %s, want pending", callID, a.Status)
				}
				return a
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	g.t.Fatalf("no approval for call %s", callID)
	return nil
}

// approvalOf returns the approval of a call, if any.
func (g *gateway) approvalOf(session, callID string) *toolgate.Approval {
	g.t.Helper()
	list, err := g.ap.Approvals(context.Background(), toolgate.ApprovalFilter{Session: session})
	if err != nil {
		g.t.Fatal(err)
	}
	for _, a := range list {
		if a.Call.ID == callID {
			return a
		}
	}
	return nil
}

func (g *gateway) approve(id string, req toolgate.ApproveRequest) *toolgate.Approval {
	g.t.Helper()
	a, err := g.ap.Approve(context.Background(), id, req)
	if err != nil {
		g.t.Fatalf("approve %s: %v", id, err)
	}
	return a
}

func (g *gateway) deny(id string, req toolgate.DenyRequest) *toolgate.Approval {
	g.t.Helper()
	a, err := g.ap.Deny(context.Background(), id, req)
	if err != nil {
		g.t.Fatalf("deny %s: %v", id, err)
	}
	return a
}

// mustJSON compares a decoded value with the JSON text it should equal.
func mustJSON(t *testing.T, what string, got any, want string) {
	t.Helper()
	var w any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: bad want %s: %v", what, want, err)
	}
	gb, _ := json.Marshal(got)
	wb, _ := json.Marshal(w)
	if string(gb) != string(wb) {
		t.Fatalf("%s:\n got %s\nwant %s", what, gb, wb)
	}
}

// seedTools are the tools of seed 000's category table.
var seedTools = map[string]enginehost.Tool{
	"Read":  {Name: "Read", Category: "info", Args: map[string]any{"file_path": "src/lib.rs"}},
	"Glob":  {Name: "Glob", Category: "info", Args: map[string]any{"pattern": "src/**/*.rs"}},
	"Grep":  {Name: "Grep", Category: "info", Args: map[string]any{"pattern": "fn main", "path": "src"}},
	"Write": {Name: "Write", Category: "edit", Args: map[string]any{"file_path": "src/new.rs", "content": "fn f() {}"}},
	"Edit":  {Name: "Edit", Category: "edit", Args: map[string]any{"file_path": "src/lib.rs", "old_string": "a", "new_string": "b"}},
	"Bash":  {Name: "Bash", Category: "exec", Args: map[string]any{"command": "cargo test --lib"}, Description: "Execute: cargo test --lib"},
	"Spawn": {Name: "Spawn", Category: "exec", Args: map[string]any{"agent": "reviewer"}},
	"MCP":   {Name: "mcp__github__create_issue", Category: "mcp", Args: map[string]any{"title": "bug"}},
}

func bash(cmd string) enginehost.Tool {
	return enginehost.Tool{Name: "Bash", Category: "exec", Args: map[string]any{"command": cmd}, Description: "Execute: " + cmd}
}
