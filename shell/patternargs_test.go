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
		got := PatternArgs(c.name, c.args, nil)
		if want := []int{c.want}; c.want < 0 && len(got) != 0 || c.want >= 0 && !slices.Equal(got, want) {
			t.Errorf("PatternArgs(%q, %q) = %v, want %d", c.name, c.args, got, c.want)
		}
	}
}
