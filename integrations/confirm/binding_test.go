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
	"github.com/toolgate/toolgate/tokens"
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

// TestSessionlessPerCredential: seed 004's hosts often send no sessionId.
// Each agent credential's such calls are in its own default session, so
// the second host is served (not told the session does not exist) and
// each is answered on its own.
func TestSessionlessPerCredential(t *testing.T) {
	t.Parallel()
	s := newStack(t, confirm.Config{})
	second, err := s.Tokens.Create("host-2", tokens.RoleAgent)
	if err != nil {
		t.Fatal(err)
	}
	outs := make(chan httpResp, 2)
	for _, tok := range []string{s.Agent, second} {
		go func() {
			outs <- s.post("/api/tool-confirmation", tok, map[string]any{"toolName": "shell", "args": map[string]any{"command": "git push origin main"}, "callId": "c1"})
		}()
	}
	var pending []*toolgate.Approval
	for deadline := time.Now().Add(10 * time.Second); len(pending) < 2 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if pending, err = s.Broker.List(t.Context(), store.ApprovalFilter{Status: toolgate.StatusPending}); err != nil {
			t.Fatal(err)
		}
	}
	if len(pending) != 2 {
		t.Fatalf("pending: %d, want one per host", len(pending))
	}
	sessions := map[string]bool{}
	for _, a := range pending {
		sessions[a.Call.Session] = true
		if r := s.answer(a.ID, map[string]any{"approved": true}); r.status != 200 {
			t.Fatalf("answer %s: %d %s", a.ID, r.status, r.body)
		}
	}
	if !sessions["default:host"] || !sessions["default:host-2"] {
		t.Fatalf("sessions: %v", sessions)
	}
	for range 2 {
		r := receive(t, outs)
		var out confirm.Outcome
		if r.status != 200 || json.Unmarshal([]byte(r.body), &out) != nil || !out.Approved {
			t.Fatalf("host's outcome: %d %s", r.status, r.body)
		}
	}
	// Neither may name the other's.
	if r := s.post("/api/tool-confirmation", second, map[string]any{"toolName": "shell", "args": map[string]any{"command": "ls"}, "sessionId": "default:host", "callId": "c2"}); r.status != http.StatusNotFound {
		t.Fatalf("host-2 in host's default session: %d %s", r.status, r.body)
	}
}
