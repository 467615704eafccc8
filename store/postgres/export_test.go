package postgres

import (
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/internal/sqlstore"
)

// AppendCounts returns how many append groups committed in one round
// trip, how many in two, and how many one-round-trip attempts found the
// head moved.
func (db *DB) AppendCounts() (fast, slow, missed int64) {
	return db.appends.fast.Load(), db.appends.slow.Load(), db.appends.missed.Load()
}

// ApprovalsQuery is ListApprovals' query for f.
func ApprovalsQuery(f store.ApprovalFilter) (string, []any, error) {
	return sqlstore.ApprovalsQuery(sqlstore.Postgres(), f)
}
