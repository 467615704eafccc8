package confirm_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/confirm"
	"github.com/toolgate/toolgate/internal/stacktest"
	"github.com/toolgate/toolgate/server/mount"
)

// stack is a real gateway on loopback: a broker over a SQLite store and
// workspace documents in a temporary directory, and the server with the
// confirmation endpoints as its Mounts.
type stack struct {
	*stacktest.Stack
	t       *testing.T
	confirm *confirm.Confirm
}

func newStack(t *testing.T, cfg confirm.Config, opts ...stacktest.Option) *stack {
	t.Helper()
	s := &stack{t: t}
	s.Stack = stacktest.New(t, append(opts, stacktest.Names("host", "alice", "root"),
		stacktest.Mounts(func(st *stacktest.Stack) []mount.Route {
			var err error
			if s.confirm, err = confirm.New(context.Background(), st.Broker, cfg, confirm.Options{Heartbeat: 50 * time.Millisecond}); err != nil {
				t.Fatal(err)
			}
			return s.confirm.Mounts()
		}))...)
	return s
}

// httpResp is a finished request.
type httpResp struct {
	status int
	body   string
}

// post sends a JSON body (a string as is) with a token.
func (s *stack) post(path, token string, body any) httpResp {
	s.t.Helper()
	r := s.Do("POST", path, token, body, "Content-Type", "application/json")
	return httpResp{status: r.Status, body: string(r.Body)}
}

// answer posts an answer to a confirmation as the approver.
func (s *stack) answer(executionID string, body any) httpResp {
	s.t.Helper()
	return s.post("/api/tool-confirmation/"+executionID, s.Approver, body)
}

// ask submits a call straight to the broker; it must wait for a human.
func (s *stack) ask(session, callID, tool string, args map[string]any) *toolgate.Approval {
	s.t.Helper()
	res, err := s.Broker.Submit(context.Background(), toolgate.SubmitRequest{Call: toolgate.Call{ID: callID, Session: session, Tool: tool, Args: args}})
	if err != nil {
		s.t.Fatal(err)
	}
	if res.Approval == nil || res.Approval.Status != toolgate.StatusPending {
		s.t.Fatalf("%s %v: want pending, got %s (%s)", tool, args, res.Decision.Action, res.Decision.Reason)
	}
	return res.Approval
}

// decide submits a call straight to the broker and returns its verdict.
func (s *stack) decide(session, workspace, callID, tool string, args map[string]any) toolgate.Action {
	s.t.Helper()
	res, err := s.Broker.Submit(context.Background(), toolgate.SubmitRequest{Call: toolgate.Call{ID: callID, Session: session, Workspace: workspace, Tool: tool, Args: args}})
	if err != nil {
		s.t.Fatal(err)
	}
	a, ok := res.Final()
	if !ok {
		return toolgate.Ask
	}
	return a
}

func (s *stack) get(id string) *toolgate.Approval {
	s.t.Helper()
	a, err := s.Broker.Get(context.Background(), id)
	if err != nil {
		s.t.Fatal(err)
	}
	return a
}

// submit posts a call through the host submission route in the
// background and returns where its outcome arrives.
func (s *stack) submit(body any) <-chan confirm.Outcome {
	ch := make(chan confirm.Outcome, 1)
	go func() {
		r := s.post("/api/tool-confirmation", s.Agent, body)
		var out confirm.Outcome
		if r.status != 200 || json.Unmarshal([]byte(r.body), &out) != nil {
			s.t.Errorf("submit: %d %s", r.status, r.body)
		}
		ch <- out
	}()
	return ch
}

func receive[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(30 * time.Second):
		t.Fatal("timed out")
	}
	panic("unreachable")
}

// sseMsg is one event of GET /api/events.
type sseMsg struct {
	id   string
	Type string          `json:"type"`
	Data json.RawMessage `json:"data"`
}

// events opens the SSE stream and returns its messages.
func (s *stack) events(ctx context.Context, query string) <-chan sseMsg {
	s.t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", s.Server.URL+"/api/events"+query, nil)
	req.Header.Set("Authorization", "Bearer "+s.Approver)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := s.Server.Client().Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		s.t.Fatalf("events: %d %v", resp.StatusCode, resp.Header)
	}
	ch := make(chan sseMsg, 64)
	go func() {
		defer close(ch)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		var cur sseMsg
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "id: "):
				cur.id = line[4:]
			case strings.HasPrefix(line, "data: "):
				if err := json.Unmarshal([]byte(line[6:]), &cur); err != nil {
					panic(err)
				}
			case line == "" && cur.Type != "":
				ch <- cur
				cur = sseMsg{}
			}
		}
	}()
	return ch
}

// next waits for the first message that matches.
func next[T any](t *testing.T, ch <-chan T, what string, match func(T) bool) T {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case v, ok := <-ch:
			if !ok {
				t.Fatalf("%s: stream ended", what)
			}
			if match(v) {
				return v
			}
		case <-timeout:
			t.Fatalf("%s: timed out", what)
		}
	}
}
