package trpc_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/trpc"
	"github.com/toolgate/toolgate/store"
)

// The seed's event, key for key: {type, approvalId, toolName, arguments
// (a JSON string), sessionId}.
func checkRequired(t *testing.T, ev map[string]any, a *toolgate.Approval) {
	t.Helper()
	args, _ := json.Marshal(a.Call.Args)
	want := map[string]any{
		"type": "tool_approval_required", "approvalId": a.ID, "toolName": a.Call.Tool,
		"arguments": string(args), "sessionId": a.Call.Session,
	}
	if len(ev) != len(want) {
		t.Errorf("event %v: want exactly the keys of %v", ev, want)
	}
	for k, v := range want {
		if ev[k] != v {
			t.Errorf("event %s = %#v, want %#v", k, ev[k], v)
		}
	}
	var parsed map[string]any
	if err := json.Unmarshal([]byte(ev["arguments"].(string)), &parsed); err != nil {
		t.Errorf("arguments %q is not a JSON string of the args: %v", ev["arguments"], err)
	}
}

func isRequired(id string) func(map[string]any) bool {
	return func(ev map[string]any) bool { return ev["type"] == "tool_approval_required" && ev["approvalId"] == id }
}

func isResolved(id string) func(map[string]any) bool {
	return func(ev map[string]any) bool { return ev["type"] == "tool_approval_resolved" && ev["approvalId"] == id }
}

// A stock client answers with tool.approve and tool.deny, batched
// (httpBatchLink) and unbatched (httpLink), and sees the prompts on
// agent.onEvents.
func TestClientApproveAndDeny(t *testing.T) {
	t.Parallel()
	s := newStack(t, trpc.Config{})
	c := startNode(t, s.Server.URL+"/trpc", s.Approver)
	c.subscribe("s1", map[string]any{"sessionId": "sess-1"})
	s.takeRequests()

	a := s.shell("sess-1", "c1", "git fetch --prune")
	b := s.ask("sess-1", "c2", "mcp_github_create_issue", map[string]any{"title": "Bug", "labels": []any{"p1"}})
	other := s.shell("sess-2", "c3", "make test")
	checkRequired(t, c.event("s1", "a requested", isRequired(a.ID)), a)
	checkRequired(t, c.event("s1", "b requested", isRequired(b.ID)), b)

	// One batch: approve a, deny b with feedback.
	res := c.mutate("batch",
		call{"tool.approve", map[string]any{"sessionId": "sess-1", "approvalId": a.ID, "always": false}},
		call{"tool.deny", map[string]any{"sessionId": "sess-1", "approvalId": b.ID, "feedback": "Use the existing issue instead"}},
	)
	if !applied(t, res[0]) || !applied(t, res[1]) {
		t.Fatalf("batch: want both applied, got %+v", res)
	}
	if got := s.takeRequests(); !slices.Equal(got, []string{"POST /trpc/tool.approve,tool.deny?batch=1"}) {
		t.Errorf("batch requests %q", got)
	}
	c.event("s1", "a resolved", isResolved(a.ID))
	c.event("s1", "b resolved", isResolved(b.ID))

	ga := s.get(a.ID)
	if ga.Status != toolgate.StatusApproved || ga.Resolution.Scope != toolgate.ScopeOnce || ga.Resolution.By != "alice" || ga.Resolution.Via != "trpc" {
		t.Errorf("a: %s %+v", ga.Status, ga.Resolution)
	}
	gb := s.get(b.ID)
	if gb.Status != toolgate.StatusDenied || gb.Resolution.DenyMode != toolgate.DenySoft || gb.Resolution.Feedback != "Use the existing issue instead" ||
		!strings.Contains(gb.Resolution.Reason, "Use the existing issue instead") {
		t.Errorf("b: %s %+v", gb.Status, gb.Resolution)
	}
	// A soft deny does not stop the session: the agent goes on.
	if got := s.decide("sess-1", "c4", "git push origin main"); got != toolgate.Ask {
		t.Errorf("after a deny the next call is %s, want ask", got)
	}

	// applied: false, never an error, over both links: answered already,
	// unknown, of another session (which stays pending).
	for _, link := range []string{"batch", "http"} {
		res := c.mutate(link,
			call{"tool.approve", map[string]any{"sessionId": "sess-1", "approvalId": a.ID}},
			call{"tool.deny", map[string]any{"sessionId": "sess-1", "approvalId": b.ID}},
			call{"tool.approve", map[string]any{"sessionId": "sess-1", "approvalId": "ap_unknown"}},
			call{"tool.deny", map[string]any{"sessionId": "sess-1", "approvalId": "ap_unknown", "feedback": "x"}},
			call{"tool.approve", map[string]any{"sessionId": "sess-1", "approvalId": other.ID, "always": true}},
			call{"tool.deny", map[string]any{"sessionId": "sess-1", "approvalId": other.ID}},
		)
		for i, r := range res {
			if applied(t, r) {
				t.Errorf("%s call %d: applied, want false", link, i)
			}
		}
	}
	// httpBatchLink sent one request; httpLink one per call, in any order.
	got := s.takeRequests()
	if len(got) != 1+6 || got[0] != "POST /trpc/tool.approve,tool.deny,tool.approve,tool.deny,tool.approve,tool.deny?batch=1" {
		t.Errorf("requests %q", got)
	} else if unbatched := slices.Sorted(slices.Values(got[1:])); !slices.Equal(unbatched, []string{
		"POST /trpc/tool.approve", "POST /trpc/tool.approve", "POST /trpc/tool.approve",
		"POST /trpc/tool.deny", "POST /trpc/tool.deny", "POST /trpc/tool.deny",
	}) {
		t.Errorf("unbatched requests %q", unbatched)
	}
	if s.get(other.ID).Status != toolgate.StatusPending {
		t.Errorf("an answer naming another session resolved the approval")
	}

	// The other session's approval never reached the sessionId-filtered
	// subscription; a fresh one answers it unbatched.
	res = c.mutate("http", call{"tool.approve", map[string]any{"sessionId": "sess-2", "approvalId": other.ID}})
	if !applied(t, res[0]) {
		t.Fatal("approve over httpLink not applied")
	}

	// Bad input is a tRPC error with its code, over both links.
	for _, link := range []string{"batch", "http"} {
		res := c.mutate(link,
			call{"tool.approve", map[string]any{"sessionId": "sess-1"}},
			call{"tool.deny", map[string]any{"sessionId": "sess-1", "approvalId": 42}},
		)
		for i, r := range res {
			if r.OK || r.Error == nil || r.Error.Name != "TRPCClientError" || r.Error.Code != -32600 ||
				r.Error.Data.Code != "BAD_REQUEST" || r.Error.Data.HTTPStatus != 400 || !strings.Contains(r.Error.Message, "approvalId") {
				t.Errorf("%s bad input %d: %+v", link, i, r)
			}
		}
	}
	res = c.mutate("http", call{"tool.nope", map[string]any{}})
	if res[0].OK || res[0].Error.Data.Code != "NOT_FOUND" || res[0].Error.Code != -32004 || res[0].Error.Data.Path != "tool.nope" {
		t.Errorf("unknown procedure: %+v", res[0])
	}
}

