package cli_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/digest"
	"github.com/toolgate/toolgate/store/postgres"
)

// sharedStore returns a postgres:// URL naming a fresh schema in the test
// database (dropped when the test ends), or skips the test without
// TOOLGATE_TEST_POSTGRES.
func sharedStore(t *testing.T) (string, *postgres.DB) {
	t.Helper()
	dsn := os.Getenv("TOOLGATE_TEST_POSTGRES")
	if dsn == "" {
		t.Skip("TOOLGATE_TEST_POSTGRES is not set: skipping the multi-node tests (.ci/run sets it)")
	}
	if testing.Short() {
		t.Skip("starts gateway processes")
	}
	var b [6]byte
	rand.Read(b[:])
	schema := "tg_test_" + hex.EncodeToString(b[:])
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	u := dsn + sep + "search_path=" + schema
	db, err := postgres.Open(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		db.Pool().Exec(context.Background(), `DROP SCHEMA IF EXISTS `+schema+` CASCADE`)
		db.Close()
	})
	return u, db
}

// startNodes starts n `toolgate serve` processes on one database, each
// with its own data directory: they share approvals, grants, sessions,
// rules and credentials through the database only.
func startNodes(t *testing.T, n int, storeURL string, env ...string) (string, []*gateway) {
	t.Helper()
	bin := toolgateBinary(t)
	var gs []*gateway
	for range n {
		g := startGateway(t, bin, t.TempDir(), append([]string{"TOOLGATE_STORE=" + storeURL}, env...)...)
		gs = append(gs, g)
	}
	if gs[0].token == "" {
		t.Fatal("the first node printed no admin token")
	}
	for i, g := range gs[1:] {
		if g.token != "" {
			t.Fatalf("node %d created another admin token: credentials are not shared", i+1)
		}
	}
	return bin, gs
}

