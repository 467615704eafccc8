// Command toolgate-sandbox is "toolgate sandbox" as a lean binary:
//
//	toolgate-sandbox [--workspace DIR]… [--net none|HOST…] [--profile FILE] -- CMD [ARGS…]
//
// runs CMD confined by the kernel (Landlock, seccomp, a mount namespace)
// and exits with its status; 125 is its own failure. It links only the
// sandbox and the tables it reads, not the gateway: it starts in a
// fraction of the full toolgate binary's time (docs/BENCHMARKS.md).
package main

import (
	"context"
	"os"

	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/sandboxcmd"
)

func main() {
	// SIGINT and SIGTERM end the confined command: sandbox.Run listens
	// for them (sandbox.Command.StopOnSignal) beside its plan, on a
	// second P.
	err := sandboxcmd.Run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	os.Exit(clibase.ExitCode(err, os.Stderr))
}
