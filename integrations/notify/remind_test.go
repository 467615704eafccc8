package notify_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/integrations/notify"
	"github.com/toolgate/toolgate/internal/stacktest"
)

// remindingNotifier records sends and reminders.
type remindingNotifier struct {
	mu              sync.Mutex
	sent, reminders []string
}

func (n *remindingNotifier) Name() string { return "reminding" }
func (n *remindingNotifier) Send(_ context.Context, a *toolgate.Approval) (string, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.sent = append(n.sent, a.Call.ID)
	return "ref-" + a.ID, nil
}
func (n *remindingNotifier) Resolved(context.Context, *toolgate.Approval, string) error { return nil }
func (n *remindingNotifier) Remind(_ context.Context, a *toolgate.Approval, ref string) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if ref != "ref-"+a.ID {
		panic("reminded with another message's reference")
	}
	n.reminders = append(n.reminders, a.Call.ID)
	return nil
}

func (n *remindingNotifier) counts() (int, []string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.sent), append([]string(nil), n.reminders...)
}

// TestReminder: an approval still pending the configured time before it
// expires is reminded once; one answered before then is not.
func TestReminder(t *testing.T) {
	t.Parallel()
	st := stacktest.New(t, stacktest.Broker(approval.WithTTL(1500*time.Millisecond)))
	n := &remindingNotifier{}
	d := notify.NewDispatcher(st.Broker, notify.WithReminder(time.Second))
	d.Add(n, notify.Filter{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); d.Run(ctx, st.Broker.Gate()) }()
	defer func() { cancel(); <-done }()
	var ids []string
	for _, id := range []string{"waits", "answered"} {
		r, err := st.Broker.Submit(context.Background(), toolgate.SubmitRequest{Call: toolgate.Call{ID: id, Session: "s-" + id, Tool: "Bash", Args: map[string]any{"command": "make deploy"}}})
		if err != nil || r.Approval == nil {
			t.Fatalf("%s: %+v %v", id, r, err)
		}
		ids = append(ids, r.Approval.ID)
	}
	waitFor(t, func() bool { sent, _ := n.counts(); return sent == 2 })
	if _, err := st.Broker.Gate().Approve(toolgate.WithActor(context.Background(), toolgate.Actor{Name: "alice", Via: "test"}), ids[1], toolgate.ApproveRequest{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { _, r := n.counts(); return len(r) > 0 })
	time.Sleep(1200 * time.Millisecond) // past both expiries: no second reminder, none for the answered
	if _, r := n.counts(); len(r) != 1 || r[0] != "waits" {
		t.Fatalf("reminders: %v, want one for the call still waiting", r)
	}
}
