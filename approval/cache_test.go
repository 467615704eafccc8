package approval_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/fsrules"
)

// The engine is kept while the document's stat does not move, and an edit
// on disk (even one that keeps the size and puts the modification time
// back) takes effect on the next call.
func TestEngineFollowsStat(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	rules := fsrules.New(dir, nil, fsrules.WithRacyWindow(0), fsrules.WithStatInterval(0))
	pol := approval.NewWorkspaces(rules, nil, policy.WithHome("/home/user"))
	allow := []byte(`{"Bash": "allow"} `)
	if err := rules.PutDocument(ctx, "w", allow); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond) // past the file system's timestamp tick
	e1, err := pol.Engine(ctx, "w")
	if err != nil {
		t.Fatal(err)
	}
	if e2, _ := pol.Engine(ctx, "w"); e2 != e1 {
		t.Fatal("engine recompiled without a change")
	}
	decide := func(e *policy.Engine) toolgate.Action {
		var d toolgate.Decision
		e.Decide(&toolgate.Call{Tool: "Bash", Args: map[string]any{"command": "ls"}}, policy.Env{}, &d)
		return d.Action
	}
	if got := decide(e1); got != toolgate.Allow {
		t.Fatalf("before the edit: %s", got)
	}
	path, _ := rules.Path("w")
	fi, _ := os.Stat(path)
	time.Sleep(20 * time.Millisecond)
	deny := []byte(`{"Bash": "deny" } `)
	if len(deny) != len(allow) {
		t.Fatal("test documents differ in size")
	}
	if err := os.WriteFile(path, deny, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	e3, err := pol.Engine(ctx, "w")
	if err != nil {
		t.Fatal(err)
	}
	if got := decide(e3); got != toolgate.Deny {
		t.Fatalf("after a hand edit: %s", got)
	}
	// A broken edit fails closed at once.
	time.Sleep(20 * time.Millisecond)
	if err := os.WriteFile(path, []byte(`{"Bash": "allow",,}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := pol.Engine(ctx, "w"); err == nil {
		t.Fatal("a broken document compiled")
	}
}

// Sessions are cached in the broker: every change the broker makes shows
// in the next decision, including for a session first seen by a dry run.
func TestSessionCacheFollowsChanges(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	c := toolgate.Call{Session: "dry", Tool: "mcp__x__y"}
	d, err := e.broker.Evaluate(ctx, c)
	if err != nil || d.Action != toolgate.Ask {
		t.Fatalf("unknown session: %s, %v", d.Action, err)
	}
	if _, err := e.broker.SetMode(ctx, "dry", toolgate.ModeYolo, human); err != nil {
		t.Fatal(err)
	}
	if d, _ := e.broker.Evaluate(ctx, c); d.Action != toolgate.Allow {
		t.Fatalf("after the mode changed to yolo: %s", d.Action)
	}
	if s, err := e.store.GetSession(ctx, "dry"); err != nil || s.Mode != toolgate.ModeYolo {
		t.Fatalf("store has %+v, %v", s, err)
	}
	// A turn grant lapses when the turn ends.
	r := e.submit(t, shellCall("s", "c1", "make deploy"))
	if r.Approval == nil {
		t.Fatalf("did not ask: %s", r.Decision.Action)
	}
	if _, err := e.broker.Approve(ctx, r.Approval.ID, toolgate.ApproveRequest{Scope: toolgate.ScopeTurn, Grant: toolgate.GrantTool}, root); err != nil {
		t.Fatal(err)
	}
	if d, _ := e.broker.Evaluate(ctx, shellCall("s", "", "make deploy")); d.Action != toolgate.Allow {
		t.Fatalf("with a turn grant: %s", d.Action)
	}
	if _, err := e.broker.EndTurn(ctx, "s", human); err != nil {
		t.Fatal(err)
	}
	if d, _ := e.broker.Evaluate(ctx, shellCall("s", "", "make deploy")); d.Action != toolgate.Ask {
		t.Fatalf("after the turn ended: %s", d.Action)
	}
}

// Concurrent first calls and mode changes of one session lose no change:
// every write goes through the broker in order.
func TestSessionWritesSerialized(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			c := toolgate.Call{Session: "race", Workspace: "w", Tool: "mcp__x__y", ID: "c" + string(rune('a'+i))}
			if _, err := e.broker.Submit(ctx, toolgate.SubmitRequest{Call: c}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Go(func() {
		if _, err := e.broker.SetMode(ctx, "race", toolgate.ModeReadOnly, human); err != nil {
			t.Error(err)
		}
	})
	wg.Wait()
	s, err := e.broker.Session(ctx, "race")
	if err != nil || s.Mode != toolgate.ModeReadOnly || s.Workspace != "w" {
		t.Fatalf("session %+v, %v: want read-only, bound to w", s, err)
	}
	st, err := e.store.GetSession(ctx, "race")
	if err != nil || *st != *s {
		t.Fatalf("store has %+v, broker %+v", st, s)
	}
}

func TestEndTurnEvent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	e.submit(t, shellCall("s", "c1", "ls"))
	sub := e.broker.Subscribe(ctx, toolgate.EventFilter{Session: "s"})
	defer sub.Close()
	if _, err := e.broker.EndTurn(ctx, "s", human); err != nil {
		t.Fatal(err)
	}
	for ev := range sub.Events() {
		if ev.Replay {
			continue
		}
		if ev.Type != toolgate.EventTurnEnded || ev.Session != "s" || ev.Workspace != approval.DefaultWorkspace {
			t.Fatalf("event %+v", ev)
		}
		break
	}
	audit, err := e.broker.Audit(ctx, store.AuditFilter{Kind: "session.turn_ended"})
	if err != nil || len(audit) != 1 {
		t.Fatalf("audit: %d entries, %v", len(audit), err)
	}
}

func TestSubscriptionErr(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sub := e.broker.Subscribe(context.Background(), toolgate.EventFilter{})
	sub.Close()
	if _, ok := <-sub.Events(); ok || sub.Err() != nil {
		t.Fatalf("closed subscription: Err %v", sub.Err())
	}
	ctx, cancel := context.WithCancel(context.Background())
	sub = e.broker.Subscribe(ctx, toolgate.EventFilter{})
	cancel()
	if _, ok := <-sub.Events(); ok || sub.Err() != nil {
		t.Fatalf("cancelled subscription: Err %v", sub.Err())
	}
	if !strings.Contains(approval.ErrDropped.Error(), "behind") {
		t.Fatal(approval.ErrDropped)
	}
}
