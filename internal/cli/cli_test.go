package cli_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/toolgate/toolgate/internal/cli"
	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/mcpcli"
	"github.com/toolgate/toolgate/internal/sandboxcmd"
	"github.com/toolgate/toolgate/internal/tuicli"
)

// TestMain lets the scripts run "toolgate" as a real process: testscript
// re-executes this test binary with the command's own main.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"toolgate": func() {
			os.Exit(cli.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
		},
		"escape": escapeMain,
		"toolgate-sandbox": func() {
			err := sandboxcmd.Run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
			os.Exit(clibase.ExitCode(err, os.Stderr))
		},
		// The companion programs toolgate hands tui, mcp-proxy and mcp to.
		"toolgate-tui": func() { os.Exit(tuicli.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"toolgate-mcp": func() { os.Exit(mcpcli.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs testdata/script/*.txtar. Each script gets its own home
// and XDG directories so no user config leaks in.
func TestScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, "home")
			env.Setenv("HOME", home)
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
			env.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
			return os.MkdirAll(home, 0o755)
		},
	})
}
