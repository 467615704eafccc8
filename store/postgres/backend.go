package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store/internal/sqlstore"
)

// backend runs the shared SQL layer on a DB: reads on the pool, each
// bounded by the store's call timeout (bound), writes in a transaction
// that waits for the nodes when it appended a change (write).
type backend struct{ db *DB }

var _ sqlstore.Backend = backend{}

func (b backend) Reads() sqlstore.Querier { return reads(b) }

func (b backend) Write(ctx context.Context, _ bool, fn func(ctx context.Context, tx sqlstore.Querier) error) error {
	return b.db.write(ctx, func(tx pgx.Tx) error { return fn(ctx, txQuerier{tx}) })
}

func (b backend) AppendAudit(ctx context.Context, tx sqlstore.Querier, entries []toolgate.AuditEntry) error {
	return b.db.appendAudit(ctx, tx.(txQuerier).tx, entries)
}

func (b backend) Closed() bool                    { return b.db.closed.Load() }
func (b backend) ErrClosed(op string) error       { return b.db.errClosed(op) }
func (b backend) Wrap(op string, err error) error { return wrap(op, err) }
func (b backend) IsUnique(err error) bool         { return isUnique(err) }
func (b backend) NoRows(err error) bool           { return errors.Is(err, pgx.ErrNoRows) }

// reads runs statements on the pool, each bounded by the call timeout.
type reads struct{ db *DB }

func (r reads) Exec(ctx context.Context, q string, args ...any) (int64, error) {
	ctx, cancel := r.db.bound(ctx)
	defer cancel()
	tag, err := r.db.pool.Exec(ctx, q, args...)
	return tag.RowsAffected(), err
}

func (r reads) QueryRow(ctx context.Context, q string, args ...any) sqlstore.Row {
	ctx, cancel := r.db.bound(ctx)
	return boundRow{r.db.pool.QueryRow(ctx, q, args...), cancel}
}

func (r reads) Query(ctx context.Context, q string, args []any, each func(sqlstore.Row) error) error {
	ctx, cancel := r.db.bound(ctx)
	defer cancel()
	rows, err := r.db.pool.Query(ctx, q, args...)
	if err != nil {
		return err
	}
	return eachRow(rows, each)
}

// boundRow is a row whose call's bound ends once it is scanned.
type boundRow struct {
	pgx.Row
	cancel context.CancelFunc
}

func (r boundRow) Scan(dest ...any) error {
	defer r.cancel()
	return r.Row.Scan(dest...)
}

// txQuerier runs statements in a write's transaction.
type txQuerier struct{ tx pgx.Tx }

func (t txQuerier) Exec(ctx context.Context, q string, args ...any) (int64, error) {
	tag, err := t.tx.Exec(ctx, q, args...)
	return tag.RowsAffected(), err
}

func (t txQuerier) QueryRow(ctx context.Context, q string, args ...any) sqlstore.Row {
	return t.tx.QueryRow(ctx, q, args...)
}

func (t txQuerier) Query(ctx context.Context, q string, args []any, each func(sqlstore.Row) error) error {
	rows, err := t.tx.Query(ctx, q, args...)
	if err != nil {
		return err
	}
	return eachRow(rows, each)
}

// eachRow calls each for every row of rows, and closes them.
func eachRow(rows pgx.Rows, each func(sqlstore.Row) error) error {
	defer rows.Close()
	for rows.Next() {
		if err := each(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}
