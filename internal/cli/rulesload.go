package cli

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
)

// ruleFlags are the flags every command that decides calls shares.
type ruleFlags struct {
	config     string
	rules      stringList
	agentRules string
	// explicitOnly skips the config file found in the default place, for
	// commands that must judge exactly the files they are given.
	explicitOnly bool
}

func (f *ruleFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.config, "config", "", "config file `F` (default $XDG_CONFIG_HOME/toolgate/toolgate.yaml if it exists)")
	fs.Var(&f.rules, "rules", "rules document `F` (.jsonc/.json workspace documents or Claude settings, .yaml configs); repeat for more, in order")
	fs.StringVar(&f.agentRules, "agent-rules", "", "rules document `F` used as the agent layer (its deny rules veto)")
}

// configDir is toolgate's config directory: $XDG_CONFIG_HOME/toolgate.
func configDir() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "toolgate")
}

// dataDir is toolgate's data directory: $XDG_DATA_HOME/toolgate, else
// ~/.local/share/toolgate.
func dataDir() string {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "toolgate")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".local", "share", "toolgate")
}

// documents loads the rule documents in decision order: the built-in
// default workspace document unless a workspace document is given, then
// the --rules files in order, then the config file, whose rules win.
func (f *ruleFlags) documents() ([]*policy.Document, error) {
	var docs []*policy.Document
	haveWorkspace := false
	for _, path := range f.rules {
		d, err := policy.LoadFile(path)
		if err != nil {
			return nil, err
		}
		haveWorkspace = haveWorkspace || d.Workspace
		docs = append(docs, d)
	}
	config := f.config
	if config == "" && !f.explicitOnly {
		if dir := configDir(); dir != "" {
			if p := filepath.Join(dir, "toolgate.yaml"); fileExists(p) {
				config = p
			}
		}
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

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// engineOptions are the options every command builds its engine with: the
// user's home for "~/" and toolgate's own files protected from agents.
func engineOptions() []policy.Option {
	var opts []policy.Option
	if home, err := os.UserHomeDir(); err == nil {
		opts = append(opts, policy.WithHome(home))
	}
	for _, p := range []string{configDir(), dataDir()} {
		if p != "" {
			opts = append(opts, policy.WithProtectedPaths(p))
		}
	}
	// toolgate's own program: an agent that replaced it would decide its
	// own calls. Both the path it was started by and the file it resolves to.
	if exe, err := os.Executable(); err == nil {
		opts = append(opts, policy.WithProtectedWrites(exe))
		if real, err := filepath.EvalSymlinks(exe); err == nil && real != exe {
			opts = append(opts, policy.WithProtectedWrites(real))
		}
	}
	return opts
}

// engine loads the documents and compiles them, with the agent layer from
// --agent-rules if given. Any load or compile error, and any failing rule
// test, is bad input.
func (f *ruleFlags) engine() (*policy.Engine, *policy.Ruleset, error) {
	return f.engineWith(nil)
}

// engineWith is engine with the documents passed through stack (which may
// add layers, as the Claude Code hook adds Claude Code's permissions) and
// extra engine options.
func (f *ruleFlags) engineWith(stack func([]*policy.Document) ([]*policy.Document, error), extra ...policy.Option) (*policy.Engine, *policy.Ruleset, error) {
	docs, err := f.documents()
	if err != nil {
		return nil, nil, badInput(err)
	}
	if stack != nil {
		if docs, err = stack(docs); err != nil {
			return nil, nil, badInput(err)
		}
	}
	e, err := policy.New(docs, append(engineOptions(), extra...)...)
	if err != nil {
		return nil, nil, badInput(fmt.Errorf("load rules: %w", err))
	}
	var agent *policy.Ruleset
	if f.agentRules != "" {
		d, err := policy.LoadFile(f.agentRules)
		if err != nil {
			return nil, nil, badInput(err)
		}
		if agent, err = e.Compile(toolgate.LayerAgent, d.Rules); err != nil {
			return nil, nil, badInput(fmt.Errorf("agent rules %s: %w", f.agentRules, err))
		}
	}
	return e, agent, nil
}

// testFailures splits policy.New's error into rule-test failures and the
// rest.
func testFailures(err error) (failures []string, other error) {
	var tf policy.TestFailures
	if errors.As(err, &tf) {
		for _, f := range tf {
			failures = append(failures, strings.TrimSpace(f.Error()))
		}
		return failures, nil
	}
	return nil, err
}
