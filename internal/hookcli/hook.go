package hookcli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/claudecode"
	"github.com/toolgate/toolgate/integrations/hosts"
	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/policy"
)

// HookFlags are the flags of the agent hook, which "hook install" passes
// on.
type HookFlags struct {
	Rules     RuleFlags
	Mode      string
	Server    string
	OnAsk     string
	Wait      time.Duration
	Timeout   time.Duration
	OnError   string
	Workspace string
	// AgentPerms honours the agent's own permissions (the host's
	// Permissions files) as a layer of the local rules, and their deny
	// rules before a gateway.
	AgentPerms bool
	Modes      ModeFlags
}

// DefaultHookTimeout is the default of --timeout.
const DefaultHookTimeout = 10 * time.Second

// Register adds the flags to fs.
func (h *HookFlags) Register(fs *flag.FlagSet) {
	h.Rules.Register(fs)
	fs.StringVar(&h.Mode, "mode", "", "approval `M`ode for local decisions (default: the config's)")
	h.Modes.Register(fs)
	fs.BoolVar(&h.AgentPerms, "agent-permissions", true, "decide locally with the agent's own permissions as a layer (through a gateway, their deny rules first): Claude Code's allow/ask/deny (managed, user, project and local settings), Codex's rules ($CODEX_HOME/rules/*.rules), Gemini CLI's tools.exclude/allowed, opencode's permission; =false leaves them out")
	fs.StringVar(&h.Server, "server", "", "decide through the gateway at `URL` (default $TOOLGATE_URL; none: decide locally from rules). Token from $TOOLGATE_TOKEN")
	fs.StringVar(&h.OnAsk, "on-ask", "", "with a gateway, what ask does: prompt (hand it to the agent's own prompt; default for Claude Code) or wait (hold it for a remote approver; default for Codex)")
	fs.DurationVar(&h.Wait, "wait", claudecode.DefaultWait, "with --on-ask=wait, how long to hold a call for an approver before denying it")
	fs.DurationVar(&h.Timeout, "timeout", DefaultHookTimeout, "how long to wait for the gateway to answer a request")
	fs.StringVar(&h.OnError, "on-error", "deny", "answer when the call cannot be decided (bad input, gateway unreachable, broken rules): deny or ask")
	fs.StringVar(&h.Workspace, "workspace", "", "workspace `ID` of the calls (default $TOOLGATE_WORKSPACE, else the base name of $CLAUDE_PROJECT_DIR or the cwd)")
}

// Check validates the flag values.
func (h *HookFlags) Check() error {
	if h.OnAsk != "" {
		if _, err := claudecode.ParseAskMode(h.OnAsk); err != nil {
			return clibase.BadInput(fmt.Errorf("--on-ask: %w", err))
		}
	}
	if h.OnError != "deny" && h.OnError != "ask" {
		return clibase.UsageErrorf("--on-error %q: want deny or ask (never allow)", h.OnError)
	}
	if h.Wait <= 0 || h.Timeout <= 0 {
		return clibase.UsageErrorf("--wait and --timeout must be positive")
	}
	if _, err := h.Modes.Resolve(h.Mode); err != nil {
		return err
	}
	if h.Workspace != "" && claudecode.WorkspaceFor(h.Workspace) != h.Workspace {
		return clibase.UsageErrorf("--workspace %q: use letters, digits, '.', '_' and '-'", h.Workspace)
	}
	_, err := h.gatewayURL()
	return err
}

func (h *HookFlags) gatewayURL() (string, error) {
	return GatewayURL(h.Server, h.Rules.Explicit() || h.Mode != "" || h.Modes.Set())
}

// GatewayURL is the gateway the hook decides through, by the one rule of
// GatewayURL; "" decides locally. Check reports a conflict.
func (h *HookFlags) GatewayURL() string {
	url, _ := h.gatewayURL()
	return url
}

// Gateway builds the decider for a hook that decides through the gateway
// at url. It is called before the hook input is read, so an
// implementation may hand the whole run to another program (the lean hook
// binary execs toolgate). deadline bounds each request to the gateway.
type Gateway func(url string, f *HookFlags, host *hosts.Host, deadline time.Duration) claudecode.Decider

// Handoff is how the binary running the hook hands on what it does not
// decide itself: Gateway builds the decider for a gateway.
type Handoff struct {
	Gateway Gateway
}

