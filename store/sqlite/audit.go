package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/digest"
	"github.com/toolgate/toolgate/store/internal/rowcodec"
)

// appendAudit appends entries in tx, chaining them to the last entry of
// the log. It runs on the writer connection in an IMMEDIATE transaction,
// so reading the last hash and inserting after it cannot interleave with
// another append. The caller's entries are not modified.
func (db *DB) appendAudit(ctx context.Context, tx *sql.Tx, entries []toolgate.AuditEntry) error {
	if len(entries) == 0 {
		return nil
	}
	var (
		seq  int64
		prev string
	)
	err := tx.StmtContext(ctx, db.st.lastAudit).QueryRowContext(ctx).Scan(&seq, &prev)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("read last audit entry: %w", err)
	}
	stmt := tx.StmtContext(ctx, db.st.insertAudit)
	for _, e := range entries {
		seq++
		e.Seq, e.PrevHash = seq, prev
		e.Hash = digest.AuditEntry(e)
		t, err := rowcodec.Nanos("audit time", e.Time)
		if err != nil {
			return err
		}
		var data any
		if e.Data != nil {
			data = string(e.Data)
		}
		if _, err := stmt.ExecContext(ctx, e.Seq, t, e.Kind, e.Session, e.Workspace, e.CallID, e.ApprovalID,
			e.Tool, e.Outcome, e.Who, e.Via, e.Reason, data, e.PrevHash, e.Hash); err != nil {
			return fmt.Errorf("append audit entry %d: %w", e.Seq, err)
		}
		prev = e.Hash
	}
	return nil
}

// AppendAudit implements store.Store.
func (db *DB) AppendAudit(ctx context.Context, entries ...toolgate.AuditEntry) error {
	const op = "append audit"
	if db.closed.Load() {
		return db.errClosed(op)
	}
	if len(entries) == 0 {
		return nil
	}
	return wrap(op, db.write(ctx, func(ctx context.Context, tx *sql.Tx) error { return db.appendAudit(ctx, tx, entries) }))
}
