package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/toolgate/toolgate/internal/cli"
	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/depstest"
)

// hookEnv isolates a hook run from the user's config and gateway.
func hookEnv(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
	t.Setenv("TOOLGATE_URL", "")
	t.Setenv("TOOLGATE_TOKEN", "")
	t.Setenv("TOOLGATE_WORKSPACE", "")
	t.Setenv("CLAUDE_PROJECT_DIR", "/home/dev/shop")
}

// TestSameAnswers runs every recorded hook input through toolgate-hook
// and through "toolgate hook": the answers, messages and exit codes must
// be the same, byte for byte.
func TestSameAnswers(t *testing.T) {
	hookEnv(t)
	dir := t.TempDir()
	rules := filepath.Join(dir, "rules.yaml")
	if err := os.WriteFile(rules, []byte("rules:\n  - Bash(git log *)\n  - Bash(grep *)\n  - Read(/home/dev/**)\n  - deny: Bash(rm *)\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	inputs, err := filepath.Glob(filepath.Join("..", "..", "integrations", "claudecode", "testdata", "inputs", "*.json"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no recorded inputs: %v", err)
	}
	extra := map[string]string{"empty": "", "not json": "{", "stop event": `{"hook_event_name":"Stop"}`}
	type input struct{ name, data string }
	var all []input
	for _, p := range inputs {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, input{filepath.Base(p), string(data)})
	}
	for name, data := range extra {
		all = append(all, input{name, data})
	}
	seen := map[string]int{}
	flagSets := [][]string{nil, {"--rules", rules}, {"--rules", rules, "--on-error", "ask", "--mode", "plan"}, {"--rules", "/no/such/rules.yaml"}}
	for _, a := range all {
		for _, hook := range []string{"claude-code", "codex"} {
			for _, flags := range flagSets {
				args := append([]string{hook}, flags...)
				var lo, le, fo, fe bytes.Buffer
				lcode := clibase.ExitCode(run(context.Background(), args, strings.NewReader(a.data), &lo, &le), &le)
				fcode := cli.Main(context.Background(), append([]string{"hook"}, args...), strings.NewReader(a.data), &fo, &fe)
				if lcode != fcode || lo.String() != fo.String() || le.String() != fe.String() {
					t.Errorf("%s %v: toolgate-hook exit %d %q %q; toolgate hook exit %d %q %q",
						a.name, args, lcode, lo.String(), le.String(), fcode, fo.String(), fe.String())
				}
				for _, d := range []string{"allow", "deny", "ask"} {
					if strings.Contains(lo.String(), `"permissionDecision":"`+d+`"`) {
						seen[d]++
					}
				}
				if lcode != 0 {
					seen["exit"]++
				}
			}
		}
	}
	for _, k := range []string{"allow", "deny", "ask", "exit"} {
		if seen[k] == 0 {
			t.Errorf("no run answered %s: the comparison does not cover it (%v)", k, seen)
		}
	}
}

// TestUsage: what toolgate-hook does not answer is a usage error (exit 2),
// which the agents read as a block.
func TestUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"install", "claude-code"}, {"claude-code", "extra"}, {"claude-code", "--on-error", "allow"}} {
		var out, errb bytes.Buffer
		if code := clibase.ExitCode(run(context.Background(), args, strings.NewReader("{}"), &out, &errb), &errb); code != clibase.ExitUsage || out.Len() != 0 {
			t.Errorf("%q: exit %d, stdout %q, want exit %d and no answer", args, code, out.String(), clibase.ExitUsage)
		}
	}
}

// TestLeanDeps keeps the hook binary lean: none of the packages whose
// start-up the hook would pay on every call, and no cgo (which makes the
// binary dynamically linked, with the loader to run first).
func TestLeanDeps(t *testing.T) {
	// A gateway is asked over internal/hookgate's own socket: package net
	// would bring cgo (its resolver) and net/http its start-up.
	depstest.Forbid(t, goEnv, "runtime/cgo", "net", "net/http", "crypto/tls", "os/user", "encoding/gob",
		"modernc.org/sqlite", "modernc.org/libc", "github.com/google/jsonschema-go/jsonschema",
		"github.com/modelcontextprotocol/go-sdk/mcp", "github.com/toolgate/toolgate/internal/cli",
		"github.com/toolgate/toolgate/client", "github.com/toolgate/toolgate/server",
		"github.com/toolgate/toolgate/approval", "log/slog",
		// net/url starts net/netip and unique (interned zones) in every process.
		"net/url",
		// crypto/sha256 runs the FIPS module's seven package initialisers;
		// the call digest and audit chain live in package digest for this.
		"crypto/sha256", "github.com/toolgate/toolgate/digest")
}

