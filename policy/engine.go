package policy

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"sync"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/shell"
)

// DefaultMaxCommandBytes is the largest shell command the engine analyses;
// a larger one is decided ask, never allow.
const DefaultMaxCommandBytes = 64 << 10

// Engine is a compiled policy: the static rules of its documents, the
// managed veto layer, agent layers and tool profiles. It is immutable and
// safe for concurrent use; build a new one when rules change.
type Engine struct {
	home string
	// tilde, when set, is what "~" in a call's paths and commands means
	// instead of home: the agent's home in the gateway's view of a call
	// (see Decide and view). Rule patterns still expand with home.
	tilde string
	// allowHome, when set, is what "~" in allow rules and workspace roots
	// expands to instead of home (the gateway's view of a call from
	// another home: see home.go).
	allowHome  string
	protect    []string
	noWrite    []string // paths agents may not write (toolgate's binary)
	roots      []string // workspace roots besides each call's cwd
	maxCommand int
	// sandbox offers confined allows (a workspace's "$sandbox": "auto");
	// sandboxRules is set when a rule's action is "sandbox", which offers
	// them for the calls it decides.
	sandbox, sandboxRules bool
	// staticDenies are the static layer's deny rules alone, when it has a
	// sandbox rule: a sandbox rule never overrides a deny, wherever the
	// deny is written.
	staticDenies *Ruleset

	profile toolProfile
	// questions are the question tools the documents add to the built-in
	// profile's (builtinQuestion).
	questions map[string]bool
	arity     map[string]int
	mode      toolgate.Mode
	shell     *shell.Analyzer

	static  *Ruleset
	managed *Ruleset
	// fileRules is set when a read or write rule denies or asks: then
	// every shell operand is checked as a file too.
	fileRules bool
	agents    map[string]*Ruleset // the agent layers the documents define
	// explore is the built-in explore layer (exploreRules), for the agent
	// types in builtinAgent that no document defines. It is compiled on
	// first use: the hook builds an engine per call, and few calls come
	// from an explore agent.
	explore      func() *Ruleset
	builtinAgent map[string]bool

	// aliases caches the seed spelling of MCP tool names (see mcpKey).
	aliases struct {
		mu sync.RWMutex
		m  map[string]string
	}

	// docs and opts are what the engine was built from: a view for a
	// call's own home directory is built from them again.
	docs []*Document
	opts []Option
	// views caches the engines built for calls from another home (view).
	views struct {
		mu sync.Mutex
		m  map[viewKey]*Engine
	}
}

// Option configures an Engine.
type Option func(*Engine)

// WithHome sets the home directory "~/" and "$HOME/" expand to, in rule
// patterns and in paths.
func WithHome(dir string) Option {
	return func(e *Engine) { e.home = filepath.ToSlash(filepath.Clean(dir)) }
}

// WithProtectedPaths adds files and directories agents may neither read
// nor write by any tool, shell included: toolgate's own config, data and
// credentials (DESIGN §9). The rules go into the managed veto layer.
func WithProtectedPaths(paths ...string) Option {
	return func(e *Engine) { e.protect = append(e.protect, paths...) }
}

// WithProtectedWrites adds files and directories agents may not write or
// delete by any tool, shell included, but may read: toolgate's own
// executable and the rules files it was started with. The rules go into
// the managed veto layer.
func WithProtectedWrites(paths ...string) Option {
	return func(e *Engine) { e.noWrite = append(e.noWrite, paths...) }
}

// WithWorkspaceRoots adds directories that count as inside the workspace
// besides each call's cwd ("$WORKSPACE/" in patterns): the project
// directory, or directories the agent's own settings add.
func WithWorkspaceRoots(dirs ...string) Option {
	return func(e *Engine) {
		for _, d := range dirs {
			if d = path.Clean(filepath.ToSlash(d)); path.IsAbs(d) && d != "/" {
				e.roots = append(e.roots, d)
			}
		}
	}
}

// WithMaxCommandBytes sets the largest shell command analysed.
func WithMaxCommandBytes(n int) Option { return func(e *Engine) { e.maxCommand = n } }

// New compiles documents into an engine. Static rules are taken from the
// documents in order (last match wins), so later documents override
// earlier ones; so do their declarations and modes. Tests the documents
// carry are run, and a failing test is an error.
func New(docs []*Document, opts ...Option) (*Engine, error) {
	return build(docs, opts, true)
}

