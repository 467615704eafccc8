package cli_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
)

// TestAdminCommands drives the admin commands as separate processes
// against a running gateway.
func TestAdminCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a gateway process")
	}
	t.Parallel()
	ctx := context.Background()
	bin := toolgateBinary(t)
	data := t.TempDir()
	g := startGateway(t, bin, data)
	agentToken := createToken(t, bin, data, "agent")
	agent := newClient(t, g.url, agentToken)
	approverToken := createToken(t, bin, data, "approver")
	newClient(t, g.url, approverToken) // wait until the gateway knows it

	run := func(token string, args ...string) (string, error) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "TOOLGATE_URL="+g.url, "TOOLGATE_TOKEN="+token)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	must := func(token string, args ...string) string {
		t.Helper()
		out, err := run(token, args...)
		if err != nil {
			t.Fatalf("toolgate %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}

	r, err := agent.Submit(ctx, bash("s1", "c1", "git push origin main"))
	if err != nil {
		t.Fatal(err)
	}
	id := r.Approval.ID
	if out := must(approverToken, "approvals", "list"); !strings.Contains(out, id) || !strings.Contains(out, "git push origin main") {
		t.Fatalf("approvals list:\n%s", out)
	}
	// Seed 003: "Origin: MCP server tool" for mcp__ tools, in the list too.
	m, err := agent.Submit(ctx, toolgate.SubmitRequest{Call: toolgate.Call{ID: "m1", Session: "s-mcp", Tool: "mcp__github__create_issue", Args: map[string]any{"title": "x"}}})
	if err != nil || m.Approval == nil {
		t.Fatalf("mcp call: %v %+v", err, m)
	}
	if out := must(approverToken, "approvals", "list"); !strings.Contains(out, "MCP server tool (github)") {
		t.Fatalf("approvals list lacks the MCP origin:\n%s", out)
	}
	must(approverToken, "approvals", "deny", "--feedback", "not that repo", m.Approval.ID)
	// Resolved rows say how they ended, not the question and a countdown.
	if out := must(approverToken, "approvals", "list", "--status", "denied"); !strings.Contains(out, " via cli: not that repo") || strings.Contains(out, "asks for approval") {
		t.Fatalf("approvals list of resolved rows:\n%s", out)
	}
	// toolgate serve seeds new workspaces with seed 002's tool profile:
	// its safe task runs, its dangerous write asks, Claude Code's Write
	// keeps the defaults.
	for tool, want := range map[string]toolgate.Action{"task": toolgate.Allow, "write": toolgate.Ask, "Write": toolgate.Allow} {
		r, err := agent.Submit(ctx, toolgate.SubmitRequest{Call: toolgate.Call{ID: "p-" + tool, Session: "s-profile-" + tool, Tool: tool, Args: map[string]any{"file_path": "notes.txt", "content": "x", "prompt": "look"}}})
		if err != nil || r.Decision.Action != want {
			t.Errorf("%s in a new workspace: %v %+v, want %s", tool, err, r, want)
		}
		if r != nil && r.Approval != nil {
			must(approverToken, "approvals", "deny", r.Approval.ID)
		}
	}
	// toolgate sessions end: the session's later calls are denied.
	if out := must(approverToken, "sessions", "end", "s-mcp"); !strings.Contains(out, "s-mcp") {
		t.Fatalf("sessions end:\n%s", out)
	}
	if r, err := agent.Submit(ctx, bash("s-mcp", "m2", "ls")); err != nil || r.Decision.Action != toolgate.Deny {
		t.Fatalf("a call in an ended session: %v %+v", err, r)
	}
	// An agent's credential cannot answer, from the command line either.
	if out, err := run(agentToken, "approvals", "approve", id); err == nil || !strings.Contains(out, "is an agent credential") {
		t.Fatalf("agent approving: %v\n%s", err, out)
	}
	// A session grant without --pattern covers the call exactly as made;
	// the approver widens it knowingly.
	out := must(approverToken, "approvals", "approve", "--scope", "session", "--pattern", "git push *", id)
	if !strings.Contains(out, "approved") || !strings.Contains(out, `"git push *"`) {
		t.Fatalf("approve:\n%s", out)
	}
	var grants []toolgate.Grant
	if err := json.Unmarshal([]byte(must(approverToken, "grants", "list", "--json")), &grants); err != nil || len(grants) != 1 {
		t.Fatalf("grants list: %v %+v", err, grants)
	}
	// Revoking needs an admin.
	if _, err := run(approverToken, "grants", "revoke", grants[0].ID); err == nil {
		t.Fatal("an approver revoked a grant")
	}
	must(g.token, "grants", "revoke", grants[0].ID)

	// grants add: an admin's rule at a scope; the next call in the
	// session is allowed by it, and an approver may not add one.
	if _, err := run(approverToken, "grants", "add", "--scope", "session", "--session", "s1", "--tool", "Bash", "--pattern", "make lint"); err == nil {
		t.Fatal("an approver added a grant")
	}
	if out := must(g.token, "grants", "add", "--scope", "session", "--session", "s1", "--tool", "Bash", "--pattern", "make lint"); !strings.Contains(out, `Bash "make lint" at scope session`) {
		t.Fatalf("grants add:\n%s", out)
	}
	if r, err := agent.Submit(ctx, bash("s1", "lint1", "make lint")); err != nil || r.Decision.Action != toolgate.Allow {
		t.Fatalf("a call under an added grant: %v %+v", err, r)
	}

	// rules get and put against the gateway; a document that does not
	// compile is refused before anything is sent.
	doc := filepath.Join(t.TempDir(), "rules.jsonc")
	if err := os.WriteFile(doc, []byte("// from the CLI\n{\"*\": \"ask\", \"Bash\": {\"make check\": \"allow\"}}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	must(g.token, "rules", "put", "cli-ws", doc)
	if out := must(g.token, "rules", "get", "cli-ws"); !strings.HasPrefix(out, "// from the CLI") {
		t.Fatalf("rules get:\n%s", out)
	}
	bad := filepath.Join(t.TempDir(), "bad.jsonc")
	os.WriteFile(bad, []byte(`{"Bash": {"make *": "perhaps"}}`), 0o600)
	if out, err := run(g.token, "rules", "put", "cli-ws", bad); err == nil || !strings.Contains(out, "bad.jsonc:1:") {
		t.Fatalf("rules put of a bad document: %v\n%s", err, out)
	}
	if out := must(g.token, "rules", "get", "cli-ws"); !strings.HasPrefix(out, "// from the CLI") {
		t.Fatalf("a refused put changed the document:\n%s", out)
	}

	r, _ = agent.Submit(ctx, bash("s1", "c2", "make deploy"))
	must(approverToken, "approvals", "deny", "--mode", "soft", "--feedback", "not today", r.Approval.ID)
	a, err := agent.Approval(ctx, r.Approval.ID)
	if err != nil || a.Status != toolgate.StatusDenied || !strings.Contains(a.Resolution.Reason, "not today") {
		t.Fatalf("denied with feedback: %+v %v", a, err)
	}

	must(approverToken, "sessions", "mode", "s1", "auto-approve")
	if out := must(approverToken, "sessions", "list"); !strings.Contains(out, "yolo") {
		t.Fatalf("sessions list after mode change:\n%s", out)
	}
	if out, err := run(approverToken, "sessions", "mode", "s1", "sideways"); err == nil || !strings.Contains(out, "unknown mode") {
		t.Fatalf("bad mode: %v\n%s", err, out)
	}
	must(approverToken, "sessions", "abort", "s1")
	if out := must(g.token, "audit", "--verify"); !strings.Contains(out, "audit chain verified") {
		t.Fatalf("audit --verify:\n%s", out)
	}
	if out := must(g.token, "audit", "--outcome", "approved"); !strings.Contains(out, "approval.resolved") {
		t.Fatalf("audit --outcome approved:\n%s", out)
	}
	if out := must(g.token, "audit", "--grep", "MAKE DEPLOY", "--json"); !strings.Contains(out, "make deploy") || strings.Contains(out, "git push origin main") {
		t.Fatalf("audit --grep finds the call, case-insensitively, and only it:\n%s", out)
	}
	if out := must(g.token, "audit", "--grep", "no-such-command-anywhere", "--json"); strings.Contains(out, `"seq"`) {
		t.Fatalf("audit --grep of nothing:\n%s", out)
	}
	// Without a credential the commands say what to do.
	if out, err := run("", "approvals", "list"); err == nil || !strings.Contains(out, "TOOLGATE_TOKEN") {
		t.Fatalf("no token: %v\n%s", err, out)
	}
}
