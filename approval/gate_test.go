package approval_test

import (
	"context"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
)

// TestGateRefusesWithoutActor: the Gate answers, changes and lists
// nothing for a context that carries no actor, or an actor with no name
// (it would be recorded as done by nobody): each is unauthorized and the
// store is unchanged. The twin: the same calls as a named approver or
// admin go through.
func TestGateRefusesWithoutActor(t *testing.T) {
	e := newEnv(t)
	g := e.broker.Gate()
	a := e.ask(t, shellCall("s1", "c1", "git push origin main"))
	gr, err := g.AddGrant(toolgate.WithActor(t.Context(), root), toolgate.Grant{Scope: toolgate.ScopeSession, Session: "s1", Tool: "Bash", Pattern: "make *"})
	if err != nil {
		t.Fatal(err)
	}
	count := func() [4]int {
		ctx := context.Background()
		pend, _ := e.store.ListApprovals(ctx, store.ApprovalFilter{Status: toolgate.StatusPending})
		grants, _ := e.store.ListGrants(ctx, store.GrantFilter{})
		audit, _ := e.store.ListAudit(ctx, store.AuditFilter{})
		s, _ := e.store.GetSession(ctx, "s1")
		mode := 0
		if s != nil {
			mode = int(s.Mode)
		}
		return [4]int{len(pend), len(grants), len(audit), mode}
	}
	calls := []struct {
		name string
		do   func(ctx context.Context) error
	}{
		{"approve", func(ctx context.Context) error { _, err := g.Approve(ctx, a.ID, toolgate.ApproveRequest{}); return err }},
		{"deny", func(ctx context.Context) error { _, err := g.Deny(ctx, a.ID, toolgate.DenyRequest{}); return err }},
		{"cancel", func(ctx context.Context) error { _, err := g.Cancel(ctx, a.ID, "gone"); return err }},
		{"set mode", func(ctx context.Context) error { _, err := g.SetMode(ctx, "s1", toolgate.ModeYolo); return err }},
		{"abort", func(ctx context.Context) error { _, err := g.Abort(ctx, "s1"); return err }},
		{"end turn", func(ctx context.Context) error { _, err := g.EndTurn(ctx, "s1"); return err }},
		{"add grant", func(ctx context.Context) error {
			_, err := g.AddGrant(ctx, toolgate.Grant{Scope: toolgate.ScopeGlobal, Tool: "Bash"})
			return err
		}},
		{"revoke grant", func(ctx context.Context) error { return g.RevokeGrant(ctx, gr.ID) }},
		{"approvals", func(ctx context.Context) error { _, err := g.Approvals(ctx, toolgate.ApprovalFilter{}); return err }},
		{"session", func(ctx context.Context) error { _, err := g.Session(ctx, "s1"); return err }},
		{"sessions", func(ctx context.Context) error { _, err := g.Sessions(ctx, toolgate.SessionFilter{}); return err }},
		{"grants", func(ctx context.Context) error { _, err := g.Grants(ctx, toolgate.GrantFilter{}); return err }},
		{"audit", func(ctx context.Context) error { _, err := g.Audit(ctx, toolgate.AuditFilter{}); return err }},
		{"grant suggestions", func(ctx context.Context) error { return e.broker.GrantSuggestions(ctx, a.ID) }},
		{"resume", func(ctx context.Context) error {
			_, err := e.broker.ResumeByToken(ctx, "no such token", true, nil)
			return err
		}},
	}
	before := count()
	for _, ctx := range []struct {
		name string
		ctx  context.Context
	}{
		{"no actor", context.Background()},
		{"a nameless actor", toolgate.WithActor(context.Background(), toolgate.Actor{Via: "test"})},
		{"a nameless admin", toolgate.WithActor(context.Background(), toolgate.Actor{Via: "test", Admin: true})},
	} {
		for _, c := range calls {
			if err := c.do(ctx.ctx); toolgate.ErrorCodeOf(err) != toolgate.EUnauthorized {
				t.Errorf("%s with %s: %v, want unauthorized", c.name, ctx.name, err)
			}
		}
	}
	if after := count(); after != before {
		t.Fatalf("refused calls changed the store: %v, then %v", before, after)
	}
	// The twins, as a named approver (reads, the answer) and admin.
	alice := toolgate.WithActor(context.Background(), human)
	for _, c := range calls[8:12] {
		if err := c.do(alice); err != nil {
			t.Errorf("%s as %s: %v", c.name, human.Name, err)
		}
	}
	if err := g.RevokeGrant(toolgate.WithActor(context.Background(), root), gr.ID); err != nil {
		t.Errorf("revoke grant as root: %v", err)
	}
	if got, err := g.Approve(alice, a.ID, toolgate.ApproveRequest{}); err != nil || got.Status != toolgate.StatusApproved || got.Resolution.By != human.Name {
		t.Errorf("approve as %s: %+v %v", human.Name, got, err)
	}
}

