package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/toolgate/toolgate/internal/clibase"
)

// handOffTo returns the run of a command that a companion program holds:
// toolgate-tui (the terminal approver) and toolgate-mcp (mcp-proxy, mcp).
// Their libraries (Bubble Tea's tables, the MCP SDK's schema and gob
// registries) initialise at every start of a program that links them,
// which every other command would pay (DESIGN §10: each starts within 3×
// of a static hello), so this program hands the command line over. The
// companion is found beside this program or on PATH (clibase.Sibling).
func handOffTo(program, name string) func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
		path := clibase.Sibling(program)
		if path == "" {
			return clibase.UsageErrorf("toolgate %s is run by %s, which is not installed beside toolgate or on PATH: "+
				"install both (CGO_ENABLED=0 go install ./cmd/...), or run go run ./cmd/%s %s", name, program, program, name)
		}
		argv := append([]string{path, name}, args...)
		if canExec && stdin == os.Stdin && stdout == os.Stdout && stderr == os.Stderr {
			// The process becomes the companion: the terminal, signals
			// and the exit status are the companion's own. It returns
			// only when the exec failed.
			return fmt.Errorf("run %s: %w", program, execProgram(path, argv))
		}
		// Streams of the caller's own (tests, a library), or no exec
		// here: a child.
		cmd := exec.CommandContext(ctx, path, argv[1:]...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
		err := cmd.Run()
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) && ee.ExitCode() > 0 {
			return clibase.ErrSilent(ee.ExitCode()) // it said why on stderr
		}
		if err != nil {
			return fmt.Errorf("run %s: %w", program, err)
		}
		return nil
	}
}
