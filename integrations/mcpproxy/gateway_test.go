package mcpproxy_test

import (
	"context"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/stacktest"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/fsrules"
)

// gatewayRules is the test gateway's workspace document: the demo server's
// tools named *delete* are denied, echo is allowed, everything else asks.
const gatewayRules = `{
  "*": "ask",
  "mcp__demo__echo": "allow",
  "mcp__demo__*delete*": "deny"
}`

// testGateway is a real gateway (broker, SQLite store, HTTP server) for the
// proxy processes to talk to, with what it holds and withdraws observed on
// its event stream.
type testGateway struct {
	t     *testing.T
	stack *stacktest.Stack
	// agent and approver are bearer tokens of those roles.
	agent, approver string
	submitted       chan *toolgate.Approval
	cancelled       chan string
}

func newTestGateway(t *testing.T) *testGateway { return newTestGatewayWith(t, gatewayRules) }

// newTestGatewayWith is newTestGateway with rules as its workspace document.
func newTestGatewayWith(t *testing.T, rules string) *testGateway {
	s := stacktest.New(t, stacktest.Rules(func(dir string) store.Rules { return fsrules.New(dir, []byte(rules)) }))
	g := &testGateway{t: t, stack: s, agent: s.Agent, approver: s.Approver,
		submitted: make(chan *toolgate.Approval, 16), cancelled: make(chan string, 16)}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	sub := s.Broker.Subscribe(ctx, toolgate.EventFilter{})
	go func() {
		defer sub.Close()
		for ev := range sub.Events() {
			switch {
			case ev.Type == toolgate.EventApprovalRequested && ev.Approval != nil:
				g.submitted <- ev.Approval
			case ev.Type == toolgate.EventApprovalResolved && ev.Approval != nil && ev.Approval.Status == toolgate.StatusCancelled:
				g.cancelled <- ev.Approval.ID
			}
		}
	}()
	return g
}

func (g *testGateway) URL() string { return g.stack.Server.URL }

// nextSubmitted waits for the next call held for approval.
func (g *testGateway) nextSubmitted() *toolgate.Approval {
	g.t.Helper()
	select {
	case a := <-g.submitted:
		return a
	case <-time.After(15 * time.Second):
		g.t.Fatal("no call was held for approval")
		return nil
	}
}

// nextCancelled waits for the next approval withdrawn.
func (g *testGateway) nextCancelled() string {
	g.t.Helper()
	select {
	case id := <-g.cancelled:
		return id
	case <-time.After(15 * time.Second):
		g.t.Fatal("no approval was withdrawn")
		return ""
	}
}
