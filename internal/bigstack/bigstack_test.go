package bigstack

import (
	"bytes"
	"os"
	"os/exec"
	"runtime/debug"
	"testing"
)

// TestReserveNeedsItsFrame: reserve is only worth calling if its frame
// makes the stack grow past 16 KB at once. Run in a child whose stacks
// may not exceed 16 KB, on a new goroutine (a small stack), reserve must
// overflow; with the frame optimised away it would return.
func TestReserveNeedsItsFrame(t *testing.T) {
	if os.Getenv("BIGSTACK_CHILD") == "1" {
		debug.SetMaxStack(16 << 10)
		done := make(chan struct{})
		go func() { reserve(); close(done) }()
		<-done
		os.Stdout.WriteString("reserve returned\n")
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestReserveNeedsItsFrame$")
	cmd.Env = append(os.Environ(), "BIGSTACK_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err == nil || !bytes.Contains(out, []byte("stack overflow")) {
		t.Fatalf("reserve ran within a 16 KB stack (err %v):\n%s", err, out)
	}
}
