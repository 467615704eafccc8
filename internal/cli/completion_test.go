package cli_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/cli"
)

func completionScript(t *testing.T, shell string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if err := cli.Run(context.Background(), []string{"completion", shell}, strings.NewReader(""), &out, &errb); err != nil {
		t.Fatalf("completion %s: %v %s", shell, err, errb.String())
	}
	path := filepath.Join(t.TempDir(), "toolgate."+shell)
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func shellOrSkip(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed: its completion script is not tried (.ci/run installs it)", name)
	}
	return p
}

// The completion scripts complete commands and subcommands in the real
// shells, from the same tables the commands dispatch on.
func TestCompletionBash(t *testing.T) {
	t.Parallel()
	bash := shellOrSkip(t, "bash")
	script := completionScript(t, "bash")
	for _, c := range []struct{ words, want string }{
		{"toolgate appr", "approvals"},
		{"toolgate approvals ap", "approve"},
		{"toolgate grants a", "add"},
		{"toolgate rules v", "validate"},
		{"toolgate compl", "completion"},
	} {
		words := strings.Fields(c.words)
		prog := `source "$1"; COMP_WORDS=(` + c.words + `); COMP_CWORD=` + string(rune('0'+len(words)-1)) + `; _toolgate; echo "${COMPREPLY[@]}"`
		out, err := exec.Command(bash, "-c", prog, "bash", script).CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != c.want {
			t.Errorf("bash completes %q to %q (%v), want %q", c.words, out, err, c.want)
		}
	}
}

func TestCompletionFish(t *testing.T) {
	t.Parallel()
	fish := shellOrSkip(t, "fish")
	script := completionScript(t, "fish")
	for _, c := range []struct{ line, want string }{
		{"toolgate appr", "approvals\t"},
		{"toolgate sessions turn", "turn-end\t"},
		{"toolgate devices re", "revoke\t"},
	} {
		out, err := exec.Command(fish, "--no-config", "-c", `source $argv[1]; complete -C "`+c.line+`"`, script).CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), c.want) {
			t.Errorf("fish completes %q to %q (%v), want %q…", c.line, out, err, c.want)
		}
	}
}

func TestCompletionZsh(t *testing.T) {
	t.Parallel()
	zsh := shellOrSkip(t, "zsh")
	script := completionScript(t, "zsh")
	// Driving zsh's completion system needs a terminal; the script is
	// checked for syntax, and for carrying every command.
	if out, err := exec.Command(zsh, "-n", script).CombinedOutput(); err != nil {
		t.Fatalf("zsh -n: %v %s", err, out)
	}
	data, _ := os.ReadFile(script)
	for _, want := range []string{"'approvals:", "'tui:", "approvals) subs=('approve:"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("zsh script lacks %s", want)
		}
	}
}
