package trpc_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/integrations/trpc"
	"github.com/toolgate/toolgate/internal/stacktest"
	"github.com/toolgate/toolgate/server/mount"
)

// stack is a real gateway on loopback: a broker over a SQLite store and
// workspace documents in a temporary directory, and the server with the
// tRPC procedures as its Mounts, with an agent and an approver token.
type stack struct {
	*stacktest.Stack
	t *testing.T

	mu       sync.Mutex
	requests []string // "METHOD /path?query [last-event-id=ID]" of every tRPC request
}

func newStack(t *testing.T, cfg trpc.Config) *stack {
	t.Helper()
	s := &stack{t: t}
	s.Stack = stacktest.New(t,
		stacktest.Mounts(func(st *stacktest.Stack) []mount.Route { return trpc.Mounts(st.Broker, cfg) }),
		stacktest.Handler(func(_ *stacktest.Stack, mux http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.HasPrefix(r.URL.Path, "/trpc") {
					s.mu.Lock()
					line := r.Method + " " + r.URL.RequestURI()
					if id := r.Header.Get("Last-Event-ID"); id != "" {
						line += " last-event-id=" + id
					}
					s.requests = append(s.requests, line)
					s.mu.Unlock()
				}
				mux.ServeHTTP(w, r)
			})
		}))
	return s
}

// Requests returns the tRPC requests made so far and forgets them.
func (s *stack) takeRequests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.requests
	s.requests = nil
	return r
}

// ask submits a call that must wait for a human and returns its approval.
func (s *stack) ask(session, callID, tool string, args map[string]any) *toolgate.Approval {
	s.t.Helper()
	res, err := s.Broker.Submit(context.Background(), toolgate.SubmitRequest{Call: toolgate.Call{
		ID: callID, Session: session, Tool: tool, Args: args,
	}})
	if err != nil {
		s.t.Fatal(err)
	}
	if res.Approval == nil || res.Approval.Status != toolgate.StatusPending {
		s.t.Fatalf("call %s %v: want pending approval, got %s (%s)", tool, args, res.Decision.Action, res.Decision.Reason)
	}
	return res.Approval
}

// shell submits a shell_exec call (the seed's shell tool) that must ask.
func (s *stack) shell(session, callID, cmd string) *toolgate.Approval {
	s.t.Helper()
	return s.ask(session, callID, "shell_exec", map[string]any{"command": cmd})
}

// decide submits a call and returns its verdict, ask while it waits.
func (s *stack) decide(session, callID, cmd string) toolgate.Action {
	s.t.Helper()
	res, err := s.Broker.Submit(context.Background(), toolgate.SubmitRequest{Call: toolgate.Call{
		ID: callID, Session: session, Tool: "shell_exec", Args: map[string]any{"command": cmd},
	}})
	if err != nil {
		s.t.Fatal(err)
	}
	a, ok := res.Final()
	if !ok {
		return toolgate.Ask
	}
	return a
}

// get returns an approval as it stands.
func (s *stack) get(id string) *toolgate.Approval {
	s.t.Helper()
	a, err := s.Broker.Get(context.Background(), id)
	if err != nil {
		s.t.Fatal(err)
	}
	return a
}

// permissions returns the default workspace's rules document as on disk.
func (s *stack) permissions() string {
	s.t.Helper()
	src, _, err := s.Rules.Document(context.Background(), approval.DefaultWorkspace)
	if err != nil {
		s.t.Fatal(err)
	}
	return string(src)
}

// httpResp is a finished request.
type httpResp struct {
	status int
	header http.Header
	body   []byte
}

// do sends a raw request with the approver's token unless token says
// otherwise ("-" for none).
func (s *stack) do(method, path, contentType, body string, token ...string) httpResp {
	s.t.Helper()
	tk := s.Approver
	if len(token) > 0 {
		tk = token[0]
	}
	if tk == "-" {
		tk = ""
	}
	var hdr []string
	if contentType != "" {
		hdr = []string{"Content-Type", contentType}
	}
	r := s.Do(method, path, tk, body, hdr...)
	return httpResp{status: r.Status, header: r.Header, body: r.Body}
}
