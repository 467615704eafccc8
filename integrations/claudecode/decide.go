package claudecode

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/policy"
)

// Decider decides one call for the hook. An error means it could not
// decide; the hook then answers by its on-error policy, never allow.
type Decider interface {
	Decide(ctx context.Context, c *toolgate.Call) (Verdict, error)
}

// Local decides from rules with a policy engine, in process: no gateway,
// no store. Ask is handed back to the agent's own prompt.
type Local struct {
	Engine *policy.Engine
	// Env is the mode and agent layer to decide in; its Agent nil picks
	// the engine's layer for the call's agent type.
	Env policy.Env
}

// Decide implements Decider.
func (l *Local) Decide(_ context.Context, c *toolgate.Call) (Verdict, error) {
	if l.Engine == nil {
		return Verdict{}, errors.New("no policy engine")
	}
	var d toolgate.Decision
	l.Engine.Decide(c, l.Env, &d)
	return Verdict{Action: d.Action, Reason: decisionReason(&d)}, nil
}

// decisionReason is a decision's reason with the rule that made it.
func decisionReason(d *toolgate.Decision) string {
	r := d.Reason
	if d.Rule != nil && d.Rule.Source != "" && !strings.Contains(r, d.Rule.Source) {
		r += " (" + d.Rule.Source + ")"
	}
	return r
}

// Gateway is the part of a gateway the hook uses. hookhttp.ClientGateway
// implements it over HTTP; BrokerGateway implements it in process.
type Gateway interface {
	// Submit decides a call and, on ask, creates (or attaches to) a
	// pending approval, waiting up to wait for its outcome.
	Submit(ctx context.Context, req approval.SubmitRequest, wait time.Duration) (*approval.Result, error)
	// Approval returns an approval, waiting up to wait while it is pending.
	Approval(ctx context.Context, id string, wait time.Duration) (*toolgate.Approval, error)
	// Cancel ends a pending approval nobody waits for any more.
	Cancel(ctx context.Context, id string) (*toolgate.Approval, error)
	// EndTurn ends a session's turn because the user spoke again: the
	// stop flag of a hard deny clears and turn grants lapse. A session
	// the gateway does not know has no turn to end, and is not an error.
	EndTurn(ctx context.Context, session string) error
}

// AskMode says what the hook does with a call the gateway holds for a
// human.
type AskMode string

