package shell

import (
	"errors"
	"fmt"
	"maps"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// ErrTooLarge is returned by Analyze for a script longer than the analyzer's
// byte limit (WithMaxBytes). A caller must treat it as "ask", never "allow".
var ErrTooLarge = errors.New("shell: command too large to analyse")

// Defaults for the analyzer's limits.
const (
	DefaultMaxBytes = 64 << 10
	DefaultMaxDepth = 8
)

// Analyzer analyses shell command lines. It is immutable after New and safe
// for concurrent use.
type Analyzer struct {
	home      string
	maxBytes  int
	maxDepth  int
	rules     map[string][]ExecFlagRule // WithExecFlags rules, by command name
	extra     map[string]*cmdSpec       // the table's entries with those rules added
	arity     map[string]int            // nil: the built-in table (arityTable)
	maxArityK int                       // most words in an arity key
	budget    Budget
}

// Option configures an Analyzer.
type Option func(*Analyzer)

// WithHome sets the home directory used to expand ~, $HOME and ${HOME} in
// file paths and to recognise critical paths under it. By default paths
// keep their ~ and $HOME.
func WithHome(dir string) Option {
	return func(a *Analyzer) { a.home = strings.TrimRight(dir, "/") }
}

// WithMaxBytes sets the largest script Analyze accepts (default 64 KiB);
// a larger one fails with ErrTooLarge.
func WithMaxBytes(n int) Option {
	return func(a *Analyzer) {
		if n > 0 {
			a.maxBytes = n
		}
	}
}

// WithMaxDepth sets how deeply nested scripts (bash -c, heredoc scripts,
// eval, …) are parsed (default 8). A nested script deeper than that is not
// parsed and the command running it becomes Opaque.
func WithMaxDepth(n int) Option {
	return func(a *Analyzer) {
		if n >= 0 {
			a.maxDepth = n
		}
	}
}

// WithExecFlags adds exec-capable options to the command table
// (BuiltinExecFlags lists the table's own).
func WithExecFlags(rules ...ExecFlagRule) Option {
	return func(a *Analyzer) {
		for _, r := range rules {
			if r.Command == "" {
				continue
			}
			a.rules[r.Command] = append(a.rules[r.Command], r)
		}
	}
}

// WithArity adds or overrides entries of the arity table used by Suggest,
// keyed by the leading words ("npm run": 3).
func WithArity(extra map[string]int) Option {
	return func(a *Analyzer) {
		for k, v := range extra {
			k = strings.Join(strings.Fields(k), " ")
			if k == "" || v < 1 {
				continue
			}
			if a.arity == nil {
				a.arity = maps.Clone(builtinArity.get())
			}
			a.arity[k] = v
		}
	}
}

// New returns an Analyzer with the built-in tables and the given options.
func New(opts ...Option) *Analyzer {
	a := &Analyzer{
		maxBytes: DefaultMaxBytes,
		maxDepth: DefaultMaxDepth,
		budget:   DefaultBudget(),
		rules:    map[string][]ExecFlagRule{},
	}
	for _, o := range opts {
		o(a)
	}
	if len(a.rules) > 0 {
		a.extra = make(map[string]*cmdSpec, len(a.rules))
		for name, rs := range a.rules {
			a.extra[name] = ruleSpec(commandSpec(name), rs)
		}
	}
	if a.arity != nil {
		a.maxArityK = maxWords(a.arity)
	}
	return a
}

// pooledParser is a parser with the reader it parses from, reused
// together: a reader made per parse was an allocation of every call.
type pooledParser struct {
	p *syntax.Parser
	r strings.Reader
}

var parserPool = sync.Pool{New: func() any {
	return &pooledParser{p: syntax.NewParser(syntax.Variant(syntax.LangBash))}
}}

// parse parses src as a bash script with a pooled parser.
func parse(src string) (*syntax.File, error) {
	pp := parserPool.Get().(*pooledParser)
	pp.r.Reset(src)
	f, err := pp.p.Parse(&pp.r, "")
	pp.r.Reset("") // the pool keeps no command line alive
	parserPool.Put(pp)
	return f, err
}

// Analyze parses src as a bash command line and reports its commands, the
// files it touches and its risks. A script that does not parse yields an
// error wrapping the parser's error (syntax.ParseError or
// syntax.LangError); a script over the byte limit yields ErrTooLarge. It
// never panics: an internal failure is returned as an error.
func (a *Analyzer) Analyze(src string) (res *Analysis, err error) {
	return a.AnalyzeEnv(src, nil)
}

// AnalyzeEnv is Analyze for a command line run in an environment the
// caller knows (env; nil for none): a word whose variables it gives and
// the command line does not change is read with their values
// ("cat $PWD/README.md", "ls ${BUILD_DIR:-build}"), and a file named
// through a variable nobody knows is marked File.Unknown.
func (a *Analyzer) AnalyzeEnv(src string, env Vars) (res *Analysis, err error) {
	if len(src) > a.maxBytes {
		return nil, fmt.Errorf("%w: %d bytes, limit %d", ErrTooLarge, len(src), a.maxBytes)
	}
	if strings.Trim(src, " \t\r\n;&|") == "" {
		return &Analysis{}, nil // separators only: nothing runs
	}
	f, err := parse(src)
	if err != nil {
		return nil, fmt.Errorf("shell: cannot parse command: %w", err)
	}
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("shell: internal error analysing command: %v", r)
		}
	}()
	w := walker{a: a, res: &Analysis{Commands: make([]Command, 0, 4)}, left: a.budget, env: env, top: f, line: f}
	w.stmts(f.Stmts, scope{src: src}, &dirState{})
	w.finish(src)
	w.finishBudget(src)
	return w.res, nil
}