// "Always" appends the arity patterns to the worker's permissions.jsonc,
// works at once, and resolves the pending approvals it now allows.
func TestClientAlways(t *testing.T) {
	t.Parallel()
	s := newStack(t, trpc.Config{})
	c := startNode(t, s.Server.URL+"/trpc", s.Approver)
	c.subscribe("all", nil)

	a := s.shell("sess-1", "c1", "git push origin main && npm run build")
	b := s.shell("sess-1", "c2", "git push origin dev")
	// A destructive variant is a risk class no wildcard allow covers.
	f := s.shell("sess-1", "c2f", "git push --force origin dev")
	d := s.shell("sess-2", "c3", "npm run build")
	e := s.shell("sess-1", "c4", "git fetch")
	for _, x := range []*toolgate.Approval{a, b, d, e, f} {
		c.event("all", "requested", isRequired(x.ID))
	}
	res := c.mutate("batch", call{"tool.approve", map[string]any{"sessionId": "sess-1", "approvalId": a.ID, "always": true}})
	if !applied(t, res[0]) {
		t.Fatal("always not applied")
	}
	for _, x := range []*toolgate.Approval{b, d} {
		c.event("all", "cascade resolved", isResolved(x.ID))
		got := s.get(x.ID)
		if got.Status != toolgate.StatusApproved || got.Resolution.Via != "cascade" {
			t.Errorf("cascade %s: %s %+v", x.Call.Args["command"], got.Status, got.Resolution)
		}
	}
	if s.get(f.ID).Status != toolgate.StatusPending {
		t.Error("git push --force was allowed by a git push * grant")
	}
	if s.get(e.ID).Status != toolgate.StatusPending {
		t.Error("git fetch was allowed by a git push grant")
	}
	// A pipeline's rules are added one per command; their cascade
	// approves the call itself.
	if ga := s.get(a.ID); ga.Status != toolgate.StatusApproved || ga.Resolution.By != "alice" {
		t.Errorf("a: %s %+v", ga.Status, ga.Resolution)
	}
	doc := s.permissions()
	for _, rule := range []string{`"git push *": "allow"`, `"npm run build": "allow"`} {
		if !strings.Contains(doc, rule) {
			t.Errorf("permissions.jsonc lacks %s:\n%s", rule, doc)
		}
	}
	for cmd, want := range map[string]toolgate.Action{
		"git push": toolgate.Allow, "git push --tags upstream": toolgate.Allow,
		"npm run build": toolgate.Allow, "npm run test": toolgate.Ask, "git pull": toolgate.Ask,
	} {
		if got := s.decide("sess-3", "n-"+cmd, cmd); got != want {
			t.Errorf("new session %q: %s, want %s", cmd, got, want)
		}
	}

	// An interpreter gets no pattern: "always" approves it once only.
	grantsBefore := grantCount(t, s)
	i := s.shell("sess-1", "c5", `bash -c "make build"`)
	res = c.mutate("http", call{"tool.approve", map[string]any{"sessionId": "sess-1", "approvalId": i.ID, "always": true}})
	if !applied(t, res[0]) {
		t.Fatal("always on an interpreter not applied")
	}
	if got := s.get(i.ID).Resolution; got.Scope != toolgate.ScopeOnce || got.GrantID != "" {
		t.Errorf("interpreter resolution %+v", got)
	}
	if grantCount(t, s) != grantsBefore {
		t.Error("always on an interpreter added a grant")
	}
	if got := s.decide("sess-1", "c6", `bash -c "make build"`); got != toolgate.Ask {
		t.Errorf("interpreter again: %s, want ask", got)
	}
}

