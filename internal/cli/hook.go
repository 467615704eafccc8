package cli

import (
	"context"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/integrations/claudecode"
	"github.com/toolgate/toolgate/integrations/hosts"
	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/hookcli"
)

// runHook runs "toolgate hook HOST" (the agent hook), "toolgate hook
// install HOST" (writes it into the host's settings) and "toolgate hook
// uninstall HOST" (takes it out).
func runHook(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	usage := "usage: toolgate hook HOST [flags] < hook.json, toolgate hook install HOST [flags], or toolgate hook uninstall HOST; HOST is " + strings.Join(hosts.Names(), ", ")
	if len(args) == 0 {
		return clibase.UsageErrorf("%s", usage)
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		hookHelp(stdout)
		return nil
	case "install", "uninstall":
		if len(args) < 2 || strings.HasPrefix(args[1], "-") {
			if len(args) >= 2 && (args[1] == "-h" || args[1] == "-help" || args[1] == "--help") {
				hookHelp(stdout)
				return nil
			}
			return clibase.UsageErrorf("usage: toolgate hook %s HOST [flags]; HOST is %s", args[0], strings.Join(hosts.Names(), ", "))
		}
		host, err := hosts.Lookup(args[1])
		if err != nil {
			return clibase.UsageErrorf("hook %s: %v", args[0], err)
		}
		if args[0] == "uninstall" {
			return runHookUninstall(host, args[2:], stdout, stderr)
		}
		return runHookInstall(host, args[2:], stdout, stderr)
	}
	host, err := hosts.Lookup(args[0])
	if err != nil {
		return clibase.UsageErrorf("unknown hook %q; %s", args[0], usage)
	}
	return hookcli.RunHookAgent(ctx, host, hookcli.Handoff{Gateway: gatewayDecider}, args[1:], stdin, stdout, stderr)
}

// hookHelp is "toolgate hook -h": the hosts, their events and files, and
// the commands.
func hookHelp(w io.Writer) {
	fmt.Fprint(w, `Usage:
  toolgate hook HOST [flags] < hook.json     answer one hook call (the agent runs this)
  toolgate hook install HOST [flags]         write the hook into the agent's settings
  toolgate hook uninstall HOST [flags]       take it out again
  toolgate doctor                            check every installed hook, the gateway and the rules

Install the binaries first, so the hook the agent runs exists later:
  go install ./cmd/toolgate ./cmd/toolgate-hook
(a 'go run' build lives in a temporary directory, and install refuses it).

Hosts:
`)
	for _, h := range hosts.All() {
		var files []string
		for _, s := range h.Scopes {
			files = append(files, "--"+s.Name+": "+s.Help)
		}
		fmt.Fprintf(w, "  %-12s %s: %s\n", h.Name, h.Title, h.Events)
		for _, f := range files {
			fmt.Fprintf(w, "  %-12s   %s\n", "", f)
		}
	}
	fmt.Fprint(w, `
The hook decides locally from rules (default) or through a gateway (--server or
$TOOLGATE_URL; token from $TOOLGATE_TOKEN). It never answers allow for what it cannot
decide: bad input, an unknown event that carries a tool call, broken rules or a gateway
that cannot be reached block the call (exit 2, or a deny).
'toolgate hook HOST -h' and 'toolgate hook install HOST -h' list the flags.
`)
}

// gatewayDecider decides the hook's calls through the gateway at url,
// over its HTTP API.
func gatewayDecider(url string, hf *hookcli.HookFlags, host *hosts.Host, deadline time.Duration) claudecode.Decider {
	c, err := client.New(url, os.Getenv("TOOLGATE_TOKEN"), client.WithVia("hook"),
		client.WithHTTPClient(&http.Client{Timeout: deadline}))
	if err != nil {
		return hookcli.FailingDecider{Err: fmt.Errorf("--server: %w", err)}
	}
	return hookcli.RemoteDecider(c, hf, host)
}

