package cli_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/cli"
	"github.com/toolgate/toolgate/internal/clibase"
)

// TestHandOff: toolgate hands mcp-proxy, mcp and tui to the companion
// program beside it or on PATH, with the arguments after the command's
// name; its output and exit status are the command's.
func TestHandOff(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(self, filepath.Join(dir, "toolgate-mcp")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	pins := filepath.Join(t.TempDir(), "pins.json")
	if err := os.WriteFile(pins, []byte(`{"servers":{"srv":{"echo":{"hash":"sha256:0123456789abcdef","definition":{},"pinned_at":"2026-11-29T00:00:00Z","pinned_by":"toolgate mcp pin"}}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if err := cli.Run(context.Background(), []string{"mcp", "pins", "--pins", pins}, strings.NewReader(""), &out, &errb); err != nil {
		t.Fatalf("mcp pins: %v\n%s", err, errb.String())
	}
	if !strings.Contains(out.String(), "srv") || !strings.Contains(out.String(), "0123456789ab") {
		t.Fatalf("mcp pins printed:\n%s", out.String())
	}
	out.Reset()
	errb.Reset()
	err = cli.Run(context.Background(), []string{"mcp", "unpin"}, strings.NewReader(""), &out, &errb)
	if code := clibase.ExitCode(err, &errb); code != clibase.ExitUsage || !strings.Contains(errb.String(), `unknown mcp command "unpin"`) {
		t.Fatalf("mcp unpin: exit %d, %v, stderr %q; want the companion's usage error and exit 2", code, err, errb.String())
	}
}

// TestHandOffMissing: without the companion program, the command fails
// with what to install, and runs nothing.
func TestHandOffMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	for _, c := range []struct{ name, program string }{{"tui", "toolgate-tui"}, {"mcp-proxy", "toolgate-mcp"}, {"mcp", "toolgate-mcp"}} {
		var out, errb bytes.Buffer
		err := cli.Run(context.Background(), []string{c.name}, strings.NewReader(""), &out, &errb)
		var ue *clibase.ExitError
		if !errors.As(err, &ue) || ue.Code != clibase.ExitUsage || !strings.Contains(err.Error(), c.program+", which is not installed") ||
			!strings.Contains(err.Error(), "go install ./cmd/...") {
			t.Errorf("%s without %s: %v", c.name, c.program, err)
		}
	}
}