// RunHookAgent answers one hook input of a host ("hook claude-code",
// "hook gemini", …). Whatever goes wrong after the flags are read, the
// answer is a decision on stdout with exit 0 (deny or ask, never allow),
// or exit 2 with the reason on stderr when the input cannot be read at
// all or is an event the hook does not know that carries a tool call:
// the exit codes the agents read as a decision or a block. Exit 1 would
// let the call through, so it is used only for an event known to gate
// nothing.
func RunHookAgent(ctx context.Context, host *hosts.Host, handoff Handoff, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	name := host.Name
	fs := clibase.NewFlagSet("hook "+name, stderr)
	var hf HookFlags
	hf.Register(fs)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: toolgate hook %s [flags] < hook.json\n", name)
		fmt.Fprintf(stderr, "Answers %s's hooks (%s): reads the hook JSON on stdin, decides\n", host.Title, host.Events)
		fmt.Fprintln(stderr, "the call locally from rules (default) or through a gateway (--server or $TOOLGATE_URL),")
		fmt.Fprintln(stderr, "and prints the answer as JSON. Exit 0 with a decision; exit 2 (the agents' blocking")
		fmt.Fprintln(stderr, "error) with the reason on stderr when the input cannot be read, or is an event it does")
		fmt.Fprintln(stderr, "not know that carries a tool call. When the user sends a prompt it ends the session's")
		fmt.Fprintln(stderr, "turn at the gateway (clearing a hard deny's stop) and always exits 0 with no output,")
		fmt.Fprintln(stderr, "so the prompt goes through. Install it with 'toolgate hook install "+name+"'.")
		fs.PrintDefaults()
	}
	if err := clibase.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return clibase.UsageErrorf("hook %s takes no arguments, got %q", name, fs.Arg(0))
	}
	if err := hf.Check(); err != nil {
		return err
	}

	hook := claudecode.Hook{Workspace: hf.Workspace}
	if hook.Workspace == "" {
		hook.Workspace = os.Getenv("TOOLGATE_WORKSPACE")
	}
	hook.ProjectDir = claudecode.ProjectDirFromEnv()
	hook.TurnEndTimeout = hf.Timeout
	if hf.OnError == "ask" {
		hook.OnError = toolgate.Ask
	}
	deadline := hf.Timeout
	url := hf.GatewayURL()
	if url != "" {
		if hf.OnAsk == string(claudecode.AskWait) || hf.OnAsk == "" && host.OnAsk == claudecode.AskWait {
			deadline += hf.Wait
		}
		hook.Decider = handoff.Gateway(url, &hf, host, deadline)
		if hf.AgentPerms && host.Permissions != nil {
			hook.Decider = &agentDenyFirst{perms: host.Permissions, projectDir: hook.ProjectDir, next: hook.Decider}
		}
	} else {
		hook.Decider = &lazyLocal{flags: &hf, agentPerms: hf.AgentPerms, host: host, projectDir: hook.ProjectDir}
	}
	data, err := io.ReadAll(io.LimitReader(stdin, claudecode.MaxInputBytes+1))
	if err != nil {
		fmt.Fprintf(stderr, "toolgate: read hook input: %v; the call is blocked\n", err)
		return clibase.ErrSilent(claudecode.ExitBlock)
	}
	if host.Adapter != nil && len(data) <= claudecode.MaxInputBytes {
		if data, err = host.Adapter.Input(data); err != nil {
			fmt.Fprintf(stderr, "toolgate: %v; the call is blocked\n", err)
			return clibase.ErrSilent(claudecode.ExitBlock)
		}
	}
	if url != "" {
		// Only a gateway is waited for: a local decision is bounded work
		// (the analysis budgets).
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, deadline)
		defer cancel()
	}

	ans := hook.Handle(ctx, data)
	out, msg, code := host.Answer(&ans)
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintf(stderr, "toolgate: write answer: %v; the call is blocked\n", err)
		return clibase.ErrSilent(claudecode.ExitBlock)
	}
	if msg != "" {
		fmt.Fprintln(stderr, msg)
	}
	if code != claudecode.ExitOK {
		return clibase.ErrSilent(code)
	}
	// Exit 0: a decision on stdout, or a UserPromptSubmit, which no output
	// lets through even when its turn could not be ended (see Hook.Handle).
	return nil
}

// lazyLocal decides locally, loading the rules on first use: an input that
// is not a call costs no rule loading.
type lazyLocal struct {
	flags *HookFlags
	// agentPerms layers the agent's own permissions (the host's
	// Permissions), read for projectDir (else the call's cwd, which is a
	// workspace root either way).
	agentPerms bool
	host       *hosts.Host
	projectDir string
	// loaded are the rules once read.
	loaded *Loaded
	local  *claudecode.Local
}

