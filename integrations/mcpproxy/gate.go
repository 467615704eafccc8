package mcpproxy

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/mcpproxy/pins"
)

// The answers a user can give in the client (elicitation).
const (
	answerOnce    = "once"
	answerSession = "session"
	answerAlways  = "always"
	answerDeny    = "deny"
)

// verdict is the gate's final word on one call.
type verdict struct {
	allow  bool
	reason string
	// acceptedBy says who approved the call on the gateway, for the pin
	// of a changed definition the approval accepted; pinned is set when
	// the proxy pinned it already.
	acceptedBy string
	approval   string
	pinned     bool
}

func allowBecause(reason string) verdict { return verdict{allow: true, reason: reason} }
func denyBecause(reason string) verdict  { return verdict{reason: reason} }

// deniedResult is what the client gets for a denied call: a tool error
// carrying the reason, which the model reads.
func deniedResult(server, tool, reason string) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("toolgate denied this call to %s on MCP server %q: %s", tool, server, reason)}},
		IsError: true,
	}
}

// callTool decides a tools/call and forwards it when allowed.
func (b *bridge) callTool(ctx context.Context, req *mcp.CallToolRequest) (mcp.Result, error) {
	if req.Params == nil {
		return b.forward(ctx, methodCallTool, nil)
	}
	// Stop waiting when the bridge shuts down or, over HTTP, when the
	// request that carried the call is gone.
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	defer context.AfterFunc(b.ctx, func() { cancel(context.Cause(b.ctx)) })()
	if pc := b.p.postContext(req.Extra); pc != nil {
		defer context.AfterFunc(pc, func() { cancel(errClientGone) })()
	}

	if b.unknownTool(ctx, req.Params.Name) {
		// Answered as the server would: nobody is asked about a call
		// that cannot run.
		b.p.log.Info("tools/call of a tool the server does not list", "tool", req.Params.Name)
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown tool %q", req.Params.Name)}
	}
	call := b.newCall(ctx, req.Params)
	pin, err := b.checkPin(ctx, req, call)
	if err != nil {
		return nil, fmt.Errorf("toolgate mcp-proxy: %s: %w", req.Params.Name, err)
	}
	v := pin.verdict
	if pin.ok {
		if v, err = b.decide(ctx, req, call, pin); err != nil {
			return nil, fmt.Errorf("toolgate mcp-proxy: %s: %w", req.Params.Name, err)
		}
	}
	b.p.log.Info("tools/call", "tool", call.Tool, "allow", v.allow, "reason", v.reason)
	if !v.allow {
		return deniedResult(b.p.cfg.Name, req.Params.Name, v.reason), nil
	}
	b.pinAllowed(ctx, req.Params.Name, pin, v)
	return b.forward(ctx, methodCallTool, req.Params)
}

// newCall builds the call the gate decides. The tier comes from the
// tool's annotations: readOnlyHint means read, anything else exec. The
// annotations come from the server and are not trusted: the tier can only
// let the mode allow an open ask, never undo a deny.
func (b *bridge) newCall(ctx context.Context, p *mcp.CallToolParamsRaw) *toolgate.Call {
	c := &toolgate.Call{
		ID:        rand.Text(),
		Session:   b.session,
		Workspace: b.p.cfg.Workspace,
		Tool:      ToolName(b.p.cfg.Name, p.Name),
		Tier:      toolgate.TierExec,
		Origin:    "mcp:" + b.p.cfg.Name,
	}
	if len(p.Arguments) > 0 {
		var args map[string]any
		if err := json.Unmarshal(p.Arguments, &args); err == nil {
			c.Args = args
		} else {
			c.Args = map[string]any{"arguments": string(p.Arguments)}
		}
	}
	if t := b.tool(ctx, p.Name); t != nil {
		if t.Annotations != nil && t.Annotations.ReadOnlyHint {
			c.Tier = toolgate.TierRead
		}
		// The arguments the schema says are paths are checked as files,
		// whatever they are called.
		c.PathArgs = b.toolPathArgs(p.Name)
	}
	return c
}

// remembered reports whether the user allowed the tool for this session
// or always.
func (b *bridge) remembered(tool string) bool {
	b.mu.Lock()
	ok := b.allowed[tool]
	b.mu.Unlock()
	return ok || b.p.allowedAlways(tool)
}

