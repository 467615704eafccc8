package digest_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/digest"
)

func TestCall(t *testing.T) {
	t.Parallel()
	base := toolgate.Call{ID: "c1", Session: "s", Workspace: "w", Tool: "Bash", Cwd: "/p",
		Args: map[string]any{"command": "ls", "n": float64(3), "opts": map[string]any{"a": []any{true, nil}}}}
	d := digest.Call(&base)
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
		if got := digest.Call(&tc.c) == d; got != tc.same {
			t.Errorf("%s: same digest %v, want %v", tc.name, got, tc.same)
		}
	}
	a, b := withArgs(base, "command", "ls\xfe"), withArgs(base, "command", "ls\xff")
	if digest.Call(&a) == digest.Call(&b) {
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

func chain(n int) []toolgate.AuditEntry {
	var out []toolgate.AuditEntry
	prev := ""
	for i := 1; i <= n; i++ {
		e := toolgate.AuditEntry{
			Seq: int64(i), Time: time.Date(2026, 11, 21, 8, 0, i, 123456789, time.UTC),
			Kind: "decision", Tool: "Bash", Outcome: "allow", Data: json.RawMessage(`{"command":"ls"}`),
			PrevHash: prev,
		}
		e.Hash = digest.AuditEntry(e)
		prev = e.Hash
		out = append(out, e)
	}
	return out
}

func TestVerifyChain(t *testing.T) {
	t.Parallel()
	if err := digest.VerifyChain(chain(5), ""); err != nil {
		t.Fatalf("intact chain: %v", err)
	}
	tampered := chain(5)
	tampered[2].Outcome = "deny"
	if err := digest.VerifyChain(tampered, ""); err == nil || !strings.Contains(err.Error(), "entry 3") {
		t.Fatalf("changed entry: got %v, want an error naming entry 3", err)
	}
	removed := chain(5)
	removed = append(removed[:1], removed[2:]...)
	if err := digest.VerifyChain(removed, ""); err == nil || !strings.Contains(err.Error(), "entry 3") {
		t.Fatalf("removed entry: got %v, want an error naming entry 3", err)
	}
	// A store that hands back the time in another zone still verifies.
	local := chain(2)
	local[1].Time = local[1].Time.In(time.FixedZone("X", 3600))
	if err := digest.VerifyChain(local, ""); err != nil {
		t.Fatalf("time zone round trip: %v", err)
	}
}

// TestGolden pins both hashes to the values toolgate computed before they
// moved into this package (b1c14db): stored approvals keep their call's
// digest and audit logs their chain, so neither encoding may change.
func TestGolden(t *testing.T) {
	t.Parallel()
	c := toolgate.Call{ID: "c1", Session: "s1", Workspace: "w", Tool: "Bash", Cwd: "/p",
		Args: map[string]any{"command": "git push", "n": float64(3), "opts": map[string]any{"a": []any{true, nil, "x\xff"}}}}
	if got, want := digest.Call(&c), "sha256:5bbc5ae6bda717c54ce39abc93e4b284824a40b151f55319ce5e384bb985c35d"; got != want {
		t.Errorf("digest.Call = %s, want %s", got, want)
	}
	e := toolgate.AuditEntry{Seq: 7, Time: time.Date(2026, 11, 21, 8, 0, 1, 123456789, time.FixedZone("X", 3600)),
		Kind: "decision", Tool: "Bash", Outcome: "allow", Data: json.RawMessage(`{"command":"ls"}`), PrevHash: "abc"}
	if got, want := digest.AuditEntry(e), "090cb0b227bc5557f9e67a7706ef09d00700b60c010ccd9a7ac1e7dd33d34000"; got != want {
		t.Errorf("digest.AuditEntry = %s, want %s", got, want)
	}
}
