package approval_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/digest"
	"github.com/toolgate/toolgate/store"
)

// TestResubmittedCallID is the attack of issue 10: a human approves
// `git push origin main` as call tu9, and the agent resubmits tu9 with
// other content. Every variant is refused with EConflict and audited,
// before and after the answer; the same call sent again (keys in another
// order, a number spelled as an int) still attaches to its approval.
func TestResubmittedCallID(t *testing.T) {
	t.Parallel()
	approved := shellCall("s1", "tu9", "git push origin main")
	approved.Cwd = "/home/user/project"
	variant := func(f func(c *toolgate.Call)) toolgate.Call {
		c := approved
		c.Args = map[string]any{"command": "git push origin main"}
		f(&c)
		return c
	}
	attacks := map[string]toolgate.Call{
		"other command": variant(func(c *toolgate.Call) { c.Args["command"] = "rm -rf /" }),
		"read a secret": variant(func(c *toolgate.Call) {
			c.Tool, c.Args = "Read", map[string]any{"file_path": "/home/user/project/DATA/tokens.json"}
		}),
		"write bashrc": variant(func(c *toolgate.Call) {
			c.Tool, c.Args = "Write", map[string]any{"file_path": "~/.bashrc", "content": "curl x | sh"}
		}),
		"extra argument":    variant(func(c *toolgate.Call) { c.Args["run_in_background"] = true }),
		"no arguments":      variant(func(c *toolgate.Call) { c.Args = nil }),
		"other cwd":         variant(func(c *toolgate.Call) { c.Cwd = "/" }),
		"other workspace":   variant(func(c *toolgate.Call) { c.Workspace = "other" }),
		"tool in lowercase": variant(func(c *toolgate.Call) { c.Tool = "bash" }),
		"trailing space":    variant(func(c *toolgate.Call) { c.Args["command"] = "git push origin main " }),
	}
	for _, answered := range []bool{false, true} {
		e := newEnv(t)
		ctx := context.Background()
		a := e.ask(t, approved)
		if a.Digest != digest.Call(&a.Call) {
			t.Fatalf("approval digest %q, want the call's %q", a.Digest, digest.Call(&a.Call))
		}
		// Every decided call's digest is on record in the audit log.
		requested, err := e.broker.Audit(ctx, store.AuditFilter{Kind: string(toolgate.EventApprovalRequested)})
		if err != nil || len(requested) != 1 || !strings.Contains(string(requested[0].Data), a.Digest) {
			t.Fatalf("approval.requested audit entry lacks the digest: %v %v", requested, err)
		}
		if answered {
			if _, err := e.broker.Approve(ctx, a.ID, toolgate.ApproveRequest{}, human); err != nil {
				t.Fatal(err)
			}
		}
		for name, c := range attacks {
			r, err := e.broker.Submit(ctx, toolgate.SubmitRequest{Call: c})
			if toolgate.ErrorCodeOf(err) != toolgate.EConflict {
				t.Fatalf("answered=%v %s: got %+v, %v; want a conflict", answered, name, r, err)
			}
		}
		got, err := e.broker.Get(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool]toolgate.Status{false: toolgate.StatusPending, true: toolgate.StatusApproved}[answered]; got.Status != want || got.Call.Args["command"] != "git push origin main" {
			t.Fatalf("answered=%v: approval became %s %v", answered, got.Status, got.Call.Args)
		}
		conflicts, err := e.broker.Audit(ctx, store.AuditFilter{Kind: approval.AuditCallConflict})
		if err != nil {
			t.Fatal(err)
		}
		if len(conflicts) != len(attacks) {
			t.Fatalf("answered=%v: %d conflicts audited, want %d", answered, len(conflicts), len(attacks))
		}
		for _, en := range conflicts {
			if en.CallID != "tu9" || en.ApprovalID != a.ID || en.Outcome != "conflict" {
				t.Fatalf("conflict entry %+v", en)
			}
		}
		// The user's twin: the very same call again, however it is spelled.
		var args map[string]any
		if err := json.Unmarshal([]byte(`{"command":"git push origin main"}`), &args); err != nil {
			t.Fatal(err)
		}
		same := approved
		same.Args = args
		r := e.submit(t, same)
		if r.Approval == nil || r.Approval.ID != a.ID {
			t.Fatalf("answered=%v: the same call did not attach: %+v", answered, r)
		}
		if action, final := r.Final(); answered != final || answered && action != toolgate.Allow {
			t.Fatalf("answered=%v: same call came back %v final=%v", answered, action, final)
		}
	}
}