// remember records an answer the user gave in the client.
func (b *bridge) remember(tool, answer string) {
	switch answer {
	case answerSession:
		b.mu.Lock()
		b.allowed[tool] = true
		b.mu.Unlock()
	case answerAlways:
		b.p.rememberAlways(tool)
	}
}

// canElicit reports whether the client can be asked questions.
func (b *bridge) canElicit() bool {
	ss := b.downstream()
	if ss == nil {
		return false
	}
	ip := ss.InitializeParams()
	if ip == nil || ip.Capabilities == nil || ip.Capabilities.Elicitation == nil {
		return false
	}
	// The question is a form; a client that declares only URL mode
	// cannot show it.
	e := ip.Capabilities.Elicitation
	return e.Form != nil || e.URL == nil
}

// decide returns the verdict for a call. An error means the client went
// away (or the proxy is shutting down) before there was one.
func (b *bridge) decide(ctx context.Context, req *mcp.CallToolRequest, call *toolgate.Call, pin pinState) (verdict, error) {
	if b.p.cfg.Gateway != nil {
		if pin.changed != nil {
			return b.decidePinGateway(ctx, req, call, pin)
		}
		return b.decideGateway(ctx, req, call, pinState{})
	}
	d, err := b.p.gate.Evaluate(ctx, *call)
	if err != nil {
		return verdict{}, err
	}
	switch d.Action {
	case toolgate.Allow:
		return allowBecause(d.Reason), nil
	case toolgate.Deny:
		return denyBecause(d.Reason), nil
	}
	if b.remembered(call.Tool) {
		return allowBecause("allowed by your earlier answer in the MCP client"), nil
	}
	if r := b.p.remember; r != nil {
		switch r.decide(call) {
		case toolgate.Allow:
			return allowBecause("allowed by your earlier \"always\" answer, kept in " + r.path), nil
		case toolgate.Deny:
			return denyBecause("denied by a rule in " + r.path), nil
		}
	}
	if !b.canElicit() {
		return denyBecause(b.howToAllow(call, d.Reason)), nil
	}
	wctx, cancel := context.WithTimeout(ctx, b.p.cfg.Timeout)
	defer cancel()
	defer b.sendProgress(wctx, req, call)()
	answer, err := b.elicit(wctx, call, d.Reason)
	switch {
	case ctx.Err() != nil:
		return verdict{}, context.Cause(ctx)
	case wctx.Err() != nil:
		return denyBecause(toolgate.TimeoutReason), nil
	case err != nil:
		return denyBecause(fmt.Sprintf("%s, and asking you in the MCP client failed: %v", d.Reason, err)), nil
	}
	if answer == answerDeny {
		return denyBecause("denied by the user in the MCP client"), nil
	}
	b.remember(call.Tool, answer)
	return allowBecause("approved by the user in the MCP client (" + answer + ")"), nil
}

// howToAllow is the reason of an ask that nobody can answer.
func (b *bridge) howToAllow(call *toolgate.Call, reason string) string {
	return fmt.Sprintf("%s needs approval (%s), but this MCP client cannot ask you (it does not support elicitation) "+
		"and the proxy has no gateway to ask (--server). To allow it, add a rule such as "+
		"{\"%s\": \"allow\"} to a rules file given with --rules, or run toolgate mcp-proxy with --server "+
		"so that toolgate's approvers can answer", call.Tool, reason, call.Tool)
}

// elicit asks the user in the client and returns once, session, always or
// deny.
func (b *bridge) elicit(ctx context.Context, call *toolgate.Call, reason string) (string, error) {
	ss := b.downstream()
	if ss == nil {
		return "", errClientGone
	}
	args, _ := json.Marshal(call.Args)
	shown := string(args)
	if len(shown) > 600 {
		shown = shown[:600] + "…"
	}
	if call.Args == nil {
		shown = "{}"
	}
	tool := strings.TrimPrefix(call.Tool, "mcp__"+b.p.cfg.Name+"__")
	msg := fmt.Sprintf("toolgate: allow the call to %s on MCP server %q?\nArguments: %s\nWhy you are asked: %s", tool, b.p.cfg.Name, shown, reason)
	always := "this tool while toolgate runs"
	if b.p.remember != nil {
		always = "this tool from now on (kept in " + b.p.remember.path + ")"
	}
	res, err := ss.Elicit(ctx, &mcp.ElicitParams{
		Mode:    "form",
		Message: msg,
		RequestedSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"decision": decisionSchema(titledEnums(ss), "once: this call only; session: this tool until the client disconnects; always: "+always+"; deny: refuse it"),
			},
			"required": []any{"decision"},
		},
	})
	if err != nil {
		return "", err
	}
	if res.Action != "accept" {
		return answerDeny, nil
	}
	switch v, _ := res.Content["decision"].(string); v {
	case answerOnce, answerSession, answerAlways, answerDeny:
		return v, nil
	default:
		return "", fmt.Errorf("unknown answer %q", v)
	}
}

