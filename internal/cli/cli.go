package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/toolgate/toolgate/internal/clibase"
)

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error
	// stops: the command serves, waits or runs other programs until
	// stopped, so SIGINT and SIGTERM cancel its context and it shuts
	// down cleanly. The others die of the signal as any short command
	// does: a signal handler costs every start two threads (the lean
	// hook has none either).
	stops bool
}

func commands() []command {
	return []command{
		{"serve", "run the gateway: HTTP API, event streams, approvals (embedded SQLite by default)", runServe, true},
		{"tokens", "create, list and revoke credentials (agent, approver, admin)", runTokens, false},
		{"host", "run an engine that speaks the JSON-lines approval protocol; answer its requests by rules and approvers", runHost, true},
		{"check", "decide one call (or a JSON-lines batch) against rules and print the decision", runCheck, false},
		{"rules", "work with rule documents: test, validate, classes; get and put on a running gateway", runRules, false},
		{"approvals", "list, approve and deny pending approvals on a running gateway", runApprovals, false},
		{"grants", "list, add and revoke grants on a running gateway", runGrants, false},
		{"audit", "list the audit log of a running gateway, or --verify its hash chain", runAudit, false},
		{"sessions", "list sessions, change a session's mode, abort it or end its turn", runSessions, false},
		{"hook", "answer an agent's hooks (hook claude-code|codex|gemini), install or uninstall one (hook install HOST); hook -h", runHook, false},
		{"pair", "print a one-time link and QR code that sign a phone in to the web inbox as an approver", runPair, false},
		{"devices", "list signed-in browsers and paired devices, or revoke one", runDevices, false},
		{"tui", "answer pending approvals from the terminal, live (y once, s session, a always, n deny)", handOffTo("toolgate-tui", "tui"), false},
		{"sandbox", "run a command confined by the kernel (Landlock, seccomp): sandbox [--workspace DIR]… -- CMD…", runSandbox, false}, // sandbox.Run listens for signals itself
		{"mcp-proxy", "run an MCP server behind the gate: -- COMMAND… or --upstream URL", handOffTo("toolgate-mcp", "mcp-proxy"), false},
		{"mcp", "pin MCP servers' tool definitions (mcp pin -- COMMAND…) or list the pins (mcp pins)", handOffTo("toolgate-mcp", "mcp"), false},
		{"doctor", "check every installed agent hook, the gateway, the credential and the rules, and say what to fix", runDoctor, true},
		{"completion", "print a shell completion script: completion bash|zsh|fish", runCompletion, false},
		{"version", "print the version", runVersion, false},
	}
}

// Main runs the command line and returns the process exit code, printing
// any error as one line on stderr.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return clibase.ExitCode(Run(ctx, args, stdin, stdout, stderr), stderr)
}

// Run runs the subcommand named by args[0].
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		printUsage(stdout)
		return nil
	}
	if args[0] == "--version" {
		return runVersion(ctx, args[1:], stdin, stdout, stderr)
	}
	for _, c := range commands() {
		if c.name == args[0] {
			if c.stops {
				var stop context.CancelFunc
				ctx, stop = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
				defer stop()
			}
			return c.run(ctx, args[1:], stdin, stdout, stderr)
		}
	}
	return clibase.UsageErrorf("unknown command %q (run 'toolgate help')", args[0])
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
