package trpc_test

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// nodeDir is the Node.js test project with the stock tRPC client.
const nodeDir = "testdata/node"

// nodeMsg is one line the client prints.
type nodeMsg struct {
	Op      string          `json:"op"`
	Sub     string          `json:"sub"`
	Kind    string          `json:"kind"`
	State   string          `json:"state"`
	Data    json.RawMessage `json:"data"`
	Error   *nodeError      `json:"error"`
	Results []nodeResult    `json:"results"`
	Message string          `json:"message"`
	raw     string
	seq     int // order of arrival
}

type nodeResult struct {
	OK    bool            `json:"ok"`
	Data  json.RawMessage `json:"data"`
	Error *nodeError      `json:"error"`
}

type nodeError struct {
	Name    string `json:"name"`
	Message string `json:"message"`
	Code    int    `json:"code"`
	Data    struct {
		Code       string `json:"code"`
		HTTPStatus int    `json:"httpStatus"`
		Path       string `json:"path"`
	} `json:"data"`
}

// nodeClient is a running client.mjs.
type nodeClient struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan nodeMsg
	// backlog holds lines read but not yet matched, oldest first.
	backlog []nodeMsg

	mu     sync.Mutex
	stderr strings.Builder
}

// startNode runs the stock tRPC client against url with token, or skips
// the test when Node.js or the test project's packages are missing.
func startNode(t *testing.T, url, token string) *nodeClient {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not found on PATH: the stock tRPC client tests need Node.js 20+ and `npm ci` in integrations/trpc/testdata/node")
	}
	if _, err := os.Stat(filepath.Join(nodeDir, "node_modules", "@trpc", "client", "package.json")); err != nil {
		t.Skip("integrations/trpc/testdata/node/node_modules is missing: run `npm ci` there to run the stock tRPC client tests")
	}
	cmd := exec.Command(node, "client.mjs")
	cmd.Dir = nodeDir
	cmd.Env = append(os.Environ(), "TOOLGATE_URL="+url, "TOOLGATE_TOKEN="+token)
	c := &nodeClient{t: t, cmd: cmd, lines: make(chan nodeMsg, 1024)}
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = writerFunc(func(p []byte) (int, error) {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.stderr.Write(p)
	})
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		n := 0
		for sc.Scan() {
			var m nodeMsg
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				m = nodeMsg{Op: "unparsed"}
			}
			m.raw = sc.Text()
			n++
			m.seq = n
			c.lines <- m
		}
	}()
	t.Cleanup(func() {
		c.stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("node stderr:\n%s", c.stderrText())
		}
	})
	c.expect("ready", func(m nodeMsg) bool { return m.Op == "ready" })
	return c
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func (c *nodeClient) stderrText() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stderr.String()
}

// send writes one command.
func (c *nodeClient) send(cmd any) {
	c.t.Helper()
	data, err := json.Marshal(cmd)
	if err != nil {
		c.t.Fatal(err)
	}
	if _, err := c.stdin.Write(append(data, '\n')); err != nil {
		c.t.Fatalf("write to node: %v (stderr: %s)", err, c.stderrText())
	}
}

// expect returns the first line that matches, oldest first; lines that
// do not match are kept for later calls. It fails on a driver error line.
func (c *nodeClient) expect(what string, match func(nodeMsg) bool) nodeMsg {
	c.t.Helper()
	for i, m := range c.backlog {
		if match(m) {
			c.backlog = append(c.backlog[:i:i], c.backlog[i+1:]...)
			return m
		}
	}
	timeout := time.After(30 * time.Second)
	for {
		select {
		case m, ok := <-c.lines:
			if !ok {
				c.t.Fatalf("%s: node exited; stderr:\n%s", what, c.stderrText())
			}
			if m.Op == "error" || m.Op == "unparsed" {
				c.t.Fatalf("%s: driver error: %s", what, m.raw)
			}
			if match(m) {
				return m
			}
			c.backlog = append(c.backlog, m)
		case <-timeout:
			c.t.Fatalf("%s: timed out; stderr:\n%s", what, c.stderrText())
		}
	}
}

// forget drops the lines of a subscription read but not yet matched.
func (c *nodeClient) forget(sub string) {
	c.backlog = slices.DeleteFunc(c.backlog, func(m nodeMsg) bool { return m.Sub == sub })
}

// reconnected waits until a subscription reports it is connecting again
// and then started again (its stream dropped and the client reconnected),
// and forgets its lines from before the restart. Call forget before the
// drop, so that older state lines do not count.
func (c *nodeClient) reconnected(sub string) {
	c.t.Helper()
	c.expect(sub+" reconnecting", func(m nodeMsg) bool { return m.Sub == sub && m.Kind == "state" && m.State == "connecting" })
	st := c.expect(sub+" restarted", func(m nodeMsg) bool { return m.Sub == sub && m.Kind == "started" })
	c.backlog = slices.DeleteFunc(c.backlog, func(m nodeMsg) bool { return m.Sub == sub && m.seq < st.seq })
}

// call is one procedure call for mutate.
type call struct {
	Path  string `json:"path"`
	Input any    `json:"input"`
}

// mutate runs calls at once through a link ("batch" or "http") and
// returns their results in order.
func (c *nodeClient) mutate(link string, calls ...call) []nodeResult {
	c.t.Helper()
	c.send(map[string]any{"op": "mutate", "link": link, "calls": calls})
	m := c.expect("mutate results", func(m nodeMsg) bool { return m.Op == "mutate" })
	if len(m.Results) != len(calls) {
		c.t.Fatalf("mutate: %d results for %d calls: %s", len(m.Results), len(calls), m.raw)
	}
	return m.Results
}

// subscribe starts a subscription and waits until the client reports it
// started (the connected event arrived).
func (c *nodeClient) subscribe(id string, input any) {
	c.t.Helper()
	c.send(map[string]any{"op": "subscribe", "id": id, "path": "agent.onEvents", "input": input})
	c.expect(id+" started", func(m nodeMsg) bool { return m.Sub == id && m.Kind == "started" })
}

// unsubscribe ends a subscription.
func (c *nodeClient) unsubscribe(id string) {
	c.t.Helper()
	c.send(map[string]any{"op": "unsubscribe", "id": id})
	c.expect(id+" unsubscribed", func(m nodeMsg) bool { return m.Op == "unsubscribed" })
}

// event waits for a data item of a subscription that matches and
// returns it decoded.
func (c *nodeClient) event(sub, what string, match func(map[string]any) bool) map[string]any {
	c.t.Helper()
	var out map[string]any
	c.expect(what, func(m nodeMsg) bool {
		if m.Sub != sub {
			return false
		}
		if m.Kind == "error" {
			c.t.Fatalf("%s: subscription error: %s", what, m.raw)
		}
		if m.Kind != "data" {
			return false
		}
		var v map[string]any
		if err := json.Unmarshal(m.Data, &v); err != nil {
			c.t.Fatalf("%s: %s", what, m.raw)
		}
		if match(v) {
			out = v
			return true
		}
		return false
	})
	return out
}

// applied decodes a {applied} result.
func applied(t *testing.T, r nodeResult) bool {
	t.Helper()
	if !r.OK {
		t.Fatalf("call failed: %+v", r.Error)
	}
	var out struct {
		Applied *bool `json:"applied"`
	}
	if err := json.Unmarshal(r.Data, &out); err != nil || out.Applied == nil {
		t.Fatalf("result %s: want {applied: boolean}", r.Data)
	}
	return *out.Applied
}
