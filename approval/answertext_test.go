package approval_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
)

// TestApproverTextMasked: what a person types into an answer — a deny's
// reason and feedback, a question's answer, a cancel's reason — is
// masked in the resolution, the audit log and the store, and handed to
// the agent masked; edited arguments or a grant pattern holding a secret
// are refused (stored masked, they would hand the agent, or the rules,
// the masked text), while their twins without one are taken.
func TestApproverTextMasked(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	key := "AKIA" + "Q3ZR7TX2LM4KD8WP"
	token := "ghp_" + "R2d2C3p0Xw1ng8Fa1c0nM1ll3nn1umHanS0L0"
	e := newEnv(t)

	denied := e.ask(t, shellCall("s1", "c1", "make deploy"))
	if _, err := e.broker.Deny(ctx, denied.ID, toolgate.DenyRequest{Mode: toolgate.DenySoft, Reason: "use key " + key, Feedback: "or the token " + token}, human); err != nil {
		t.Fatal(err)
	}
	if r := e.get(t, denied.ID).Resolution; !strings.Contains(r.Reason, "AKIA…[redacted]") || !strings.Contains(r.Feedback, "ghp_…[redacted]") {
		t.Errorf("deny: %+v", r)
	}

	q := e.ask(t, toolgate.Call{ID: "q1", Session: "s2", Tool: "AskUserQuestion", Args: map[string]any{"question": "Which key?"}})
	answer, _ := json.Marshal("the key is " + key)
	if _, err := e.broker.Approve(ctx, q.ID, toolgate.ApproveRequest{Answer: answer}, human); err != nil {
		t.Fatal(err)
	}
	if r := e.get(t, q.ID).Resolution; !strings.Contains(string(r.Answer), "AKIA…[redacted]") {
		t.Errorf("answer: %s", r.Answer)
	}

	edited := e.ask(t, shellCall("s3", "c3", "make deploy"))
	mods := func(cmd string) json.RawMessage {
		b, _ := json.Marshal(map[string]any{"command": cmd})
		return b
	}
	if _, err := e.broker.Approve(ctx, edited.ID, toolgate.ApproveRequest{Modifications: mods("AWS_ACCESS_KEY_ID=" + key + " make deploy")}, human); toolgate.ErrorCodeOf(err) != toolgate.EInvalid {
		t.Errorf("edited arguments with a secret: %v", err)
	}
	if _, err := e.broker.Approve(ctx, edited.ID, toolgate.ApproveRequest{Scope: toolgate.ScopeSession, Pattern: "curl -H 'Authorization: Bearer " + token + "' *"}, human); toolgate.ErrorCodeOf(err) != toolgate.EInvalid {
		t.Errorf("a grant pattern with a secret: %v", err)
	}
	if got := e.get(t, edited.ID); got.Status != toolgate.StatusPending {
		t.Fatalf("a refused answer changed the approval: %s", got.Status)
	}
	if _, err := e.broker.Approve(ctx, edited.ID, toolgate.ApproveRequest{Modifications: mods("make deploy-staging")}, human); err != nil {
		t.Errorf("edited arguments without a secret: %v", err)
	}

	cancelled := e.ask(t, shellCall("s4", "c4", "make deploy"))
	if _, err := e.broker.Cancel(ctx, cancelled.ID, "gone, token "+token, human); err != nil {
		t.Fatal(err)
	}
	if r := e.get(t, cancelled.ID).Resolution; !strings.Contains(r.Reason, "ghp_…[redacted]") {
		t.Errorf("cancel: %+v", r)
	}

	entries, err := e.broker.Audit(ctx, store.AuditFilter{})
	if err != nil {
		t.Fatal(err)
	}
	audit, _ := json.Marshal(entries)
	if strings.Contains(string(audit), key) || strings.Contains(string(audit), token) {
		t.Errorf("the audit log holds a secret an approver typed")
	}
	e.broker.Close()
	filepath.WalkDir(e.dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		b, _ := os.ReadFile(path)
		if strings.Contains(string(b), key) || strings.Contains(string(b), token) {
			t.Errorf("%s holds a secret an approver typed", path)
		}
		return nil
	})
}
