package claudecode

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/rulesgate"
)

// Decider decides one call for the hook. An error means it could not
// decide; the hook then answers by its on-error policy, never allow.
type Decider interface {
	Decide(ctx context.Context, c *toolgate.Call) (Verdict, error)
}

// Local decides from rules with a policy engine, in process: no gateway,
// no store. It is Remote over a rules-only gate (rulesgate), so local and
// gateway decisions are worded and handled by the same code; an ask is
// handed back to the agent's own prompt.
type Local struct {
	Engine *policy.Engine
	// Env is the mode and agent layer to decide in; its Agent nil picks
	// the engine's layer for the call's agent type.
	Env policy.Env
	// Confine, when set, runs a call offered a confined allow under the
	// kernel sandbox instead of asking (Remote.Confine).
	Confine Confiner
}

// Decide implements Decider.
func (l *Local) Decide(ctx context.Context, c *toolgate.Call) (Verdict, error) {
	if l.Engine == nil {
		return Verdict{}, errors.New("no policy engine")
	}
	r := Remote{Gate: rulesgate.New(l.Engine, rulesgate.WithMode(l.Env.Mode), rulesgate.WithAgent(l.Env.Agent)), Confine: l.Confine, local: true}
	return r.Decide(ctx, c)
}

// decisionReason is a decision's reason with the rule that made it.
func decisionReason(d *toolgate.Decision) string {
	r := d.Reason
	if d.Rule != nil && d.Rule.Source != "" && !strings.Contains(r, d.Rule.Source) {
		r += " (" + d.Rule.Source + ")"
	}
	return r
}

// AskMode says what the hook does with a call the gateway holds for a
// human.
type AskMode string

// Ask modes.
const (
	// AskPrompt hands the question to the agent's own permission prompt
	// (permissionDecision "ask"). The call is submitted without being held
	// (SubmitRequest.NoHold): the gateway records the ask but creates no
	// approval, so approvers are not shown a question nobody waits for.
	AskPrompt AskMode = "prompt"
	// AskWait holds the call for a remote approver (web UI, phone, tui)
	// up to the wait time; no answer in time is a deny.
	AskWait AskMode = "wait"
)

// ParseAskMode reads an --on-ask value.
func ParseAskMode(s string) (AskMode, error) {
	switch AskMode(s) {
	case AskPrompt, AskWait:
		return AskMode(s), nil
	}
	return "", fmt.Errorf("unknown ask mode %q (want prompt or wait)", s)
}

// DefaultWait is how long AskWait holds a call by default.
const DefaultWait = 2 * time.Minute

// HookGate is the part of a toolgate.Gate the hook uses: submit a call,
// wait for its approval, withdraw it, end a session's turn. The lean hook
// binary implements it over HTTP without net/http (internal/hookgate).
type HookGate interface {
	Submit(ctx context.Context, req toolgate.SubmitRequest) (*toolgate.Result, error)
	Wait(ctx context.Context, id string) (*toolgate.Approval, error)
	Cancel(ctx context.Context, id, reason string) (*toolgate.Approval, error)
	EndTurn(ctx context.Context, session string) (*toolgate.Session, error)
}

// Remote decides through a gateway: the gateway's rules, grants and
// session state decide, and its audit log records the call. The Gate is the
// broker in process (the gateway's own POST /hooks/claude-code) or the HTTP
// client (a command hook).
type Remote struct {
	Gate HookGate
	// Actor names the hook to an in-process gate; zero is the agent
	// credential "hook" via "hook", so a hook may no more end another
	// credential's turn or withdraw its approval in process than over
	// HTTP. The HTTP client acts as its token whatever this says.
	Actor toolgate.Actor
	// OnAsk is AskPrompt (the default) or AskWait.
	OnAsk AskMode
	// Wait bounds AskWait; zero is DefaultWait. The approval is submitted
	// with the same time to live, so the gateway expires it too.
	Wait time.Duration
	// Confine, when set, turns an ask that offers a confined allow
	// (Decision.Sandbox, DESIGN §3.7) into an allow of the call rewritten
	// to run under the kernel sandbox, in either ask mode: the call is
	// submitted with SubmitRequest.Confined, so the gateway records it
	// allowed confined and holds nothing. Nil: such a call asks.
	Confine Confiner
	// Home is the agent's home directory, sent with each call that names
	// none (Call.Home) so that "~" in it means the agent's home at the
	// gateway, not the gateway's own.
	Home string
	// local is set for the rules decided in this process (Local): there
	// is no gateway to tell that a call runs confined.
	local bool
}

// canConfine reports whether r.Confine would run c in the sandbox: the
// host's shell tool with a command, a kernel that confines, the sandbox
// program installed.
func (r *Remote) canConfine(c *toolgate.Call) bool {
	if r.Confine == nil || r.local || c.Cwd == "" {
		return false
	}
	_, ok := r.Confine(c, &toolgate.Confinement{Profile: "default", Workspaces: []string{c.Cwd}})
	return ok
}

// cancelTimeout bounds the best-effort cancel of an approval the hook no
// longer waits for.
const cancelTimeout = 2 * time.Second