// runHookInstall writes the hook into a host's settings file, merging
// with what is there.
func runHookInstall(host *hosts.Host, args []string, stdout, stderr io.Writer) error {
	fs := clibase.NewFlagSet("hook install "+host.Name, stderr)
	var hf hookcli.HookFlags
	hf.Register(fs)
	scopes := make([]*bool, len(host.Scopes))
	for i, s := range host.Scopes {
		scopes[i] = fs.Bool(s.Name, false, "install in "+s.Help)
	}
	dir := fs.String("dir", "", "project `D`irectory for the project's settings (default: the current directory)")
	printOnly := fs.Bool("print", false, "print the settings file as it would be, and write nothing")
	command := fs.String("command", "", "the toolgate `CMD` the hook runs as CMD hook "+host.Name+" (a toolgate-hook binary runs as CMD "+host.Name+"; default: toolgate-hook next to this executable if there is one, else this executable; 'toolgate' in shared project settings)")
	event := fs.String("event", host.ToolEvent, "hook `EVENT` for tool calls"+eventHelp(host))
	matcher := fs.String("matcher", host.Matcher, "which tools the hook sees (the agent's matcher; empty is every tool)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: toolgate hook install %s [--%s] [--print] [hook flags]\n", host.Name, scopeNames(host, "|--"))
		fmt.Fprintf(stderr, "Adds 'toolgate hook %s' to a %s settings file, on %s", host.Name, host.Title, host.ToolEvent)
		if host.PromptEvent != "" {
			fmt.Fprintf(stderr, " and on\n%s (which ends the session's turn at a gateway)", host.PromptEvent)
		}
		fmt.Fprintln(stderr, ", keeping every other key and hook.")
		fmt.Fprintln(stderr, "Running it again updates toolgate's entries instead of adding some. Hook flags")
		fmt.Fprintln(stderr, "(--server, --on-ask, --wait, --on-error, --config, --rules, --workspace, …) are passed")
		fmt.Fprintln(stderr, "on to the hook command; the token is not: set TOOLGATE_TOKEN in the agent's environment.")
		fmt.Fprintln(stderr, "Install the binaries first (go install ./cmd/toolgate ./cmd/toolgate-hook): a 'go run'")
		fmt.Fprintln(stderr, "build is deleted when it exits, and install refuses it.")
		fs.PrintDefaults()
	}
	if err := clibase.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return clibase.UsageErrorf("hook install takes no arguments, got %q", fs.Arg(0))
	}
	if err := hf.Check(); err != nil {
		return err
	}
	scope, path, projectDir, home, err := hookScope(host, scopes, *dir)
	if err != nil {
		return err
	}
	if *event != host.ToolEvent && !(host.Name == "claude-code" && *event == claudecode.EventPermissionRequest) {
		if host.PromptEvent != "" && *event == host.PromptEvent {
			return clibase.UsageErrorf("--event %s: the hook is always installed on %s too; give the tool event%s", *event, host.PromptEvent, eventHelp(host))
		}
		return clibase.UsageErrorf("--event %q: want %s%s", *event, host.ToolEvent, eventHelp(host))
	}

	exe, prefix := *command, []string{"hook", host.Name}
	if exe == "" {
		exe = "toolgate"
		if !scope.Shared {
			p, err := os.Executable()
			if err != nil {
				return fmt.Errorf("cannot find this executable to install it (give --command): %w", err)
			}
			exe = p
			// The lean hook binary installed next to toolgate starts in a
			// fraction of the time; with --server it would only hand the
			// run to toolgate, so then toolgate runs it directly.
			if lean := leanHook(exe); lean != "" && hf.Server == "" {
				exe, prefix = lean, []string{host.Name}
			}
		}
	}
	if filepath.Base(exe) == "toolgate-hook" {
		prefix = []string{host.Name} // the lean binary takes the host alone
	}
	if err := checkLasting(exe); err != nil {
		return clibase.BadInput(err)
	}
	cmdline, err := commandLine(&hf, fs, exe, prefix)
	if err != nil {
		return err
	}
	timeout := hf.Timeout
	if hf.OnAsk == string(claudecode.AskWait) || hf.OnAsk == "" && host.OnAsk == claudecode.AskWait {
		timeout += hf.Wait
	}
	// The same command on the prompt event ends the session's turn at the
	// gateway when the user speaks again, which clears a hard deny's stop;
	// it never holds a call, so its timeout leaves out --wait.
	entries := host.Entries(cmdline, *event, *matcher, timeout, hf.Timeout)
	report := stdout
	var inst hosts.Installed
	if *printOnly {
		src, err := claudecode.ReadSettings(path)
		if err != nil {
			return err
		}
		out, _, err := host.Merge(src, entries)
		if err != nil {
			return clibase.BadInput(fmt.Errorf("%s: %w", path, err))
		}
		if _, err := stdout.Write(out); err != nil {
			return err
		}
		report = stderr
	} else {
		var err error
		inst, err = host.Install(hosts.TrustEnv{Home: home, SHA256: sha256.Sum256}, path, entries)
		var ie *hosts.InstallError
		if err != nil && inst.Settings == nil { // nothing installed
			if errors.As(err, &ie) {
				return clibase.BadInput(err)
			}
			return err
		}
		if !inst.Changed {
			fmt.Fprintf(stdout, "toolgate hook already installed in %s\n", path)
		} else {
			also := ""
			for _, e := range entries[1:] {
				also += "; and " + e.Event
			}
			fmt.Fprintf(stdout, "toolgate hook installed in %s (%s, matcher %q%s): %s\n", path, entries[0].Event, entries[0].Matcher, also, cmdline)
		}
		if err != nil {
			return clibase.BadInput(err) // installed, but the host would skip it
		}
	}
	if host.Name == "claude-code" {
		reportClaudePermissions(report, &hf, projectDir, home)
	}
	if inst.Trust != "" {
		fmt.Fprintln(report, inst.Trust)
	}
	return nil
}

