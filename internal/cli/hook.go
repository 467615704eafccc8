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

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/integrations/claudecode"
	"github.com/toolgate/toolgate/policy"
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
		return runHookAgent(ctx, "claude-code", claudecode.DialectAuto, args[1:], stdin, stdout, stderr)
	case "codex":
		return runHookAgent(ctx, "codex", claudecode.DialectCodex, args[1:], stdin, stdout, stderr)
	case "install":
		if len(args) < 2 || args[1] != "claude-code" {
			return usageErrorf("usage: toolgate hook install claude-code [--user|--project|--local] [--print] [hook flags]")
		}
		return runHookInstall(args[2:], stdout, stderr)
	}
	return usageErrorf("unknown hook %q; %s", args[0], usage)
}

// hookFlags are the flags of the hook itself, which install passes on.
type hookFlags struct {
	rules     ruleFlags
	mode      string
	server    string
	onAsk     string
	wait      time.Duration
	timeout   time.Duration
	onError   string
	workspace string
	// claude honours Claude Code's own permissions (settings files) as a
	// layer of the local rules.
	claude bool
	modes  modeFlags
}

// Defaults of the hook flags.
const (
	defaultHookTimeout = 10 * time.Second
	hookTimeoutSlack   = 30 // seconds the agent's timeout adds to ours
)

func (h *hookFlags) register(fs *flag.FlagSet) {
	h.rules.register(fs)
	fs.StringVar(&h.mode, "mode", "", "approval `M`ode for local decisions (default: the config's)")
	h.modes.register(fs)
	fs.BoolVar(&h.claude, "claude-permissions", true, "decide locally with Claude Code's own permissions (allow/ask/deny of the managed, user, project and local settings files) as a layer; =false leaves them out")
	fs.StringVar(&h.server, "server", "", "decide through the gateway at `URL` (default $TOOLGATE_URL; none: decide locally from rules). Token from $TOOLGATE_TOKEN")
	fs.StringVar(&h.onAsk, "on-ask", "", "with a gateway, what ask does: prompt (hand it to the agent's own prompt; default for Claude Code) or wait (hold it for a remote approver; default for Codex)")
	fs.DurationVar(&h.wait, "wait", claudecode.DefaultWait, "with --on-ask=wait, how long to hold a call for an approver before denying it")
	fs.DurationVar(&h.timeout, "timeout", defaultHookTimeout, "how long to wait for the gateway to answer a request")
	fs.StringVar(&h.onError, "on-error", "deny", "answer when the call cannot be decided (bad input, gateway unreachable, broken rules): deny or ask")
	fs.StringVar(&h.workspace, "workspace", "", "workspace `ID` of the calls (default $TOOLGATE_WORKSPACE, else the base name of $CLAUDE_PROJECT_DIR or the cwd)")
}

// check validates the flag values.
func (h *hookFlags) check() error {
	if h.onAsk != "" {
		if _, err := claudecode.ParseAskMode(h.onAsk); err != nil {
			return badInput(fmt.Errorf("--on-ask: %w", err))
		}
	}
	if h.onError != "deny" && h.onError != "ask" {
		return usageErrorf("--on-error %q: want deny or ask (never allow)", h.onError)
	}
	if h.wait <= 0 || h.timeout <= 0 {
		return usageErrorf("--wait and --timeout must be positive")
	}
	if _, err := h.modes.resolve(h.mode); err != nil {
		return err
	}
	if h.workspace != "" && claudecode.WorkspaceFor(h.workspace) != h.workspace {
		return usageErrorf("--workspace %q: use letters, digits, '.', '_' and '-'", h.workspace)
	}
	return nil
}

func (h *hookFlags) gatewayURL() string {
	if h.server != "" {
		return h.server
	}
	return os.Getenv("TOOLGATE_URL")
}

