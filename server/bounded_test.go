package server_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
)

// TestCommandKeptOnce submits a 50 KB command whose analysis once
// answered with 303 MB (issue 13): the call keeps the command, the
// decision in the answer, the approval, its event and the audit log keep
// only clipped copies of its subjects.
func TestCommandKeptOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const depth = 10000
	cmd := "echo " + strings.Repeat("$(", depth) + "x" + strings.Repeat(")", depth) + "; " +
		strings.Repeat("echo "+strings.Repeat("y", 500)+"; ", 40)
	const slack = toolgate.MaxDecisionText + 64<<10 // the decision's own fields and JSON

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events := e.sse(ctx, "")
	r := e.must(200, "POST", "/v1/calls", e.Agent, map[string]any{"call": shell("s1", "c1", cmd)}, nil)
	if len(r.body) > len(cmd)+2*slack {
		t.Errorf("answer is %d bytes for a %d-byte command", len(r.body), len(cmd))
	}
	var res toolgate.Result
	r.decode(t, &res)
	if res.Decision.Action != toolgate.Ask || res.Approval == nil {
		t.Fatalf("decision %s (%s), want a pending approval", res.Decision.Action, res.Decision.Reason)
	}
	if res.Approval.Call.Args["command"] != cmd {
		t.Errorf("the call does not keep the command whole")
	}
	checkClipped(t, "answer", &res.Decision)
	budget := false
	for _, rk := range res.Decision.Risks {
		budget = budget || rk.Code == "analysis-budget"
	}
	if !budget {
		t.Errorf("no analysis-budget risk in %+v", res.Decision.Risks)
	}

	ev := next(t, events, "approval.requested", func(s sseEvent) bool { return s.typ == string(toolgate.EventApprovalRequested) })
	if ev.ev.Approval == nil {
		t.Fatalf("event without approval: %+v", ev)
	}
	checkClipped(t, "event", &ev.ev.Approval.Decision)

	stored, err := e.Store.GetApproval(context.Background(), res.Approval.ID)
	if err != nil {
		t.Fatal(err)
	}
	checkClipped(t, "store", &stored.Decision)
	entries, err := e.Store.ListAudit(context.Background(), store.AuditFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range entries {
		if len(a.Data) > len(cmd)+slack || len(a.Reason) > toolgate.MaxReasonText+len(toolgate.Ellipsis) {
			t.Errorf("audit entry %s keeps %d bytes of data for a %d-byte command", a.Kind, len(a.Data), len(cmd))
		}
	}
}

func checkClipped(t *testing.T, where string, d *toolgate.Decision) {
	t.Helper()
	data, _ := json.Marshal(d)
	if len(data) > toolgate.MaxDecisionText+64<<10 {
		t.Errorf("%s: decision is %d bytes", where, len(data))
	}
	long := toolgate.MaxSubjectText + len(toolgate.Ellipsis)
	clipped := 0
	for _, s := range d.Subjects {
		if len(s.Text) > long {
			t.Errorf("%s: subject of %d bytes", where, len(s.Text))
		}
		if strings.HasSuffix(s.Text, toolgate.Ellipsis) {
			clipped++
		}
	}
	if clipped == 0 {
		t.Errorf("%s: no subject was clipped: %d subjects", where, len(d.Subjects))
	}
	for _, r := range d.Risks {
		if len(r.Subject) > long || len(r.Reason) > toolgate.MaxReasonText+len(toolgate.Ellipsis) {
			t.Errorf("%s: risk %s keeps %d+%d bytes", where, r.Code, len(r.Subject), len(r.Reason))
		}
	}
}
