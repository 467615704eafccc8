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
		bare: true, opts: []optEffect{{names: []string{"-x"}}},
		subs: subcommands{{"s", &cmdSpec{}}}, deletes: true, treeDeletes: true,
		numeric:    true,
		singleDash: true, bundled: true, exec: true,
		files: readAll, pattern: true, decompress: true, saves: true, probe: true, fileOpts: true, runs: runsSource,

		wraps: true, inOrder: true, assigns: true, subject: true,
		readOnly: true, readBare: true,
		wrap: &wrapSpec{short: "v", shortAttached: "i", positional: 1, noCommand: "p", launch: []launcher{{}}},
		read: &readSpec{notReadWith: []string{"-w"}, readWith: []string{"-l"}, readVerbs: []string{"list"}, verbAt: 1,
			about: []string{"-v"}, readSQL: []string{"-c"}, readKey: true, readEnvNames: true, startsProject: true, verbOnly: true, verbLast: true},
		rare: &rareSpec{unless: []string{"u"}, dryRun: []string{"-n"}, recursive: []string{"-r"}, dashOperand: func(string) bool { return true },
			analyse: func([]string) []string { return nil }, maxOps: 2, suffix: ".gz",
			fileCode: func(*walker, *cmdSpec, string, []word, scope, string, *dirState) {}, needMode: "m",
			otherProgram: func([]string) bool { return true },
			patternArgs:  func([]string) ArgSet { return 0 },
			everySub:     []optEffect{{names: []string{"-x"}}}, otherSub: &cmdSpec{}, pairs: []string{"x"}},
	}
	fields := entryFields(&full)
	if n := len(fields); n != 57 {
		t.Fatalf("cmdSpec has %d fields; set the new ones in this test's full entry and merge them in mergeSpec", n)
	}
	for name, f := range fields {
		if f.IsZero() {
			t.Fatalf("field %s is not set in the test's full entry", name)
		}
	}
	for _, side := range []string{"a", "b"} {
		var m *cmdSpec
		if side == "a" {
			m = mergeSpec(&full, nil)
		} else {
			m = mergeSpec(nil, &full)
		}
		for name, f := range entryFields(m) {
			if f.IsZero() {
				t.Errorf("mergeSpec drops field %s when only %s sets it", name, side)
			}
		}
	}
	// A group's field set alone survives too: a merge drops only a group
	// whose fields are all zero.
	fv := reflect.ValueOf(full)
	for i := 0; i < fv.NumField(); i++ {
		g := fv.Field(i)
		if g.Kind() != reflect.Pointer || g.Type().Elem().Kind() != reflect.Struct || g.Type() == reflect.TypeFor[*cmdSpec]() {
			continue
		}
		for j := 0; j < g.Elem().NumField(); j++ {
			one := reflect.New(g.Type().Elem())
			settable(one.Elem().Field(j)).Set(settable(g.Elem().Field(j)))
			alone := cmdSpec{class: full.class} // unless goes with a class
			settable(reflect.ValueOf(&alone).Elem().Field(i)).Set(one)
			name := fv.Type().Field(i).Name + "." + g.Elem().Type().Field(j).Name
			if f := entryFields(mergeSpec(nil, &alone))[name]; f.IsZero() {
				t.Errorf("mergeSpec drops field %s when it is the only field of its group", name)
			}
		}
	}
}

// settable is v, an unexported field of an addressable struct, made
// settable.
func settable(v reflect.Value) reflect.Value {
	return reflect.NewAt(v.Type(), v.Addr().UnsafePointer()).Elem()
}

// entryFields are the fields of entry s by name, a group's (wrap, read,
// rare) as group.field; a nil group's fields are zero values.
func entryFields(s *cmdSpec) map[string]reflect.Value {
	out := map[string]reflect.Value{}
	v := reflect.ValueOf(s).Elem()
	for i := 0; i < v.NumField(); i++ {
		f, name := v.Field(i), v.Type().Field(i).Name
		if f.Kind() != reflect.Pointer || f.Type().Elem().Kind() != reflect.Struct || f.Type() == reflect.TypeFor[*cmdSpec]() {
			out[name] = f
			continue
		}
		g := reflect.New(f.Type().Elem()).Elem()
		if !f.IsNil() {
			g = f.Elem()
		}
		for j := 0; j < g.NumField(); j++ {
			out[name+"."+g.Type().Field(j).Name] = g.Field(j)
		}
	}
	return out
}
