package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/digest"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/internal/rowcodec"
)

const auditColumns = `seq, time, kind, session, workspace, call_id, approval_id, tool, outcome, who, via, reason, data, prev_hash, hash`

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

// ListAudit implements store.Store. Since is inclusive and Until exclusive:
// an entry is selected when Since <= Time < Until.
func (db *DB) ListAudit(ctx context.Context, f store.AuditFilter) ([]toolgate.AuditEntry, error) {
	const op = "list audit"
	if db.closed.Load() {
		return nil, db.errClosed(op)
	}
	var w where
	if f.AfterSeq > 0 {
		w.add(`seq > ?`, f.AfterSeq)
	}
	for _, c := range []struct{ col, val string }{
		{"session", f.Session}, {"workspace", f.Workspace}, {"tool", f.Tool},
		{"outcome", f.Outcome}, {"kind", f.Kind},
	} {
		if c.val != "" {
			w.add(c.col+` = ?`, c.val)
		}
	}
	if !f.Since.IsZero() {
		t, err := rowcodec.Nanos("since", f.Since)
		if err != nil {
			return nil, wrap(op, err)
		}
		w.add(`time >= ?`, t)
	}
	if !f.Until.IsZero() {
		t, err := rowcodec.Nanos("until", f.Until)
		if err != nil {
			return nil, wrap(op, err)
		}
		w.add(`time < ?`, t)
	}
	q := `SELECT ` + auditColumns + ` FROM audit` + w.String() + ` ORDER BY seq`
	if f.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", f.Limit)
	}
	return queryRows(ctx, db, op, q, w.args, scanAudit)
}

func scanAudit(s rowScanner) (toolgate.AuditEntry, error) {
	var (
		e    toolgate.AuditEntry
		t    sql.NullInt64
		data sql.NullString
	)
	if err := s.Scan(&e.Seq, &t, &e.Kind, &e.Session, &e.Workspace, &e.CallID, &e.ApprovalID,
		&e.Tool, &e.Outcome, &e.Who, &e.Via, &e.Reason, &data, &e.PrevHash, &e.Hash); err != nil {
		return e, err
	}
	e.Time = fromNanos(t)
	if data.Valid {
		e.Data = json.RawMessage(data.String)
	}
	return e, nil
}
