package approval_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/store/fsrules"
	"github.com/toolgate/toolgate/store/sqlite"
)

// newExampleBroker starts a broker on a throwaway SQLite store, with the
// default rules in the workspace "default".
func newExampleBroker(opts ...approval.Option) (*approval.Broker, func()) {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "toolgate-example")
	if err != nil {
		panic(err)
	}
	st, err := sqlite.Open(ctx, filepath.Join(dir, "toolgate.db"))
	if err != nil {
		panic(err)
	}
	pol := approval.NewWorkspaces(fsrules.New(dir, policy.DefaultRulesJSONC()), nil)
	b, err := approval.New(ctx, st, pol, opts...)
	if err != nil {
		panic(err)
	}
	return b, func() { b.Close(); st.Close(); os.RemoveAll(dir) }
}

// An agent asks for a shell command; a human answers from the event stream
// and grants the suggested pattern for the session, so the next push of the
// same kind needs nobody.
func ExampleBroker_RequestApproval() {
	ctx := context.Background()
	b, done := newExampleBroker()
	defer done()

	events := b.Subscribe(ctx, toolgate.EventFilter{})
	defer events.Close()
	go func() {
		ev := <-events.Events() // approval.requested
		human := toolgate.Actor{Name: "alice", Via: "example"}
		// The person widens "for this session" from the exact call to the
		// suggested pattern.
		b.Approve(ctx, ev.Approval.ID, toolgate.ApproveRequest{Scope: toolgate.ScopeSession, Pattern: ev.Approval.Decision.Suggestions[0].Pattern}, human)
	}()

	push := toolgate.Call{ID: "c1", Session: "s1", Tool: "Bash", Args: map[string]any{"command": "git push origin main"}}
	r, err := b.RequestApproval(ctx, toolgate.SubmitRequest{Call: push})
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Approval.Status, "with grant", r.Approval.Resolution.Pattern)

	again := toolgate.Call{ID: "c2", Session: "s1", Tool: "Bash", Args: map[string]any{"command": "git push --tags"}}
	r, _ = b.Submit(ctx, toolgate.SubmitRequest{Call: again})
	fmt.Println(r.Decision.Action)
	// Output:
	// approved with grant git push *
	// allow
}

// Resolve ends an approval with any final status; here the host gave up.
func ExampleBroker_Resolve() {
	ctx := context.Background()
	b, done := newExampleBroker()
	defer done()
	r, _ := b.Submit(ctx, toolgate.SubmitRequest{Call: toolgate.Call{ID: "c1", Tool: "Bash", Args: map[string]any{"command": "make deploy"}}})
	a, _ := b.Resolve(ctx, r.Approval.ID, toolgate.Resolution{Status: toolgate.StatusCancelled, Reason: "host shut down", By: "host"})
	fmt.Println(a.Status, "-", a.Resolution.Reason)
	// Output: cancelled - host shut down
}

// Pending approvals expire into a deny. Timers do it exactly; ReapNow is
// the sweep, which tests drive with an injected clock.
func ExampleBroker_ReapNow() {
	ctx := context.Background()
	now := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	b, done := newExampleBroker(approval.WithClock(func() time.Time { return now }))
	defer done()
	r, _ := b.Submit(ctx, toolgate.SubmitRequest{Call: toolgate.Call{ID: "c1", Tool: "Bash", Args: map[string]any{"command": "make deploy"}}})

	now = now.Add(toolgate.DefaultTTL)
	n, _ := b.ReapNow(ctx)
	a, _ := b.Get(ctx, r.Approval.ID)
	fmt.Println(n, a.Status, "-", a.Resolution.Reason)
	// Output: 1 expired - approval timed out (no host response)
}

// SpawnReaper runs the sweep in the background until stopped: an approval
// whose time ran out (here by moving the injected clock, which the exact
// timer does not see) is expired by the next sweep.
func ExampleBroker_SpawnReaper() {
	ctx := context.Background()
	var mu sync.Mutex
	now := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	b, done := newExampleBroker(approval.WithClock(clock))
	defer done()
	r, _ := b.Submit(ctx, toolgate.SubmitRequest{Call: toolgate.Call{ID: "c1", Tool: "Bash", Args: map[string]any{"command": "make deploy"}}})

	mu.Lock()
	now = now.Add(toolgate.DefaultTTL)
	mu.Unlock()
	stop := b.SpawnReaper(10 * time.Millisecond)
	defer stop()
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	a, err := b.Wait(wctx, r.Approval.ID)
	fmt.Println(a.Status, err)
	// Output: expired <nil>
}
