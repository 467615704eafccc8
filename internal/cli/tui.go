package cli

import (
	"context"
	"io"
	"os"

	"github.com/toolgate/toolgate/internal/gatewaycli"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/tui"
)

// runTUI is the terminal approver: it lists a gateway's pending approvals
// live and answers them from the keyboard.
func runTUI(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
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
