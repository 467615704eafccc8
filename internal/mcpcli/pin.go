package mcpcli

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/toolgate/toolgate/integrations/mcpproxy"
	"github.com/toolgate/toolgate/integrations/mcpproxy/pins"
	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/gatewaycli"
)

// runMCP runs toolgate mcp: pin (pin a server's tool definitions) and
// pins (list them).
func runMCP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return gatewaycli.Subcommands("mcp", args, stdout, map[string]gatewaycli.Sub{
		"pin":  {Summary: "pin a server's tool definitions: -- COMMAND… or --name N --upstream URL", Run: func(args []string) error { return runMCPPin(ctx, args, stdout, stderr) }},
		"pins": {Summary: "list the pinned tool definitions", Run: func(args []string) error { return runMCPPins(args, stdout, stderr) }},
	})
}

type toolNames []string

func (t *toolNames) String() string     { return strings.Join(*t, ",") }
func (t *toolNames) Set(v string) error { *t = append(*t, v); return nil }

// runMCPPin lists a server's tools and pins their definitions, showing
// what changed since the last pin.
func runMCPPin(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := clibase.NewFlagSet("mcp pin", stderr)
	pinsFile := fs.String("pins", pins.DefaultPath(), "the tool pin `F`ile the proxies read")
	name := fs.String("name", "", "server `N`ame, as mcp-proxy's --name (default: the command's base name)")
	upstream := fs.String("upstream", "", "pin the streamable HTTP MCP server at `URL` instead of running a command")
	var tools toolNames
	fs.Var(&tools, "tool", "pin only tool `T` (repeatable; default: every tool the server lists)")
	timeout := fs.Duration("timeout", 30*time.Second, "how long to wait for the server")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: toolgate mcp pin [flags] -- COMMAND [ARGS…]")
		fmt.Fprintln(stderr, "       toolgate mcp pin [flags] --name N --upstream URL")
		fmt.Fprintln(stderr, "Lists the server's tools and pins each one's definition (description, schemas,")
		fmt.Fprintln(stderr, "annotations), printing what changed since its last pin. mcp-proxy asks before a")
		fmt.Fprintln(stderr, "tool whose definition no longer matches its pin is used.")
		fs.PrintDefaults()
	}
	if err := clibase.ParseFlags(fs, args); err != nil {
		return err
	}
	command := fs.Args()
	f := mcpProxyFlags{name: *name, upstream: *upstream, timeout: *timeout}
	if err := f.checkServer(command); err != nil {
		return err
	}
	if *pinsFile == "" {
		return clibase.UsageErrorf("--pins: no file given and no config directory to default to")
	}
	var up mcpproxy.Upstream
	server := *name
	if *upstream != "" {
		up = mcpproxy.HTTPUpstream(*upstream, nil)
	} else {
		up = mcpproxy.CommandUpstream(stderr, command[0], command[1:]...)
		if server == "" {
			server = serverNameFor(command[0])
		}
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	listed, err := mcpproxy.ListTools(ctx, up)
	if err != nil {
		return err
	}
	pf := pins.Open(*pinsFile)
	all, err := pf.All()
	if err != nil {
		return err
	}
	old := all[server]
	defs := map[string][]byte{}
	for _, t := range listed {
		if len(tools) > 0 && !slices.Contains(tools, t.Name) {
			continue
		}
		def, hash, err := mcpproxy.Definition(t)
		if err != nil {
			return err
		}
		defs[t.Name] = def
		switch p, ok := old[t.Name]; {
		case !ok:
			fmt.Fprintf(stdout, "new        %s  %s\n", t.Name, pins.Short(hash))
		case p.Hash == hash:
			fmt.Fprintf(stdout, "unchanged  %s  %s\n", t.Name, pins.Short(hash))
		default:
			fmt.Fprintf(stdout, "changed    %s  %s -> %s\n%s\n", t.Name, pins.Short(p.Hash), pins.Short(hash), indent(pins.Diff(p.Definition, def)))
		}
	}
	for _, want := range tools {
		if _, ok := defs[want]; !ok {
			return clibase.BadInput(fmt.Errorf("--tool %s: the server lists no such tool", want))
		}
	}
	if err := pf.Set(server, defs, pins.ByCommand, time.Now(), true); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "pinned %d tool(s) of %s in %s\n", len(defs), server, *pinsFile)
	return nil
}

// runMCPPins lists the pins.
func runMCPPins(args []string, stdout, stderr io.Writer) error {
	fs := clibase.NewFlagSet("mcp pins", stderr)
	pinsFile := fs.String("pins", pins.DefaultPath(), "the tool pin `F`ile")
	name := fs.String("name", "", "only server `N`")
	if err := clibase.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return clibase.UsageErrorf("mcp pins takes no arguments")
	}
	all, err := pins.Open(*pinsFile).All()
	if err != nil {
		return err
	}
	servers := make([]string, 0, len(all))
	for s := range all {
		if *name == "" || s == *name {
			servers = append(servers, s)
		}
	}
	sort.Strings(servers)
	var rows [][]string
	for _, s := range servers {
		for _, t := range pins.Tools(all[s]) {
			p := all[s][t]
			rows = append(rows, []string{s, t, pins.Short(p.Hash), p.PinnedAt.Format(time.RFC3339), p.PinnedBy})
		}
	}
	if len(rows) == 0 {
		fmt.Fprintf(stdout, "no tools pinned in %s\n", *pinsFile)
		return nil
	}
	return gatewaycli.Table(stdout, "SERVER\tTOOL\tHASH\tPINNED\tBY", rows)
}

// checkServer validates the flags that name the server.
func (f *mcpProxyFlags) checkServer(command []string) error {
	switch {
	case f.upstream == "" && len(command) == 0:
		return clibase.UsageErrorf("the command needs a server: -- COMMAND [ARGS…] or --upstream URL")
	case f.upstream != "" && len(command) > 0:
		return clibase.UsageErrorf("give a command or --upstream, not both (got command %q)", command[0])
	case f.upstream != "" && f.name == "":
		return clibase.UsageErrorf("--upstream needs --name: the server name used in tool names and rules")
	}
	if f.upstream != "" {
		u, err := url.Parse(f.upstream)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return clibase.UsageErrorf("--upstream %q: want an http:// or https:// URL", f.upstream)
		}
	}
	if f.name != "" && !validServerName(f.name) {
		return clibase.UsageErrorf("--name %q: use letters, digits, '_' and '-', without \"__\"", f.name)
	}
	if f.timeout <= 0 {
		return clibase.UsageErrorf("--timeout must be positive")
	}
	return nil
}

func indent(s string) string { return "    " + strings.ReplaceAll(s, "\n", "\n    ") }
