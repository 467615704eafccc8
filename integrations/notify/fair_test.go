package notify_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/integrations/notify"
	"github.com/toolgate/toolgate/internal/stacktest"
)

// gatedNotifier records what it sends, holding each send until the test
// lets it go: a slow channel (a rate-limited chat API).
type gatedNotifier struct {
	gate chan struct{}
	mu   sync.Mutex
	sent []string // sessions, in the order sent
}

func (n *gatedNotifier) Name() string { return "gated" }
func (n *gatedNotifier) Send(ctx context.Context, a *toolgate.Approval) (string, error) {
	select {
	case <-n.gate:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	n.mu.Lock()
	n.sent = append(n.sent, a.Call.Session)
	n.mu.Unlock()
	return a.ID, nil
}
func (n *gatedNotifier) Resolved(context.Context, *toolgate.Approval, string) error { return nil }

func (n *gatedNotifier) sessions() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.sent...)
}

// TestFairQueues: one agent token flooding a slow notifier fills its own
// queue and has the rest of its messages dropped; another token's
// messages, asked after the flood, are all delivered, taking turns with
// the flood's backlog rather than waiting behind it.
func TestFairQueues(t *testing.T) {
	t.Parallel()
	const queue = 8
	st := stacktest.New(t, stacktest.Broker(approval.WithCredentialQuotas(-1, -1), approval.WithMaxPending(-1)))
	n := &gatedNotifier{gate: make(chan struct{})}
	d := notify.NewDispatcher(st.Broker, notify.WithQueue(queue))
	d.Add(n, notify.Filter{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); d.Run(ctx, st.Broker.Gate()) }()
	defer func() { cancel(); <-done }()

	ask := func(by string, session string, i int) {
		t.Helper()
		r, err := st.Broker.Submit(context.Background(), toolgate.SubmitRequest{
			Call: toolgate.Call{ID: fmt.Sprint("c", i), Session: session, Tool: "Bash", Args: map[string]any{"command": fmt.Sprint("make t", i)}},
			By:   toolgate.Actor{Name: by, Via: "api", Agent: true}})
		if err != nil || r.Approval == nil {
			t.Fatalf("ask: %+v %v", r, err)
		}
	}
	for i := range 5 * queue {
		ask("flooder", fmt.Sprint("flood-", i), i)
	}
	waitFor(t, func() bool { return d.Health()[0].Dropped >= 5*queue-queue-1 })
	for i := range 5 {
		ask("victim", "victim", 100+i)
	}
	time.Sleep(50 * time.Millisecond) // the victim's events are routed
	total := 0
	for total < queue+1+5 {
		n.gate <- struct{}{}
		total++
	}
	waitFor(t, func() bool { return len(n.sessions()) == total })
	var victim []int
	for i, s := range n.sessions() {
		if s == "victim" {
			victim = append(victim, i)
		}
	}
	h := d.Health()[0]
	t.Logf("sent %v; victim's at %v; dropped %d", n.sessions(), victim, h.Dropped)
	if len(victim) != 5 {
		t.Fatalf("the other token's messages sent: %d of 5 (dropped in all: %d)", len(victim), h.Dropped)
	}
	// Turns: the flood's one in flight, then one each until the victim's
	// run out (not the flood's whole backlog first).
	if last := victim[len(victim)-1]; last > 2*5 {
		t.Fatalf("the other token's last message was the %dth sent: it waited behind the flood", last+1)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
	}
}
