package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store/internal/sqlstore"
)

// backend runs the shared SQL layer on a DB: reads on the read pool, each
// write in the writer's group commit, the hot statements prepared.
type backend struct{ db *DB }

var _ sqlstore.Backend = backend{}

func (b backend) Reads() sqlstore.Querier { return reads(b) }

// Write runs fn in the writer's next group. A write that need not be
// durable (a new pending approval) is committed with synchronous=NORMAL,
// which in WAL mode does not fsync: it may be lost to a power cut (not to
// a crash of the process) until the next durable commit. In WAL mode a
// commit is frames appended to the log, and recovery keeps the log's
// frames up to the last valid commit, a prefix of the commits: a durable
// commit's fsync makes every earlier commit durable too, and a power cut
// loses only a suffix of unsynced commits, never one that a durable
// commit followed.
func (b backend) Write(ctx context.Context, durable bool, fn func(ctx context.Context, tx sqlstore.Querier) error) error {
	level := syncFull
	if !durable {
		level = syncNormal
	}
	return b.db.writeAt(ctx, level, func(ctx context.Context, tx *sql.Tx) error {
		return fn(ctx, writeTx{db: b.db, tx: tx})
	})
}

func (b backend) AppendAudit(ctx context.Context, tx sqlstore.Querier, entries []toolgate.AuditEntry) error {
	return b.db.appendAudit(ctx, tx.(writeTx).tx, entries)
}

func (b backend) Closed() bool                    { return b.db.closed.Load() }
func (b backend) ErrClosed(op string) error       { return b.db.errClosed(op) }
func (b backend) Wrap(op string, err error) error { return wrap(op, err) }
func (b backend) IsUnique(err error) bool         { return isUnique(err) }
func (b backend) NoRows(err error) bool           { return errors.Is(err, sql.ErrNoRows) }

// reads runs queries on the read pool. A point read checks its ctx before
// it starts and then runs uncancelled (see uncancelled).
type reads struct{ db *DB }

func (r reads) Exec(ctx context.Context, q string, args ...any) (int64, error) {
	return 0, errors.New("write on the read connections")
}

func (r reads) QueryRow(ctx context.Context, q string, args ...any) sqlstore.Row {
	if err := ctx.Err(); err != nil {
		return errRow{err}
	}
	if st := r.db.hotReads[q]; st != nil {
		return st.QueryRowContext(uncancelled(ctx), args...)
	}
	return r.db.r.QueryRowContext(uncancelled(ctx), q, args...)
}

func (r reads) Query(ctx context.Context, q string, args []any, each func(sqlstore.Row) error) error {
	rows, err := r.db.r.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	return eachRow(rows, each)
}

// writeTx runs statements in a write's transaction, the hot ones
// prepared.
type writeTx struct {
	db *DB
	tx *sql.Tx
}

func (w writeTx) Exec(ctx context.Context, q string, args ...any) (int64, error) {
	var (
		res sql.Result
		err error
	)
	if st := w.db.hotWrites[q]; st != nil {
		res, err = w.tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	} else {
		res, err = w.tx.ExecContext(ctx, q, args...)
	}
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (w writeTx) QueryRow(ctx context.Context, q string, args ...any) sqlstore.Row {
	return w.tx.QueryRowContext(ctx, q, args...)
}

func (w writeTx) Query(ctx context.Context, q string, args []any, each func(sqlstore.Row) error) error {
	rows, err := w.tx.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	return eachRow(rows, each)
}

// eachRow calls each for every row of rows, and closes them.
func eachRow(rows *sql.Rows, each func(sqlstore.Row) error) error {
	defer rows.Close()
	for rows.Next() {
		if err := each(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// errRow is a row whose query did not run.
type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }
