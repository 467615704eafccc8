package approval_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
)

var agentA = toolgate.Actor{Name: "agent-a", Via: "api", Agent: true}

func (e *env) submitAs(c toolgate.Call, by toolgate.Actor, rest ...toolgate.Call) (*toolgate.Result, error) {
	return e.broker.Submit(context.Background(), toolgate.SubmitRequest{Call: c, By: by, BatchRemaining: rest})
}

func TestPendingPerSessionCap(t *testing.T) {
	t.Parallel()
	e := newEnv(t, approval.WithMaxPending(3))
	var ids []string
	for i := range 3 {
		ids = append(ids, e.ask(t, shellCall("s1", fmt.Sprint("c", i), fmt.Sprint("make t", i))).ID)
	}
	_, err := e.submitAs(shellCall("s1", "c9", "make t9"), agentA)
	if toolgate.ErrorCodeOf(err) != toolgate.ERateLimited {
		t.Fatalf("a 4th pending approval: %v, want rate limited", err)
	}
	// A resubmitted call attaches; another session has room; an answer
	// makes room.
	if a := e.ask(t, shellCall("s1", "c0", "make t0")); a.ID != ids[0] {
		t.Fatalf("resubmission: %s", a.ID)
	}
	e.ask(t, shellCall("s2", "c9", "make t9"))
	if _, err := e.broker.Approve(context.Background(), ids[1], toolgate.ApproveRequest{}, human); err != nil {
		t.Fatal(err)
	}
	e.ask(t, shellCall("s1", "c9", "make t9"))
	// Rule decisions need no room.
	if got := e.final(t, toolgate.Call{ID: "r1", Session: "s1", Tool: "Read", Args: map[string]any{"file_path": "README.md"}}); got != toolgate.Allow {
		t.Fatalf("read with a full session: %s", got)
	}
}

func TestBatchLimits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rest := make([]toolgate.Call, approval.MaxBatch+1)
	for i := range rest {
		rest[i] = toolgate.Call{Tool: "Bash"}
	}
	if _, err := e.submitAs(shellCall("s1", "c1", "make"), agentA, rest...); toolgate.ErrorCodeOf(err) != toolgate.ETooLarge {
		t.Fatalf("%d remaining: %v", len(rest), err)
	}
	for _, bt := range []toolgate.Batch{{Index: -1, Total: 2}, {Index: 2, Total: 2}, {Index: 0, Total: -1}} {
		c := shellCall("s1", "c2", "make")
		c.Batch = &bt
		if _, err := e.submitAs(c, agentA); toolgate.ErrorCodeOf(err) != toolgate.EInvalid {
			t.Fatalf("batch %+v: %v", bt, err)
		}
	}
	c := shellCall("s1", "c3", "make")
	c.Batch = &toolgate.Batch{ID: "t", Index: 1, Total: 3}
	if _, err := e.submitAs(c, agentA, rest[:1]...); err != nil {
		t.Fatalf("a batch of 3: %v", err)
	}
}

func TestWorkspaceLimits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, approval.WithWorkspaceLimits(nil, 3))
	e.ask(t, shellCall("s0", "c0", "make")) // default exists now
	for i := range 3 {
		c := shellCall(fmt.Sprint("s", i+1), "c", "make")
		c.Workspace = fmt.Sprint("ws", i)
		if _, err := e.submitAs(c, agentA); err != nil {
			t.Fatalf("workspace %d: %v", i, err)
		}
	}
	c := shellCall("s9", "c", "make")
	c.Workspace = "ws9"
	if _, err := e.submitAs(c, agentA); toolgate.ErrorCodeOf(err) != toolgate.EForbidden {
		t.Fatalf("a 4th new workspace: %v", err)
	}
	if _, err := e.broker.EvaluateAs(ctx, c, agentA); toolgate.ErrorCodeOf(err) != toolgate.EForbidden {
		t.Fatalf("a 4th new workspace, dry run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(e.dir, "workspaces", "ws9")); !os.IsNotExist(err) {
		t.Fatalf("the refused workspace was created: %v", err)
	}
	// Its own and existing workspaces stay open to it; another credential
	// and humans have their own count.
	for _, ws := range []string{"ws0", "default"} {
		c := shellCall("s-"+ws, "c", "make")
		c.Workspace = ws
		if _, err := e.submitAs(c, agentA); err != nil {
			t.Fatalf("workspace %s: %v", ws, err)
		}
	}
	if _, err := e.submitAs(c, toolgate.Actor{Name: "agent-b", Agent: true}); err != nil {
		t.Fatalf("another credential: %v", err)
	}

	list := newEnv(t, approval.WithWorkspaceLimits([]string{"shop"}, 0))
	c.Workspace = "shop"
	if _, err := list.submitAs(c, agentA); err != nil {
		t.Fatalf("a listed workspace: %v", err)
	}
	c.Workspace, c.Session = "default", "s-other"
	if _, err := list.submitAs(c, agentA); toolgate.ErrorCodeOf(err) != toolgate.EForbidden {
		t.Fatalf("an unlisted workspace: %v", err)
	}
}

func TestIdleEnginesEvicted(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.pol.SetMaxEngines(4)
	for i := range 10 {
		c := shellCall(fmt.Sprint("s", i), "c", "make")
		c.Workspace = fmt.Sprint("w", i)
		e.ask(t, c)
	}
	if n := e.pol.Cached(); n > 4 {
		t.Fatalf("%d engines cached, want at most 4", n)
	}
	// An evicted workspace is compiled again, with its rules.
	c := shellCall("s0", "c2", "make test")
	c.Workspace = "w0"
	e.ask(t, c)
}

// TestWorkspaceFlood is issue 10's flood: one agent credential sends
// calls in 1,000 new workspace ids. With the default limits it creates
// DefaultWorkspacesPerCredential of them and the rest are refused;
// without limits every id is a directory and a compiled engine (measured
// on a quarter of the ids, to keep the test short). The heap kept after
// each run is measured and logged; the limited run must stay bounded.
func TestWorkspaceFlood(t *testing.T) {
	if testing.Short() {
		t.Skip("floods a broker with 1,000 workspaces")
	}
	const ids = 1000
	run := func(t *testing.T, ids int, opts ...approval.Option) (heap uint64, dirs, engines int) {
		e := newEnv(t, opts...)
		if len(opts) > 0 {
			e.pol.SetMaxEngines(1 << 20)
		}
		before := heapInUse()
		for i := range ids {
			c := shellCall(fmt.Sprint("s", i), "c", "make")
			c.Workspace = fmt.Sprint("flood-", i)
			e.submitAs(c, agentA)
		}
		after := heapInUse()
		ents, _ := os.ReadDir(filepath.Join(e.dir, "workspaces"))
		if after < before {
			after = before
		}
		return after - before, len(ents), e.pol.Cached()
	}
	limHeap, limDirs, limEngines := run(t, ids)
	t.Logf("limited:   +%.1f MiB heap kept, %d workspace directories, %d engines cached", float64(limHeap)/(1<<20), limDirs, limEngines)
	if limDirs > approval.DefaultWorkspacesPerCredential || limEngines > approval.DefaultWorkspacesPerCredential {
		t.Fatalf("limited flood: %d directories, %d engines", limDirs, limEngines)
	}
	if limHeap > 16<<20 {
		t.Fatalf("limited flood kept %d bytes of heap", limHeap)
	}
	freeHeap, freeDirs, freeEngines := run(t, ids/4, approval.WithWorkspaceLimits(nil, -1))
	t.Logf("unlimited, %d ids: +%.1f MiB heap kept (%.0f KiB an id), %d workspace directories, %d engines cached",
		ids/4, float64(freeHeap)/(1<<20), float64(freeHeap)/1024/float64(ids/4), freeDirs, freeEngines)
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// TestPendingPerCredentialCap: one agent credential spreading its asks
// over many sessions holds at most its quota pending, counted in the
// store; another credential still asks; an answer makes room; calls the
// rules decide need none.
func TestPendingPerCredentialCap(t *testing.T) {
	t.Parallel()
	e := newEnv(t, approval.WithCredentialQuotas(4, -1))
	agentB := toolgate.Actor{Name: "agent-b", Via: "api", Agent: true}
	var ids []string
	for i := range 4 {
		res, err := e.submitAs(shellCall(fmt.Sprint("s", i), "c1", fmt.Sprint("make t", i)), agentA)
		if err != nil || res.Approval == nil {
			t.Fatalf("ask %d: %+v %v", i, res, err)
		}
		ids = append(ids, res.Approval.ID)
	}
	for _, sess := range []string{"s0", "s9"} { // an old session or a new one
		if _, err := e.submitAs(shellCall(sess, "c2", "make flood"), agentA); toolgate.ErrorCodeOf(err) != toolgate.ERateLimited {
			t.Fatalf("a 5th pending approval in %s: %v, want rate limited", sess, err)
		}
	}
	if res, err := e.submitAs(shellCall("b1", "c1", "make other"), agentB); err != nil || res.Approval == nil {
		t.Fatalf("agent-b's ask: %+v %v", res, err)
	}
	if res, err := e.submitAs(toolgate.Call{ID: "r1", Session: "s0", Tool: "Read", Args: map[string]any{"file_path": "README.md"}}, agentA); err != nil || res.Decision.Action != toolgate.Allow {
		t.Fatalf("agent-a's read at its quota: %+v %v", res, err)
	}
	if _, err := e.broker.Deny(context.Background(), ids[0], toolgate.DenyRequest{Mode: toolgate.DenySoft}, human); err != nil {
		t.Fatal(err)
	}
	if res, err := e.submitAs(shellCall("s9", "c2", "make flood"), agentA); err != nil || res.Approval == nil {
		t.Fatalf("after an answer: %+v %v", res, err)
	}
}

// TestSessionsPerCredentialCap: an agent credential opens at most its
// quota of new sessions an hour; its existing sessions go on, another
// credential opens its own, and the window moves on.
func TestSessionsPerCredentialCap(t *testing.T) {
	t.Parallel()
	e := newEnv(t, approval.WithCredentialQuotas(-1, 3))
	agentB := toolgate.Actor{Name: "agent-b", Via: "api", Agent: true}
	read := func(session, id string, by toolgate.Actor) error {
		_, err := e.submitAs(toolgate.Call{ID: id, Session: session, Tool: "Read", Args: map[string]any{"file_path": "README.md"}}, by)
		return err
	}
	for i := range 3 {
		if err := read(fmt.Sprint("s", i), "c1", agentA); err != nil {
			t.Fatalf("session %d: %v", i, err)
		}
	}
	if err := read("s3", "c1", agentA); toolgate.ErrorCodeOf(err) != toolgate.ERateLimited {
		t.Fatalf("a 4th session: %v, want rate limited", err)
	}
	if err := read("s0", "c2", agentA); err != nil {
		t.Fatalf("an existing session: %v", err)
	}
	if err := read("b0", "c1", agentB); err != nil {
		t.Fatalf("agent-b's session: %v", err)
	}
	e.clock.Add(approval.SessionWindow + time.Second)
	if err := read("s3", "c1", agentA); err != nil {
		t.Fatalf("a session an hour later: %v", err)
	}
}
