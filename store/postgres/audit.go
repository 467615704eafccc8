package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/internal/rowcodec"
)

const auditColumns = `seq, time, kind, session, workspace, call_id, approval_id, tool, outcome, who, via, reason, data, prev_hash, hash`

// appendAudit appends entries in tx, chaining them to the last entry of
// the log. It locks the audit_head row first, so appends from every node
// are serialized until this transaction ends: the chain has no fork, and
// sequence numbers become visible in order (a node that has read up to n
// never later finds an entry below n). The NOTIFY is sent when the
// transaction commits. The caller's entries are not modified.
func (db *DB) appendAudit(ctx context.Context, tx pgx.Tx, entries []toolgate.AuditEntry) error {
	if len(entries) == 0 {
		return nil
	}
	var (
		seq  int64
		prev string
	)
	if err := tx.QueryRow(ctx, lockHead).Scan(&seq, &prev); err != nil {
		return fmt.Errorf("read last audit entry: %w", err)
	}
	b, err := db.chain(entries, seq, prev)
	if err != nil {
		return err
	}
	return tx.SendBatch(ctx, b).Close()
}

// lockHead reads the chain's head and locks it until the transaction ends.
const lockHead = `SELECT seq, hash FROM audit_head WHERE id = 1 FOR UPDATE`

// chain returns the statements that append entries after seq and prev:
// the inserts, the head's advance and the NOTIFY, sent in one round trip.
func (db *DB) chain(entries []toolgate.AuditEntry, seq int64, prev string) (*pgx.Batch, error) {
	b := &pgx.Batch{}
	change := false
	for _, e := range entries {
		seq++
		e.Seq, e.PrevHash = seq, prev
		e.Hash = e.ChainHash()
		t, err := rowcodec.Nanos("audit time", e.Time)
		if err != nil {
			return nil, err
		}
		var data any
		if e.Data != nil {
			data = string(e.Data)
		}
		b.Queue(`INSERT INTO audit (`+auditColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
			e.Seq, t, e.Kind, e.Session, e.Workspace, e.CallID, e.ApprovalID,
			e.Tool, e.Outcome, e.Who, e.Via, e.Reason, data, e.PrevHash, e.Hash)
		prev = e.Hash
		change = change || store.ChangesCaches(e.Kind)
	}
	b.Queue(`UPDATE audit_head SET seq = $1, hash = $2,
		change_seq = CASE WHEN $3 THEN $1 ELSE change_seq END WHERE id = 1`, seq, prev, change)
	b.Queue(`SELECT pg_notify($1, $2)`, db.channel, strconv.FormatInt(seq, 10))
	return b, nil
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
	return wrap(op, db.appendAlone(ctx, entries))
}

// appendAlone is appendAudit in a transaction of its own, the hot path of
// every recorded decision, in two round trips: BEGIN with the head's lock,
// then the appends with COMMIT. A connection left in a transaction by an
// error is not reused: the pool closes it on release.
func (db *DB) appendAlone(ctx context.Context, entries []toolgate.AuditEntry) error {
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	var (
		seq  int64
		prev string
	)
	head := &pgx.Batch{}
	head.Queue("BEGIN")
	head.Queue(lockHead).QueryRow(func(r pgx.Row) error { return r.Scan(&seq, &prev) })
	if err := conn.SendBatch(ctx, head).Close(); err != nil {
		return fmt.Errorf("read last audit entry: %w", err)
	}
	b, err := db.chain(entries, seq, prev)
	if err == nil {
		b.Queue("COMMIT")
		err = conn.SendBatch(ctx, b).Close()
	}
	if err != nil && conn.Conn().PgConn().TxStatus() != 'I' {
		// Roll back now rather than leave the lock held until the pool
		// notices.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		conn.Exec(rctx, "ROLLBACK")
		cancel()
	}
	return err
}

// ListAudit implements store.Store. Since is inclusive and Until exclusive:
// an entry is selected when Since <= Time < Until.
func (db *DB) ListAudit(ctx context.Context, f store.AuditFilter) ([]toolgate.AuditEntry, error) {
	const op = "list audit"
	var w where
	if f.AfterSeq > 0 {
		w.add(`seq >`, f.AfterSeq)
	}
	for _, c := range []struct{ col, val string }{
		{"session", f.Session}, {"workspace", f.Workspace}, {"tool", f.Tool},
		{"outcome", f.Outcome}, {"kind", f.Kind},
	} {
		if c.val != "" {
			w.add(c.col+` =`, c.val)
		}
	}
	if !f.Since.IsZero() {
		t, err := rowcodec.Nanos("since", f.Since)
		if err != nil {
			return nil, wrap(op, err)
		}
		w.add(`time >=`, t)
	}
	if !f.Until.IsZero() {
		t, err := rowcodec.Nanos("until", f.Until)
		if err != nil {
			return nil, wrap(op, err)
		}
		w.add(`time <`, t)
	}
	q := `SELECT ` + auditColumns + ` FROM audit` + w.String() + ` ORDER BY seq` + limit(f.Limit)
	return queryRows(ctx, db, op, q, w.args, scanAudit)
}

func scanAudit(s rowScanner) (toolgate.AuditEntry, error) {
	var (
		e    toolgate.AuditEntry
		t    *int64
		data *string
	)
	if err := s.Scan(&e.Seq, &t, &e.Kind, &e.Session, &e.Workspace, &e.CallID, &e.ApprovalID,
		&e.Tool, &e.Outcome, &e.Who, &e.Via, &e.Reason, &data, &e.PrevHash, &e.Hash); err != nil {
		return e, err
	}
	e.Time = fromNanos(t)
	if data != nil {
		e.Data = json.RawMessage(*data)
	}
	return e, nil
}
