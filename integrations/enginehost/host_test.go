package enginehost_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/integrations/enginehost"
	"github.com/toolgate/toolgate/policy"
)

// The host, with the engine as a child process and a real gateway: every
// tool_request answered by policy or by an approver, written back as the
// seed's commands.

// seedRules is a workspace document in the spirit of seed 000's Default
// mode: reads and searches run, env files are never written, everything
// else asks.
const seedRules = `{
  "*": "ask",
  "read_file": "allow",
  "glob": "allow",
  "grep": "allow",
  "write_file": { "*.env": "deny" }
}`

func hostCfg(g *gateway, session string) enginehost.Config {
	return enginehost.Config{Decider: g.decider(""), Session: session}
}

func TestHostPolicyAnswersAtOnce(t *testing.T) {
	t.Parallel()
	g := newGateway(t, seedRules)
	h := startHost(t, hostCfg(g, "s1"))
	if caps := h.ready["capabilities"]; caps == nil {
		t.Fatalf("ready forwarded without capabilities: %v", h.ready)
	}
	// Allowed by a rule: tool_approve at once, and no approval exists for a
	// human to see.
	for _, name := range []string{"Read", "Glob", "Grep"} {
		h.call("r-"+name, seedTools[name])
		if r := h.result("r-" + name); r["approved"] != true || r.str("scope") != "once" || r["auto"] != false {
			t.Fatalf("%s: %v", name, r)
		}
		if a := g.approvalOf("s1", "r-"+name); a != nil {
			t.Fatalf("%s reached a human: %+v", name, a)
		}
	}
	// Denied by a rule: tool_deny at once with the rule's reason; the engine
	// reports it as tool_cancelled.
	h.call("w-env", enginehost.Tool{Name: "Write", Category: "edit", Args: map[string]any{"file_path": "prod.env", "content": "x"}})
	ev := h.out.next("tool_cancelled", typeAndCall("tool_cancelled", "w-env"))
	if !strings.Contains(ev.str("reason"), "denied by rule") {
		t.Fatalf("tool_cancelled %v", ev)
	}
	if r := h.result("w-env"); r["approved"] != false {
		t.Fatalf("result %v", r)
	}
	// The approval requests themselves never reach the host's stdout.
	h.out.none("tool_request on stdout", 50*time.Millisecond, isType("tool_request"))
	// tool_running is forwarded.
	h.out.next("tool_running", typeAndCall("tool_running", "r-Read"))
}

func TestHostRoutesToApprovers(t *testing.T) {
	t.Parallel()
	g := newGateway(t, seedRules)
	h := startHost(t, hostCfg(g, "s1"))

	// The seed's call asks: an approver sees it with the tier from its
	// category, approves once, the engine gets tool_approve once.
	h.call("c-9f3a", seedTools["Bash"])
	a := g.pending("s1", "c-9f3a")
	if a.Call.Tool != "Bash" || a.Call.Args["command"] != "cargo test --lib" || a.Call.Tier != toolgate.TierExec {
		t.Fatalf("approval call %+v", a.Call)
	}
	g.approve(a.ID, toolgate.ApproveRequest{Scope: toolgate.ScopeOnce})
	if r := h.result("c-9f3a"); r["approved"] != true || r.str("scope") != "once" {
		t.Fatalf("result %v", r)
	}
	// Categories map to tiers: info→read, edit→write, exec and mcp→exec.
	for cat, tier := range map[string]toolgate.Tier{"info": toolgate.TierRead, "edit": toolgate.TierWrite, "exec": toolgate.TierExec, "mcp": toolgate.TierExec} {
		id := "tier-" + cat
		h.call(id, enginehost.Tool{Name: "custom_" + cat, Category: cat, Args: map[string]any{}})
		a := g.pending("s1", id)
		if a.Call.Tier != tier || (cat == "mcp") != (a.Call.Origin == "mcp") {
			t.Errorf("%s: tier %s origin %q", cat, a.Call.Tier, a.Call.Origin)
		}
		g.deny(a.ID, toolgate.DenyRequest{Mode: toolgate.DenySoft})
		h.result(id)
	}
	// A human deny goes back with the message for the model.
	h.call("c-d", bash("git push --force"))
	a = g.pending("s1", "c-d")
	g.deny(a.ID, toolgate.DenyRequest{Mode: toolgate.DenySoft, Feedback: "not on main"})
	ev := h.out.next("tool_cancelled", typeAndCall("tool_cancelled", "c-d"))
	want := approval.DenyMessage("Bash", toolgate.DenyRequest{Mode: toolgate.DenySoft, Feedback: "not on main"})
	if ev.str("reason") != want {
		t.Fatalf("reason %q, want %q", ev.str("reason"), want)
	}
}

