package mcpcli

import (
	"context"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/sandboxcmd"
)

// TestMain puts toolgate-sandbox on PATH (mcp-proxy --sandbox runs it),
// and removes the test MCP server the tests built to share.
func TestMain(m *testing.M) {
	testscript.Main(removingM{m}, map[string]func(){
		"toolgate-sandbox": func() {
			err := sandboxcmd.Run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
			os.Exit(clibase.ExitCode(err, os.Stderr))
		},
	})
}

// removingM runs the tests, then removes what they built to share.
type removingM struct{ *testing.M }

func (m removingM) Run() int {
	defer removeMCPTestServer()
	return m.M.Run()
}
