package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/internal/rowcodec"
)

// ListAudit implements store.Store. Since is inclusive and Until exclusive:
// an entry is selected when Since <= Time < Until.
func (s *Store) ListAudit(ctx context.Context, f store.AuditFilter) ([]toolgate.AuditEntry, error) {
	const op = "list audit"
	w := where{d: s.d}
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
			return nil, s.b.Wrap(op, err)
		}
		w.add(`time >=`, t)
	}
	if !f.Until.IsZero() {
		t, err := rowcodec.Nanos("until", f.Until)
		if err != nil {
			return nil, s.b.Wrap(op, err)
		}
		w.add(`time <`, t)
	}
	q := `SELECT ` + AuditColumns + ` FROM audit` + w.String() + ` ORDER BY seq` + limit(f.Limit)
	return queryRows(ctx, s, op, q, w.args, scanAudit)
}

func scanAudit(r Row) (toolgate.AuditEntry, error) {
	var (
		e    toolgate.AuditEntry
		t    sql.NullInt64
		data sql.NullString
	)
	if err := r.Scan(&e.Seq, &t, &e.Kind, &e.Session, &e.Workspace, &e.CallID, &e.ApprovalID,
		&e.Tool, &e.Outcome, &e.Who, &e.Via, &e.Reason, &data, &e.PrevHash, &e.Hash); err != nil {
		return e, err
	}
	e.Time = fromNanos(t)
	if data.Valid {
		e.Data = json.RawMessage(data.String)
	}
	return e, nil
}