// TestGateRefusesAgent: the Gate is what decides who may do what (the
// HTTP API's routes through it only ask for a credential), so it refuses
// an agent credential everything that answers, widens or reads beyond its
// own calls, even in the session the agent itself opened, and an
// approver what needs an admin: each is forbidden and the store is
// unchanged. The twins: the agent reads, waits on and cancels its own
// call and ends its own turn; an admin does the rest.
func TestGateRefusesAgent(t *testing.T) {
	e := newEnv(t)
	g := e.broker.Gate()
	bot := toolgate.Actor{Name: "bot", Via: "api", Agent: true}
	asBot := toolgate.WithActor(context.Background(), bot)
	res, err := g.Submit(asBot, toolgate.SubmitRequest{Call: shellCall("s1", "c1", "git push origin main")})
	if err != nil || res.Approval == nil {
		t.Fatalf("submit as the agent: %+v %v", res, err)
	}
	a := res.Approval
	gr, err := g.AddGrant(toolgate.WithActor(context.Background(), root), toolgate.Grant{Scope: toolgate.ScopeSession, Session: "s1", Tool: "Bash", Pattern: "make *"})
	if err != nil {
		t.Fatal(err)
	}
	count := func() [3]int {
		ctx := context.Background()
		pend, _ := e.store.ListApprovals(ctx, store.ApprovalFilter{Status: toolgate.StatusPending})
		grants, _ := e.store.ListGrants(ctx, store.GrantFilter{})
		s, _ := e.store.GetSession(ctx, "s1")
		mode := -1
		if s != nil {
			mode = int(s.Mode)
		}
		return [3]int{len(pend), len(grants), mode}
	}
	approverOnly := []struct {
		name string
		do   func(ctx context.Context) error
	}{
		{"approve", func(ctx context.Context) error { _, err := g.Approve(ctx, a.ID, toolgate.ApproveRequest{}); return err }},
		{"approve wider", func(ctx context.Context) error {
			_, err := g.Approve(ctx, a.ID, toolgate.ApproveRequest{Scope: toolgate.ScopeGlobal, Pattern: "*"})
			return err
		}},
		{"deny", func(ctx context.Context) error { _, err := g.Deny(ctx, a.ID, toolgate.DenyRequest{}); return err }},
		{"set mode", func(ctx context.Context) error { _, err := g.SetMode(ctx, "s1", toolgate.ModeYolo); return err }},
		{"abort", func(ctx context.Context) error { _, err := g.Abort(ctx, "s1"); return err }},
		{"approvals", func(ctx context.Context) error {
			_, err := g.Approvals(ctx, toolgate.ApprovalFilter{Session: "s1"})
			return err
		}},
		{"session", func(ctx context.Context) error { _, err := g.Session(ctx, "s1"); return err }},
		{"sessions", func(ctx context.Context) error { _, err := g.Sessions(ctx, toolgate.SessionFilter{}); return err }},
		{"grants", func(ctx context.Context) error {
			_, err := g.Grants(ctx, toolgate.GrantFilter{Session: "s1"})
			return err
		}},
	}
	adminOnly := []struct {
		name string
		do   func(ctx context.Context) error
	}{
		{"add grant", func(ctx context.Context) error {
			_, err := g.AddGrant(ctx, toolgate.Grant{Scope: toolgate.ScopeSession, Session: "s1", Tool: "Bash", Pattern: "*"})
			return err
		}},
		{"revoke grant", func(ctx context.Context) error { return g.RevokeGrant(ctx, gr.ID) }},
		{"audit", func(ctx context.Context) error { _, err := g.Audit(ctx, toolgate.AuditFilter{}); return err }},
	}
	alice := toolgate.WithActor(context.Background(), human)
	before := count()
	for _, c := range append(approverOnly, adminOnly...) {
		if err := c.do(asBot); toolgate.ErrorCodeOf(err) != toolgate.EForbidden {
			t.Errorf("%s as an agent: %v, want forbidden", c.name, err)
		}
	}
	for _, c := range adminOnly {
		if err := c.do(alice); toolgate.ErrorCodeOf(err) != toolgate.EForbidden {
			t.Errorf("%s as an approver: %v, want forbidden", c.name, err)
		}
	}
	if after := count(); after != before {
		t.Fatalf("refused calls changed the store: %v, then %v", before, after)
	}
	if got, err := g.Approval(asBot, a.ID); err != nil || got.Status != toolgate.StatusPending {
		t.Fatalf("the agent reads its own call: %+v %v", got, err)
	}
	// The twins: what an agent may do with its own session, then the rest
	// as an admin.
	if _, err := g.EndTurn(asBot, "s1"); err != nil {
		t.Errorf("end turn as the agent: %v", err)
	}
	if got, err := g.Cancel(asBot, a.ID, "gone"); err != nil || got.Status != toolgate.StatusCancelled {
		t.Errorf("cancel as the agent: %+v %v", got, err)
	}
	root := toolgate.WithActor(context.Background(), root)
	for _, c := range append(approverOnly[3:], adminOnly...) {
		if err := c.do(root); err != nil {
			t.Errorf("%s as an admin: %v", c.name, err)
		}
	}
}
