package server_test

import (
	"net/http"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/store"
)

// TestResubmittedCallIDOverHTTP: after a human approved `git push` as
// call tu9, POST /v1/calls with tu9 and other content is 409 and audited;
// the call the human saw, sent again, is still allowed.
func TestResubmittedCallIDOverHTTP(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.ask(shell("s1", "tu9", "git push origin main"))
	e.must(200, "POST", "/v1/approvals/"+a.ID+"/approve", e.Approver, map[string]any{}, nil)
	for _, c := range []toolgate.Call{
		shell("s1", "tu9", "rm -rf /"),
		{ID: "tu9", Session: "s1", Tool: "Read", Args: map[string]any{"file_path": "DATA/tokens.json"}},
		{ID: "tu9", Session: "s1", Tool: "Write", Args: map[string]any{"file_path": "~/.bashrc", "content": "x"}},
	} {
		for _, body := range []any{map[string]any{"call": c}, c} {
			r := e.do("POST", "/v1/calls?wait=1s", e.Agent, body)
			if r.status != http.StatusConflict || r.errMessage()[:9] != "conflict:" {
				t.Fatalf("resubmitted tu9 as %s %v: %d %s", c.Tool, c.Args, r.status, r.body)
			}
		}
	}
	got, err := e.Store.ListAudit(t.Context(), store.AuditFilter{Kind: approval.AuditCallConflict})
	if err != nil || len(got) != 6 {
		t.Fatalf("conflicts audited: %d, %v; want 6", len(got), err)
	}
	if action := e.final(shell("s1", "tu9", "git push origin main")); action != toolgate.Allow {
		t.Fatalf("the approved call resubmitted: %s", action)
	}
}

// TestApproverOverWideGrantOverHTTP: the grants of issue 10's report,
// answered by an approver, are 403 and write nothing (no grant, no audit
// entry, the rules document untouched); the suggestion is taken.
func TestApproverOverWideGrantOverHTTP(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.ask(shell("s1", "c1", "git push origin main"))
	before := e.counts()
	for _, body := range []map[string]any{
		{"scope": "workspace", "grant": "pattern", "pattern": "rm *"},
		{"scope": "global", "pattern": "*"},
		{"scope": "workspace", "grant": "tool"},
		{"scope": "session", "pattern": "*"},
	} {
		r := e.do("POST", "/v1/approvals/"+a.ID+"/approve", e.Approver, body)
		if r.status != http.StatusForbidden {
			t.Fatalf("approver %v: %d %s", body, r.status, r.body)
		}
	}
	if after := e.counts(); after != before {
		t.Fatalf("a refused grant changed something:\n%+v\n%+v", before, after)
	}
	var got toolgate.Approval
	e.must(200, "POST", "/v1/approvals/"+a.ID+"/approve", e.Approver, map[string]any{"scope": "workspace"}, &got)
	if got.Resolution.Pattern != "git push *" {
		t.Fatalf("suggested grant: %+v", got.Resolution)
	}
}
