// Package stream is the plumbing of toolgate's event streams: the
// Server-Sent Events writer and the WebSocket pump shared by the server's
// /v1/events and the integrations (confirm, trpc, wsapprovals). Each
// protocol keeps its own message shapes; this package only writes them,
// with a heartbeat and a per-write timeout, until the client goes away or
// the broker's subscription ends.
package stream

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/toolgate/toolgate"
)

// ErrGone reports a write that failed: the client went away or was too
// slow. The Run methods end quietly (return nil) on it.
var ErrGone = errors.New("stream: client went away")

// loop is an event stream's main loop: it calls beat every interval,
// event with each event and message with each value from in (nil for
// none), until ctx is done, events closes (ended) or a call returns an
// error. ErrGone from a call ends the loop with a nil error.
func loop[M any](ctx context.Context, interval time.Duration, beat func() error,
	events <-chan toolgate.Event, event func(*toolgate.Event) error,
	in <-chan M, message func(M) error) (ended bool, err error) {
	var beats <-chan time.Time // nil: no heartbeat in this loop
	if beat != nil {
		tick := time.NewTicker(interval)
		defer tick.Stop()
		beats = tick.C
	}
	for {
		select {
		case <-ctx.Done():
			return false, nil
		case <-beats:
			err = beat()
		case m := <-in:
			err = message(m)
		case e, ok := <-events:
			if !ok {
				return true, nil
			}
			err = event(&e)
		}
		if err != nil {
			if errors.Is(err, ErrGone) {
				err = nil
			}
			return false, err
		}
	}
}

// gone wraps a write error as ErrGone.
func gone(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%w: %w", ErrGone, err)
}
