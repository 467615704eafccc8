package mcpproxy

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/mock"
)

// TestUserAnswerAfterGatewayAnswer: the user said yes in the client while
// someone answered on the gateway. Where the gateway's answer can be read
// it wins; where it cannot, the call is refused, since it may have been a
// deny. The user's own no and a gateway that simply will not take an
// agent token's answer (the proxy's own answer then stands) are the twins.
func TestUserAnswerAfterGatewayAnswer(t *testing.T) {
	t.Parallel()
	conflict := toolgate.Errorf(toolgate.EConflict, "approval a1 is already answered")
	forbidden := toolgate.Errorf(toolgate.EForbidden, "an agent token cannot answer")
	unreadable := toolgate.Errorf(toolgate.EUnavailable, "gateway down")
	denied := &toolgate.Approval{ID: "a1", Status: toolgate.StatusDenied, Resolution: &toolgate.Resolution{Reason: "no"}}
	for _, tc := range []struct {
		name      string
		answer    string
		answerErr error
		current   *toolgate.Approval
		readErr   error
		allow     bool
	}{
		{name: "gateway denied first, readable", answer: answerOnce, answerErr: conflict, current: denied, allow: false},
		{name: "gateway answered first, unreadable", answer: answerOnce, answerErr: conflict, readErr: unreadable, allow: false},
		{name: "gateway answered first, unreadable, always", answer: answerAlways, answerErr: conflict, readErr: unreadable, allow: false},
		{name: "user no, gateway answered first, unreadable", answer: answerDeny, answerErr: conflict, readErr: unreadable, allow: false},
		{name: "agent token: the proxy honours the user's yes", answer: answerOnce, answerErr: forbidden, allow: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			gw := &mock.Gate{
				ApproveFn: func(context.Context, string, toolgate.ApproveRequest) (*toolgate.Approval, error) {
					return nil, tc.answerErr
				},
				DenyFn: func(context.Context, string, toolgate.DenyRequest) (*toolgate.Approval, error) {
					return nil, tc.answerErr
				},
				ApprovalFn: func(context.Context, string) (*toolgate.Approval, error) {
					return tc.current, tc.readErr
				},
				CancelFn: func(context.Context, string, string) (*toolgate.Approval, error) {
					return nil, conflict
				},
			}
			p := &Proxy{cfg: Config{Gateway: gw}, log: slog.New(slog.NewTextHandler(io.Discard, nil)), always: map[string]bool{}}
			b := &bridge{p: p, allowed: map[string]bool{}}
			v := b.userAnswered(context.Background(), gw, "a1", &toolgate.Call{Tool: "mcp__fs__write_file"}, tc.answer)
			if v.allow != tc.allow {
				t.Fatalf("allow = %v (%s), want %v", v.allow, v.reason, tc.allow)
			}
		})
	}
}
