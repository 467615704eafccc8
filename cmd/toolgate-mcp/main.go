// Command toolgate-mcp is toolgate's MCP commands as a program of their
// own:
//
//	toolgate-mcp mcp-proxy [flags] -- COMMAND [ARGS…]
//	toolgate-mcp mcp pin|pins [flags]
//
// The toolgate program hands "toolgate mcp-proxy" and "toolgate mcp" over
// to it, found beside toolgate or on PATH: the MCP SDK stays out of every
// other toolgate command's start (package mcpcli).
package main

import (
	"context"
	"os"

	"github.com/toolgate/toolgate/internal/mcpcli"
)

func main() {
	os.Exit(mcpcli.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
