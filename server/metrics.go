package server

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
)

// Metrics are kept in fixed arrays of atomics and written in the
// Prometheus text exposition format by hand: recording a request costs a
// few atomic adds and no allocation, and the product does not depend on
// the Prometheus client library.

// latencyBuckets are the upper bounds, in seconds, of the request
// duration histogram. Long polls land in the last ones.
var latencyBuckets = [...]float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300}

// waitBuckets are the upper bounds, in seconds, of the histogram of how
// long approvals wait for their answer: a person answers in seconds to
// minutes; the default time to live is five minutes.
var waitBuckets = [...]float64{1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600}

// maxToolSeries bounds the decisions-by-tool counters: agents choose tool
// names (every MCP tool is one), so past this many workspace and tool
// pairs a new pair is counted as tool "other" of workspace "other".
const maxToolSeries = 1000

type toolKey struct{ workspace, tool string }

// toolCounts counts decisions by workspace, tool and action.
type toolCounts struct {
	mu sync.RWMutex
	m  map[toolKey]*[toolgate.Deny + 1]atomic.Uint64
}

func (c *toolCounts) add(workspace, tool string, a toolgate.Action) {
	if a > toolgate.Deny {
		return
	}
	if workspace == "" {
		workspace = approval.DefaultWorkspace
	}
	k := toolKey{workspace, tool}
	c.mu.RLock()
	n := c.m[k]
	c.mu.RUnlock()
	if n == nil {
		c.mu.Lock()
		if n = c.m[k]; n == nil {
			if len(c.m) >= maxToolSeries {
				k = toolKey{"other", "other"}
			}
			if n = c.m[k]; n == nil {
				if c.m == nil {
					c.m = map[toolKey]*[toolgate.Deny + 1]atomic.Uint64{}
				}
				n = new([toolgate.Deny + 1]atomic.Uint64)
				c.m[k] = n
			}
		}
		c.mu.Unlock()
	}
	n[a].Add(1)
}

func (c *toolCounts) write(w *bufio.Writer) {
	c.mu.RLock()
	keys := make([]toolKey, 0, len(c.m))
	for k := range c.m {
		keys = append(keys, k)
	}
	c.mu.RUnlock()
	slices.SortFunc(keys, func(a, b toolKey) int {
		return cmp.Or(cmp.Compare(a.workspace, b.workspace), cmp.Compare(a.tool, b.tool))
	})
	w.WriteString("# HELP toolgate_tool_decisions_total Decisions by workspace, tool and action (at most " + strconv.Itoa(maxToolSeries) + " workspace and tool pairs; later ones count as other).\n")
	w.WriteString("# TYPE toolgate_tool_decisions_total counter\n")
	for _, k := range keys {
		c.mu.RLock()
		n := c.m[k]
		c.mu.RUnlock()
		for a := toolgate.Allow; a <= toolgate.Deny; a++ {
			fmt.Fprintf(w, "toolgate_tool_decisions_total{workspace=%q,tool=%q,action=%q} %d\n", k.workspace, k.tool, a.String(), n[a].Load())
		}
	}
}

// waitHistogram is how long approvals waited, by final status.
type waitHistogram struct {
	buckets [len(resolutionStatuses)][len(waitBuckets)]atomic.Uint64
	count   [len(resolutionStatuses)]atomic.Uint64
	sumMs   [len(resolutionStatuses)]atomic.Uint64
}

func (h *waitHistogram) observe(status int, d time.Duration) {
	sec := max(d, 0).Seconds()
	for i, ub := range waitBuckets {
		if sec <= ub {
			h.buckets[status][i].Add(1)
			break
		}
	}
	h.count[status].Add(1)
	h.sumMs[status].Add(uint64(max(d, 0).Milliseconds()))
}

