package mcpproxy

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/mcpproxy/pins"
)

// pinState is what the pins say about the tool of one call.
type pinState struct {
	// ok: the call goes on to the gate. Otherwise verdict is the answer.
	ok      bool
	verdict verdict
	// unpinned holds the tool's definition when it has no pin yet: it is
	// pinned when the call is allowed.
	unpinned []byte
	// changed holds the tool's new definition when it no longer matches
	// its pin and a gateway's approvers are to accept it: confirm is what
	// they are asked (SubmitRequest.Confirm), and an approval pins it.
	changed []byte
	confirm string
	// previous is the hash of the pin a changed definition replaces.
	previous string
}

// maxDiffShown bounds the diff a gateway's approvers are sent.
const maxDiffShown = 12 << 10

// checkPin compares the called tool's definition with its pin. A tool
// without a pin goes on (and is pinned if allowed); a changed one is put
// with a diff to the gateway's approvers when there is a gateway (and to
// the user in the client too, when it can be asked), else to the user in
// the client, and is denied with the diff when nobody can be asked. Pins
// that cannot be read deny.
func (b *bridge) checkPin(ctx context.Context, req *mcp.CallToolRequest, call *toolgate.Call) (pinState, error) {
	pf := b.p.pins
	if pf == nil {
		return pinState{ok: true}, nil
	}
	name := req.Params.Name
	t := b.tool(ctx, name)
	if t == nil {
		return pinState{verdict: denyBecause("the server's definition of the tool could not be read to check it against its pin")}, nil
	}
	def, hash, err := Definition(t)
	if err != nil {
		return pinState{verdict: denyBecause(err.Error())}, nil
	}
	pin, found, err := pf.Get(b.p.cfg.Name, name)
	switch {
	case err != nil:
		return pinState{verdict: denyBecause(fmt.Sprintf("the tool pins could not be read (%v)", err))}, nil
	case !found:
		return pinState{ok: true, unpinned: def}, nil
	case pin.Hash == hash:
		return pinState{ok: true}, nil
	}
	diff := pins.Diff(pin.Definition, def)
	b.p.log.Warn("tool definition changed since it was pinned", "server", b.p.cfg.Name, "tool", name, "pinned", pin.Hash, "now", hash)
	what := fmt.Sprintf("the definition of tool %s on MCP server %q changed since it was pinned (%s, %s); what changed:\n%s",
		name, b.p.cfg.Name, pin.PinnedBy, pin.PinnedAt.Format(time.DateOnly), diff)
	if b.p.cfg.Gateway != nil {
		if len(diff) > maxDiffShown {
			diff = diff[:maxDiffShown] + "\n… (cut; toolgate mcp pin shows it all)"
		}
		confirm := fmt.Sprintf("The definition of tool %s on MCP server %q changed since it was pinned (%s, %s): approving accepts the new definition, pins it and allows this call; denying keeps the old pin. What changed:\n%s",
			name, b.p.cfg.Name, pin.PinnedBy, pin.PinnedAt.Format(time.DateOnly), diff)
		return pinState{ok: true, changed: def, confirm: confirm, previous: pin.Hash}, nil
	}
	if !b.canElicit() {
		return pinState{verdict: denyBecause(what + fmt.Sprintf("\nReview it and accept the new definition with: toolgate mcp pin --name %s --tool %s (with the server's command or --upstream); pins in %s", b.p.cfg.Name, name, pf.Path()))}, nil
	}
	wctx, cancel := context.WithTimeout(ctx, b.p.cfg.Timeout)
	defer cancel()
	defer b.sendProgress(wctx, req, call)()
	accepted, err := b.elicitPin(wctx, what)
	switch {
	case ctx.Err() != nil:
		return pinState{}, context.Cause(ctx)
	case wctx.Err() != nil:
		return pinState{verdict: denyBecause(what + "\nNobody accepted the new definition in time.")}, nil
	case err != nil:
		return pinState{verdict: denyBecause(fmt.Sprintf("%s\nAsking you in the MCP client failed: %v", what, err))}, nil
	case !accepted:
		return pinState{verdict: denyBecause(what + "\nThe user did not accept the new definition.")}, nil
	}
	if err := b.pin(ctx, name, def, pin.Hash, pins.ByClient, ""); err != nil {
		return pinState{verdict: denyBecause(fmt.Sprintf("the new definition was accepted but could not be pinned: %v", err))}, nil
	}
	return pinState{ok: true}, nil
}

// pinAllowed pins an allowed call's tool if it had no pin, or if its
// changed definition was accepted with the call (v.acceptedBy) and is not
// pinned yet.
func (b *bridge) pinAllowed(ctx context.Context, name string, pin pinState, v verdict) {
	if b.p.pins == nil {
		return
	}
	var err error
	switch {
	case pin.unpinned != nil:
		err = b.pin(ctx, name, pin.unpinned, "", pins.ByFirstCall, "")
	case pin.changed != nil && !v.pinned:
		by := v.acceptedBy
		if by == "" {
			by = pins.ByGateway
		}
		err = b.pin(ctx, name, pin.changed, pin.previous, by, v.approval)
	}
	if err != nil {
		b.p.log.Warn("pin a tool's definition", "server", b.p.cfg.Name, "tool", name, "err", err)
	}
}

