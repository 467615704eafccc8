package mcpproxy_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/client"
)

// TestGatewayCallIDsAreFresh is issue 10's attack through the MCP proxy:
// after a human approved one tools/call, the client sends the same tool
// with other arguments. The proxy names every call with a
// fresh id of its own, so the second is a new call that waits for its own
// answer (the fake gateway, like the real one, would refuse a reused id
// with other content) and runs only if approved.
func TestGatewayCallIDsAreFresh(t *testing.T) {
	buildPrograms(t)
	gw := newTestGateway(t)
	approver, err := client.New(gw.URL(), gw.approver)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c := transports[0].start(t, proxyConf{Name: "demo", Gateway: gw.URL(), Token: gw.agent}, "")
	c.send(call("w", "write_note", map[string]any{"note": "harmless"}))
	first := gw.nextSubmitted()
	if _, err := approver.Approve(ctx, first.ID, toolgate.ApproveRequest{Scope: toolgate.ScopeOnce}); err != nil {
		t.Fatal(err)
	}
	if r := c.waitFor(func(m msg) bool { return m.ID == "w" }).tool(t); r.IsError || r.text() != "wrote harmless" {
		t.Fatalf("approved call: %+v", r)
	}
	c.send(call("w2", "write_note", map[string]any{"note": "rm -rf /"}))
	second := gw.nextSubmitted()
	if second.Call.ID == first.Call.ID || second.ID == first.ID || second.Status != toolgate.StatusPending {
		t.Fatalf("the second call rode the first one's approval: %+v vs %+v", second, first)
	}
	if _, err := approver.Deny(ctx, second.ID, toolgate.DenyRequest{Reason: "no", Mode: toolgate.DenySoft}); err != nil {
		t.Fatal(err)
	}
	if r := c.waitFor(func(m msg) bool { return m.ID == "w2" }).tool(t); !r.IsError || !strings.Contains(r.text(), "no") {
		t.Fatalf("denied second call: %+v", r)
	}
}
