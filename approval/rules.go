package approval

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/store"
)

// ruleDocuments is implemented by Policies that keep the workspaces'
// rules documents (Workspaces): the broker reads and replaces them through
// it.
type ruleDocuments interface {
	Document(ctx context.Context, workspace string) (src []byte, version string, err error)
	PutDocument(ctx context.Context, workspace string, src []byte) error
	Compile(workspace string, src []byte) (*policy.Engine, error)
}

func (b *Broker) ruleDocuments() (ruleDocuments, error) {
	docs, ok := b.policies.(ruleDocuments)
	if !ok {
		return nil, toolgate.Errorf(toolgate.EInternal, "this gate keeps no rules documents")
	}
	return docs, nil
}

// Rules returns a workspace's rules document, byte for byte, and a version
// that changes whenever the document does.
func (b *Broker) Rules(ctx context.Context, workspace string) (src []byte, version string, err error) {
	docs, err := b.ruleDocuments()
	if err != nil {
		return nil, "", err
	}
	src, version, err = docs.Document(ctx, workspace)
	if err != nil {
		return nil, "", fmt.Errorf("read rules of workspace %s: %w", workspace, err)
	}
	return src, version, nil
}

// PutRules replaces a workspace's rules document. It is compiled first as
// it would be used: a document that does not compile is refused with the
// loader's file:line:col message and nothing is stored. The change is
// recorded in the audit log as rules.changed by its author and published
// on the event stream. With a store shared by several nodes the store
// records the change on its feed, and every node applies it from there.
func (b *Broker) PutRules(ctx context.Context, workspace string, src []byte) error {
	by := caller(ctx)
	docs, err := b.ruleDocuments()
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(src)) == 0 {
		return toolgate.Errorf(toolgate.EInvalid, "empty rules document")
	}
	if _, err := docs.Compile(workspace, src); err != nil {
		if toolgate.ErrorCodeOf(err) == toolgate.EInternal {
			return fmt.Errorf("compile rules of workspace %s: %w", workspace, err)
		}
		return err
	}
	if err := docs.PutDocument(store.WithAuthor(ctx, by.Name, by.Via), workspace, src); err != nil {
		return fmt.Errorf("store rules of workspace %s: %w", workspace, err)
	}
	if b.feed != nil {
		return nil
	}
	sum := sha256.Sum256(src)
	data, _ := json.Marshal(map[string]any{"sha256": hex.EncodeToString(sum[:]), "bytes": len(src)})
	entry := toolgate.AuditEntry{Time: b.now(), Kind: RulesChanged, Workspace: workspace, Outcome: "changed", Who: by.Name, Via: by.Via, Data: data}
	if err := b.store.AppendAudit(ctx, entry); err != nil {
		// The document is stored and in force; only its record is
		// missing. Say so rather than pretend the change failed.
		b.log.Error("record rules change", "workspace", workspace, "err", err)
	}
	b.emit(toolgate.Event{Type: toolgate.EventRulesChanged, Time: b.now(), Workspace: workspace})
	return nil
}
