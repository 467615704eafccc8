// Command proctime measures the whole-process time of commands: fork,
// exec, runtime start, reading stdin, deciding, writing stdout and exit,
// as an agent that runs a hook sees it.
//
//	proctime [-n 200] [-d 60s] [-warmup 5] SPEC [--- SPEC…]
//	SPEC: [-label L] [-vs LABEL] [-stdin FILE] [-expect TEXT] -- CMD ARGS…
//
// With several commands the runs are interleaved, one run of each per
// round, so that a machine shared with other load slows them alike; the
// ratios to the first command (or to the one -vs names) are then the
// figures to compare. Each round runs the commands in a new random order
// (-seed): a run depends on the process before it (hello took ~0.25 ms
// longer after a 25 ms toolgate run than after the hook), so in a fixed
// or rotating order each command would mostly follow the same one, and
// the ratios would say more about the order than the commands.
//
// Commands given the same label are pooled and reported as one: run
// several copies of one binary so (-label hook -- ./copy1 … --- -label
// hook -- ./copy2 …), and where the page cache happened to put each
// copy's pages averages out.
//
// Every run must exit 0 and print TEXT on stdout. For each command it
// prints the median, p90, p99 and mean wall time, and for the others the
// ratio of their median and mean to the first's; then the median CPU time
// (user and system, from the kernel's rusage of the child) and the mean
// of minor page faults and context switches, which vary less with the
// machine's load than wall time.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
)

// spec is one command to time.
type spec struct {
	label, expect string
	vs            string // the label of the command to compare with
	status        int    // the exit status every run must end with
	argv          []string
	env           []string // added to the environment
	input         []byte
	lat           []time.Duration
	sum           time.Duration
	cpu           []time.Duration
	faults, ctxsw int64
}

func main() {
	// Global flags come first, with the first command's.
	global := flag.NewFlagSet("proctime", flag.ExitOnError)
	n := global.Int("n", 200, "runs of each command")
	d := global.Duration("d", 60*time.Second, "stop starting rounds after this long")
	warm := global.Int("warmup", 5, "unmeasured runs of each command first (page cache)")
	seed := global.Uint64("seed", 1, "seed of the rounds' random orders")
	var specs []*spec
	rest := os.Args[1:]
	for fs := global; len(rest) > 0; fs = flag.NewFlagSet("spec", flag.ExitOnError) {
		end := slices.Index(rest, "---")
		if end < 0 {
			end = len(rest)
		}
		specs = append(specs, parseSpec(fs, rest[:end]))
		rest = rest[min(end+1, len(rest)):]
	}
	if len(specs) == 0 {
		fmt.Fprintln(os.Stderr, "usage: proctime [flags] [-label L] [-stdin F] [-expect T] -- CMD ARGS… [--- …]")
		os.Exit(2)
	}
	for range *warm {
		for _, s := range specs {
			s.run(false)
		}
	}
	rng := rand.New(rand.NewPCG(*seed, 0))
	order := slices.Clone(specs)
	start := time.Now()
	for round := 0; round < *n && time.Since(start) < *d; round++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, s := range order {
			t := s.run(true)
			s.lat = append(s.lat, t)
			s.sum += t
		}
	}
	specs = pool(specs)
	base := func(s *spec) *spec {
		for _, b := range specs {
			if b.label == s.vs {
				return b
			}
		}
		return specs[0]
	}
	for _, s := range specs {
		if s.vs != "" && base(s).label != s.vs {
			fail(fmt.Errorf("-vs %s: no command has that label", s.vs))
		}
	}
	for _, s := range specs {
		p50, mean := s.pct(0.5), s.sum/time.Duration(len(s.lat))
		fmt.Printf("proc %s runs=%d p50=%s p90=%s p99=%s mean=%s", s.label, len(s.lat),
			p50.Round(10*time.Microsecond), s.pct(0.9).Round(10*time.Microsecond),
			s.pct(0.99).Round(10*time.Microsecond), mean.Round(10*time.Microsecond))
		if b := base(s); b != s {
			fmt.Printf(" vs=%s ratio-p50=%.2f ratio-mean=%.2f", b.label,
				float64(p50)/float64(b.pct(0.5)), float64(mean)/float64(b.sum/time.Duration(len(b.lat))))
		}
		fmt.Println()
	}
	for _, s := range specs {
		cpu := median(s.cpu)
		fmt.Printf("cpu %s cpu-p50=%s minflt=%d ctxsw=%d", s.label, cpu.Round(10*time.Microsecond),
			s.faults/int64(len(s.cpu)), s.ctxsw/int64(len(s.cpu)))
		if b := base(s); b != s {
			fmt.Printf(" vs=%s ratio-cpu-p50=%.2f", b.label, float64(cpu)/float64(median(b.cpu)))
		}
		fmt.Println()
	}
}