// build is New, with the documents' tests run or not: a view of the
// engine for another home does not run them again.
func build(docs []*Document, opts []Option, runTests bool) (*Engine, error) {
	e := &Engine{
		maxCommand: DefaultMaxCommandBytes,
		questions:  map[string]bool{},
		arity:      map[string]int{},
		agents:     map[string]*Ruleset{},
		docs:       docs,
		opts:       opts,
	}
	e.aliases.m = map[string]string{}
	for _, o := range opts {
		o(e)
	}
	// Sized first: the hook compiles every document's rules on each call.
	nStatic, nManaged := 0, 0
	for _, d := range docs {
		nStatic, nManaged = nStatic+len(d.Rules), nManaged+len(d.Managed)
	}
	static, managed := make([]Rule, 0, nStatic), make([]Rule, 0, nManaged)
	agentRules := map[string][]Rule{}
	for _, d := range docs {
		if err := e.declare(d); err != nil {
			return nil, err
		}
		static = append(static, d.Rules...)
		managed = append(managed, d.Managed...)
		e.sandboxRules = e.sandboxRules || hasSandboxRule(d.Rules)
		for name, rules := range d.Agents {
			agentRules[name] = append(agentRules[name], rules...)
			e.sandboxRules = e.sandboxRules || hasSandboxRule(rules)
		}
		for name, n := range d.Arity {
			e.arity[name] = n
		}
		for _, q := range d.QuestionTools {
			e.questions[q] = true
		}
		if d.Mode != nil {
			e.mode = *d.Mode
		}
		if d.Sandbox != "" {
			e.sandbox = d.Sandbox == "auto"
		}
		for _, r := range d.Roots {
			// A root widens what is allowed: "~" in it is the allow
			// rules' home.
			home := e.home
			if e.allowHome != "" {
				home = e.allowHome
			}
			WithWorkspaceRoots(expandHome(r, home))(e)
		}
	}
	for _, name := range builtinAgentTypes {
		if _, defined := agentRules[name]; !defined { // a document's own definition replaces the built-in one
			if e.builtinAgent == nil {
				e.builtinAgent = make(map[string]bool, len(builtinAgentTypes))
			}
			e.builtinAgent[name] = true
		}
	}
	if e.builtinAgent != nil {
		e.explore = sync.OnceValue(e.compileExplore)
	}
	e.profile.index()
	shellOpts := []shell.Option{shell.WithArity(e.arity), shell.WithMaxBytes(e.maxCommand)}
	if h := e.tildeHome(); h != "" {
		shellOpts = append(shellOpts, shell.WithHome(h))
	}
	e.shell = shell.New(shellOpts...)

	var err error
	if e.static, err = e.Compile(toolgate.LayerStatic, static); err != nil {
		return nil, fmt.Errorf("static rules: %w", err)
	}
	if hasSandboxRule(static) {
		if e.staticDenies, err = e.Compile(toolgate.LayerStatic, denyRules(static)); err != nil {
			return nil, fmt.Errorf("static rules: %w", err)
		}
	}
	if e.managed, err = e.Compile(toolgate.LayerManaged, e.selfProtection(managed)); err != nil {
		return nil, fmt.Errorf("managed rules: %w", err)
	}
	// Agents defined by one list of rules share one compiled set: a
	// Ruleset is immutable.
	shared := map[*Rule]*Ruleset{}
	for name, rules := range agentRules {
		if len(rules) > 0 {
			if rs := shared[&rules[0]]; rs != nil && rs.Len() == len(rules) {
				e.agents[name] = rs
				continue
			}
		}
		if e.agents[name], err = e.Compile(toolgate.LayerAgent, rules); err != nil {
			return nil, fmt.Errorf("agent %s rules: %w", name, err)
		}
		if len(rules) > 0 {
			shared[&rules[0]] = e.agents[name]
		}
	}
	e.fileRules = e.restrictsFiles(e.static) || e.restrictsFiles(e.managed)
	for _, rs := range e.agents {
		e.fileRules = e.fileRules || e.restrictsFiles(rs)
	}
	// The built-in explore layer restricts no files (its deny is the
	// catch-all, the rest allow; TestExploreLazy), so it changes nothing
	// here and can wait until a call needs it.
	if !runTests {
		return e, nil
	}
	var failures TestFailures
	for _, d := range docs {
		for i := range d.Tests {
			if err := e.runTest(&d.Tests[i]); err != nil {
				failures = append(failures, err)
			}
		}
	}
	if len(failures) > 0 {
		return e, failures
	}
	return e, nil
}

// TestFailures is the error New returns when only the documents' tests
// failed: the engine it returns alongside is complete.
type TestFailures []error

func (f TestFailures) Error() string { return errors.Join(f...).Error() }

