package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/integrations/claudecode"
	"github.com/toolgate/toolgate/internal/clicore"
)

// runHook runs "toolgate hook claude-code|codex" (the agent hook) and
// "toolgate hook install claude-code" (writes it into a settings file).
func runHook(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	const usage = "usage: toolgate hook claude-code|codex [flags] < hook.json, or toolgate hook install claude-code [--user|--project|--local] [--print]"
	if len(args) == 0 {
		return usageErrorf("%s", usage)
	}
	switch args[0] {
	case "claude-code":
		return clicore.RunHookAgent(ctx, "claude-code", claudecode.DialectAuto, clicore.Handoff{Gateway: gatewayDecider}, args[1:], stdin, stdout, stderr)
	case "codex":
		return clicore.RunHookAgent(ctx, "codex", claudecode.DialectCodex, clicore.Handoff{Gateway: gatewayDecider}, args[1:], stdin, stdout, stderr)
	case "install":
		if len(args) < 2 || args[1] != "claude-code" {
			return usageErrorf("usage: toolgate hook install claude-code [--user|--project|--local] [--print] [hook flags]")
		}
		return runHookInstall(args[2:], stdout, stderr)
	}
	return usageErrorf("unknown hook %q; %s", args[0], usage)
}

// hookTimeoutSlack is the seconds the agent's timeout adds to ours.
const hookTimeoutSlack = 30

// gatewayDecider decides the hook's calls through the gateway at url,
// over its HTTP API.
func gatewayDecider(url string, hf *clicore.HookFlags, dialect claudecode.Dialect, deadline time.Duration) claudecode.Decider {
	remote := &claudecode.Remote{OnAsk: claudecode.AskMode(hf.OnAsk), Wait: hf.Wait}
	if remote.OnAsk == "" {
		remote.OnAsk = claudecode.AskPrompt
		if dialect == claudecode.DialectCodex {
			remote.OnAsk = claudecode.AskWait
		}
	}
	c, err := client.New(url, os.Getenv("TOOLGATE_TOKEN"), client.WithVia("hook"),
		client.WithHTTPClient(&http.Client{Timeout: deadline}))
	if err != nil {
		return clicore.FailingDecider{Err: fmt.Errorf("--server: %w", err)}
	}
	remote.Gate = c
	return remote
}

// runHookInstall writes the hook into a Claude Code settings file, merging
// with what is there.
func runHookInstall(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("hook install claude-code", stderr)
	var hf clicore.HookFlags
	hf.Register(fs)
	user := fs.Bool("user", false, "install in ~/.claude/settings.json, for every project (the default)")
	project := fs.Bool("project", false, "install in .claude/settings.json of the project, shared with the team (the command is 'toolgate' from PATH)")
	local := fs.Bool("local", false, "install in .claude/settings.local.json of the project, this checkout only")
	dir := fs.String("dir", "", "project `D`irectory for --project and --local (default: the current directory)")
	printOnly := fs.Bool("print", false, "print the settings file as it would be, and write nothing")
	command := fs.String("command", "", "the toolgate `CMD` the hook runs as CMD hook claude-code (default: toolgate-hook next to this executable if there is one, run as toolgate-hook claude-code, else this executable; 'toolgate' with --project)")
	event := fs.String("event", claudecode.EventPreToolUse, "hook `EVENT`: PreToolUse (every call) or PermissionRequest (only calls Claude Code would ask about); UserPromptSubmit is always added")
	matcher := fs.String("matcher", "*", "which tools the hook sees (Claude Code matcher)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: toolgate hook install claude-code [--user|--project|--local] [--print] [hook flags]")
		fmt.Fprintln(stderr, "Adds 'toolgate hook claude-code' to a Claude Code settings file, on the tool event and on")
		fmt.Fprintln(stderr, "UserPromptSubmit (which ends the session's turn at a gateway), keeping every other key")
		fmt.Fprintln(stderr, "and hook. Running it again updates toolgate's entries instead of adding some. Hook flags")
		fmt.Fprintln(stderr, "(--server, --on-ask, --wait, --on-error, --config, --rules, --workspace, …) are passed")
		fmt.Fprintln(stderr, "on to the hook command; the token is not: set TOOLGATE_TOKEN in the agent's environment.")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("hook install takes no arguments, got %q", fs.Arg(0))
	}
	if err := hf.Check(); err != nil {
		return err
	}
	scope, n := claudecode.ScopeUser, 0
	for _, s := range []struct {
		set   bool
		scope string
	}{{*user, claudecode.ScopeUser}, {*project, claudecode.ScopeProject}, {*local, claudecode.ScopeLocal}} {
		if s.set {
			scope, n = s.scope, n+1
		}
	}
	if n > 1 {
		return usageErrorf("give one of --user, --project and --local")
	}
	projectDir := *dir
	if projectDir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return fmt.Errorf("current directory: %w", err)
		}
		projectDir = wd
	}
	home, _ := os.UserHomeDir()
	path, err := claudecode.SettingsPath(scope, projectDir, home)
	if err != nil {
		return badInput(err)
	}

	exe, prefix := *command, []string{"hook", "claude-code"}
	if exe == "" {
		exe = "toolgate"
		if scope != claudecode.ScopeProject {
			if p, err := os.Executable(); err == nil {
				exe = p
			}
			// The lean hook binary installed next to toolgate starts in a
			// fraction of the time; with --server it would only hand the
			// run to toolgate, so then toolgate runs it directly.
			if lean := leanHook(exe); lean != "" && hf.Server == "" {
				exe, prefix = lean, []string{"claude-code"}
			}
		}
	}
	cmdline, err := commandLine(&hf, fs, exe, prefix)
	if err != nil {
		return err
	}
	if *event == claudecode.EventUserPromptSubmit {
		return usageErrorf("--event %s: the hook is always installed on UserPromptSubmit too; give the tool event (PreToolUse or PermissionRequest)", *event)
	}
	timeout := hf.Timeout
	if hf.OnAsk == string(claudecode.AskWait) {
		timeout += hf.Wait
	}
	entry := claudecode.HookEntry{
		Event: *event, Matcher: *matcher, Command: cmdline,
		Timeout: int(math.Ceil(timeout.Seconds())) + hookTimeoutSlack,
	}
	// The same command on UserPromptSubmit ends the session's turn at the
	// gateway when the user speaks again, which clears a hard deny's stop;
	// it never holds a call, so its timeout leaves out --wait.
	prompt := claudecode.HookEntry{
		Event: claudecode.EventUserPromptSubmit, Command: cmdline,
		Timeout: int(math.Ceil(hf.Timeout.Seconds())) + hookTimeoutSlack,
	}
	out, err := claudecode.ReadSettings(path)
	if err != nil {
		return err
	}
	changed := false
	for _, e := range []claudecode.HookEntry{entry, prompt} {
		var c bool
		out, c, err = claudecode.MergeSettings(out, e)
		if err != nil {
			return badInput(fmt.Errorf("%s: %w", path, err))
		}
		changed = changed || c
	}
	if *printOnly {
		if _, err := stdout.Write(out); err != nil {
			return err
		}
		reportClaudePermissions(stderr, &hf, projectDir, home)
		return nil
	}
	if !changed {
		fmt.Fprintf(stdout, "toolgate hook already installed in %s\n", path)
	} else {
		if err := claudecode.WriteSettings(path, out); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "toolgate hook installed in %s (%s, matcher %q; and %s): %s\n", path, entry.Event, entry.Matcher, prompt.Event, cmdline)
	}
	reportClaudePermissions(stdout, &hf, projectDir, home)
	return nil
}