// pin pins a tool's definition (replacing the pin whose hash is previous,
// if any; a first pin keeps one another proxy made meanwhile) and, with
// a gateway that keeps an audit log, records it there: approval is the
// approval that accepted a changed definition, if one did. A pin the
// gateway does not record is kept and logged: the pin protects, the
// record tells.
func (b *bridge) pin(ctx context.Context, name string, def []byte, previous, by, approval string) error {
	if err := b.p.pins.Set(b.p.cfg.Name, map[string][]byte{name: def}, by, time.Now(), previous != ""); err != nil {
		return err
	}
	hash := pins.Hash(def)
	b.p.log.Info("tool pinned", "server", b.p.cfg.Name, "tool", name, "hash", hash, "by", by)
	rec, ok := b.p.cfg.Gateway.(pinRecorder)
	if !ok {
		return nil
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	err := rec.RecordPin(cctx, toolgate.PinEvent{Session: b.session, Workspace: b.p.cfg.Workspace, Server: b.p.cfg.Name,
		Tool: name, Hash: hash, Previous: previous, By: by, ApprovalID: approval})
	if err != nil {
		b.p.log.Warn("record the pin in the gateway's audit log", "server", b.p.cfg.Name, "tool", name, "err", err)
	}
	return nil
}

// pinRecorder is a gateway that records pins in its audit log (the HTTP
// client is one).
type pinRecorder interface {
	RecordPin(ctx context.Context, ev toolgate.PinEvent) error
}

// pinAccepted applies the user's answer in the client to a changed
// definition put to a gateway's approvers (approval id). The gateway
// takes it if the proxy's token may answer; otherwise the proxy withdraws
// the approval and honours the answer itself: accepted, it pins the new
// definition and has the gateway decide the call anew, without the
// question, as the docs say an accepted definition goes on to the rules.
func (b *bridge) pinAccepted(ctx context.Context, req *mcp.CallToolRequest, call *toolgate.Call, pin pinState, id string, accepted bool) (verdict, error) {
	if !accepted {
		v := b.userAnswered(ctx, b.p.cfg.Gateway, id, call, answerDeny)
		if !v.allow {
			v.reason = "the user did not accept the new definition of the tool in the MCP client: " + v.reason
		}
		return v, nil
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	a, err := b.p.cfg.Gateway.Approve(cctx, id, toolgate.ApproveRequest{Scope: toolgate.ScopeOnce})
	cancel()
	if err == nil && a != nil && a.Status.Final() {
		return approvalVerdict(a), nil
	}
	if err != nil {
		b.p.log.Info("gateway did not take the user's acceptance of a changed tool; honouring it in the proxy", "approval", id, "err", err)
	}
	b.withdraw(ctx, id)
	if err := b.pin(ctx, req.Params.Name, pin.changed, pin.previous, pins.ByClient, ""); err != nil {
		return denyBecause(fmt.Sprintf("the new definition was accepted but could not be pinned: %v", err)), nil
	}
	again := *call
	again.ID = rand.Text()
	v, err := b.decideGateway(ctx, req, &again, pinState{})
	v.pinned = true
	return v, err
}

// The answers to a changed definition.
const (
	pinAccept = "accept"
	pinDeny   = "deny"
)

// elicitPin asks the user in the client whether to accept a tool's new
// definition.
func (b *bridge) elicitPin(ctx context.Context, what string) (bool, error) {
	ss := b.downstream()
	if ss == nil {
		return false, errClientGone
	}
	field := choiceSchema(titledEnums(ss), "Use the tool with its new definition?",
		"accept: pin the new definition and go on to decide the call; deny: refuse the call",
		[]choice{{pinAccept, "Accept the new definition"}, {pinDeny, "Deny"}})
	res, err := ss.Elicit(ctx, &mcp.ElicitParams{
		Mode:    "form",
		Message: "toolgate: " + what,
		RequestedSchema: map[string]any{
			"type":       "object",
			"properties": map[string]any{"decision": field},
			"required":   []any{"decision"},
		},
	})
	if err != nil {
		return false, err
	}
	if res.Action != "accept" {
		return false, nil
	}
	switch v, _ := res.Content["decision"].(string); v {
	case pinAccept:
		return true, nil
	case pinDeny:
		return false, nil
	default:
		return false, fmt.Errorf("unknown answer %q", v)
	}
}

// pinnedView returns the tools as the client is shown them: a tool whose
// definition changed since it was pinned is shown with its pinned
// description and schemas and a note, so a changed description (where a
// "rug pull" puts its instructions) never reaches the model before a
// person accepted it.
func (b *bridge) pinnedView(tools []*mcp.Tool) []*mcp.Tool {
	if b.p.pins == nil {
		return tools
	}
	all, err := b.p.pins.All()
	if err != nil {
		b.p.log.Warn("read tool pins", "err", err)
		return tools
	}
	pins := all[b.p.cfg.Name]
	out, copied := tools, false
	for i, t := range tools {
		if t == nil {
			continue
		}
		pin, ok := pins[t.Name]
		if !ok {
			continue
		}
		_, hash, err := Definition(t)
		if err != nil || hash == pin.Hash {
			continue
		}
		var old struct {
			Title        string               `json:"title"`
			Description  string               `json:"description"`
			InputSchema  any                  `json:"inputSchema"`
			OutputSchema any                  `json:"outputSchema"`
			Annotations  *mcp.ToolAnnotations `json:"annotations"`
		}
		if err := json.Unmarshal(pin.Definition, &old); err != nil {
			continue
		}
		shown := *t
		shown.Title, shown.InputSchema, shown.OutputSchema, shown.Annotations = old.Title, old.InputSchema, old.OutputSchema, old.Annotations
		shown.Description = "[toolgate: this tool's definition changed since it was pinned; calling it asks first] " + old.Description
		if !copied {
			out, copied = append([]*mcp.Tool(nil), tools...), true
		}
		out[i] = &shown
	}
	return out
}
