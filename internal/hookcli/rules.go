package hookcli

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/policy"
)

// RuleFlags are the flags every command that decides calls shares.
type RuleFlags struct {
	Config     string
	Rules      clibase.StringList
	AgentRules string
	// ExplicitOnly skips the config file found in the default place, for
	// commands that must judge exactly the files they are given.
	ExplicitOnly bool
}

// Explicit reports whether rule files were named on the command line.
func (f *RuleFlags) Explicit() bool {
	return len(f.Rules) > 0 || f.AgentRules != "" || f.Config != ""
}

// GatewayURL is the one rule by which the hook, toolgate host and the MCP
// proxy choose where calls are decided. An explicit --server is the
// gateway; naming local rules on the command line as well is a usage
// error, since the gateway decides with its own. Local rules named on the
// command line without --server decide locally even when $TOOLGATE_URL is
// set: an explicit flag beats a variable inherited from the environment
// (the agents' docs suggest exporting it). Otherwise $TOOLGATE_URL, if
// set, is the gateway; "" decides locally.
func GatewayURL(server string, local bool) (string, error) {
	switch {
	case server != "" && local:
		return "", clibase.UsageErrorf("--server %s and local rules or modes (--rules, --agent-rules, --config, --mode, --yolo) both given: the gateway decides with its own rules; give one or the other", server)
	case server != "":
		return server, nil
	case local:
		return "", nil
	}
	return os.Getenv("TOOLGATE_URL"), nil
}

// Register adds the flags to fs.
func (f *RuleFlags) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.Config, "config", "", "config file `F` (default $XDG_CONFIG_HOME/toolgate/toolgate.yaml if it exists)")
	fs.Var(&f.Rules, "rules", "rules document `F` (.jsonc/.json workspace documents or Claude settings, .yaml configs); repeat for more, in order")
	fs.StringVar(&f.AgentRules, "agent-rules", "", "rules document `F` used as the agent layer (its deny rules veto)")
}

// Documents loads the rule documents in decision order: the built-in
// default workspace document unless a workspace document is given, then
// the --rules files in order, then the config file, whose rules win.
func (f *RuleFlags) Documents() ([]*policy.Document, error) {
	return f.documents(f.configFile())
}

func (f *RuleFlags) documents(config string) ([]*policy.Document, error) {
	var docs []*policy.Document
	haveWorkspace := false
	for _, path := range f.Rules {
		d, err := policy.LoadFile(path)
		if err != nil {
			return nil, err
		}
		haveWorkspace = haveWorkspace || d.Workspace
		docs = append(docs, d)
	}
	if config != "" {
		d, err := policy.LoadFile(config)
		if err != nil {
			return nil, err
		}
		docs = append(docs, d)
	}
	if !haveWorkspace {
		docs = append([]*policy.Document{policy.DefaultDocument()}, docs...)
	}
	return docs, nil
}

// configFile is --config, else (unless ExplicitOnly) the config file in
// the default place; "" for none.
func (f *RuleFlags) configFile() string {
	if f.Config == "" && !f.ExplicitOnly {
		return DefaultConfigFile()
	}
	return f.Config
}

// Loaded are the rule documents of a run, read once: Load reads them and
// EngineFrom builds the engine, so a caller can look at what loading
// found before it decides anything (the lean hook hands configs it cannot
// read to toolgate).
type Loaded struct {
	config   string
	docs     []*policy.Document
	docsErr  error
	agent    *policy.Document
	agentErr error
}

// Load reads the documents Documents reads and the --agent-rules document.
// The error is the first either load met; EngineFrom reports each where
// EngineWith would.
func (f *RuleFlags) Load() (*Loaded, error) {
	l := &Loaded{config: f.configFile()}
	l.docs, l.docsErr = f.documents(l.config)
	if f.AgentRules != "" {
		l.agent, l.agentErr = policy.LoadFile(f.AgentRules)
	}
	if l.docsErr != nil {
		return l, l.docsErr
	}
	return l, l.agentErr
}

