package sensitive

import (
	"reflect"
	"strings"
	"testing"
)

// compile builds the index from slabs; it holds what the plain build
// (a split and an append per entry) gives for the real table.
func TestCompileAsPlain(t *testing.T) {
	t.Parallel()
	got := table()
	var list []Entry
	for _, c := range got.list {
		list = append(list, c.Entry)
	}
	want := index{list: make([]compiled, len(list)), home: map[string][]int{}, root: map[string][]int{}, anywhere: map[string][]int{}}
	for i, e := range list {
		c := compiled{Entry: e, elems: strings.Split(strings.TrimSuffix(e.Path, "/"), "/")}
		want.list[i] = c
		first := c.elems[0]
		switch {
		case e.Anchor == Home:
			want.home[first] = append(want.home[first], i)
		case e.Anchor == Root:
			want.root[first] = append(want.root[first], i)
		case strings.Contains(first, "*"):
			want.globbed = append(want.globbed, i)
		default:
			want.anywhere[first] = append(want.anywhere[first], i)
		}
	}
	if len(list) < 50 {
		t.Fatalf("only %d entries", len(list))
	}
	if !reflect.DeepEqual(*got, want) {
		t.Fatalf("compile differs from the plain build:\n got %+v\nwant %+v", *got, want)
	}
}
