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
	out.shortVal = a.shortVal
	for i := 0; i < len(b.shortVal); i++ {
		if strings.IndexByte(out.shortVal, b.shortVal[i]) < 0 {
			out.shortVal += b.shortVal[i : i+1]
		}
	}
	out.effect |= b.effect
	if b.class != "" {
		out.class, out.why, out.bare = b.class, b.why, b.bare
	}
	out.opts = append(append([]optEffect(nil), a.opts...), b.opts...)
	out.deletes = a.deletes || b.deletes
	out.treeDeletes = a.treeDeletes || b.treeDeletes
	out.numeric = a.numeric || b.numeric
	out.singleDash = a.singleDash || b.singleDash
	out.bundled = a.bundled || b.bundled
	out.wraps = a.wraps || b.wraps
	out.inOrder = a.inOrder || b.inOrder
	out.assigns = a.assigns || b.assigns
	out.subject = a.subject || b.subject
	out.exec = a.exec || b.exec
	if b.files != noFiles {
		out.files = b.files
	}
	out.pattern = a.pattern || b.pattern
	out.decompress = a.decompress || b.decompress
	out.saves = a.saves || b.saves
	out.probe = a.probe || b.probe
	out.fileOpts = a.fileOpts || b.fileOpts
	if b.runs != runsNothing {
		out.runs = b.runs
	}
	out.readOnly = a.readOnly || b.readOnly
	out.readBare = a.readBare || b.readBare
	// A group is there when either entry has it.
	if a.wrap != nil || b.wrap != nil {
		aw, bw := a.wrapFields(), b.wrapFields()
		out.wrap = &wrapSpec{
			short:         joinBytes(aw.short, bw.short),
			shortAttached: joinBytes(aw.shortAttached, bw.shortAttached),
			positional:    max(aw.positional, bw.positional),
			noCommand:     joinBytes(aw.noCommand, bw.noCommand),
			launch:        append(append([]launcher(nil), aw.launch...), bw.launch...),
		}
	}
	if a.read != nil || b.read != nil {
		ar, br := a.readFields(), b.readFields()
		out.read = &readSpec{
			notReadWith:   join(ar.notReadWith, br.notReadWith),
			readWith:      join(ar.readWith, br.readWith),
			readVerbs:     join(ar.readVerbs, br.readVerbs),
			verbAt:        max(ar.verbAt, br.verbAt),
			about:         join(ar.about, br.about),
			readSQL:       join(ar.readSQL, br.readSQL),
			readKey:       ar.readKey || br.readKey,
			readEnvNames:  ar.readEnvNames || br.readEnvNames,
			verbOnly:      ar.verbOnly || br.verbOnly,
			verbLast:      ar.verbLast || br.verbLast,
			startsProject: ar.startsProject || br.startsProject,
		}
	}
	if a.rare != nil || b.rare != nil {
		ar, br := a.rareFields(), b.rareFields()
		r := ar
		r.pairs = join(ar.pairs, br.pairs)
		if b.class != "" {
			r.unless = br.unless
		}
		r.dryRun = join(ar.dryRun, br.dryRun)
		r.recursive = join(ar.recursive, br.recursive)
		if br.dashOperand != nil {
			r.dashOperand = br.dashOperand
		}
		r.maxOps = max(ar.maxOps, br.maxOps)
		if br.suffix != "" {
			r.suffix = br.suffix
		}
		if br.fileCode != nil {
			r.fileCode = br.fileCode
		}
		if br.otherProgram != nil {
			r.otherProgram = br.otherProgram
		}
		if br.patternArgs != nil {
			r.patternArgs = br.patternArgs
		}
		if br.needMode != "" {
			r.needMode = br.needMode
		}
		r.everySub = append(append([]optEffect(nil), ar.everySub...), br.everySub...)
		if br.otherSub != nil {
			r.otherSub = br.otherSub
		}
		r.analyse = chainChecks(ar.analyse, br.analyse)
		out.rare = &r
	}
	// A group whose fields merge to nothing is none.
	if out.wrap != nil && reflect.ValueOf(*out.wrap).IsZero() {
		out.wrap = nil
	}
	if out.read != nil && reflect.ValueOf(*out.read).IsZero() {
		out.read = nil
	}
	if out.rare != nil && reflect.ValueOf(*out.rare).IsZero() {
		out.rare = nil
	}
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
