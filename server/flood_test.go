package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/server"
	"github.com/toolgate/toolgate/tokens"
)

// raw sends a request from any goroutine (stacktest's Do fails the test
// on a transport error, which only the test's goroutine may do) and
// returns its status; ctx ending is status 0.
func (e *env) raw(ctx context.Context, method, path, token string, body []byte) int {
	var rd io.Reader
	if body != nil {
		rd = strings.NewReader(string(body))
	}
	req, err := http.NewRequestWithContext(ctx, method, e.Server.URL+path, rd)
	if err != nil {
		return -1
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := e.Server.Client().Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

// tally counts statuses from many goroutines.
type tally struct {
	mu sync.Mutex
	n  map[int]int
}

func (t *tally) add(status int) { t.mu.Lock(); t.n[status]++; t.mu.Unlock() }
func (t *tally) get(status int) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.n[status]
}
func (t *tally) String() string { t.mu.Lock(); defer t.mu.Unlock(); return fmt.Sprint(t.n) }

// TestOneTokenFlooding is the attack from one agent token against a
// shared gateway, with the per-token request rate limit off so that the
// quotas are what holds: asks spread over hundreds of sessions, long
// polls by the hundred, and 200 KB call arguments. The token gets its
// quotas and 429s past them; another agent token's call is still served,
// waits in a long poll and reaches approvers' event streams. Bounded:
// a fixed number of requests, in parallel.
func TestOneTokenFlooding(t *testing.T) {
	t.Parallel()
	const (
		holdsQuota = 16
		bytesQuota = 2 << 20
	)
	e := newEnv(t, func(d *server.Deps) {
		d.Limits.MaxHoldsPerToken = holdsQuota
		d.Limits.StoredBytesPerMinute = bytesQuota
	})
	victim, err := e.Tokens.Create("agent-2", tokens.RoleAgent)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()

	// 1. Asks over many sessions.
	asks := &tally{n: map[int]int{}}
	var wg sync.WaitGroup
	work := make(chan int)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				body, _ := json.Marshal(map[string]any{"call": shell(fmt.Sprint("flood-", i), "c1", fmt.Sprint("make t", i))})
				asks.add(e.raw(ctx, "POST", "/v1/calls", e.Agent, body))
			}
		}()
	}
	for i := range approval.DefaultMaxPendingPerCredential + 100 {
		work <- i
	}
	close(work)
	wg.Wait()
	pending, err := e.Broker.List(ctx, toolgate.ApprovalFilter{Status: toolgate.StatusPending})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("asks from one token: %s; pending %d", asks, len(pending))
	if len(pending) > approval.DefaultMaxPendingPerCredential || asks.get(http.StatusTooManyRequests) < 100 {
		t.Errorf("one token holds %d pending (quota %d); answers %s", len(pending), approval.DefaultMaxPendingPerCredential, asks)
	}

	// 2. Long polls on its own approvals.
	polls := &tally{n: map[int]int{}}
	pollCtx, stopPolls := context.WithCancel(ctx)
	var pollWG sync.WaitGroup
	for i := range holdsQuota * 4 {
		pollWG.Add(1)
		go func() {
			defer pollWG.Done()
			polls.add(e.raw(pollCtx, "GET", "/v1/approvals/"+pending[i%len(pending)].ID+"?wait=60s", e.Agent, nil))
		}()
	}
	deadline := time.Now().Add(20 * time.Second)
	for polls.get(http.StatusTooManyRequests) < holdsQuota*3 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("long polls from one token: %d refused of %d", polls.get(http.StatusTooManyRequests), holdsQuota*4)
	if got := polls.get(http.StatusTooManyRequests); got != holdsQuota*3 {
		t.Errorf("long polls refused: %d, want %d (%s)", got, holdsQuota*3, polls)
	}

	// 3. Large arguments.
	big := strings.Repeat("x", 200<<10)
	sent := &tally{n: map[int]int{}}
	for i := range 20 {
		body, _ := json.Marshal(map[string]any{"call": toolgate.Call{ID: fmt.Sprint("w", i), Session: "flood-big", Tool: "Read", Args: map[string]any{"file_path": "README.md", "pad": big}}})
		sent.add(e.raw(ctx, "POST", "/v1/calls", e.Agent, body))
	}
	t.Logf("200 KB calls from one token: %s", sent)
	if ok := sent.get(http.StatusOK); ok*200<<10 > bytesQuota+(200<<10) || sent.get(http.StatusTooManyRequests) == 0 {
		t.Errorf("200 KB calls: %s with a quota of %d bytes a minute", sent, bytesQuota)
	}

	// The other token, meanwhile: served, waits, is seen by approvers
	// (whose stream replays what is pending, then follows).
	sub := e.Broker.Subscribe(ctx, toolgate.EventFilter{})
	defer sub.Close()
	var res toolgate.Result
	e.must(200, "POST", "/v1/calls", victim, map[string]any{"call": shell("v1", "c1", "make deploy")}, &res)
	if res.Approval == nil || res.Approval.Status != toolgate.StatusPending {
		t.Fatalf("agent-2's ask: %+v", res)
	}
	e.must(200, "GET", "/v1/approvals/"+res.Approval.ID+"?wait=50ms", victim, nil, nil)
	seen := false
	for !seen {
		select {
		case ev, open := <-sub.Events():
			if !open {
				t.Fatalf("the approvers' stream ended: %v", sub.Err())
			}
			seen = ev.Type == toolgate.EventApprovalRequested && ev.Approval != nil && ev.Approval.ID == res.Approval.ID
		case <-time.After(10 * time.Second):
			t.Fatal("agent-2's approval never reached the event stream")
		}
	}
	stopPolls()
	pollWG.Wait()
}

// TestBodyTimeout: an authenticated client that sends its headers and
// then stalls its body is answered and cut off after the body timeout,
// not held for good; a long poll whose body arrived in time waits its
// whole ?wait= past it.
func TestBodyTimeout(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(d *server.Deps) { d.Limits.BodyTimeout = 200 * time.Millisecond })
	conn, err := net.Dial("tcp", strings.TrimPrefix(e.Server.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /v1/calls HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{\"call\":", e.Agent)
	conn.SetReadDeadline(time.Now().Add(30 * time.Second)) // only so a regression cannot hang the suite
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("a stalled body got no answer: %v", err)
	}
	msg, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("a stalled body: %d %s, want 400", resp.StatusCode, msg)
	}
	var res toolgate.Result
	start := time.Now()
	e.must(200, "POST", "/v1/calls?wait=600ms", e.Agent, map[string]any{"call": shell("s1", "c1", "make deploy")}, &res)
	if res.Approval == nil || res.Approval.Status != toolgate.StatusPending || time.Since(start) < 600*time.Millisecond {
		t.Fatalf("a long poll past the body timeout: %+v after %s", res.Approval, time.Since(start))
	}
}