// Ask modes.
const (
	// AskPrompt hands the question to the agent's own permission prompt
	// (permissionDecision "ask") and cancels the gateway's approval, so
	// approvers are not left a question nobody waits for.
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

// Remote decides through a gateway: the gateway's rules, grants and
// session state decide, and its audit log records the call.
type Remote struct {
	Gateway Gateway
	// OnAsk is AskPrompt (the default) or AskWait.
	OnAsk AskMode
	// Wait bounds AskWait; zero is DefaultWait. The approval is submitted
	// with the same time to live, so the gateway expires it too.
	Wait time.Duration
}

// cancelTimeout bounds the best-effort cancel of an approval the hook no
// longer waits for.
const cancelTimeout = 2 * time.Second

// Decide implements Decider.
func (r *Remote) Decide(ctx context.Context, c *toolgate.Call) (Verdict, error) {
	if r.Gateway == nil {
		return Verdict{}, errors.New("no gateway")
	}
	wait := r.Wait
	if wait <= 0 {
		wait = DefaultWait
	}
	req := approval.SubmitRequest{Call: *c}
	var poll time.Duration
	if r.OnAsk == AskWait {
		req.TTL = wait
		poll = wait
	}
	deadline := time.Now().Add(wait)
	res, err := r.Gateway.Submit(ctx, req, poll)
	if err != nil {
		return Verdict{}, fmt.Errorf("submit %s call to the gateway: %w", c.Tool, err)
	}
	a := res.Approval
	if a == nil {
		switch res.Decision.Action {
		case toolgate.Allow, toolgate.Deny:
			return Verdict{Action: res.Decision.Action, Reason: decisionReason(&res.Decision)}, nil
		}
		// Ask without an approval should not happen; hand it to the user.
		return Verdict{Action: toolgate.Ask, Reason: decisionReason(&res.Decision)}, nil
	}
	if a.Status == toolgate.StatusPending && r.OnAsk != AskWait {
		r.cancel(ctx, a.ID)
		return Verdict{Action: toolgate.Ask, Reason: decisionReason(&res.Decision)}, nil
	}
	// Wait mode: the gateway holds each request up to its own limit, so
	// poll until the approval is answered or our time is up.
	for a.Status == toolgate.StatusPending {
		left := time.Until(deadline)
		if left <= 0 {
			r.cancel(ctx, a.ID)
			return Verdict{Action: toolgate.Deny, Reason: fmt.Sprintf("no approver answered within %s: %s", wait, decisionReason(&res.Decision))}, nil
		}
		next, err := r.Gateway.Approval(ctx, a.ID, left)
		if err != nil {
			return Verdict{}, fmt.Errorf("wait for approval %s: %w", a.ID, err)
		}
		a = next
	}
	return outcome(a, c)
}

// EndTurn implements TurnEnder: the user spoke again.
func (r *Remote) EndTurn(ctx context.Context, session string) error {
	if r.Gateway == nil {
		return errors.New("no gateway")
	}
	if err := r.Gateway.EndTurn(ctx, session); err != nil {
		return fmt.Errorf("end the turn at the gateway: %w", err)
	}
	return nil
}

// cancel cancels a pending approval, best effort: the hook has answered
// anyway, and the gateway expires what it cannot cancel.
func (r *Remote) cancel(ctx context.Context, id string) {
	ctx, stop := context.WithTimeout(context.WithoutCancel(ctx), cancelTimeout)
	defer stop()
	_, _ = r.Gateway.Cancel(ctx, id)
}

// outcome turns a resolved approval into a verdict: approved is allow
// (with the human's changes to the input), anything else is deny with the
// human's reason and feedback.
func outcome(a *toolgate.Approval, c *toolgate.Call) (Verdict, error) {
	res := a.Resolution
	if res == nil {
		res = &toolgate.Resolution{Status: a.Status}
	}
	by := ""
	if res.By != "" {
		by = " by " + res.By
		if res.Via != "" {
			by += " via " + res.Via
		}
	}
	switch a.Status {
	case toolgate.StatusApproved:
		v := Verdict{Action: toolgate.Allow, Reason: "approved" + by}
		if res.Scope != "" && res.Scope != toolgate.ScopeOnce {
			v.Reason += fmt.Sprintf(" (for this %s)", res.Scope)
		}
		if len(res.Modifications) > 0 && string(res.Modifications) != "null" {
			updated, err := approval.ApplyModifications(c.Args, res.Modifications)
			if err != nil {
				return Verdict{}, fmt.Errorf("approval %s: %w", a.ID, err)
			}
			v.UpdatedInput = updated
			v.Reason += ", with changes to the input"
		}
		return v, nil
	case toolgate.StatusDenied:
		msg := "denied" + by
		if res.Reason != "" {
			msg += ": " + res.Reason
		}
		if res.Feedback != "" && res.Feedback != res.Reason {
			msg += ". Feedback: " + res.Feedback
		}
		if res.DenyMode == toolgate.DenySoft {
			msg += ". Ask the user how to proceed."
		}
		return Verdict{Action: toolgate.Deny, Reason: msg}, nil
	}
	msg := string(a.Status)
	if res.Reason != "" {
		msg += ": " + res.Reason
	}
	return Verdict{Action: toolgate.Deny, Reason: "approval " + msg}, nil
}

// BrokerGateway is a Gateway over a broker in the same process: what the
// gateway's own POST /hooks/claude-code uses.
type BrokerGateway struct {
	Broker *approval.Broker
	// Actor is who the hook acts as: it submits calls, cancels the
	// approvals it stops waiting for and ends turns. With Agent set, it
	// acts only on the sessions that credential owns.
	Actor approval.Actor
}

// Submit implements Gateway.
func (g *BrokerGateway) Submit(ctx context.Context, req approval.SubmitRequest, wait time.Duration) (*approval.Result, error) {
	req.By = g.Actor
	res, err := g.Broker.Submit(ctx, req)
	if err != nil || wait <= 0 || res.Approval == nil || res.Approval.Status != toolgate.StatusPending {
		return res, err
	}
	a, err := g.Approval(ctx, res.Approval.ID, wait)
	if err != nil {
		return nil, err
	}
	res.Approval = a
	return res, nil
}

// Approval implements Gateway.
func (g *BrokerGateway) Approval(ctx context.Context, id string, wait time.Duration) (*toolgate.Approval, error) {
	if wait <= 0 {
		return g.Broker.GetAs(ctx, id, g.Actor)
	}
	if _, err := g.Broker.GetAs(ctx, id, g.Actor); err != nil {
		return nil, err
	}
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	a, err := g.Broker.Wait(wctx, id)
	if err != nil && a != nil && ctx.Err() == nil && wctx.Err() != nil {
		return a, nil // time is up: still pending
	}
	return a, err
}

// Cancel implements Gateway.
func (g *BrokerGateway) Cancel(ctx context.Context, id string) (*toolgate.Approval, error) {
	return g.Broker.Cancel(ctx, id, "the hook no longer waits for this approval (answered in the agent's own prompt, or timed out)", g.Actor)
}

// EndTurn implements Gateway. A session the broker does not know yet (the
// first prompt comes before the session's first call) is left alone:
// ending its turn would create it in the default workspace, and its calls
// in any other workspace would then be refused.
func (g *BrokerGateway) EndTurn(ctx context.Context, session string) error {
	if _, err := g.Broker.Session(ctx, session); err != nil {
		if toolgate.ErrorCodeOf(err) == toolgate.ENotFound {
			return nil
		}
		return err
	}
	_, err := g.Broker.EndTurn(ctx, session, g.Actor)
	if toolgate.ErrorCodeOf(err) == toolgate.ENotFound {
		return nil
	}
	return err
}
