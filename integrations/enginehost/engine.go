package enginehost

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
)

// The engine side: what a Go engine uses to speak the protocol to its
// host. It is the seed engine's ToolApprovalManager and orchestration gate:
// pending approvals keyed by call id with a TTL and a reaper, the session
// mode, the tool names approved "always" and the prefixes approved
// "always_prefix".

// Defaults of the engine side, the seed engine's DEFAULT_APPROVAL_TTL and
// DEFAULT_REAP_INTERVAL.
const (
	DefaultTTL          = toolgate.DefaultTTL
	DefaultReapInterval = toolgate.DefaultSweepInterval
)

// Result is how a call's approval ended.
type Result struct {
	Approved bool
	// Auto is set when the call needed no tool_request: the mode, an
	// "always" tool name or an "always_prefix" prefix approved it.
	Auto bool
	// Scope is the scope the host approved with.
	Scope Scope
	// Answer is the user's answer, for AskUserQuestion only.
	Answer json.RawMessage
	// Modifications are approval_resume's modifications.
	Modifications json.RawMessage
	// Reason says why the call was denied; it goes back to the model.
	Reason string
}

// Engine speaks the engine side of the protocol over a pair of streams
// (the engine's stdin and stdout). It is safe for concurrent use: Gate and
// Suspend may be called from many goroutines while Serve reads commands.
type Engine struct {
	in      io.Reader
	out     *lineWriter
	ttl     time.Duration
	reap    time.Duration
	now     func() time.Time
	handler CommandHandler
	maxLine int

	mu          sync.Mutex
	mode        SessionMode
	pending     map[string]*pendingCall // by call id
	suspended   map[string]*pendingCall // by resume token
	toolNames   map[string]bool
	prefixes    []string
	prefixRules *policy.Ruleset
	msgs        int
	// closed is set when the host has gone: nothing can be answered.
	closed bool
}

type pendingCall struct {
	callID   string
	tool     string
	expires  time.Time
	resolved chan Result // buffered: holds the one result
}

// CommandHandler receives the commands that are not approval commands
// (user prompts and the like): the command's type and its line. It
// returns false for a type it does not know, and the engine answers with
// an error event.
type CommandHandler func(ctx context.Context, typ string, line []byte) bool

// EngineOption configures an Engine.
type EngineOption func(*Engine)

// WithTTL sets how long a call waits for the host (default 5 minutes).
func WithTTL(d time.Duration) EngineOption { return func(e *Engine) { e.ttl = d } }

// WithReapInterval sets how often the reaper sweeps (default 30 seconds).
func WithReapInterval(d time.Duration) EngineOption { return func(e *Engine) { e.reap = d } }

// WithClock injects the clock the TTL is measured with.
func WithClock(now func() time.Time) EngineOption { return func(e *Engine) { e.now = now } }

// WithMode sets the starting mode (Default; the seed's --force is Force).
func WithMode(m SessionMode) EngineOption { return func(e *Engine) { e.mode = m } }

// WithCommandHandler sets the handler of the commands that are not
// approval commands.
func WithCommandHandler(h CommandHandler) EngineOption { return func(e *Engine) { e.handler = h } }

// WithMaxLineBytes bounds one command line (default 16 MiB).
func WithMaxLineBytes(n int) EngineOption { return func(e *Engine) { e.maxLine = n } }

// NewEngine returns an engine reading commands from in and writing events
// to out.
func NewEngine(in io.Reader, out io.Writer, opts ...EngineOption) *Engine {
	e := &Engine{
		in: in, out: newLineWriter(out),
		ttl: DefaultTTL, reap: DefaultReapInterval, now: time.Now,
		mode: ModeDefault, maxLine: DefaultMaxLineBytes,
		pending: map[string]*pendingCall{}, suspended: map[string]*pendingCall{},
		toolNames: map[string]bool{},
	}
	for _, o := range opts {
		o(e)
	}
	return e
}

// Emit writes one event.
func (e *Engine) Emit(v any) error { return e.out.writeJSON(v) }

// Ready emits the ready event with the engine's capabilities.
func (e *Engine) Ready(capabilities ...string) error {
	if capabilities == nil {
		capabilities = []string{}
	}
	return e.Emit(Ready{Type: TypeReady, Capabilities: capabilities})
}

