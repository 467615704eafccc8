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
	// The same rules, in the same order, as the seed's default document.
	seed, err := os.ReadFile(filepath.Join("testdata", "load", "good", "seed001_default.jsonc"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := ParseWorkspace("seed", seed)
	if err != nil {
		t.Fatal(err)
	}
	strip := func(rs []Rule) []Rule {
		out := slices.Clone(rs)
		for i := range out {
			out[i].Source = Source{}
		}
		return out
	}
	if got, w := strip(d.Rules), strip(want.Rules); !slices.EqualFunc(got, w, func(a, b Rule) bool {
		return a.Tool == b.Tool && a.Pattern == b.Pattern && a.Action == b.Action
	}) {
		t.Errorf("default rules:\n got %v\nwant %v", rulesText(got), rulesText(w))
	}
	for _, r := range d.Rules {
		if r.Source.File != DefaultPath || r.Source.Line == 0 {
			t.Errorf("source %v", r.Source)
		}
	}
	// Each call returns a copy.
	d.Rules[0].Action = toolgate.Allow
	d.Rules = d.Rules[:1]
	if again := DefaultDocument(); again.Rules[0].Action != toolgate.Ask || len(again.Rules) != len(want.Rules) {
		t.Error("DefaultDocument shares state between calls")
	}
}

func TestDefaultRulesJSONCHasComments(t *testing.T) {
	t.Parallel()
	// The text seeds new workspace files: it must explain itself.
	for _, s := range []string{"// ", "LAST rule that matches", `"toolName": "action"`, "~/"} {
		if !strings.Contains(string(DefaultRulesJSONC), s) {
			t.Errorf("DefaultRulesJSONC lacks %q", s)
		}
	}
}
