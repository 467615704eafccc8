package policy

import (
	"testing"

	"github.com/toolgate/toolgate"
)

// The built-in explore layer is compiled on first use, not in New. That
// is sound only if it always compiles and restricts no files (New's
// fileRules would otherwise depend on it), for any tool profile; and it
// must decide as the same rules defined by a document do.
func TestExploreLazy(t *testing.T) {
	t.Parallel()
	declares := &Document{Path: "decl.yaml", Tools: map[string]ToolSpec{
		"read_file": {Kind: KindURL}, "grep": {Kind: KindRead}, "TodoWrite": {Kind: KindWrite},
	}}
	defines := &Document{Path: "agents.yaml", Agents: map[string][]Rule{"explore": exploreRules(), "Explore": exploreRules()}}
	calls := []toolgate.Call{
		{Tool: "Read", Args: map[string]any{"file_path": "/w/a.go"}, Cwd: "/w"},
		{Tool: "Grep", Args: map[string]any{"pattern": "x"}, Cwd: "/w"},
		{Tool: "Bash", Args: map[string]any{"command": "ls"}, Cwd: "/w"},
		{Tool: "Bash", Args: map[string]any{"command": "cat ~/.ssh/id_rsa"}, Cwd: "/w"},
		{Tool: "Write", Args: map[string]any{"file_path": "/w/a.go", "content": ""}, Cwd: "/w"},
		{Tool: "WebFetch", Args: map[string]any{"url": "https://example.com/"}, Cwd: "/w"},
		{Tool: "mcp__db__query", Args: map[string]any{"sql": "select 1"}, Cwd: "/w"},
	}
	for _, tc := range []struct {
		name string
		docs []*Document
	}{
		{"builtin profile", []*Document{DefaultDocument()}},
		{"declared tools", []*Document{DefaultDocument(), declares}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			lazy, err := New(tc.docs)
			if err != nil {
				t.Fatal(err)
			}
			eager, err := New(append(tc.docs, defines))
			if err != nil {
				t.Fatal(err)
			}
			rs, err := lazy.Compile(toolgate.LayerAgent, exploreRules())
			if err != nil {
				t.Fatalf("explore rules do not compile: %v", err)
			}
			if lazy.restrictsFiles(rs) {
				t.Fatal("the explore layer restricts files: New must compile it")
			}
			if lazy.fileRules != eager.fileRules {
				t.Fatalf("fileRules %v with the built-in explore layer, %v with it defined", lazy.fileRules, eager.fileRules)
			}
			for _, agent := range []string{"explore", "Explore", "plan", ""} {
				for i := range calls {
					c := calls[i]
					c.Agent = agent
					var got, want toolgate.Decision
					lazy.Decide(&c, Env{}, &got)
					eager.Decide(&c, Env{}, &want)
					if got.Action != want.Action || got.Reason != want.Reason {
						t.Errorf("agent %q %s: built-in %s (%s), defined %s (%s)", agent, c.Tool, got.Action, got.Reason, want.Action, want.Reason)
					}
				}
			}
			// The class of the check: explore denies what it does not
			// list; its benign twin, a call of an agent type without a
			// layer, is left to the other layers.
			bash := calls[2]
			bash.Agent = "explore"
			if d := lazy.Evaluate(&bash, toolgate.ModeDefault); d.Action != toolgate.Deny {
				t.Errorf("explore runs a command: %s (%s)", d.Action, d.Reason)
			}
			bash.Agent = "plan"
			if d := lazy.Evaluate(&bash, toolgate.ModeDefault); d.Action == toolgate.Deny {
				t.Errorf("an agent type without a layer is denied a command: %s", d.Reason)
			}
		})
	}
}

// A document that defines explore replaces the built-in layer for that
// agent type only.
func TestExploreReplaced(t *testing.T) {
	t.Parallel()
	open := &Document{Path: "agents.yaml", Agents: map[string][]Rule{"explore": {{Tool: "*", Action: toolgate.Allow}}}}
	e, err := New([]*Document{DefaultDocument(), open})
	if err != nil {
		t.Fatal(err)
	}
	for agent, want := range map[string]bool{"explore": false, "Explore": true} {
		c := toolgate.Call{Tool: "Bash", Args: map[string]any{"command": "ls"}, Cwd: "/w", Agent: agent}
		if d := e.Evaluate(&c, toolgate.ModeDefault); (d.Action == toolgate.Deny) != want {
			t.Errorf("agent %s: %s (%s), want deny %v", agent, d.Action, d.Reason, want)
		}
	}
}
