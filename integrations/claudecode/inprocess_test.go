package claudecode_test

import (
	"context"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/claudecode"
	"github.com/toolgate/toolgate/internal/stacktest"
)

// TestRemoteWithoutActorIsAnAgent: a Remote over the broker in process
// that names no Actor acts as an agent credential, as it would over HTTP
// with an agent token: it cannot end the turn of a session another agent
// credential owns, which would clear the stop a hard deny set. The twin:
// named as the session's owner, it ends the turn.
func TestRemoteWithoutActorIsAnAgent(t *testing.T) {
	t.Parallel()
	s := stacktest.New(t)
	g := s.Broker.Gate()
	ctx := context.Background()
	owner := toolgate.Actor{Name: "agent-1", Via: "hook", Agent: true}
	human := toolgate.WithActor(ctx, toolgate.Actor{Name: "alice", Via: "test"})
	res, err := g.Submit(toolgate.WithActor(ctx, owner), toolgate.SubmitRequest{Call: toolgate.Call{
		ID: "c1", Session: "s1", Tool: "Bash", Args: map[string]any{"command": "git push origin main"},
	}})
	if err != nil || res.Approval == nil {
		t.Fatalf("submit: %+v %v, want a pending approval", res, err)
	}
	if _, err := g.Deny(human, res.Approval.ID, toolgate.DenyRequest{Mode: toolgate.DenyHard}); err != nil {
		t.Fatal(err)
	}
	stopped := func() bool {
		sess, err := g.Session(human, "s1")
		if err != nil {
			t.Fatal(err)
		}
		return sess.Stopped
	}
	if !stopped() {
		t.Fatal("a hard deny did not stop the session")
	}
	if err := (&claudecode.Remote{Gate: g}).EndTurn(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	if !stopped() {
		t.Error("a Remote that names no actor ended another credential's turn, clearing its stop")
	}
	if err := (&claudecode.Remote{Gate: g, Actor: owner}).EndTurn(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	if stopped() {
		t.Error("the owner's Remote did not end its turn")
	}
}
