package enginehost

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
)

// Pass-through mode (Config.Passthrough) puts toolgate between an existing
// host and its engine, so the host keeps its own approval UI:
//
//   - a tool_request or approval_required the rules decide is answered at
//     once and never reaches the host;
//   - the rest are forwarded to the host unchanged (with a gateway, they
//     are also pending there: the first answer, the host's or an
//     approver's, wins; the engine's own tool_running, tool_cancelled and
//     approval_resume events tell the host, and an approval the host
//     answered is withdrawn at the gateway with the host's answer as its
//     reason);
//   - the host's tool_approve, tool_deny and approval_resume are relayed to
//     the engine unchanged and recorded (log, and the gateway's audit); an
//     answer to a call toolgate already answered is dropped with an error
//     event;
//   - every other message passes both ways untouched, set_mode included,
//     and the end of the host's commands closes the engine's stdin.

// relayed is a request forwarded to the host and not yet answered.
type relayed struct {
	approvalID string // at the gateway, "" without one
	tool       string
}

// relayKey names a forwarded request: its call id, or its resume token.
func relayKey(callID, resumeToken string) string {
	if resumeToken != "" {
		return "rt:" + resumeToken
	}
	return "call:" + callID
}

// forwarded records that a request went to the host.
func (h *host) forwarded(key string, r relayed) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.relay[key] = r
}

// settle ends a forwarded request, reporting whether it was still open:
// only the first answer (host or gateway) settles it. byToolgate records
// that toolgate answered, so the host's late answer is refused and the
// request's suspend is not forwarded.
func (h *host) settle(key string, byToolgate bool) (relayed, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, ok := h.relay[key]
	if ok {
		delete(h.relay, key)
		if byToolgate {
			h.noteAnswered(key)
		}
	}
	return r, ok
}

// noteAnswered records key as answered; h.mu is held. The record is
// bounded: past it, a host answering a long-forgotten request is relayed.
func (h *host) noteAnswered(key string) {
	if len(h.answered) >= 4*maxRemembered {
		clear(h.answered)
	}
	h.answered[key] = true
}

// wasAnswered reports whether toolgate (rules or gateway) answered key.
func (h *host) wasAnswered(key string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.answered[key]
}

// markAnswered records that toolgate answered key itself.
func (h *host) markAnswered(key string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.noteAnswered(key)
}

// passDecision decides a call for pass-through: final (allow or deny by
// the rules) or to be asked, with the gateway's pending approval if any.
func (h *host) passDecision(c toolgate.Call) (final bool, v verdict, pending *toolgate.Approval) {
	if l, ok := h.cfg.Decider.(*Local); ok {
		d := l.Evaluate(c)
		switch d.Action {
		case toolgate.Allow:
			return true, verdict{approved: true, scope: Once}, nil
		case toolgate.Deny:
			return true, verdict{reason: d.Reason}, nil
		}
		return false, verdict{}, nil
	}
	ctx, cancel := context.WithTimeout(h.ctx, 30*time.Second)
	res, err := h.cfg.Decider.Decide(ctx, toolgate.SubmitRequest{Call: c, TTL: h.cfg.TTL})
	cancel()
	if err != nil {
		// The gateway cannot say: the host's own UI still can.
		h.log.Warn("decide", "call", c.ID, "tool", c.Tool, "err", err)
		return false, verdict{}, nil
	}
	if action, fin := res.Final(); fin && res.Approval == nil {
		if action == toolgate.Allow {
			return true, verdict{approved: true, scope: Once}, nil
		}
		return true, verdict{reason: res.Decision.Reason}, nil
	}
	if res.Approval.Status != toolgate.StatusPending {
		return true, verdictOf(res.Approval), nil
	}
	return false, verdict{}, res.Approval
}

// passRequest handles an engine request in pass-through mode. answer
// sends toolgate's verdict to the engine.
func (h *host) passRequest(line []byte, key string, c toolgate.Call, answer func(verdict)) {
	final, v, pending := h.passDecision(c)
	if final {
		h.log.Info("decided", "call", c.ID, "tool", c.Tool, "approved", v.approved, "reason", v.reason)
		h.markAnswered(key)
		answer(v)
		return
	}
	r := relayed{tool: c.Tool}
	if pending != nil {
		r.approvalID = pending.ID
	}
	h.forwarded(key, r)
	h.forward(line)
	if pending == nil {
		return
	}
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		ttl := pending.ExpiresAt.Sub(pending.CreatedAt)
		if ttl <= 0 {
			ttl = toolgate.DefaultTTL
		}
		wctx, cancel := context.WithTimeout(h.ctx, ttl+toolgate.DefaultSweepInterval)
		defer cancel()
		got, err := h.cfg.Decider.Wait(wctx, pending)
		if err != nil {
			if h.ctx.Err() != nil {
				h.withdraw(pending.ID) // the engine is gone
			}
			// Otherwise expiry or a lost gateway: the host's UI may
			// still answer.
			return
		}
		if _, open := h.settle(key, true); !open {
			return // the host answered first
		}
		h.log.Info("approval resolved at the gateway", "call", c.ID, "approval", pending.ID, "status", got.Status)
		answer(verdictOf(got))
	}()
}

