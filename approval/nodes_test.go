package approval_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/postgres"
)

// nodes starts n brokers sharing one PostgreSQL schema (and one rules
// directory), as n gateway nodes would; the test skips without
// TOOLGATE_TEST_POSTGRES.
func nodes(t *testing.T, n int, opts ...approval.Option) []*approval.Broker {
	t.Helper()
	return nodesWith(t, n, nil, opts...)
}

// nodesWith is nodes with node i's store given to the broker as
// wrap(i, db) (nil: as is).
func nodesWith(t *testing.T, n int, wrap func(i int, db *postgres.DB) store.Store, opts ...approval.Option) []*approval.Broker {
	t.Helper()
	return nodesDB(t, n, nil, wrap, opts...)
}

// nodesDB is nodesWith with node i's store opened with dbOpts(i) added
// (dbOpts nil: none).
func nodesDB(t *testing.T, n int, dbOpts func(i int) []postgres.Option, wrap func(i int, db *postgres.DB) store.Store, opts ...approval.Option) []*approval.Broker {
	t.Helper()
	dsn := os.Getenv("TOOLGATE_TEST_POSTGRES")
	if dsn == "" {
		t.Skip("TOOLGATE_TEST_POSTGRES is not set: skipping the multi-node broker tests")
	}
	var b [6]byte
	rand.Read(b[:])
	schema := "tg_test_" + hex.EncodeToString(b[:])
	ctx := context.Background()
	t.Cleanup(func() {
		db, err := postgres.Open(ctx, dsn)
		if err == nil {
			db.Pool().Exec(ctx, `DROP SCHEMA IF EXISTS `+schema+` CASCADE`)
			db.Close()
		}
	})
	var out []*approval.Broker
	for i := range n {
		dopts := []postgres.Option{postgres.WithSchema(schema), postgres.WithMaxConns(2)}
		if dbOpts != nil {
			dopts = append(dopts, dbOpts(i)...)
		}
		db, err := postgres.Open(ctx, dsn, dopts...)
		if err != nil {
			t.Fatal(err)
		}
		var st store.Store = db
		if wrap != nil {
			st = wrap(i, db)
		}
		pol := approval.NewWorkspaces(db.Rules(policy.DefaultRulesJSONC()), nil, policy.WithHome("/home/user"))
		br, err := approval.New(ctx, st, pol, opts...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			br.Close()
			db.Close()
		})
		out = append(out, br)
	}
	return out
}

func submitOn(t *testing.T, b *approval.Broker, c toolgate.Call) *toolgate.Result {
	t.Helper()
	r, err := b.Submit(context.Background(), toolgate.SubmitRequest{Call: c})
	if err != nil {
		t.Fatalf("submit %+v: %v", c, err)
	}
	return r
}

func actionOf(r *toolgate.Result) toolgate.Action {
	if a, ok := r.Final(); ok {
		return a
	}
	return toolgate.Ask
}

// next returns the next event of a subscription, failing after a while.
func next(t *testing.T, sub *approval.Subscription) toolgate.Event {
	t.Helper()
	select {
	case ev, ok := <-sub.Events():
		if !ok {
			t.Fatal("subscription ended")
		}
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no event within 10s")
	}
	return toolgate.Event{}
}

// nextApproval returns the next approval event, skipping others (a rules
// document's changes).
func nextApproval(t *testing.T, sub *approval.Subscription) toolgate.Event {
	t.Helper()
	for {
		if ev := next(t, sub); ev.Approval != nil {
			return ev
		}
	}
}

