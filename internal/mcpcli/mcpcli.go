// Package mcpcli is toolgate's MCP commands as the program toolgate-mcp
// runs them: mcp-proxy (an MCP server behind the gate) and mcp pin|pins
// (pinning servers' tool definitions). They are a program of their own
// because the MCP SDK's packages initialise at every start of a program
// that links them: the toolgate program hands "toolgate mcp-proxy" and
// "toolgate mcp" over to it (package cli), and every other toolgate
// command starts without them.
package mcpcli

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/toolgate/toolgate/internal/clibase"
)

// Main runs toolgate-mcp and returns the process exit code, printing any
// error as one line on stderr. SIGINT and SIGTERM end it cleanly.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	return clibase.ExitCode(Run(ctx, args, stdin, stdout, stderr), stderr)
}

// Run runs the command args[0] names: mcp-proxy or mcp.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return clibase.UsageErrorf("usage: toolgate-mcp mcp-proxy|mcp [flags] (run 'toolgate mcp-proxy -h')")
	}
	switch args[0] {
	case "mcp-proxy":
		return runMCPProxy(ctx, args[1:], stdin, stdout, stderr)
	case "mcp":
		return runMCP(ctx, args[1:], stdin, stdout, stderr)
	}
	return clibase.UsageErrorf("toolgate-mcp runs mcp-proxy and mcp, not %q", args[0])
}
