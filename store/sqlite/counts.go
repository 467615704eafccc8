package sqlite

import (
	"context"
	"time"

	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/internal/rowcodec"
)

var _ store.Counter = (*DB)(nil)

// CountPending implements store.Counter.
func (db *DB) CountPending(ctx context.Context, owner string) (int, error) {
	return db.count(ctx, "count pending approvals of "+owner,
		`SELECT count(*) FROM approvals a JOIN sessions s ON s.id = a.session WHERE s.owner = ? AND a.status = 'pending'`, owner)
}

// CountSessions implements store.Counter.
func (db *DB) CountSessions(ctx context.Context, owner string, since time.Time) (int, error) {
	op := "count sessions of " + owner
	t, err := rowcodec.Nanos("since", since)
	if err != nil {
		return 0, wrap(op, err)
	}
	if t == nil { // the zero time: every session
		return db.count(ctx, op, `SELECT count(*) FROM sessions WHERE owner = ?`, owner)
	}
	return db.count(ctx, op, `SELECT count(*) FROM sessions WHERE owner = ? AND created_at >= ?`, owner, t)
}

func (db *DB) count(ctx context.Context, op, q string, args ...any) (int, error) {
	if db.closed.Load() {
		return 0, db.errClosed(op)
	}
	var n int
	if err := db.r.QueryRowContext(ctx, q, args...).Scan(&n); err != nil {
		return 0, wrap(op, err)
	}
	return n, nil
}
