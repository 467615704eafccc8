// Package gatewaycli is what the commands that talk to a running gateway
// share, in the toolgate program and in its companion programs
// (toolgate-tui, toolgate-mcp): the flags that say which gateway and
// with which credential, a command's subcommands, and its tables and
// JSON. It is kept out of package clibase, which the lean binaries link:
// the gateway's client brings net/http.
package gatewaycli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/internal/clibase"
)

// DefaultURL is where the admin commands find the gateway unless told.
const DefaultURL = "http://127.0.0.1:8787"

// Flags are the flags of every command that talks to a gateway.
type Flags struct {
	URL   string
	Token string
	JSON  bool
}

// Register adds the flags to fs.
func (g *Flags) Register(fs *flag.FlagSet) {
	fs.StringVar(&g.URL, "url", EnvOr("TOOLGATE_URL", DefaultURL), "gateway `URL` ($TOOLGATE_URL)")
	fs.StringVar(&g.Token, "token", "", "credential (default $TOOLGATE_TOKEN; prefer the variable: flags show in ps)")
	fs.BoolVar(&g.JSON, "json", false, "print JSON instead of a table")
}

// EnvOr is the environment variable name's value, or def when it is
// unset or empty.
func EnvOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// Client returns a client of the gateway the flags name.
func (g *Flags) Client() (*client.Client, error) { return g.ClientVia("cli") }

// ClientVia returns a client that names itself via in the audit log.
func (g *Flags) ClientVia(via string) (*client.Client, error) {
	token := g.Token
	if token == "" {
		token = os.Getenv("TOOLGATE_TOKEN")
	}
	if token == "" {
		return nil, clibase.UsageErrorf("no credential: set TOOLGATE_TOKEN (see 'toolgate tokens create')")
	}
	c, err := client.New(g.URL, token, client.WithVia(via))
	if err != nil {
		return nil, clibase.BadInput(err)
	}
	return c, nil
}

// Sub is one subcommand: what it does, in a line, and how it runs.
type Sub struct {
	Summary string
	Run     func(args []string) error
}

// Subcommands dispatches "NAME SUB args…" to the named subcommand; -h,
// --help or help lists them.
func Subcommands(name string, args []string, stdout io.Writer, subs map[string]Sub) error {
	names := make([]string, 0, len(subs))
	for k := range subs {
		names = append(names, k)
	}
	slices.Sort(names)
	if len(args) == 0 {
		return clibase.UsageErrorf("usage: toolgate %s %s (run 'toolgate %s -h')", name, strings.Join(names, "|"), name)
	}
	switch args[0] {
	case "-h", "--help", "help":
		fmt.Fprintf(stdout, "Usage: toolgate %s COMMAND [flags]\n\n", name)
		for _, k := range names {
			fmt.Fprintf(stdout, "  %-9s %s\n", k, subs[k].Summary)
		}
		fmt.Fprintf(stdout, "\nRun 'toolgate %s COMMAND -h' for a command's flags.\n", name)
		return nil
	}
	s, ok := subs[args[0]]
	if !ok {
		return clibase.UsageErrorf("unknown %s command %q (want %s)", name, args[0], strings.Join(names, ", "))
	}
	return s.Run(args[1:])
}

// PrintJSON prints v as indented JSON.
func PrintJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// Table prints rows under a tab-separated header, aligned.
func Table(w io.Writer, header string, rows [][]string) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, header)
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	return tw.Flush()
}
