package policy

import (
	"testing"

	"github.com/toolgate/toolgate"
)

// Engines share the built-in tool profile until a document declares a
// tool; a declaration changes only its own engine's profile.
func TestDeclarationStaysInItsEngine(t *testing.T) {
	t.Parallel()
	decl := &Document{Path: "decl.yaml", Tools: map[string]ToolSpec{
		"my_shell": {Kind: KindShell},
		"Bash":     {Kind: KindRead, Family: "read_file"},
	}}
	declared, err := New([]*Document{DefaultDocument(), decl})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := New([]*Document{DefaultDocument()})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := declared.tools["my_shell"]; !ok {
		t.Fatal("the declaring engine does not know my_shell")
	}
	if _, ok := plain.tools["my_shell"]; ok {
		t.Fatal("an engine without the declaration knows my_shell")
	}
	if _, ok := builtinProfile["my_shell"]; ok {
		t.Fatal("a declaration changed the built-in profile")
	}
	if got := plain.tools["Bash"].spec.Kind; got != KindShell {
		t.Fatalf("Bash is %s in an engine without the redeclaration", got)
	}
	// The decisions follow: Bash is a read in one engine, a shell in the other.
	call := &toolgate.Call{Tool: "Bash", Args: map[string]any{"command": "rm -rf ~/x", "file_path": "/tmp/x"}, Cwd: "/tmp"}
	var d1, d2 toolgate.Decision
	declared.Decide(call, Env{}, &d1)
	plain.Decide(call, Env{}, &d2)
	if d1.Action == d2.Action && d1.Reason == d2.Reason {
		t.Fatalf("both engines decide Bash alike (%v: %s)", d1.Action, d1.Reason)
	}
}
