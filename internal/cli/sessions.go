package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/gatewaycli"
)

func runSessions(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	sessionCmd := func(name string, nargs int, do func(c *client.Client, args []string) (*toolgate.Session, error)) func([]string) error {
		return func(args []string) error {
			fs := clibase.NewFlagSet("sessions "+name, stderr)
			var g gatewaycli.Flags
			g.Register(fs)
			if err := clibase.ParseFlags(fs, args); err != nil {
				return err
			}
			if fs.NArg() != nargs {
				usage := "SESSION"
				if nargs == 2 {
					usage = "SESSION MODE"
				}
				return clibase.UsageErrorf("usage: toolgate sessions %s %s", name, usage)
			}
			c, err := g.Client()
			if err != nil {
				return err
			}
			s, err := do(c, fs.Args())
			if err != nil {
				return err
			}
			if g.JSON {
				return gatewaycli.PrintJSON(stdout, s)
			}
			return printSessions(stdout, []*toolgate.Session{s})
		}
	}
	return gatewaycli.Subcommands("sessions", args, stdout, map[string]gatewaycli.Sub{
		"list": {Summary: "list sessions", Run: func(args []string) error {
			fs := clibase.NewFlagSet("sessions list", stderr)
			var g gatewaycli.Flags
			g.Register(fs)
			if err := clibase.ParseFlags(fs, args); err != nil {
				return err
			}
			c, err := g.Client()
			if err != nil {
				return err
			}
			list, err := c.Sessions(ctx, toolgate.SessionFilter{})
			if err != nil {
				return err
			}
			if g.JSON {
				return gatewaycli.PrintJSON(stdout, list)
			}
			return printSessions(stdout, list)
		}},
		"mode": {Summary: "change a session's mode", Run: sessionCmd("mode", 2, func(c *client.Client, a []string) (*toolgate.Session, error) {
			m, err := toolgate.ParseMode(a[1])
			if err != nil {
				return nil, clibase.BadInput(err)
			}
			return c.SetMode(ctx, a[0], m)
		})},
		"abort": {Summary: "abort a session: its pending and later calls are denied", Run: sessionCmd("abort", 1, func(c *client.Client, a []string) (*toolgate.Session, error) {
			return c.Abort(ctx, a[0])
		})},
		"turn-end": {Summary: "end a session's turn: the user spoke again", Run: sessionCmd("turn-end", 1, func(c *client.Client, a []string) (*toolgate.Session, error) {
			return c.EndTurn(ctx, a[0])
		})},
		// A subagent completed or failed, a conversation closed: its
		// approvals and session grants end with it.
		"end": {Summary: "end a session for good", Run: sessionCmd("end", 1, func(c *client.Client, a []string) (*toolgate.Session, error) {
			return c.EndSession(ctx, a[0])
		})},
	})
}

func printSessions(w io.Writer, list []*toolgate.Session) error {
	var rows [][]string
	for _, s := range list {
		flags := ""
		if s.Stopped {
			flags += "stopped "
		}
		if s.Aborted {
			flags += "aborted"
		}
		rows = append(rows, []string{s.ID, s.Workspace, s.Mode.String(), fmt.Sprint(s.Turn), strings.TrimSpace(flags)})
	}
	return gatewaycli.Table(w, "SESSION\tWORKSPACE\tMODE\tTURN\tFLAGS", rows)
}