// declare adds a document's tool declarations to the profile.
func (e *Engine) declare(d *Document) error {
	if len(d.Tools) > 0 && e.profile.declared == nil {
		e.profile.declared = make(map[string]toolInfo, len(d.Tools))
	}
	for name, spec := range d.Tools {
		switch spec.Kind {
		case "":
			spec.Kind = KindNone
		case KindNone, KindShell, KindRead, KindWrite, KindGlob, KindGrep, KindSkill, KindURL:
		default:
			return fmt.Errorf("%s: tool %s: unknown kind %q", spec.Source, name, spec.Kind)
		}
		if len(spec.Args) == 0 {
			spec.Args = defaultArgs(spec.Kind)
		}
		if spec.Tier == toolgate.TierUnset {
			spec.Tier = toolgate.TierExec
		}
		family := name
		switch {
		case spec.Kind == KindShell:
			family = familyShell // shell analysis and rules are never optional
		case spec.Family != "":
			family = spec.Family
			if info, ok := e.profile.lookup(spec.Family); ok {
				family = info.family
			}
		}
		e.profile.declared[name] = toolInfo{spec: spec, family: family}
		if spec.Question {
			e.questions[name] = true
		}
	}
	return nil
}

// Mode returns the approval mode the documents set (default if none).
func (e *Engine) Mode() toolgate.Mode { return e.mode }

// IsQuestionTool reports whether a tool's approval carries the human's
// answer as its output (AskUserQuestion and configured question tools).
func (e *Engine) IsQuestionTool(tool string) bool { return builtinQuestion(tool) || e.questions[tool] }

// Shell returns the shell analyser the engine uses.
func (e *Engine) Shell() *shell.Analyzer { return e.shell }

// Evaluate decides a call in the given mode with no grants: the dry run of
// `toolgate check` and POST /v1/evaluate.
func (e *Engine) Evaluate(c *toolgate.Call, mode toolgate.Mode) toolgate.Decision {
	var d toolgate.Decision
	e.Decide(c, Env{Mode: mode}, &d)
	return d
}

func (e *Engine) runTest(t *Test) error {
	mode := e.mode
	if t.Mode != nil {
		mode = *t.Mode
	}
	d := e.Evaluate(&t.Call, mode)
	if d.Action == t.Expect {
		return nil
	}
	name := t.Name
	if name == "" {
		name = t.Call.Tool
	}
	return fmt.Errorf("%s: test %q: got %s, want %s (%s)", t.Source, name, d.Action, t.Expect, d.Reason)
}

// builtinAgentTypes are the agent types the built-in explore layer
// (exploreRules) applies to; a document that defines one of them replaces
// it for that type.
var builtinAgentTypes = [...]string{"explore", "Explore"}

// exploreRules returns the built-in explore layer: the agent may read and
// search but nothing else.
func exploreRules() []Rule {
	src := Source{File: "builtin:agent-explore"}
	explore := []Rule{{Tool: "*", Action: toolgate.Deny, Reason: "the explore agent may only read and search", Source: src}}
	for _, t := range []string{"read_file", "glob", "grep", "WebFetch", "WebSearch", "TodoWrite"} {
		explore = append(explore, Rule{Tool: t, Action: toolgate.Allow, Source: src})
	}
	return explore
}

// compileExplore compiles exploreRules for the engine. They always
// compile (TestExploreLazy); were that ever to fail, the layer would deny
// everything, never let the agent through.
func (e *Engine) compileExplore() *Ruleset {
	rs, err := e.Compile(toolgate.LayerAgent, exploreRules())
	if err != nil {
		rs, _ = e.Compile(toolgate.LayerAgent, []Rule{{Tool: "*", Action: toolgate.Deny,
			Reason: "the built-in explore layer did not compile: " + err.Error(), Source: Source{File: "builtin:agent-explore"}}})
	}
	return rs
}

// agentLayer returns the engine's layer for an agent type, or nil.
func (e *Engine) agentLayer(agent string) *Ruleset {
	if rs := e.agents[agent]; rs != nil {
		return rs
	}
	if e.builtinAgent[agent] {
		return e.explore()
	}
	return nil
}

