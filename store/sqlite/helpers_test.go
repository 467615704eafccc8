package sqlite_test

import (
	"encoding/json"
	"time"

	"github.com/toolgate/toolgate"
)

func storetestEntry() toolgate.AuditEntry {
	return toolgate.AuditEntry{
		Time: time.Date(2026, 11, 21, 8, 0, 0, 1, time.UTC), Kind: "decision", Session: "s1",
		Workspace: "w1", Tool: "Bash", Outcome: "deny", Who: "toolgate", Via: "rules",
		Data: json.RawMessage(`{"command":"rm -rf /"}`),
	}
}