// runHookAgent answers one hook input. Whatever goes wrong after the flags
// are read, the answer is JSON on stdout with exit 0 (deny or ask, never
// allow), or exit 2 with the reason on stderr when the input cannot be
// read at all: the exit codes the agents read as a decision or a block.
// Exit 1 would let the call through, so it is used only for an event that
// gates nothing.
func runHookAgent(ctx context.Context, name string, dialect claudecode.Dialect, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("hook "+name, stderr)
	var hf hookFlags
	hf.register(fs)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: toolgate hook %s [flags] < hook.json\n", name)
		fmt.Fprintln(stderr, "Answers a PreToolUse or PermissionRequest hook: reads the hook JSON on stdin, decides")
		fmt.Fprintln(stderr, "the call locally from rules (default) or through a gateway (--server or $TOOLGATE_URL),")
		fmt.Fprintln(stderr, "and prints the answer as JSON. Exit 0 with a decision; exit 2 (the agents' blocking")
		fmt.Fprintln(stderr, "error) with the reason on stderr when the input cannot be read. On UserPromptSubmit")
		fmt.Fprintln(stderr, "it ends the session's turn at the gateway (clearing a hard deny's stop) and always")
		fmt.Fprintln(stderr, "exits 0 with no output, so the prompt goes through.")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("hook %s takes no arguments, got %q", name, fs.Arg(0))
	}
	if err := hf.check(); err != nil {
		return err
	}
	data, err := io.ReadAll(io.LimitReader(stdin, claudecode.MaxInputBytes+1))
	if err != nil {
		fmt.Fprintf(stderr, "toolgate: read hook input: %v; the call is blocked\n", err)
		return errSilent(claudecode.ExitBlock)
	}

	hook := claudecode.Hook{Dialect: dialect, Workspace: hf.workspace}
	if hook.Workspace == "" {
		hook.Workspace = os.Getenv("TOOLGATE_WORKSPACE")
	}
	hook.ProjectDir = claudecode.ProjectDirFromEnv()
	hook.TurnEndTimeout = hf.timeout
	if hf.onError == "ask" {
		hook.OnError = toolgate.Ask
	}
	deadline := hf.timeout
	if url := hf.gatewayURL(); url != "" {
		remote := &claudecode.Remote{OnAsk: claudecode.AskMode(hf.onAsk), Wait: hf.wait}
		if remote.OnAsk == "" {
			remote.OnAsk = claudecode.AskPrompt
			if dialect == claudecode.DialectCodex {
				remote.OnAsk = claudecode.AskWait
			}
		}
		if remote.OnAsk == claudecode.AskWait {
			deadline += hf.wait
		}
		c, err := client.New(url, os.Getenv("TOOLGATE_TOKEN"), client.WithVia("hook"),
			client.WithHTTPClient(&http.Client{Timeout: deadline}))
		if err != nil {
			hook.Decider = failingDecider{fmt.Errorf("--server: %w", err)}
		} else {
			remote.Gate = c
			hook.Decider = remote
		}
	} else {
		hook.Decider = &lazyLocal{flags: &hf, claude: hf.claude && dialect != claudecode.DialectCodex, projectDir: hook.ProjectDir}
	}
	ctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()

	ans := hook.Handle(ctx, data)
	if ans.Output != nil {
		if _, err := stdout.Write(ans.Output.Marshal()); err != nil {
			fmt.Fprintf(stderr, "toolgate: write answer: %v; the call is blocked\n", err)
			return errSilent(claudecode.ExitBlock)
		}
		return nil
	}
	if ans.Stderr != "" {
		fmt.Fprintln(stderr, ans.Stderr)
	}
	if ans.Exit == claudecode.ExitOK {
		// A UserPromptSubmit: exit 0 and no output let the prompt through,
		// even when its turn could not be ended (see Hook.Handle).
		return nil
	}
	return errSilent(ans.Exit)
}

// lazyLocal decides locally, loading the rules on first use: an input that
// is not a call costs no rule loading.
type lazyLocal struct {
	flags *hookFlags
	// claude layers Claude Code's permissions, read for projectDir (else
	// the call's cwd), which is also a workspace root.
	claude     bool
	projectDir string
	local      *claudecode.Local
}

func (l *lazyLocal) Decide(ctx context.Context, c *toolgate.Call) (claudecode.Verdict, error) {
	if l.local == nil {
		var extra []policy.Option
		stack := func(docs []*policy.Document) ([]*policy.Document, error) { return docs, nil }
		if l.claude {
			dir := l.projectDir
			if dir == "" {
				dir = c.Cwd
			}
			if dir != "" {
				extra = append(extra, policy.WithWorkspaceRoots(dir))
			}
			stack = func(docs []*policy.Document) ([]*policy.Document, error) {
				home, _ := os.UserHomeDir()
				p, err := claudecode.LoadPermissions(claudecode.PermissionFiles(dir, home, claudecode.ManagedSettingsPath()))
				if err != nil {
					return nil, err
				}
				return p.Layer(docs), nil
			}
		}
		e, agent, err := l.flags.rules.engineWith(stack, extra...)
		if err != nil {
			return claudecode.Verdict{}, fmt.Errorf("load rules: %w", err)
		}
		env := policy.Env{Mode: e.Mode(), Agent: agent}
		if m, err := l.flags.modes.resolve(l.flags.mode); err != nil {
			return claudecode.Verdict{}, err
		} else if m != nil {
			env.Mode = *m
		}
		l.local = &claudecode.Local{Engine: e, Env: env}
	}
	return l.local.Decide(ctx, c)
}

