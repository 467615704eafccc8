package mcpproxy_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/client"
)

// rules is the local rules document of most tests. Both spellings of MCP
// tool names are used: demo_TOOL (seed) and mcp__demo__TOOL.
const rules = `{
  "*": "ask",
  "demo_echo": "allow",
  "demo_count": "allow",
  "demo_add_tool": "allow",
  "demo_crash": "allow",
  "demo_ask_server": "allow",
  "mcp__demo__late_tool": "allow",
  "mcp__demo__delete_all": "deny",
}`

// transports is each way the tests connect the three processes.
var transports = []struct {
	name string
	// start returns a client of a proxy configured by c, guarding a fresh
	// testserver.
	start func(t *testing.T, c proxyConf, elicit string) *mcpClient
	// direct returns a client of a testserver without the proxy.
	direct func(t *testing.T) *mcpClient
}{
	{
		name: "stdio",
		start: func(t *testing.T, c proxyConf, elicit string) *mcpClient {
			c.Command = []string{serverBin}
			return stdioClient(t, c, elicit)
		},
		direct: func(t *testing.T) *mcpClient {
			data, _ := json.Marshal([]string{serverBin})
			return startClient(t, nil, "-cmd", string(data), "-protocol", "2025-11-25")
		},
	},
	{
		name: "http",
		start: func(t *testing.T, c proxyConf, elicit string) *mcpClient {
			c.Upstream = startHTTPServer(t)
			return httpClient(t, startHTTPProxy(t, c), elicit)
		},
		direct: func(t *testing.T) *mcpClient {
			return startClient(t, nil, "-url", startHTTPServer(t), "-protocol", "2025-11-25")
		},
	},
}

func localConf() proxyConf { return proxyConf{Name: "demo", Rules: rules} }

// TestPassthrough checks that an allowed call returns the server's result
// byte for byte, and that tools/list, resources, prompts and the server's
// own progress pass through as a direct connection sees them.
func TestPassthrough(t *testing.T) {
	buildPrograms(t)
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			t.Parallel()
			steps := []map[string]any{
				call("echo", "echo", map[string]any{"text": "héllo <&> \"x\""}),
				{"id": "read", "op": "read", "uri": "test://greeting"},
				{"id": "prompt", "op": "prompt", "name": "hello", "args": map[string]any{"who": "you"}},
				{"id": "list", "op": "list"},
				{"id": "missing", "op": "read", "uri": "test://nope"},
			}
			direct, proxied := tr.direct(t), tr.start(t, localConf(), "")
			for _, s := range steps {
				want, got := direct.do(s), proxied.do(s)
				if want.Error != got.Error {
					t.Fatalf("%s: direct error %q, proxied error %q", s["id"], want.Error, got.Error)
				}
				if !bytes.Equal(want.Result, got.Result) {
					t.Errorf("%s through the proxy differs from the server's own answer:\nwant %s\ngot  %s", s["id"], want.Result, got.Result)
				}
			}
			if r := proxied.do(call("echo2", "echo", map[string]any{"text": "a"})).tool(t); r.IsError || !strings.Contains(r.text(), "a|<b>&amp;</b>") {
				t.Errorf("echo: %+v", r)
			}

			// The server's own progress notifications reach the client.
			r := proxied.do(withProgress(call("count", "count", nil))).tool(t)
			if r.IsError || r.text() != "counted" {
				t.Fatalf("count: %+v", r)
			}
			proxied.waitFor(func(m msg) bool {
				return m.Event == "progress" && m.Message == "server step 3" && m.Token == "tok-count"
			})

			// The server's own elicitation reaches a client that supports it.
			asker := tr.start(t, localConf(), "colour=blue")
			if r := asker.do(call("ask", "ask_server", nil)).tool(t); r.text() != "server got accept blue" {
				t.Errorf("ask_server: %+v", r)
			}
		})
	}
}

// TestDeny checks that a denied call is a tool error with the reason, and
// never reaches the server.
func TestDeny(t *testing.T) {
	buildPrograms(t)
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			t.Parallel()
			c := tr.start(t, localConf(), "")
			r := c.do(call("del", "delete_all", nil)).tool(t)
			if !r.IsError || !strings.Contains(r.text(), "toolgate denied") || strings.Contains(r.text(), "deleted everything") {
				t.Fatalf("delete_all: want a tool error from toolgate, got %+v", r)
			}
		})
	}
}

// TestAskWithoutElicitation checks that, with neither elicitation nor a
// gateway, ask is a deny that says how to allow the call.
func TestAskWithoutElicitation(t *testing.T) {
	buildPrograms(t)
	c := transports[0].start(t, localConf(), "")
	r := c.do(call("w", "write_note", map[string]any{"note": "x"})).tool(t)
	if !r.IsError || !strings.Contains(r.text(), `{"mcp__demo__write_note": "allow"}`) || !strings.Contains(r.text(), "--server") {
		t.Fatalf("write_note: want a deny saying how to allow it, got %+v", r)
	}
}

