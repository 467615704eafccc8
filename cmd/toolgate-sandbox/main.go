// Command toolgate-sandbox is "toolgate sandbox" as a lean binary:
//
//	toolgate-sandbox [--workspace DIR]… [--net none|HOST…] [--profile FILE] -- CMD [ARGS…]
//
// runs CMD confined by the kernel (Landlock, seccomp, a mount namespace)
// and exits with its status; 125 is its own failure. A confined run
// starts a second process inside the new namespaces: toolgate-sandbox-enter
// when it is installed beside this program, else this program again. It
// links only the sandbox and the tables it reads, not the gateway: it
// starts in a fraction of the full toolgate binary's time
// (docs/BENCHMARKS.md).
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/sandboxcmd"
	"github.com/toolgate/toolgate/sandbox/enter"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == sandboxcmd.EnterFlag {
		// The inside half becomes the command at once: no signal
		// handling (its thread) and no lookup of this program.
		os.Exit(enter.Main(os.Stderr))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(os.Stderr, "toolgate-sandbox: %v\n", err)
		os.Exit(sandboxcmd.ExitSandbox)
	}
	prog, args := sandboxcmd.InsideHalf(self, []string{sandboxcmd.EnterFlag})
	err = sandboxcmd.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, prog, args)
	code := clibase.ExitCode(err, os.Stderr)
	stop()
	os.Exit(code)
}