// Mode returns the current mode.
func (e *Engine) Mode() SessionMode {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.mode
}

// SetMode changes the mode for calls gated after it; calls already
// waiting are not re-decided.
func (e *Engine) SetMode(m SessionMode) {
	e.mu.Lock()
	e.mode = m
	e.mu.Unlock()
}

// State is a snapshot of what the engine approves by itself.
type State struct {
	Mode      SessionMode `json:"mode"`
	ToolNames []string    `json:"tool_names"`
	Prefixes  []string    `json:"prefixes"`
	Pending   int         `json:"pending"`
}

// State returns what the engine approves by itself.
func (e *Engine) State() State {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := State{Mode: e.mode, ToolNames: []string{}, Prefixes: append([]string{}, e.prefixes...), Pending: len(e.pending) + len(e.suspended)}
	for n := range e.toolNames {
		s.ToolNames = append(s.ToolNames, n)
	}
	return s
}

// IsToolNameAutoApproved reports whether an "always" approval covers the
// tool name. It is keyed by the exact name: approving Bash "always" never
// approves Write, Edit or Spawn.
func (e *Engine) IsToolNameAutoApproved(name string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.toolNames[name]
}

// prefixPolicy is an engine with no rules of its own: with only prefix
// grants as rules it allows a shell command exactly when every simple
// command in it starts with a granted prefix and it has no construct a
// prefix cannot vet. The command analysis is toolgate's own.
var prefixPolicy = sync.OnceValues(func() (*policy.Engine, error) { return policy.New(nil) })

// IsAutoApprovedCmd reports whether an "always_prefix" grant covers an
// exec call's command. The command is split into its simple commands (on
// ;, &&, ||, |, newlines, and inside subshells and groups) and every one
// must start with a granted prefix; an empty command, command or process
// substitution, backticks and a lone & are never approved.
func (e *Engine) IsAutoApprovedCmd(category, command string) bool {
	if category != CategoryExec {
		return false
	}
	e.mu.Lock()
	rules := e.prefixRules
	e.mu.Unlock()
	if rules == nil {
		return false
	}
	pol, err := prefixPolicy()
	if err != nil {
		return false
	}
	c := toolgate.Call{Tool: "Bash", Args: map[string]any{"command": command}}
	var d toolgate.Decision
	pol.Decide(&c, policy.Env{Mode: toolgate.ModeDefault, Grants: []*policy.Ruleset{rules}}, &d)
	return d.Action == toolgate.Allow
}

// NeedsApproval is the orchestration gate: a call needs approval unless
// the mode auto-approves its category, its tool name was approved
// "always", or (for exec calls) a granted prefix covers its command.
func (e *Engine) NeedsApproval(t Tool) bool {
	if e.Mode().AutoApproves(t.Category) || e.IsToolNameAutoApproved(t.Name) {
		return false
	}
	cmd, _ := t.Args["command"].(string)
	return !e.IsAutoApprovedCmd(t.Category, cmd)
}

// remember applies an approval's scope: "always" adds the tool name,
// "always_prefix" the prefix.
func (e *Engine) remember(tool string, s Scope) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch s.Kind {
	case ScopeAlways:
		e.toolNames[tool] = true
	case ScopeAlwaysPrefix:
		if s.Prefix == "" {
			return
		}
		for _, p := range e.prefixes {
			if p == s.Prefix {
				return
			}
		}
		pol, err := prefixPolicy()
		if err != nil {
			return
		}
		prefixes := append(append([]string{}, e.prefixes...), s.Prefix)
		rules := make([]policy.Rule, len(prefixes))
		for i, p := range prefixes {
			rules[i] = policy.Rule{Tool: "Bash", Pattern: p, Prefix: true, Action: toolgate.Allow, Source: policy.Source{File: "always_prefix"}}
		}
		rs, err := pol.Compile(toolgate.LayerSession, rules)
		if err != nil {
			return
		}
		e.prefixes, e.prefixRules = prefixes, rs
	}
}