// TestElicitation checks asks answered inside the client: once asks again
// next time, always does not, decline denies; the client sees progress
// while the question is open; and readOnlyHint lets read-only mode allow a
// tool without asking.
func TestElicitation(t *testing.T) {
	buildPrograms(t)
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			t.Parallel()
			conf := localConf()
			conf.Mode = "read-only"
			c := tr.start(t, conf, "decline,once,always")
			elicits := func() int { return c.count(isEvent("elicit")) }

			// Decline denies.
			if r := c.do(call("0", "write_note", map[string]any{"note": "zero"})).tool(t); !r.IsError || !strings.Contains(r.text(), "denied by the user") {
				t.Fatalf("declined call: want a tool error, got %+v", r)
			}

			if r := c.do(withProgress(call("1", "write_note", map[string]any{"note": "one"}))).tool(t); r.IsError || r.text() != "wrote one" {
				t.Fatalf("first call (once): %+v", r)
			}
			c.waitFor(func(m msg) bool {
				return m.Event == "progress" && m.Token == "tok-1" && strings.Contains(m.Message, "waiting for approval")
			})
			if r := c.do(call("2", "write_note", map[string]any{"note": "two"})).tool(t); r.IsError || r.text() != "wrote two" {
				t.Fatalf("second call (always): %+v", r)
			}
			if n := elicits(); n != 3 {
				t.Fatalf("want a question for each of the first three calls, got %d", n)
			}
			if r := c.do(call("3", "write_note", map[string]any{"note": "three"})).tool(t); r.IsError || r.text() != "wrote three" {
				t.Fatalf("third call (remembered): %+v", r)
			}
			if n := elicits(); n != 3 {
				t.Fatalf("always should not ask again; %d questions", n)
			}
			// readOnlyHint: read-only mode allows the open ask.
			if r := c.do(call("4", "status", nil)).tool(t); r.IsError || r.text() != "all good" {
				t.Fatalf("status: %+v", r)
			}
			if n := elicits(); n != 3 {
				t.Fatalf("a read-only tool in read-only mode should not ask; %d questions", n)
			}
		})
	}
}

// TestToolListChanged checks that a change of the server's tools reaches
// the client, and that the new tool can be called.
func TestToolListChanged(t *testing.T) {
	buildPrograms(t)
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			t.Parallel()
			c := tr.start(t, localConf(), "")
			c.do(map[string]any{"id": "l1", "op": "list"})
			if r := c.do(call("add", "add_tool", nil)).tool(t); r.IsError {
				t.Fatalf("add_tool: %+v", r)
			}
			c.waitFor(isEvent("tools_changed"))
			l := c.do(map[string]any{"id": "l2", "op": "list"})
			if !strings.Contains(string(l.Result), `"late_tool"`) {
				t.Fatalf("list after the change lacks late_tool: %s", l.Result)
			}
			if r := c.do(call("late", "late_tool", nil)).tool(t); r.IsError || r.text() != "late" {
				t.Fatalf("late_tool: %+v", r)
			}
		})
	}
}

// TestHideDenied checks that tools the rules deny outright can be hidden.
func TestHideDenied(t *testing.T) {
	buildPrograms(t)
	conf := localConf()
	conf.HideDenied = true
	c := transports[0].start(t, conf, "")
	l := c.do(map[string]any{"id": "l", "op": "list"})
	if strings.Contains(string(l.Result), "delete_all") || !strings.Contains(string(l.Result), "write_note") {
		t.Fatalf("want delete_all hidden and write_note listed: %s", l.Result)
	}
}

