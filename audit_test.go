package toolgate_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
)

func chain(n int) []toolgate.AuditEntry {
	var out []toolgate.AuditEntry
	prev := ""
	for i := 1; i <= n; i++ {
		e := toolgate.AuditEntry{
			Seq: int64(i), Time: time.Date(2026, 11, 21, 8, 0, i, 123456789, time.UTC),
			Kind: "decision", Tool: "Bash", Outcome: "allow", Data: json.RawMessage(`{"command":"ls"}`),
			PrevHash: prev,
		}
		e.Hash = e.ChainHash()
		prev = e.Hash
		out = append(out, e)
	}
	return out
}

func TestVerifyChain(t *testing.T) {
	t.Parallel()
	if err := toolgate.VerifyChain(chain(5), ""); err != nil {
		t.Fatalf("intact chain: %v", err)
	}
	tampered := chain(5)
	tampered[2].Outcome = "deny"
	if err := toolgate.VerifyChain(tampered, ""); err == nil || !strings.Contains(err.Error(), "entry 3") {
		t.Fatalf("changed entry: got %v, want an error naming entry 3", err)
	}
	removed := chain(5)
	removed = append(removed[:1], removed[2:]...)
	if err := toolgate.VerifyChain(removed, ""); err == nil || !strings.Contains(err.Error(), "entry 3") {
		t.Fatalf("removed entry: got %v, want an error naming entry 3", err)
	}
	// A store that hands back the time in another zone still verifies.
	local := chain(2)
	local[1].Time = local[1].Time.In(time.FixedZone("X", 3600))
	if err := toolgate.VerifyChain(local, ""); err != nil {
		t.Fatalf("time zone round trip: %v", err)
	}
}

func TestAuditEntryContains(t *testing.T) {
	t.Parallel()
	e := toolgate.AuditEntry{
		Kind: "decision", Session: "s1", Tool: "Bash", Outcome: "ask", Who: "toolgate", Reason: "not in the rules",
		Data: json.RawMessage(`{"args":{"command":"echo \"Hi\" \u003e /tmp/x \u0026\u0026 rm -rf build"},"decision":{"subjects":[{"text":"rm -rf build"}]}}`),
	}
	for _, tc := range []struct {
		q    string
		want bool
	}{
		{"", true},
		{"bash", true},
		{"NOT IN THE", true},
		{`echo "hi" > /tmp/x && rm`, true}, // as typed, not as JSON escapes it
		{`\u003e`, false},
		{"rm -rf build", true},
		{"s1", true},
		{"git push", false},
		{"subjects", false}, // keys are not text
	} {
		if got := e.Contains(tc.q); got != tc.want {
			t.Errorf("Contains(%q) = %v, want %v", tc.q, got, tc.want)
		}
	}
	bad := toolgate.AuditEntry{Kind: "decision", Data: json.RawMessage(`{"command": "ls`)}
	if !bad.Contains("command") || bad.Contains("git") {
		t.Error("data that is not JSON is searched as text")
	}
}
