package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"
)

// BenchmarkHookInProcess is the hook's own work for one call decided
// locally: flags, reading the input, loading and compiling the built-in
// rules, deciding and writing the answer.
func BenchmarkHookInProcess(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "..", "integrations", "claudecode", "testdata", "inputs", "bash.json"))
	if err != nil {
		b.Fatal(err)
	}
	b.Setenv("HOME", b.TempDir())
	b.Setenv("XDG_CONFIG_HOME", b.TempDir())
	b.Setenv("TOOLGATE_URL", "")
	b.ReportAllocs()
	for b.Loop() {
		if err := runHook(context.Background(), []string{"claude-code"}, bytes.NewReader(data), io.Discard, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHookProcess runs the built binary as Claude Code does, one
// process per call (DESIGN §10: under 5 ms for the whole process), and
// reports the median and 90th percentile next to the mean.
func BenchmarkHookProcess(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "toolgate")
	build := exec.Command("go", "build", "-o", bin, "github.com/toolgate/toolgate/cmd/toolgate")
	if out, err := build.CombinedOutput(); err != nil {
		b.Skipf("build: %v\n%s", err, out)
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "integrations", "claudecode", "testdata", "inputs", "bash.json"))
	if err != nil {
		b.Fatal(err)
	}
	home := b.TempDir()
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "TOOLGATE_URL=")
	run := func() (time.Duration, error) {
		cmd := exec.Command(bin, "hook", "claude-code")
		cmd.Env, cmd.Stdin = env, bytes.NewReader(data)
		start := time.Now()
		out, err := cmd.Output()
		if err == nil && !bytes.Contains(out, []byte(`"permissionDecision":"ask"`)) {
			b.Skipf("the binary does not answer hooks yet (is hook in the command table?): %s", out)
		}
		return time.Since(start), err
	}
	if _, err := run(); err != nil {
		b.Skipf("toolgate hook: %v", err)
	}
	var ds []time.Duration
	for b.Loop() {
		d, err := run()
		if err != nil {
			b.Fatal(err)
		}
		ds = append(ds, d)
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(ds[len(ds)*9/10].Microseconds())/1000, "p90-ms")
}
