package mcpcli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/integrations/mcpproxy"
	"github.com/toolgate/toolgate/integrations/mcpproxy/pins"
	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/hookcli"
)

// mcpProxyFlags are the flags of toolgate mcp-proxy.
type mcpProxyFlags struct {
	rules       hookcli.RuleFlags
	mode        string
	modes       hookcli.ModeFlags
	name        string
	server      string
	workspace   string
	upstream    string
	listen      string
	allowRemote bool
	timeout     time.Duration
	hideDenied  bool
	sandbox     bool
	sandboxNet  clibase.StringList
	remember    string
	pins        string
	verbose     bool
}

func (f *mcpProxyFlags) register(fs *flag.FlagSet) {
	f.rules.Register(fs)
	fs.StringVar(&f.mode, "mode", "", "approval `M`ode for local decisions (default: the config's)")
	f.modes.Register(fs)
	fs.StringVar(&f.name, "name", "", "server `N`ame used in tool names, mcp__N__TOOL and N_TOOL (default: the command's base name)")
	fs.StringVar(&f.server, "server", "", "decide through the gateway at `URL` (default $TOOLGATE_URL; none: decide locally from rules). Token from $TOOLGATE_TOKEN")
	fs.StringVar(&f.workspace, "workspace", "", "with a gateway, the workspace `ID` of the calls (default $TOOLGATE_WORKSPACE, else the gateway's default)")
	fs.StringVar(&f.upstream, "upstream", "", "proxy the streamable HTTP MCP server at `URL` instead of running a command")
	fs.StringVar(&f.listen, "listen", "", "serve clients over streamable HTTP at `ADDR` (host:port, path /mcp) instead of stdio")
	fs.BoolVar(&f.allowRemote, "allow-remote", false, "let --listen use an address that is not loopback (it has no authentication)")
	fs.DurationVar(&f.timeout, "timeout", mcpproxy.DefaultTimeout, "how long a call waits for an answer before it is denied")
	fs.BoolVar(&f.sandbox, "sandbox", false, "run the server COMMAND in the kernel sandbox (toolgate sandbox): writes only in the current directory and the temporary directory, no secrets, no network")
	fs.Var(&f.sandboxNet, "sandbox-net", "with --sandbox, a `HOST` the server may reach through toolgate's proxy (repeat for more)")
	fs.BoolVar(&f.hideDenied, "hide-denied", false, "leave the tools the rules deny outright out of tools/list")
	fs.StringVar(&f.remember, "remember", defaultRememberFile(), "without a gateway, keep \"always\" answers in the rules document `F` (JSONC; read at start, applies where the rules ask; empty: only while the proxy runs)")
	fs.StringVar(&f.pins, "pins", pins.DefaultPath(), "pin each tool's definition in `F` at its first allowed call, and ask before a tool whose definition changed is used (empty: no pinning); see toolgate mcp pin")
	fs.BoolVar(&f.verbose, "v", false, "log every decision on stderr")
}

// defaultRememberFile is where "always" answers are kept by default:
// $XDG_CONFIG_HOME/toolgate/mcp-always.jsonc.
func defaultRememberFile() string {
	dir := clibase.ConfigDir()
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "mcp-always.jsonc")
}

// runMCPProxy runs toolgate mcp-proxy: an MCP server behind the gate.
func runMCPProxy(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := clibase.NewFlagSet("mcp-proxy", stderr)
	var f mcpProxyFlags
	f.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: toolgate mcp-proxy [flags] -- COMMAND [ARGS…]")
		fmt.Fprintln(stderr, "       toolgate mcp-proxy [flags] --name N --upstream URL")
		fmt.Fprintln(stderr, "Runs an MCP server behind toolgate: every tools/call is decided by the rules (or a")
		fmt.Fprintln(stderr, "gateway with --server) before it reaches the server; ask is put to you inside the MCP")
		fmt.Fprintln(stderr, "client when it supports elicitation, else to the gateway's approvers. Serves the client")
		fmt.Fprintln(stderr, "on stdin/stdout, or over streamable HTTP with --listen.")
		fs.PrintDefaults()
	}
	if err := clibase.ParseFlags(fs, args); err != nil {
		return err
	}
	command := fs.Args()
	if err := f.check(command); err != nil {
		return err
	}

	cfg := mcpproxy.Config{
		Name:       f.name,
		Timeout:    f.timeout,
		HideDenied: f.hideDenied,
		Workspace:  f.workspace,
		Pins:       f.pins,
	}
	if cfg.Workspace == "" {
		cfg.Workspace = os.Getenv("TOOLGATE_WORKSPACE")
	}
	level := slog.LevelWarn
	if f.verbose {
		level = slog.LevelInfo
	}
	cfg.Logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level})).With("component", "mcp-proxy")

	if f.upstream != "" {
		cfg.Upstream = mcpproxy.HTTPUpstream(f.upstream, nil)
	} else {
		if cfg.Name == "" {
			cfg.Name = serverNameFor(command[0])
		}
		if f.sandbox {
			var err error
			if command, err = sandboxedCommand(command, f.sandboxNet); err != nil {
				return err
			}
		}
		cfg.Upstream = mcpproxy.CommandUpstream(stderr, command[0], command[1:]...)
	}

	m, err := f.modes.Resolve(f.mode)
	if err != nil {
		return err
	}
	gw, err := hookcli.GatewayURL(f.server, f.rules.Explicit() || m != nil)
	if err != nil {
		return err
	}
	if gw != "" {
		c, err := client.New(gw, os.Getenv("TOOLGATE_TOKEN"), client.WithVia("mcp"))
		if err != nil {
			return clibase.BadInput(fmt.Errorf("--server: %w", err))
		}
		cfg.Gateway = c
	} else {
		e, agent, err := f.rules.Engine()
		if err != nil {
			return err
		}
		cfg.Engine, cfg.Agent, cfg.Mode = e, agent, e.Mode()
		cfg.Remember = f.remember
		if m != nil {
			cfg.Mode = *m
		}
	}

	p, err := mcpproxy.New(cfg)
	if err != nil {
		return clibase.BadInput(err)
	}
	if f.listen != "" {
		return serveMCPHTTP(ctx, p, f.listen, stderr)
	}
	t := &mcp.IOTransport{Reader: readCloser(stdin), Writer: writeCloser(stdout)}
	if err := p.Serve(ctx, t); err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("mcp-proxy %s: %w", cfg.Name, err)
	}
	return nil
}