func TestNodesAnswerOnAnotherNode(t *testing.T) {
	t.Parallel()
	ns := nodes(t, 3)
	a, b, c := ns[0], ns[1], ns[2]
	ctx := context.Background()
	subs := make([]*approval.Subscription, 3)
	for i, n := range ns {
		subs[i] = n.Subscribe(ctx, toolgate.EventFilter{})
		defer subs[i].Close()
	}
	r := submitOn(t, a, shellCall("s1", "c1", "git push origin main"))
	if r.Approval == nil || r.Approval.Status != toolgate.StatusPending {
		t.Fatalf("want a pending approval, got %s", r.Decision.Action)
	}
	done := make(chan *toolgate.Approval, 1)
	go func() {
		got, err := a.Wait(ctx, r.Approval.ID)
		if err != nil {
			t.Error(err)
		}
		done <- got
	}()
	// C sees it pending (it reads the store), B answers it.
	if got, err := c.Get(ctx, r.Approval.ID); err != nil || got.Status != toolgate.StatusPending {
		t.Fatalf("on C: %v %v", got, err)
	}
	if _, err := b.Approve(ctx, r.Approval.ID, toolgate.ApproveRequest{}, human); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-done:
		if got.Status != toolgate.StatusApproved || got.Resolution.By != human.Name {
			t.Fatalf("A's waiter got %s", got.Status)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("A's waiter was not released by B's answer")
	}
	// Every node's stream carries both events, with the same sequence
	// numbers, in the same order.
	var seqs [3][2]int64
	for i, sub := range subs {
		req, res := nextApproval(t, sub), nextApproval(t, sub)
		if req.Type != toolgate.EventApprovalRequested || res.Type != toolgate.EventApprovalResolved ||
			req.Approval.ID != r.Approval.ID || res.Approval.Status != toolgate.StatusApproved || req.Seq >= res.Seq {
			t.Fatalf("node %d events: %+v then %+v", i, req, res)
		}
		seqs[i] = [2]int64{req.Seq, res.Seq}
	}
	if seqs[0] != seqs[1] || seqs[1] != seqs[2] {
		t.Fatalf("sequence numbers differ between nodes: %v", seqs)
	}
	// Resuming on C after the request gets the resolution made on B.
	resumed := c.Subscribe(ctx, toolgate.EventFilter{AfterSeq: seqs[0][0]})
	defer resumed.Close()
	if ev := nextApproval(t, resumed); ev.Seq != seqs[0][1] || ev.Type != toolgate.EventApprovalResolved {
		t.Fatalf("resumed on C: %+v", ev)
	}
}