// DefaultConfigFile is the config file in the default place,
// $XDG_CONFIG_HOME/toolgate/toolgate.yaml, or "" when there is none.
func DefaultConfigFile() string {
	dir := clibase.ConfigDir()
	if dir == "" {
		return ""
	}
	p := filepath.Join(dir, "toolgate.yaml")
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// EngineOptions are the options every command builds its engine with: the
// user's home for "~/" and toolgate's own files protected from agents.
func EngineOptions() []policy.Option {
	var opts []policy.Option
	if home, err := os.UserHomeDir(); err == nil {
		opts = append(opts, policy.WithHome(home))
	}
	for _, p := range []string{clibase.ConfigDir(), clibase.DataDir()} {
		if p != "" {
			opts = append(opts, policy.WithProtectedPaths(p))
		}
	}
	// toolgate's own programs: an agent that replaced one would decide its
	// own calls. Both the path this one was started by and the file it
	// resolves to, and beside each the other binary (toolgate runs as the
	// hook through toolgate-hook, which hands gateway calls to toolgate).
	if exe, err := os.Executable(); err == nil {
		paths := []string{exe}
		// On Linux the path is /proc/self/exe's, which the kernel gives
		// with every symlink resolved: walking it again (an lstat per
		// directory) finds the same file, on each hook call.
		if runtime.GOOS != "linux" {
			if real, err := filepath.EvalSymlinks(exe); err == nil && real != exe {
				paths = append(paths, real)
			}
		}
		for _, p := range paths {
			dir := filepath.Dir(p)
			opts = append(opts, policy.WithProtectedWrites(p,
				filepath.Join(dir, "toolgate"), filepath.Join(dir, "toolgate-hook")))
		}
	}
	return opts
}

// Engine loads the documents and compiles them, with the agent layer from
// --agent-rules if given. Any load or compile error, and any failing rule
// test, is bad input.
func (f *RuleFlags) Engine() (*policy.Engine, *policy.Ruleset, error) {
	return f.EngineWith(nil)
}

// EngineWith is Engine with the documents passed through stack (which may
// add layers, as the Claude Code hook adds Claude Code's permissions) and
// extra engine options.
func (f *RuleFlags) EngineWith(stack func([]*policy.Document) ([]*policy.Document, error), extra ...policy.Option) (*policy.Engine, *policy.Ruleset, error) {
	l, _ := f.Load()
	return f.EngineFrom(l, stack, extra...)
}

// EngineFrom is EngineWith from documents Load read.
func (f *RuleFlags) EngineFrom(l *Loaded, stack func([]*policy.Document) ([]*policy.Document, error), extra ...policy.Option) (*policy.Engine, *policy.Ruleset, error) {
	if l.docsErr != nil {
		return nil, nil, clibase.BadInput(l.docsErr)
	}
	docs := l.docs
	if stack != nil {
		var err error
		if docs, err = stack(docs); err != nil {
			return nil, nil, clibase.BadInput(err)
		}
	}
	e, err := policy.New(docs, append(append(EngineOptions(), f.protectInputs(l.config)), extra...)...)
	if err != nil {
		return nil, nil, clibase.BadInput(fmt.Errorf("load rules: %w", err))
	}
	var agent *policy.Ruleset
	if f.AgentRules != "" {
		if l.agentErr != nil {
			return nil, nil, clibase.BadInput(l.agentErr)
		}
		if agent, err = e.Compile(toolgate.LayerAgent, l.agent.Rules); err != nil {
			return nil, nil, clibase.BadInput(fmt.Errorf("agent rules %s: %w", f.AgentRules, err))
		}
	}
	return e, agent, nil
}

// protectInputs keeps agents from writing the files the engine is built
// from (--rules, --config, --agent-rules): an agent that rewrote them would
// write its own rules. Reading them stays allowed.
func (f *RuleFlags) protectInputs(config string) policy.Option {
	var abs []string
	for _, p := range append(append([]string(nil), f.Rules...), config, f.AgentRules) {
		if p == "" {
			continue
		}
		if a, err := filepath.Abs(p); err == nil {
			p = a
		}
		abs = append(abs, p)
		if real, err := filepath.EvalSymlinks(p); err == nil && real != p {
			abs = append(abs, real)
		}
	}
	return policy.WithProtectedWrites(abs...)
}

// RuleTestFailures splits policy.New's error into rule-test failures and the
// rest.
func RuleTestFailures(err error) (failures []string, other error) {
	var tf policy.TestFailures
	if errors.As(err, &tf) {
		for _, f := range tf {
			failures = append(failures, strings.TrimSpace(f.Error()))
		}
		return failures, nil
	}
	return nil, err
}
