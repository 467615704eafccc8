package postgres

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/digest"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/internal/rowcodec"
	"github.com/toolgate/toolgate/store/internal/sqlstore"
)

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
	if err := tx.QueryRow(ctx, lockHead).Scan(&seq, &prev, new(int64)); err != nil {
		return fmt.Errorf("read last audit entry: %w", err)
	}
	// The head moves outside the group appender: it must read it again.
	db.appends.moved()
	b := &pgx.Batch{}
	last, _, err := db.chain(b, entries, seq, prev)
	if err != nil {
		return err
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return err
	}
	if w, ok := tx.(*writeTx); ok && changes(entries) {
		w.change = last // the write waits for the nodes (DB.write)
	}
	return nil
}

// lockHead reads the chain's head (and the feed's change head) and locks
// it until the transaction ends.
const lockHead = `SELECT seq, hash, change_seq FROM audit_head WHERE id = 1 FOR UPDATE`

// chain queues on b the statements that append entries after seq and
// prev: the inserts, the head's advance and the NOTIFY, sent in one round
// trip. It returns the new head.
func (db *DB) chain(b *pgx.Batch, entries []toolgate.AuditEntry, seq int64, prev string) (int64, string, error) {
	change := int64(0)
	for _, e := range entries {
		seq++
		e.Seq, e.PrevHash = seq, prev
		e.Hash = digest.AuditEntry(e)
		t, err := rowcodec.Nanos("audit time", e.Time)
		if err != nil {
			return 0, "", err
		}
		var data any
		if e.Data != nil {
			data = string(e.Data)
		}
		b.Queue(`INSERT INTO audit (`+sqlstore.AuditColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
			e.Seq, t, e.Kind, e.Session, e.Workspace, e.CallID, e.ApprovalID,
			e.Tool, e.Outcome, e.Who, e.Via, e.Reason, data, e.PrevHash, e.Hash)
		prev = e.Hash
		if store.ChangesCaches(e.Kind) {
			change = seq
		}
	}
	b.Queue(`UPDATE audit_head SET seq = $1, hash = $2,
		change_seq = CASE WHEN $3 THEN $1 ELSE change_seq END WHERE id = 1`, seq, prev, change > 0)
	// The payload is the new head and, when the group holds a change, the
	// sequence of its last change: "SEQ" or "SEQ CHANGE".
	payload := strconv.FormatInt(seq, 10)
	if change > 0 {
		payload += " " + strconv.FormatInt(change, 10)
	}
	b.Queue(`SELECT pg_notify($1, $2)`, db.channel, payload)
	return seq, prev, nil
}

// changes reports whether entries hold one that caches depend on.
func changes(entries []toolgate.AuditEntry) bool {
	for _, e := range entries {
		if store.ChangesCaches(e.Kind) {
			return true
		}
	}
	return false
}
