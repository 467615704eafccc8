package enginehost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
)

// Config configures Run.
type Config struct {
	// Command is the engine: program and arguments.
	Command []string
	// Env is the engine's environment (default: the host's).
	Env []string
	// Dir is the engine's working directory (default: the host's).
	Dir string
	// Stdin carries commands for the engine from whoever runs the host
	// (user prompts, set_mode); Stdout receives the engine's events
	// (everything but the approval requests the host answers) and the
	// host's error events. Stderr receives the engine's stderr.
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Decider decides the calls: a Gateway, or Local rules.
	Decider Decider
	// Session and Workspace place the engine's calls at the gateway.
	Session   string
	Workspace string
	// TTL overrides how long an approval waits at the gateway (its
	// default: 5 minutes).
	TTL time.Duration
	// Logger gets a line per decision at info level (default: discard).
	Logger *slog.Logger
	// MaxLineBytes bounds one protocol line (default 16 MiB).
	MaxLineBytes int
	// StopGrace is how long the engine has to exit after an interrupt
	// when ctx ends (default 5 s).
	StopGrace time.Duration
	// Passthrough puts the host between an existing host (on Stdin and
	// Stdout) and its engine, which keeps its own approval UI: see
	// passthrough.go.
	Passthrough bool
}

// host runs an engine as a child process and answers its approval
// requests.
type host struct {
	cfg      Config
	engineIn *lineWriter
	out      *lineWriter
	log      *slog.Logger

	ctx    context.Context // ends when the engine is gone
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	requests map[string]Tool // recent tool_requests by call id
	order    []string
	// Pass-through: requests forwarded to the host and not yet answered,
	// and those toolgate answered itself (by relayKey).
	relay    map[string]relayed
	answered map[string]bool
}

// maxRemembered bounds the tool_requests remembered for approval_required.
const maxRemembered = 1024

// Run starts the engine and serves it until it exits, returning its exit
// code. When ctx ends, the engine is interrupted (and killed after the
// grace period). The end of Stdin stops only the reading of commands: the
// engine's stdin stays open, since the host answers the engine on it
// (`toolgate host … < /dev/null` in CI), and closes when the engine exits
// — except in pass-through mode, where the host in front owns it. Approvals
// still pending when the engine exits are cancelled at the gateway.
func Run(ctx context.Context, cfg Config) (int, error) {
	if len(cfg.Command) == 0 || cfg.Command[0] == "" {
		return 0, errors.New("enginehost: no engine command")
	}
	if cfg.Decider == nil {
		return 0, errors.New("enginehost: no decider")
	}
	if cfg.Stdin == nil {
		cfg.Stdin = strings.NewReader("")
	}
	if cfg.Stdout == nil {
		cfg.Stdout = io.Discard
	}
	if cfg.Stderr == nil {
		cfg.Stderr = io.Discard
	}
	if cfg.Session == "" {
		cfg.Session = newToken("host-")
	}
	if cfg.StopGrace <= 0 {
		cfg.StopGrace = 5 * time.Second
	}
	h := &host{cfg: cfg, out: newLineWriter(cfg.Stdout), log: cfg.Logger, requests: map[string]Tool{},
		relay: map[string]relayed{}, answered: map[string]bool{}}
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	return h.run(ctx)
}

