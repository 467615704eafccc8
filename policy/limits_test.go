package policy_test

import (
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
)

// A command too large to analyse is ask, never allow, whatever the rules
// (DESIGN §3.1: no size limit weakens a decision).
func TestOverLargeCommandAsks(t *testing.T) {
	t.Parallel()
	doc, err := policy.ParseWorkspace("allow.jsonc", []byte(`{"*": "allow"}`))
	if err != nil {
		t.Fatal(err)
	}
	e, err := policy.New([]*policy.Document{doc}, policy.WithMaxCommandBytes(1024))
	if err != nil {
		t.Fatal(err)
	}
	small := "echo " + strings.Repeat("a", 900)
	large := "echo " + strings.Repeat("a", 2000)
	if d := e.Evaluate(&toolgate.Call{Tool: "Bash", Args: map[string]any{"command": small}}, toolgate.ModeYolo); d.Action != toolgate.Allow {
		t.Fatalf("small command: %s (%s)", d.Action, d.Reason)
	}
	for _, mode := range []toolgate.Mode{toolgate.ModeDefault, toolgate.ModeYolo} {
		d := e.Evaluate(&toolgate.Call{Tool: "Bash", Args: map[string]any{"command": large}}, mode)
		if d.Action != toolgate.Ask || !strings.Contains(d.Reason, "large") {
			t.Fatalf("over-large command in %s: %s (%s)", mode, d.Action, d.Reason)
		}
	}
}