// runHookUninstall takes toolgate's hooks out of a host's settings file.
func runHookUninstall(host *hosts.Host, args []string, stdout, stderr io.Writer) error {
	fs := clibase.NewFlagSet("hook uninstall "+host.Name, stderr)
	scopes := make([]*bool, len(host.Scopes))
	for i, s := range host.Scopes {
		scopes[i] = fs.Bool(s.Name, false, "uninstall from "+s.Help)
	}
	dir := fs.String("dir", "", "project `D`irectory for the project's settings (default: the current directory)")
	printOnly := fs.Bool("print", false, "print the settings file as it would be, and write nothing")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: toolgate hook uninstall %s [--%s] [--print]\n", host.Name, scopeNames(host, "|--"))
		fmt.Fprintf(stderr, "Takes every toolgate hook out of a %s settings file, keeping every other key and hook.\n", host.Title)
		fs.PrintDefaults()
	}
	if err := clibase.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return clibase.UsageErrorf("hook uninstall takes no arguments, got %q", fs.Arg(0))
	}
	_, path, _, home, err := hookScope(host, scopes, *dir)
	if err != nil {
		return err
	}
	src, err := claudecode.ReadSettings(path)
	if err != nil {
		return err
	}
	out, removed, err := host.Remove(src)
	if err != nil {
		return clibase.BadInput(fmt.Errorf("%s: %w", path, err))
	}
	if *printOnly {
		_, err := stdout.Write(out)
		return err
	}
	if len(removed) == 0 {
		fmt.Fprintf(stdout, "no toolgate hook in %s\n", path)
		return nil
	}
	if t, ok := host.Adapter.(hosts.Trusting); ok {
		if err := t.Untrust(hosts.TrustEnv{Home: home, SHA256: sha256.Sum256}, path, src); err != nil {
			return err
		}
	}
	if out == nil {
		err = os.Remove(path) // toolgate's own plugin file
	} else {
		err = claudecode.WriteSettings(path, out)
	}
	if err != nil {
		return err
	}
	for _, r := range removed {
		fmt.Fprintf(stdout, "removed the %s hook from %s: %s\n", r.Event, path, r.Command)
	}
	return nil
}