// "always" is the tool name, never its category (seed 000's W5.6 H-2):
// approving Bash always auto-approves Bash, at the engine and at the
// gate, and neither Write, Edit nor Spawn.
func TestHostAlwaysIsToolNameScoped(t *testing.T) {
	t.Parallel()
	g := newGateway(t, seedRules)
	h := startHost(t, hostCfg(g, "s1"))
	h.call("c1", seedTools["Bash"])
	a := g.pending("s1", "c1")
	// Every Bash command for the session is a rule an admin writes; an
	// approver's "always" is refused and the call stays pending.
	always := toolgate.ApproveRequest{Scope: toolgate.ScopeSession, Grant: toolgate.GrantTool}
	if _, err := g.ap.Approve(context.Background(), a.ID, always); toolgate.ErrorCodeOf(err) != toolgate.EForbidden {
		t.Fatalf("approver's tool-wide always: %v", err)
	}
	if _, err := g.admin.Approve(context.Background(), a.ID, always); err != nil {
		t.Fatal(err)
	}
	if r := h.result("c1"); r.str("scope") != "always" {
		t.Fatalf("scope %v", r)
	}
	if s := h.state(); len(s["tool_names"].([]any)) != 1 {
		t.Fatalf("engine state %v", s)
	}
	h.call("c2", bash("make all"))
	if r := h.result("c2"); r["auto"] != true {
		t.Fatalf("engine did not remember always: %v", r)
	}
	// The gate agrees: the grant covers Bash in this session.
	d, err := g.decider("").Decide(context.Background(), toolgate.SubmitRequest{Call: toolgate.Call{ID: "probe", Session: "s1", Tool: "Bash", Args: map[string]any{"command": "make all"}}})
	if err != nil || d.Decision.Action != toolgate.Allow {
		t.Fatalf("gate after always: %+v %v", d, err)
	}
	for _, name := range []string{"Write", "Edit", "Spawn"} {
		id := "c-" + name
		h.call(id, seedTools[name])
		a := g.pending("s1", id) // asks at the gate too
		g.deny(a.ID, toolgate.DenyRequest{Mode: toolgate.DenySoft})
		if r := h.result(id); r["approved"] != false {
			t.Fatalf("%s: %v", name, r)
		}
	}
}

