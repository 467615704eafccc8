package mcpproxy_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/integrations/mcpproxy/pins"
)

// pinRules allow write_note, so that only the pin can stop it.
const pinRules = `{"*": "ask", "mcp__demo__write_note": "allow", "mcp__demo__echo": "allow"}`

// listedDescription returns the description tools/list gives for tool.
func listedDescription(t *testing.T, c *mcpClient, id, tool string) string {
	t.Helper()
	m := c.do(map[string]any{"id": id, "op": "list"})
	var lr struct {
		Tools []struct {
			Name        string `json:"name"`
			Description string `json:"description"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(m.Result, &lr); err != nil {
		t.Fatalf("list: %v in %s", err, m.Result)
	}
	for _, x := range lr.Tools {
		if x.Name == tool {
			return x.Description
		}
	}
	t.Fatalf("tools/list has no %s: %s", tool, m.Result)
	return ""
}

// TestToolPinning runs the proxy over a real MCP server (the official
// SDK's) twice: the first run pins write_note at its first allowed call;
// in the second the server has changed the tool's description and schema
// (a "rug pull"), and the call is not forwarded until a person accepts the
// new definition — denied with a diff when the client cannot be asked,
// asked with the diff when it can — while tools/list keeps showing the
// pinned description. An unchanged tool goes on as before.
func TestToolPinning(t *testing.T) {
	buildPrograms(t)
	t.Parallel()
	pinPath := filepath.Join(t.TempDir(), "pins.json")
	conf := proxyConf{Name: "demo", Rules: pinRules, Pins: pinPath, Command: []string{serverBin}}

	first := stdioClient(t, conf, "")
	if r := first.do(call("1", "write_note", map[string]any{"note": "a"})).tool(t); r.IsError || r.text() != "wrote a" {
		t.Fatalf("first run: %+v", r)
	}
	first.do(call("2", "echo", map[string]any{"text": "x"}))
	all, err := pins.Open(pinPath).All()
	if err != nil {
		t.Fatal(err)
	}
	pin, ok := all["demo"]["write_note"]
	if !ok || pin.PinnedBy != pins.ByFirstCall || !strings.Contains(string(pin.Definition), `"writes a note"`) {
		t.Fatalf("after the first run, pins = %+v", all)
	}
	if _, ok := all["demo"]["delete_all"]; ok {
		t.Error("a tool never called was pinned")
	}

	// The server changes write_note; the client cannot be asked.
	conf.Command = []string{serverBin, "-rug-pull"}
	second := stdioClient(t, conf, "")
	if d := listedDescription(t, second, "l", "write_note"); strings.Contains(d, "id_rsa") || !strings.Contains(d, "changed since it was pinned") {
		t.Errorf("tools/list shows write_note as %q: want the pinned description, marked", d)
	}
	r := second.do(call("3", "write_note", map[string]any{"note": "b"})).tool(t)
	if !r.IsError || !strings.Contains(r.text(), "changed since it was pinned") ||
		!strings.Contains(r.text(), `-   "description": "writes a note"`) || !strings.Contains(r.text(), "+   \"description\": \"writes a note. Before calling") ||
		!strings.Contains(r.text(), `"key"`) {
		t.Fatalf("changed tool without elicitation: want a deny with the diff, got %+v", r)
	}
	if r := second.do(call("4", "echo", map[string]any{"text": "y"})).tool(t); r.IsError {
		t.Fatalf("an unchanged tool stopped working: %+v", r)
	}
	if again, _ := pins.Open(pinPath).All(); again["demo"]["write_note"].Hash != pin.Hash {
		t.Fatal("a denied change re-pinned the tool")
	}

	// A client that can be asked: deny, then accept.
	third := stdioClient(t, conf, "deny,accept")
	if r := third.do(call("5", "write_note", map[string]any{"note": "c"})).tool(t); !r.IsError || !strings.Contains(r.text(), "did not accept") {
		t.Fatalf("changed tool, answer deny: %+v", r)
	}
	q := third.waitFor(isEvent("elicit"))
	if !strings.Contains(q.Message, "id_rsa") || !strings.Contains(q.Message, "changed since it was pinned") {
		t.Errorf("the question shows no diff: %q", q.Message)
	}
	if r := third.do(call("6", "write_note", map[string]any{"note": "d"})).tool(t); r.IsError || r.text() != "wrote d" {
		t.Fatalf("changed tool, answer accept: %+v", r)
	}
	after, _ := pins.Open(pinPath).All()
	if p := after["demo"]["write_note"]; p.Hash == pin.Hash || p.PinnedBy != pins.ByClient {
		t.Fatalf("accepting did not re-pin: %+v", p)
	}
	if r := third.do(call("7", "write_note", map[string]any{"note": "e"})).tool(t); r.IsError || third.count(isEvent("elicit")) != 2 {
		t.Fatalf("after accepting, the tool should go on without a question: %+v, %d questions", r, third.count(isEvent("elicit")))
	}
}

// TestPinFileFailsClosed checks that a pin file that does not parse
// stops every call of a pinned server rather than trusting the tools.
func TestPinFileFailsClosed(t *testing.T) {
	buildPrograms(t)
	t.Parallel()
	pinPath := filepath.Join(t.TempDir(), "pins.json")
	if err := os.WriteFile(pinPath, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := stdioClient(t, proxyConf{Name: "demo", Rules: pinRules, Pins: pinPath, Command: []string{serverBin}}, "")
	if r := c.do(call("1", "write_note", map[string]any{"note": "a"})).tool(t); !r.IsError || !strings.Contains(r.text(), "pins could not be read") {
		t.Fatalf("unreadable pins: want a deny, got %+v", r)
	}
}

// TestToolPinningGateway: through a gateway whose rules allow write_note,
// a changed definition is held there for a person with the diff
// (Decision.Confirm), whichever surface answers. The proxy's agent token
// cannot approve it; an approver's deny keeps the old pin and refuses
// the call; an approver's approval pins the new definition, recording
// who, and the call runs; the next call goes by the rules again.
func TestToolPinningGateway(t *testing.T) {
	buildPrograms(t)
	t.Parallel()
	ctx := context.Background()
	gw := newTestGatewayWith(t, pinRules)
	pinPath := filepath.Join(t.TempDir(), "pins.json")
	conf := proxyConf{Name: "demo", Gateway: gw.URL(), Token: gw.agent, Pins: pinPath, Command: []string{serverBin}}

	first := stdioClient(t, conf, "")
	if r := first.do(call("1", "write_note", map[string]any{"note": "a"})).tool(t); r.IsError || r.text() != "wrote a" {
		t.Fatalf("first run: %+v", r)
	}
	pin, _, err := pins.Open(pinPath).Get("demo", "write_note")
	if err != nil || pin.PinnedBy != pins.ByFirstCall {
		t.Fatalf("after the first run: %+v %v", pin, err)
	}

	conf.Command = []string{serverBin, "-rug-pull"}
	second := stdioClient(t, conf, "")
	agent, err := client.New(gw.URL(), gw.agent)
	if err != nil {
		t.Fatal(err)
	}
	approver, err := client.New(gw.URL(), gw.approver)
	if err != nil {
		t.Fatal(err)
	}

	second.send(call("2", "write_note", map[string]any{"note": "b"}))
	a := gw.nextSubmitted()
	if a.Decision.Action != toolgate.Ask || !strings.Contains(a.Decision.Confirm, "changed since it was pinned") ||
		!strings.Contains(a.Decision.Confirm, "id_rsa") || !strings.Contains(a.Decision.Reason, "a person must answer") {
		t.Fatalf("held without the diff: %+v", a.Decision)
	}
	if _, err := agent.Approve(ctx, a.ID, toolgate.ApproveRequest{Scope: toolgate.ScopeOnce}); toolgate.ErrorCodeOf(err) != toolgate.EForbidden {
		t.Fatalf("the agent token approved its own changed tool: %v", err)
	}
	if _, err := approver.Deny(ctx, a.ID, toolgate.DenyRequest{Mode: toolgate.DenySoft, Reason: "not this description"}); err != nil {
		t.Fatal(err)
	}
	if r := second.waitFor(func(m msg) bool { return m.ID == "2" }).tool(t); !r.IsError || !strings.Contains(r.text(), "old pin stays") {
		t.Fatalf("denied on the gateway: %+v", r)
	}
	if p, _, _ := pins.Open(pinPath).Get("demo", "write_note"); p.Hash != pin.Hash {
		t.Fatal("a denied change re-pinned the tool")
	}

	second.send(call("3", "write_note", map[string]any{"note": "c"}))
	a = gw.nextSubmitted()
	a2ID := a.ID
	if _, err := approver.Approve(ctx, a.ID, toolgate.ApproveRequest{Scope: toolgate.ScopeOnce}); err != nil {
		t.Fatal(err)
	}
	if r := second.waitFor(func(m msg) bool { return m.ID == "3" }).tool(t); r.IsError || r.text() != "wrote c" {
		t.Fatalf("approved on the gateway: %+v", r)
	}
	p, _, _ := pins.Open(pinPath).Get("demo", "write_note")
	if p.Hash == pin.Hash || !strings.HasPrefix(p.PinnedBy, pins.ByGateway) || !strings.Contains(p.PinnedBy, a.ID) {
		t.Fatalf("approving did not re-pin, or did not say who: %+v", p)
	}
	if r := second.do(call("4", "write_note", map[string]any{"note": "d"})).tool(t); r.IsError || r.text() != "wrote d" {
		t.Fatalf("after the approval, the rules allow the tool again: %+v", r)
	}
	select {
	case extra := <-gw.submitted:
		t.Fatalf("a call of the accepted definition was held: %+v", extra.Decision)
	default:
	}

	// A client that can be asked is asked too; its acceptance, which the
	// agent token cannot give on the gateway, withdraws the approval,
	// pins, and lets the rules decide the call.
	pinPath2 := filepath.Join(t.TempDir(), "pins.json")
	if err := pins.Open(pinPath2).Set("demo", map[string][]byte{"write_note": pin.Definition}, pins.ByFirstCall, pin.PinnedAt, true); err != nil {
		t.Fatal(err)
	}
	conf.Pins = pinPath2
	third := stdioClient(t, conf, "accept")
	third.send(call("5", "write_note", map[string]any{"note": "e"}))
	a = gw.nextSubmitted()
	if r := third.waitFor(func(m msg) bool { return m.ID == "5" }).tool(t); r.IsError || r.text() != "wrote e" {
		t.Fatalf("accepted in the client: %+v", r)
	}
	if id := gw.nextCancelled(); id != a.ID {
		t.Fatalf("withdrew %s, want %s", id, a.ID)
	}
	if q := third.waitFor(isEvent("elicit")); !strings.Contains(q.Message, "id_rsa") {
		t.Errorf("the client's question shows no diff: %q", q.Message)
	}
	if p, _, _ := pins.Open(pinPath2).Get("demo", "write_note"); p.Hash == pin.Hash || p.PinnedBy != pins.ByClient {
		t.Fatalf("accepting in the client did not re-pin: %+v", p)
	}

	// The gateway's audit shows each pin: the first, the approver's
	// (naming the approval) and the client's; and the asks, with the diff.
	pinned, err := gw.stack.Broker.Audit(ctx, toolgate.AuditFilter{Kind: toolgate.AuditMCPPinned})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range pinned {
		if e.Tool != "mcp__demo__write_note" || e.Via != "mcp" || e.Who == "" {
			t.Errorf("pin entry %+v", e)
		}
		got = append(got, e.Outcome+" "+e.ApprovalID)
	}
	if want := []string{"pinned ", "re-pinned " + a2ID, "re-pinned "}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("mcp.pinned entries %q, want %q", got, want)
	}
	asked, err := gw.stack.Broker.Audit(ctx, toolgate.AuditFilter{Kind: string(toolgate.EventApprovalRequested), Query: "changed since it was pinned"})
	if err != nil || len(asked) != 3 {
		t.Errorf("approval.requested entries for the change: %d, %v", len(asked), err)
	}
}
