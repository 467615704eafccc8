package shell

import (
	"slices"
	"strings"
	"testing"
)

// TestWrapped: a wrapper's entry read by the one parser gives the start of
// the command it runs, its environment assignments and whether an option
// is unknown, as the wrapper reads its command line.
func TestWrapped(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line    string
		inner   string // the command the wrapper runs
		envs    []string
		unknown bool
	}{
		{"env A=1 -i B=2 rm x", "rm x", []string{"A=1", "B=2"}, false},
		{"env - rm x", "rm x", nil, false},
		{"env --unse X rm x", "rm x", nil, false},         // --unset takes X
		{"env -- A=1 rm x", "A=1 rm x", nil, false},       // after -- the command
		{"timeout --kill-a 1 5 rm x", "rm x", nil, false}, // DURATION is positional
		{"timeout -- 5 rm x", "rm x", nil, false},
		{"timeout 5", "", nil, false},
		{"nice -10 rm x", "rm x", nil, false},
		{"nice --adj 5 rm x", "rm x", nil, false},
		{"sudo --p rm x", "rm x", nil, true},           // ambiguous: refused, takes no value
		{"sudo -Zu root rm x", "root rm x", nil, true}, // an unknown letter ends the cluster
		{"sudo --bogus=1 rm x", "rm x", nil, true},
		{"setarch x86_64 -R rm x", "rm x", nil, false},
		{"ionice -p 1", "", nil, false},
	} {
		f := strings.Fields(tc.line)
		words := make([]word, len(f))
		for i, x := range f {
			words[i] = litWord(x)
		}
		s := wrapperFor(f[0])
		if s == nil {
			t.Fatalf("%s: no wrapper entry", f[0])
		}
		start, _, envs, unknown := s.wrapped(words)
		got := strings.Join(f[start:], " ")
		if got != tc.inner || !slices.Equal(envs, tc.envs) || unknown != tc.unknown {
			t.Errorf("%q: runs %q, envs %q, unknown %v; want %q, %q, %v", tc.line, got, envs, unknown, tc.inner, tc.envs, tc.unknown)
		}
	}
}
