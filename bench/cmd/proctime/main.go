// Command proctime measures the whole-process time of a command: fork,
// exec, runtime start, reading stdin, deciding, writing stdout and exit,
// as an agent that runs a hook sees it.
//
//	proctime [-n 200] [-d 60s] [-stdin FILE] [-expect TEXT] [-label L] -- CMD ARGS...
//
// It runs the command n times (stopping early after d), one at a time,
// checks every run exits 0 and prints TEXT on stdout, and prints the
// median, p90, p99 and mean wall time.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"time"
)

func main() {
	n := flag.Int("n", 200, "runs")
	d := flag.Duration("d", 60*time.Second, "stop starting runs after this long")
	stdin := flag.String("stdin", "", "file fed to each run's stdin")
	expect := flag.String("expect", "", "text every run must print on stdout")
	label := flag.String("label", "", "label printed with the result")
	warm := flag.Int("warmup", 5, "unmeasured runs first (page cache)")
	flag.Parse()
	argv := flag.Args()
	if len(argv) == 0 {
		fmt.Fprintln(os.Stderr, "usage: proctime [flags] -- CMD ARGS...")
		os.Exit(2)
	}
	var input []byte
	if *stdin != "" {
		var err error
		if input, err = os.ReadFile(*stdin); err != nil {
			fail(err)
		}
	}
	run := func() time.Duration {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Stdin = bytes.NewReader(input)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		t0 := time.Now()
		err := cmd.Run()
		took := time.Since(t0)
		if err != nil {
			fail(fmt.Errorf("%v: %v\n%s", argv, err, errb.Bytes()))
		}
		if !bytes.Contains(out.Bytes(), []byte(*expect)) {
			fail(fmt.Errorf("%v printed %q, want it to contain %q", argv, out.Bytes(), *expect))
		}
		return took
	}
	for range *warm {
		run()
	}
	var lat []time.Duration
	start := time.Now()
	var sum time.Duration
	for len(lat) < *n && time.Since(start) < *d {
		t := run()
		lat = append(lat, t)
		sum += t
	}
	slices.Sort(lat)
	pct := func(p float64) time.Duration {
		return lat[min(int(p*float64(len(lat))), len(lat)-1)].Round(10 * time.Microsecond)
	}
	fmt.Printf("proc %s runs=%d p50=%s p90=%s p99=%s mean=%s\n", *label, len(lat),
		pct(0.5), pct(0.9), pct(0.99), (sum / time.Duration(len(lat))).Round(10*time.Microsecond))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "proctime:", err)
	os.Exit(1)
}
