package approval

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sync"
	"unicode/utf8"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/redact"
)

// pinHash is the form of a pinned definition's hash. Compiled on first
// use: every toolgate command links this package, and compiling the
// repetition at start took a quarter of a millisecond and grew the main
// goroutine's stack to 256 KB.
var pinHash = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^sha256:[0-9a-f]{64}$`) })

// pinName is the form of an MCP server's or tool's name in a PinEvent,
// compiled on first use as pinHash.
var pinName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$`) })

// maxPinBy bounds PinEvent.By.
const maxPinBy = 256

// RecordPin appends an MCP proxy's pin of a tool definition to the audit
// log (kind mcp.pinned). An agent credential records pins only in its own
// sessions, which must exist (the proxy's calls opened them). A pin that
// names an approval is checked against it: approved, in the session, of
// the tool, and held for a person (Decision.Confirm), so the audit never
// says an approver accepted a definition nobody was asked about.
func (b *Broker) RecordPin(ctx context.Context, ev toolgate.PinEvent) error {
	by := caller(ctx)
	switch {
	case !pinName().MatchString(ev.Server) || !pinName().MatchString(ev.Tool):
		return toolgate.Errorf(toolgate.EInvalid, "server %q and tool %q: want letters, digits, '_', '.' and '-', at most 128", ev.Server, ev.Tool)
	case !pinHash().MatchString(ev.Hash) || (ev.Previous != "" && !pinHash().MatchString(ev.Previous)):
		return toolgate.Errorf(toolgate.EInvalid, "hash %q, previous %q: want sha256: and 64 hex digits", ev.Hash, ev.Previous)
	case ev.By == "" || utf8.RuneCountInString(ev.By) > maxPinBy:
		return toolgate.Errorf(toolgate.EInvalid, "by: want what pinned the definition, at most %d characters", maxPinBy)
	case ev.Session == "":
		return toolgate.Errorf(toolgate.EInvalid, "session: want the proxy's session")
	}
	ev.By = redact.Text(ev.By)
	var s toolgate.Session
	found, err := b.loadSession(ctx, ev.Session, &s)
	if err != nil {
		return err
	}
	if !found || !owns(by, &s) {
		return errSessionNotFound(ev.Session)
	}
	tool := "mcp__" + ev.Server + "__" + ev.Tool
	if ev.ApprovalID != "" {
		a, err := b.store.GetApproval(ctx, ev.ApprovalID)
		if err != nil {
			return err
		}
		if a.Call.Session != ev.Session || a.Call.Tool != tool || a.Decision.Confirm == "" || a.Status != toolgate.StatusApproved {
			return toolgate.Errorf(toolgate.EConflict, "approval %s is not an approved change of %s in session %s", ev.ApprovalID, tool, ev.Session)
		}
	}
	ev.Workspace = s.Workspace
	outcome, was := "pinned", ""
	if ev.Previous != "" {
		outcome, was = "re-pinned", fmt.Sprintf(" in place of %s", ev.Previous)
	}
	data, err := json.Marshal(ev)
	if err != nil {
		return fmt.Errorf("record pin: %w", err)
	}
	entry := toolgate.AuditEntry{
		Time: b.now(), Kind: toolgate.AuditMCPPinned, Session: ev.Session, Workspace: ev.Workspace,
		ApprovalID: ev.ApprovalID, Tool: tool, Outcome: outcome, Who: by.Name, Via: by.Via,
		Reason: fmt.Sprintf("the definition %s of tool %s on MCP server %q was pinned%s: %s", ev.Hash, ev.Tool, ev.Server, was, ev.By),
		Data:   data,
	}
	if err := b.store.AppendAudit(ctx, entry); err != nil {
		return fmt.Errorf("record pin: %w", err)
	}
	return nil
}
