package storetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
)

// t0 is the suite's epoch: nanoseconds set, so that a store that drops
// them fails.
var t0 = time.Date(2026, 11, 21, 8, 0, 0, 123456789, time.UTC)

// cet is a zone other than UTC: a store returns the same instants.
var cet = time.FixedZone("CET", 3600)

// at returns t0 plus d seconds.
func at(d int) time.Time { return t0.Add(time.Duration(d) * time.Second) }

// args decodes JSON call arguments as an agent's call carries them.
func args(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("fixture args: %v", err)
	}
	return m
}

// newApproval returns a pending approval with every field set.
func newApproval(t *testing.T, id, session, callID, workspace string, created time.Time) *toolgate.Approval {
	t.Helper()
	return &toolgate.Approval{
		ID:          id,
		ResumeToken: "rt-" + id,
		Call: toolgate.Call{
			ID: callID, Session: session, Workspace: workspace, Agent: "explore", Tool: "Bash",
			Args:   args(t, `{"command":"git push origin main","timeout":120000,"env":{"A":"1","nested":[1,2.5,{"x":null,"y":true,"z":"é \u2028 <&>"}]}}`),
			Tier:   toolgate.TierExec,
			Origin: "mcp:github", Cwd: "/home/u/project",
			Batch: &toolgate.Batch{ID: "batch-" + callID, Index: 1, Total: 3},
		},
		Decision: toolgate.Decision{
			Action: toolgate.Ask,
			Reason: "git push is not allowed by any rule",
			Rule: &toolgate.RuleRef{Layer: toolgate.LayerStatic, Source: "permissions.jsonc:12", Tool: "Bash",
				Pattern: "git push *", Action: toolgate.Ask, Reason: "pushes need a human"},
			Tier: toolgate.TierExec,
			Mode: toolgate.ModeAutoEdit,
			Subjects: []toolgate.SubjectResult{
				{Kind: toolgate.SubjectCommand, Text: "git push origin main", Action: toolgate.Ask, Open: true},
				{Kind: toolgate.SubjectWrite, Text: "/tmp/out.txt", Action: toolgate.Allow,
					Rule: &toolgate.RuleRef{Layer: toolgate.LayerSession, Source: "grant:g0", Tool: "Write", Pattern: "/tmp/*", Action: toolgate.Allow}},
			},
			Risks: []toolgate.Risk{
				{Code: "git-force", Severity: toolgate.SeverityCritical, Reason: "rewrites remote history", Subject: "git push"},
				{Code: "subshell", Severity: toolgate.SeverityUnprefixable, Reason: "command substitution"},
			},
			Suggestions: []toolgate.Suggestion{{Tool: "Bash", Pattern: "git push *"}},
		},
		Digest:    "sha256:digest-of-" + id,
		Status:    toolgate.StatusPending,
		CreatedAt: created.In(cet),
		ExpiresAt: created.Add(5 * time.Minute),
		BatchRemaining: []toolgate.Call{
			{ID: callID + "-2", Session: session, Workspace: workspace, Tool: "Read",
				Args: args(t, `{"file_path":"/etc/hosts","limit":[1,{"a":[]}]}`), Tier: toolgate.TierRead,
				Batch: &toolgate.Batch{ID: "batch-" + callID, Index: 2, Total: 3}},
			{ID: callID + "-3", Tool: "mcp__github__create_issue", Batch: &toolgate.Batch{ID: "batch-" + callID, Index: 3, Total: 3}},
		},
	}
}

// plainApproval returns a pending approval with only the fields a store
// needs.
func plainApproval(id, session, callID, workspace string, created time.Time) *toolgate.Approval {
	return &toolgate.Approval{
		ID: id, ResumeToken: "rt-" + id,
		Call:      toolgate.Call{ID: callID, Session: session, Workspace: workspace, Tool: "Bash"},
		Decision:  toolgate.Decision{Action: toolgate.Ask, Reason: "ask"},
		Status:    toolgate.StatusPending,
		CreatedAt: created, ExpiresAt: created.Add(5 * time.Minute),
	}
}

// approved returns an approving resolution with every field set.
func approved(grantID string) toolgate.Resolution {
	return toolgate.Resolution{
		Status: toolgate.StatusApproved, Scope: toolgate.ScopeSession, Grant: toolgate.GrantPattern,
		Pattern: "git push *", GrantID: grantID,
		Answer:        json.RawMessage(`{"choice":  "yes",` + "\n" + ` "b":1, "a":[ ]}`),
		Modifications: json.RawMessage(`{ "command" : "git push origin  main" }`),
		Feedback:      "go ahead", Reason: "approved by alice",
		By: "alice", Via: "web", At: at(30).In(cet),
	}
}