func (l *lazyLocal) Decide(ctx context.Context, c *toolgate.Call) (claudecode.Verdict, error) {
	if l.local == nil {
		var extra []policy.Option
		var stack func([]*policy.Document) ([]*policy.Document, error)
		dir := l.projectDir
		if dir == "" {
			dir = c.Cwd
		}
		if dir != "" {
			extra = append(extra, policy.WithWorkspaceRoots(dir))
		}
		if l.agentPerms && l.host.Permissions != nil {
			stack = func(docs []*policy.Document) ([]*policy.Document, error) {
				home, _ := os.UserHomeDir()
				p, err := claudecode.LoadPermissions(l.host.Permissions(dir, home))
				if err != nil {
					return nil, err
				}
				return p.Layer(docs), nil
			}
		}
		if l.loaded == nil {
			l.loaded, _ = l.flags.Rules.Load()
		}
		e, agent, err := l.flags.Rules.EngineFrom(l.loaded, stack, extra...)
		if err != nil {
			return claudecode.Verdict{}, fmt.Errorf("load rules: %w", err)
		}
		// The hook runs in the agent's environment, which its shell
		// commands inherit: their variables are read at these values.
		env := policy.Env{Mode: e.Mode(), Agent: agent, Vars: os.LookupEnv}
		if m, err := l.flags.Modes.Resolve(l.flags.Mode); err != nil {
			return claudecode.Verdict{}, err
		} else if m != nil {
			env.Mode = *m
		}
		l.local = &claudecode.Local{Engine: e, Env: env, Confine: SandboxConfiner(l.host)}
	}
	return l.local.Decide(ctx, c)
}

// RemoteDecider decides a host's calls through a gateway reached by g,
// with the hook flags' ask mode and wait (the host's own ask mode by
// default). Each call carries the agent's home ($HOME), so "~" in it
// means the agent's home at the gateway.
func RemoteDecider(g claudecode.HookGate, hf *HookFlags, host *hosts.Host) *claudecode.Remote {
	home, _ := os.UserHomeDir()
	remote := &claudecode.Remote{Gate: g, OnAsk: claudecode.AskMode(hf.OnAsk), Wait: hf.Wait, Confine: SandboxConfiner(host), Home: home}
	if remote.OnAsk == "" {
		remote.OnAsk = host.OnAsk
	}
	return remote
}

// agentDenyFirst decides a call by the agent's own deny rules (the host's
// Permissions: Claude Code's settings, Codex's rules, Gemini CLI's
// settings, opencode's config) before a gateway sees it: a call
// the agent refuses whatever the hook answers is denied here, with the
// rule's reason, instead of being held for a human whose approval the
// agent would then refuse anyway. Everything else goes to the gateway.
// The files are read as the agent's own user, so ~ is the agent's home.
type agentDenyFirst struct {
	// perms lists the agent's permission files (the host's Permissions).
	perms      func(projectDir, home string) []claudecode.SettingsFile
	projectDir string
	next       claudecode.Decider
	loaded     bool
	engine     *policy.Engine
	// files are the agent's permission files found, whose rules alone
	// decide here (not the engine's built-in floor: the gateway has it).
	files []string
}

// ownRule reports a rule written in one of the agent's files.
func (a *agentDenyFirst) ownRule(source string) bool {
	for _, f := range a.files {
		if strings.HasPrefix(source, f) {
			return true
		}
	}
	return false
}

func (a *agentDenyFirst) Decide(ctx context.Context, c *toolgate.Call) (claudecode.Verdict, error) {
	if !a.loaded {
		home, _ := os.UserHomeDir()
		dir := a.projectDir
		if dir == "" {
			dir = c.Cwd
		}
		p, err := claudecode.LoadPermissions(a.perms(dir, home))
		if err != nil {
			return claudecode.Verdict{}, err // a deny rule that cannot be read: never allow
		}
		for _, f := range p.Found {
			a.files = append(a.files, f.Path)
		}
		if p.Deny != nil && len(p.Deny.Rules) > 0 {
			var opts []policy.Option
			if dir != "" {
				opts = append(opts, policy.WithWorkspaceRoots(dir))
			}
			if a.engine, err = policy.New([]*policy.Document{p.Deny}, opts...); err != nil {
				return claudecode.Verdict{}, fmt.Errorf("the agent's permissions: %w", err)
			}
		}
		a.loaded = true
	}
	if a.engine != nil {
		var d toolgate.Decision
		a.engine.Decide(c, policy.Env{}, &d)
		if d.Action == toolgate.Deny && d.Rule != nil && a.ownRule(d.Rule.Source) {
			r := d.Reason
			if d.Rule.Source != "" && !strings.Contains(r, d.Rule.Source) {
				r += " (" + d.Rule.Source + ")"
			}
			return claudecode.Verdict{Action: toolgate.Deny, Reason: r, Tier: d.Tier}, nil
		}
	}
	return a.next.Decide(ctx, c)
}

// EndTurn passes a prompt on to the gateway.
func (a *agentDenyFirst) EndTurn(ctx context.Context, session string) error {
	if te, ok := a.next.(claudecode.TurnEnder); ok {
		return te.EndTurn(ctx, session)
	}
	return nil
}

// FailingDecider cannot decide: a misconfigured gateway answers every call
// by the on-error policy.
type FailingDecider struct{ Err error }

// Decide implements claudecode.Decider.
func (f FailingDecider) Decide(context.Context, *toolgate.Call) (claudecode.Verdict, error) {
	return claudecode.Verdict{}, f.Err
}

// EndTurn implements claudecode.TurnEnder, so a prompt says on stderr why
// its turn was not ended.
func (f FailingDecider) EndTurn(context.Context, string) error { return f.Err }
