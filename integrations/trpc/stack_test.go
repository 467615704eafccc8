package trpc_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/integrations/trpc"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/server"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/fsrules"
	"github.com/toolgate/toolgate/store/sqlite"
	"github.com/toolgate/toolgate/tokens"
)

// stack is a real gateway on loopback: a broker over a SQLite store and
// workspace documents in a temporary directory, and the server with the
// tRPC procedures as its Mounts, with an agent and an approver token.
type stack struct {
	t        *testing.T
	srv      *httptest.Server
	broker   *approval.Broker
	store    store.Store
	rules    *fsrules.Dir
	dataDir  string
	agent    string
	approver string

	mu       sync.Mutex
	requests []string // "METHOD /path?query [last-event-id=ID]" of every tRPC request
}

func newStack(t *testing.T, cfg trpc.Config) *stack {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	st, err := sqlite.Open(ctx, filepath.Join(dir, "toolgate.db"))
	if err != nil {
		t.Fatal(err)
	}
	rules := fsrules.New(dir, policy.DefaultRulesJSONC)
	pol := approval.NewWorkspaces(rules, nil, policy.WithHome("/home/user"))
	b, err := approval.New(ctx, st, pol)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := tokens.Open(filepath.Join(dir, "tokens.json"))
	if err != nil {
		t.Fatal(err)
	}
	s := &stack{t: t, broker: b, store: st, rules: rules, dataDir: dir}
	if s.agent, err = tok.Create("agent-1", tokens.RoleAgent); err != nil {
		t.Fatal(err)
	}
	if s.approver, err = tok.Create("alice", tokens.RoleApprover); err != nil {
		t.Fatal(err)
	}
	mux := server.NewServer(server.Deps{Broker: b, Policies: pol, Rules: rules, Tokens: tok, Store: st,
		Limits: server.Limits{RatePerSecond: -1}, Mounts: trpc.Mounts(b, cfg)})
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
	}))
	t.Cleanup(func() {
		s.srv.CloseClientConnections()
		s.srv.Close()
		b.Close()
		st.Close()
	})
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
	res, err := s.broker.Submit(context.Background(), approval.SubmitRequest{Call: toolgate.Call{
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
	res, err := s.broker.Submit(context.Background(), approval.SubmitRequest{Call: toolgate.Call{
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
	a, err := s.broker.Get(context.Background(), id)
	if err != nil {
		s.t.Fatal(err)
	}
	return a
}

// waitStatus waits until an approval leaves pending.
func (s *stack) waitStatus(id string) *toolgate.Approval {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	a, err := s.broker.Wait(ctx, id)
	if err != nil {
		s.t.Fatalf("wait for %s: %v", id, err)
	}
	return a
}

// permissions returns the default workspace's rules document as on disk.
func (s *stack) permissions() string {
	s.t.Helper()
	src, _, err := s.rules.Document(context.Background(), approval.DefaultWorkspace)
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
	var rd io.Reader
	if body != "" {
		rd = bytes.NewReader([]byte(body))
	}
	req, err := http.NewRequest(method, s.srv.URL+path, rd)
	if err != nil {
		s.t.Fatal(err)
	}
	tk := s.approver
	if len(token) > 0 {
		tk = token[0]
	}
	if tk != "-" {
		req.Header.Set("Authorization", "Bearer "+tk)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := s.srv.Client().Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil && !errors.Is(err, io.EOF) {
		s.t.Fatal(err)
	}
	return httpResp{status: resp.StatusCode, header: resp.Header, body: data}
}
