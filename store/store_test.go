package store_test

import (
	"testing"

	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/store"
)

// TestChangesCaches: entries that only record what happened (a decision,
// an approval's life, an approver reading the file a call changes) leave
// every node's caches as they are, so appending one neither drops them nor
// waits for the other nodes; everything else, unknown kinds included, is
// a change.
func TestChangesCaches(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		kind string
		want bool
	}{
		{"decision", false},
		{"approval.requested", false},
		{"approval.resolved", false},
		{approval.AuditCallConflict, false},
		{approval.AuditFileRead, false},
		{"grant.added", true},
		{"grant.revoked", true},
		{"mode.changed", true},
		{"rules.changed", true},
		{"tokens.changed", true},
		{"approval.file_written", true}, // unknown: counts as a change
		{"", true},
	} {
		if got := store.ChangesCaches(tt.kind); got != tt.want {
			t.Errorf("ChangesCaches(%q) = %v, want %v", tt.kind, got, tt.want)
		}
	}
}