// Seed 001: "Arity 2 — tools with subcommands (first two tokens form the
// command): git, npm, bun, …" and "Arity 3 — … npm run, bun run". "Always"
// on bun test, bun run dev and bun install writes a rule, which works for
// new sessions; bun running code (-e, a file) is still granted once.
func TestClientAlwaysBun(t *testing.T) {
	t.Parallel()
	s := newStack(t, trpc.Config{})
	c := startNode(t, s.Server.URL+"/trpc", s.Approver)
	c.subscribe("all", nil)
	for i, cmd := range []string{"bun test", "bun run dev", "bun install"} {
		a := s.shell("sess-1", "b"+string(rune('0'+i)), cmd)
		c.event("all", "requested", isRequired(a.ID))
		res := c.mutate("http", call{"tool.approve", map[string]any{"sessionId": "sess-1", "approvalId": a.ID, "always": true}})
		if !applied(t, res[0]) {
			t.Fatalf("always on %q not applied", cmd)
		}
		if got := s.get(a.ID).Resolution; got.Scope != toolgate.ScopeWorkspace || got.GrantID == "" {
			t.Errorf("%q: resolution %+v, want a workspace grant", cmd, got)
		}
	}
	doc := s.permissions()
	for _, rule := range []string{`"bun test": "allow"`, `"bun run dev": "allow"`, `"bun install": "allow"`} {
		if !strings.Contains(doc, rule) {
			t.Errorf("permissions.jsonc lacks %s:\n%s", rule, doc)
		}
	}
	for cmd, want := range map[string]toolgate.Action{
		"bun test": toolgate.Allow, "bun run dev": toolgate.Allow, "bun install": toolgate.Allow,
		"bun run build": toolgate.Ask, "bun -e 'process.exit(1)'": toolgate.Ask, "bun evil.ts": toolgate.Ask,
		"bun x cowsay": toolgate.Ask,
	} {
		if got := s.decide("sess-2", "n-"+cmd, cmd); got != want {
			t.Errorf("new session %q: %s, want %s", cmd, got, want)
		}
	}
}

func grantCount(t *testing.T, s *stack) int {
	t.Helper()
	g, err := s.Store.ListGrants(context.Background(), store.GrantFilter{})
	if err != nil {
		t.Fatal(err)
	}
	return len(g)
}