// RequestApproval registers a pending approval for a call and returns the
// channel its result arrives on (once). The entry expires after the TTL:
// the reaper then denies it with the timeout reason.
func (e *Engine) RequestApproval(callID, category, toolName string) <-chan Result {
	p := &pendingCall{callID: callID, tool: toolName, expires: e.now().Add(e.ttl), resolved: make(chan Result, 1)}
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		p.resolved <- Result{Reason: HostGoneReason}
		return p.resolved
	}
	if old := e.pending[callID]; old != nil {
		old.resolved <- Result{Reason: "superseded by a new request for the same call id"}
	}
	e.pending[callID] = p
	e.mu.Unlock()
	return p.resolved
}

// Approve resolves a pending call as approved with a scope and, for
// AskUserQuestion, an answer. It reports whether the call was pending.
func (e *Engine) Approve(callID string, scope Scope, answer json.RawMessage) bool {
	e.mu.Lock()
	p := e.pending[callID]
	delete(e.pending, callID)
	e.mu.Unlock()
	if p == nil {
		return false
	}
	e.remember(p.tool, scope)
	r := Result{Approved: true, Scope: scope}
	if p.tool == QuestionTool && len(answer) > 0 {
		r.Answer = answer // never fabricate output for any other tool
	}
	p.resolved <- r
	return true
}

// Resolve resolves a pending call with a result. It reports whether the
// call was pending.
func (e *Engine) Resolve(callID string, r Result) bool {
	e.mu.Lock()
	p := e.pending[callID]
	delete(e.pending, callID)
	e.mu.Unlock()
	if p == nil {
		return false
	}
	p.resolved <- r
	return true
}

// ReapNow denies every pending call and suspension whose TTL has elapsed,
// with toolgate.TimeoutReason, and returns how many it denied.
func (e *Engine) ReapNow() int {
	now := e.now()
	var due []*pendingCall
	e.mu.Lock()
	for id, p := range e.pending {
		if !now.Before(p.expires) {
			due = append(due, p)
			delete(e.pending, id)
		}
	}
	for tok, p := range e.suspended {
		if !now.Before(p.expires) {
			due = append(due, p)
			delete(e.suspended, tok)
		}
	}
	e.mu.Unlock()
	for _, p := range due {
		p.resolved <- Result{Reason: toolgate.TimeoutReason}
	}
	return len(due)
}

// SpawnReaper runs ReapNow every interval (the engine's reap interval if
// zero) until stop is called.
func (e *Engine) SpawnReaper(interval time.Duration) (stop func()) {
	if interval <= 0 {
		interval = e.reap
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				e.ReapNow()
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done) }) }
}

// Gate runs a tool call through the approval gate: if it needs approval
// it emits tool_request and waits for tool_approve, tool_deny or the TTL.
// An approved call is announced with tool_running, a denied one with
// tool_cancelled carrying the reason. If ctx ends first, the call is
// withdrawn and ctx's error returned.
func (e *Engine) Gate(ctx context.Context, callID string, t Tool) (Result, error) {
	if callID == "" || t.Name == "" {
		return Result{}, errors.New("gate: a call needs a call id and a tool name")
	}
	if !e.NeedsApproval(t) {
		r := Result{Approved: true, Auto: true, Scope: Once}
		return r, e.Emit(ToolRunning{Type: TypeToolRunning, CallID: callID, ToolName: t.Name})
	}
	if t.Args == nil {
		t.Args = map[string]any{}
	}
	ch := e.RequestApproval(callID, t.Category, t.Name)
	e.mu.Lock()
	e.msgs++
	msgID := "m" + strconv.Itoa(e.msgs)
	closed := e.closed
	e.mu.Unlock()
	if closed {
		r := <-ch
		return r, e.Emit(ToolCancelled{Type: TypeToolCancelled, CallID: callID, ToolName: t.Name, Reason: r.Reason})
	}
	if err := e.Emit(ToolRequest{Type: TypeToolRequest, MsgID: msgID, CallID: callID, Tool: t}); err != nil {
		e.Resolve(callID, Result{Reason: "the host cannot be reached"})
		return Result{}, err
	}
	var r Result
	select {
	case r = <-ch:
	case <-ctx.Done():
		e.Resolve(callID, Result{Reason: "cancelled"})
		return Result{Reason: "cancelled"}, ctx.Err()
	}
	if r.Approved {
		return r, e.Emit(ToolRunning{Type: TypeToolRunning, CallID: callID, ToolName: t.Name})
	}
	return r, e.Emit(ToolCancelled{Type: TypeToolCancelled, CallID: callID, ToolName: t.Name, Reason: r.Reason})
}