// goEnv is the environment the tests started with, for the go command:
// hookEnv moves HOME and XDG_CONFIG_HOME, and with them the go command's
// build cache, module cache and settings, so a build under hookEnv would
// start from nothing (minutes on two cores) and might need the network.
var goEnv []string

func buildHookIn(t *testing.T, dir string) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
	bin := filepath.Join(dir, "toolgate-hook")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Env = goEnv
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// sharedHook is a toolgate-hook binary built once for the tests that only
// run it (a build takes ~10 s on two cores); TestMain removes it.
var sharedHook struct {
	sync.Mutex
	dir, bin string
}

func sharedHookBin(t *testing.T) string {
	t.Helper()
	sharedHook.Lock()
	defer sharedHook.Unlock()
	if sharedHook.bin == "" {
		dir, err := os.MkdirTemp("", "toolgate-hook-test")
		if err != nil {
			t.Fatal(err)
		}
		sharedHook.dir = dir
		sharedHook.bin = buildHookIn(t, dir)
	}
	return sharedHook.bin
}

func TestMain(m *testing.M) {
	goEnv = os.Environ()
	// The agents' own homes, which install reads: a test names them in
	// the agent's environment (its scenarios run in parallel, so none
	// sets them in the process's), and the user's must not leak into an
	// install.
	for _, v := range []string{"CODEX_HOME", "COPILOT_HOME"} {
		if err := os.Unsetenv(v); err != nil {
			panic(err)
		}
	}
	code := m.Run()
	if sharedHook.dir != "" {
		os.RemoveAll(sharedHook.dir)
	}
	os.Exit(code)
}

