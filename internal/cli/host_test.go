package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate/internal/clibase"
)

// TestRunHost runs toolgate host with local rules against the seed 000
// test engine (a real child process).
func TestRunHost(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "testengine")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "../../integrations/enginehost/internal/testengine").CombinedOutput(); err != nil {
		t.Fatalf("build testengine: %v\n%s", err, out)
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
	t.Setenv("TOOLGATE_URL", "")

	run := func(stdin string, args ...string) (string, string, error) {
		var stdout, stderr bytes.Buffer
		err := runHost(context.Background(), args, strings.NewReader(stdin), &stdout, &stderr)
		return stdout.String(), stderr.String(), err
	}
	// session runs the host with stdin open until every result arrived.
	session := func(lines string, results int, args ...string) (string, error) {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		errc := make(chan error, 1)
		go func() {
			errc <- runHost(context.Background(), args, inR, outW, io.Discard)
			outW.Close()
		}()
		go io.WriteString(inW, lines)
		var out strings.Builder
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for n := 0; n < results && sc.Scan(); {
			out.WriteString(sc.Text() + "\n")
			if strings.Contains(sc.Text(), `"test_result"`) {
				n++
			}
		}
		// The end of stdin does not end the engine (the host keeps
		// answering it): tell the engine to exit.
		io.WriteString(inW, `{"type":"test_exit","code":0}`+"\n")
		inW.Close()
		go io.Copy(io.Discard, outR)
		return out.String(), <-errc
	}

	// The default rules allow the read and ask about the command: without
	// a gateway the command is denied, saying why. The engine exits 0, and
	// so does the host.
	out, err := session(`{"type":"test_call","call_id":"r1","tool":{"name":"Read","category":"info","args":{"file_path":"README.md"}}}
{"type":"test_call","call_id":"b1","tool":{"name":"Bash","category":"exec","args":{"command":"cargo test --lib"}}}
`, 2, "--", bin)
	if err != nil {
		t.Fatalf("host: %v", err)
	}
	for _, want := range []string{`"type":"ready"`, `"call_id":"r1","approved":true`, `"call_id":"b1","approved":false`, "no gateway to ask"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %s:\n%s", want, out)
		}
	}

	// --force: seed 000's Force approves every category with no prompts,
	// over the built-in defaults (their catch-all, and their ask for
	// shell_exec); the defaults that protect secrets still deny.
	out, err = session(`{"type":"test_call","call_id":"s1","tool":{"name":"Spawn","category":"exec","args":{"agent":"reviewer"}}}
{"type":"test_call","call_id":"b1","tool":{"name":"Bash","category":"exec","args":{"command":"cargo test --lib"}}}
{"type":"test_call","call_id":"k1","tool":{"name":"Read","category":"info","args":{"file_path":"/root/.ssh/id_rsa"}}}
`, 3, "--force", "--", bin)
	if err != nil || !strings.Contains(out, `"call_id":"s1","approved":true`) || !strings.Contains(out, `"call_id":"b1","approved":true`) || !strings.Contains(out, `"call_id":"k1","approved":false`) {
		t.Fatalf("--force: %v\n%s", err, out)
	}

	// The engine's exit code is the host's.
	_, _, err = run(`{"type":"test_exit","code":4}`+"\n", "--", bin)
	var silent clibase.ErrSilent
	if !errors.As(err, &silent) || int(silent) != 4 {
		t.Fatalf("exit code: %v", err)
	}

	// Bad input exits 2.
	for _, args := range [][]string{
		{},
		{"--force", "--mode", "default", "--", bin},
		{"--mode", "sideways", "--", bin},
		{"--server", "http://127.0.0.1:1", "--rules", "x.jsonc", "--", bin},
		{"--ttl", "1m", "--", bin},
	} {
		_, _, err := run("", args...)
		var ee *clibase.ExitError
		if !errors.As(err, &ee) || ee.Code != clibase.ExitUsage {
			t.Errorf("%q: %v", args, err)
		}
	}
	// A gateway that cannot be reached refuses --force before the engine
	// starts.
	if _, _, err := run("", "--server", "http://127.0.0.1:1", "--force", "--", bin); err == nil || !strings.Contains(err.Error(), "set mode") {
		t.Errorf("--force with an unreachable gateway: %v", err)
	}
}
