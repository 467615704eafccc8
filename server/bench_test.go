package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/server"
	"github.com/toolgate/toolgate/store/fsrules"
	"github.com/toolgate/toolgate/store/sqlite"
	"github.com/toolgate/toolgate/tokens"
)

// benchEnv is a server for benchmarks: real store and rules, no rate
// limit, no logging, the wall clock.
type benchEnv struct {
	handler         http.Handler
	broker          *approval.Broker
	agent, approver string
}

func newBenchEnv(b *testing.B) *benchEnv {
	b.Helper()
	ctx := context.Background()
	dir := b.TempDir()
	st, err := sqlite.Open(ctx, filepath.Join(dir, "toolgate.db"))
	if err != nil {
		b.Fatal(err)
	}
	rules := newRules(nil, dir)
	pol := approval.NewWorkspaces(rules, nil, policy.WithHome("/home/user"))
	br, err := approval.New(ctx, st, pol)
	if err != nil {
		b.Fatal(err)
	}
	tok, err := tokens.Open(filepath.Join(dir, "tokens.json"))
	if err != nil {
		b.Fatal(err)
	}
	e := &benchEnv{broker: br}
	if e.agent, err = tok.Create("agent", tokens.RoleAgent); err != nil {
		b.Fatal(err)
	}
	if e.approver, err = tok.Create("approver", tokens.RoleApprover); err != nil {
		b.Fatal(err)
	}
	e.handler = server.NewServer(server.Deps{
		Broker: br, Policies: pol, Rules: rules, Tokens: tok,
		Limits: server.Limits{RatePerSecond: -1},
	})
	b.Cleanup(func() {
		br.Close()
		st.Close()
	})
	return e
}

var benchCalls = map[string]string{
	"file":  `{"session":"s1","tool":"read_file","args":{"path":"src/main.go"}}`,
	"shell": `{"session":"s1","tool":"Bash","args":{"command":"git log --oneline | head -20 | grep fix"}}`,
}

