// Command toolgate is the tool-approval gateway for AI agents. See the
// README for what it does; `toolgate help` lists the subcommands.
package main

import (
	"context"
	"os"

	// The main goroutine's stack grown once, early in package
	// initialisation, instead of doubling three times, the last deep in
	// the command.
	_ "github.com/toolgate/toolgate/internal/bigstack"
	"github.com/toolgate/toolgate/internal/cli"
)

func main() {
	// cli.Run installs the signal handlers for the commands that need them.
	os.Exit(cli.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
