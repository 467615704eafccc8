package shell

import (
	"strings"
	"testing"
)

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

// findDeleteAt finds the -delete action, not a word of an -exec command
// or a test's value; what it cannot place counts as the action.
func TestFindDeleteAt(t *testing.T) {
	for _, c := range []struct {
		args string
		want int
	}{
		{". -delete", 1},
		{"/ -name x -delete", 3},
		{"/ -exec true ; -delete", 4},
		{"~ -exec echo {} + -delete", 5},
		{". -exec echo -delete ; -print", -1},
		{". -execdir echo -delete + -print", -1},
		{". -name -delete -print", -1},
		{"/ -exec echo + -delete ;", 4},  // + ends -exec only after {}: read as ending here
		{"/ -fprintf out -delete", 3},    // the format, read as the action
		{"/ -unknownprimary -delete", 2}, // an unknown primary takes no value
		{". -exec rm {}", -1},            // no terminator: the rest is the command
	} {
		if got := findDeleteAt(strings.Fields(c.args)); got != c.want {
			t.Errorf("findDeleteAt(%q) = %d, want %d", c.args, got, c.want)
		}
	}
}
