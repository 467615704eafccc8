package approval

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/redact"
	"github.com/toolgate/toolgate/store"
)

// auditEntry builds an audit entry; the store chains it.
func (b *Broker) auditEntry(kind string, c *toolgate.Call, approvalID, outcome string, by toolgate.Actor, reason string, data json.RawMessage) toolgate.AuditEntry {
	return toolgate.AuditEntry{
		Time: b.now(), Kind: kind, Session: c.Session, Workspace: c.Workspace, CallID: c.ID,
		ApprovalID: approvalID, Tool: c.Tool, Outcome: outcome, Who: by.Name, Via: by.Via,
		Reason: reason, Data: data,
	}
}

func (b *Broker) grantAudit(kind string, g *toolgate.Grant, by toolgate.Actor) toolgate.AuditEntry {
	data, _ := json.Marshal(g)
	return toolgate.AuditEntry{
		Time: b.now(), Kind: kind, Session: g.Session, Workspace: g.Workspace, ApprovalID: g.ApprovalID,
		Tool: g.Tool, Outcome: string(g.Scope), Who: by.Name, Via: by.Via, Reason: g.Pattern, Data: data,
	}
}

// decisionData is what the audit log keeps of a decided call: its
// arguments, its content digest (so every decided call's content is on
// record, not only those held for approval) and the decision.
func decisionData(c *toolgate.Call, digest string, d *toolgate.Decision) json.RawMessage {
	data, err := json.Marshal(struct {
		Args     map[string]any     `json:"args,omitempty"`
		Agent    string             `json:"agent,omitempty"`
		Digest   string             `json:"digest,omitempty"`
		Decision *toolgate.Decision `json:"decision"`
	}{c.Args, c.Agent, digest, d})
	if err != nil {
		return nil
	}
	return data
}

// resolutionData is what the audit log keeps of an approval's end: the
// resolution, with the call's arguments, so the entry names the command
// or path it answered and a search for them finds it.
func resolutionData(r *toolgate.Resolution, c *toolgate.Call) json.RawMessage {
	data, err := json.Marshal(struct {
		*toolgate.Resolution
		Args map[string]any `json:"args,omitempty"`
	}{r, c.Args})
	if err != nil {
		return nil
	}
	return data
}

// publish sends an approval or grant event.
func (b *Broker) publish(t toolgate.EventType, a *toolgate.Approval, g *toolgate.Grant) {
	e := toolgate.Event{Type: t, Time: b.now(), Approval: a, Grant: g}
	switch {
	case a != nil:
		e.Session, e.Workspace = a.Call.Session, a.Call.Workspace
	case g != nil:
		e.Session, e.Workspace = g.Session, g.Workspace
	}
	b.emit(e)
}

// Subscribe returns a view of the event stream: first the recent events
// after f.AfterSeq, then a replay of every approval still pending, then
// live events, until ctx ends.
func (b *Broker) Subscribe(ctx context.Context, f toolgate.EventFilter) *Subscription {
	return b.hub.subscribe(ctx, f)
}

// Events is Subscribe in the shape of the HTTP client's Events, so that a
// consumer of events takes either: the events come on the first channel;
// once it closes, the second carries why the stream ended: nil when ctx
// ended or the broker closed, ErrDropped when the consumer fell behind
// (resume with AfterSeq set to the last Seq seen).
func (b *Broker) Events(ctx context.Context, f toolgate.EventFilter) (<-chan toolgate.Event, <-chan error) {
	sub := b.hub.subscribe(ctx, f)
	events := make(chan toolgate.Event)
	errc := make(chan error, 1)
	go func() {
		defer close(errc)
		defer close(events)
		for e := range sub.Events() {
			select {
			case events <- e:
			case <-ctx.Done():
				sub.Close()
			}
		}
		errc <- sub.Err()
	}()
	return events, errc
}

// Audit lists audit entries.
//
// A filter's Query is applied here, over pages of the store's entries that
// match the rest of the filter, so every store searches the same decoded
// text; the scan goes on until Limit entries match or the log ends.
func (b *Broker) Audit(ctx context.Context, f store.AuditFilter) ([]toolgate.AuditEntry, error) {
	if f.Query == "" {
		return b.store.ListAudit(ctx, f)
	}
	page := f
	page.Query, page.Limit = "", auditSearchPage
	var out []toolgate.AuditEntry
	for {
		es, err := b.store.ListAudit(ctx, page)
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			if e.Contains(f.Query) {
				out = append(out, e)
				if f.Limit > 0 && len(out) == f.Limit {
					return out, nil
				}
			}
		}
		if len(es) < auditSearchPage {
			return out, nil
		}
		page.AfterSeq = es[len(es)-1].Seq
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
}

// auditSearchPage is how many entries a search reads from the store at once.
const auditSearchPage = 500

// redactedCalls returns calls with their secrets masked, for storing and
// showing (a batch's calls still to come).
func redactedCalls(cs []toolgate.Call) []toolgate.Call {
	var out []toolgate.Call
	for i := range cs {
		shown, secrets := redact.Call(&cs[i])
		if secrets == nil {
			continue
		}
		if out == nil {
			out = append([]toolgate.Call(nil), cs...)
		}
		out[i] = shown
	}
	if out == nil {
		return cs
	}
	return out
}

// redactedArgs names the arguments that held the secrets rs found.
func redactedArgs(rs []toolgate.Redaction) string {
	var names []string
	for _, r := range rs {
		if !slices.Contains(names, r.Arg) {
			names = append(names, r.Arg)
		}
	}
	return strings.Join(names, ", ")
}
