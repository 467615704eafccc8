package notify_test

import (
	"context"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/notify"
)

// patternless answers approvals that have no suggested pattern and
// records whether anything was approved.
type patternless struct{ approved bool }

func (p *patternless) Approval(context.Context, string) (*toolgate.Approval, error) {
	return &toolgate.Approval{ID: "ap_1", Status: toolgate.StatusPending, Call: toolgate.Call{Tool: "Bash", Args: map[string]any{"command": "eval \"$X\""}}}, nil
}

func (p *patternless) Approve(context.Context, string, toolgate.ApproveRequest) (*toolgate.Approval, error) {
	p.approved = true
	return &toolgate.Approval{Status: toolgate.StatusApproved}, nil
}

func (p *patternless) Deny(context.Context, string, toolgate.DenyRequest) (*toolgate.Approval, error) {
	return &toolgate.Approval{Status: toolgate.StatusDenied}, nil
}

// TestAnswersWithoutPattern: a call with no pattern offers only Approve
// and Deny, and a Session, 30 min or Always answer to it is refused with
// nothing approved; Approve once still works.
func TestAnswersWithoutPattern(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		ans     notify.Answer
		offered bool
	}{
		{notify.AnswerOnce, true},
		{notify.AnswerSession, false},
		{notify.AnswerSession30m, false},
		{notify.AnswerAlways, false},
		{notify.AnswerDeny, true},
	} {
		t.Run(string(tc.ans), func(t *testing.T) {
			t.Parallel()
			an := &patternless{}
			a, _ := an.Approval(t.Context(), "ap_1")
			if got := notify.Offered(a, tc.ans); got != tc.offered {
				t.Fatalf("Offered = %v, want %v", got, tc.offered)
			}
			_, err := notify.Apply(t.Context(), an, a.ID, tc.ans, toolgate.Actor{Name: "alice", Via: "test"})
			if tc.offered && err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if !tc.offered && (toolgate.ErrorCodeOf(err) != toolgate.EInvalid || an.approved) {
				t.Fatalf("Apply: %v, approved %v; want refused, nothing approved", err, an.approved)
			}
		})
	}
}
