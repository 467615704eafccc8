package approval_test

import (
	"context"
	"testing"

	"github.com/toolgate/toolgate"
)

// Every suggestion the gate makes for a command is a grant an approver
// may give: the coverage rules never refuse the gate's own advice.
func TestSuggestionsAreGrantable(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{
		"git push origin main", "FOO=1 make build", "./build.sh --fast", "npm run test -- --watch",
		"cd src && make", "ls", "docker compose up -d", "env X=1 go test ./...", "sudo -u bob ls",
		"python3 -m pytest tests/", "kubectl get pods -n prod", "/usr/bin/make all",
	} {
		e := newEnv(t)
		r := e.submit(t, shellCall("s1", "c1", cmd))
		if r.Approval == nil || len(r.Decision.Suggestions) == 0 {
			continue // no suggestion to check
		}
		_, err := e.broker.Approve(context.Background(), r.Approval.ID, toolgate.ApproveRequest{Scope: toolgate.ScopeWorkspace}, human)
		if err != nil {
			t.Errorf("%s: suggestion %v refused: %v", cmd, r.Decision.Suggestions, err)
		}
	}
}
