package claudecode

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/toolgate/toolgate"
)

// Exit codes of a command hook, as Claude Code and Codex read them.
const (
	// ExitOK: the answer is the JSON on stdout.
	ExitOK = 0
	// ExitBlock is the blocking error: stdout is ignored, stderr goes to
	// the model, and the call is blocked (PreToolUse) or denied
	// (PermissionRequest). Used only when the input cannot be read well
	// enough to answer in JSON.
	ExitBlock = 2
	// ExitNotice is a non-blocking error: stderr is shown to the user and
	// the agent goes on. Used only for events known to gate nothing (the
	// hook was installed on the wrong event), where blocking would only
	// break the session: a Stop hook that exits 2 keeps the agent from
	// stopping. An unknown event that carries a tool call is ExitBlock.
	ExitNotice = 1
)

// Hook answers hook inputs. The zero value is not usable: set Decider.
type Hook struct {
	// Decider decides the calls: Local or Remote.
	Decider Decider
	// Workspace is the workspace of every call; "" derives it from the
	// project directory ($CLAUDE_PROJECT_DIR for command hooks) or cwd.
	Workspace string
	// OnError is the action when the call cannot be decided (bad input,
	// gateway unreachable, internal error): Deny (the default) or Ask.
	// Never Allow.
	OnError toolgate.Action
	// ProjectDir, if set, is the project directory a workspace is derived
	// from when Workspace is empty.
	ProjectDir string
	// TurnEndTimeout bounds ending a session's turn on UserPromptSubmit,
	// which holds up the user's prompt; zero is DefaultTurnEndTimeout.
	TurnEndTimeout time.Duration
}

// DefaultTurnEndTimeout is how long a UserPromptSubmit waits for the
// gateway to end the session's turn by default.
const DefaultTurnEndTimeout = 10 * time.Second

// TurnEnder is a Decider that keeps session state (a gateway's stop flag
// and turn grants): on UserPromptSubmit the hook ends the session's turn
// through it. A Decider that is not one (Local) has no turns to end.
type TurnEnder interface {
	EndTurn(ctx context.Context, session string) error
}

// Answer is the hook's reply to one input.
type Answer struct {
	// Event is the input's event, "" if it could not be read.
	Event string
	// Tool is the call's tool, when a call was decided.
	Tool string
	// TurnID is the input's turn_id. Only Codex sends one: an answer with
	// it goes to Codex running Claude Code's hook, and is rendered in what
	// Codex reads (package hosts).
	TurnID string
	// Verdict is what was decided (or the on-error verdict).
	Verdict Verdict
	// Err is why the call could not be decided, if it could not.
	Err error
	// Output is the JSON to write on stdout (or as the HTTP body); nil
	// when the exit code says it all.
	Output *Output
	// Exit is the command hook's exit code.
	Exit int
	// Stderr is the message for stderr with ExitBlock and ExitNotice, and
	// with ExitOK for a UserPromptSubmit whose turn could not be ended.
	Stderr string
}

// Handle reads one hook input and answers it. It never answers allow for
// an input it cannot read or a call it cannot decide, and it recovers
// from a panic in the decider as an internal error. A UserPromptSubmit
// ends the session's turn (with a TurnEnder decider) and is always let
// through: exit 0, no output.
func (h *Hook) Handle(ctx context.Context, data []byte) (ans Answer) {
	in, err := ParseInput(data)
	if err != nil {
		var ue *UnsupportedEventError
		if errors.As(err, &ue) && ue.Gates {
			return Answer{Event: ue.Event, Err: err, Exit: ExitBlock, Stderr: "toolgate: " + err.Error() + "; the call is blocked"}
		}
		if errors.As(err, &ue) {
			return Answer{Event: ue.Event, Err: err, Exit: ExitNotice, Stderr: "toolgate: " + err.Error()}
		}
		var ie *InputError
		if errors.As(err, &ie) && ie.Event == EventUserPromptSubmit {
			return promptAnswer(err, "cannot read the UserPromptSubmit input ("+err.Error()+"), so the session's turn was not ended")
		}
		if errors.As(err, &ie) && ie.Event != "" {
			return h.failed(ie.Event, "", err)
		}
		return Answer{Err: err, Exit: ExitBlock, Stderr: "toolgate: " + err.Error() + "; the call is blocked"}
	}
	if in.HookEventName == EventUserPromptSubmit {
		return h.userPrompt(ctx, in)
	}
	defer func() {
		if p := recover(); p != nil {
			ans = h.failed(in.HookEventName, in.TurnID, fmt.Errorf("internal error: %v", p))
		}
	}()
	c := in.Call(h.workspace(in))
	v, err := h.Decider.Decide(ctx, &c)
	if err != nil {
		return h.failed(in.HookEventName, in.TurnID, err)
	}
	if v.Action != toolgate.Allow && v.Action != toolgate.Ask && v.Action != toolgate.Deny {
		return h.failed(in.HookEventName, in.TurnID, fmt.Errorf("decider returned %v", v.Action))
	}
	v = inPlanMode(in.PermissionMode, v)
	return Answer{Event: in.HookEventName, Tool: in.ToolName, TurnID: in.TurnID, Verdict: v, Output: Render(in.HookEventName, v), Exit: ExitOK}
}

