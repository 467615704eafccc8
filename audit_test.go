package toolgate_test

import (
	"encoding/json"
	"testing"

	"github.com/toolgate/toolgate"
)

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