// withdrawReason is what the approvers see on an approval the hook stopped
// waiting for.
const withdrawReason = "the hook no longer waits for this approval (answered in the agent's own prompt, or timed out)"

func (r *Remote) ctx(ctx context.Context) context.Context {
	a := r.Actor
	if a.Name == "" {
		a = toolgate.Actor{Name: "hook", Via: "hook", Agent: true}
	}
	return toolgate.WithActor(ctx, a)
}

// Decide implements Decider.
func (r *Remote) Decide(ctx context.Context, c *toolgate.Call) (Verdict, error) {
	if r.Gate == nil {
		return Verdict{}, errors.New("no gateway")
	}
	ctx = r.ctx(ctx)
	wait := r.Wait
	if wait <= 0 {
		wait = DefaultWait
	}
	req := toolgate.SubmitRequest{Call: *c, NoHold: r.OnAsk != AskWait, Confined: r.canConfine(c)}
	if req.Call.Home == "" {
		req.Call.Home = r.Home
	}
	if r.OnAsk == AskWait {
		req.TTL = wait
	}
	res, err := r.Gate.Submit(ctx, req)
	if err != nil {
		return Verdict{}, fmt.Errorf("submit %s call to the gateway: %w", c.Tool, err)
	}
	a := res.Approval
	if a == nil {
		switch res.Decision.Action {
		case toolgate.Allow, toolgate.Deny:
			return Verdict{Action: res.Decision.Action, Reason: decisionReason(&res.Decision), Tier: res.Decision.Tier}, nil
		}
		// Ask without an approval: the prompt mode's unheld ask, a call
		// allowed confined (Confined), or, waiting, a gateway that did not
		// hold it: the user's own prompt decides, unless the call may run
		// confined and this host can run it so.
		if res.Decision.Sandbox != nil && r.Confine != nil {
			if updated, ok := r.Confine(c, res.Decision.Sandbox); ok {
				return Verdict{Action: toolgate.Allow, Reason: "runs in toolgate's kernel sandbox: " + decisionReason(&res.Decision), Tier: res.Decision.Tier, UpdatedInput: updated}, nil
			}
		}
		return Verdict{Action: toolgate.Ask, Reason: decisionReason(&res.Decision), Tier: res.Decision.Tier}, nil
	}
	if a.Status == toolgate.StatusPending && r.OnAsk != AskWait {
		// The call id was held before (a resubmission, or an earlier hook
		// in wait mode): it attached to that approval, which nobody waits
		// for now.
		r.cancel(ctx, a.ID)
		return Verdict{Action: toolgate.Ask, Reason: decisionReason(&res.Decision), Tier: res.Decision.Tier}, nil
	}
	if a.Status == toolgate.StatusPending {
		wctx, stop := context.WithTimeout(ctx, wait)
		a, err = r.Gate.Wait(wctx, a.ID)
		stop()
		// Our wait ended, or the gateway expired the approval at the same
		// time to live: one wording for both.
		if (err != nil && wctx.Err() != nil && ctx.Err() == nil) || (err == nil && a.Status == toolgate.StatusExpired) {
			r.cancel(ctx, res.Approval.ID)
			return Verdict{Action: toolgate.Deny, Reason: fmt.Sprintf("no approver answered within %s: %s", wait, decisionReason(&res.Decision))}, nil
		}
		if err != nil {
			return Verdict{}, fmt.Errorf("wait for approval %s: %w", res.Approval.ID, err)
		}
	}
	return outcome(a, c)
}

// EndTurn implements TurnEnder: the user spoke again. A session the
// gateway does not know yet (the first prompt comes before the session's
// first call) has no turn to end, and is not an error.
func (r *Remote) EndTurn(ctx context.Context, session string) error {
	if r.Gate == nil {
		return errors.New("no gateway")
	}
	_, err := r.Gate.EndTurn(r.ctx(ctx), session)
	if err != nil && toolgate.ErrorCodeOf(err) != toolgate.ENotFound {
		return fmt.Errorf("end the turn at the gateway: %w", err)
	}
	return nil
}

// cancel withdraws a pending approval, best effort: the hook has answered
// anyway, and the gateway expires what it cannot cancel.
func (r *Remote) cancel(ctx context.Context, id string) {
	ctx, stop := context.WithTimeout(context.WithoutCancel(ctx), cancelTimeout)
	defer stop()
	_, _ = r.Gate.Cancel(ctx, id, withdrawReason)
}

// outcome turns a resolved approval into a verdict, worded by
// Approval.Outcome; an approval with the human's changes to the input
// carries the complete updated input.
func outcome(a *toolgate.Approval, c *toolgate.Call) (Verdict, error) {
	action, msg := a.Outcome()
	v := Verdict{Action: action, Reason: msg}
	if action == toolgate.Ask {
		// Still pending after the wait: never an allow.
		v.Action = toolgate.Deny
		return v, nil
	}
	if res := a.Resolution; action == toolgate.Allow && res != nil && len(res.Modifications) > 0 && string(res.Modifications) != "null" {
		updated, err := toolgate.ApplyModifications(c.Args, res.Modifications)
		if err != nil {
			return Verdict{}, fmt.Errorf("approval %s: %w", a.ID, err)
		}
		v.UpdatedInput = updated
	}
	return v, nil
}