func parseSpec(fs *flag.FlagSet, args []string) *spec {
	s := &spec{}
	stdin := fs.String("stdin", "", "file fed to each run's stdin")
	fs.StringVar(&s.expect, "expect", "", "text every run must print on stdout")
	fs.StringVar(&s.label, "label", "", "label printed with the result")
	fs.StringVar(&s.vs, "vs", "", "compare with the command labelled `LABEL` (default the first)")
	fs.IntVar(&s.status, "status", 0, "exit status every run must end with")
	fs.Func("env", "`NAME=VALUE` added to the command's environment (repeatable)", func(kv string) error {
		if !strings.Contains(kv, "=") {
			return fmt.Errorf("%q is not NAME=VALUE", kv)
		}
		s.env = append(s.env, kv)
		return nil
	})
	fs.Parse(args)
	s.argv = fs.Args()
	if len(s.argv) == 0 {
		fail(fmt.Errorf("no command in %q", args))
	}
	if s.label == "" {
		s.label = s.argv[0]
	}
	if *stdin != "" {
		var err error
		if s.input, err = os.ReadFile(*stdin); err != nil {
			fail(err)
		}
	}
	return s
}

// run runs the command once; measured, it records its CPU time, page
// faults and context switches.
func (s *spec) run(measured bool) time.Duration {
	cmd := exec.Command(s.argv[0], s.argv[1:]...)
	cmd.Stdin = bytes.NewReader(s.input)
	if len(s.env) > 0 {
		cmd.Env = append(os.Environ(), s.env...)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	t0 := time.Now()
	err := cmd.Run()
	took := time.Since(t0)
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != s.status {
		fail(fmt.Errorf("%v: %v (want exit status %d)\n%s", s.argv, err, s.status, errb.Bytes()))
	}
	if !bytes.Contains(out.Bytes(), []byte(s.expect)) {
		fail(fmt.Errorf("%v printed %q, want it to contain %q", s.argv, out.Bytes(), s.expect))
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && measured {
		s.cpu = append(s.cpu, time.Duration(ru.Utime.Nano()+ru.Stime.Nano()))
		s.faults += ru.Minflt
		s.ctxsw += ru.Nvcsw + ru.Nivcsw
	}
	return took
}

// pool merges the samples of commands that share a label into the first
// of them: copies of one binary, so that where the page cache happened to
// put each copy's pages (which moves a 2 ms process by up to a tenth)
// averages out rather than deciding a ratio.
func pool(specs []*spec) []*spec {
	var out []*spec
	byLabel := map[string]*spec{}
	for _, s := range specs {
		p := byLabel[s.label]
		if p == nil {
			byLabel[s.label] = s
			out = append(out, s)
			continue
		}
		p.lat = append(p.lat, s.lat...)
		p.sum += s.sum
		p.cpu = append(p.cpu, s.cpu...)
		p.faults += s.faults
		p.ctxsw += s.ctxsw
	}
	return out
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	return slices.Sorted(slices.Values(ds))[len(ds)/2]
}

func (s *spec) pct(p float64) time.Duration {
	lat := slices.Sorted(slices.Values(s.lat))
	return lat[min(int(p*float64(len(lat))), len(lat)-1)]
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "proctime:", err)
	os.Exit(1)
}
