package shell

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// copyingMerge is mergeSpec as first written, copying every list: the
// oracle for the merge that shares the lists of single-family entries.
func copyingMerge(a, b *cmdSpec) *cmdSpec {
	if a == nil {
		a = &cmdSpec{}
	}
	if b == nil {
		b = &cmdSpec{}
	}
	join := func(a, b []string) []string {
		if len(b) == 0 {
			return a
		}
		out := append([]string(nil), a...)
		for _, x := range b {
			if !contains(out, x) {
				out = append(out, x)
			}
		}
		return out
	}
	out := *a
	out.subs = nil
	out.long = join(a.long, b.long)
	out.pairs = join(a.pairs, b.pairs)
	out.shortVal = a.shortVal
	for i := 0; i < len(b.shortVal); i++ {
		if strings.IndexByte(out.shortVal, b.shortVal[i]) < 0 {
			out.shortVal += b.shortVal[i : i+1]
		}
	}
	out.effect |= b.effect
	if b.class != "" {
		out.class, out.why, out.unless, out.bare = b.class, b.why, b.unless, b.bare
	}
	out.opts = append(append([]optEffect(nil), a.opts...), b.opts...)
	out.deletes = a.deletes || b.deletes
	out.recursive = join(a.recursive, b.recursive)
	out.treeDeletes = a.treeDeletes || b.treeDeletes
	if b.dashOperand != nil {
		out.dashOperand = b.dashOperand
	}
	out.numeric = a.numeric || b.numeric
	out.singleDash = a.singleDash || b.singleDash
	out.bundled = a.bundled || b.bundled
	out.wraps = a.wraps || b.wraps
	out.inOrder = a.inOrder || b.inOrder
	out.short = joinBytes(a.short, b.short)
	out.shortAttached = joinBytes(a.shortAttached, b.shortAttached)
	out.positional = max(a.positional, b.positional)
	out.assigns = a.assigns || b.assigns
	out.subject = a.subject || b.subject
	out.noCommand = joinBytes(a.noCommand, b.noCommand)
	out.launch = append(append([]launcher(nil), a.launch...), b.launch...)
	out.exec = a.exec || b.exec
	if b.files != noFiles {
		out.files = b.files
	}
	out.pattern = a.pattern || b.pattern
	out.maxOps = max(a.maxOps, b.maxOps)
	if b.suffix != "" {
		out.suffix = b.suffix
	}
	out.decompress = a.decompress || b.decompress
	out.saves = a.saves || b.saves
	out.probe = a.probe || b.probe
	out.fileOpts = a.fileOpts || b.fileOpts
	if b.fileCode != nil {
		out.fileCode = b.fileCode
	}
	if b.runs != runsNothing {
		out.runs = b.runs
	}
	if b.needMode != "" {
		out.needMode = b.needMode
	}
	out.everySub = append(append([]optEffect(nil), a.everySub...), b.everySub...)
	if b.otherSub != nil {
		out.otherSub = b.otherSub
	}
	out.readOnly = a.readOnly || b.readOnly
	out.readBare = a.readBare || b.readBare
	out.notReadWith = join(a.notReadWith, b.notReadWith)
	out.readWith = join(a.readWith, b.readWith)
	out.readVerbs = join(a.readVerbs, b.readVerbs)
	out.verbAt = max(a.verbAt, b.verbAt)
	out.about = join(a.about, b.about)
	out.readSQL = join(a.readSQL, b.readSQL)
	out.analyse = chainChecks(a.analyse, b.analyse)
	for _, sc := range a.subs {
		out.subs = append(out.subs, namedSpec{sc.name, copyingMerge(sc.spec, nil)})
	}
	for _, sc := range b.subs {
		if i := out.subs.index(sc.name); i >= 0 {
			out.subs[i].spec = copyingMerge(out.subs[i].spec, sc.spec)
		} else {
			out.subs = append(out.subs, namedSpec{sc.name, copyingMerge(nil, sc.spec)})
		}
	}
	return &out
}

// describe spells out a value of the table: every field, functions by
// their code, nil and empty lists alike (an entry's use never tells them
// apart).
func describe(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return "nil"
		}
		return describe(v.Elem())
	case reflect.Struct:
		var b strings.Builder
		b.WriteString("{")
		for i := 0; i < v.NumField(); i++ {
			fmt.Fprintf(&b, "%s:%s ", v.Type().Field(i).Name, describe(v.Field(i)))
		}
		return b.String() + "}"
	case reflect.Slice:
		var b strings.Builder
		b.WriteString("[")
		for i := 0; i < v.Len(); i++ {
			b.WriteString(describe(v.Index(i)) + " ")
		}
		return b.String() + "]"
	case reflect.Map:
		var keys []string
		for _, k := range v.MapKeys() {
			keys = append(keys, k.String())
		}
		sort.Strings(keys)
		var b strings.Builder
		b.WriteString("map[")
		for _, k := range keys {
			b.WriteString(k + ":" + describe(v.MapIndex(reflect.ValueOf(k))) + " ")
		}
		return b.String() + "]"
	case reflect.Func:
		if v.IsNil() {
			return "func(nil)"
		}
		return fmt.Sprintf("func(%#x)", v.Pointer())
	case reflect.String:
		return fmt.Sprintf("%q", v.String())
	}
	return fmt.Sprint(v)
}

// The merged table is what merging by copying every list gives, entry by
// entry, options declared.
func TestMergeSharesNoDifference(t *testing.T) {
	t.Parallel()
	want := map[string]*cmdSpec{}
	for _, family := range []map[string]*cmdSpec{riskCommands(), execCommands(), fileCommands(), wrapCommands(), launchCommands(), readCommands()} {
		for name, s := range family {
			want[name] = copyingMerge(want[name], s)
		}
	}
	for _, s := range want {
		declareOptions(s)
	}
	got := tableEntries()
	if len(got) != len(want) {
		t.Fatalf("%d entries, want %d", len(got), len(want))
	}
	for name, w := range want {
		if g, w := describe(reflect.ValueOf(got[name])), describe(reflect.ValueOf(w)); g != w {
			t.Errorf("%s:\n got %s\nwant %s", name, g, w)
		}
	}
}
