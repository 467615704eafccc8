//go:build linux && (amd64 || arm64)

package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolgate/toolgate/sandbox"
)

// A signal to toolgate-sandbox once the command runs ends the command
// (SIGTERM to its process group) and exits with the command's status; no
// signal, and the command's own status comes back. The command runs in
// a session of its own, so a terminal's Ctrl-C reaches only
// toolgate-sandbox, which must pass it on.
func TestSignalStopsCommand(t *testing.T) {
	if err := sandbox.Check(); err != nil {
		t.Skipf("no sandbox on this machine: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "toolgate-sandbox")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ws := t.TempDir()
	run := func(t *testing.T, script string, sig syscall.Signal) (code int, child int) {
		cmd := exec.Command(bin, "--workspace", ws, "--", "/bin/sh", "-c", script)
		cmd.Dir = ws
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, _ := bufio.NewReader(out).ReadString('\n')
		child, _ = strconv.Atoi(strings.TrimSpace(line))
		if sig != 0 {
			if child == 0 {
				t.Fatalf("the command did not start: %q", line)
			}
			_ = cmd.Process.Signal(sig)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err = <-done:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatalf("toolgate-sandbox still runs 20 s after %v", sig)
		}
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatal(err)
		}
		return cmd.ProcessState.ExitCode(), child
	}
	for _, c := range []struct {
		sig  syscall.Signal
		want int
	}{{syscall.SIGTERM, 128 + 15}, {syscall.SIGINT, 128 + 15}} {
		t.Run(c.sig.String(), func(t *testing.T) {
			code, child := run(t, "echo $$; exec sleep 60", c.sig)
			if code != c.want {
				t.Errorf("exit status %d, want %d (the command ended by SIGTERM)", code, c.want)
			}
			if _, err := os.Stat("/proc/" + strconv.Itoa(child)); err == nil {
				t.Errorf("the command (pid %d) still runs", child)
			}
		})
	}
	t.Run("benign twin: no signal", func(t *testing.T) {
		if code, _ := run(t, "echo $$; exit 3", 0); code != 3 {
			t.Errorf("exit status %d, want the command's 3", code)
		}
	})
}