func (h *waitHistogram) write(w *bufio.Writer) {
	w.WriteString("# HELP toolgate_approval_wait_seconds How long approvals waited for their answer, by final status.\n")
	w.WriteString("# TYPE toolgate_approval_wait_seconds histogram\n")
	for s, st := range resolutionStatuses {
		var cum uint64
		for i, ub := range waitBuckets {
			cum += h.buckets[s][i].Load()
			fmt.Fprintf(w, "toolgate_approval_wait_seconds_bucket{status=%q,le=%q} %d\n", st, formatFloat(ub), cum)
		}
		fmt.Fprintf(w, "toolgate_approval_wait_seconds_bucket{status=%q,le=\"+Inf\"} %d\n", st, h.count[s].Load())
		fmt.Fprintf(w, "toolgate_approval_wait_seconds_sum{status=%q} %s\n", st, formatFloat(float64(h.sumMs[s].Load())/1e3))
		fmt.Fprintf(w, "toolgate_approval_wait_seconds_count{status=%q} %d\n", st, h.count[s].Load())
	}
}

const (
	minCode = 100
	maxCode = 599
)

type routeMetrics struct {
	method, path string
	codes        [maxCode - minCode + 1]atomic.Uint64
	buckets      [len(latencyBuckets)]atomic.Uint64
	count        atomic.Uint64
	sumNanos     atomic.Uint64
}

// Decision endpoints.
const (
	endpointEvaluate = iota
	endpointSubmit
	numEndpoints
)

var endpointNames = [numEndpoints]string{"evaluate", "submit"}

var resolutionStatuses = [...]toolgate.Status{toolgate.StatusApproved, toolgate.StatusDenied, toolgate.StatusExpired, toolgate.StatusCancelled}

type metrics struct {
	routes      []routeMetrics
	decisions   [numEndpoints][toolgate.Deny + 1]atomic.Uint64
	resolutions [len(resolutionStatuses)]atomic.Uint64
	waits       waitHistogram
	byTool      toolCounts
	pending     atomic.Int64
	subscribers atomic.Int64
	// watching is false once the broker's event stream ended for the
	// metrics watcher; the approval gauges are then stale.
	watching atomic.Bool
}

// newMetrics gives every route of the table a slot, plus one for
// requests no route matched.
func newMetrics(table []route) *metrics {
	m := &metrics{routes: make([]routeMetrics, len(table)+1)}
	for i := range table {
		table[i].slot = i
		m.routes[i].method, m.routes[i].path = table[i].Method, table[i].Path
	}
	m.routes[len(table)].method, m.routes[len(table)].path = "", "unmatched"
	return m
}

func (m *metrics) unmatchedSlot() int { return len(m.routes) - 1 }

// observe records one request.
func (m *metrics) observe(slot, status int, d time.Duration) {
	rm := &m.routes[slot]
	if status >= minCode && status <= maxCode {
		rm.codes[status-minCode].Add(1)
	}
	sec := d.Seconds()
	for i, ub := range latencyBuckets {
		if sec <= ub {
			rm.buckets[i].Add(1)
			break
		}
	}
	rm.count.Add(1)
	rm.sumNanos.Add(uint64(max(d, 0)))
}

func (m *metrics) decision(endpoint int, a toolgate.Action) {
	if a <= toolgate.Deny {
		m.decisions[endpoint][a].Add(1)
	}
}

