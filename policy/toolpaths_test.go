package policy_test

import (
	"fmt"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
)

// TestToolPathsPastTheBound checks that a tool's paths past the bound on
// subjects are not simply dropped: a secret behind thousands of project
// files is not allowed in yolo, while a call under the bound is decided
// by its paths.
func TestToolPathsPastTheBound(t *testing.T) {
	t.Parallel()
	e, err := policy.New([]*policy.Document{policy.DefaultDocument(), {Path: "host", Rules: []policy.Rule{
		{Tool: "mcp__fs__*", Action: toolgate.Allow, Source: policy.Source{File: "host", Line: 1}},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	paths := func(n int, last string) []any {
		var ps []any
		for i := range n {
			ps = append(ps, fmt.Sprintf("src/f%d.go", i))
		}
		return append(ps, last)
	}
	for _, tt := range []struct {
		n     int
		last  string
		mode  toolgate.Mode
		allow bool
	}{
		{5000, "/home/user/.ssh/id_rsa", toolgate.ModeYolo, false},
		{5000, "src/main.go", toolgate.ModeYolo, false}, // past the bound: a human looks
		{100, "/home/user/.ssh/id_rsa", toolgate.ModeYolo, false},
		{100, "src/main.go", toolgate.ModeDefault, true},
	} {
		c := &toolgate.Call{Tool: "mcp__fs__read_multiple_files", Cwd: "/home/user/proj",
			Args: map[string]any{"paths": paths(tt.n, tt.last)}}
		var d toolgate.Decision
		e.Decide(c, policy.Env{Mode: tt.mode}, &d)
		if (d.Action == toolgate.Allow) != tt.allow {
			t.Errorf("%d paths then %s in %s: %s (%s), want allow=%v", tt.n, tt.last, tt.mode, d.Action, d.Reason, tt.allow)
		}
	}
}
