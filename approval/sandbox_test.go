package approval_test

import (
	"context"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
)

// TestRecordSandboxSession: a sandbox report that names a session is
// recorded in it only for the session's own credential, under the
// session's workspace whatever workspace the report names; another agent
// credential naming it is refused, while a report naming no session, or
// one the gateway does not know, is recorded as the host named it.
func TestRecordSandboxSession(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	host := toolgate.Actor{Name: "host", Via: "hook", Agent: true}
	other := toolgate.Actor{Name: "other", Via: "hook", Agent: true}
	c := toolgate.Call{ID: "c1", Session: "sb-s", Tool: "Bash", Args: map[string]any{"command": "ls"}}
	if _, err := e.broker.Submit(ctx, toolgate.SubmitRequest{Call: c, By: host}); err != nil {
		t.Fatal(err)
	}
	rep := func(session, workspace string) *toolgate.SandboxReport {
		return &toolgate.SandboxReport{Session: session, Workspace: workspace, Command: "touch /etc/x",
			Violations: []toolgate.SandboxViolation{{Kind: "file", Target: "/etc/x", Rule: "writes outside the workspace are blocked"}}}
	}
	for _, tc := range []struct {
		name          string
		rep           *toolgate.SandboxReport
		by            toolgate.Actor
		want          toolgate.ErrorCode // "" records it
		wantWorkspace string
	}{
		{"own session", rep("sb-s", ""), host, "", "default"},
		{"own session, another workspace named", rep("sb-s", "victim"), host, "", "default"},
		{"another credential's session", rep("sb-s", "default"), other, toolgate.ENotFound, ""},
		{"a person names the session", rep("sb-s", ""), human, "", "default"},
		{"no session", rep("", "default"), other, "", "default"},
		{"a session the gateway does not know", rep("unknown-s", "default"), other, "", "default"},
	} {
		err := e.broker.RecordSandbox(toolgate.WithActor(ctx, tc.by), tc.rep)
		if got := toolgate.ErrorCodeOf(err); (tc.want == "" && err != nil) || (tc.want != "" && got != tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
			continue
		}
		if tc.want == "" && tc.rep.Workspace != tc.wantWorkspace {
			t.Errorf("%s: recorded in workspace %q, want %q", tc.name, tc.rep.Workspace, tc.wantWorkspace)
		}
	}
	entries, err := e.broker.Audit(ctx, toolgate.AuditFilter{Kind: approval.SandboxViolationKind})
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 5 {
		t.Fatalf("recorded %d entries, want 5: %+v", len(entries), entries)
	}
	for _, en := range entries {
		if en.Session == "sb-s" && (en.Who == other.Name || en.Workspace != "default") {
			t.Errorf("entry in sb-s by %s in workspace %q", en.Who, en.Workspace)
		}
	}
}
