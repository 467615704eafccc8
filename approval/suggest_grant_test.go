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
		// Every one of them, as the seed tRPC protocol's "always" grants.
		e = newEnv(t)
		r = e.submit(t, shellCall("s1", "c1", cmd))
		if err := e.broker.GrantSuggestions(toolgate.WithActor(context.Background(), human), r.Approval.ID); err != nil {
			t.Errorf("%s: suggestions %v refused: %v", cmd, r.Decision.Suggestions, err)
		}
	}
}

// TestGrantSuggestionsOfPendingOnly: a call answered meanwhile (denied
// by another approver) has none of its suggestions granted; the twin, the
// same call pending, gets them all and the cascade approves it.
func TestGrantSuggestionsOfPendingOnly(t *testing.T) {
	t.Parallel()
	const cmd = "npm install && npm test"
	ctx := toolgate.WithActor(context.Background(), human)
	e := newEnv(t)
	a := e.ask(t, shellCall("s1", "c1", cmd))
	if len(a.Decision.Suggestions) < 2 {
		t.Fatalf("suggestions %v, want one per command", a.Decision.Suggestions)
	}
	if _, err := e.broker.Deny(ctx, a.ID, toolgate.DenyRequest{Mode: toolgate.DenySoft}, human); err != nil {
		t.Fatal(err)
	}
	if err := e.broker.GrantSuggestions(ctx, a.ID); toolgate.ErrorCodeOf(err) != toolgate.EConflict {
		t.Errorf("suggestions of a denied call: %v, want a conflict", err)
	}
	if gs, err := e.broker.Gate().Grants(ctx, toolgate.GrantFilter{}); err != nil || len(gs) != 0 {
		t.Errorf("grants after a denied call's suggestions: %+v %v, want none", gs, err)
	}

	e = newEnv(t)
	a = e.ask(t, shellCall("s1", "c1", cmd))
	if err := e.broker.GrantSuggestions(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if gs, err := e.broker.Gate().Grants(ctx, toolgate.GrantFilter{}); err != nil || len(gs) != len(a.Decision.Suggestions) {
		t.Errorf("grants %+v %v, want one per suggestion %v", gs, err, a.Decision.Suggestions)
	}
	if got, err := e.broker.Get(context.Background(), a.ID); err != nil || got.Status != toolgate.StatusApproved {
		t.Errorf("the pending call after its rules were granted: %+v %v, want approved by the cascade", got, err)
	}
}