// choice is one choice of an elicitation form.
type choice struct{ value, title string }

// answers are the choices of the elicitation form, with their titles.
var answers = []choice{
	{answerOnce, "Allow once"},
	{answerSession, "Allow for this session"},
	{answerAlways, "Always allow"},
	{answerDeny, "Deny"},
}

// decisionSchema is the form's one field.
func decisionSchema(titled bool, description string) map[string]any {
	return choiceSchema(titled, "Allow this call?", description, answers)
}

// choiceSchema is a form field with choices. Clients of MCP 2025-11-25
// and later read titled choices as oneOf [{const, title}]; older ones
// know only enum with the non-standard enumNames, which that version
// deprecated.
func choiceSchema(titled bool, title, description string, choices []choice) map[string]any {
	s := map[string]any{"type": "string", "title": title, "description": description}
	if titled {
		oneOf := make([]any, len(choices))
		for i, c := range choices {
			oneOf[i] = map[string]any{"const": c.value, "title": c.title}
		}
		s["oneOf"] = oneOf
		return s
	}
	values, titles := make([]any, len(choices)), make([]any, len(choices))
	for i, c := range choices {
		values[i], titles[i] = c.value, c.title
	}
	s["enum"], s["enumNames"] = values, titles
	return s
}

// titledEnums reports whether the client speaks a protocol version with
// titled enums (oneOf) in elicitation forms: any but the older versions
// the proxy knows. A client asking for a version the proxy does not know
// is answered with the newest, which has them.
func titledEnums(ss *mcp.ServerSession) bool {
	ip := ss.InitializeParams()
	if ip == nil {
		return true
	}
	switch ip.ProtocolVersion {
	case "2025-06-18", "2025-03-26", "2024-11-05":
		return false
	}
	return true
}

// sendProgress sends progress notifications to the client while a call
// waits for an answer, if the client sent a progress token; the returned
// func stops them. The first is sent before it returns, so the client
// hears of the wait even when the answer comes at once.
func (b *bridge) sendProgress(ctx context.Context, req *mcp.CallToolRequest, call *toolgate.Call) (stop func()) {
	token := req.Params.GetProgressToken()
	ss := b.downstream()
	if token == nil || ss == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	start := time.Now()
	total := b.p.cfg.Timeout.Seconds()
	notify := func() {
		elapsed := time.Since(start)
		left := (b.p.cfg.Timeout - elapsed).Round(time.Second)
		err := ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
			ProgressToken: token,
			Progress:      elapsed.Seconds(),
			Total:         total,
			Message:       fmt.Sprintf("toolgate: waiting for approval of %s (%s left)", call.Tool, left),
		})
		if err != nil && ctx.Err() == nil {
			b.p.log.Debug("send progress", "err", err)
		}
	}
	notify()
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(b.p.cfg.ProgressInterval)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				notify()
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

// deniedOutright reports whether the gate denies every call of a tool
// under the current rules, whatever its arguments.
func (b *bridge) deniedOutright(ctx context.Context, t *mcp.Tool) bool {
	call := toolgate.Call{Session: b.session, Workspace: b.p.cfg.Workspace, Tool: ToolName(b.p.cfg.Name, t.Name), Tier: toolgate.TierExec, Origin: "mcp:" + b.p.cfg.Name}
	if t.Annotations != nil && t.Annotations.ReadOnlyHint {
		call.Tier = toolgate.TierRead
	}
	d, err := b.p.gate.Evaluate(ctx, call)
	return err == nil && d.Action == toolgate.Deny
}

