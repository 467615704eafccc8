package shell

import "testing"

func TestPatternOperand(t *testing.T) {
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
	} {
		if got := PatternOperand(c.name, c.args); got != c.want {
			t.Errorf("PatternOperand(%q, %q) = %d, want %d", c.name, c.args, got, c.want)
		}
	}
}