// TestGateway checks asks held on a gateway for its approvers: the client
// (without elicitation) gets progress while waiting and the server's
// result once the test approves over the API; a deny over the API is a
// tool error; the gateway's own allow and deny need no approver.
func TestGateway(t *testing.T) {
	buildPrograms(t)
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			t.Parallel()
			gw := newTestGateway(t)
			approver, err := client.New(gw.URL(), gw.approver)
			if err != nil {
				t.Fatal(err)
			}
			c := tr.start(t, proxyConf{Name: "demo", Gateway: gw.URL(), Token: gw.agent}, "")

			if r := c.do(call("e", "echo", map[string]any{"text": "gw"})).tool(t); r.IsError {
				t.Fatalf("echo (allowed by the gateway): %+v", r)
			}
			if r := c.do(call("d", "delete_all", nil)).tool(t); !r.IsError || !strings.Contains(r.text(), "denied by rule mcp__demo__*delete*") {
				t.Fatalf("delete_all (denied by the gateway): %+v", r)
			}

			c.send(withProgress(call("w", "write_note", map[string]any{"note": "held"})))
			a := gw.nextSubmitted()
			if a.Call.Tool != "mcp__demo__write_note" || a.Call.Origin != "mcp:demo" || a.Call.Tier != toolgate.TierExec || a.Call.Args["note"] != "held" {
				t.Errorf("submitted call: %+v", a.Call)
			}
			c.waitFor(func(m msg) bool { return m.Event == "progress" && m.Token == "tok-w" })
			ctx := context.Background()
			if _, err := approver.Approve(ctx, a.ID, toolgate.ApproveRequest{Scope: toolgate.ScopeOnce}); err != nil {
				t.Fatal(err)
			}
			if r := c.waitFor(func(m msg) bool { return m.ID == "w" }).tool(t); r.IsError || r.text() != "wrote held" {
				t.Fatalf("approved call: %+v", r)
			}

			c.send(call("s", "status", nil))
			a = gw.nextSubmitted()
			if a.Call.Tier != toolgate.TierRead {
				t.Errorf("status has readOnlyHint: want tier read, got %v", a.Call.Tier)
			}
			if _, err := approver.Deny(ctx, a.ID, toolgate.DenyRequest{Reason: "not now", Mode: toolgate.DenySoft}); err != nil {
				t.Fatal(err)
			}
			if r := c.waitFor(func(m msg) bool { return m.ID == "s" }).tool(t); !r.IsError || !strings.Contains(r.text(), "not now") {
				t.Fatalf("denied call: %+v", r)
			}
		})
	}
}

// TestGatewayWithElicitation checks that a client with elicitation is
// asked too when a gateway holds the call, and that its answer settles the
// call even though the proxy's agent token may not answer on the gateway:
// the approval is withdrawn there.
func TestGatewayWithElicitation(t *testing.T) {
	buildPrograms(t)
	gw := newTestGateway(t)
	c := transports[0].start(t, proxyConf{Name: "demo", Gateway: gw.URL(), Token: gw.agent}, "once")
	c.send(call("w", "write_note", map[string]any{"note": "asked"}))
	a := gw.nextSubmitted()
	if r := c.waitFor(func(m msg) bool { return m.ID == "w" }).tool(t); r.IsError || r.text() != "wrote asked" {
		t.Fatalf("call approved in the client: %+v", r)
	}
	if id := gw.nextCancelled(); id != a.ID {
		t.Fatalf("cancelled %s, want %s", id, a.ID)
	}
}

// TestServerCrash checks that a server that dies mid-call gives the client
// an error soon, not a hang.
func TestServerCrash(t *testing.T) {
	buildPrograms(t)
	for _, tr := range transports[:1] {
		t.Run(tr.name, func(t *testing.T) {
			t.Parallel()
			c := tr.start(t, localConf(), "")
			start := time.Now()
			m := c.do(call("crash", "crash", nil))
			if m.Error == "" {
				var r toolResult
				json.Unmarshal(m.Result, &r)
				if !r.IsError {
					t.Fatalf("crash: want an error, got %s", m.Result)
				}
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("the error took %v", d)
			}
		})
	}
	// Over HTTP the proxy runs the server as a child too; the client talks
	// streamable HTTP to the proxy.
	t.Run("http-client", func(t *testing.T) {
		t.Parallel()
		conf := localConf()
		conf.Command = []string{serverBin}
		u := startHTTPProxy(t, conf)
		c := httpClient(t, u, "")
		m := c.do(call("crash", "crash", nil))
		if m.Error == "" {
			t.Fatalf("crash: want an error, got %s", m.Result)
		}
		// That session is over; a new one gets a new server.
		c2 := httpClient(t, u, "")
		if r := c2.do(call("echo", "echo", map[string]any{"text": "again"})).tool(t); r.IsError {
			t.Fatalf("echo after a crash: %+v", r)
		}
	})
}

// TestClientDisconnect checks that a client that goes away while its call
// waits for approval cancels the approval on the gateway.
func TestClientDisconnect(t *testing.T) {
	buildPrograms(t)
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			t.Parallel()
			gw := newTestGateway(t)
			c := tr.start(t, proxyConf{Name: "demo", Gateway: gw.URL(), Token: gw.agent}, "")
			c.send(call("w", "write_note", map[string]any{"note": "abandoned"}))
			a := gw.nextSubmitted()
			c.cmd.Process.Kill()
			if id := gw.nextCancelled(); id != a.ID {
				t.Fatalf("cancelled %s, want %s", id, a.ID)
			}
		})
	}
}
