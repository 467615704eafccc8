package postgres_test

import (
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
)

// TestFileReadIsNoChange: an approver's file read (approval.file_read) is
// on the feed but is no change caches depend on, so it moves the head's
// Seq and not its ChangeSeq: no node drops its caches for it and no writer
// waits for the leases. A grant, appended after it, is a change.
func TestFileReadIsNoChange(t *testing.T) {
	t.Parallel()
	db := open(t, newSchema(t))
	defer db.Close()
	ctx := t.Context()
	for _, tt := range []struct {
		kind              string
		seq, wantChangeAt int64
	}{
		{approval.AuditFileRead, 1, 0},
		{"decision", 2, 0},
		{"grant.added", 3, 3},
		{approval.AuditFileRead, 4, 3},
	} {
		if err := db.AppendAudit(ctx, toolgate.AuditEntry{Time: time.Now(), Kind: tt.kind, ApprovalID: "ap_1"}); err != nil {
			t.Fatal(err)
		}
		h, err := db.Head(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if h.Seq != tt.seq || h.ChangeSeq != tt.wantChangeAt {
			t.Fatalf("after %s: head %+v, want seq %d and change seq %d", tt.kind, h, tt.seq, tt.wantChangeAt)
		}
	}
}
