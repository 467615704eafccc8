// Command toolgate-hook is toolgate's agent hook as a lean binary:
//
//	toolgate-hook HOST [hook flags] < hook.json
//
// does what "toolgate hook HOST" does (HOST is claude-code, codex, gemini,
// cursor, copilot or opencode), with the same flags,
// answers and exit codes. The hook runs once per tool call of the agent,
// so its process start is part of every call: this binary links only
// what deciding from local rules needs (package hookcli), not the
// gateway's HTTP server, SQLite, MCP or cgo, and starts about as fast as
// a static hello-world Go binary (docs/BENCHMARKS.md). "toolgate hook
// install" writes it into the agent's settings when it is installed next
// to toolgate.
//
// With a gateway (--server or $TOOLGATE_URL) at an IP address or
// localhost over http:// it decides through it itself, over HTTP/1.1 on a
// socket of its own (internal/hookgate: neither net/http, whose start-up
// would cost every call, nor package net, which brings cgo). An https://
// gateway or a host name needs TLS or a resolver, which it does not link:
// it hands that run, before reading the input, to the toolgate binary
// next to it (else toolgate on PATH); without one that is an undecidable
// call, answered by --on-error (deny by default), never allow.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/toolgate/toolgate/integrations/claudecode"
	"github.com/toolgate/toolgate/integrations/hosts"
	// First of all packages to start: the main goroutine's stack grown
	// once, while it is shallow.
	_ "github.com/toolgate/toolgate/internal/bigstack"
	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/hookcli"
	"github.com/toolgate/toolgate/internal/hookgate"
)

func main() {
	os.Exit(clibase.ExitCode(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr), os.Stderr))
}

const usage = "usage: toolgate-hook HOST [flags] < hook.json (HOST: %s)"

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return clibase.UsageErrorf(usage, strings.Join(hosts.Names(), ", "))
	}
	host, err := hosts.Lookup(args[0])
	if err != nil {
		return clibase.UsageErrorf("unknown hook %q; "+usage, args[0], strings.Join(hosts.Names(), ", "))
	}
	handoff := hookcli.Handoff{
		Gateway: func(url string, hf *hookcli.HookFlags, host *hosts.Host, _ time.Duration) claudecode.Decider {
			g, err := hookgate.New(url, os.Getenv("TOOLGATE_TOKEN"), "hook")
			if errors.Is(err, hookgate.ErrHandOff) {
				// https or a host name needs TLS or a resolver, which
				// this binary does not link: toolgate decides it. Only
				// returns when toolgate cannot be run.
				return hookcli.FailingDecider{Err: execToolgate(append([]string{"hook"}, args...))}
			}
			if err != nil {
				return hookcli.FailingDecider{Err: fmt.Errorf("--server: %w", err)}
			}
			return hookcli.RemoteDecider(g, hf, host)
		},
	}
	return hookcli.RunHookAgent(ctx, host, handoff, args[1:], stdin, stdout, stderr)
}

// execToolgate replaces this process with "toolgate ARGS…": the binary
// next to this one, else toolgate on PATH. It returns only on failure.
func execToolgate(args []string) error {
	bin, err := findToolgate()
	if err != nil {
		return fmt.Errorf("deciding through a gateway needs the toolgate binary: %w", err)
	}
	err = syscall.Exec(bin, append([]string{bin}, args...), os.Environ())
	return fmt.Errorf("run %s for the gateway: %w", bin, err)
}

// findToolgate is the toolgate binary installed with this one.
func findToolgate() (string, error) {
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), "toolgate")
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	p, err := exec.LookPath("toolgate")
	if err != nil {
		return "", errors.New("not next to toolgate-hook, and not on PATH")
	}
	return filepath.Abs(p)
}