// decidePinGateway has the gateway's approvers accept a changed tool
// definition with the call (SubmitRequest.Confirm): the gateway holds the
// call for a person even where its rules allow it, and denies it where
// they deny it.
func (b *bridge) decidePinGateway(ctx context.Context, req *mcp.CallToolRequest, call *toolgate.Call, pin pinState) (verdict, error) {
	v, err := b.decideGateway(ctx, req, call, pin)
	if !v.allow && !v.pinned && err == nil {
		v.reason += " (the tool's definition changed since it was pinned; the old pin stays)"
	}
	return v, err
}

// decideGateway has the gateway decide a call. An ask becomes a pending
// approval there; the user may answer it in the client (when the client
// supports elicitation) or toolgate's approvers on the gateway, whichever
// comes first. An unreachable gateway is a deny. pin.confirm, when set,
// is why a person must answer (SubmitRequest.Confirm): a changed tool
// definition, which the user in the client is asked to accept.
func (b *bridge) decideGateway(ctx context.Context, req *mcp.CallToolRequest, call *toolgate.Call, pin pinState) (verdict, error) {
	gw := b.p.cfg.Gateway
	if pin.confirm == "" && b.remembered(call.Tool) {
		// The user answered session or always in the client and the
		// gateway did not take the answer as a grant: a dry run keeps
		// the gateway's deny rules in force without asking again.
		d, err := gw.Evaluate(ctx, *call)
		if err == nil && d.Action != toolgate.Deny {
			return allowBecause("allowed by your earlier answer in the MCP client"), nil
		}
	}
	// Submit even if the client goes away meanwhile, so that an approval
	// the gateway creates is known, and can be withdrawn.
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	res, err := gw.Submit(sctx, toolgate.SubmitRequest{Call: *call, TTL: b.p.cfg.Timeout, Confirm: pin.confirm})
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return verdict{}, context.Cause(ctx)
		}
		return denyBecause(fmt.Sprintf("the toolgate gateway could not decide this call, so it is refused: %s", toolgate.ErrorMessageOf(err))), nil
	}
	if ctx.Err() != nil {
		if res.Approval != nil && res.Approval.Status == toolgate.StatusPending {
			b.withdraw(ctx, res.Approval.ID)
		}
		return verdict{}, context.Cause(ctx)
	}
	if res.Approval == nil || res.Approval.Status != toolgate.StatusPending {
		if act, ok := res.Final(); ok {
			return gatewayVerdict(act, res), nil
		}
	}
	return b.waitGateway(ctx, req, call, res, pin)
}

// gatewayVerdict turns a final result into a verdict.
func gatewayVerdict(act toolgate.Action, res *toolgate.Result) verdict {
	if res.Approval != nil {
		return approvalVerdict(res.Approval)
	}
	if act == toolgate.Allow {
		return allowBecause(res.Decision.Reason)
	}
	return denyBecause(res.Decision.Reason)
}

// approvalVerdict turns a resolved approval into a verdict.
func approvalVerdict(a *toolgate.Approval) verdict {
	action, msg := a.Outcome()
	if action == toolgate.Allow {
		v := allowBecause(msg)
		if r := a.Resolution; r != nil {
			v.acceptedBy = fmt.Sprintf("%s by %s via %s (%s)", pins.ByGateway, r.By, r.Via, a.ID)
		}
		v.approval = a.ID
		return v
	}
	// Deny, or still pending when the wait ended: never an allow.
	return denyBecause(msg)
}

