// Command toolgate is the tool-approval gateway for AI agents. See the
// README for what it does; `toolgate help` lists the subcommands.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	// The main goroutine's stack grown once, early in package
	// initialisation, instead of doubling three times, the last deep in
	// the command.
	_ "github.com/toolgate/toolgate/internal/bigstack"
	"github.com/toolgate/toolgate/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
