// Command approvalbench measures approvals through a real `toolgate
// serve` over HTTP on loopback, as an agent and an approver see them:
//
//	approvalbench -toolgate BIN [-dir D] [-pending 10000] [-n 500] [-c 8]
//
// It starts the server (SQLite store on disk, as serve runs by default;
// rate limiting off so that filling is not throttled), creates an agent
// and an approver token, and then:
//
//  1. fills it with -pending approvals (calls of a tool the default rules
//     ask for, from -c agents at once) and reports the server's resident
//     set size (VmRSS) per pending approval: the growth from a warmed-up
//     server to the filled one, divided by the number pending;
//  2. runs -n approval round trips with that many pending, from -rtc
//     agents at once (1: one after another): the agent POSTs
//     /v1/calls?wait=… and is held, the approver, subscribed to the event
//     stream (SSE), receives approval.requested and POSTs the approval,
//     and the agent's request returns allowed. It reports the p50 and p99
//     of the agents' waits, and the CPU time per round trip that the
//     server and approvalbench itself used meanwhile, with the time the
//     server's threads spent runnable but waiting for a CPU (from
//     /proc/PID/task/*/schedstat).
//
// It talks to loopback only and is bounded in requests and time.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/client"
)

// tool is a tool no rule names: the default rules ask for it.
const tool = "deploy"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "approvalbench:", err)
		os.Exit(1)
	}
}

func run() error {
	bin := flag.String("toolgate", "toolgate", "the toolgate `binary`")
	dir := flag.String("dir", "", "working `directory` (default: a new temporary one, removed after)")
	pending := flag.Int("pending", 10000, "approvals to leave pending")
	n := flag.Int("n", 500, "round trips to time")
	conc := flag.Int("c", 8, "agents filling at once")
	rtc := flag.Int("rtc", 1, "agents running round trips at once (each its own session)")
	more := flag.Int("more", 0, "after the round trips, fill this many more and report the RSS growth per approval between the two levels (the marginal cost, without the fixed costs a first level carries)")
	label := flag.String("label", "", "label printed with the result")
	timeout := flag.Duration("timeout", 15*time.Minute, "give up after this long")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()

	if *dir == "" {
		d, err := os.MkdirTemp("", "approvalbench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		*dir = d
	}
	if err := os.MkdirAll(*dir, 0o700); err != nil {
		return err
	}
	data := filepath.Join(*dir, "data")
	config := filepath.Join(*dir, "toolgate.yaml")
	if err := os.WriteFile(config, []byte("server:\n  rate_limit: -1\n  approval_timeout: 2h\n  max_approval_timeout: 2h\n  log_level: error\n"), 0o600); err != nil {
		return err
	}
	env := append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(*dir, "cfg"), "TOOLGATE_CONFIG=", "TOOLGATE_URL=", "TOOLGATE_TOKEN=")
	token := func(role string) (string, error) {
		cmd := exec.CommandContext(ctx, *bin, "tokens", "create", "--role", role, "--name", "bench-"+role, "--data", data)
		cmd.Env = env
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("tokens create --role %s: %w", role, err)
		}
		return strings.TrimSpace(string(out)), nil
	}
	agentToken, err := token("agent")
	if err != nil {
		return err
	}
	approverToken, err := token("approver")
	if err != nil {
		return err
	}

	port, err := freePort()
	if err != nil {
		return err
	}
	url := "http://127.0.0.1:" + strconv.Itoa(port)
	srv := exec.Command(*bin, "serve", "--config", config, "--addr", "127.0.0.1:"+strconv.Itoa(port), "--data", data)
	srv.Env = env
	logf, err := os.Create(filepath.Join(*dir, "serve.log"))
	if err != nil {
		return err
	}
	defer logf.Close()
	srv.Stdout, srv.Stderr = logf, logf
	if err := srv.Start(); err != nil {
		return err
	}
	defer func() {
		_ = srv.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = srv.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = srv.Process.Kill()
		}
	}()
	if err := waitHealthy(ctx, url); err != nil {
		log, _ := os.ReadFile(filepath.Join(*dir, "serve.log"))
		return fmt.Errorf("%w\n%s", err, log)
	}
	httpc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *conc + 4}}
	agent, err := client.New(url, agentToken, client.WithHTTPClient(httpc), client.WithVia("bench"))
	if err != nil {
		return err
	}
	approver, err := client.New(url, approverToken, client.WithHTTPClient(httpc), client.WithVia("bench"))
	if err != nil {
		return err
	}

	// Warm up (schema, statements, the workspace's engine, connections),
	// then fill.
	if _, err := fill(ctx, agent, "warm", 200, *conc); err != nil {
		return err
	}
	time.Sleep(time.Second)
	rss0, err := rss(srv.Process.Pid)
	if err != nil {
		return err
	}
	took, err := fill(ctx, agent, "fill", *pending, *conc)
	if err != nil {
		return err
	}
	time.Sleep(2 * time.Second)
	rss1, err := rss(srv.Process.Pid)
	if err != nil {
		return err
	}

	p50, p99, use, err := roundTrips(ctx, agent, approver, *n, *rtc, srv.Process.Pid)
	if err != nil {
		return err
	}
	rss2, _ := rss(srv.Process.Pid)
	if *more > 0 {
		if _, err := fill(ctx, agent, "more", *more, *conc); err != nil {
			return err
		}
		time.Sleep(2 * time.Second)
		rss3, err := rss(srv.Process.Pid)
		if err != nil {
			return err
		}
		fmt.Printf("approvals-http-marginal %sfrom=%d to=%d rss-from-kB=%d rss-to-kB=%d B/pending-marginal=%.0f\n",
			labelOf(*label), *pending, *pending+*more, rss2, rss3, float64(rss3-rss2)*1024/float64(*more))
	}
	fmt.Printf("approvals-http %spending=%d B/pending=%.0f rss-before-kB=%d rss-filled-kB=%d rss-after-rt-kB=%d fill-submits/s=%.0f rt-c=%d rt-p50-ms=%.2f rt-p99-ms=%.2f rt-n=%d srv-cpu-ms/rt=%.3f srv-runq-ms/rt=%.3f bench-cpu-ms/rt=%.3f\n",
		labelOf(*label), *pending, float64(rss1-rss0)*1024/float64(*pending), rss0, rss1, rss2,
		float64(*pending)/took.Seconds(), *rtc, p50, p99, *n, use.serverCPU, use.serverWait, use.benchCPU)
	return nil
}

