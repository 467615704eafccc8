package mcpproxy_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/integrations/mcpproxy"
	"github.com/toolgate/toolgate/policy"
)

// The tests run three processes: the MCP client (testclient), the proxy
// (this test binary, re-executed with proxyEnv set) and the MCP server
// (testserver). Both programs are built once per run.

const proxyEnv = "TOOLGATE_TEST_MCPPROXY"

// waitLong bounds every wait in the tests: generous, since only a broken
// proxy gets near it.
const waitLong = 20 * time.Second

var (
	binDir       string
	serverBin    string
	clientBin    string
	testBinary   string
	buildErr     error
	buildOnce    sync.Once
	buildTimeout = 3 * time.Minute
)

func TestMain(m *testing.M) {
	if conf := os.Getenv(proxyEnv); conf != "" {
		os.Exit(runTestProxy(conf))
	}
	dir, err := os.MkdirTemp("", "mcpproxy-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// buildPrograms builds testserver and testclient into binDir.
func buildPrograms(t *testing.T) {
	t.Helper()
	buildOnce.Do(func() {
		testBinary, buildErr = os.Executable()
		if buildErr != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, "go", "build", "-o", binDir+string(os.PathSeparator), "./internal/testserver", "./internal/testclient")
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		serverBin = filepath.Join(binDir, "testserver")
		clientBin = filepath.Join(binDir, "testclient")
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
}

// proxyConf configures a proxy process.
type proxyConf struct {
	Name     string   `json:"name"`
	Command  []string `json:"command,omitempty"`
	Upstream string   `json:"upstream,omitempty"`
	// Rules is a rules document (JSONC) decided locally.
	Rules      string `json:"rules,omitempty"`
	Mode       string `json:"mode,omitempty"`
	Gateway    string `json:"gateway,omitempty"`
	Token      string `json:"token,omitempty"`
	Listen     bool   `json:"listen,omitempty"`
	Timeout    string `json:"timeout,omitempty"`
	HideDenied bool   `json:"hide_denied,omitempty"`
	// Remember is the file that keeps "always" answers (Config.Remember).
	Remember string `json:"remember,omitempty"`
	// Pins is the tool pin file (Config.Pins).
	Pins string `json:"pins,omitempty"`
}

// runTestProxy is the proxy process: it runs the proxy as the CLI would.
func runTestProxy(conf string) int {
	var c proxyConf
	if err := json.Unmarshal([]byte(conf), &c); err != nil {
		fmt.Fprintln(os.Stderr, "proxy conf:", err)
		return 2
	}
	cfg := mcpproxy.Config{Name: c.Name, HideDenied: c.HideDenied, Remember: c.Remember, Pins: c.Pins, ProgressInterval: 200 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	if c.Timeout != "" {
		d, err := time.ParseDuration(c.Timeout)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		cfg.Timeout = d
	}
	if c.Upstream != "" {
		cfg.Upstream = mcpproxy.HTTPUpstream(c.Upstream, nil)
	} else {
		cfg.Upstream = mcpproxy.CommandUpstream(os.Stderr, c.Command[0], c.Command[1:]...)
	}
	if c.Gateway != "" {
		gw, err := client.New(c.Gateway, c.Token, client.WithVia("mcp"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		cfg.Gateway = gw
	} else {
		doc, err := policy.ParseWorkspace("rules.jsonc", []byte(c.Rules))
		if err != nil {
			fmt.Fprintln(os.Stderr, "rules:", err)
			return 2
		}
		e, err := policy.New([]*policy.Document{doc})
		if err != nil {
			fmt.Fprintln(os.Stderr, "rules:", err)
			return 2
		}
		cfg.Engine = e
		if c.Mode != "" {
			if cfg.Mode, err = toolgate.ParseMode(c.Mode); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 2
			}
		}
	}
	p, err := mcpproxy.New(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if c.Listen {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		mux := http.NewServeMux()
		mux.Handle("/mcp", p.Handler())
		go http.Serve(ln, mux)
		fmt.Printf("URL http://%s/mcp\n", ln.Addr())
		io.Copy(io.Discard, os.Stdin) // until the test closes our stdin
		p.Close()
		return 0
	}
	if err := p.Serve(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "proxy:", err)
		return 1
	}
	return 0
}

// proxyCommand returns the argv and environment a client uses to start a
// stdio proxy.
func proxyCommand(t *testing.T, c proxyConf) (argv []string, env []string) {
	t.Helper()
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return []string{testBinary}, append(os.Environ(), proxyEnv+"="+string(data))
}

// startURLProcess starts a process that prints "URL …" on stdout and
// returns the URL; the process ends when the test does.
func startURLProcess(t *testing.T, cmd *exec.Cmd) (string, *exec.Cmd) {
	t.Helper()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = testWriter{t, cmd.Path}
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
	urlc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "URL "); ok {
				urlc <- u
			}
		}
		close(urlc)
	}()
	select {
	case u, ok := <-urlc:
		if !ok {
			t.Fatalf("%s exited before printing its URL", cmd.Path)
		}
		return u, cmd
	case <-time.After(waitLong):
		t.Fatalf("%s printed no URL", cmd.Path)
	}
	return "", nil
}

// startHTTPServer runs testserver over streamable HTTP.
func startHTTPServer(t *testing.T) string {
	u, _ := startURLProcess(t, exec.Command(serverBin, "-http", "127.0.0.1:0"))
	return u
}

// startHTTPProxy runs the proxy serving streamable HTTP.
func startHTTPProxy(t *testing.T, c proxyConf) string {
	c.Listen = true
	argv, env := proxyCommand(t, c)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	u, _ := startURLProcess(t, cmd)
	return u
}

// testWriter sends a process's stderr to the test log.
type testWriter struct {
	t    *testing.T
	name string
}

func (w testWriter) Write(p []byte) (int, error) {
	for _, line := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		w.t.Logf("%s: %s", filepath.Base(w.name), line)
	}
	return len(p), nil
}

// msg is one line from testclient.
type msg struct {
	ID     string          `json:"id,omitempty"`
	Event  string          `json:"event,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  string          `json:"error,omitempty"`
	// Event fields.
	Message  string          `json:"message,omitempty"`
	Answer   string          `json:"answer,omitempty"`
	Token    any             `json:"token,omitempty"`
	Progress float64         `json:"progress,omitempty"`
	Schema   json.RawMessage `json:"schema,omitempty"`
}

// toolResult is the part of a CallToolResult the tests look at.
type toolResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	IsError bool `json:"isError"`
}

func (m msg) tool(t *testing.T) toolResult {
	t.Helper()
	if m.Error != "" {
		t.Fatalf("step %s failed: %s", m.ID, m.Error)
	}
	var r toolResult
	if err := json.Unmarshal(m.Result, &r); err != nil {
		t.Fatalf("step %s: %v in %s", m.ID, err, m.Result)
	}
	return r
}

func (r toolResult) text() string {
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// mcpClient drives a testclient process.
type mcpClient struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin io.WriteCloser

	mu     sync.Mutex
	cond   *sync.Cond
	msgs   []msg
	exited bool
	done   chan struct{}
}

// stdioClient starts a client that runs a stdio proxy for c.
func stdioClient(t *testing.T, c proxyConf, elicit string) *mcpClient {
	argv, env := proxyCommand(t, c)
	data, _ := json.Marshal(argv)
	args := []string{"-cmd", string(data)}
	if elicit != "" {
		args = append(args, "-elicit", elicit)
	}
	return startClient(t, env, args...)
}

// httpClient starts a client of the streamable HTTP endpoint u.
func httpClient(t *testing.T, u, elicit string) *mcpClient {
	args := []string{"-url", u}
	if elicit != "" {
		args = append(args, "-elicit", elicit)
	}
	return startClient(t, os.Environ(), args...)
}

func startClient(t *testing.T, env []string, args ...string) *mcpClient {
	t.Helper()
	cmd := exec.Command(clientBin, args...)
	cmd.Env = env
	cmd.Stderr = testWriter{t, "client"}
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
	c := &mcpClient{t: t, cmd: cmd, stdin: stdin, done: make(chan struct{})}
	c.cond = sync.NewCond(&c.mu)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var m msg
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Errorf("client wrote %q: %v", sc.Text(), err)
				continue
			}
			c.mu.Lock()
			c.msgs = append(c.msgs, m)
			c.cond.Broadcast()
			c.mu.Unlock()
		}
		cmd.Wait()
		c.mu.Lock()
		c.exited = true
		c.cond.Broadcast()
		c.mu.Unlock()
		close(c.done)
	}()
	t.Cleanup(func() {
		stdin.Close()
		select {
		case <-c.done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-c.done
		}
	})
	if m := c.waitFor(func(m msg) bool { return m.Event == "connected" || m.Event == "connect_error" }); m.Event != "connected" {
		t.Fatalf("client did not connect: %s", m.Error)
	}
	return c
}

// send gives the client a step.
func (c *mcpClient) send(step map[string]any) {
	c.t.Helper()
	data, _ := json.Marshal(step)
	if _, err := c.stdin.Write(append(data, '\n')); err != nil {
		c.t.Fatalf("send step: %v", err)
	}
}

// waitFor returns the first message matching ok, waiting for it.
func (c *mcpClient) waitFor(ok func(msg) bool) msg {
	c.t.Helper()
	deadline := time.Now().Add(waitLong)
	timer := time.AfterFunc(waitLong, func() {
		c.mu.Lock()
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	defer timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		for _, m := range c.msgs {
			if ok(m) {
				return m
			}
		}
		if c.exited {
			c.t.Fatalf("client exited; messages: %+v", c.msgs)
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("timed out waiting; messages so far: %+v", c.msgs)
		}
		c.cond.Wait()
	}
}

// do runs a step and returns its answer.
func (c *mcpClient) do(step map[string]any) msg {
	c.t.Helper()
	c.send(step)
	id := step["id"].(string)
	return c.waitFor(func(m msg) bool { return m.ID == id })
}

// count counts the messages matching ok so far.
func (c *mcpClient) count(ok func(msg) bool) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, m := range c.msgs {
		if ok(m) {
			n++
		}
	}
	return n
}

func isEvent(name string) func(msg) bool { return func(m msg) bool { return m.Event == name } }

func call(id, name string, args map[string]any) map[string]any {
	return map[string]any{"id": id, "op": "call", "name": name, "args": args}
}

func withProgress(step map[string]any) map[string]any {
	step["progress"] = true
	return step
}