// BenchmarkEvaluateHTTP measures POST /v1/evaluate through the whole
// handler (auth, limits, decode, decide, encode): in process, and over
// loopback with keep-alive connections from parallel clients (the number
// to compare with OPA's server: see the req/s metric).
func BenchmarkEvaluateHTTP(b *testing.B) {
	e := newBenchEnv(b)
	// Steady state: the workspace's rules document exists and has not
	// changed for longer than fsrules.RacyWindow (while it has, every call
	// re-reads and hashes it to catch an edit its timestamps would hide).
	if _, err := e.broker.Evaluate(context.Background(), toolgate.Call{Tool: "read_file"}); err != nil {
		b.Fatal(err)
	}
	time.Sleep(fsrules.RacyWindow + 100*time.Millisecond)
	for _, name := range []string{"file", "shell"} {
		body := []byte(benchCalls[name])
		b.Run("inprocess/"+name, func(b *testing.B) {
			req := httptest.NewRequest("POST", "/v1/evaluate", nil)
			req.Header.Set("Authorization", "Bearer "+e.agent)
			rd := bytes.NewReader(body)
			b.ReportAllocs()
			for b.Loop() {
				rd.Reset(body)
				req.Body = io.NopCloser(rd)
				w := httptest.NewRecorder()
				e.handler.ServeHTTP(w, req)
				if w.Code != 200 {
					b.Fatalf("%d %s", w.Code, w.Body)
				}
			}
		})
		b.Run("loopback/"+name, func(b *testing.B) {
			srv := httptest.NewServer(e.handler)
			defer srv.Close()
			tr := &http.Transport{MaxIdleConnsPerHost: 64, MaxConnsPerHost: 64}
			defer tr.CloseIdleConnections()
			client := &http.Client{Transport: tr}
			url := srv.URL + "/v1/evaluate"
			auth := "Bearer " + e.agent
			b.ReportAllocs()
			b.SetParallelism(4)
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				rd := bytes.NewReader(body)
				for pb.Next() {
					rd.Reset(body)
					req, _ := http.NewRequest("POST", url, rd)
					req.Header.Set("Authorization", auth)
					resp, err := client.Do(req)
					if err != nil {
						b.Error(err)
						return
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != 200 {
						b.Errorf("status %d", resp.StatusCode)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "req/s")
		})
	}
}

// submitPending creates n pending approvals directly on the broker.
func submitPending(b *testing.B, br *approval.Broker, n int) {
	b.Helper()
	ctx := context.Background()
	for i := range n {
		c := toolgate.Call{ID: fmt.Sprintf("bg%d", i), Session: fmt.Sprintf("bg%d", i%100), Tool: "Bash",
			Args: map[string]any{"command": fmt.Sprintf("make target-%d", i)}}
		r, err := br.Submit(ctx, toolgate.SubmitRequest{Call: c})
		if err != nil {
			b.Fatal(err)
		}
		if r.Approval == nil || r.Approval.Status != toolgate.StatusPending {
			b.Fatalf("background call %d did not ask", i)
		}
	}
}

// BenchmarkApprovalRoundTrip measures, over loopback with 10,000 other
// approvals pending: an agent's POST /v1/calls?wait= → the approver's
// event stream delivers approval.requested → the approver POSTs approve →
// the agent's long poll returns approved. It reports p50 and p99.
func BenchmarkApprovalRoundTrip(b *testing.B) {
	e := newBenchEnv(b)
	submitPending(b, e.broker, 10000)
	srv := httptest.NewServer(e.handler)
	defer srv.Close()
	client := srv.Client()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/v1/events?session=rt", nil)
	req.Header.Set("Authorization", "Bearer "+e.approver)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	requested := make(chan string, 16)
	go func() {
		dec := newSSEReader(resp.Body)
		for {
			typ, data, err := dec.next()
			if err != nil {
				return
			}
			if typ != string(toolgate.EventApprovalRequested) {
				continue
			}
			var ev toolgate.Event
			if json.Unmarshal(data, &ev) == nil && ev.Approval != nil {
				requested <- ev.Approval.ID
			}
		}
	}()
	post := func(path, token string, body []byte) (*http.Response, error) {
		req, _ := http.NewRequest("POST", srv.URL+path, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		return client.Do(req)
	}
	var lat []time.Duration
	var i atomic.Int64
	b.ReportAllocs()
	for b.Loop() {
		n := i.Add(1)
		body := fmt.Appendf(nil, `{"id":"rt%d","session":"rt","tool":"Bash","args":{"command":"make deploy-%d"}}`, n, n)
		start := time.Now()
		done := make(chan error, 1)
		go func() {
			resp, err := post("/v1/calls?wait=30s", e.agent, body)
			if err != nil {
				done <- err
				return
			}
			var res toolgate.Result
			err = json.NewDecoder(resp.Body).Decode(&res)
			resp.Body.Close()
			if err == nil && (res.Approval == nil || res.Approval.Status != toolgate.StatusApproved) {
				err = fmt.Errorf("long poll returned %+v", res.Approval)
			}
			done <- err
		}()
		var id string
		select {
		case id = <-requested:
		case <-time.After(10 * time.Second):
			b.Fatal("no approval.requested event")
		}
		resp, err := post("/v1/approvals/"+id+"/approve", e.approver, nil)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("approve: %d", resp.StatusCode)
		}
		if err := <-done; err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)].Microseconds())/1000, "p99-ms")
}

// BenchmarkPendingMemory reports the Go heap each pending approval holds
// in a running gateway (broker waiter and timer, event hub, server
// metrics; the SQLite store's own page cache is outside the Go heap).
func BenchmarkPendingMemory(b *testing.B) {
	const n = 10000
	for b.Loop() {
		b.StopTimer()
		e := newBenchEnv(b)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		b.StartTimer()
		submitPending(b, e.broker, n)
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/n, "bytes/approval")
		runtime.KeepAlive(e)
		b.StartTimer()
	}
}

// sseReader reads Server-Sent Events.
type sseReader struct {
	buf []byte
	r   io.Reader
}

func newSSEReader(r io.Reader) *sseReader { return &sseReader{r: r} }

// next returns the next event's type and data.
func (s *sseReader) next() (string, []byte, error) {
	for {
		if i := bytes.Index(s.buf, []byte("\n\n")); i >= 0 {
			block := s.buf[:i]
			s.buf = s.buf[i+2:]
			var typ string
			var data []byte
			for line := range bytes.SplitSeq(block, []byte("\n")) {
				switch {
				case bytes.HasPrefix(line, []byte("event: ")):
					typ = string(line[7:])
				case bytes.HasPrefix(line, []byte("data: ")):
					data = append([]byte(nil), line[6:]...)
				}
			}
			if typ != "" {
				return typ, data, nil
			}
			continue
		}
		tmp := make([]byte, 32<<10)
		n, err := s.r.Read(tmp)
		if n > 0 {
			s.buf = append(s.buf, tmp[:n]...)
		}
		if err != nil {
			return "", nil, err
		}
	}
}
