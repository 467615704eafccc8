package approval

import (
	"context"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
)

// ReapNow expires every pending approval whose time is up and returns how
// many it expired. Timers expire approvals exactly; ReapNow is the
// backstop the reaper runs, and what tests call after moving the clock.
func (b *Broker) ReapNow(ctx context.Context) (int, error) {
	due, err := b.store.ListApprovals(ctx, store.ApprovalFilter{Status: toolgate.StatusPending, ExpiresBefore: b.now()})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, a := range due {
		if _, err := b.expire(ctx, a.ID); err == nil {
			n++
		} else if toolgate.ErrorCodeOf(err) != toolgate.EConflict {
			return n, err
		}
	}
	return n, nil
}

// SpawnReaper runs ReapNow every interval (the broker's sweep interval if
// zero) until the returned stop function is called or the broker closes.
func (b *Broker) SpawnReaper(interval time.Duration) (stop func()) {
	if interval <= 0 {
		interval = b.sweep
	}
	done := make(chan struct{})
	b.reapers.Add(1)
	go func() {
		defer b.reapers.Done()
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-b.stop:
				return
			case <-t.C:
				ctx, cancel := context.WithTimeout(context.Background(), interval)
				if _, err := b.ReapNow(ctx); err != nil {
					b.log.Error("reap expired approvals", "err", err)
				}
				cancel()
			}
		}
	}()
	var once bool
	return func() {
		if !once {
			once = true
			close(done)
		}
	}
}
