package gatetest_test

import (
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/internal/gatetest"
	"github.com/toolgate/toolgate/internal/stacktest"
	"github.com/toolgate/toolgate/tokens"
)

// TestBroker runs the suite on the broker in process, each credential an
// actor in the context.
func TestBroker(t *testing.T) {
	t.Parallel()
	gatetest.Run(t, func(t *testing.T) gatetest.Harness {
		s := stacktest.New(t)
		g := s.Broker.Gate()
		return gatetest.Harness{
			Agent:    gatetest.As(g, toolgate.Actor{Name: "agent-1", Via: "test", Agent: true}),
			Agent2:   gatetest.As(g, toolgate.Actor{Name: "agent-2", Via: "test", Agent: true}),
			Approver: gatetest.As(g, toolgate.Actor{Name: "alice", Via: "test"}),
			Admin:    gatetest.As(g, toolgate.Actor{Name: "root", Via: "test", Admin: true}),
		}
	})
}

// TestHTTPClient runs the suite on the HTTP client in front of a real
// server, each credential a token.
func TestHTTPClient(t *testing.T) {
	t.Parallel()
	gatetest.Run(t, func(t *testing.T) gatetest.Harness {
		s := stacktest.New(t)
		agent2, err := s.Tokens.Create("agent-2", tokens.RoleAgent)
		if err != nil {
			t.Fatal(err)
		}
		newClient := func(token string) toolgate.Gate {
			c, err := client.New(s.Server.URL, token, client.WithVia("test"))
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
		return gatetest.Harness{
			Agent: newClient(s.Agent), Agent2: newClient(agent2),
			Approver: newClient(s.Approver), Admin: newClient(s.Admin),
		}
	})
}
