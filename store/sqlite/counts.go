package sqlite

import (
	"context"
	"database/sql"
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

// ClaimWorkspace implements store.Counter. Writes are serialised by the
// store's one writer, so the count and the insert are one step.
func (db *DB) ClaimWorkspace(ctx context.Context, owner, workspace string, limit int) (ok bool, created int, err error) {
	op := "claim workspace " + workspace + " for " + owner
	if db.closed.Load() {
		return false, 0, db.errClosed(op)
	}
	err = db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		ok, created = false, 0
		var exists bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM workspace_creators WHERE workspace = ?)`, workspace).Scan(&exists); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM workspace_creators WHERE owner = ?`, owner).Scan(&created); err != nil {
			return err
		}
		if exists {
			ok = true
			return nil
		}
		if created >= limit {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO workspace_creators (workspace, owner) VALUES (?, ?)`, workspace, owner); err != nil {
			return err
		}
		ok, created = true, created+1
		return nil
	})
	if err != nil {
		return false, 0, wrap(op, err)
	}
	return ok, created, nil
}