// passToolRequest is tool_request in pass-through mode.
func (h *host) passToolRequest(line []byte, n int) {
	var req ToolRequest
	if err := json.Unmarshal(line, &req); err != nil || req.CallID == "" || req.Tool.Name == "" {
		// Not ours to judge: the host sees it as the engine sent it.
		h.forward(line)
		return
	}
	h.remember(req.CallID, req.Tool)
	h.passRequest(line, relayKey(req.CallID, ""), h.call(req.CallID, req.Tool), func(v verdict) {
		if v.approved {
			h.toEngine(ToolApprove{Type: TypeToolApprove, CallID: req.CallID, Scope: v.scope, Answer: v.answer})
		} else {
			h.toEngine(ToolDeny{Type: TypeToolDeny, CallID: req.CallID, Reason: v.reason})
		}
	})
}

// passApprovalRequired is approval_required in pass-through mode.
func (h *host) passApprovalRequired(line []byte, n int) {
	var req ApprovalRequired
	if err := json.Unmarshal(line, &req); err != nil || req.ResumeToken == "" {
		h.forward(line)
		return
	}
	id, t := h.suspendedCall(req)
	h.passRequest(line, relayKey("", req.ResumeToken), h.call(id, t), func(v verdict) {
		r := ApprovalResume{Type: TypeApprovalResume, ResumeToken: req.ResumeToken, Approved: v.approved}
		if v.approved {
			r.Modifications = withAnswer(v.modifications, v.answer)
		}
		h.toEngine(r)
	})
}

// passSuspend forwards a suspend unless toolgate answered its request.
func (h *host) passSuspend(line []byte) {
	var s Suspend
	if json.Unmarshal(line, &s) == nil && s.ResumeToken != "" && h.wasAnswered(relayKey("", s.ResumeToken)) {
		return
	}
	h.forward(line)
}

// passCommand relays one of the host's commands in pass-through mode.
func (h *host) passCommand(typ string, line []byte, n int) {
	key, what := "", ""
	switch typ {
	case TypeToolApprove:
		var c ToolApprove
		if err := json.Unmarshal(line, &c); err == nil {
			key, what = relayKey(c.CallID, ""), "approved by the host's own UI (scope "+c.Scope.String()+")"
		}
	case TypeToolDeny:
		var c ToolDeny
		if err := json.Unmarshal(line, &c); err == nil {
			key, what = relayKey(c.CallID, ""), "denied by the host's own UI: "+c.Reason
		}
	case TypeApprovalResume:
		var c ApprovalResume
		if err := json.Unmarshal(line, &c); err == nil {
			key = relayKey("", c.ResumeToken)
			what = "denied by the host's own UI"
			if c.Approved {
				what = "approved by the host's own UI"
			}
		}
	}
	if key == "" {
		h.relayLine(line) // unreadable: the engine reports it
		return
	}
	r, open := h.settle(key, false)
	if !open && h.wasAnswered(key) {
		h.report(ErrRefused, n, "", "%s: toolgate already answered this request; the host's answer was not sent to the engine", typ)
		return
	}
	h.relayLine(line)
	h.log.Info("host answered", "request", key, "tool", r.tool, "answer", what)
	if r.approvalID != "" {
		// Record the host's answer at the gateway and take the approval
		// off the approvers' screens.
		ctx, cancel := context.WithTimeout(h.ctx, 10*time.Second)
		defer cancel()
		if err := h.cfg.Decider.Cancel(ctx, r.approvalID, what); err != nil && toolgate.ErrorCodeOf(err) != toolgate.EConflict {
			h.log.Warn("record the host's answer at the gateway", "approval", r.approvalID, "err", err)
		}
	}
}

func (h *host) relayLine(line []byte) {
	if err := h.engineIn.writeLine(line); err != nil {
		h.log.Warn("relay command", "err", err)
	}
}

// readPassCommands relays the host's commands until they end, then closes
// the engine's stdin: in pass-through the host is in charge of it.
func (h *host) readPassCommands(engineStdin io.Closer) {
	defer engineStdin.Close()
	lr := newLineReader(h.cfg.Stdin, h.cfg.MaxLineBytes)
	for {
		line, n, err := lr.next()
		if err != nil {
			if errors.Is(err, errLineTooLong) {
				h.report(ErrTooLong, n, "", "command line %d is longer than %d bytes; skipped", n, lr.max)
				continue
			}
			return
		}
		if h.ctx.Err() != nil {
			return
		}
		typ, err := messageType(line)
		switch {
		case err != nil, typ != TypeToolApprove && typ != TypeToolDeny && typ != TypeApprovalResume:
			h.relayLine(line)
		default:
			h.passCommand(typ, line, n)
		}
	}
}

// Evaluate decides a call by the rules alone, without turning an ask
// into a deny: pass-through mode asks the host's own UI instead.
func (l *Local) Evaluate(c toolgate.Call) toolgate.Decision {
	l.mu.Lock()
	mode := l.mode
	l.mu.Unlock()
	var d toolgate.Decision
	l.engine.Decide(&c, policy.Env{Mode: mode, Agent: l.agent}, &d)
	return d
}
