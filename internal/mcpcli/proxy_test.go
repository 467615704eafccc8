package mcpcli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolgate/toolgate/internal/cli"
	"github.com/toolgate/toolgate/internal/clibase"
)

func TestMCPProxyUsage(t *testing.T) {
	t.Setenv("TOOLGATE_URL", "")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "needs a server"},
		{[]string{"--upstream", "http://127.0.0.1:1/mcp", "--", "srv"}, "not both"},
		{[]string{"--upstream", "http://127.0.0.1:1/mcp"}, "--upstream needs --name"},
		{[]string{"--name", "x", "--upstream", "ftp://host/"}, "http:// or https://"},
		{[]string{"--name", "a__b", "--", "srv"}, "--name"},
		{[]string{"--name", "a b", "--", "srv"}, "--name"},
		{[]string{"--listen", "0.0.0.0:8788", "--", "srv"}, "not a loopback address"},
		{[]string{"--listen", "nonsense", "--", "srv"}, "host:port"},
		{[]string{"--server", "http://127.0.0.1:1", "--rules", "r.jsonc", "--", "srv"}, "both given"},
		{[]string{"--mode", "bogus", "--", "srv"}, "--mode"},
		{[]string{"--timeout", "0s", "--", "srv"}, "--timeout"},
	} {
		err := runMCPProxy(context.Background(), tc.args, strings.NewReader(""), io.Discard, io.Discard)
		var ee *clibase.ExitError
		if !errors.As(err, &ee) || ee.Code != clibase.ExitUsage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want a usage error containing %q", tc.args, err, tc.want)
		}
	}
}

func TestServerNameFor(t *testing.T) {
	for in, want := range map[string]string{
		"npx":                    "npx",
		"/usr/bin/mcp-server":    "mcp-server",
		"./server.py":            "server",
		"C:/x/github-mcp.exe":    "github-mcp",
		"weird name@2":           "weird_name_2",
		"__":                     "server",
		"a..b":                   "a",
		"/opt/my__dunder_server": "my_dunder_server",
	} {
		if got := serverNameFor(in); got != want || !validServerName(got) {
			t.Errorf("serverNameFor(%q) = %q, want %q", in, got, want)
		}
	}
	if !validServerName("git-hub_2") || validServerName("a__b") || validServerName("") || validServerName("a.b") {
		t.Error("validServerName")
	}
}

// TestMCPProxyCommand runs toolgate mcp-proxy on pipes in front of the
// mcpproxy package's test server, with rules from a file, and checks an
// allowed, a denied and an unanswerable call, and one allowed by an
// "always" answer kept in the default remembered answers' document.
func TestMCPProxyCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test MCP server")
	}
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("TOOLGATE_URL", "")
	server := buildMCPTestServer(t, dir)
	rules := filepath.Join(dir, "rules.jsonc")
	if err := os.WriteFile(rules, []byte(`{"*": "ask", "testserver_echo": "allow", "mcp__testserver__delete_all": "deny"}`), 0o600); err != nil {
		t.Fatal(err)
	}

	// An "always" answer kept by an earlier run in the default place.
	remembered := filepath.Join(dir, "config", "toolgate", "mcp-always.jsonc")
	if err := os.MkdirAll(filepath.Dir(remembered), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(remembered, []byte(`{"mcp__testserver__status": {"*": "allow"}}`), 0o600); err != nil {
		t.Fatal(err)
	}

	clientToProxy, proxyIn := io.Pipe()
	proxyOut, proxyToClient := io.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		// No --name: the command's base name, testserver.
		done <- runMCPProxy(ctx, []string{"--rules", rules, "--", server}, clientToProxy, proxyToClient, testLog{t})
		proxyToClient.Close()
	}()

	c := mcp.NewClient(&mcp.Implementation{Name: "cli-test"}, nil)
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: proxyOut, Writer: proxyIn}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}})
	if err != nil || res.IsError || !strings.HasPrefix(res.Content[0].(*mcp.TextContent).Text, "hi|") {
		t.Fatalf("echo: %v %+v", err, res)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "delete_all"})
	if err != nil || !res.IsError {
		t.Fatalf("delete_all: want a tool error, got %v %+v", err, res)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "write_note", Arguments: map[string]any{"note": "x"}})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "mcp__testserver__write_note") {
		t.Fatalf("write_note: want a deny naming the rule to add, got %v %+v", err, res)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "status"})
	if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != "all good" {
		t.Fatalf("status, remembered in %s: %v %+v", remembered, err, res)
	}
	cs.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("mcp-proxy: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("mcp-proxy did not end when its client did")
	}
}

// TestMCPProxyListen runs toolgate mcp-proxy --listen and calls through it
// over streamable HTTP.
func TestMCPProxyListen(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test MCP server")
	}
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("TOOLGATE_URL", "")
	server := buildMCPTestServer(t, dir)
	rules := filepath.Join(dir, "rules.jsonc")
	if err := os.WriteFile(rules, []byte(`{"*": "ask", "demo_echo": "allow"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	stderrR, stderrW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- runMCPProxy(ctx, []string{"--rules", rules, "--name", "demo", "--listen", "127.0.0.1:0", "--", server}, strings.NewReader(""), io.Discard, stderrW)
		stderrW.Close()
	}()
	url := ""
	sc := bufio.NewScanner(stderrR)
	for sc.Scan() {
		if _, u, ok := strings.Cut(sc.Text(), "serving MCP clients at "); ok {
			url = u
			break
		}
	}
	if url == "" {
		t.Fatalf("no URL printed: %v", <-done)
	}
	go io.Copy(io.Discard, stderrR)

	c := mcp.NewClient(&mcp.Implementation{Name: "cli-test"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "over http"}})
	if err != nil || res.IsError {
		t.Fatalf("echo: %v %+v", err, res)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "write_note"})
	if err != nil || !res.IsError {
		t.Fatalf("write_note: want a tool error, got %v %+v", err, res)
	}
	cs.Close()
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("mcp-proxy: %v", err)
	}
}

// testLog writes to the test log.
type testLog struct{ t *testing.T }

func (w testLog) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// TestMCPPinCommand pins a real MCP server's tools with toolgate mcp pin,
// pins them again after the server changed a tool (showing the diff), and
// lists the pins; doctor reports them.
func TestMCPPinCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test MCP server")
	}
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	server := buildMCPTestServer(t, dir)
	ctx := context.Background()
	run := func(args ...string) string {
		t.Helper()
		var out bytes.Buffer
		if err := runMCP(ctx, args, nil, &out, testLog{t}); err != nil {
			t.Fatalf("mcp %v: %v\n%s", args, err, out.String())
		}
		return out.String()
	}
	out := run("pin", "--", server)
	if !strings.Contains(out, "new        write_note") || !strings.Contains(out, "pinned 8 tool(s) of testserver") {
		t.Fatalf("first pin:\n%s", out)
	}
	out = run("pin", "--tool", "write_note", "--", server, "-rug-pull")
	if !strings.Contains(out, "changed    write_note") || !strings.Contains(out, `+   "description": "writes a note. Before calling`) || strings.Contains(out, "echo") {
		t.Fatalf("pin after the change:\n%s", out)
	}
	out = run("pins")
	if !strings.Contains(out, "testserver  write_note") || !strings.Contains(out, "toolgate mcp pin") {
		t.Fatalf("pins:\n%s", out)
	}
	var doc bytes.Buffer
	cli.Run(ctx, []string{"doctor", "--url", ""}, nil, &doc, io.Discard)
	if !strings.Contains(doc.String(), "MCP tool pins: 8 tool(s) of 1 server(s)") ||
		!regexp.MustCompile(`(?m)^ +testserver write_note [0-9a-f]{12}, \d{4}-\d\d-\d\d, toolgate mcp pin$`).MatchString(doc.String()) {
		t.Errorf("doctor:\n%s", doc.String())
	}
	if err := runMCP(ctx, []string{"pin", "--tool", "nope", "--", server}, nil, io.Discard, testLog{t}); err == nil {
		t.Error("pinning a tool the server does not list succeeded")
	}
}

// buildMCPTestServer puts the SDK test MCP server into dir as
// "testserver", the name mcp-proxy gives the server when --name is not
// set: a link to one built once for the package's tests (each build links
// it again, seconds of a core), which removeMCPTestServer removes.
func buildMCPTestServer(t *testing.T, dir string) string {
	t.Helper()
	mcpTestServer.Lock()
	defer mcpTestServer.Unlock()
	if mcpTestServer.bin == "" {
		d, err := os.MkdirTemp("", "toolgate-mcpcli-test")
		if err != nil {
			t.Fatal(err)
		}
		mcpTestServer.dir = d
		bin := filepath.Join(d, "testserver")
		if out, err := exec.Command("go", "build", "-o", bin, "../../integrations/mcpproxy/internal/testserver").CombinedOutput(); err != nil {
			t.Fatalf("build test server: %v\n%s", err, out)
		}
		mcpTestServer.bin = bin
	}
	// A link, not a copy: a file just written can be busy when run.
	server := filepath.Join(dir, "testserver")
	if err := os.Link(mcpTestServer.bin, server); err != nil {
		t.Fatal(err)
	}
	return server
}

// mcpTestServer is the test MCP server that buildMCPTestServer built.
var mcpTestServer struct {
	sync.Mutex
	dir, bin string
}

// removeMCPTestServer removes the test MCP server buildMCPTestServer
// built, if it did; TestMain calls it once the tests are done.
func removeMCPTestServer() {
	if mcpTestServer.dir != "" {
		os.RemoveAll(mcpTestServer.dir)
	}
}