// TestHandsOff: with an https:// gateway (TLS is not linked) the run goes
// to the toolgate binary next to toolgate-hook, with the same arguments
// and the unread input; with no toolgate to run, the call is denied
// (never allowed), naming why. An http:// gateway, and without a gateway
// every config, YAML anchors and aliases included, are decided here.
func TestHandsOff(t *testing.T) {
	hookEnv(t)
	dir := t.TempDir()
	// A copy of its own: a stand-in toolgate goes next to it.
	src, err := os.ReadFile(sharedHookBin(t))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "toolgate-hook")
	if err := os.WriteFile(bin, src, 0o755); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "plain.yaml")
	full := filepath.Join(dir, "full.yml")
	if err := os.WriteFile(plain, []byte("rules:\n  - Bash(ls *)\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte("agents:\n  explore: &ro\n    Bash: deny\n  plan: *ro\nrules:\n  - Bash(ls *)\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	input := `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`
	run := func(args []string, env ...string) (string, string, error) {
		cmd := exec.Command(bin, append([]string{"claude-code"}, args...)...)
		cmd.Env = append(os.Environ(), env...)
		cmd.Stdin = strings.NewReader(input)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		return out.String(), errb.String(), err
	}
	gateway := []string{"--on-error", "deny", "--timeout", "3s"}

	// No toolgate beside it nor on PATH: denied with the reason.
	out, errs, err := run(gateway, "TOOLGATE_URL=https://127.0.0.1:1", "PATH="+t.TempDir())
	if err != nil || !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(out, "needs the toolgate binary") {
		t.Errorf("gateway, no toolgate: %v, stdout %q, stderr %q; want a deny naming the missing binary", err, out, errs)
	}

	// A stand-in toolgate next to it prints what it was given.
	fake := filepath.Join(filepath.Dir(bin), "toolgate")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho \"args: $*\"\necho \"url: $TOOLGATE_URL\"\ncat\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, errs, err = run(gateway, "TOOLGATE_URL=https://127.0.0.1:1")
	want := "args: hook claude-code --on-error deny --timeout 3s\nurl: https://127.0.0.1:1\n" + input
	if err != nil || out != want {
		t.Errorf("gateway handed off: %v, stdout %q (stderr %q), want %q", err, out, errs, want)
	}
	// An http:// gateway is asked here: one that is down is a deny
	// naming it, and the stand-in is not run.
	out, errs, err = run(gateway, "TOOLGATE_URL=http://127.0.0.1:1")
	if err != nil || !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(out, "gateway 127.0.0.1:1 unreachable") || strings.Contains(out, "args:") {
		t.Errorf("http gateway down: %v, stdout %q, stderr %q; want a deny decided here", err, out, errs)
	}

	// Without a gateway it decides itself: the stand-in is not run.
	out, errs, err = run(nil, "TOOLGATE_URL=")
	if err != nil || !strings.Contains(out, `"hookEventName":"PreToolUse"`) || strings.Contains(out, "args:") {
		t.Errorf("local: %v, stdout %q, stderr %q", err, out, errs)
	}
	for _, rules := range []string{plain, full} {
		out, errs, err = run([]string{"--rules", rules}, "TOOLGATE_URL=")
		if err != nil || !strings.Contains(out, `"permissionDecision":"allow"`) || strings.Contains(out, "args:") {
			t.Errorf("%s: %v, stdout %q, stderr %q; want an allow decided here", filepath.Base(rules), err, out, errs)
		}
	}
}

// benchInput and benchRules are bench/run's hook call: a pipeline of three
// commands that three rules allow.
const (
	benchInput = `{"session_id":"bench","transcript_path":"/dev/null","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git log --oneline | grep fix | head -5"}}`
	benchRules = "rules:\n  - Bash(git log *)\n  - Bash(grep *)\n  - Bash(head *)\n"
)

// TestCallBudget bounds what one hook call allocates once the process's
// lazily built tables exist: loading the rules, compiling the engine and
// deciding are most of the hook's work past start-up, and each byte of
// fresh heap is a page the process faults in (docs/BENCHMARKS.md, "Hook
// start-up"). Measured 2026-11-27: 590 objects,
// 92 KB. A change that needs more should say so in BENCHMARKS.md and
// raise the budget with it.
func TestCallBudget(t *testing.T) {
	hookEnv(t)
	rules := filepath.Join(t.TempDir(), "rules.yaml")
	if err := os.WriteFile(rules, []byte(benchRules), 0o600); err != nil {
		t.Fatal(err)
	}
	call := func() {
		var out, errb bytes.Buffer
		err := run(context.Background(), []string{"claude-code", "--rules", rules}, strings.NewReader(benchInput), &out, &errb)
		if err != nil || !strings.Contains(out.String(), `"permissionDecision":"allow"`) {
			t.Fatalf("hook call: %v, stdout %q, stderr %q; want allow", err, out.String(), errb.String())
		}
	}
	call() // the lazily built tables
	const maxObjects, maxBytes = 740, 115 << 10
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	call()
	runtime.ReadMemStats(&after)
	objects, size := after.Mallocs-before.Mallocs, after.TotalAlloc-before.TotalAlloc
	t.Logf("one hook call: %d objects, %d bytes", objects, size)
	if objects > maxObjects || size > maxBytes {
		t.Errorf("one hook call allocates %d objects, %d bytes; budget %d, %d", objects, size, maxObjects, maxBytes)
	}
}

// TestInitBudget bounds what the hook binary's package initialisation
// allocates, its own packages and the libraries it links alike
// (GODEBUG=inittrace=1): a table built at start-up or a regexp compiled
// in a var is paid by every tool call of the agent.
func TestInitBudget(t *testing.T) {
	hookEnv(t)
	bin := sharedHookBin(t)
	cmd := exec.Command(bin, "claude-code")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	cmd.Stdin = strings.NewReader("")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	_ = cmd.Run() // no input: a blocked call, after every package started
	var size, allocs, pkgs int
	order := map[string]int{} // package → when it started
	for _, line := range strings.Split(errb.String(), "\n") {
		// init PKG @T ms, C ms clock, B bytes, A allocs
		f := strings.Fields(line)
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," || f[10] != "allocs" {
			continue
		}
		order[f[1]] = len(order)
		b, err1 := strconv.Atoi(f[7])
		a, err2 := strconv.Atoi(f[9])
		if err1 != nil || err2 != nil {
			t.Fatalf("unreadable inittrace line %q", line)
		}
		size, allocs, pkgs = size+b, allocs+a, pkgs+1
	}
	if pkgs < 10 {
		t.Fatalf("inittrace listed %d packages; stderr:\n%s", pkgs, errb.String())
	}
	t.Logf("package initialisation: %d packages, %d bytes, %d allocations", pkgs, size, allocs)
	// bigstack grows the main goroutine's stack while it is shallow: it
	// must start before the packages whose start-up or use grows it.
	const bigstack = "github.com/toolgate/toolgate/internal/bigstack"
	at, ok := order[bigstack]
	if !ok {
		t.Errorf("%s is not initialised in the hook binary", bigstack)
	}
	for _, later := range []string{"os", "unicode", "mvdan.cc/sh/v3/syntax", "github.com/toolgate/toolgate/shell"} {
		if o, ok := order[later]; ok && o < at {
			t.Errorf("%s starts before %s", later, bigstack)
		}
	}
	if o, ok := order["internal/godebug"]; ok && o < order[bigstack] {
		t.Errorf("internal/godebug starts before %s: the stack then grows as before", bigstack)
	}
	// 2026-11-28: 58,296 bytes in 438 allocations, most of them
	// yaml.v3's, mvdan.cc/sh's fileutil regexps and unicode's tables.
	const maxBytes, maxAllocs = 72 << 10, 540
	if size > maxBytes || allocs > maxAllocs {
		t.Errorf("package initialisation allocates %d bytes in %d allocations; budget %d, %d (GODEBUG=inittrace=1 names the packages)", size, allocs, maxBytes, maxAllocs)
	}
}
