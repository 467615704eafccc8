package mcpproxy

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolgate/toolgate"
)

// pinState is what the pins say about the tool of one call.
type pinState struct {
	// ok: the call goes on to the gate. Otherwise verdict is the answer.
	ok      bool
	verdict verdict
	// unpinned holds the tool's definition when it has no pin yet: it is
	// pinned when the call is allowed.
	unpinned []byte
}

// checkPin compares the called tool's definition with its pin. A tool
// without a pin goes on (and is pinned if allowed); a changed one is put
// to the user in the client with a diff when the client can be asked, and
// denied with the diff otherwise. Pins that cannot be read deny.
func (b *bridge) checkPin(ctx context.Context, req *mcp.CallToolRequest, call *toolgate.Call) (pinState, error) {
	pins := b.p.pins
	if pins == nil {
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
	pin, found, err := pins.Get(b.p.cfg.Name, name)
	switch {
	case err != nil:
		return pinState{verdict: denyBecause(fmt.Sprintf("the tool pins could not be read (%v)", err))}, nil
	case !found:
		return pinState{ok: true, unpinned: def}, nil
	case pin.Hash == hash:
		return pinState{ok: true}, nil
	}
	diff := Diff(pin.Definition, def)
	b.p.log.Warn("tool definition changed since it was pinned", "server", b.p.cfg.Name, "tool", name, "pinned", pin.Hash, "now", hash)
	what := fmt.Sprintf("the definition of tool %s on MCP server %q changed since it was pinned (%s, %s); what changed:\n%s",
		name, b.p.cfg.Name, pin.PinnedBy, pin.PinnedAt.Format(time.DateOnly), diff)
	if !b.canElicit() {
		return pinState{verdict: denyBecause(what + fmt.Sprintf("\nReview it and accept the new definition with: toolgate mcp pin --name %s --tool %s (with the server's command or --upstream); pins in %s", b.p.cfg.Name, name, pins.Path()))}, nil
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
	if err := pins.Set(b.p.cfg.Name, map[string][]byte{name: def}, PinnedByClient, time.Now(), true); err != nil {
		return pinState{verdict: denyBecause(fmt.Sprintf("the new definition was accepted but could not be pinned: %v", err))}, nil
	}
	b.p.log.Info("tool pinned anew", "server", b.p.cfg.Name, "tool", name, "hash", hash, "by", PinnedByClient)
	return pinState{ok: true}, nil
}

// pinFirst pins an allowed call's tool if it had no pin.
func (b *bridge) pinFirst(name string, pin pinState) {
	if b.p.pins == nil || pin.unpinned == nil {
		return
	}
	if err := b.p.pins.Set(b.p.cfg.Name, map[string][]byte{name: pin.unpinned}, PinnedByFirstCall, time.Now(), false); err != nil {
		b.p.log.Warn("pin a tool's definition", "server", b.p.cfg.Name, "tool", name, "err", err)
		return
	}
	b.p.log.Info("tool pinned", "server", b.p.cfg.Name, "tool", name, "by", PinnedByFirstCall)
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
