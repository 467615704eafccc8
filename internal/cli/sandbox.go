package cli

import (
	"context"
	"io"

	"github.com/toolgate/toolgate/internal/sandboxcmd"
)

// runSandbox is "toolgate sandbox": package sandboxcmd.
func runSandbox(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return sandboxcmd.Run(ctx, args, stdin, stdout, stderr)
}
