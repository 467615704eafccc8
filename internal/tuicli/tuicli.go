// Package tuicli is toolgate tui, the terminal approver, as the program
// toolgate-tui runs it. It is a program of its own because its terminal
// libraries initialise their tables at every start of a program that
// links them: the toolgate program hands "toolgate tui" over to it
// (package cli), and every other toolgate command starts without them.
package tuicli

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/gatewaycli"
	"github.com/toolgate/toolgate/tui"
)

// Main runs toolgate-tui and returns the process exit code, printing any
// error as one line on stderr. SIGINT and SIGTERM end it cleanly.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	return clibase.ExitCode(Run(ctx, args, stdin, stdout, stderr), stderr)
}

// Run is the terminal approver: it lists a gateway's pending approvals
// live and answers them from the keyboard. args may start with the
// command's name, "tui", as toolgate hands it over.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "tui" {
		args = args[1:]
	}
	fs := clibase.NewFlagSet("tui", stderr)
	var g gatewaycli.Flags
	g.Register(fs)
	session := fs.String("session", "", "show only this `session`'s approvals")
	workspace := fs.String("workspace", "", "show only this `workspace`'s approvals")
	if err := clibase.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return clibase.UsageErrorf("tui takes flags only, got %q", fs.Arg(0))
	}
	c, err := g.ClientVia("tui")
	if err != nil {
		return err
	}
	return tui.Run(ctx, c, stdin, stdout, tui.Options{
		Target:  g.URL,
		NoColor: os.Getenv("NO_COLOR") != "",
		Filter:  toolgate.EventFilter{Session: *session, Workspace: *workspace},
	})
}
