package approval_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
)

// TestApproverGrantMustCoverCall is issue 10's over-wide grant: an
// approver answering `git push origin main` may grant what covers that
// call, and nothing wider; an admin may. A refused answer changes nothing:
// the approval stays pending, no grant is stored, the rules document is
// untouched.
func TestApproverGrantMustCoverCall(t *testing.T) {
	t.Parallel()
	push := shellCall("s1", "c1", "git push origin main")
	write := toolgate.Call{ID: "c1", Session: "s1", Tool: "Write", Args: map[string]any{"file_path": "/home/user/project/notes.txt", "content": "x"}}
	two := shellCall("s1", "c1", "cd src && make")
	mcp := toolgate.Call{ID: "c1", Session: "s1", Tool: "mcp__github__create_issue", Args: map[string]any{"title": "x"}}
	req := func(scope toolgate.Scope, kind toolgate.GrantKind, pattern string) toolgate.ApproveRequest {
		return toolgate.ApproveRequest{Scope: scope, Grant: kind, Pattern: pattern}
	}
	for _, tc := range []struct {
		name string
		call toolgate.Call
		req  toolgate.ApproveRequest
		ok   bool // for an approver; an admin may do all
	}{
		{"another command", push, req(toolgate.ScopeWorkspace, toolgate.GrantPattern, "rm *"), false},
		{"global catch-all", push, req(toolgate.ScopeGlobal, "", "*"), false},
		{"global suggestion", push, req(toolgate.ScopeGlobal, "", ""), false},
		{"tool-wide for the session", push, req(toolgate.ScopeSession, toolgate.GrantTool, ""), false},
		{"catch-all pattern", push, req(toolgate.ScopeSession, toolgate.GrantPattern, "*"), false},
		{"wildcard command name", push, req(toolgate.ScopeSession, toolgate.GrantPattern, "g* *"), false},
		{"wildcard first", push, req(toolgate.ScopeSession, toolgate.GrantPattern, "* push *"), false},
		{"another subcommand", push, req(toolgate.ScopeSession, toolgate.GrantPattern, "git pull *"), false},
		{"prefix of another command", push, req(toolgate.ScopeWorkspace, toolgate.GrantPrefix, "rm"), false},
		{"prefix cut in a word", push, req(toolgate.ScopeWorkspace, toolgate.GrantPrefix, "gi"), false},
		{"home directory", write, req(toolgate.ScopeSession, toolgate.GrantPattern, "~/**"), false},
		{"root", write, req(toolgate.ScopeSession, toolgate.GrantPattern, "/*"), false},
		{"another file", write, req(toolgate.ScopeSession, toolgate.GrantPattern, "/home/user/project/other.txt"), false},
		{"neither of two commands", two, req(toolgate.ScopeSession, toolgate.GrantPattern, "rm *"), false},
		{"wider than one of two", two, req(toolgate.ScopeSession, toolgate.GrantPattern, "m* *"), false},
		// The user's twins: grants that cover the call.
		{"suggestion", push, req(toolgate.ScopeWorkspace, "", ""), true},
		{"exact command", push, req(toolgate.ScopeSession, toolgate.GrantPattern, "git push origin main"), true},
		{"subcommand", push, req(toolgate.ScopeTurn, toolgate.GrantPattern, "git push *"), true},
		{"command", push, req(toolgate.ScopeWorkspace, toolgate.GrantPattern, "git *"), true},
		{"prefix", push, req(toolgate.ScopeSession, toolgate.GrantPrefix, "git push"), true},
		{"the file", write, req(toolgate.ScopeSession, "", ""), true},
		{"the project", write, req(toolgate.ScopeWorkspace, toolgate.GrantPattern, "/home/user/project/**"), true},
		{"an MCP tool is its own subject", mcp, req(toolgate.ScopeSession, toolgate.GrantTool, ""), true},
		{"one of two commands", two, req(toolgate.ScopeSession, toolgate.GrantPattern, "make *"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			ctx := context.Background()
			if tc.call.Tool == "Write" {
				// The default rules allow writes; here they ask.
				if err := e.rules.PutDocument(ctx, "default", []byte(`{"*": "ask"}`)); err != nil {
					t.Fatal(err)
				}
			}
			a := e.ask(t, tc.call)
			doc, _, err := e.rules.Document(ctx, "default")
			if err != nil {
				t.Fatal(err)
			}
			_, err = e.broker.Approve(ctx, a.ID, tc.req, human)
			if tc.ok {
				if err != nil {
					t.Fatalf("approver: %v", err)
				}
				return
			}
			if toolgate.ErrorCodeOf(err) != toolgate.EForbidden {
				t.Fatalf("approver: %v, want forbidden", err)
			}
			got, _ := e.broker.Get(ctx, a.ID)
			grants, _ := e.store.ListGrants(ctx, store.GrantFilter{})
			after, _, _ := e.rules.Document(ctx, "default")
			if got.Status != toolgate.StatusPending || len(grants) != 0 || string(after) != string(doc) {
				t.Fatalf("a refused answer changed something: %s, %d grants, rules changed %v", got.Status, len(grants), string(after) != string(doc))
			}
			if tc.req.Grant == toolgate.GrantPattern && tc.name == "another command" || tc.req.Scope == toolgate.ScopeGlobal || tc.req.Grant == toolgate.GrantTool {
				// What an admin may write by POST /v1/grants, an admin's
				// answer may grant.
				if _, err := e.broker.Approve(ctx, a.ID, tc.req, root); err != nil {
					t.Fatalf("admin: %v", err)
				}
			}
		})
	}
}

// TestModificationsAreDecided: a human's changes to the arguments are
// decided like a new call before the approval applies; a deny stays a
// deny, an ask is the human's to answer.
func TestModificationsAreDecided(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		mods string
		ok   bool
	}{
		{`{"command": "cat .env"}`, false},
		{`{"command": "cat notes.txt && cat config/prod.env"}`, false},
		{`["not", "an", "object"]`, false},
		{`{"command": "cat README.md"}`, true},
		{`{"timeout": 5}`, true},
	} {
		e := newEnv(t)
		a := e.ask(t, shellCall("s1", "c1", "npm run notes | wc -l"))
		_, err := e.broker.Approve(ctx, a.ID, toolgate.ApproveRequest{Modifications: json.RawMessage(tc.mods)}, human)
		if tc.ok != (err == nil) {
			t.Fatalf("modifications %s: %v", tc.mods, err)
		}
		if got, _ := e.broker.Get(ctx, a.ID); !tc.ok && got.Status != toolgate.StatusPending {
			t.Fatalf("modifications %s: approval became %s", tc.mods, got.Status)
		}
	}
}
