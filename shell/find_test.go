package shell

import "testing"

// findPrimaryOf searches findPrimaries by name: every entry is found,
// which it is only when they are sorted.
func TestFindPrimariesSorted(t *testing.T) {
	for i, e := range findPrimaries {
		if i > 0 && findPrimaries[i-1].name >= e.name {
			t.Fatalf("findPrimaries not sorted: %q before %q", findPrimaries[i-1].name, e.name)
		}
		if p, ok := findPrimaryOf(e.name); !ok || p != e.p {
			t.Errorf("findPrimaryOf(%q) = %v, %v; want %v", e.name, p, ok, e.p)
		}
	}
	if _, ok := findPrimaryOf("-exec"); ok {
		t.Error("-exec is listed: it runs a command, and no names are then known")
	}
}
