package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/toolgate/toolgate/store/postgres"
	"github.com/toolgate/toolgate/tokens"
)

// runTokens manages credentials in the data directory directly, or in the
// PostgreSQL database nodes share (--store postgres://…): it works whether
// or not a gateway is running, and a running one sees the change.
func runTokens(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var closers []func() error
	defer func() {
		for _, c := range closers {
			c()
		}
	}()
	open := func(fsArgs []string, name string, extra func(*flag.FlagSet)) (*tokens.Store, *flag.FlagSet, error) {
		fs := newFlagSet("tokens "+name, stderr)
		data := fs.String("data", envOr("TOOLGATE_DATA", dataDir()), "data `dir`ectory ($TOOLGATE_DATA)")
		storeURL := fs.String("store", os.Getenv("TOOLGATE_STORE"), "a postgres://… `URL` to keep credentials in the database gateway nodes share ($TOOLGATE_STORE)")
		if extra != nil {
			extra(fs)
		}
		if err := parseFlags(fs, fsArgs); err != nil {
			return nil, nil, err
		}
		if postgres.IsURL(*storeURL) {
			db, err := postgres.Open(ctx, *storeURL)
			if err != nil {
				return nil, nil, fmt.Errorf("tokens: %w", err)
			}
			closers = append(closers, db.Close)
			st, err := tokens.OpenBackend(db.Tokens())
			if err != nil {
				return nil, nil, fmt.Errorf("tokens: %w", err)
			}
			return st, fs, nil
		}
		st, err := tokens.Open(filepath.Join(*data, "tokens.json"))
		if err != nil {
			return nil, nil, fmt.Errorf("tokens: %w", err)
		}
		return st, fs, nil
	}
	return subcommands("tokens", args, map[string]func([]string) error{
		"create": func(args []string) error {
			var role, name *string
			st, fs, err := open(args, "create", func(fs *flag.FlagSet) {
				role = fs.String("role", "", "`role`: agent, approver or admin")
				name = fs.String("name", "", "a `name` for the credential, as the audit log shows it")
			})
			if err != nil {
				return err
			}
			if fs.NArg() > 0 {
				return usageErrorf("tokens create takes flags only")
			}
			r, err := tokens.ParseRole(*role)
			if err != nil {
				return badInput(err)
			}
			if *name == "" {
				return usageErrorf("--name is required")
			}
			token, err := st.Create(*name, r)
			if err != nil {
				return badInput(err)
			}
			_, err = fmt.Fprintln(stdout, token)
			return err
		},
		"list": func(args []string) error {
			st, _, err := open(args, "list", nil)
			if err != nil {
				return err
			}
			list, err := st.List()
			if err != nil {
				return err
			}
			var rows [][]string
			for _, e := range list {
				rows = append(rows, []string{e.Name, string(e.Role), e.CreatedAt.Local().Format(time.DateTime)})
			}
			return table(stdout, "NAME\tROLE\tCREATED", rows)
		},
		"revoke": func(args []string) error {
			st, fs, err := open(args, "revoke", nil)
			if err != nil {
				return err
			}
			if fs.NArg() != 1 {
				return usageErrorf("usage: toolgate tokens revoke NAME")
			}
			if err := st.Revoke(fs.Arg(0)); err != nil {
				return badInput(err)
			}
			_, err = fmt.Fprintf(stdout, "revoked %s\n", fs.Arg(0))
			return err
		},
	})
}
