package toolgate_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
)

func TestCallDigest(t *testing.T) {
	t.Parallel()
	base := toolgate.Call{ID: "c1", Session: "s", Workspace: "w", Tool: "Bash", Cwd: "/p",
		Args: map[string]any{"command": "ls", "n": float64(3), "opts": map[string]any{"a": []any{true, nil}}}}
	d := toolgate.CallDigest(&base)
	decoded := func(s string) map[string]any {
		var m map[string]any
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		if err := dec.Decode(&m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	for _, tc := range []struct {
		name string
		c    toolgate.Call
		same bool
	}{
		{"same", base, true},
		{"other id and metadata", toolgate.Call{ID: "c2", Session: "s", Workspace: "w", Tool: "Bash", Cwd: "/p", Agent: "x", Origin: "o",
			Args: map[string]any{"opts": map[string]any{"a": []any{true, nil}}, "n": 3, "command": "ls"}}, true},
		{"json numbers", toolgate.Call{Session: "s", Workspace: "w", Tool: "Bash", Cwd: "/p",
			Args: decoded(`{"n":3.0,"command":"ls","opts":{"a":[true,null]}}`)}, true},
		{"other session", withCall(base, func(c *toolgate.Call) { c.Session = "t" }), false},
		{"other workspace", withCall(base, func(c *toolgate.Call) { c.Workspace = "v" }), false},
		{"other tool", withCall(base, func(c *toolgate.Call) { c.Tool = "bash" }), false},
		{"other cwd", withCall(base, func(c *toolgate.Call) { c.Cwd = "/" }), false},
		{"other number", withArgs(base, "n", float64(4)), false},
		{"number as string", withArgs(base, "n", "3"), false},
		{"null vs missing", withArgs(base, "extra", nil), false},
		{"array vs object", withArgs(base, "opts", []any{"a", []any{true, nil}}), false},
		{"boundary shift", toolgate.Call{Session: "s", Workspace: "w", Tool: "Bash/p", Args: base.Args}, false},
		{"invalid UTF-8 kept", withArgs(base, "command", "ls\xff"), false},
	} {
		if got := toolgate.CallDigest(&tc.c) == d; got != tc.same {
			t.Errorf("%s: same digest %v, want %v", tc.name, got, tc.same)
		}
	}
	a, b := withArgs(base, "command", "ls\xfe"), withArgs(base, "command", "ls\xff")
	if toolgate.CallDigest(&a) == toolgate.CallDigest(&b) {
		t.Error("two invalid UTF-8 strings digest alike")
	}
}

func withCall(c toolgate.Call, f func(*toolgate.Call)) toolgate.Call { f(&c); return c }

func withArgs(c toolgate.Call, k string, v any) toolgate.Call {
	args := map[string]any{}
	for k, v := range c.Args {
		args[k] = v
	}
	args[k] = v
	c.Args = args
	return c
}