// always_prefix: the approver grants a prefix; the engine is told, and
// both it and the gate apply seed 000's chained-command and metacharacter
// tables.
func TestHostAlwaysPrefix(t *testing.T) {
	t.Parallel()
	g := newGateway(t, seedRules)
	h := startHost(t, hostCfg(g, "s1"))
	h.call("c0", bash("cargo build"))
	a := g.pending("s1", "c0")
	g.approve(a.ID, toolgate.ApproveRequest{Scope: toolgate.ScopeSession, Grant: toolgate.GrantPrefix, Pattern: "cargo "})
	r := h.result("c0")
	mustJSON(t, "scope", r["scope"], `{"always_prefix":{"prefix":"cargo "}}`)

	for i, tc := range prefixTable {
		id := "p" + strconv.Itoa(i)
		h.call(id, bash(tc.cmd))
		if tc.approved {
			if r := h.result(id); r["auto"] != true {
				t.Errorf("%q: engine asked: %v", tc.cmd, r)
			}
			continue
		}
		// Not covered by the prefix: the engine asks, and the gate does
		// not approve it by the grant (it asks a human, or denies).
		if r := settle(t, g, h.peer, "s1", id); r["approved"] == true {
			t.Errorf("%q approved: %v", tc.cmd, r)
		}
	}
	// The same table at the gate, for the session holding the grant.
	for i, tc := range prefixTable {
		c := toolgate.Call{Session: "s1", Tool: "Bash", Args: map[string]any{"command": tc.cmd}}
		d, err := g.broker.Evaluate(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		if (d.Action == toolgate.Allow) != tc.approved {
			t.Errorf("gate %d %q: %s (%s)", i, tc.cmd, d.Action, d.Reason)
		}
	}
}

// settle waits for a call's result, denying its approval if it shows up
// pending at the gateway.
func settle(t *testing.T, g *gateway, p *peer, session, callID string) event {
	t.Helper()
	deadline := time.Now().Add(waitLong)
	for time.Now().Before(deadline) {
		if ev, _, ok := p.out.take(typeAndCall("test_result", callID), 20*time.Millisecond); ok {
			return ev
		}
		if a := g.approvalOf(session, callID); a != nil && a.Status == toolgate.StatusPending {
			g.deny(a.ID, toolgate.DenyRequest{Mode: toolgate.DenySoft, Feedback: "not covered by the prefix"})
		}
	}
	t.Fatalf("no result for %s", callID)
	return nil
}

func TestHostAskUserQuestion(t *testing.T) {
	t.Parallel()
	g := newGateway(t, seedRules)
	h := startHost(t, hostCfg(g, "s1"))
	h.call("c-7a1e", enginehost.Tool{Name: "AskUserQuestion", Category: "info", Args: map[string]any{"question": "Which option?"}})
	a := g.pending("s1", "c-7a1e")
	// An answer is refused for any tool but a question tool...
	h.call("c-b", seedTools["Bash"])
	b := g.pending("s1", "c-b")
	if _, err := g.ap.Approve(context.Background(), b.ID, toolgate.ApproveRequest{Answer: json.RawMessage(`"Choice C"`)}); toolgate.ErrorCodeOf(err) != toolgate.EInvalid {
		t.Fatalf("answer for Bash: %v", err)
	}
	g.deny(b.ID, toolgate.DenyRequest{Mode: toolgate.DenySoft})
	// ...and goes back in tool_approve's answer for AskUserQuestion.
	g.approve(a.ID, toolgate.ApproveRequest{Answer: json.RawMessage(`"Choice C"`)})
	if r := h.result("c-7a1e"); r.str("answer") != "Choice C" || r.str("scope") != "once" {
		t.Fatalf("result %v", r)
	}
}

func TestHostSuspendResume(t *testing.T) {
	t.Parallel()
	g := newGateway(t, seedRules)
	h := startHost(t, hostCfg(g, "s1"), "-caps", "hitl_suspend")
	if caps, _ := h.ready["capabilities"].([]any); len(caps) != 1 || caps[0] != "hitl_suspend" {
		t.Fatalf("ready %v", h.ready)
	}
	h.send(`{"type":"test_suspend","call_id":"c-8b2d","tool_name":"AskUserQuestion","context":"AskUserQuestion: Which deployment target?"}`)
	a := g.pending("s1", "c-8b2d")
	if a.Call.Tool != "AskUserQuestion" || a.Call.Args["question"] != "Which deployment target?" {
		t.Fatalf("approval call %+v", a.Call)
	}
	// approval_required and suspend are the host's business: not forwarded.
	h.out.none("approval_required on stdout", 50*time.Millisecond, func(e event) bool {
		return e.str("type") == "approval_required" || e.str("type") == "suspend"
	})
	g.approve(a.ID, toolgate.ApproveRequest{Answer: json.RawMessage(`"staging"`)})
	// The engine's echo of approval_resume reaches the host's stdout so a
	// UI can clear its state.
	echo := h.out.next("approval_resume echo", isType("approval_resume"))
	if echo["approved"] != true || echo["modifications"].(map[string]any)["answer"] != "staging" {
		t.Fatalf("echo %v", echo)
	}
	if r := h.result("c-8b2d"); r.str("answer") != "staging" || r["approved"] != true {
		t.Fatalf("result %v", r)
	}
	// Denied: approval_resume with approved false.
	h.send(`{"type":"test_suspend","call_id":"c-2","tool_name":"Deploy","context":"Deploy: to production?"}`)
	a = g.pending("s1", "c-2")
	if a.Call.Tool != "Deploy" {
		t.Fatalf("tool %q", a.Call.Tool)
	}
	g.deny(a.ID, toolgate.DenyRequest{Mode: toolgate.DenySoft})
	if r := h.result("c-2"); r["approved"] != false {
		t.Fatalf("result %v", r)
	}
}

// An approval nobody answers expires after its TTL: the engine gets
// tool_deny with the seed's exact reason.
func TestHostTTLExpiry(t *testing.T) {
	t.Parallel()
	g := newGateway(t, seedRules)
	cfg := hostCfg(g, "s1")
	cfg.TTL = 400 * time.Millisecond
	h := startHost(t, cfg)
	h.call("c1", seedTools["Bash"])
	ev := h.out.next("tool_cancelled", typeAndCall("tool_cancelled", "c1"))
	if ev.str("reason") != "approval timed out (no host response)" {
		t.Fatalf("reason %q", ev.str("reason"))
	}
	if a := g.approvalOf("s1", "c1"); a.Status != toolgate.StatusExpired {
		t.Fatalf("status %s", a.Status)
	}
}

func TestHostGatewayDefaults(t *testing.T) {
	t.Parallel()
	g := newGateway(t, seedRules)
	h := startHost(t, hostCfg(g, "s1"))
	h.call("c1", seedTools["Bash"])
	a := g.pending("s1", "c1")
	if ttl := a.ExpiresAt.Sub(a.CreatedAt); ttl != 5*time.Minute {
		t.Fatalf("default TTL %s", ttl)
	}
	g.deny(a.ID, toolgate.DenyRequest{})
	h.result("c1")
}

func TestHostModes(t *testing.T) {
	t.Parallel()
	// Local rules with nothing allowed: the mode alone decides, and what
	// would need a human is denied (no gateway).
	pol, err := policy.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	local := enginehost.NewLocal(pol, nil, toolgate.ModeDefault)
	h := startHost(t, enginehost.Config{Decider: local})
	table := []struct {
		mode string
		auto map[string]bool
	}{
		{"Default", map[string]bool{}},
		{"AutoEdit", map[string]bool{"Read": true, "Glob": true, "Grep": true, "Write": true, "Edit": true}},
		{"Force", map[string]bool{"Read": true, "Glob": true, "Grep": true, "Write": true, "Edit": true, "Bash": true, "Spawn": true, "MCP": true}},
		{"Default", map[string]bool{}},
	}
	n := 0
	for _, tc := range table {
		h.send(map[string]any{"type": "set_mode", "mode": tc.mode})
		for name, tool := range seedTools {
			n++
			id := "m" + strconv.Itoa(n)
			h.call(id, tool)
			r := h.result(id)
			if (r["approved"] == true) != tc.auto[name] {
				t.Errorf("%s %s: %v", tc.mode, name, r)
			}
			if r["approved"] != true && !strings.HasPrefix(r.str("reason"), enginehost.NoGatewayReason) {
				t.Errorf("%s %s: reason %q", tc.mode, name, r.str("reason"))
			}
		}
		// set_mode changes the gate, not the engine: it still asks, so deny
		// rules keep working in Force.
		if s := h.state(); s.str("mode") != "Default" {
			t.Fatalf("engine mode %v", s)
		}
	}
	h.send(`{"type":"set_mode","mode":"Sideways"}`)
	if ev := h.out.next("error", isType("error")); ev.str("source") != "toolgate" || !strings.Contains(ev.str("message"), "Sideways") {
		t.Fatalf("error %v", ev)
	}
}

// An agent token cannot raise its own autonomy: set_mode through a
// gateway needs an approver token, and a refusal leaves the mode.
func TestHostSetModeAtGateway(t *testing.T) {
	t.Parallel()
	g := newGateway(t, seedRules)
	h := startHost(t, hostCfg(g, "s1"))
	h.send(`{"type":"set_mode","mode":"Force"}`)
	if ev := h.out.next("refused", isType("error")); ev.str("code") != "refused" {
		t.Fatalf("error %v", ev)
	}
	h.call("c1", seedTools["Bash"])
	a := g.pending("s1", "c1")
	g.deny(a.ID, toolgate.DenyRequest{Mode: toolgate.DenySoft})
	h.result("c1")

	h2 := startHost(t, enginehost.Config{Decider: g.decider(g.approver), Session: "s2"})
	h2.send(`{"type":"set_mode","mode":"Force"}`)
	h2.call("c1", seedTools["Bash"])
	if r := h2.result("c1"); r["approved"] != true {
		t.Fatalf("Force: %v", r)
	}
	// Deny rules still deny in Force.
	h2.call("c2", enginehost.Tool{Name: "Write", Category: "edit", Args: map[string]any{"file_path": ".env"}})
	if r := h2.result("c2"); r["approved"] != false {
		t.Fatalf("Force wrote .env: %v", r)
	}
}

func TestHostBadInput(t *testing.T) {
	t.Parallel()
	g := newGateway(t, seedRules)
	h := startHost(t, hostCfg(g, "s1"))
	// From the engine: garbage and a broken tool_request. The host reports
	// them, denies the call it cannot read, and keeps serving.
	h.send(map[string]any{"type": "test_raw", "line": "engine garbage"})
	if ev := h.out.next("malformed", isType("error")); ev.str("code") != "malformed" || ev.str("source") != "toolgate" || !strings.Contains(ev.str("message"), "engine line") {
		t.Fatalf("error %v", ev)
	}
	h.send(map[string]any{"type": "test_raw", "line": `{"type":"tool_request","call_id":"c-bad","tool":{"category":"exec"}}`})
	if ev := h.out.next("invalid", isType("error")); ev.str("code") != "invalid" || ev.str("call_id") != "c-bad" {
		t.Fatalf("error %v", ev)
	}
	// The engine had no such call waiting: it says so, and the host passes
	// its error event on.
	if ev := h.out.next("engine error", func(e event) bool { return e.str("type") == "error" && e.str("source") == "engine" }); !strings.Contains(ev.str("message"), "c-bad") {
		t.Fatalf("engine error %v", ev)
	}
	// Unknown engine events pass through untouched.
	h.send(map[string]any{"type": "test_raw", "line": `{"type":"text_delta","text":"hello"}`})
	if ev := h.out.next("text_delta", isType("text_delta")); ev.str("text") != "hello" {
		t.Fatalf("text_delta %v", ev)
	}
	// From stdin: garbage is reported and not forwarded; unknown commands
	// go to the engine, which reports them; answers are refused.
	h.send("{not json")
	if ev := h.out.next("malformed", isType("error")); ev.str("code") != "malformed" || !strings.Contains(ev.str("message"), "command line") {
		t.Fatalf("error %v", ev)
	}
	h.send(`{"type":"launch_rockets"}`)
	if ev := h.out.next("unknown", isType("error")); ev.str("code") != "unknown_type" || ev.str("source") != "engine" {
		t.Fatalf("error %v", ev)
	}
	h.call("c1", seedTools["Bash"])
	a := g.pending("s1", "c1")
	h.send(`{"type": "tool_approve", "call_id": "c1", "scope": "always"}`)
	if ev := h.out.next("refused", isType("error")); ev.str("code") != "refused" {
		t.Fatalf("error %v", ev)
	}
	if got := g.approvalOf("s1", "c1"); got.Status != toolgate.StatusPending {
		t.Fatalf("stdin answered the call: %s", got.Status)
	}
	g.approve(a.ID, toolgate.ApproveRequest{})
	if r := h.result("c1"); r["approved"] != true {
		t.Fatalf("result %v", r)
	}
	// Long lines both ways: a 3 MiB event out, a 3 MiB tool_request in.
	h.send(map[string]any{"type": "test_long", "bytes": 3 << 20})
	if ev := h.out.next("long text", isType("text")); len(ev.str("text")) != 3<<20 {
		t.Fatalf("long event: %d bytes", len(ev.str("text")))
	}
	long := "ls " + strings.Repeat("a", 200<<10)
	h.call("long", bash(long))
	a = g.pending("s1", "long")
	if a.Call.Args["command"] != long {
		t.Fatal("long command changed on the way")
	}
	g.approve(a.ID, toolgate.ApproveRequest{})
	if r := h.result("long"); r["approved"] != true {
		t.Fatalf("long: %v", r)
	}
	// Larger than the gateway takes: denied, saying why, never wedged.
	h.call("huge", bash("ls "+strings.Repeat("a", 3<<20)))
	if r := h.result("huge"); r["approved"] != false || !strings.Contains(r.str("reason"), "could not decide") {
		t.Fatalf("huge: %v", r)
	}
}

// The host ends with the engine's exit code, and withdraws the approvals
// the engine was waiting for.
func TestHostExitCode(t *testing.T) {
	t.Parallel()
	g := newGateway(t, seedRules)
	h := startHost(t, hostCfg(g, "s1"))
	h.call("c1", seedTools["Bash"])
	g.pending("s1", "c1")
	h.send(`{"type":"test_exit","code":3}`)
	if code := h.exit(); code != 3 {
		t.Fatalf("exit code %d", code)
	}
	if a := g.approvalOf("s1", "c1"); a.Status != toolgate.StatusCancelled {
		t.Fatalf("pending approval after exit: %s", a.Status)
	}
}

// "execution of the tool is blocked until the host resolves the call"
// (seed 000): the host keeps answering the engine whatever happens to its
// own stdin. `toolgate host … < /dev/null` in CI closes it at once; calls
// the rules allow are still approved, calls that ask still reach the
// approvers, and the engine ends on its own.
func TestHostAnswersAfterStdinEnds(t *testing.T) {
	t.Parallel()
	g := newGateway(t, seedRules)
	script := `{"type":"test_call","call_id":"r1","tool":{"name":"Read","category":"info","args":{"file_path":"README.md"}}}
{"type":"test_call","call_id":"b1","tool":{"name":"Bash","category":"exec","args":{"command":"make deploy"}}}
{"type":"test_wait_exit","code":7}`
	h := startHost(t, hostCfg(g, "s1"), "-script", script)
	h.stdin.Close()
	if r := h.result("r1"); r["approved"] != true {
		t.Fatalf("allowed read after stdin closed: %v", r)
	}
	a := g.pending("s1", "b1")
	if _, err := g.ap.Approve(context.Background(), a.ID, toolgate.ApproveRequest{}); err != nil {
		t.Fatal(err)
	}
	if r := h.result("b1"); r["approved"] != true {
		t.Fatalf("approved call after stdin closed: %v", r)
	}
	if code := h.exit(); code != 7 {
		t.Fatalf("exit code %d", code)
	}
}

// Without a gateway the rules decide alone and what would ask is denied,
// saying why.
func TestHostLocalRules(t *testing.T) {
	t.Parallel()
	pol, err := policy.New([]*policy.Document{policy.DefaultDocument()})
	if err != nil {
		t.Fatal(err)
	}
	h := startHost(t, enginehost.Config{Decider: enginehost.NewLocal(pol, nil, toolgate.ModeDefault)})
	h.call("r", seedTools["Read"])
	if r := h.result("r"); r["approved"] != true {
		t.Fatalf("Read: %v", r)
	}
	h.call("b", seedTools["Bash"])
	r := h.result("b")
	if r["approved"] != false || !strings.HasPrefix(r.str("reason"), enginehost.NoGatewayReason+": ") {
		t.Fatalf("Bash: %v", r)
	}
}

// In Force with a gateway, a question tool's suspension is held there
// for a person, as seed 000 puts it to the user, and resumed with their
// answer; its twin, another suspended call, is approved by the mode with
// nobody asked.
func TestHostForceQuestionAtGateway(t *testing.T) {
	t.Parallel()
	g := newGateway(t, seedRules)
	h := startHost(t, enginehost.Config{Decider: g.decider(g.approver), Session: "s2"}, "-caps", "hitl_suspend")
	h.send(`{"type":"set_mode","mode":"Force"}`)
	h.send(`{"type":"test_suspend","call_id":"d1","tool_name":"Deploy","context":"Deploy: to staging?"}`)
	if r := h.result("d1"); r["approved"] != true {
		t.Fatalf("another suspended call in Force: %v, want approved", r)
	}
	h.send(`{"type":"test_suspend","call_id":"q1","tool_name":"AskUserQuestion","context":"AskUserQuestion: Which deployment target?"}`)
	a := g.pending("s2", "q1")
	if a.Decision.Confirm != enginehost.QuestionConfirm {
		t.Fatalf("the question is held without saying why: %+v", a.Decision)
	}
	g.approve(a.ID, toolgate.ApproveRequest{Answer: json.RawMessage(`"staging"`)})
	if r := h.result("q1"); r["approved"] != true || r.str("answer") != "staging" {
		t.Fatalf("question in Force at a gateway: %v, want the person's answer", r)
	}
}

// In Force with no gateway (seed 000's --force), a question tool's
// suspension is not resumed approved with no answer: only a person can
// answer a question. Another suspended call is approved by the mode as
// any call is.
func TestHostForceQuestionSuspend(t *testing.T) {
	t.Parallel()
	pol, err := policy.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	h := startHost(t, enginehost.Config{Decider: enginehost.NewLocal(pol, nil, toolgate.ModeYolo)}, "-caps", "hitl_suspend")
	h.send(`{"type":"test_suspend","call_id":"q1","tool_name":"AskUserQuestion","context":"AskUserQuestion: Which deployment target?"}`)
	if r := h.result("q1"); r["approved"] != false || r.str("answer") != "" {
		t.Fatalf("question in Force: %v, want denied without an answer", r)
	}
	h.send(`{"type":"test_suspend","call_id":"d1","tool_name":"Deploy","context":"Deploy: to staging?"}`)
	if r := h.result("d1"); r["approved"] != true {
		t.Fatalf("another suspended call in Force: %v, want approved", r)
	}
}

// A call a sandbox rule names is an ask here: the engine runs its tools
// itself and cannot run one confined (and its calls carry no working
// directory, which a confined allow needs), so it goes to an approver;
// the rule's deny twin is denied at once.
func TestHostConfinedAllowAsks(t *testing.T) {
	t.Parallel()
	g := newGateway(t, `{"*": "ask", "Bash": {"cargo test*": "sandbox", "cargo test --release*": "deny"}}`)
	h := startHost(t, hostCfg(g, "s1"))
	h.call("c-sbx", seedTools["Bash"]) // cargo test --lib
	a := g.pending("s1", "c-sbx")
	if a.Decision.Action != toolgate.Ask || !strings.Contains(a.Decision.Reason, "unless it runs in the kernel sandbox") {
		t.Fatalf("held decision %+v, want the sandbox rule's ask", a.Decision)
	}
	g.deny(a.ID, toolgate.DenyRequest{Mode: toolgate.DenySoft})
	if r := h.result("c-sbx"); r["approved"] != false {
		t.Fatalf("result %v", r)
	}
	h.call("c-rel", bash("cargo test --release"))
	if r := h.result("c-rel"); r["approved"] != false || !strings.Contains(r.str("reason"), "denied by rule") {
		t.Fatalf("deny twin: %v", r)
	}
	if a := g.approvalOf("s1", "c-rel"); a != nil {
		t.Fatalf("the deny reached a human: %+v", a)
	}
}
