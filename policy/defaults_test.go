package policy

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
)

func TestDefaultDocument(t *testing.T) {
	t.Parallel()
	d := DefaultDocument()
	if d.Path != DefaultPath || DefaultPath != "builtin:default" || !d.Workspace {
		t.Errorf("Path = %q, Workspace = %v", d.Path, d.Workspace)
	}
	// Every rule of the seed's default document is there (edit_file's
	// as write_file's: one family), in the "$defaults" block, so every
	// rule is a built-in default. seed001_defaults.txtar checks what
	// they decide.
	seed, err := os.ReadFile(filepath.Join("testdata", "load", "good", "seed001_default.jsonc"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := ParseWorkspace("seed", seed)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range want.Rules {
		tool := strings.Replace(w.Tool, "edit_file", "write_file", 1)
		if !slices.ContainsFunc(d.Rules, func(r Rule) bool {
			return r.Tool == tool && r.Pattern == w.Pattern && r.Action == w.Action
		}) && !(tool == "write_file" && w.Pattern == "*") { // now: allow inside the workspace, ask outside
			t.Errorf("default rules lack the seed's %s %q %v", w.Tool, w.Pattern, w.Action)
		}
	}
	for _, r := range d.Rules {
		if !r.Default {
			t.Errorf("default rule %s %q is not marked Default", r.Tool, r.Pattern)
		}
	}
	for _, r := range d.Rules {
		if r.Source.File != DefaultPath || r.Source.Line == 0 {
			t.Errorf("source %v", r.Source)
		}
	}
	// Each call returns a copy.
	d.Rules[0].Action = toolgate.Allow
	d.Rules = d.Rules[:1]
	if again := DefaultDocument(); again.Rules[0].Action != toolgate.Ask || len(again.Rules) == 1 {
		t.Error("DefaultDocument shares state between calls")
	}
}

func TestDefaultRulesJSONCHasComments(t *testing.T) {
	t.Parallel()
	// The text seeds new workspace files: it must explain itself.
	for _, s := range []string{"// ", "LAST rule that matches", `"toolName": "action"`, "~/"} {
		if !strings.Contains(string(defaultRulesJSONC), s) {
			t.Errorf("defaultRulesJSONC lacks %q", s)
		}
	}
}