// selfProtectedCommands are the shell commands and endpoints agents may
// not run or call: they answer approvals, change rules, grants, sessions
// and tokens, or rewrite the agent's hook.
var selfProtectedCommands = [...]string{
	"*/v1/approvals/*/approve*", "*/v1/approvals/*/deny*", "*/v1/grants*",
	"*/v1/sessions/*/mode*", "*/v1/sessions/*/abort*", "*/v1/workspaces/*/rules*",
	"*/v1/tokens*", "*/api/tool-confirmation/*", "*tool.approve*", "*tool.deny*",
	"toolgate approvals *", "toolgate grants *", "toolgate tokens *", "toolgate sessions *",
	// Replacing a workspace's rules; writing the agent's hook into its
	// settings, whose flags (--rules, --server, --on-error) decide how
	// the gate answers.
	"toolgate rules put", "toolgate rules put *", "toolgate hook install", "toolgate hook install *",
	// Answer links (their tokens start with the signed claim's opening
	// bytes), pairing a device, signing devices out, the terminal
	// approver.
	"*/answer/eyJ*", "*/ui/pair*", "*/ui/devices*",
	"toolgate pair", "toolgate pair *", "toolgate devices *", "toolgate tui", "toolgate tui *",
}

// ownHomeDirs are the places under a home where toolgate keeps its config
// and data by default (XDG on Linux, Application Support on macOS).
var ownHomeDirs = [...]string{".config/toolgate", ".local/share/toolgate", ".local/state/toolgate", "Library/Application Support/toolgate"}

// ownFileNames are toolgate's store files by name, wherever --data put
// them.
var ownFileNames = [...]string{"**/toolgate.db", "**/toolgate.db-*"}

// selfProtection returns the managed rules that keep agents away from
// toolgate itself (DESIGN §9): its files, and the endpoints and commands
// that answer approvals or change rules, grants, sessions and tokens;
// then the documents' managed rules.
func (e *Engine) selfProtection(managed []Rule) []Rule {
	src := Source{File: "builtin:self-protection"}
	const why = "agents may not approve their own calls or change the gate"
	rules := make([]Rule, 0, len(selfProtectedCommands)+len(e.noWrite)+4*(len(e.protect)+len(ownHomeDirs))+2*len(ownFileNames)+len(managed))
	for _, p := range selfProtectedCommands {
		rules = append(rules, Rule{Tool: "shell_exec", Pattern: p, Action: toolgate.Deny, Reason: why, Source: src})
	}
	const binWhy = "agents may not change toolgate's own program or the rules it was started with"
	for _, p := range e.noWrite {
		if p == "" {
			continue
		}
		rules = append(rules, Rule{Tool: "write_file", Pattern: escapeLiteral(path.Clean(filepath.ToSlash(p))), Action: toolgate.Deny, Reason: binWhy, Source: src})
	}
	const fileWhy = "toolgate's own config, data and credentials are off limits to agents"
	protect := e.protect
	if e.home != "" {
		// Every default place, whichever one this process uses: the
		// gateway's store may live in another than the hook's.
		for _, d := range ownHomeDirs {
			protect = append(protect, e.home+"/"+d)
		}
	}
	for _, p := range ownFileNames {
		for _, tool := range []string{"read_file", "write_file"} {
			rules = append(rules, Rule{Tool: tool, Pattern: p, Action: toolgate.Deny, Reason: fileWhy, Source: src})
		}
	}
	for _, p := range protect {
		if p == "" {
			continue
		}
		p = path.Clean(filepath.ToSlash(p))
		for _, tool := range []string{"read_file", "write_file"} {
			for _, pat := range []string{p, p + "/*"} {
				rules = append(rules, Rule{Tool: tool, Pattern: escapeLiteral(pat), Action: toolgate.Deny, Reason: fileWhy, Source: src})
			}
		}
	}
	return append(rules, managed...)
}

// restrictsFiles reports whether rs has a read or write rule that denies
// or asks for some files (not a tool-wide catch-all).
func (e *Engine) restrictsFiles(rs *Ruleset) bool {
	if rs == nil {
		return false
	}
	for i := range rs.rules {
		r := &rs.rules[i]
		if r.ref.Action == toolgate.Allow || r.catchAll || r.any {
			continue
		}
		if info, ok := e.profile.lookup(r.ref.Tool); ok && (info.family == familyRead || info.family == familyWrite) {
			return true
		}
		if r.families[familyRead] || r.families[familyWrite] {
			return true
		}
	}
	return false
}

// hasSandboxRule reports whether a rule of rules has the action "sandbox".
func hasSandboxRule(rules []Rule) bool {
	for i := range rules {
		if rules[i].Sandbox {
			return true
		}
	}
	return false
}

// denyRules returns the deny rules of rules, in order.
func denyRules(rules []Rule) []Rule {
	var out []Rule
	for _, r := range rules {
		if r.Action == toolgate.Deny {
			out = append(out, r)
		}
	}
	return out
}