// watchBroker follows the broker's event stream to keep the pending gauge
// and the resolution counters. If the watcher falls behind and the broker
// drops it, it subscribes again after the last event it counted; if the
// broker no longer has every event since, it counts the pending approvals
// afresh (resolutions in the gap are then not counted). It ends when the
// broker closes.
func (s *server) watchBroker() {
	sub := s.broker.Subscribe(context.Background(), toolgate.EventFilter{})
	s.metrics.watching.Store(true)
	go func() {
		defer s.metrics.watching.Store(false)
		// last is the sequence number of the last live event counted; 0
		// after a fresh start, whose replay of pending approvals is
		// counted. A resumed stream replays approvals already counted.
		var last int64
		resumed := false
		for {
			gap := false
			for e := range sub.Events() {
				// Every event reaches this unfiltered subscriber in order:
				// a jump in sequence numbers means some were lost (a
				// resumed stream re-sends at most what the broker keeps).
				// A replay carries the sequence number of the last event
				// before it.
				if e.Replay && !resumed {
					s.metrics.pending.Add(1)
					continue
				}
				if last != 0 && (e.Replay && e.Seq != last || !e.Replay && e.Seq != last+1) {
					gap = true
					sub.Close()
					break
				}
				if e.Replay {
					continue // pending before the drop: counted already
				}
				last = e.Seq
				s.metrics.count(&e)
			}
			switch {
			case gap || errors.Is(sub.Err(), approval.ErrDropped) && last == 0:
				s.metrics.pending.Store(0)
				last, resumed = 0, false
				sub = s.broker.Subscribe(context.Background(), toolgate.EventFilter{})
			case errors.Is(sub.Err(), approval.ErrDropped):
				resumed = true
				sub = s.broker.Subscribe(context.Background(), toolgate.EventFilter{AfterSeq: last})
			default:
				return // the broker closed
			}
		}
	}()
}

// count records a live event.
func (m *metrics) count(e *toolgate.Event) {
	if e.Approval == nil {
		return
	}
	switch e.Type {
	case toolgate.EventApprovalRequested:
		m.pending.Add(1)
	case toolgate.EventApprovalResolved:
		m.pending.Add(-1)
		for i, st := range resolutionStatuses {
			if e.Approval.Status == st {
				m.resolutions[i].Add(1)
				at := e.Time
				if r := e.Approval.Resolution; r != nil && !r.At.IsZero() {
					at = r.At
				}
				m.waits.observe(i, at.Sub(e.Approval.CreatedAt))
			}
		}
	}
}

// handleMetrics writes every metric in the Prometheus text format.
func (s *server) handleMetrics(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	bw := bufio.NewWriter(w)
	s.metrics.write(bw)
	writeRuntime(bw)
	if s.policies != nil {
		bw.WriteString("# HELP toolgate_engines_cached Compiled workspace engines kept in memory.\n# TYPE toolgate_engines_cached gauge\n")
		fmt.Fprintf(bw, "toolgate_engines_cached %d\n", s.policies.Cached())
	}
	if s.deps.Metrics != nil {
		s.deps.Metrics(bw)
	}
	return bw.Flush()
}

