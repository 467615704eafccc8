package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/present"
)

// DefaultURL is where the admin commands find the gateway unless told.
const DefaultURL = "http://127.0.0.1:8787"

// gatewayFlags are the flags of every command that talks to a gateway.
type gatewayFlags struct {
	url   string
	token string
	json  bool
}

func (g *gatewayFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&g.url, "url", envOr("TOOLGATE_URL", DefaultURL), "gateway `URL` ($TOOLGATE_URL)")
	fs.StringVar(&g.token, "token", "", "credential (default $TOOLGATE_TOKEN; prefer the variable: flags show in ps)")
	fs.BoolVar(&g.json, "json", false, "print JSON instead of a table")
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func (g *gatewayFlags) client() (*client.Client, error) { return g.clientVia("cli") }

// clientVia returns a client that names itself via in the audit log.
func (g *gatewayFlags) clientVia(via string) (*client.Client, error) {
	token := g.token
	if token == "" {
		token = os.Getenv("TOOLGATE_TOKEN")
	}
	if token == "" {
		return nil, clibase.UsageErrorf("no credential: set TOOLGATE_TOKEN (see 'toolgate tokens create')")
	}
	c, err := client.New(g.url, token, client.WithVia(via))
	if err != nil {
		return nil, clibase.BadInput(err)
	}
	return c, nil
}

// sub is one subcommand: what it does, in a line, and how it runs.
type sub struct {
	summary string
	run     func(args []string) error
}

// subcommands dispatches "NAME SUB args…" to the named subcommand; -h,
// --help or help lists them.
func subcommands(name string, args []string, stdout io.Writer, subs map[string]sub) error {
	if len(args) == 0 {
		return clibase.UsageErrorf("usage: toolgate %s %s (run 'toolgate %s -h')", name, strings.Join(sortedKeys(subs), "|"), name)
	}
	switch args[0] {
	case "-h", "--help", "help":
		fmt.Fprintf(stdout, "Usage: toolgate %s COMMAND [flags]\n\n", name)
		for _, k := range sortedKeys(subs) {
			fmt.Fprintf(stdout, "  %-9s %s\n", k, subs[k].summary)
		}
		fmt.Fprintf(stdout, "\nRun 'toolgate %s COMMAND -h' for a command's flags.\n", name)
		return nil
	}
	s, ok := subs[args[0]]
	if !ok {
		return clibase.UsageErrorf("unknown %s command %q (want %s)", name, args[0], strings.Join(sortedKeys(subs), ", "))
	}
	return s.run(args[1:])
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func table(w io.Writer, header string, rows [][]string) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, header)
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	return tw.Flush()
}

// callSummary renders a call's arguments on one line for a table.
func callSummary(c toolgate.Call) string {
	if cmd, ok := c.Args["command"].(string); ok {
		return clibase.OneLine(cmd)
	}
	for _, k := range []string{"file_path", "path", "url", "pattern", "name"} {
		if s, ok := c.Args[k].(string); ok {
			return s
		}
	}
	b, _ := json.Marshal(c.Args)
	s := string(b)
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// originLabel words a call's origin for a listing, "-" for none.
func originLabel(o string) string {
	if o == "" {
		return "-"
	}
	return present.Origin(o)
}