// check validates the flags and the command.
func (f *mcpProxyFlags) check(command []string) error {
	if err := f.checkServer(command); err != nil {
		return err
	}
	m, err := f.modes.Resolve(f.mode)
	if err != nil {
		return err
	}
	if _, err := hookcli.GatewayURL(f.server, f.rules.Explicit() || m != nil); err != nil {
		return err
	}
	if f.listen != "" {
		if err := checkListenAddr(f.listen, f.allowRemote); err != nil {
			return err
		}
	}
	return nil
}

// validServerName reports whether name can stand in mcp__NAME__TOOL.
func validServerName(name string) bool {
	if name == "" || strings.Contains(name, "__") {
		return false
	}
	for _, c := range name {
		if c != '_' && c != '-' && !('a' <= c && c <= 'z') && !('A' <= c && c <= 'Z') && !('0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// serverNameFor is the default server name for a command: its base name
// without extension, with other characters than letters, digits, '_' and
// '-' replaced.
func serverNameFor(command string) string {
	base := filepath.Base(command)
	base = strings.TrimSuffix(base, filepath.Ext(base))
	var b strings.Builder
	for _, c := range base {
		if c == '_' || c == '-' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	name := b.String()
	for strings.Contains(name, "__") {
		name = strings.ReplaceAll(name, "__", "_")
	}
	name = strings.Trim(name, "_")
	if name == "" {
		name = "server"
	}
	return name
}

// checkListenAddr refuses an address that is not loopback unless allowed:
// the endpoint has no authentication of its own.
func checkListenAddr(addr string, allowRemote bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return clibase.UsageErrorf("--listen %q: want host:port, e.g. 127.0.0.1:8788", addr)
	}
	if allowRemote || host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return clibase.UsageErrorf("--listen %q is not a loopback address; anyone who reaches it could use the server's tools (add --allow-remote if you mean it)", addr)
}

// serveMCPHTTP serves the proxy over streamable HTTP at addr until ctx
// ends.
func serveMCPHTTP(ctx context.Context, p *mcpproxy.Proxy, addr string, stderr io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("mcp-proxy: listen: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", p.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "toolgate mcp-proxy: serving MCP clients at http://%s/mcp\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		p.Close()
		return fmt.Errorf("mcp-proxy: serve: %w", err)
	case <-ctx.Done():
	}
	p.Close()
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	return nil
}

// readCloser and writeCloser adapt the command's streams to the stdio
// transport, which closes them when the session ends.
func readCloser(r io.Reader) io.ReadCloser {
	if rc, ok := r.(io.ReadCloser); ok {
		return rc
	}
	return io.NopCloser(r)
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

func writeCloser(w io.Writer) io.WriteCloser {
	if wc, ok := w.(io.WriteCloser); ok {
		return wc
	}
	return nopWriteCloser{w}
}

// sandboxedCommand is command run under the kernel sandbox with the
// current directory as its workspace: by toolgate-sandbox when it is
// installed (it starts faster), else by toolgate's sandbox command.
// The sandbox refuses to start (and so does the server) where the kernel
// cannot confine.
func sandboxedCommand(command, nets []string) ([]string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("--sandbox: %w", err)
	}
	// toolgate-sandbox, else toolgate's own sandbox command: this
	// program has none.
	argv := []string{hookcli.SandboxBinary()}
	if argv[0] == "" {
		tg := clibase.Sibling("toolgate")
		if tg == "" {
			return nil, clibase.UsageErrorf("--sandbox: neither toolgate-sandbox nor toolgate is installed beside this program or on PATH")
		}
		argv = []string{tg, "sandbox"}
	}
	argv = append(argv, "--workspace", wd)
	for _, n := range nets {
		argv = append(argv, "--net", n)
	}
	return append(append(argv, "--"), command...), nil
}