func (m *metrics) write(w *bufio.Writer) {
	w.WriteString("# HELP toolgate_http_requests_total HTTP requests by route and status code.\n")
	w.WriteString("# TYPE toolgate_http_requests_total counter\n")
	for i := range m.routes {
		rm := &m.routes[i]
		for c := range rm.codes {
			if n := rm.codes[c].Load(); n > 0 {
				fmt.Fprintf(w, "toolgate_http_requests_total{method=%q,route=%q,code=\"%d\"} %d\n", rm.method, rm.path, c+minCode, n)
			}
		}
	}
	w.WriteString("# HELP toolgate_http_request_duration_seconds HTTP request latency by route (long polls included).\n")
	w.WriteString("# TYPE toolgate_http_request_duration_seconds histogram\n")
	for i := range m.routes {
		rm := &m.routes[i]
		count := rm.count.Load()
		if count == 0 {
			continue
		}
		var cum uint64
		for b, ub := range latencyBuckets {
			cum += rm.buckets[b].Load()
			fmt.Fprintf(w, "toolgate_http_request_duration_seconds_bucket{method=%q,route=%q,le=%q} %d\n", rm.method, rm.path, formatFloat(ub), cum)
		}
		fmt.Fprintf(w, "toolgate_http_request_duration_seconds_bucket{method=%q,route=%q,le=\"+Inf\"} %d\n", rm.method, rm.path, count)
		fmt.Fprintf(w, "toolgate_http_request_duration_seconds_sum{method=%q,route=%q} %s\n", rm.method, rm.path, formatFloat(float64(rm.sumNanos.Load())/1e9))
		fmt.Fprintf(w, "toolgate_http_request_duration_seconds_count{method=%q,route=%q} %d\n", rm.method, rm.path, count)
	}
	w.WriteString("# HELP toolgate_decisions_total Decisions returned, by endpoint and action.\n")
	w.WriteString("# TYPE toolgate_decisions_total counter\n")
	for e := range m.decisions {
		for a := toolgate.Allow; a <= toolgate.Deny; a++ {
			fmt.Fprintf(w, "toolgate_decisions_total{endpoint=%q,action=%q} %d\n", endpointNames[e], a.String(), m.decisions[e][a].Load())
		}
	}
	w.WriteString("# HELP toolgate_approval_resolutions_total Approvals resolved, by status.\n")
	w.WriteString("# TYPE toolgate_approval_resolutions_total counter\n")
	for i, st := range resolutionStatuses {
		fmt.Fprintf(w, "toolgate_approval_resolutions_total{status=%q} %d\n", st, m.resolutions[i].Load())
	}
	m.waits.write(w)
	m.byTool.write(w)
	w.WriteString("# HELP toolgate_approvals_pending Approvals waiting for an answer.\n")
	w.WriteString("# TYPE toolgate_approvals_pending gauge\n")
	fmt.Fprintf(w, "toolgate_approvals_pending %d\n", max(m.pending.Load(), 0))
	w.WriteString("# HELP toolgate_event_subscribers Open event streams (WebSocket and Server-Sent Events).\n")
	w.WriteString("# TYPE toolgate_event_subscribers gauge\n")
	fmt.Fprintf(w, "toolgate_event_subscribers %d\n", m.subscribers.Load())
	w.WriteString("# HELP toolgate_metrics_watching 1 while the approval gauges follow the broker's event stream.\n")
	w.WriteString("# TYPE toolgate_metrics_watching gauge\n")
	watching := 0
	if m.watching.Load() {
		watching = 1
	}
	fmt.Fprintf(w, "toolgate_metrics_watching %d\n", watching)
}

func formatFloat(f float64) string {
	if math.IsInf(f, 1) {
		return "+Inf"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// runtimeSeries are the Go runtime series /metrics exports, read from
// runtime.MemStats: data, so adding one is a line. (Package
// runtime/metrics has the same figures, but its package initialisation
// builds its table of descriptions at the start of every command.)
var runtimeSeries = []struct {
	series, typ, help string
	value             func(*runtime.MemStats) float64
}{
	{"go_goroutines", "gauge", "Goroutines that currently exist.", func(*runtime.MemStats) float64 { return float64(runtime.NumGoroutine()) }},
	{"go_gomaxprocs", "gauge", "GOMAXPROCS: threads that may run Go code at once.", func(*runtime.MemStats) float64 { return float64(runtime.GOMAXPROCS(0)) }},
	{"go_memory_mapped_bytes", "gauge", "Memory mapped by the Go runtime.", func(m *runtime.MemStats) float64 { return float64(m.Sys) }},
	{"go_heap_objects_bytes", "gauge", "Memory occupied by live and not yet swept heap objects.", func(m *runtime.MemStats) float64 { return float64(m.HeapAlloc) }},
	{"go_gc_heap_goal_bytes", "gauge", "Heap size the next garbage collection aims at.", func(m *runtime.MemStats) float64 { return float64(m.NextGC) }},
	{"go_gc_heap_allocs_bytes_total", "counter", "Bytes allocated on the heap.", func(m *runtime.MemStats) float64 { return float64(m.TotalAlloc) }},
	{"go_gc_cycles_total", "counter", "Completed garbage collection cycles.", func(m *runtime.MemStats) float64 { return float64(m.NumGC) }},
}

// writeRuntime writes the Go runtime series.
func writeRuntime(w *bufio.Writer) {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	for _, rs := range runtimeSeries {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n%s %s\n", rs.series, rs.help, rs.series, rs.typ, rs.series, formatFloat(rs.value(&m)))
	}
}
