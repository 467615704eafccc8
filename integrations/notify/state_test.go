package notify_test

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/notify"
	"github.com/toolgate/toolgate/integrations/notify/notifytest"
)

// recorder is a notifier that records what it is asked to do.
type recorder struct {
	mu     sync.Mutex
	sent   []string // approval ids
	edited []string // refs
	n      int
}

func (r *recorder) Name() string { return "recorder" }

func (r *recorder) Send(_ context.Context, a *toolgate.Approval) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n++
	r.sent = append(r.sent, a.ID)
	return fmt.Sprintf("msg-%d", r.n), nil
}

func (r *recorder) Resolved(_ context.Context, _ *toolgate.Approval, ref string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.edited = append(r.edited, ref)
	return nil
}

func (r *recorder) counts() (int, []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.sent), append([]string(nil), r.edited...)
}

// TestStateFileSurvivesRestart: a dispatcher restarted on the same state
// file does not send a still-pending approval again (the stream replays
// it), and edits the message the first one sent when it resolves.
func TestStateFileSurvivesRestart(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	// The env's own dispatcher feeds another recorder; rec sees only this
	// test's dispatchers.
	env := notifytest.New(t, notify.Filter{}, func(*notify.Links) notify.Notifier { return &recorder{} })
	state := filepath.Join(t.TempDir(), "notify-state.json")

	run := func() (stop func()) {
		d := notify.NewDispatcher(env.Stack.Broker, notify.WithStateFile(state))
		d.Add(rec, notify.Filter{})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); d.Run(ctx, env.Stack.Broker.Gate()) }()
		return func() { cancel(); <-done }
	}
	stop := run()
	a := env.Submit(t, "demo", "c1", "make deploy")
	notifytest.Eventually(t, "sent", func() bool { n, _ := rec.counts(); return n == 1 })
	stop()

	stop = run() // "restart": the stream replays the pending approval
	defer stop()
	time.Sleep(200 * time.Millisecond)
	if n, _ := rec.counts(); n != 1 {
		t.Fatalf("the restarted dispatcher sent the pending approval again (%d sends)", n)
	}
	if res := env.Stack.Do(http.MethodPost, "/v1/approvals/"+a.ID+"/approve", env.Stack.Approver, nil); res.Status != http.StatusOK {
		t.Fatalf("approve: %d %s", res.Status, res.Body)
	}
	notifytest.Eventually(t, "message edited", func() bool { _, e := rec.counts(); return len(e) == 1 })
	if _, edited := rec.counts(); edited[0] != "msg-1" {
		t.Fatalf("edited %v: the restarted dispatcher must edit the message sent before the restart", edited)
	}
}
