package shell

import (
	"slices"
	"testing"
)

func TestPatternArgs(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want int
	}{
		{"grep", []string{"-o", "https://x", "README.md"}, 1},
		{"grep", []string{"-e", "https://x", "README.md"}, -1}, // -e gives the pattern
		{"grep", []string{"-f", "pats", "README.md"}, -1},
		{"grep", []string{"--", "x", "README.md"}, -1},
		{"sed", []string{"-n", "/^\\[s\\]/p", "c.ini"}, 1},
		{"sed", []string{"-e", "p", "c.ini"}, -1},
		{"rg", []string{"x", "src"}, 0},
		{"cat", []string{"x", "y"}, -1},
		{"grep", nil, -1},
		{"find", []string{".", "-maxdepth", "1", "-not", "-name", ".*"}, 5},
		{"find", []string{".", "-newer", "go.mod"}, -1}, // a file, not a pattern
		{"find", []string{".", "-name"}, -1},
	} {
		set := PatternArgs(c.name, c.args)
		var got []int
		for i := range 64 {
			if set.Has(i) {
				got = append(got, i)
			}
		}
		if want := []int{c.want}; c.want < 0 && len(got) != 0 || c.want >= 0 && !slices.Equal(got, want) {
			t.Errorf("PatternArgs(%q, %q) = %v, want %d", c.name, c.args, got, c.want)
		}
	}
}

// TestPatternArgsPast64: an index past the set's 64 is not a pattern, so
// that word is checked as the path it may be.
func TestPatternArgsPast64(t *testing.T) {
	args := make([]string, 0, 70)
	for range 65 {
		args = append(args, "-type", "f")
	}
	args = append(args, "-name", "*.go")
	if set := PatternArgs("find", args); set != 0 {
		t.Errorf("PatternArgs with -name's value at %d = %b, want none", len(args)-1, set)
	}
	if set := PatternArgs("find", []string{".", "-name", "*.go"}); !set.Has(2) || set.Has(1) || set.Has(64) {
		t.Errorf("PatternArgs(find . -name *.go) = %b, want index 2 only", set)
	}
}