// denied returns a denying resolution.
func denied(reason string) toolgate.Resolution {
	return toolgate.Resolution{
		Status: toolgate.StatusDenied, DenyMode: toolgate.DenyHard, Feedback: "use a branch",
		Reason: reason, By: "bob", Via: "cli", At: at(31),
	}
}

// newGrant returns a grant with every field set.
func newGrant(id string, scope toolgate.Scope, session, workspace, tool string, created time.Time) *toolgate.Grant {
	return &toolgate.Grant{
		ID: id, Scope: scope, Kind: toolgate.GrantPattern, Tool: tool, Pattern: "git push *",
		Session: session, Workspace: workspace, Turn: 7, ApprovalID: "a-" + id,
		CreatedBy: "alice", Via: "web", CreatedAt: created.In(cet),
	}
}

// newSession returns a session with every field set.
func newSession(id, workspace string, created time.Time) *toolgate.Session {
	return &toolgate.Session{
		ID: id, Workspace: workspace, Mode: toolgate.ModeReadOnly, Turn: 3,
		Stopped: true, Aborted: false, Owner: "agent:" + id, CreatedAt: created.In(cet), UpdatedAt: created.Add(time.Second),
	}
}

// entry returns an audit entry.
func entry(kind, session, workspace, tool, outcome string, tm time.Time) toolgate.AuditEntry {
	return toolgate.AuditEntry{
		Time: tm, Kind: kind, Session: session, Workspace: workspace, CallID: "c-" + kind,
		ApprovalID: "a-" + session, Tool: tool, Outcome: outcome, Who: "toolgate", Via: "rules",
		Reason: "matched " + tool, Data: json.RawMessage(`{"command": "ls -la",  "n":[1, 2]}`),
	}
}

// Comparisons: times are compared as instants (a store may return another
// zone), everything else exactly, raw JSON byte for byte.

func utc(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC()
}

func normApproval(a *toolgate.Approval) *toolgate.Approval {
	if a == nil {
		return nil
	}
	c := *a
	c.CreatedAt, c.ExpiresAt = utc(c.CreatedAt), utc(c.ExpiresAt)
	// A decision's JSON shape has [] for empty lists (Decision.MarshalJSON),
	// so a store that keeps it as JSON gives back empty lists for nil ones.
	d := &c.Decision
	if d.Subjects == nil {
		d.Subjects = []toolgate.SubjectResult{}
	}
	if d.Risks == nil {
		d.Risks = []toolgate.Risk{}
	}
	if d.Suggestions == nil {
		d.Suggestions = []toolgate.Suggestion{}
	}
	if c.Resolution != nil {
		r := *c.Resolution
		r.At = utc(r.At)
		c.Resolution = &r
	}
	return &c
}

func normGrant(g *toolgate.Grant) *toolgate.Grant {
	c := *g
	c.CreatedAt, c.ExpiresAt = utc(c.CreatedAt), utc(c.ExpiresAt)
	return &c
}

func normSession(s *toolgate.Session) *toolgate.Session {
	c := *s
	c.CreatedAt, c.UpdatedAt = utc(c.CreatedAt), utc(c.UpdatedAt)
	return &c
}

// normEntry also clears what the store assigns.
func normEntry(e toolgate.AuditEntry) toolgate.AuditEntry {
	e.Time = utc(e.Time)
	e.Seq, e.PrevHash, e.Hash = 0, "", ""
	return e
}

// same fails t unless got and want are deeply equal, showing both as JSON.
func same(t *testing.T, what string, got, want any) {
	t.Helper()
	if reflect.DeepEqual(got, want) {
		return
	}
	g, _ := json.MarshalIndent(got, "", "  ")
	w, _ := json.MarshalIndent(want, "", "  ")
	if bytes.Equal(g, w) {
		t.Fatalf("%s: values differ in a way JSON does not show (nil vs empty, raw JSON bytes, number types):\ngot  %#v\nwant %#v", what, got, want)
	}
	t.Fatalf("%s differs:\ngot  %s\nwant %s", what, g, w)
}

func sameApproval(t *testing.T, what string, got, want *toolgate.Approval) {
	t.Helper()
	same(t, what, normApproval(got), normApproval(want))
}

// ids returns the ids of approvals, grants or sessions.
func ids[T any](xs []T, id func(T) string) []string {
	out := []string{}
	for _, x := range xs {
		out = append(out, id(x))
	}
	return out
}

func approvalID(a *toolgate.Approval) string { return a.ID }
func grantID(g *toolgate.Grant) string       { return g.ID }
func sessionID(s *toolgate.Session) string   { return s.ID }
func seqs(es []toolgate.AuditEntry) []string {
	return ids(es, func(e toolgate.AuditEntry) string { return fmt.Sprint(e.Seq) })
}
