package confirm_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/integrations/confirm"
	"github.com/toolgate/toolgate/store"
)

// TestResubmittedCallID is issue 10's attack through the seed's
// confirmation endpoint: after a human approved a call as callId c9, the
// host reuses c9 for other calls. Each is 409 and audited; the approved
// call sent again is still approved.
func TestResubmittedCallID(t *testing.T) {
	t.Parallel()
	s := newStack(t, confirm.Config{})
	sub := map[string]any{"toolName": "shell", "args": map[string]any{"command": "git push origin main"}, "sessionId": "s9", "callId": "c9"}
	done := s.submit(sub)
	a := waitPending(t, s)
	if r := s.answer(a, map[string]any{"approved": true}); r.status != 200 {
		t.Fatalf("answer: %d %s", r.status, r.body)
	}
	if out := receive(t, done); !out.Approved {
		t.Fatalf("approved call: %+v", out)
	}
	for _, attack := range []map[string]any{
		{"toolName": "shell", "args": map[string]any{"command": "rm -rf /"}, "sessionId": "s9", "callId": "c9"},
		{"toolName": "read_file", "args": map[string]any{"path": "DATA/tokens.json"}, "sessionId": "s9", "callId": "c9"},
		{"toolName": "shell", "args": map[string]any{"command": "git push origin main"}, "sessionId": "s9", "callId": "c9", "workerId": "other"},
	} {
		r := s.post("/api/tool-confirmation", s.Agent, attack)
		if r.status != http.StatusConflict || !strings.Contains(r.body, "already submitted with other content") {
			t.Fatalf("callId reused for %v: %d %s", attack, r.status, r.body)
		}
	}
	conflicts, err := s.Store.ListAudit(t.Context(), store.AuditFilter{Kind: approval.AuditCallConflict})
	if err != nil || len(conflicts) != 3 {
		t.Fatalf("conflicts audited: %d %v", len(conflicts), err)
	}
	r := s.post("/api/tool-confirmation", s.Agent, sub)
	var out confirm.Outcome
	if r.status != 200 || json.Unmarshal([]byte(r.body), &out) != nil || !out.Approved {
		t.Fatalf("the approved call again: %d %s", r.status, r.body)
	}
}

// waitPending returns the execution id of the one pending confirmation.
func waitPending(t *testing.T, s *stack) string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		l, err := s.Broker.List(t.Context(), store.ApprovalFilter{Status: toolgate.StatusPending})
		if err != nil {
			t.Fatal(err)
		}
		if len(l) == 1 {
			return l[0].ID
		}
	}
	t.Fatal("no pending confirmation")
	return ""
}
