package postgres

import (
	"context"
	"github.com/jackc/pgx/v5"
	"time"

	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/internal/rowcodec"
)

var _ store.Counter = (*DB)(nil)

// CountPending implements store.Counter.
func (db *DB) CountPending(ctx context.Context, owner string) (int, error) {
	return db.count(ctx, "count pending approvals of "+owner,
		`SELECT count(*) FROM approvals a JOIN sessions s ON s.id = a.session WHERE s.owner = $1 AND a.status = 'pending'`, owner)
}

// CountSessions implements store.Counter.
func (db *DB) CountSessions(ctx context.Context, owner string, since time.Time) (int, error) {
	op := "count sessions of " + owner
	t, err := rowcodec.Nanos("since", since)
	if err != nil {
		return 0, wrap(op, err)
	}
	if t == nil { // the zero time: every session
		return db.count(ctx, op, `SELECT count(*) FROM sessions WHERE owner = $1`, owner)
	}
	return db.count(ctx, op, `SELECT count(*) FROM sessions WHERE owner = $1 AND created_at >= $2`, owner, t)
}

func (db *DB) count(ctx context.Context, op, q string, args ...any) (int, error) {
	if db.closed.Load() {
		return 0, db.errClosed(op)
	}
	ctx, cancel := db.bound(ctx)
	defer cancel()
	var n int
	if err := db.pool.QueryRow(ctx, q, args...).Scan(&n); err != nil {
		return 0, wrap(op, err)
	}
	return n, nil
}

// ClaimWorkspace implements store.Counter. A transaction-scoped advisory
// lock on the owner serialises its claims across every node, so the
// count and the insert are one step.
func (db *DB) ClaimWorkspace(ctx context.Context, owner, workspace string, limit int) (ok bool, created int, err error) {
	op := "claim workspace " + workspace + " for " + owner
	if db.closed.Load() {
		return false, 0, db.errClosed(op)
	}
	err = db.write(ctx, func(tx pgx.Tx) error {
		ok, created = false, 0
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('toolgate.workspace_creators:' || $1, 0))`, owner); err != nil {
			return err
		}
		var exists bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM workspace_creators WHERE workspace = $1)`, workspace).Scan(&exists); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM workspace_creators WHERE owner = $1`, owner).Scan(&created); err != nil {
			return err
		}
		if exists {
			ok = true
			return nil
		}
		if created >= limit {
			return nil
		}
		tag, err := tx.Exec(ctx, `INSERT INTO workspace_creators (workspace, owner) VALUES ($1, $2) ON CONFLICT (workspace) DO NOTHING`, workspace, owner)
		if err != nil {
			return err
		}
		ok = true
		if tag.RowsAffected() == 1 {
			created++
		}
		return nil
	})
	if err != nil {
		return false, 0, wrap(op, err)
	}
	return ok, created, nil
}