// hookScope is the settings file the scope flags pick.
func hookScope(host *hosts.Host, set []*bool, dir string) (scope *hosts.Scope, path, projectDir, home string, err error) {
	name, n := "", 0
	for i, s := range set {
		if *s {
			name, n = host.Scopes[i].Name, n+1
		}
	}
	if n > 1 {
		names := "--" + scopeNames(host, ", --")
		if i := strings.LastIndex(names, ", "); i >= 0 {
			names = names[:i] + " and" + names[i+1:]
		}
		return nil, "", "", "", clibase.UsageErrorf("give one of %s", names)
	}
	if scope, err = host.Scope(name); err != nil {
		return nil, "", "", "", clibase.UsageErrorf("%v", err)
	}
	projectDir = dir
	if projectDir == "" {
		if projectDir, err = os.Getwd(); err != nil {
			return nil, "", "", "", fmt.Errorf("current directory: %w", err)
		}
	}
	projectDir = absPath(projectDir)
	home, _ = os.UserHomeDir()
	if path, err = scope.Path(projectDir, home); err != nil {
		return nil, "", "", "", clibase.BadInput(err)
	}
	return scope, path, projectDir, home, nil
}

func scopeNames(host *hosts.Host, sep string) string {
	var names []string
	for _, s := range host.Scopes {
		names = append(names, s.Name)
	}
	return strings.Join(names, sep)
}

func eventHelp(host *hosts.Host) string {
	if host.Name == "claude-code" {
		return ": PreToolUse (every call) or PermissionRequest (only calls Claude Code would ask about); UserPromptSubmit is always added"
	}
	return ""
}

// checkLasting refuses to install a hook binary that will be gone when
// the agent runs it: one in Go's build cache or a temporary directory,
// which is where "go run" builds it.
func checkLasting(exe string) error {
	if !filepath.IsAbs(exe) {
		return nil // a command from PATH, found when it runs
	}
	paths := []string{exe}
	if r, err := filepath.EvalSymlinks(exe); err == nil && r != exe {
		paths = append(paths, r)
	}
	dirs := []string{os.TempDir()}
	if c, err := os.UserCacheDir(); err == nil {
		dirs = append(dirs, filepath.Join(c, "go-build"))
	}
	if c := os.Getenv("GOCACHE"); c != "" {
		dirs = append(dirs, c)
	}
	if t := os.Getenv("GOTMPDIR"); t != "" {
		dirs = append(dirs, t)
	}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		if r, err := filepath.EvalSymlinks(d); err == nil {
			d = r
		}
		for _, p := range paths {
			rel, err := filepath.Rel(d, p)
			if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
				continue
			}
			return fmt.Errorf("the hook would run %s, which is a temporary build (go run) that is gone when it exits, "+
				"so the agent would run without the gate: install the binaries first with "+
				"'go install ./cmd/toolgate ./cmd/toolgate-hook' and run 'toolgate hook install' from there (or give --command)", exe)
		}
	}
	return nil
}

// reportClaudePermissions says which of Claude Code's own permission
// files the installed hook will honour (deciding locally), as found for
// projectDir now: the hook reads them again for each call's project.
func reportClaudePermissions(w io.Writer, hf *hookcli.HookFlags, projectDir, home string) {
	if hf.GatewayURL() != "" {
		if hf.AgentPerms {
			fmt.Fprintln(w, "The gateway decides (its rules, grants and modes); Claude Code's own deny rules are checked first by the hook, which denies what they deny without asking the gateway.")
		} else {
			fmt.Fprintln(w, "The gateway decides (its rules, grants and modes); Claude Code's own permissions are left out (--agent-permissions=false).")
		}
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
func commandLine(h *hookcli.HookFlags, fs *flag.FlagSet, exe string, prefix []string) (string, error) {
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
				err = clibase.BadInput(fmt.Errorf("--server: %w", cerr))
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