// SuspendRequest describes a call that waits for an out-of-band decision.
type SuspendRequest struct {
	CallID   string
	ToolName string
	// Reason defaults to "Tool requires host decision".
	Reason string
	// Context defaults to the tool name.
	Context string
}

// Suspend runs the hitl_suspend flow: it emits approval_required and
// suspend with a fresh resume token, waits for approval_resume with that
// token (or the TTL), and echoes the resolution as an approval_resume
// event. For AskUserQuestion the answer in modifications.answer is
// returned as Result.Answer.
func (e *Engine) Suspend(ctx context.Context, req SuspendRequest) (Result, error) {
	if req.Reason == "" {
		req.Reason = "Tool requires host decision"
	}
	if req.Context == "" {
		req.Context = req.ToolName
	}
	token := newToken("rt-")
	p := &pendingCall{callID: req.CallID, tool: req.ToolName, expires: e.now().Add(e.ttl), resolved: make(chan Result, 1)}
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return Result{Reason: HostGoneReason}, nil
	}
	e.suspended[token] = p
	e.mu.Unlock()
	withdraw := func() {
		e.mu.Lock()
		delete(e.suspended, token)
		e.mu.Unlock()
	}
	err := e.Emit(ApprovalRequired{Type: TypeApprovalRequired, CallID: req.CallID, ResumeToken: token, CorrelationID: token, Reason: req.Reason, Context: req.Context})
	if err == nil {
		err = e.Emit(Suspend{Type: TypeSuspend, Reason: "awaiting host decision", ResumeToken: token})
	}
	if err != nil {
		withdraw()
		return Result{}, err
	}
	var r Result
	select {
	case r = <-p.resolved:
	case <-ctx.Done():
		withdraw()
		return Result{Reason: "cancelled"}, ctx.Err()
	}
	if r.Approved && req.ToolName == QuestionTool && len(r.Modifications) > 0 {
		var m struct {
			Answer json.RawMessage `json:"answer"`
		}
		if json.Unmarshal(r.Modifications, &m) == nil {
			r.Answer = m.Answer
		}
	}
	echo := ApprovalResume{Type: TypeApprovalResume, ResumeToken: token, Approved: r.Approved, Modifications: r.Modifications}
	return r, e.Emit(echo)
}

// resume resolves a suspended call by its token.
func (e *Engine) resume(token string, approved bool, mods json.RawMessage) bool {
	e.mu.Lock()
	p := e.suspended[token]
	delete(e.suspended, token)
	e.mu.Unlock()
	if p == nil {
		return false
	}
	r := Result{Approved: approved, Modifications: mods}
	if !approved {
		r.Reason = "denied by the host"
	}
	p.resolved <- r
	return true
}