func (h *host) run(ctx context.Context) (int, error) {
	cmd := exec.CommandContext(ctx, h.cfg.Command[0], h.cfg.Command[1:]...)
	cmd.Env, cmd.Dir, cmd.Stderr = h.cfg.Env, h.cfg.Dir, h.cfg.Stderr
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = h.cfg.StopGrace
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return 0, fmt.Errorf("engine stdin: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, fmt.Errorf("engine stdout: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("start engine %s: %w", h.cfg.Command[0], err)
	}
	h.engineIn = newLineWriter(stdin)
	h.ctx, h.cancel = context.WithCancel(context.WithoutCancel(ctx))
	defer h.cancel()

	if h.cfg.Passthrough {
		go h.readPassCommands(stdin)
	} else {
		go h.readCommands()
	}
	readErr := h.readEvents(stdout)
	waitErr := cmd.Wait()
	// The engine is gone: nobody waits for its approvals any more.
	h.cancel()
	h.wg.Wait()
	if readErr != nil {
		h.log.Warn("reading the engine's output", "err", readErr)
	}
	if cmd.ProcessState == nil {
		return 1, fmt.Errorf("engine %s: %w", h.cfg.Command[0], waitErr)
	}
	code := cmd.ProcessState.ExitCode()
	if code < 0 { // killed by a signal
		code = 1
		if ctx.Err() != nil {
			return code, fmt.Errorf("engine %s stopped: %w", h.cfg.Command[0], ctx.Err())
		}
		return code, fmt.Errorf("engine %s: %w", h.cfg.Command[0], waitErr)
	}
	return code, nil
}

// toEngine writes a command to the engine; a failure (the engine has
// gone) is logged, never fatal.
func (h *host) toEngine(v any) {
	if err := h.engineIn.writeJSON(v); err != nil {
		h.log.Warn("write to engine", "err", err)
	}
}

// report writes an error event on the host's stdout.
func (h *host) report(code string, line int, callID, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	h.log.Warn("protocol error", "code", code, "line", line, "msg", msg)
	if err := h.out.writeJSON(ErrorEvent{Type: TypeError, Source: "toolgate", Code: code, Message: msg, Line: line, CallID: callID}); err != nil {
		h.log.Warn("write event", "err", err)
	}
}

// readCommands forwards the commands on Stdin to the engine, applying
// set_mode at the gate and refusing approval answers (the gate answers).
// The end of Stdin leaves the engine's stdin open: the host still answers
// the engine's approval requests on it.
func (h *host) readCommands() {
	lr := newLineReader(h.cfg.Stdin, h.cfg.MaxLineBytes)
	for {
		line, n, err := lr.next()
		if errors.Is(err, errLineTooLong) {
			h.report(ErrTooLong, n, "", "command line %d is longer than %d bytes; skipped", n, lr.max)
			continue
		}
		if err != nil {
			return
		}
		if h.ctx.Err() != nil {
			return
		}
		if len(trimSpace(line)) == 0 {
			continue
		}
		typ, err := messageType(line)
		if err != nil {
			h.report(ErrMalformed, n, "", "command line %d: %v; not forwarded to the engine", n, err)
			continue
		}
		switch typ {
		case TypeSetMode:
			h.setMode(line, n)
		case TypeToolApprove, TypeToolDeny, TypeApprovalResume:
			h.report(ErrRefused, n, "", "%s: toolgate answers the engine's approvals itself; answer through the gateway (web UI, API, toolgate approvals)", typ)
		default:
			if err := h.engineIn.writeLine(line); err != nil {
				h.log.Warn("forward command", "err", err)
			}
		}
	}
}

// setMode applies a set_mode command at the gate: the session's mode
// becomes default, auto-edit or yolo. The engine's own mode is left at
// Default, so every call still reaches the gate and its deny rules.
func (h *host) setMode(line []byte, n int) {
	var c SetMode
	if err := json.Unmarshal(line, &c); err != nil {
		h.report(ErrInvalid, n, "", "set_mode: %v", err)
		return
	}
	m, err := ParseSessionMode(c.Mode)
	if err != nil {
		h.report(ErrInvalid, n, "", "set_mode: %v", err)
		return
	}
	ctx, cancel := context.WithTimeout(h.ctx, 30*time.Second)
	defer cancel()
	if err := h.cfg.Decider.SetMode(ctx, h.cfg.Session, m.ToolgateMode()); err != nil {
		h.report(ErrRefused, n, "", "set_mode %s: the gate kept the session's mode: %s", c.Mode, toolgate.ErrorMessageOf(err))
		return
	}
	h.log.Info("mode changed", "mode", m, "toolgate_mode", m.ToolgateMode())
}

