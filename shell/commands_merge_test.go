package shell

import (
	"reflect"
	"testing"
)

// TestMergeSpecKeepsEveryField: a field set by only one family's entry
// survives the merge into the one table, whichever side sets it. A new
// cmdSpec field that mergeSpec forgets fails here, not in a decision.
func TestMergeSpecKeepsEveryField(t *testing.T) {
	t.Parallel()
	full := cmdSpec{
		long: []string{"x="}, shortVal: "x", effect: EffectNetwork, class: ClassDestructive, why: "w",
		unless: []string{"u"}, bare: true, opts: []optEffect{{names: []string{"-x"}}},
		subs: subcommands{{"s", &cmdSpec{}}}, deletes: true, recursive: []string{"-r"}, treeDeletes: true,
		dashOperand: func(string) bool { return true }, numeric: true,
		singleDash: true, bundled: true, exec: true, analyse: func([]string) []string { return nil },
		files: readAll, pattern: true, maxOps: 2, suffix: ".gz", decompress: true, saves: true, probe: true, fileOpts: true,
		fileCode: func(*walker, *cmdSpec, string, []word, scope, string, *dirState) {}, runs: runsSource,
		needMode: "m", everySub: []optEffect{{names: []string{"-x"}}}, otherSub: &cmdSpec{},
		wraps: true, inOrder: true, short: "v", shortAttached: "i", positional: 1, assigns: true, subject: true, noCommand: "p", launch: []launcher{{}},
		pairs: []string{"x"}, readOnly: true, readBare: true, notReadWith: []string{"-w"}, readWith: []string{"-l"}, readVerbs: []string{"list"}, verbAt: 1, about: []string{"-v"}, readSQL: []string{"-c"},
	}
	v := reflect.ValueOf(full)
	if n := v.NumField(); n != 49 {
		t.Fatalf("cmdSpec has %d fields; set the new ones in this test's full entry and merge them in mergeSpec", n)
	}
	for i := 0; i < v.NumField(); i++ {
		if v.Field(i).IsZero() {
			t.Fatalf("field %s is not set in the test's full entry", v.Type().Field(i).Name)
		}
	}
	for _, side := range []string{"a", "b"} {
		var m *cmdSpec
		if side == "a" {
			m = mergeSpec(&full, nil)
		} else {
			m = mergeSpec(nil, &full)
		}
		mv := reflect.ValueOf(*m)
		for i := 0; i < mv.NumField(); i++ {
			if mv.Field(i).IsZero() {
				t.Errorf("mergeSpec drops field %s when only %s sets it", mv.Type().Field(i).Name, side)
			}
		}
	}
}
