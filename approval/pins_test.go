package approval_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
)

// TestRecordPin: an MCP proxy's pin is audited in its own session; an
// agent credential cannot record one in another's session, nor name an
// approval that did not accept a change of that tool (pending, of
// another tool, or one no person was required for), nor send a malformed
// hash, while the twin of each is recorded.
func TestRecordPin(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	proxy := toolgate.Actor{Name: "proxy", Via: "mcp", Agent: true}
	other := toolgate.Actor{Name: "other", Via: "mcp", Agent: true}
	call := func(id string) toolgate.Call {
		return toolgate.Call{ID: id, Session: "mcp-s", Tool: "mcp__demo__write_note", Args: map[string]any{"note": id}}
	}
	submit := func(c toolgate.Call, confirm string) *toolgate.Approval {
		t.Helper()
		r, err := e.broker.Submit(ctx, toolgate.SubmitRequest{Call: c, Confirm: confirm, By: proxy})
		if err != nil || r.Approval == nil {
			t.Fatalf("submit: %+v %v", r, err)
		}
		return r.Approval
	}
	changed := submit(call("c1"), "the definition changed")
	plain := submit(call("c2"), "")
	if _, err := e.broker.Approve(ctx, plain.ID, toolgate.ApproveRequest{}, human); err != nil {
		t.Fatal(err)
	}
	pending := submit(call("c3"), "the definition changed")
	if _, err := e.broker.Approve(ctx, changed.ID, toolgate.ApproveRequest{}, human); err != nil {
		t.Fatal(err)
	}
	hash := "sha256:" + strings.Repeat("ab", 32)
	prev := "sha256:" + strings.Repeat("cd", 32)
	ev := func(approvalID string) toolgate.PinEvent {
		return toolgate.PinEvent{Session: "mcp-s", Server: "demo", Tool: "write_note", Hash: hash, Previous: prev, By: "approved on the toolgate gateway", ApprovalID: approvalID}
	}
	for _, tc := range []struct {
		name string
		ev   toolgate.PinEvent
		by   toolgate.Actor
		want toolgate.ErrorCode // "" records it
	}{
		{"first pin", toolgate.PinEvent{Session: "mcp-s", Server: "demo", Tool: "write_note", Hash: hash, By: "first allowed call"}, proxy, ""},
		{"accepted change", ev(changed.ID), proxy, ""},
		{"another credential's session", ev(changed.ID), other, toolgate.ENotFound},
		{"no such session", toolgate.PinEvent{Session: "nope", Server: "demo", Tool: "write_note", Hash: hash, By: "x"}, proxy, toolgate.ENotFound},
		{"a pending approval", ev(pending.ID), proxy, toolgate.EConflict},
		{"an approval no person was required for", ev(plain.ID), proxy, toolgate.EConflict},
		{"an approval of another tool", func() toolgate.PinEvent { x := ev(changed.ID); x.Tool = "delete_all"; return x }(), proxy, toolgate.EConflict},
		{"malformed hash", func() toolgate.PinEvent { x := ev(""); x.Hash = "md5:1"; return x }(), proxy, toolgate.EInvalid},
		{"server name with a separator", func() toolgate.PinEvent { x := ev(""); x.Server = "a/b"; return x }(), proxy, toolgate.EInvalid},
	} {
		err := e.broker.RecordPin(toolgate.WithActor(ctx, tc.by), tc.ev)
		if got := toolgate.ErrorCodeOf(err); (tc.want == "" && err != nil) || (tc.want != "" && got != tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	entries, err := e.broker.Audit(ctx, toolgate.AuditFilter{Kind: toolgate.AuditMCPPinned})
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 || entries[0].Outcome != "pinned" || entries[1].Outcome != "re-pinned" || entries[1].ApprovalID != changed.ID {
		t.Errorf("recorded %+v", entries)
	}
}
