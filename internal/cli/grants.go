package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/gatewaycli"
	"github.com/toolgate/toolgate/store"
)

func runGrants(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return gatewaycli.Subcommands("grants", args, stdout, map[string]gatewaycli.Sub{
		"list": {Summary: "list grants", Run: func(args []string) error {
			fs := clibase.NewFlagSet("grants list", stderr)
			var g gatewaycli.Flags
			g.Register(fs)
			var f store.GrantFilter
			fs.StringVar((*string)(&f.Scope), "scope", "", "only this `scope`")
			fs.StringVar(&f.Session, "session", "", "only this `session`")
			fs.StringVar(&f.Workspace, "workspace", "", "only this `workspace`")
			fs.StringVar(&f.Tool, "tool", "", "only this `tool`")
			if err := clibase.ParseFlags(fs, args); err != nil {
				return err
			}
			c, err := g.Client()
			if err != nil {
				return err
			}
			list, err := c.Grants(ctx, f)
			if err != nil {
				return err
			}
			if g.JSON {
				return gatewaycli.PrintJSON(stdout, list)
			}
			var rows [][]string
			for _, gr := range list {
				where := gr.Workspace
				if gr.Session != "" {
					where += "/" + gr.Session
				}
				until := "-"
				if !gr.ExpiresAt.IsZero() {
					until = gr.ExpiresAt.Local().Format(time.DateTime)
				}
				rows = append(rows, []string{gr.ID, string(gr.Scope), where, gr.Tool, string(gr.Kind), gr.Pattern, gr.CreatedBy, gr.CreatedAt.Local().Format(time.DateTime), until})
			}
			return gatewaycli.Table(stdout, "ID\tSCOPE\tWHERE\tTOOL\tKIND\tPATTERN\tBY\tCREATED\tUNTIL", rows)
		}},
		"revoke": {Summary: "revoke a grant", Run: func(args []string) error {
			fs := clibase.NewFlagSet("grants revoke", stderr)
			var g gatewaycli.Flags
			g.Register(fs)
			if err := clibase.ParseFlags(fs, args); err != nil {
				return err
			}
			if fs.NArg() != 1 {
				return clibase.UsageErrorf("usage: toolgate grants revoke ID")
			}
			c, err := g.Client()
			if err != nil {
				return err
			}
			if err := c.RevokeGrant(ctx, fs.Arg(0)); err != nil {
				return err
			}
			_, err = fmt.Fprintf(stdout, "revoked %s\n", fs.Arg(0))
			return err
		}},
		"add": {Summary: "add a grant directly (admin): a rule at a scope, without an approval", Run: func(args []string) error {
			fs := clibase.NewFlagSet("grants add", stderr)
			var g gatewaycli.Flags
			g.Register(fs)
			var gr toolgate.Grant
			fs.StringVar((*string)(&gr.Scope), "scope", "", "`scope`: turn, session, workspace or global (required)")
			fs.StringVar(&gr.Session, "session", "", "the `session` of a turn or session grant")
			fs.StringVar(&gr.Workspace, "workspace", "", "the `workspace` of a workspace grant")
			fs.StringVar(&gr.Tool, "tool", "", "the `tool` it covers (required)")
			fs.StringVar((*string)(&gr.Kind), "kind", "", "`kind`: pattern (default with --pattern), prefix or tool (the whole tool)")
			fs.StringVar(&gr.Pattern, "pattern", "", "the subject `glob` (or literal prefix) it covers")
			if err := clibase.ParseFlags(fs, args); err != nil {
				return err
			}
			if gr.Scope == "" || gr.Tool == "" {
				return clibase.UsageErrorf("grants add needs --scope and --tool")
			}
			if gr.Kind == "" {
				gr.Kind = toolgate.GrantTool
				if gr.Pattern != "" {
					gr.Kind = toolgate.GrantPattern
				}
			}
			c, err := g.Client()
			if err != nil {
				return err
			}
			added, err := c.AddGrant(ctx, gr)
			if err != nil {
				return err
			}
			if g.JSON {
				return gatewaycli.PrintJSON(stdout, added)
			}
			_, err = fmt.Fprintf(stdout, "added %s: %s %q at scope %s\n", added.ID, added.Tool, added.Pattern, added.Scope)
			return err
		}},
	})
}
