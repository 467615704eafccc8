package hosts

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/integrations/claudecode"
)

// TestFailClosed runs FailClosed's command line in each POSIX shell the
// hosts use, for a hook at a path with a space and a quote in it: exit 0
// and its answer pass untouched, the hook's own exit 2 keeps its reason
// alone, and exit 1, a hook killed by a signal and a missing binary
// become exit 2 with toolgate's reason.
func TestFailClosed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "it's a dir")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	hook := filepath.Join(dir, "toolgate-hook")
	script := "#!/bin/sh\ncase \"$2\" in\nallow) echo '{\"ok\":1}';;\ndeny) echo 'toolgate: denied' >&2; exit 2;;\nbad) exit 1;;\nkill) kill -9 $$;;\nesac\n"
	if err := os.WriteFile(hook, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	quoted := quote(hook) + " claude-code"
	for _, sh := range []string{"sh", "bash", "zsh"} {
		if _, err := exec.LookPath(sh); err != nil {
			t.Logf("%s: not installed", sh)
			continue
		}
		for _, tc := range []struct {
			cmd, stdout, stderr string
			exit                int
		}{
			{quoted + " allow", "{\"ok\":1}\n", "", 0},
			{quoted + " deny", "", "toolgate: denied\n", 2},
			{quoted + " bad", "", "toolgate: the hook failed (exit status 1), so the call is blocked\n", 2},
			{quoted + " kill", "", "toolgate: the hook failed (exit status 137), so the call is blocked\n", 2},
			{quote(filepath.Join(dir, "gone", "toolgate-hook")) + " claude-code allow", "", "toolgate: the hook failed (exit status 127), so the call is blocked\n", 2},
		} {
			line := FailClosed(tc.cmd)
			if !IsFailClosed(line) || IsFailClosed(tc.cmd) || !IsHookCommand(line) {
				t.Errorf("%s: IsFailClosed/IsHookCommand disagree", line)
			}
			var stdout, stderr bytes.Buffer
			c := exec.Command(sh, "-c", line)
			c.Stdout, c.Stderr = &stdout, &stderr
			err := c.Run()
			exit := 0
			if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
				exit = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			// After a failure the shell may say something first (Killed,
			// not found); the hook's own answers are passed on as they are.
			failed := strings.Contains(tc.stderr, "the hook failed")
			if exit != tc.exit || stdout.String() != tc.stdout || !strings.HasSuffix(stderr.String(), tc.stderr) ||
				!failed && stderr.String() != tc.stderr {
				t.Errorf("%s -c %s: exit %d, stdout %q, stderr %q; want %d, %q, %q", sh, line, exit, stdout.String(), stderr.String(), tc.exit, tc.stdout, tc.stderr)
			}
		}
	}
}

// TestEntriesWrapTheToolEvents: an ExitWrap host's tool events get
// FailClosed's command line and its prompt event the bare one; other
// hosts get the bare one everywhere.
func TestEntriesWrapTheToolEvents(t *testing.T) {
	for _, h := range All() {
		for _, e := range h.Entries("toolgate-hook "+h.Name, "", "", 0, 0) {
			want := "toolgate-hook " + h.Name
			if h.ExitWrap && e.Event != h.PromptEvent {
				want = FailClosed(want)
			}
			if e.Command != want {
				t.Errorf("%s %s: %q, want %q", h.Name, e.Event, e.Command, want)
			}
		}
	}
	// Claude Code's adapter finds the wrapped command as toolgate's.
	if !claudecode.IsToolgateCommand(FailClosed("'/a b/toolgate' hook claude-code --on-ask wait")) {
		t.Error("IsToolgateCommand misses the wrapped command")
	}
}

// TestIsFailClosedLookalikes: a settings line edited to end as
// FailClosed's but to run the call when the hook fails is not taken for
// one (each is shown to exit other than 2 for a hook that exits 1); the
// lines install writes are, whatever the hook's path holds.
func TestIsFailClosedLookalikes(t *testing.T) {
	hook := filepath.Join(t.TempDir(), "toolgate-hook")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, pre := range []string{
		hook + " claude-code || true",
		hook + " claude-code; true",
		hook + " claude-code & wait; true",
		hook + " claude-code || exit 0",
		hook + " claude-code | cat",
		"! " + hook + " claude-code",
		hook + " claude-code\ntrue",
		hook + " claude-code $(exit 0) || exit 0",
		hook + " claude-code `true` || exit 0",
		hook + " claude-code 2>/dev/null || exit 0 #",
		"(" + hook + " claude-code || :)",
	} {
		line := FailClosed(pre)
		if IsFailClosed(line) {
			t.Errorf("IsFailClosed(%q) = true", line)
		}
		err := exec.Command("sh", "-c", line).Run()
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) && ee.ExitCode() == 2 {
			t.Errorf("%q: exit 2; the case shows nothing", line)
		}
	}
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	for _, p := range []string{"/usr/bin/toolgate-hook", "/a b/toolgate-hook", "/it's/toolgate-hook", "/$HOME/`id`/toolgate-hook", "/a\nb;c|d/toolgate-hook"} {
		line := FailClosed(quote(p) + " codex --on-ask " + quote("wait") + " --rules " + quote("/r $x.yaml"))
		if !IsFailClosed(line) {
			t.Errorf("IsFailClosed(%q) = false", line)
		}
	}
	if !IsFailClosed(FailClosed(`toolgate hook gemini --server=http://127.0.0.1:8080`)) {
		t.Error("a bare hook line is not taken for FailClosed's")
	}
}

// TestInstallRefusesPowerShell: on Windows, a host that runs a hook's
// command line with PowerShell (Codex, Gemini CLI) gets no hook: the
// line would not parse there, PowerShell would exit 1, and the host
// would run every call. Nothing is written. The same install on Linux,
// and Claude Code's (bash) on Windows, are written.
func TestInstallRefusesPowerShell(t *testing.T) {
	sum := func([]byte) [32]byte { return [32]byte{} }
	for _, h := range All() {
		if h.Layout == LayoutPlugin {
			continue
		}
		for _, goos := range []string{"windows", "linux"} {
			path := filepath.Join(t.TempDir(), "settings.json")
			_, err := h.Install(TrustEnv{Home: t.TempDir(), SHA256: sum, Program: "/nonexistent", GOOS: goos}, path, h.Entries("toolgate-hook "+h.Name, "", "", 0, 0))
			_, statErr := os.Stat(path)
			refused := goos == "windows" && (h.Name == "codex" || h.Name == "gemini")
			var ie *InstallError
			if refused != h.PowerShellOnWindows && goos == "windows" {
				t.Errorf("%s: PowerShellOnWindows %v", h.Name, h.PowerShellOnWindows)
			}
			if refused && (!errors.As(err, &ie) || statErr == nil) {
				t.Errorf("%s on %s: err %v, file written %v; want an InstallError and no file", h.Name, goos, err, statErr == nil)
			}
			if !refused && statErr != nil {
				t.Errorf("%s on %s: not written (%v)", h.Name, goos, err)
			}
		}
	}
}
