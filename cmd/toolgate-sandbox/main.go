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
	"os/signal"
	"runtime"
	"syscall"

	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/sandboxcmd"
)

func main() {
	// Its work is one sequence (the profile, the fork, the wait) and I/O:
	// a second P only wakes more threads, which cost more than they do.
	runtime.GOMAXPROCS(1)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := sandboxcmd.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	code := clibase.ExitCode(err, os.Stderr)
	stop()
	os.Exit(code)
}