// Serve reads commands until the input ends or ctx ends, running the
// reaper meanwhile. At the end of the input (the host has gone) it denies
// the calls still waiting with HostGoneReason and returns nil. A malformed line, an unknown type or
// a command missing a field gets an error event; reading goes on.
func (e *Engine) Serve(ctx context.Context) error {
	stop := e.SpawnReaper(e.reap)
	defer stop()
	lines := make(chan error, 1)
	lr := newLineReader(e.in, e.maxLine)
	go func() {
		for {
			line, n, err := lr.next()
			if errors.Is(err, errLineTooLong) {
				e.reject(ErrTooLong, n, "", fmt.Sprintf("command line %d is longer than %d bytes; skipped", n, lr.max))
				continue
			}
			if err != nil {
				if errors.Is(err, io.EOF) {
					err = nil
				}
				lines <- err
				return
			}
			e.command(ctx, line, n)
		}
	}()
	select {
	case err := <-lines:
		// Nobody can answer any more: deny what still waits rather than
		// leave it to the TTL.
		e.denyAll(HostGoneReason)
		if err != nil {
			return fmt.Errorf("read commands: %w", err)
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// HostGoneReason is the reason of the calls still waiting when the host
// closes the engine's stdin.
const HostGoneReason = "the host closed the protocol stream (no host response)"

// denyAll denies every pending and suspended call with reason, and every
// call gated from now on.
func (e *Engine) denyAll(reason string) {
	e.mu.Lock()
	e.closed = true
	var all []*pendingCall
	for id, p := range e.pending {
		all = append(all, p)
		delete(e.pending, id)
	}
	for tok, p := range e.suspended {
		all = append(all, p)
		delete(e.suspended, tok)
	}
	e.mu.Unlock()
	for _, p := range all {
		p.resolved <- Result{Reason: reason}
	}
}

// reject emits an error event.
func (e *Engine) reject(code string, line int, callID, msg string) {
	_ = e.Emit(ErrorEvent{Type: TypeError, Source: "engine", Code: code, Message: msg, Line: line, CallID: callID})
}

// command handles one command line.
func (e *Engine) command(ctx context.Context, line []byte, n int) {
	if len(trimSpace(line)) == 0 {
		return
	}
	typ, err := messageType(line)
	if err != nil {
		e.reject(ErrMalformed, n, "", fmt.Sprintf("command line %d: %v", n, err))
		return
	}
	switch typ {
	case TypeToolApprove:
		var c ToolApprove
		if err := json.Unmarshal(line, &c); err != nil || c.CallID == "" {
			e.reject(ErrInvalid, n, c.CallID, fmt.Sprintf("tool_approve: %s", fieldErr(err, "call_id")))
			return
		}
		if !e.Approve(c.CallID, c.Scope, c.Answer) {
			e.reject(ErrInvalid, n, c.CallID, fmt.Sprintf("tool_approve: no call %q is waiting for approval", c.CallID))
		}
	case TypeToolDeny:
		var c ToolDeny
		if err := json.Unmarshal(line, &c); err != nil || c.CallID == "" {
			e.reject(ErrInvalid, n, c.CallID, fmt.Sprintf("tool_deny: %s", fieldErr(err, "call_id")))
			return
		}
		if c.Reason == "" {
			c.Reason = "denied by the host"
		}
		if !e.Resolve(c.CallID, Result{Reason: c.Reason}) {
			e.reject(ErrInvalid, n, c.CallID, fmt.Sprintf("tool_deny: no call %q is waiting for approval", c.CallID))
		}
	case TypeApprovalResume:
		var c ApprovalResume
		if err := json.Unmarshal(line, &c); err != nil || c.ResumeToken == "" {
			e.reject(ErrInvalid, n, "", fmt.Sprintf("approval_resume: %s", fieldErr(err, "resume_token")))
			return
		}
		if !e.resume(c.ResumeToken, c.Approved, c.Modifications) {
			e.reject(ErrInvalid, n, "", fmt.Sprintf("approval_resume: no call is suspended with resume_token %q", c.ResumeToken))
		}
	case TypeSetMode:
		var c SetMode
		if err := json.Unmarshal(line, &c); err != nil {
			e.reject(ErrInvalid, n, "", fmt.Sprintf("set_mode: %s", fieldErr(err, "mode")))
			return
		}
		m, err := ParseSessionMode(c.Mode)
		if err != nil {
			e.reject(ErrInvalid, n, "", "set_mode: "+err.Error())
			return
		}
		e.SetMode(m)
	default:
		if e.handler == nil || !e.handler(ctx, typ, line) {
			e.reject(ErrUnknownType, n, "", fmt.Sprintf("unknown command type %q", typ))
		}
	}
}

// fieldErr words why a message could not be used: its decoding error, or
// the missing field.
func fieldErr(err error, field string) string {
	if err != nil {
		return "invalid: " + err.Error()
	}
	return fmt.Sprintf("%q is missing", field)
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// newToken returns a random token with a prefix.
func newToken(prefix string) string {
	var buf [12]byte
	if _, err := rand.Read(buf[:]); err != nil {
		panic(fmt.Sprintf("crypto/rand failed: %v", err))
	}
	return prefix + hex.EncodeToString(buf[:])
}
