package approval

import (
	"context"

	"github.com/toolgate/toolgate"
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