func TestNodesOneAnswerWins(t *testing.T) {
	t.Parallel()
	ns := nodes(t, 3)
	ctx := context.Background()
	r := submitOn(t, ns[0], shellCall("s1", "c1", "make"))
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		wins int
	)
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := ns[i%3]
			var err error
			if i%2 == 0 {
				_, err = n.Approve(ctx, r.Approval.ID, toolgate.ApproveRequest{}, toolgate.Actor{Name: "approver", Via: "test"})
			} else {
				_, err = n.Deny(ctx, r.Approval.ID, toolgate.DenyRequest{Mode: toolgate.DenySoft}, toolgate.Actor{Name: "approver", Via: "test"})
			}
			switch {
			case err == nil:
				mu.Lock()
				wins++
				mu.Unlock()
			case toolgate.ErrorCodeOf(err) != toolgate.EConflict:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if wins != 1 {
		t.Fatalf("%d answers won across 3 nodes, want exactly 1", wins)
	}
	es, err := ns[1].Audit(ctx, store.AuditFilter{Kind: string(toolgate.EventApprovalResolved)})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range es {
		if e.ApprovalID == r.Approval.ID {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d resolutions in the audit log, want 1", n)
	}
}

// TestNodesChangesApplyAtOnce: what one node changes holds on every other
// node for the very next decision, in both directions: a grant allows at
// once, and a revoked grant, a stricter mode or a stop flag denies at once
// (no stale cache allows what the store denies).
func TestNodesChangesApplyAtOnce(t *testing.T) {
	t.Parallel()
	ns := nodes(t, 3)
	a, b, c := ns[0], ns[1], ns[2]
	ctx := context.Background()
	push := func(id string) toolgate.Call { return shellCall("s1", id, "git push origin main") }
	read := func(id string) toolgate.Call {
		return toolgate.Call{ID: id, Session: "s1", Tool: "Read", Args: map[string]any{"file_path": "/home/user/notes.txt"}}
	}

	// Warm A's caches: the session, its grant layers, the engine.
	if got := actionOf(submitOn(t, a, push("c1"))); got != toolgate.Ask {
		t.Fatalf("push before any grant: %s", got)
	}
	if got := actionOf(submitOn(t, a, read("c2"))); got != toolgate.Allow {
		t.Fatalf("user-side twin: Read: %s", got)
	}
	g, err := c.AddGrant(ctx, toolgate.Grant{Scope: toolgate.ScopeSession, Session: "s1", Tool: "Bash", Kind: toolgate.GrantPrefix, Pattern: "git push"}, human)
	if err != nil {
		t.Fatal(err)
	}
	if got := actionOf(submitOn(t, a, push("c3"))); got != toolgate.Allow {
		t.Fatalf("on A right after a grant on C: %s, want allow", got)
	}
	if err := b.RevokeGrant(ctx, g.ID, human); err != nil {
		t.Fatal(err)
	}
	if got := actionOf(submitOn(t, a, push("c4"))); got == toolgate.Allow {
		t.Fatal("on A right after the grant was revoked on B: allowed")
	}
	if d, err := a.Evaluate(ctx, push("c4b")); err != nil || d.Action == toolgate.Allow {
		t.Fatalf("dry run on A after the revoke: %v %v", d.Action, err)
	}

	// A permissive mode set on B applies on A, and so does going back.
	if _, err := b.SetMode(ctx, "s1", toolgate.ModeYolo, human); err != nil {
		t.Fatal(err)
	}
	mcp := func(id string) toolgate.Call { return toolgate.Call{ID: id, Session: "s1", Tool: "mcp__x__y"} }
	if got := actionOf(submitOn(t, a, mcp("c5"))); got != toolgate.Allow {
		t.Fatalf("on A after yolo on B: %s", got)
	}
	if _, err := c.SetMode(ctx, "s1", toolgate.ModeDefault, human); err != nil {
		t.Fatal(err)
	}
	if got := actionOf(submitOn(t, a, mcp("c6"))); got == toolgate.Allow {
		t.Fatal("on A after the mode went back to default on C: allowed")
	}

	// A hard deny on B stops the session on A.
	p := submitOn(t, a, push("c7"))
	if p.Approval == nil {
		t.Fatalf("c7: %s", p.Decision.Action)
	}
	if _, err := b.Deny(ctx, p.Approval.ID, toolgate.DenyRequest{Mode: toolgate.DenyHard}, human); err != nil {
		t.Fatal(err)
	}
	if got := actionOf(submitOn(t, a, read("c8"))); got != toolgate.Deny {
		t.Fatalf("on A after a hard deny on B: %s, want deny (the session is stopped)", got)
	}
	if _, err := c.EndTurn(ctx, "s1", human); err != nil {
		t.Fatal(err)
	}
	if got := actionOf(submitOn(t, a, read("c9"))); got != toolgate.Allow {
		t.Fatalf("on A after the turn ended on C: %s, want allow", got)
	}
}

// TestNodesExpiry: every node arms the expiry timer of every approval and
// reaps; the guarded update keeps the expiry single, and a waiter on any
// node is released with it.
func TestNodesExpiry(t *testing.T) {
	t.Parallel()
	ns := nodes(t, 3, approval.WithTTL(300*time.Millisecond))
	ctx := context.Background()
	r := submitOn(t, ns[0], shellCall("s1", "c1", "make deploy"))
	if r.Approval == nil {
		t.Fatalf("want pending, got %s", r.Decision.Action)
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	a, err := ns[2].Wait(wctx, r.Approval.ID)
	if err != nil {
		t.Fatalf("waiter on C: %v", err)
	}
	if a.Status != toolgate.StatusExpired || a.Resolution.Reason != toolgate.TimeoutReason {
		t.Fatalf("on C: %s %+v", a.Status, a.Resolution)
	}
	for _, n := range ns {
		if _, err := n.ReapNow(ctx); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(100 * time.Millisecond) // the other nodes' timers have fired too
	es, err := ns[1].Audit(ctx, store.AuditFilter{Kind: string(toolgate.EventApprovalResolved)})
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 1 || es[0].Outcome != string(toolgate.StatusExpired) {
		t.Fatalf("%d resolutions (%v), want one expiry", len(es), es)
	}
}

// TestNodesSessionWritesDoNotCollide: a mode change on one node and a hard
// deny's stop flag on another, at the same moment, on the same session:
// neither write may undo the other (a lost stop flag would allow what the
// user stopped).
func TestNodesSessionWritesDoNotCollide(t *testing.T) {
	t.Parallel()
	ns := nodes(t, 2)
	a, b := ns[0], ns[1]
	ctx := context.Background()
	const n = 12
	var wg sync.WaitGroup
	for i := range n {
		session := fmt.Sprintf("race%d", i)
		p := submitOn(t, a, shellCall(session, "c1", "make deploy"))
		if p.Approval == nil {
			t.Fatalf("%s: %s", session, p.Decision.Action)
		}
		wg.Add(2)
		go func() {
			defer wg.Done()
			if _, err := a.SetMode(ctx, session, toolgate.ModeAutoEdit, human); err != nil {
				t.Error(err)
			}
		}()
		go func() {
			defer wg.Done()
			if _, err := b.Deny(ctx, p.Approval.ID, toolgate.DenyRequest{Mode: toolgate.DenyHard}, human); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for i := range n {
		session := fmt.Sprintf("race%d", i)
		for j, node := range ns {
			s, err := node.Session(ctx, session)
			if err != nil {
				t.Fatal(err)
			}
			if !s.Stopped || s.Mode != toolgate.ModeAutoEdit {
				t.Fatalf("%s on node %d: stopped=%v mode=%s: a concurrent write was lost", session, j, s.Stopped, s.Mode)
			}
		}
		if got := actionOf(submitOn(t, a, toolgate.Call{ID: "c2", Session: session, Tool: "Read", Args: map[string]any{"file_path": "/home/user/x"}})); got != toolgate.Deny {
			t.Fatalf("%s: a call after the hard deny: %s, want deny", session, got)
		}
	}
}

// TestNodesSessionOwnerHolds: a session created unbound on node B (a mode
// set before its first call) and bound by agent-1's first call on node A
// belongs to agent-1 on B too: agent-2 cannot take it over through B's
// cache. agent-1 itself goes on using it on B.
func TestNodesSessionOwnerHolds(t *testing.T) {
	t.Parallel()
	ns := nodes(t, 2)
	a, b := ns[0], ns[1]
	ctx := context.Background()
	agent1 := toolgate.Actor{Name: "agent-1", Via: "test", Agent: true}
	agent2 := toolgate.Actor{Name: "agent-2", Via: "test", Agent: true}
	read := func(id string) toolgate.Call {
		return toolgate.Call{ID: id, Session: "owned", Tool: "Read", Args: map[string]any{"file_path": "/home/user/x"}}
	}
	if _, err := b.SetMode(ctx, "owned", toolgate.ModeDefault, human); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Session(ctx, "owned"); err != nil { // cached on B, unbound
		t.Fatal(err)
	}
	if r, err := a.Submit(ctx, toolgate.SubmitRequest{Call: read("c1"), By: agent1}); err != nil || actionOf(r) != toolgate.Allow {
		t.Fatalf("agent-1's first call on A: %v %v", r, err)
	}
	if r, err := b.Submit(ctx, toolgate.SubmitRequest{Call: read("c2"), By: agent2}); err == nil && actionOf(r) == toolgate.Allow {
		t.Fatal("agent-2 used agent-1's session on node B")
	}
	if s, err := a.Session(ctx, "owned"); err != nil || s.Owner != "agent-1" {
		t.Fatalf("owner after agent-2's attempt: %+v %v", s, err)
	}
	if r, err := b.Submit(ctx, toolgate.SubmitRequest{Call: read("c3"), By: agent1}); err != nil || actionOf(r) != toolgate.Allow {
		t.Fatalf("agent-1 on B: %v %v", r, err)
	}
}

// failingClaims is a node's store whose workspace count fails.
type failingClaims struct{ *postgres.DB }

func (failingClaims) ClaimWorkspace(context.Context, string, string, int) (bool, int, error) {
	return false, 0, toolgate.Errorf(toolgate.EUnavailable, "count failed")
}

// TestNodesWorkspaceQuota: the cap on new workspaces per agent credential
// is counted in the shared store, so a credential that used it up on some
// nodes is refused on the others, concurrent claims on every node pass it
// not once, and a node whose count fails refuses.
func TestNodesWorkspaceQuota(t *testing.T) {
	t.Parallel()
	ns := nodesWith(t, 4, func(i int, db *postgres.DB) store.Store {
		if i == 3 {
			return failingClaims{db}
		}
		return db
	}, approval.WithWorkspaceLimits(nil, 2))
	ctx := context.Background()
	try := func(b *approval.Broker, who, ws string) error {
		_, err := b.EvaluateAs(ctx, toolgate.Call{ID: "c", Session: "s-" + who + ws, Workspace: ws, Tool: "Bash", Args: map[string]any{"command": "make"}},
			toolgate.Actor{Name: who, Via: "test", Agent: true})
		return err
	}
	for i, ws := range []string{"w0", "w1"} {
		if err := try(ns[i], "agent-a", ws); err != nil {
			t.Fatalf("agent-a's workspace %s on node %d: %v", ws, i, err)
		}
	}
	if err := try(ns[2], "agent-a", "w2"); toolgate.ErrorCodeOf(err) != toolgate.EForbidden {
		t.Fatalf("agent-a's 3rd new workspace on another node: %v, want forbidden", err)
	}
	for i := range 3 { // its own, created on other nodes, stay open to it everywhere
		if err := try(ns[i], "agent-a", "w1"); err != nil {
			t.Fatalf("agent-a's w1 on node %d: %v", i, err)
		}
	}
	if err := try(ns[3], "agent-b", "w9"); toolgate.ErrorCodeOf(err) != toolgate.EUnavailable {
		t.Fatalf("a new workspace on a node whose count fails: %v, want unavailable", err)
	}

	var wg sync.WaitGroup
	var mu sync.Mutex
	passed := 0
	for i := range 9 {
		wg.Go(func() {
			if err := try(ns[i%3], "agent-c", fmt.Sprint("c", i)); err == nil {
				mu.Lock()
				passed++
				mu.Unlock()
			} else if toolgate.ErrorCodeOf(err) != toolgate.EForbidden {
				t.Errorf("agent-c's c%d: %v", i, err)
			}
		})
	}
	wg.Wait()
	if passed != 2 {
		t.Fatalf("9 concurrent new workspaces on 3 nodes: %d passed, want 2", passed)
	}
}

// TestNodesCredentialQuotas: an agent credential's pending approvals and
// new sessions are counted in the shared store, so what it used up on
// some nodes is refused on the others, while another credential is
// served everywhere. (Concurrent requests on several nodes may end a few
// over: docs/security.md.)
func TestNodesCredentialQuotas(t *testing.T) {
	t.Parallel()
	ns := nodes(t, 3, approval.WithCredentialQuotas(3, 4))
	ctx := context.Background()
	a := toolgate.Actor{Name: "agent-a", Via: "test", Agent: true}
	b := toolgate.Actor{Name: "agent-b", Via: "test", Agent: true}
	ask := func(n *approval.Broker, by toolgate.Actor, session string) error {
		_, err := n.Submit(ctx, toolgate.SubmitRequest{Call: toolgate.Call{ID: "c1", Session: session, Tool: "Bash", Args: map[string]any{"command": "make deploy"}}, By: by})
		return err
	}
	read := func(n *approval.Broker, by toolgate.Actor, session string) error {
		_, err := n.Submit(ctx, toolgate.SubmitRequest{Call: toolgate.Call{ID: "r1", Session: session, Tool: "Read", Args: map[string]any{"file_path": "README.md"}}, By: by})
		return err
	}
	for i, n := range ns {
		if err := ask(n, a, fmt.Sprint("a", i)); err != nil {
			t.Fatalf("agent-a's ask on node %d: %v", i, err)
		}
	}
	if err := ask(ns[0], a, "a0"); err != nil {
		t.Fatalf("the same call again attaches: %v", err)
	}
	for i, n := range ns {
		if err := ask(n, a, "a3"); toolgate.ErrorCodeOf(err) != toolgate.ERateLimited {
			t.Fatalf("agent-a's 4th pending approval on node %d: %v, want rate limited", i, err)
		}
	}
	if err := ask(ns[1], b, "b0"); err != nil {
		t.Fatalf("agent-b's ask: %v", err)
	}
	// Sessions: a0–a3 are agent-a's four (the refused ask opened a3);
	// they go on, on any node, and a fifth is refused on every node.
	if err := read(ns[2], a, "a3"); err != nil {
		t.Fatalf("agent-a's 4th session: %v", err)
	}
	for i, n := range ns {
		if err := read(n, a, "a5"); toolgate.ErrorCodeOf(err) != toolgate.ERateLimited {
			t.Fatalf("agent-a's 5th session on node %d: %v, want rate limited", i, err)
		}
	}
	if err := read(ns[0], b, "b1"); err != nil {
		t.Fatalf("agent-b's session: %v", err)
	}
}
