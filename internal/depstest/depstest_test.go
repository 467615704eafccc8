package depstest

import (
	"fmt"
	"strings"
	"testing"
)

func TestMatches(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		pattern, path string
		want          bool
	}{
		{"net", "net", true},
		{"net", "net/http", false},
		{"net/...", "net/http", true},
		{"net/...", "net", true},
		{"net/...", "netip", false},
		{"github.com/toolgate/toolgate/store/...", "github.com/toolgate/toolgate/store/sqlite", true},
		{"github.com/toolgate/toolgate/store/...", "github.com/toolgate/toolgate/storex", false},
	} {
		if got := matches(c.pattern, c.path); got != c.want {
			t.Errorf("matches(%q, %q) = %v, want %v", c.pattern, c.path, got, c.want)
		}
	}
}

// recorder is a testing.TB that keeps its errors.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestForbid: this package links package testing (so forbidding it
// fails) and nothing of the gateway (so forbidding that passes).
func TestForbid(t *testing.T) {
	r := &recorder{TB: t}
	Forbid(r, nil, "github.com/toolgate/toolgate/approval/...", "testing")
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], "links testing") {
		t.Fatalf("errors: %q, want one for package testing", r.errs)
	}
}