// reportClaudePermissions says which of Claude Code's own permission
// files the installed hook will honour (deciding locally), as found for
// projectDir now: the hook reads them again for each call's project.
func reportClaudePermissions(w io.Writer, hf *clicore.HookFlags, projectDir, home string) {
	if hf.GatewayURL() != "" {
		fmt.Fprintln(w, "The gateway decides (its rules, grants and modes); Claude Code's own permission files are not layered into its decisions.")
		return
	}
	if !hf.AgentPerms {
		fmt.Fprintln(w, "Claude Code's own permissions are left out of the hook's decisions (--agent-permissions=false).")
		return
	}
	p, err := claudecode.LoadPermissions(claudecode.PermissionFiles(projectDir, home, claudecode.ManagedSettingsPath()))
	if err != nil {
		fmt.Fprintf(w, "warning: %v\nUntil it is fixed the hook cannot decide, and answers every call by --on-error (%s).\n", err, hf.OnError)
		return
	}
	if len(p.Found) == 0 {
		fmt.Fprintf(w, "No Claude Code permissions found (managed, ~/.claude/settings.json, %s/.claude/settings*.json); the hook decides by toolgate's rules.\n", projectDir)
		return
	}
	fmt.Fprintln(w, "The hook honours Claude Code's own permissions (deny wins; turn off with --agent-permissions=false):")
	for _, f := range p.Found {
		fmt.Fprintf(w, "  %-8s %s: %d allow, %d ask, %d deny\n", f.Scope, f.Path, f.Allow, f.Ask, f.Deny)
	}
	fmt.Fprintln(w, "Project and local settings are read for each session's own project.")
}

// commandLine is the hook command with the hook flags given to install,
// quoted for the shell the agent runs it with. Paths are made absolute:
// the agent runs the hook from wherever it is.
func commandLine(h *clicore.HookFlags, fs *flag.FlagSet, exe string, prefix []string) (string, error) {
	parts := append([]string{shellQuote(exe)}, prefix...)
	var err error
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "user", "project", "local", "dir", "print", "command", "event", "matcher":
			return
		}
		if f.Name == "rules" {
			for _, r := range h.Rules.Rules {
				parts = append(parts, "--rules", shellQuote(absPath(r)))
			}
			return
		}
		v := f.Value.String()
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			parts = append(parts, "--"+f.Name+"="+v)
			return
		}
		switch f.Name {
		case "config", "agent-rules":
			v = absPath(v)
		case "server":
			if _, cerr := client.New(v, ""); cerr != nil {
				err = badInput(fmt.Errorf("--server: %w", cerr))
			}
		}
		parts = append(parts, "--"+f.Name, shellQuote(v))
	})
	return strings.Join(parts, " "), err
}

// leanHook is the toolgate-hook binary next to the toolgate binary exe
// (go install ./cmd/... puts them together), or "".
func leanHook(exe string) string {
	p := filepath.Join(filepath.Dir(exe), "toolgate-hook")
	if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() || fi.Mode()&0o111 == 0 {
		return ""
	}
	return p
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@%+,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
