package main

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestShellInitsNothing: package shell's initialisation does no work in
// the hook, which pays for it at every call. Its tables are data laid out
// in the binary; a package-level initialiser that calls a function, or
// builds a map, would also make the compiler copy every later table at
// start (go build -gcflags=github.com/toolgate/toolgate/shell=-d=staticcopy=1
// lists the copies). The runtime traces every package whose
// initialisation runs code.
func TestShellInitsNothing(t *testing.T) {
	hookEnv(t)
	cmd := exec.Command(sharedHookBin(t))
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if _, exited := errors.AsType[*exec.ExitError](err); err != nil && !exited {
		t.Fatal(err)
	}
	trace := string(out)
	if !strings.Contains(trace, "init runtime @") {
		t.Fatalf("no init trace from GODEBUG=inittrace=1:\n%s", trace)
	}
	for line := range strings.Lines(trace) {
		if strings.HasPrefix(line, "init github.com/toolgate/toolgate/shell @") {
			t.Errorf("package shell's initialisation runs code: %s", strings.TrimSpace(line))
		}
	}
}
