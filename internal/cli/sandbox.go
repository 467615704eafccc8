package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/sandboxcmd"
)

// runSandbox is "toolgate sandbox": package sandboxcmd, with this binary
// as the inside half (or toolgate-sandbox-enter, installed beside it).
func runSandbox(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	self, err := os.Executable()
	if err != nil {
		return &clibase.ExitError{Code: sandboxcmd.ExitSandbox, Err: fmt.Errorf("sandbox: locating toolgate: %w", err)}
	}
	prog, enterArgs := sandboxcmd.InsideHalf(self, []string{"sandbox", sandboxcmd.EnterFlag})
	return sandboxcmd.Run(ctx, args, stdin, stdout, stderr, prog, enterArgs)
}