// readEvents reads the engine's events until its stdout ends.
func (h *host) readEvents(stdout io.Reader) error {
	lr := newLineReader(stdout, h.cfg.MaxLineBytes)
	for {
		line, n, err := lr.next()
		if errors.Is(err, errLineTooLong) {
			h.report(ErrTooLong, n, "", "engine line %d is longer than %d bytes; skipped", n, lr.max)
			continue
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if len(trimSpace(line)) == 0 {
			continue
		}
		typ, err := messageType(line)
		if err != nil {
			h.report(ErrMalformed, n, "", "engine line %d: %v", n, err)
			continue
		}
		switch {
		case h.cfg.Passthrough && typ == TypeToolRequest:
			h.passToolRequest(line, n)
		case h.cfg.Passthrough && typ == TypeApprovalRequired:
			h.passApprovalRequired(line, n)
		case h.cfg.Passthrough && typ == TypeSuspend:
			h.passSuspend(line)
		case typ == TypeToolRequest:
			h.toolRequest(line, n)
		case typ == TypeApprovalRequired:
			h.approvalRequired(line, n)
		case typ == TypeSuspend:
			// The engine waits for the approval_resume the host sends when
			// the matching approval_required is decided.
		default:
			h.forward(line)
		}
	}
}

func (h *host) forward(line []byte) {
	if err := h.out.writeLine(line); err != nil {
		h.log.Warn("forward event", "err", err)
	}
}

// remember keeps a tool_request's tool for a later approval_required.
func (h *host) remember(callID string, t Tool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.requests[callID]; !ok {
		h.order = append(h.order, callID)
		if len(h.order) > maxRemembered {
			delete(h.requests, h.order[0])
			h.order = h.order[1:]
		}
	}
	h.requests[callID] = t
}

func (h *host) recall(callID string) (Tool, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	t, ok := h.requests[callID]
	return t, ok
}

// call is the toolgate call for an engine's tool.
func (h *host) call(callID string, t Tool) toolgate.Call {
	c := toolgate.Call{
		ID: callID, Session: h.cfg.Session, Workspace: h.cfg.Workspace,
		Tool: t.Name, Args: t.Args, Tier: t.Tier(),
	}
	if t.Category == CategoryMCP {
		c.Origin = "mcp"
	}
	return c
}

// toolRequest answers a tool_request: at once when the rules decide,
// after the approvers answer otherwise.
func (h *host) toolRequest(line []byte, n int) {
	var req ToolRequest
	err := json.Unmarshal(line, &req)
	if err != nil || req.CallID == "" || req.Tool.Name == "" {
		why := fieldErr(err, "call_id")
		if err == nil && req.CallID != "" {
			why = `"tool.name" is missing`
		}
		h.report(ErrInvalid, n, req.CallID, "tool_request: %s", why)
		if req.CallID != "" {
			// Never leave the engine waiting on a call the host cannot read.
			h.toEngine(ToolDeny{Type: TypeToolDeny, CallID: req.CallID, Reason: "toolgate could not read this tool_request: " + why})
		}
		return
	}
	h.remember(req.CallID, req.Tool)
	c := h.call(req.CallID, req.Tool)
	h.decide(c, "", func(a verdict) {
		if a.approved {
			h.toEngine(ToolApprove{Type: TypeToolApprove, CallID: req.CallID, Scope: a.scope, Answer: a.answer})
		} else {
			h.toEngine(ToolDeny{Type: TypeToolDeny, CallID: req.CallID, Reason: a.reason})
		}
	})
}

// contextTool reads "Tool: detail" from approval_required's context.
var contextTool = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_.:-]*):\s*(.*)$`) })

// approvalRequired decides a suspended call and resumes the engine with
// approval_resume. The call's tool is the one of its tool_request if the
// host saw one, else the tool named in the context ("AskUserQuestion:
// Which deployment target?").
func (h *host) approvalRequired(line []byte, n int) {
	var req ApprovalRequired
	err := json.Unmarshal(line, &req)
	if err != nil || req.ResumeToken == "" {
		h.report(ErrInvalid, n, req.CallID, "approval_required: %s; the engine stays suspended until its TTL", fieldErr(err, "resume_token"))
		return
	}
	id, t := h.suspendedCall(req)
	confirm := ""
	if h.isQuestion(t.Name) {
		// A gateway holds the question for a person whatever the rules
		// or the mode allow (Force allows everything), as the seed puts
		// it to the user; without one the check below refuses it.
		confirm = QuestionConfirm
	}
	h.decide(h.call(id, t), confirm, func(a verdict) {
		if a.approved && len(a.answer) == 0 && !a.byPerson && h.isQuestion(t.Name) {
			// Rules or a mode (Force allows everything) approved a
			// question nobody answered: resuming approved would hand the
			// engine an empty answer as the user's.
			a = verdict{reason: NoAnswerReason}
		}
		r := ApprovalResume{Type: TypeApprovalResume, ResumeToken: req.ResumeToken, Approved: a.approved}
		if a.approved {
			r.Modifications = withAnswer(a.modifications, a.answer)
		}
		h.toEngine(r)
	})
}

// QuestionConfirm is why a gateway holds a question tool's suspension
// for a person (SubmitRequest.Confirm).
const QuestionConfirm = "a question for the user: only a person can answer it, whatever the rules or the mode allow"

// NoAnswerReason is the reason a question tool's suspension is resumed
// as denied when rules or a mode allowed it: only a person can answer a
// question, through the gateway's approvers.
const NoAnswerReason = "a question needs a person's answer, and no rule or mode can give one; answer it through toolgate's approvers (toolgate host --server URL), in a mode that asks"

// isQuestion reports whether tool is a question tool: as the local rules
// declare, or as the built-in profile knows when a gateway decides.
func (h *host) isQuestion(tool string) bool {
	if q, ok := h.cfg.Decider.(interface{ IsQuestionTool(string) bool }); ok {
		return q.IsQuestionTool(tool)
	}
	return policy.BuiltinQuestion(tool)
}

// suspendedCall returns the call id and tool of an approval_required.
func (h *host) suspendedCall(req ApprovalRequired) (string, Tool) {
	t, ok := h.recall(req.CallID)
	if !ok {
		t = Tool{Name: "HostDecision", Args: map[string]any{}}
		if m := contextTool().FindStringSubmatch(req.Context); m != nil {
			t.Name = m[1]
			t.Args["question"] = m[2]
		}
		t.Args["context"] = req.Context
		if req.Reason != "" {
			t.Args["reason"] = req.Reason
		}
	}
	id := req.CallID
	if id == "" {
		id = "resume:" + req.ResumeToken
	}
	return id, t
}

// withAnswer puts a question tool's answer into modifications as
// {"answer": …}, keeping the other modifications.
func withAnswer(mods, answer json.RawMessage) json.RawMessage {
	if len(answer) == 0 {
		return mods
	}
	m := map[string]json.RawMessage{}
	if len(mods) > 0 && json.Unmarshal(mods, &m) != nil {
		m = map[string]json.RawMessage{"modifications": mods}
	}
	m["answer"] = answer
	out, err := json.Marshal(m)
	if err != nil {
		return mods
	}
	return out
}

// verdict is the host's final word on a call.
type verdict struct {
	approved      bool
	scope         Scope
	answer        json.RawMessage
	modifications json.RawMessage
	reason        string
	// byPerson is set when an approver answered, not the rules or a mode.
	byPerson bool
}

// decide submits a call (with confirm, SubmitRequest.Confirm, when a
// person must answer it) and calls answer with the verdict: at once when
// the rules decide, from a goroutine when approvers do. A gateway that
// fails is a deny (fail closed); a pending approval the gateway never
// resolves is denied with the timeout reason after its TTL and one sweep
// interval.
func (h *host) decide(c toolgate.Call, confirm string, answer func(verdict)) {
	ctx, cancel := context.WithTimeout(h.ctx, 30*time.Second)
	res, err := h.cfg.Decider.Decide(ctx, toolgate.SubmitRequest{Call: c, TTL: h.cfg.TTL, Confirm: confirm})
	cancel()
	if err != nil {
		h.log.Warn("decide", "call", c.ID, "tool", c.Tool, "err", err)
		answer(verdict{reason: "toolgate could not decide this call, so it is denied: " + toolgate.ErrorMessageOf(err)})
		return
	}
	if action, final := res.Final(); final && res.Approval == nil {
		h.log.Info("decided", "call", c.ID, "tool", c.Tool, "action", action, "reason", res.Decision.Reason)
		if action == toolgate.Allow {
			answer(verdict{approved: true, scope: Once})
		} else {
			answer(verdict{reason: res.Decision.Reason})
		}
		return
	}
	a := res.Approval
	if a.Status != toolgate.StatusPending {
		answer(verdictOf(a))
		return
	}
	h.log.Info("waiting for approval", "call", c.ID, "tool", c.Tool, "approval", a.ID, "reason", a.Decision.Reason)
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		ttl := a.ExpiresAt.Sub(a.CreatedAt)
		if ttl <= 0 {
			ttl = toolgate.DefaultTTL
		}
		// Measured on the host's clock from now, so clock skew between
		// host and gateway cannot cut the wait short.
		wctx, cancel := context.WithTimeout(h.ctx, ttl+toolgate.DefaultSweepInterval)
		defer cancel()
		got, err := h.cfg.Decider.Wait(wctx, a)
		switch {
		case err == nil:
			h.log.Info("approval resolved", "call", c.ID, "approval", a.ID, "status", got.Status)
			answer(verdictOf(got))
		case h.ctx.Err() != nil:
			// The engine has gone: withdraw the approval.
			h.withdraw(a.ID)
		case wctx.Err() != nil:
			h.withdraw(a.ID)
			answer(verdict{reason: toolgate.TimeoutReason})
		default:
			h.log.Warn("wait for approval", "approval", a.ID, "err", err)
			answer(verdict{reason: "toolgate lost track of this call's approval, so it is denied: " + toolgate.ErrorMessageOf(err)})
		}
	}()
}

// withdraw cancels an approval at the gateway, best effort.
func (h *host) withdraw(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := h.cfg.Decider.Cancel(ctx, id, "the engine stopped waiting for approval"); err != nil && toolgate.ErrorCodeOf(err) != toolgate.EConflict {
		h.log.Warn("cancel approval", "approval", id, "err", err)
	}
}

// verdictOf turns a resolved approval into the host's verdict: the scope
// the approver chose as the engine knows scopes, a question tool's answer,
// or the reason of a denial, expiry or cancellation.
func verdictOf(a *toolgate.Approval) verdict {
	res := a.Resolution
	if res == nil {
		res = &toolgate.Resolution{Status: a.Status}
	}
	switch a.Status {
	case toolgate.StatusApproved:
		return verdict{approved: true, scope: engineScope(res), answer: res.Answer, modifications: res.Modifications, byPerson: res.Via != "cascade"}
	case toolgate.StatusExpired:
		return verdict{reason: toolgate.TimeoutReason}
	}
	reason := res.Reason
	if reason == "" {
		reason = fmt.Sprintf("the call's approval was %s", a.Status)
	}
	return verdict{reason: reason}
}

// engineScope is the scope the engine is told for an approval: "always"
// for a tool grant, always_prefix for a prefix grant, when the grant lasts
// at least as long as the engine's session (session, workspace, global);
// "once" for the rest, which the gate itself keeps allowing (a turn grant,
// a glob pattern the engine cannot express, a cascade).
func engineScope(res *toolgate.Resolution) Scope {
	switch res.Scope {
	case toolgate.ScopeSession, toolgate.ScopeWorkspace, toolgate.ScopeGlobal:
	default:
		return Once
	}
	switch res.Grant {
	case toolgate.GrantTool:
		return Always
	case toolgate.GrantPrefix:
		if res.Pattern != "" {
			return AlwaysPrefix(res.Pattern)
		}
	}
	return Once
}
