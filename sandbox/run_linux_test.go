package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/sandbox/enter"
	"golang.org/x/sys/unix"
)

// fakeInsideHalf is the argument that makes this test binary an inside
// half that reads its plan and exits without setting anything up, as a
// real one does when its network namespace cannot be made ready.
const fakeInsideHalf = "fake-inside-half"

// TestFakeInsideHalf is that inside half (Run starts this binary with
// fakeInsideHalf); run as an ordinary test it does nothing.
func TestFakeInsideHalf(t *testing.T) {
	if !slices.Contains(os.Args, fakeInsideHalf) {
		t.Skip("only the inside half of TestRunNetworkFailsClosed")
	}
	buf, oob := make([]byte, 1), make([]byte, unix.CmsgSpace(4))
	if _, _, _, _, err := unix.Recvmsg(3, buf, oob, 0); err != nil {
		os.Exit(3)
	}
	if _, err := enter.Read(os.NewFile(3, "plan")); err != nil {
		os.Exit(4)
	}
	os.Exit(0)
}

// A run with a network whose inside half hands over no listener fails
// (toolgate's own failure, 125 on the command line): the command never
// runs with this machine's network. The twin without a network, with
// the same inside half, ends with its status and no error.
func TestRunNetworkFailsClosed(t *testing.T) {
	t.Parallel()
	if err := Check(); err != nil {
		t.Skipf("the kernel sandbox cannot run here: %v", err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	ws, tmp := filepath.Join(root, "ws"), filepath.Join(root, "tmp")
	for _, d := range []string{ws, tmp} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	profile, err := Default(Options{Home: root, Workspaces: []string{ws}, Temp: []string{tmp}, Net: []string{"example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	run := func(proxy *Proxy) (int, error) {
		return Run(context.Background(), Command{
			Profile:   profile,
			Args:      []string{"/bin/true"},
			Self:      self,
			EnterArgs: []string{"-test.run=^TestFakeInsideHalf$", fakeInsideHalf},
			Proxy:     proxy,
		})
	}
	code, err := run(&Proxy{Hosts: profile.Net})
	if err == nil || !strings.Contains(err.Error(), "network namespace could not be set up") {
		t.Errorf("no listener from the inside half: status %d, error %v; want the run refused", code, err)
	}
	if code, err := run(nil); code != 0 || err != nil {
		t.Errorf("without a network: status %d, error %v; want 0", code, err)
	}
}
