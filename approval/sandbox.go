package approval

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/redact"
)

// SandboxViolationKind is the audit kind of a sandbox report.
const SandboxViolationKind = "sandbox.violation"

// RecordSandbox audits what the kernel sandbox refused a confined command
// (DESIGN §3.7): one entry of kind "sandbox.violation", outcome
// "blocked", tool "sandbox", its reason the first violation's rule and
// target, its data the report with secrets masked. The report is the
// word of the host that ran the command, recorded as such (Who, Via).
func (b *Broker) RecordSandbox(ctx context.Context, r *toolgate.SandboxReport) error {
	by := caller(ctx)
	switch {
	case len(r.Violations) == 0:
		return toolgate.Errorf(toolgate.EInvalid, "a sandbox report needs at least one violation")
	case len(r.Violations) > toolgate.MaxSandboxViolations:
		return toolgate.Errorf(toolgate.ETooLarge, "%d violations, more than %d", len(r.Violations), toolgate.MaxSandboxViolations)
	}
	texts := []*string{&r.Session, &r.Workspace, &r.Command, &r.Cwd}
	for i := range r.Violations {
		v := &r.Violations[i]
		if v.Kind != "file" && v.Kind != "network" {
			return toolgate.Errorf(toolgate.EInvalid, "violation %d: kind %q: want file or network", i, v.Kind)
		}
		texts = append(texts, &v.Target, &v.Rule)
	}
	for _, s := range texts {
		if len(*s) > toolgate.MaxSandboxText {
			return toolgate.Errorf(toolgate.ETooLarge, "a sandbox report's text is %d bytes, more than %d", len(*s), toolgate.MaxSandboxText)
		}
		*s = redact.Text(*s)
	}
	if err := b.sandboxSession(ctx, r, by); err != nil {
		return err
	}
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("sandbox report: %w", err)
	}
	reason := r.Violations[0].Rule + ": " + r.Violations[0].Target
	if n := len(r.Violations) - 1; n > 0 {
		reason += fmt.Sprintf(" (and %d more)", n)
	}
	e := toolgate.AuditEntry{
		Time: b.now(), Kind: SandboxViolationKind, Session: r.Session, Workspace: r.Workspace,
		Tool: "sandbox", Outcome: "blocked", Who: by.Name, Via: by.Via,
		Reason: strings.TrimSpace(reason), Data: data,
	}
	if err := b.store.AppendAudit(ctx, e); err != nil {
		return fmt.Errorf("record sandbox report: %w", err)
	}
	return nil
}

// sandboxSession holds a report that names a session to that session: an
// agent credential reports only in its own sessions (like RecordPin), and
// the entry takes the session's workspace, so one credential cannot write
// blocked commands into another's session or workspace. A session the
// gateway does not know is left as the host named it.
func (b *Broker) sandboxSession(ctx context.Context, r *toolgate.SandboxReport, by toolgate.Actor) error {
	if r.Session == "" {
		return nil
	}
	var s toolgate.Session
	found, err := b.loadSession(ctx, r.Session, &s)
	if err != nil {
		return err
	}
	if !found {
		return nil
	}
	if !owns(by, &s) {
		return errSessionNotFound(r.Session)
	}
	r.Workspace = s.Workspace
	return nil
}
