package rulesgate_test

import (
	"context"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/rulesgate"
)

func newGate(t *testing.T, opts ...rulesgate.Option) *rulesgate.Gate {
	t.Helper()
	d, err := policy.ParseWorkspace("test.jsonc", []byte(`{"*": "ask", "Read": {"*": "allow", "*.env": "deny"}}`))
	if err != nil {
		t.Fatal(err)
	}
	e, err := policy.New([]*policy.Document{d})
	if err != nil {
		t.Fatal(err)
	}
	return rulesgate.New(e, opts...)
}

func read(session, path string) toolgate.Call {
	return toolgate.Call{ID: "c", Session: session, Tool: "Read", Args: map[string]any{"file_path": path}}
}

func TestDecidesWithoutHolding(t *testing.T) {
	t.Parallel()
	g := newGate(t)
	ctx := context.Background()
	for _, c := range []struct {
		call toolgate.Call
		want toolgate.Action
	}{
		{read("s", "README.md"), toolgate.Allow},
		{read("s", ".env"), toolgate.Deny},
		{toolgate.Call{ID: "b", Session: "s", Tool: "Bash", Args: map[string]any{"command": "make"}}, toolgate.Ask},
	} {
		r, err := g.Submit(ctx, toolgate.SubmitRequest{Call: c.call})
		if err != nil || r.Decision.Action != c.want || r.Approval != nil {
			t.Errorf("Submit(%v) = %+v, %v; want %s and no approval", c.call.Args, r, err, c.want)
		}
	}
	if _, err := g.Approval(ctx, "ap"); toolgate.ErrorCodeOf(err) != toolgate.ENotFound {
		t.Errorf("Approval: %v, want not found", err)
	}
	if _, err := g.AddGrant(ctx, toolgate.Grant{Tool: "Bash", Pattern: "*"}); err == nil {
		t.Error("a rules-only gate took a grant")
	}
}

func TestModesAndAbortPerSession(t *testing.T) {
	t.Parallel()
	g := newGate(t)
	ctx := context.Background()
	bash := func(s string) toolgate.Call {
		return toolgate.Call{ID: "b", Session: s, Tool: "Bash", Args: map[string]any{"command": "make"}}
	}
	if _, err := g.SetMode(ctx, "s1", toolgate.ModeAutoDeny); err != nil {
		t.Fatal(err)
	}
	if d, _ := g.Evaluate(ctx, bash("s1")); d.Action != toolgate.Deny {
		t.Errorf("auto-deny session: %s", d.Action)
	}
	if d, _ := g.Evaluate(ctx, bash("s2")); d.Action != toolgate.Ask {
		t.Errorf("another session keeps the mode: %s", d.Action)
	}
	if _, err := g.Abort(ctx, "s2"); err != nil {
		t.Fatal(err)
	}
	if d, _ := g.Evaluate(ctx, read("s2", "README.md")); d.Action != toolgate.Deny {
		t.Errorf("aborted session: %s", d.Action)
	}
}
