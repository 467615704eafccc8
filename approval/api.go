package approval

import (
	"context"
	"time"

	"github.com/toolgate/toolgate"
)

// TimeoutReason is the reason an expired approval is denied with, word for
// word as the seed engine sends it.
const TimeoutReason = "approval timed out (no host response)"

// Defaults from the seed engine (DESIGN §4.3).
const (
	DefaultTTL           = 5 * time.Minute
	DefaultSweepInterval = 30 * time.Second
)

// owns reports whether by may act on session s as an agent.
func owns(by toolgate.Actor, s *toolgate.Session) bool {
	return !by.Agent || s.Owner == "" || s.Owner == by.Name
}

// caller is the context's actor (toolgate.WithActor), the zero Actor (an
// in-process host) if it carries none.
func caller(ctx context.Context) toolgate.Actor {
	a, _ := toolgate.ActorFrom(ctx)
	return a
}