func sharedToken(t *testing.T, bin, storeURL, role string) string {
	t.Helper()
	out, err := exec.Command(bin, "tokens", "create", "--store", storeURL, "--role", role, "--name", fmt.Sprintf("%s-%d", role, time.Now().UnixNano())).Output()
	if err != nil {
		t.Fatalf("tokens create --store: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// TestNodes runs three gateway processes on one PostgreSQL database.
func TestNodes(t *testing.T) {
	storeURL, db := sharedStore(t)
	t.Parallel()
	ctx := context.Background()
	// The test drives 100 agents through one token: lift the rate limit
	// and the bound on the requests one token holds waiting.
	config := filepath.Join(t.TempDir(), "toolgate.yaml")
	if err := os.WriteFile(config, []byte("server:\n  rate_limit: 100000\n  rate_burst: 100000\n  max_waiting_per_token: -1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	bin, gs := startNodes(t, 3, storeURL, "TOOLGATE_CONFIG="+config)
	agentToken := sharedToken(t, bin, storeURL, "agent")
	admin := make([]*client.Client, 3)
	agent := make([]*client.Client, 3)
	for i, g := range gs {
		// The admin token printed by node A, and the agent token made in
		// the database, work on every node.
		admin[i] = newClient(t, g.url, gs[0].token)
		agent[i] = newClient(t, g.url, agentToken)
	}

	// Every node's event stream, from the start.
	streams := make([]<-chan toolgate.Event, 3)
	for i := range gs {
		sctx, cancel := context.WithCancel(ctx)
		defer cancel()
		streams[i], _ = admin[i].Events(sctx, toolgate.EventFilter{Session: "events"})
	}

	t.Run("SubmitOnAAnswerOnB", func(t *testing.T) {
		r, err := agent[0].Submit(ctx, bash("s1", "c1", "git push origin main"))
		if err != nil || r.Approval == nil {
			t.Fatalf("submit on A: %+v %v", r, err)
		}
		released := make(chan *toolgate.Approval, 1)
		go func() {
			a, err := agent[0].Wait(ctx, r.Approval.ID)
			if err != nil {
				t.Error(err)
			}
			released <- a
		}()
		time.Sleep(100 * time.Millisecond) // the long-poll is waiting on A
		if _, err := admin[1].Approve(ctx, r.Approval.ID, toolgate.ApproveRequest{}); err != nil {
			t.Fatal(err)
		}
		select {
		case a := <-released:
			if a == nil || a.Status != toolgate.StatusApproved {
				t.Fatalf("A's waiter got %+v", a)
			}
		case <-time.After(15 * time.Second):
			t.Fatal("A's long-poll was not released by the answer on B")
		}
	})

	t.Run("TenApproversOneWins", func(t *testing.T) {
		r, err := agent[2].Submit(ctx, bash("s1", "c2", "make deploy"))
		if err != nil || r.Approval == nil {
			t.Fatalf("submit: %+v %v", r, err)
		}
		var (
			wg              sync.WaitGroup
			mu              sync.Mutex
			wins, conflicts int
		)
		for i := range 10 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := admin[i%3]
				var err error
				if i%2 == 0 {
					_, err = c.Approve(ctx, r.Approval.ID, toolgate.ApproveRequest{})
				} else {
					_, err = c.Deny(ctx, r.Approval.ID, toolgate.DenyRequest{Mode: toolgate.DenySoft})
				}
				mu.Lock()
				defer mu.Unlock()
				switch toolgate.ErrorCodeOf(err) {
				case "":
					wins++
				case toolgate.EConflict:
					conflicts++
				default:
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if wins != 1 || conflicts != 9 {
			t.Fatalf("%d answers won and %d conflicted, want 1 and 9", wins, conflicts)
		}
	})

	t.Run("GrantOnCAppliesOnA", func(t *testing.T) {
		push := func(id string) toolgate.Action {
			t.Helper()
			r, err := agent[0].Submit(ctx, bash("s2", id, "git push origin main"))
			if err != nil {
				t.Fatal(err)
			}
			if a, ok := r.Final(); ok {
				return a
			}
			return toolgate.Ask
		}
		if got := push("g1"); got != toolgate.Ask {
			t.Fatalf("before the grant: %s", got)
		}
		g, err := admin[2].AddGrant(ctx, toolgate.Grant{Scope: toolgate.ScopeSession, Session: "s2", Tool: "Bash", Kind: toolgate.GrantPrefix, Pattern: "git push"})
		if err != nil {
			t.Fatal(err)
		}
		if got := push("g2"); got != toolgate.Allow {
			t.Fatalf("on A, the call right after a grant on C: %s", got)
		}
		if err := admin[1].RevokeGrant(ctx, g.ID); err != nil {
			t.Fatal(err)
		}
		if got := push("g3"); got == toolgate.Allow {
			t.Fatal("on A, the call right after the grant was revoked on B: allowed")
		}
	})

	t.Run("RulesSharedThroughTheDatabase", func(t *testing.T) {
		src, err := admin[0].Rules(ctx, "shared")
		if err != nil {
			t.Fatal(err)
		}
		edited := strings.Replace(string(src), `"shell_exec": { "*": "ask",`, `"shell_exec": { "*": "ask", "make test": "allow",`, 1)
		if edited == string(src) {
			t.Fatalf("default rules changed shape:\n%s", src)
		}
		if err := admin[1].PutRules(ctx, "shared", []byte(edited)); err != nil {
			t.Fatal(err)
		}
		call := toolgate.SubmitRequest{Call: toolgate.Call{ID: "r1", Session: "s3", Workspace: "shared", Tool: "Bash", Args: map[string]any{"command": "make test"}}}
		r, err := agent[2].Submit(ctx, call)
		if err != nil {
			t.Fatal(err)
		}
		if a, _ := r.Final(); a != toolgate.Allow {
			t.Fatalf("on C right after the rules were changed on B: %s", r.Decision.Reason)
		}
		if got, err := admin[2].Rules(ctx, "shared"); err != nil || string(got) != edited {
			t.Fatalf("rules read on C differ from those written on B: %v", err)
		}
		// The twin: a command the edit does not allow still asks.
		call.Call.ID, call.Call.Args = "r2", map[string]any{"command": "make deploy"}
		if r, err := agent[2].Submit(ctx, call); err != nil || r.Approval == nil {
			t.Fatalf("make deploy after the edit: %+v %v", r, err)
		}
	})

	t.Run("EventsOnceInOrderAcrossAListenCut", func(t *testing.T) {
		// Cut node B's LISTEN connection while events are being made on
		// A and C; B reconnects and re-reads by sequence.
		produce := func(n int, from string) {
			for i := range n {
				c := agent[0]
				if i%2 == 1 {
					c = agent[2]
				}
				r, err := c.Submit(ctx, bash("events", fmt.Sprintf("%s%d", from, i), "make e"+from))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := admin[(i+1)%3].Deny(ctx, r.Approval.ID, toolgate.DenyRequest{Mode: toolgate.DenySoft}); err != nil {
					t.Fatal(err)
				}
			}
		}
		produce(3, "x")
		var n int
		if err := db.Pool().QueryRow(ctx, `SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1`,
			fmt.Sprintf("toolgate-listen-%d", gs[1].cmd.Process.Pid)).Scan(&n); err != nil || n != 1 {
			t.Fatalf("terminated %d LISTEN backends of node B (%v), want 1", n, err)
		}
		produce(3, "y")
		// 6 approvals: 12 events on each node, the same on all three.
		var got [3][]string
		for i, s := range streams {
			for len(got[i]) < 12 {
				select {
				case ev, ok := <-s:
					if !ok {
						t.Fatalf("node %d: stream ended", i)
					}
					if ev.Replay {
						continue
					}
					got[i] = append(got[i], fmt.Sprintf("%d %s %s", ev.Seq, ev.Type, ev.Approval.Call.ID))
				case <-time.After(15 * time.Second):
					t.Fatalf("node %d: %d of 12 events:\n%s", i, len(got[i]), strings.Join(got[i], "\n"))
				}
			}
		}
		for i := 1; i < 3; i++ {
			if strings.Join(got[i], "\n") != strings.Join(got[0], "\n") {
				t.Fatalf("node %d's events differ from node A's:\n%s\n--- A:\n%s", i, strings.Join(got[i], "\n"), strings.Join(got[0], "\n"))
			}
		}
		// Nothing more (no duplicate) arrives on B.
		select {
		case ev := <-streams[1]:
			t.Fatalf("an extra event on B: %d %s", ev.Seq, ev.Type)
		case <-time.After(500 * time.Millisecond):
		}
	})

	t.Run("KillNodeWithPendingAgentsReattach", func(t *testing.T) {
		const pending = 100
		ids := map[string]string{}
		for i := range pending {
			callID := fmt.Sprintf("k%d", i)
			r, err := agent[0].Submit(ctx, bash("s4", callID, fmt.Sprintf("make release-%d", i)))
			if err != nil || r.Approval == nil || r.Approval.Status != toolgate.StatusPending {
				t.Fatalf("%s on A: %+v %v", callID, r, err)
			}
			ids[callID] = r.Approval.ID
		}
		if err := gs[0].cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		gs[0].cmd.Wait()
		// The agents re-attach on B by call id: the same approvals, still
		// pending; none allowed by the crash.
		for callID, apID := range ids {
			r, err := agent[1].Submit(ctx, bash("s4", callID, "make release-"+strings.TrimPrefix(callID, "k")))
			if err != nil {
				t.Fatal(err)
			}
			if r.Approval == nil || r.Approval.ID != apID || r.Approval.Status != toolgate.StatusPending {
				t.Fatalf("%s re-attached on B: %+v, want pending %s", callID, r.Approval, apID)
			}
		}
		// Half are approved and half denied on C; every waiter on B is
		// released with its own answer.
		var wg sync.WaitGroup
		for callID, apID := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				a, err := agent[1].Wait(ctx, apID)
				if err != nil {
					t.Error(err)
					return
				}
				want := toolgate.StatusApproved
				if n := strings.TrimPrefix(callID, "k"); n[len(n)-1]%2 == 1 {
					want = toolgate.StatusDenied
				}
				if a.Status != want {
					t.Errorf("%s released on B with %s, want %s", callID, a.Status, want)
				}
			}()
		}
		time.Sleep(200 * time.Millisecond)
		for callID, apID := range ids {
			var err error
			if n := strings.TrimPrefix(callID, "k"); n[len(n)-1]%2 == 1 {
				_, err = admin[2].Deny(ctx, apID, toolgate.DenyRequest{Mode: toolgate.DenySoft})
			} else {
				_, err = admin[2].Approve(ctx, apID, toolgate.ApproveRequest{})
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		wg.Wait()
		left, err := admin[1].Approvals(ctx, toolgate.ApprovalFilter{Status: toolgate.StatusPending, Session: "s4"})
		if err != nil || len(left) != 0 {
			t.Fatalf("%d approvals still pending: %v", len(left), err)
		}
	})

	t.Run("RevokedTokenStopsOnEveryNode", func(t *testing.T) {
		name := fmt.Sprintf("approver-%d", time.Now().UnixNano())
		out, err := exec.Command(bin, "tokens", "create", "--store", storeURL, "--role", "approver", "--name", name).Output()
		if err != nil {
			t.Fatal(err)
		}
		clients := make([]*client.Client, 0, 2)
		for _, g := range gs[1:] { // node A is dead
			clients = append(clients, newClient(t, g.url, strings.TrimSpace(string(out))))
		}
		if out, err := exec.Command(bin, "tokens", "revoke", "--store", storeURL, name).CombinedOutput(); err != nil {
			t.Fatalf("tokens revoke: %v\n%s", err, out)
		}
		// The revocation returns once every live node has applied it:
		// the very next request is refused everywhere, with no waiting.
		for i, c := range clients {
			if _, err := c.Approvals(ctx, toolgate.ApprovalFilter{}); toolgate.ErrorCodeOf(err) != toolgate.EUnauthorized {
				t.Fatalf("node %d accepted a token right after its revocation returned: %v", i+2, err)
			}
		}
	})

	t.Run("OneAuditChain", func(t *testing.T) {
		es, err := admin[2].Audit(ctx, toolgate.AuditFilter{Limit: 100000})
		if err != nil {
			t.Fatal(err)
		}
		if err := digest.VerifyChain(es, ""); err != nil {
			t.Fatalf("the nodes' audit log is not one chain: %v", err)
		}
		out, err := exec.Command(bin, "audit", "--verify", "--url", gs[1].url, "--token", gs[0].token).CombinedOutput()
		if err != nil {
			t.Fatalf("audit --verify on B: %v\n%s", err, out)
		}
	})
}
