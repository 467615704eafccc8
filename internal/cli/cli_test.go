package cli_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/toolgate/toolgate/internal/cli"
	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/sandboxcmd"
)

// TestMain lets the scripts run "toolgate" as a real process: testscript
// re-executes this test binary with the command's own main.
func TestMain(m *testing.M) {
	testscript.Main(removingM{m}, map[string]func(){
		"toolgate": func() {
			os.Exit(cli.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
		},
		"escape": escapeMain,
		"toolgate-sandbox": func() {
			err := sandboxcmd.Run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
			os.Exit(clibase.ExitCode(err, os.Stderr))
		},
	})
}

// removingM runs the tests, then removes what they built to share.
type removingM struct{ *testing.M }

func (m removingM) Run() int {
	defer cli.RemoveMCPTestServer()
	return m.M.Run()
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
