package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/integrations/enginehost"
	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/hookcli"
)

// hostFlags are the flags of toolgate host.
type hostFlags struct {
	rules     hookcli.RuleFlags
	mode      string
	force     bool
	server    string
	workspace string
	session   string
	ttl       time.Duration
	verbose   bool
	pass      bool
}

func (f *hostFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.mode, "mode", "", "approval `M`ode of the engine's session: Default, AutoEdit, Force or any toolgate mode (default: the rules')")
	fs.BoolVar(&f.force, "force", false, "start in Force mode (yolo): the rules still deny what they deny")
	fs.StringVar(&f.server, "server", "", "decide through the gateway at `URL` (default $TOOLGATE_URL; none: decide locally, denying what would need a human). Token from $TOOLGATE_TOKEN")
	fs.StringVar(&f.workspace, "workspace", "", "with a gateway, the workspace `ID` of the calls (default $TOOLGATE_WORKSPACE, else the gateway's default)")
	fs.StringVar(&f.session, "session", "", "session `ID` of the engine's calls (default: a new one per run)")
	fs.DurationVar(&f.ttl, "ttl", 0, "with a gateway, how long an approval waits for an answer (default: the gateway's, 5m)")
	fs.BoolVar(&f.verbose, "v", false, "log every decision on stderr")
	fs.BoolVar(&f.pass, "passthrough", false, "sit between an existing host (on stdin/stdout) and its engine: answer what the rules decide, pass the rest to the host's own UI (and to the gateway's approvers: first answer wins) and relay its answers")
}

// runHost runs toolgate host: an engine speaking the JSON-lines approval
// protocol (seed 000) as a child process, its approval requests answered
// by the gate.
func runHost(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := clibase.NewFlagSet("host", stderr)
	var f hostFlags
	f.rules.Register(fs)
	f.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: toolgate host [flags] -- ENGINE [ARGS…]")
		fmt.Fprintln(stderr, "Runs an engine that speaks the JSON-lines tool approval protocol and answers its")
		fmt.Fprintln(stderr, "tool_request and approval_required events: at once when the rules decide, after the")
		fmt.Fprintln(stderr, "gateway's approvers answer otherwise (without a gateway such calls are denied).")
		fmt.Fprintln(stderr, "Commands on stdin go to the engine (set_mode is applied at the gate); the engine's")
		fmt.Fprintln(stderr, "other events come out on stdout. Exits with the engine's exit code. The end of stdin")
		fmt.Fprintln(stderr, "does not end the engine: the host keeps answering it (interrupt to stop).")
		fmt.Fprintln(stderr, "With --passthrough an existing host runs toolgate host as its engine and keeps its UI.")
		fs.PrintDefaults()
	}
	if err := clibase.ParseFlags(fs, args); err != nil {
		return err
	}
	command := fs.Args()
	if len(command) == 0 {
		return clibase.UsageErrorf("host needs an engine: toolgate host [flags] -- ENGINE [ARGS…]")
	}
	if f.force && f.mode != "" {
		return clibase.UsageErrorf("use --mode or --force, not both")
	}
	var mode *toolgate.Mode
	switch {
	case f.force:
		m := toolgate.ModeYolo
		mode = &m
	case f.mode != "":
		m, err := toolgate.ParseMode(f.mode)
		if err != nil {
			return clibase.BadInput(fmt.Errorf("--mode: %w", err))
		}
		mode = &m
	}
	if f.ttl < 0 {
		return clibase.UsageErrorf("--ttl must not be negative")
	}
	level := slog.LevelWarn
	if f.verbose {
		level = slog.LevelInfo
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level})).With("component", "host")
	cfg := enginehost.Config{
		Command: command, Stdin: stdin, Stdout: stdout, Stderr: stderr,
		Session: f.session, Workspace: f.workspace, TTL: f.ttl, Logger: logger,
		Passthrough: f.pass,
	}
	gw, err := hookcli.GatewayURL(f.server, f.rules.Explicit())
	if err != nil {
		return err
	}
	if gw != "" {
		c, err := client.New(gw, os.Getenv("TOOLGATE_TOKEN"), client.WithVia("engine"))
		if err != nil {
			return clibase.BadInput(fmt.Errorf("--server: %w", err))
		}
		if cfg.Workspace == "" {
			cfg.Workspace = os.Getenv("TOOLGATE_WORKSPACE")
		}
		if cfg.Session == "" {
			cfg.Session = fmt.Sprintf("host-%d-%d", os.Getpid(), time.Now().UnixNano())
		}
		g := &enginehost.Gateway{Gate: c}
		if mode != nil {
			if err := g.SetMode(ctx, cfg.Session, *mode); err != nil {
				return fmt.Errorf("set mode %s at the gateway (it needs an approver token): %w", *mode, err)
			}
		}
		cfg.Decider = g
	} else {
		if f.ttl > 0 {
			return clibase.UsageErrorf("--ttl needs a gateway: without one nothing waits for approval")
		}
		e, agent, err := f.rules.Engine()
		if err != nil {
			return err
		}
		m := e.Mode()
		if mode != nil {
			m = *mode
		}
		cfg.Decider = enginehost.NewLocal(e, agent, m)
	}
	code, err := enginehost.Run(ctx, cfg)
	if err != nil {
		return fmt.Errorf("host: %w", err)
	}
	if code != 0 {
		return clibase.ErrSilent(code)
	}
	return nil
}
