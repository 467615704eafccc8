//go:build linux && (amd64 || arm64)

package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A run whose network namespace cannot be set up fails (toolgate's own
// failure, 125 on the command line): the command never runs with this
// machine's network. So does one whose protected paths cannot be made
// read-only, or whose Landlock ruleset cannot be applied. The twin
// without a failure ends with the command's status and no error.
func TestRunFailsClosed(t *testing.T) {
	t.Parallel()
	if err := Check(); err != nil {
		t.Skipf("the kernel sandbox cannot run here: %v", err)
	}
	root := t.TempDir()
	ws, tmp := filepath.Join(root, "ws"), filepath.Join(root, "tmp")
	for _, d := range []string{ws, filepath.Join(ws, ".git", "hooks"), tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	profile, err := Default(Options{Home: root, Workspaces: []string{ws}, Temp: []string{tmp}, Net: []string{"example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(tmp, "ran")
	run := func(proxy *Proxy, fail int) (int, error) {
		return Run(context.Background(), Command{
			Profile:  profile,
			Args:     []string{"/bin/sh", "-c", "echo > " + marker + "; exit 3"},
			Dir:      ws,
			Proxy:    proxy,
			failStep: fail,
		})
	}
	for _, c := range []struct {
		name  string
		proxy *Proxy
		step  int
		want  string
	}{
		{"network", &Proxy{Hosts: profile.Net}, stepLoopback, "network: bringing the loopback interface up"},
		{"read-only mount", nil, stepReadOnly, "protecting " + filepath.Join(ws, ".git", "hooks")},
		{"landlock", nil, stepLandlock, "landlock"},
	} {
		code, err := run(c.proxy, c.step)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s fails: status %d, error %v; want the run refused (%s)", c.name, code, err, c.want)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("%s fails: the command ran", c.name)
		}
	}
	for _, proxy := range []*Proxy{nil, {Hosts: profile.Net}} {
		if code, err := run(proxy, 0); code != 3 || err != nil {
			t.Errorf("no failure (network %v): status %d, error %v; want 3", proxy != nil, code, err)
		}
		if err := os.Remove(marker); err != nil {
			t.Errorf("no failure (network %v): the command did not run: %v", proxy != nil, err)
		}
	}
}

// A command that does not exist is 127, one that cannot be executed 126,
// with the reason on standard error, as env(1) has them.
func TestRunExecError(t *testing.T) {
	t.Parallel()
	if err := Check(); err != nil {
		t.Skipf("the kernel sandbox cannot run here: %v", err)
	}
	root := t.TempDir()
	profile, err := Default(Options{Home: root, Workspaces: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(root, "plain")
	if err := os.WriteFile(plain, []byte("not a program"), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]int{filepath.Join(root, "missing"): 127, plain: 126} {
		var stderr strings.Builder
		code, err := Run(context.Background(), Command{Profile: profile, Args: []string{path}, Dir: root, Stderr: &stderr})
		if code != want || err != nil || !strings.Contains(stderr.String(), path) {
			t.Errorf("%s: status %d, error %v, stderr %q; want %d and the path", path, code, err, stderr.String(), want)
		}
	}
}

// The command starts with the limit on open files this process started
// with, not the one the Go runtime raised for itself (as os/exec does).
// The test runs itself again under a lower soft limit to see it.
func TestRunOpenFileLimit(t *testing.T) {
	if err := Check(); err != nil {
		t.Skipf("the kernel sandbox cannot run here: %v", err)
	}
	root := t.TempDir()
	if os.Getenv("SANDBOX_TEST_NOFILE") == "" {
		self, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("sh", "-c", `ulimit -Sn 512 && exec "$0" -test.run='^TestRunOpenFileLimit$' -test.v`, self)
		cmd.Env = append(os.Environ(), "SANDBOX_TEST_NOFILE=512")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestRunOpenFileLimit") {
			t.Fatalf("under a soft limit of 512: %v\n%s", err, out)
		}
		return
	}
	profile, err := Default(Options{Home: root, Workspaces: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	code, err := Run(context.Background(), Command{Profile: profile, Args: []string{"/bin/sh", "-c", "ulimit -Sn"}, Dir: root, Stdout: &out})
	if code != 0 || err != nil || strings.TrimSpace(out.String()) != os.Getenv("SANDBOX_TEST_NOFILE") {
		t.Errorf("status %d, error %v, soft limit %q; want %s", code, err, out.String(), os.Getenv("SANDBOX_TEST_NOFILE"))
	}
}