// A client that reconnects is sent every approval still pending, in the
// seed's bare shape; workerId and sessionId filter.
func TestClientReplayOnReconnect(t *testing.T) {
	t.Parallel()
	s := newStack(t, trpc.Config{})
	c := startNode(t, s.Server.URL+"/trpc", s.Approver)

	a := s.shell("sess-1", "c1", "git push")
	b := s.shell("sess-1", "c2", "rm -r build")
	w2, err := s.Broker.Submit(context.Background(), toolgate.SubmitRequest{Call: toolgate.Call{
		ID: "c3", Session: "sess-w2", Workspace: "w2", Tool: "shell_exec", Args: map[string]any{"command": "make"},
	}})
	if err != nil || w2.Approval == nil {
		t.Fatalf("submit w2: %v %+v", err, w2)
	}

	// Connect: both pending approvals are replayed.
	c.subscribe("s1", map[string]any{"sessionId": "sess-1"})
	checkRequired(t, c.event("s1", "replay a", isRequired(a.ID)), a)
	checkRequired(t, c.event("s1", "replay b", isRequired(b.ID)), b)
	c.subscribe("w", map[string]any{"workerId": "w2"})
	checkRequired(t, c.event("w", "replay w2", isRequired(w2.Approval.ID)), w2.Approval)

	// Disconnect; meanwhile a is answered and c asks.
	c.unsubscribe("s1")
	if !applied(t, c.mutate("http", call{"tool.approve", map[string]any{"sessionId": "sess-1", "approvalId": a.ID}})[0]) {
		t.Fatal("approve a")
	}
	cc := s.shell("sess-1", "c4", "docker compose up")
	c.subscribe("s2", map[string]any{"sessionId": "sess-1"})
	got := map[string]bool{}
	c.event("s2", "replay after reconnect", func(ev map[string]any) bool {
		if ev["sessionId"] != "sess-1" {
			t.Errorf("filtered subscription got %v", ev)
		}
		got[ev["approvalId"].(string)] = true
		return got[b.ID] && got[cc.ID]
	})
	if got[a.ID] || got[w2.Approval.ID] {
		t.Errorf("replay included an answered or filtered approval: %v", got)
	}

	// The server drops every connection: the client's EventSource
	// reconnects by itself and the pending prompts come again.
	c.forget("s2")
	c.forget("w")
	s.Server.CloseClientConnections()
	c.reconnected("s2")
	c.reconnected("w")
	c.event("s2", "replay after the server dropped the stream", isRequired(b.ID))
	c.event("s2", "replay c after the drop", isRequired(cc.ID))
	c.event("w", "replay w2 after the drop", isRequired(w2.Approval.ID))
}

// With Config.Tracked every event carries an id (tRPC's tracked()), the
// client receives {id, data}, and after a drop it resumes with
// lastEventId: what it missed comes too, resolutions included.
func TestClientTrackedResume(t *testing.T) {
	t.Parallel()
	s := newStack(t, trpc.Config{Tracked: true})
	c := startNode(t, s.Server.URL+"/trpc", s.Approver)
	a := s.shell("sess-1", "c1", "git push")
	c.subscribe("s", map[string]any{"sessionId": "sess-1"})

	tracked := func(match func(map[string]any) bool) func(map[string]any) bool {
		return func(env map[string]any) bool {
			id, _ := env["id"].(string)
			data, _ := env["data"].(map[string]any)
			return id != "" && data != nil && match(data)
		}
	}
	env := c.event("s", "tracked replay", tracked(isRequired(a.ID)))
	checkRequired(t, env["data"].(map[string]any), a)

	// Drop the stream; while the client is away a is answered (through
	// the API) and b asks. On reconnect the client names the last id it
	// saw and is sent both.
	c.forget("s")
	s.Server.CloseClientConnections()
	if _, err := s.Broker.Gate().Approve(toolgate.WithActor(context.Background(), toolgate.Actor{Name: "bob", Via: "api"}), a.ID, toolgate.ApproveRequest{}); err != nil {
		t.Fatal(err)
	}
	b := s.shell("sess-1", "c2", "npm publish")
	c.reconnected("s")
	c.event("s", "missed resolution", tracked(isResolved(a.ID)))
	c.event("s", "missed request", tracked(isRequired(b.ID)))
	resumed := false
	for _, r := range s.takeRequests() {
		if strings.HasPrefix(r, "GET /trpc/agent.onEvents?input=") && strings.Contains(r, " last-event-id=") {
			resumed = true
		}
	}
	if !resumed {
		t.Error("the client did not reconnect with Last-Event-ID")
	}
}

// Auth failures on /trpc/ reach a stock client in tRPC's error shape, for
// every call of a batch: UNAUTHORIZED for a missing or unknown token,
// FORBIDDEN for a token without the approver role. Seed 001: "Custom
// Clients — subscribe to tool_approval_required events and call
// tool.approve/tool.deny with the approvalId" — a client that is refused
// must be able to tell why.
func TestClientAuthErrors(t *testing.T) {
	t.Parallel()
	s := newStack(t, trpc.Config{})
	for _, tc := range []struct {
		token, code string
		status      int
		rpc         int
	}{
		{"tg_not-a-real-token", "UNAUTHORIZED", 401, -32001},
		{s.Agent, "FORBIDDEN", 403, -32003},
	} {
		c := startNode(t, s.Server.URL+"/trpc", tc.token)
		for _, link := range []string{"batch", "http"} {
			res := c.mutate(link,
				call{"tool.approve", map[string]any{"sessionId": "s", "approvalId": "ap_x"}},
				call{"tool.deny", map[string]any{"sessionId": "s", "approvalId": "ap_y"}},
			)
			for i, r := range res {
				if r.OK || r.Error == nil || r.Error.Name != "TRPCClientError" || r.Error.Code != tc.rpc ||
					r.Error.Data.Code != tc.code || r.Error.Data.HTTPStatus != tc.status || r.Error.Message == "" {
					t.Errorf("%s %s call %d: %+v", tc.code, link, i, r)
				}
			}
		}
	}
}
