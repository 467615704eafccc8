package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Exit codes. Scripts depend on them (DESIGN §7.1).
const (
	exitOK      = 0
	exitFailure = 1 // something went wrong, or rule tests failed
	exitUsage   = 2 // bad input: flags, call JSON, rule files
)

// exitError carries an exit code with the error printed for it.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageErrorf returns an error that exits 2: bad input.
func usageErrorf(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

// badInput marks err as bad input (exit 2).
func badInput(err error) error {
	if err == nil {
		return nil
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return err
	}
	return &exitError{code: exitUsage, err: err}
}

// errSilent ends a command with an exit code when it already printed what
// went wrong.
type errSilent int

func (e errSilent) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"serve", "run the gateway: HTTP API, event streams, approvals (embedded SQLite by default)", runServe},
		{"tokens", "create, list and revoke credentials (agent, approver, admin)", runTokens},
		{"host", "run an engine that speaks the JSON-lines approval protocol; answer its requests by rules and approvers", runHost},
		{"check", "decide one call (or a JSON-lines batch) against rules and print the decision", runCheck},
		{"rules", "work with rule documents: rules test FILE…", runRules},
		{"approvals", "list, approve and deny pending approvals on a running gateway", runApprovals},
		{"grants", "list and revoke grants on a running gateway", runGrants},
		{"audit", "list the audit log of a running gateway, or --verify its hash chain", runAudit},
		{"sessions", "list sessions, change a session's mode, abort it or end its turn", runSessions},
		{"hook", "answer Claude Code and Codex hooks (hook claude-code|codex), or install one (hook install claude-code)", runHook},
		{"pair", "print a one-time link and QR code that sign a phone in to the web inbox as an approver", runPair},
		{"devices", "list signed-in browsers and paired devices, or revoke one", runDevices},
		{"tui", "answer pending approvals from the terminal, live (y once, s session, a always, n deny)", runTUI},
		{"mcp-proxy", "run an MCP server behind the gate: -- COMMAND… or --upstream URL", runMCPProxy},
		{"version", "print the version", runVersion},
	}
}

// Main runs the command line and returns the process exit code, printing
// any error as one line on stderr.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	err := Run(ctx, args, stdin, stdout, stderr)
	if err == nil {
		return exitOK
	}
	var silent errSilent
	if errors.As(err, &silent) {
		return int(silent)
	}
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	fmt.Fprintf(stderr, "toolgate: %s\n", oneLine(err.Error()))
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return exitFailure
}

// oneLine folds a multi-line error into one line, so scripts can rely on
// a single line on stderr.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", "; ")), " ")
}

// Run runs the subcommand named by args[0].
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		printUsage(stdout)
		return nil
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(ctx, args[1:], stdin, stdout, stderr)
		}
	}
	return usageErrorf("unknown command %q (run 'toolgate help')", args[0])
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "toolgate: a tool-approval gateway for AI agents")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: toolgate COMMAND [flags]")
	fmt.Fprintln(w)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'toolgate COMMAND -h' for a command's flags.")
}

// newFlagSet returns a flag set that reports errors instead of exiting.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("toolgate "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseFlags parses args and maps flag errors to bad input.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return badInput(err)
	}
	return nil
}

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }
