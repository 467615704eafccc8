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

// The broker's request and result types are the root package's, named here
// too so callers of the broker read naturally.
type (
	// Actor is toolgate.Actor.
	Actor = toolgate.Actor
	// SubmitRequest is toolgate.SubmitRequest.
	SubmitRequest = toolgate.SubmitRequest
	// Result is toolgate.Result.
	Result = toolgate.Result
	// ApproveRequest is toolgate.ApproveRequest.
	ApproveRequest = toolgate.ApproveRequest
	// DenyRequest is toolgate.DenyRequest.
	DenyRequest = toolgate.DenyRequest
	// EventFilter is toolgate.EventFilter.
	EventFilter = toolgate.EventFilter
)

// owns reports whether by may act on session s as an agent.
func owns(by Actor, s *toolgate.Session) bool {
	return !by.Agent || s.Owner == "" || s.Owner == by.Name
}

// caller is the context's actor (toolgate.WithActor), the zero Actor (an
// in-process host) if it carries none.
func caller(ctx context.Context) Actor {
	a, _ := toolgate.ActorFrom(ctx)
	return a
}
