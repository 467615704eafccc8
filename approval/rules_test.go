package approval_test

import (
	"context"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/store"
)

// TestPutRules: the broker owns rules changes: an invalid document is
// refused and nothing changes; a valid one is stored, decides the next
// call, is audited with its author and published.
func TestPutRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	before, _, err := e.broker.Rules(ctx, "default")
	if err != nil {
		t.Fatal(err)
	}
	events := e.broker.Subscribe(ctx, toolgate.EventFilter{})
	defer events.Close()

	if err := e.broker.PutRules(toolgate.WithActor(ctx, root), "default", []byte(`{"Bash": {"git *": "perhaps"}}`)); toolgate.ErrorCodeOf(err) != toolgate.EInvalid {
		t.Fatalf("invalid document: %v, want invalid", err)
	}
	if after, _, _ := e.broker.Rules(ctx, "default"); string(after) != string(before) {
		t.Fatal("a refused document changed the stored one")
	}

	doc := []byte("// mine\n{\"*\": \"ask\", \"Bash\": {\"make test\": \"allow\"}}\n")
	if err := e.broker.PutRules(toolgate.WithActor(ctx, root), "default", doc); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := e.broker.Rules(ctx, "default"); string(got) != string(doc) {
		t.Fatalf("stored %q", got)
	}
	if r := e.submit(t, shellCall("s1", "c1", "make test")); r.Decision.Action != toolgate.Allow {
		t.Errorf("the next call under the new document: %s (%s)", r.Decision.Action, r.Decision.Reason)
	}
	entries, err := e.store.ListAudit(ctx, store.AuditFilter{Kind: approval.RulesChanged})
	if err != nil || len(entries) != 1 || entries[0].Who != root.Name || entries[0].Workspace != "default" {
		t.Fatalf("audit: %+v %v", entries, err)
	}
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev := <-events.Events():
			if ev.Type != toolgate.EventRulesChanged {
				continue
			}
			if ev.Workspace != "default" {
				t.Errorf("event %+v", ev)
			}
			return
		case <-timeout:
			t.Fatal("no rules.changed event")
		}
	}
}
