//go:build unix

package sandboxcmd

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/toolgate/toolgate/sandbox"
)

// A path outside the writable roots is named as a refused write when the
// sandbox's own process could read it; one it cannot, or a FIFO whose
// opening would wait (the path comes from the command's output), is not,
// and is never opened.
func TestExplainPathOutside(t *testing.T) {
	t.Parallel()
	ws, out := t.TempDir(), t.TempDir()
	p := &sandbox.Profile{Write: []string{ws}}
	readable := filepath.Join(out, "notes.txt")
	if err := os.WriteFile(readable, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(out, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, c := range []struct {
		path string
		rule string
	}{
		{readable, ruleOutside},
		{filepath.Join(out, "new.txt"), ruleOutside},
		{filepath.Join(ws, "build.log"), ""},
		{fifo, ""},
		{"/dev/sda", ruleDevice},
	} {
		done := make(chan string, 1)
		go func() { rule, _, _ := explainPath(p, c.path); done <- rule }()
		select {
		case rule := <-done:
			if rule != c.rule {
				t.Errorf("%s: rule %q, want %q", c.path, rule, c.rule)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: explaining it blocked", c.path)
		}
	}
}