// failingDecider cannot decide: a misconfigured gateway answers every call
// by the on-error policy.
type failingDecider struct{ err error }

func (f failingDecider) Decide(context.Context, *toolgate.Call) (claudecode.Verdict, error) {
	return claudecode.Verdict{}, f.err
}

// EndTurn implements claudecode.TurnEnder, so a prompt says on stderr why
// its turn was not ended.
func (f failingDecider) EndTurn(context.Context, string) error { return f.err }

// runHookInstall writes the hook into a Claude Code settings file, merging
// with what is there.
func runHookInstall(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("hook install claude-code", stderr)
	var hf hookFlags
	hf.register(fs)
	user := fs.Bool("user", false, "install in ~/.claude/settings.json, for every project (the default)")
	project := fs.Bool("project", false, "install in .claude/settings.json of the project, shared with the team (the command is 'toolgate' from PATH)")
	local := fs.Bool("local", false, "install in .claude/settings.local.json of the project, this checkout only")
	dir := fs.String("dir", "", "project `D`irectory for --project and --local (default: the current directory)")
	printOnly := fs.Bool("print", false, "print the settings file as it would be, and write nothing")
	command := fs.String("command", "", "the toolgate `CMD` the hook runs (default: this executable's path; 'toolgate' with --project)")
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
	if err := hf.check(); err != nil {
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

	exe := *command
	if exe == "" {
		exe = "toolgate"
		if scope != claudecode.ScopeProject {
			if p, err := os.Executable(); err == nil {
				exe = p
			}
		}
	}
	cmdline, err := hf.commandLine(fs, exe)
	if err != nil {
		return err
	}
	if *event == claudecode.EventUserPromptSubmit {
		return usageErrorf("--event %s: the hook is always installed on UserPromptSubmit too; give the tool event (PreToolUse or PermissionRequest)", *event)
	}
	timeout := hf.timeout
	if hf.onAsk == string(claudecode.AskWait) {
		timeout += hf.wait
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
		Timeout: int(math.Ceil(hf.timeout.Seconds())) + hookTimeoutSlack,
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
func reportClaudePermissions(w io.Writer, hf *hookFlags, projectDir, home string) {
	if hf.gatewayURL() != "" {
		fmt.Fprintln(w, "The gateway decides (its rules, grants and modes); Claude Code's own permission files are not layered into its decisions.")
		return
	}
	if !hf.claude {
		fmt.Fprintln(w, "Claude Code's own permissions are left out of the hook's decisions (--claude-permissions=false).")
		return
	}
	p, err := claudecode.LoadPermissions(claudecode.PermissionFiles(projectDir, home, claudecode.ManagedSettingsPath()))
	if err != nil {
		fmt.Fprintf(w, "warning: %v\nUntil it is fixed the hook cannot decide, and answers every call by --on-error (%s).\n", err, hf.onError)
		return
	}
	if len(p.Found) == 0 {
		fmt.Fprintf(w, "No Claude Code permissions found (managed, ~/.claude/settings.json, %s/.claude/settings*.json); the hook decides by toolgate's rules.\n", projectDir)
		return
	}
	fmt.Fprintln(w, "The hook honours Claude Code's own permissions (deny wins; turn off with --claude-permissions=false):")
	for _, f := range p.Found {
		fmt.Fprintf(w, "  %-8s %s: %d allow, %d ask, %d deny\n", f.Scope, f.Path, f.Allow, f.Ask, f.Deny)
	}
	fmt.Fprintln(w, "Project and local settings are read for each session's own project.")
}

// commandLine is the hook command with the hook flags given to install,
// quoted for the shell the agent runs it with. Paths are made absolute:
// the agent runs the hook from wherever it is.
func (h *hookFlags) commandLine(fs *flag.FlagSet, exe string) (string, error) {
	parts := []string{shellQuote(exe), "hook", "claude-code"}
	var err error
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "user", "project", "local", "dir", "print", "command", "event", "matcher":
			return
		}
		if f.Name == "rules" {
			for _, r := range h.rules.rules {
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