// userPrompt answers a UserPromptSubmit: the user spoke again, so a
// gateway ends the session's turn, which clears the stop flag a hard deny
// set and lets turn-scoped grants lapse. Local mode keeps no session state
// and does nothing.
//
// The answer is always exit 0 with no output, which lets the prompt
// through unchanged; a failure only leaves one line on stderr. Blocking
// the prompt (exit 2, or a "block" decision) because toolgate failed would
// lock the user out of their own session: the prompt is how they tell the
// agent what to do next, and no tool runs because of it — every call it
// leads to still goes through PreToolUse. Stdout stays empty because
// Claude Code adds a UserPromptSubmit hook's stdout to the model's context.
func (h *Hook) userPrompt(ctx context.Context, in *Input) (ans Answer) {
	te, ok := h.Decider.(TurnEnder)
	switch {
	case !ok:
		return promptAnswer(nil, "")
	case in.AgentID != "":
		// A subagent's prompt comes from the agent that started it, not
		// from the user: it must not lift the user's hard deny.
		return promptAnswer(nil, "")
	case in.SessionID == "":
		return promptAnswer(errors.New("no session_id"), "the UserPromptSubmit input has no session_id, so no turn was ended")
	}
	defer func() {
		if p := recover(); p != nil {
			err := fmt.Errorf("internal error: %v", p)
			ans = promptAnswer(err, "could not end the turn of session "+in.SessionID+" ("+err.Error()+")")
		}
	}()
	timeout := h.TurnEndTimeout
	if timeout <= 0 {
		timeout = DefaultTurnEndTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := te.EndTurn(ctx, in.SessionID); err != nil {
		return promptAnswer(err, "could not end the turn of session "+in.SessionID+" ("+err.Error()+
			"); the prompt goes on, but calls may still be denied after a hard deny")
	}
	return promptAnswer(nil, "")
}

// promptAnswer is the answer to a UserPromptSubmit: exit 0 and no output,
// with msg (made one line) for stderr when something failed.
func promptAnswer(err error, msg string) Answer {
	ans := Answer{Event: EventUserPromptSubmit, Err: err, Exit: ExitOK}
	if msg != "" {
		ans.Stderr = "toolgate: " + strings.Join(strings.Fields(msg), " ")
	}
	return ans
}

// failed answers a call that could not be decided by the on-error policy.
func (h *Hook) failed(event, turnID string, err error) Answer {
	act := toolgate.Deny
	if h.OnError == toolgate.Ask {
		act = toolgate.Ask
	}
	v := Verdict{Action: act, Reason: "could not decide this call (" + err.Error() + ")"}
	if act == toolgate.Deny {
		v.Reason += "; denied because toolgate fails closed"
	}
	return Answer{Event: event, TurnID: turnID, Verdict: v, Err: err, Output: Render(event, v), Exit: ExitOK}
}

// workspace is the workspace for an input's call.
func (h *Hook) workspace(in *Input) string {
	if h.Workspace != "" {
		return h.Workspace
	}
	dir := h.ProjectDir
	if dir == "" {
		dir = in.Cwd
	}
	return WorkspaceFor(dir)
}

// ProjectDirFromEnv returns $CLAUDE_PROJECT_DIR, which Claude Code sets
// for command hooks: the project root, steadier than the cwd, which moves
// when the agent changes directory.
func ProjectDirFromEnv() string { return os.Getenv("CLAUDE_PROJECT_DIR") }

// inPlanMode keeps the hook from loosening Claude Code's plan mode, in
// which Claude Code makes no changes: a hook's allow skips Claude Code's
// own permission check, so an allow for anything but a read-tier call
// becomes ask. The agent's mode only ever makes the hook stricter;
// toolgate's own mode comes from its config and flags.
func inPlanMode(permissionMode string, v Verdict) Verdict {
	if permissionMode != "plan" || v.Action != toolgate.Allow || v.Tier.Effective() == toolgate.TierRead {
		return v
	}
	v.Action, v.UpdatedInput = toolgate.Ask, nil
	v.Reason = "Claude Code is in plan mode, which makes no changes: " + v.Reason
	return v
}
