package sandboxcmd

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The lean inside half is used when an executable file of its name lies
// beside the program; otherwise (missing, not executable, a directory)
// the program starts itself again.
func TestInsideHalf(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	self := filepath.Join(dir, "toolgate-sandbox")
	lean := filepath.Join(dir, EnterProgram)
	again := []string{EnterFlag}
	check := func(what, wantProg string, wantArgs []string) {
		t.Helper()
		prog, args := InsideHalf(self, again)
		if prog != wantProg || !slices.Equal(args, wantArgs) {
			t.Errorf("%s: %s %v, want %s %v", what, prog, args, wantProg, wantArgs)
		}
	}
	check("no lean inside half", self, again)
	if err := os.Mkdir(lean, 0o755); err != nil {
		t.Fatal(err)
	}
	check("a directory of its name", self, again)
	if err := os.Remove(lean); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lean, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("not executable", self, again)
	if err := os.Chmod(lean, 0o755); err != nil {
		t.Fatal(err)
	}
	check("installed", lean, nil)
}