// waitGateway waits for a pending approval: for the gateway's approvers,
// for the user in the client, or for the gate's timeout, whichever comes
// first. A client that goes away cancels the approval.
func (b *bridge) waitGateway(ctx context.Context, req *mcp.CallToolRequest, call *toolgate.Call, res *toolgate.Result, pin pinState) (verdict, error) {
	gw := b.p.cfg.Gateway
	id := res.Approval.ID
	cancelApproval := func() { b.withdraw(ctx, id) }

	wctx, cancel := context.WithTimeout(ctx, b.p.cfg.Timeout)
	defer cancel()
	defer b.sendProgress(wctx, req, call)()

	type gwOutcome struct {
		a   *toolgate.Approval
		err error
	}
	fromGateway := make(chan gwOutcome, 1)
	go func() {
		a, err := gw.Wait(wctx, id)
		fromGateway <- gwOutcome{a, err}
	}()
	type userOutcome struct {
		answer string
		err    error
	}
	var fromUser chan userOutcome
	ectx, stopAsking := context.WithCancel(wctx)
	defer stopAsking()
	if b.canElicit() {
		fromUser = make(chan userOutcome, 1)
		go func() {
			if pin.confirm != "" {
				accepted, err := b.elicitPin(ectx, pin.confirm)
				answer := answerDeny
				if accepted {
					answer = pinAccept
				}
				fromUser <- userOutcome{answer, err}
				return
			}
			answer, err := b.elicit(ectx, call, res.Decision.Reason)
			fromUser <- userOutcome{answer, err}
		}()
	}

	for {
		select {
		case o := <-fromGateway:
			stopAsking()
			switch {
			case ctx.Err() != nil:
				cancelApproval()
				return verdict{}, context.Cause(ctx)
			case wctx.Err() != nil:
				cancelApproval()
				return denyBecause(toolgate.TimeoutReason), nil
			case o.err != nil:
				cancelApproval()
				return denyBecause("lost the toolgate gateway while waiting for approval, so the call is refused: " + toolgate.ErrorMessageOf(o.err)), nil
			}
			return approvalVerdict(o.a), nil
		case u := <-fromUser:
			fromUser = nil
			if u.err != nil {
				// The client could not ask; the gateway's approvers still can.
				b.p.log.Info("elicitation failed; waiting for the gateway", "err", u.err)
				continue
			}
			if pin.confirm != "" {
				return b.pinAccepted(ctx, req, call, pin, id, u.answer == pinAccept)
			}
			return b.userAnswered(ctx, gw, id, call, u.answer), nil
		}
	}
}

// userAnswered applies an answer the user gave in the client to a pending
// gateway approval. The gateway takes it if the proxy's token may answer
// (an approver token); otherwise the proxy honours the answer itself,
// remembers session and always answers, and withdraws the approval.
func (b *bridge) userAnswered(ctx context.Context, gw toolgate.Gate, id string, call *toolgate.Call, answer string) verdict {
	var (
		a   *toolgate.Approval
		err error
	)
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if answer == answerDeny {
		a, err = gw.Deny(cctx, id, toolgate.DenyRequest{Reason: "denied by the user in the MCP client", Mode: toolgate.DenySoft})
	} else {
		scope := toolgate.ScopeOnce
		switch answer {
		case answerSession:
			scope = toolgate.ScopeSession
		case answerAlways:
			scope = toolgate.ScopeWorkspace
		}
		a, err = gw.Approve(cctx, id, toolgate.ApproveRequest{Scope: scope, Grant: toolgate.GrantTool})
	}
	if err == nil && a != nil && a.Status.Final() {
		return approvalVerdict(a)
	}
	if toolgate.ErrorCodeOf(err) == toolgate.EConflict {
		// Someone answered on the gateway at the same moment: theirs wins.
		cur, err := gw.Approval(cctx, id)
		if err == nil && cur.Status.Final() {
			return approvalVerdict(cur)
		}
		// The gateway holds an answer the proxy cannot read: it may be a
		// deny, so the user's yes does not stand in for it.
		if answer != answerDeny {
			b.p.log.Info("gateway answered the approval first and its answer cannot be read; refusing", "approval", id, "err", err)
			return denyBecause("answered on the gateway at the same time, and that answer could not be read")
		}
	}
	if err != nil {
		b.p.log.Info("gateway did not take the user's answer; honouring it in the proxy", "approval", id, "err", err)
	}
	b.withdraw(ctx, id)
	if answer == answerDeny {
		return denyBecause("denied by the user in the MCP client")
	}
	b.remember(call.Tool, answer)
	return allowBecause("approved by the user in the MCP client (" + answer + ")")
}

// withdraw cancels a pending approval on the gateway: nobody waits for its
// answer any more. It works after the call's context is gone.
func (b *bridge) withdraw(ctx context.Context, id string) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if _, err := b.p.cfg.Gateway.Cancel(cctx, id, ""); err != nil && toolgate.ErrorCodeOf(err) != toolgate.EConflict {
		b.p.log.Warn("withdraw approval on the gateway", "approval", id, "err", err)
	}
}
