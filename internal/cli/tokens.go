package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/gatewaycli"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/tokens"
)

// tokenAdmin is what the tokens commands need: the token store itself, or
// a running gateway's /v1/tokens.
type tokenAdmin interface {
	Create(name string, role tokens.Role) (string, error)
	List() ([]tokens.Entry, error)
	Revoke(name string) error
}

// remoteTokens manages credentials through a running gateway, as an
// admin: a revocation takes effect there at once.
type remoteTokens struct {
	ctx context.Context
	c   *client.Client
}

func (r remoteTokens) Create(name string, role tokens.Role) (string, error) {
	t, err := r.c.CreateToken(r.ctx, name, string(role))
	if err != nil {
		return "", err
	}
	return t.Token, nil
}

func (r remoteTokens) List() ([]tokens.Entry, error) {
	list, err := r.c.Tokens(r.ctx)
	if err != nil {
		return nil, err
	}
	out := make([]tokens.Entry, len(list))
	for i, t := range list {
		out[i] = tokens.Entry{Name: t.Name, Role: tokens.Role(t.Role), CreatedAt: t.CreatedAt}
	}
	return out, nil
}

func (r remoteTokens) Revoke(name string) error { return r.c.RevokeToken(r.ctx, name) }

// runTokens manages credentials through a running gateway (--url or
// $TOOLGATE_URL, with an admin $TOOLGATE_TOKEN), or, given --data or
// --store or no gateway URL, in the data directory directly or in the
// PostgreSQL database nodes share (--store postgres://…): that works
// whether or not a gateway is running, and a running one sees the change
// within its check interval.
func runTokens(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var closers []func() error
	defer func() {
		for _, c := range closers {
			c()
		}
	}()
	open := func(fsArgs []string, name string, extra func(*flag.FlagSet)) (tokenAdmin, *flag.FlagSet, error) {
		fs := clibase.NewFlagSet("tokens "+name, stderr)
		data := fs.String("data", gatewaycli.EnvOr("TOOLGATE_DATA", clibase.DataDir()), "data `dir`ectory ($TOOLGATE_DATA)")
		storeURL := fs.String("store", os.Getenv("TOOLGATE_STORE"), "a postgres://… `URL` to keep credentials in the database gateway nodes share ($TOOLGATE_STORE)")
		gw := gatewaycli.Flags{}
		fs.StringVar(&gw.URL, "url", os.Getenv("TOOLGATE_URL"), "a running gateway's `URL`: manage its credentials over its API with an admin $TOOLGATE_TOKEN ($TOOLGATE_URL)")
		fs.StringVar(&gw.Token, "token", "", "admin credential for --url (default $TOOLGATE_TOKEN)")
		if extra != nil {
			extra(fs)
		}
		if err := clibase.ParseFlags(fs, fsArgs); err != nil {
			return nil, nil, err
		}
		direct := false
		fs.Visit(func(f *flag.Flag) { direct = direct || f.Name == "data" || f.Name == "store" })
		if gw.URL != "" && !direct {
			c, err := gw.Client()
			if err != nil {
				return nil, nil, err
			}
			return remoteTokens{ctx: ctx, c: c}, fs, nil
		}
		if b, ok := stores(storeOptions{data: *data}).Lookup(*storeURL); ok && b.Shared {
			db, err := b.Open(ctx, *storeURL)
			if err != nil {
				return nil, nil, fmt.Errorf("tokens: %w", err)
			}
			closers = append(closers, db.Close)
			keeper, ok := db.(store.Keeper)
			if !ok {
				return nil, nil, fmt.Errorf("tokens: store %q keeps no credentials", *storeURL)
			}
			st, err := tokens.OpenBackend(keeper.Tokens())
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
	return gatewaycli.Subcommands("tokens", args, stdout, map[string]gatewaycli.Sub{
		"create": {Summary: "create a credential and print it once", Run: func(args []string) error {
			var role, name *string
			st, fs, err := open(args, "create", func(fs *flag.FlagSet) {
				role = fs.String("role", "", "`role`: agent, approver or admin")
				name = fs.String("name", "", "a `name` for the credential, as the audit log shows it")
			})
			if err != nil {
				return err
			}
			if fs.NArg() > 0 {
				return clibase.UsageErrorf("tokens create takes flags only")
			}
			r, err := tokens.ParseRole(*role)
			if err != nil {
				return clibase.BadInput(err)
			}
			if *name == "" {
				return clibase.UsageErrorf("--name is required")
			}
			token, err := st.Create(*name, r)
			if err != nil {
				return clibase.BadInput(err)
			}
			_, err = fmt.Fprintln(stdout, token)
			return err
		}},
		"list": {Summary: "list credentials", Run: func(args []string) error {
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
			return gatewaycli.Table(stdout, "NAME\tROLE\tCREATED", rows)
		}},
		"revoke": {Summary: "revoke a credential", Run: func(args []string) error {
			st, fs, err := open(args, "revoke", nil)
			if err != nil {
				return err
			}
			if fs.NArg() != 1 {
				return clibase.UsageErrorf("usage: toolgate tokens revoke NAME")
			}
			if err := st.Revoke(fs.Arg(0)); err != nil {
				return clibase.BadInput(err)
			}
			_, err = fmt.Fprintf(stdout, "revoked %s\n", fs.Arg(0))
			return err
		}},
	})
}
