package policy

import (
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
)

func TestRemoveRuleUndoesAppendRule(t *testing.T) {
	t.Parallel()
	base := defaultRulesJSONC
	doc, err := ParseWorkspace("base", base)
	if err != nil {
		t.Fatal(err)
	}
	// Three grants: one into an entry turned detailed, one new entry, one
	// more inside that entry.
	src := base
	for _, g := range []struct{ id, tool, pattern string }{
		{"g1", "shell_exec", "git push *"},
		{"g2", "Bash", "make *"},
		{"g3", "Bash", "npm test"},
	} {
		src, err = AppendRule(src, Rule{Tool: g.tool, Pattern: g.pattern, Action: toolgate.Allow}, "granted by alice (grant "+g.id+")")
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []string{"g2", "g1", "g3"} {
		var found bool
		src, found, err = RemoveRule(src, "(grant "+id+")")
		if err != nil || !found {
			t.Fatalf("remove %s: found %v, %v", id, found, err)
		}
		if strings.Contains(string(src), "(grant "+id+")") && id != "g2" {
			t.Fatalf("remove %s left its comment:\n%s", id, src)
		}
	}
	got, err := ParseWorkspace("after", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Rules) != len(doc.Rules) {
		t.Fatalf("after removing every grant: %d rules, want %d\n%s", len(got.Rules), len(doc.Rules), src)
	}
	for i := range got.Rules {
		if got.Rules[i].Tool != doc.Rules[i].Tool || got.Rules[i].Pattern != doc.Rules[i].Pattern || got.Rules[i].Action != doc.Rules[i].Action {
			t.Fatalf("rule %d: %+v, want %+v", i, got.Rules[i], doc.Rules[i])
		}
	}
	if !strings.Contains(string(src), "// Skills ask first") {
		t.Fatal("comments were lost")
	}
	// A marker that is not there changes nothing.
	same, found, err := RemoveRule(src, "(grant nope)")
	if err != nil || found || string(same) != string(src) {
		t.Fatalf("missing marker: %v %v", found, err)
	}
}