func labelOf(l string) string {
	if l == "" {
		return ""
	}
	return "label=" + l + " "
}

// fill submits n calls that ask from conc agents at once, spread over
// sessions of 100 calls, and checks each left an approval pending.
func fill(ctx context.Context, agent *client.Client, prefix string, n, conc int) (time.Duration, error) {
	var next atomic.Int64
	var wg sync.WaitGroup
	errc := make(chan error, conc)
	t0 := time.Now()
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n || ctx.Err() != nil {
					return
				}
				r, err := agent.Submit(ctx, toolgate.SubmitRequest{Call: toolgate.Call{
					ID: fmt.Sprintf("%s-%d", prefix, i), Session: fmt.Sprintf("%s-%d", prefix, i/100), Tool: tool,
					Args: map[string]any{"target": "staging", "n": i},
				}})
				if err == nil && (r.Approval == nil || r.Approval.Status != toolgate.StatusPending) {
					err = fmt.Errorf("call %d: %s, want a pending approval", i, r.Decision.Action)
				}
				if err != nil {
					errc <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	if err := <-errc; err != nil {
		return 0, err
	}
	return time.Since(t0), ctx.Err()
}

// usage is the CPU time per timed round trip, in milliseconds: the
// server's, the time its threads waited runnable for a CPU, and
// approvalbench's own (agents and approver).
type usage struct {
	serverCPU, serverWait, benchCPU float64
}

// roundTrips times n approval round trips, from conc agents at once
// (each one after another in its own session), and returns the p50 and
// p99 in milliseconds, and the CPU time used from the first timed round
// trip of the first agent to the end (pid is the server's). One approver
// answers them all from one event stream.
func roundTrips(ctx context.Context, agent, approver *client.Client, n, conc, pid int) (p50, p99 float64, use usage, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	events, errs := approver.Events(ctx, toolgate.EventFilter{})
	approverErr := make(chan error, 1)
	go func() {
		for e := range events {
			if e.Type != toolgate.EventApprovalRequested || e.Approval == nil || e.Replay || !strings.HasPrefix(e.Session, "rt-") {
				continue
			}
			// Each answered at once, as approvers on several devices
			// would: one approver's serial answers would be what is timed.
			go func(id string) {
				if _, err := approver.Approve(ctx, id, toolgate.ApproveRequest{}); err != nil && ctx.Err() == nil {
					select {
					case approverErr <- err:
					default:
					}
				}
			}(e.Approval.ID)
		}
		if err := <-errs; err != nil && ctx.Err() == nil {
			approverErr <- fmt.Errorf("event stream: %w", err)
		}
	}()
	time.Sleep(500 * time.Millisecond) // the stream is subscribed (its replay of the pending ones read)
	const warm = 20                    // per agent: the first ones warm the stream and the session
	lats := make([][]time.Duration, conc)
	var srv0, self0 schedstat
	var wg sync.WaitGroup
	errc := make(chan error, conc)
	for k := range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range n/conc + warm {
				if k == 0 && i == warm {
					srv0, self0 = schedstatOf(pid), schedstatOf(os.Getpid())
				}
				t0 := time.Now()
				r, err := agent.SubmitWait(ctx, toolgate.SubmitRequest{Call: toolgate.Call{
					ID: fmt.Sprintf("rt-%d-%d", k, i), Session: fmt.Sprintf("rt-%d", k), Tool: tool, Args: map[string]any{"i": i},
				}}, 30*time.Second)
				d := time.Since(t0)
				if err == nil && (r.Approval == nil || r.Approval.Status != toolgate.StatusApproved) {
					err = fmt.Errorf("round trip %d/%d: decision %s, approval %v", k, i, r.Decision.Action, r.Approval)
				}
				if err != nil {
					errc <- err
					return
				}
				if i >= warm {
					lats[k] = append(lats[k], d)
				}
			}
		}()
	}
	wg.Wait()
	srv1, self1 := schedstatOf(pid), schedstatOf(os.Getpid())
	close(errc)
	if err := <-errc; err != nil {
		select {
		case aerr := <-approverErr:
			return 0, 0, use, fmt.Errorf("%w (approver: %v)", err, aerr)
		default:
		}
		return 0, 0, use, err
	}
	lat := slices.Concat(lats...)
	per := func(ns int64) float64 { return float64(ns) / 1e6 / float64(len(lat)) }
	use = usage{serverCPU: per(srv1.run - srv0.run), serverWait: per(srv1.wait - srv0.wait), benchCPU: per(self1.run - self0.run)}
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return ms(lat[len(lat)/2]), ms(lat[min(len(lat)*99/100, len(lat)-1)]), use, nil
}

// schedstat is a process's scheduler statistics summed over its threads,
// in nanoseconds: time run on a CPU and time spent runnable waiting for
// one. Zero where /proc/PID/task/*/schedstat cannot be read.
type schedstat struct{ run, wait int64 }

func schedstatOf(pid int) schedstat {
	var s schedstat
	dir := fmt.Sprintf("/proc/%d/task", pid)
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return s
	}
	for _, t := range tasks {
		b, err := os.ReadFile(filepath.Join(dir, t.Name(), "schedstat"))
		if err != nil {
			continue // the thread exited
		}
		f := strings.Fields(string(b))
		if len(f) < 2 {
			continue
		}
		run, err1 := strconv.ParseInt(f[0], 10, 64)
		wait, err2 := strconv.ParseInt(f[1], 10, 64)
		if err1 == nil && err2 == nil {
			s.run += run
			s.wait += wait
		}
	}
	return s
}

// rss is a process's resident set size in kB (VmRSS).
func rss(pid int) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			return strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
		}
	}
	return 0, errors.New("no VmRSS in /proc/pid/status")
}

func waitHealthy(ctx context.Context, url string) error {
	for range 300 {
		resp, err := http.Get(url + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return errors.New("toolgate serve did not become healthy in 30 s")
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
