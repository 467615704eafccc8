package server_test

import (
	"fmt"
	"testing"

	"github.com/toolgate/toolgate"
)

// TestSessionWaiting: calls submitted one at a time with no batch get the
// other pending calls of their session as batch context on every read,
// whichever way the approvals are listed; answered calls drop out.
func TestSessionWaiting(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var ids []string
	for i := range 8 {
		ids = append(ids, e.ask(shell("s1", fmt.Sprint("c", i), fmt.Sprint("make t", i))).ID)
	}
	lone := e.ask(shell("s2", "x", "make lone")).ID
	check := func(what string, as []*toolgate.Approval, count int) {
		t.Helper()
		for _, a := range as {
			w := a.SessionWaiting
			if a.ID == lone {
				if w != nil {
					t.Fatalf("%s: a call alone in its session has %+v", what, w)
				}
				continue
			}
			if w == nil || w.Count != count || len(w.Calls) != min(count, toolgate.MaxWaitingShown) {
				t.Fatalf("%s: %s has %+v, want %d waiting", what, a.ID, w, count)
			}
			for _, c := range w.Calls {
				if c.ApprovalID == a.ID || c.Tool != "Bash" || c.Summary == "" {
					t.Fatalf("%s: %s lists %+v", what, a.ID, c)
				}
			}
		}
	}
	// Each read decodes into a new value: json reuses the structs of a
	// slice it decodes into again, keeping fields an answer leaves out.
	list := func(query string) []*toolgate.Approval {
		t.Helper()
		var l struct{ Approvals []*toolgate.Approval }
		e.must(200, "GET", "/v1/approvals"+query, e.Approver, nil, &l)
		return l.Approvals
	}
	check("every pending approval", list("?status=pending"), 7)
	check("one session", list("?session=s1&status=pending"), 7)
	check("a page", list("?status=pending&limit=3"), 7)
	a := e.get(ids[3])
	check("one approval", []*toolgate.Approval{a}, 7)

	for _, id := range ids[:6] {
		e.must(200, "POST", "/v1/approvals/"+id+"/approve", e.Approver, map[string]any{}, nil)
	}
	check("after answers", list("?status=pending"), 1)
	for _, a := range list("?session=s1") {
		if a.Status != toolgate.StatusPending && a.SessionWaiting != nil {
			t.Fatalf("an answered approval carries %+v", a.SessionWaiting)
		}
	}
}
