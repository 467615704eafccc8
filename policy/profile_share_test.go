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
	if _, ok := declared.profile.lookup("my_shell"); !ok {
		t.Fatal("the declaring engine does not know my_shell")
	}
	if _, ok := plain.profile.lookup("my_shell"); ok {
		t.Fatal("an engine without the declaration knows my_shell")
	}
	if got, _ := declared.profile.lookup("Bash"); got.spec.Kind != KindRead || got.family != familyRead {
		t.Fatalf("Bash is %s of family %s in the engine that redeclares it", got.spec.Kind, got.family)
	}
	if got, _ := plain.profile.lookup("Bash"); got.spec.Kind != KindShell {
		t.Fatalf("Bash is %s in an engine without the redeclaration", got.spec.Kind)
	}
	// A declared shell tool joins the shell family; it is no family of
	// its own.
	if !declared.profile.knownFamily(familyShell) || declared.profile.knownFamily("my_shell") {
		t.Fatal("the declaring engine's family table is wrong about shell and my_shell")
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

// TestBuiltinToolsSorted: findBuiltin's binary search needs the table in
// byte order with each name once, and an alias group's key must be a
// member of its own group, so that every name of the group answers to it.
func TestBuiltinToolsSorted(t *testing.T) {
	t.Parallel()
	for i := range builtinTools {
		b := &builtinTools[i]
		if i > 0 && builtinTools[i-1].name >= b.name {
			t.Errorf("builtinTools[%d] %q is not after %q", i, b.name, builtinTools[i-1].name)
		}
		if int(b.group) >= len(profileGroups) {
			t.Errorf("%s: no group %d", b.name, b.group)
		}
		if got, ok := findBuiltin(b.name); !ok || got != b {
			t.Errorf("findBuiltin(%q) does not find its entry", b.name)
		}
		if b.same != "" {
			if k, ok := findBuiltin(b.same); !ok || k.same != b.same {
				t.Errorf("%s: alias key %q is not a member of its group", b.name, b.same)
			}
		}
	}
	for _, name := range []string{"", "A", "bash2", "zzz", "mcp__x__y"} {
		if _, ok := findBuiltin(name); ok {
			t.Errorf("findBuiltin(%q) found an entry", name)
		}
	}
}
