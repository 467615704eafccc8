package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/internal/rowcodec"
)

const webSessionColumns = `id, key_hash, pairing, token_name, token_hash, role, label, csrf, ttl_ns, created_at, last_seen, expires_at`

var _ store.WebSessions = (*DB)(nil)

// PutWebSession implements store.WebSessions.
func (db *DB) PutWebSession(ctx context.Context, s *store.WebSession) error {
	const op = "put web session"
	if db.closed.Load() {
		return db.errClosed(op)
	}
	if s == nil || s.ID == "" || s.KeyHash == "" {
		return toolgate.Errorf(toolgate.EInvalid, "sqlite: %s: no id or key hash", op)
	}
	var times [3]any
	for i, t := range []time.Time{s.CreatedAt, s.LastSeen, s.ExpiresAt} {
		n, err := rowcodec.Nanos("time", t)
		if err != nil {
			return wrap(op, err)
		}
		times[i] = n
	}
	err := db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO web_sessions (`+webSessionColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET key_hash = excluded.key_hash, pairing = excluded.pairing,
				token_name = excluded.token_name, token_hash = excluded.token_hash, role = excluded.role,
				label = excluded.label, csrf = excluded.csrf, ttl_ns = excluded.ttl_ns,
				created_at = excluded.created_at, last_seen = excluded.last_seen, expires_at = excluded.expires_at`,
			s.ID, s.KeyHash, s.Pairing, s.TokenName, s.TokenHash, s.Role, s.Label, s.CSRF, int64(s.TTL),
			times[0], times[1], times[2])
		if isUnique(err) {
			return toolgate.Errorf(toolgate.EConflict, "web session key already in use")
		}
		return err
	})
	return wrap(op, err)
}

func scanWebSession(r rowScanner) (*store.WebSession, error) {
	var (
		s                        store.WebSession
		ttl                      int64
		created, seen, expiresAt sql.NullInt64
	)
	if err := r.Scan(&s.ID, &s.KeyHash, &s.Pairing, &s.TokenName, &s.TokenHash, &s.Role, &s.Label, &s.CSRF, &ttl,
		&created, &seen, &expiresAt); err != nil {
		return nil, err
	}
	s.TTL = time.Duration(ttl)
	s.CreatedAt, s.LastSeen, s.ExpiresAt = fromNanos(created), fromNanos(seen), fromNanos(expiresAt)
	return &s, nil
}

// GetWebSession implements store.WebSessions.
func (db *DB) GetWebSession(ctx context.Context, keyHash string) (*store.WebSession, error) {
	const op = "get web session"
	if db.closed.Load() {
		return nil, db.errClosed(op)
	}
	if err := ctx.Err(); err != nil {
		return nil, wrap(op, err)
	}
	s, err := scanWebSession(db.r.QueryRowContext(uncancelled(ctx), `SELECT `+webSessionColumns+` FROM web_sessions WHERE key_hash = ?`, keyHash))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, toolgate.Errorf(toolgate.ENotFound, "web session not found")
	}
	if err != nil {
		return nil, wrap(op, err)
	}
	return s, nil
}

// TouchWebSession implements store.WebSessions.
func (db *DB) TouchWebSession(ctx context.Context, id string, lastSeen time.Time) error {
	const op = "touch web session"
	if db.closed.Load() {
		return db.errClosed(op)
	}
	n, err := rowcodec.Nanos("last_seen", lastSeen)
	if err != nil {
		return wrap(op, err)
	}
	return wrap(op, db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE web_sessions SET last_seen = ? WHERE id = ?`, n, id)
		if err != nil {
			return err
		}
		if k, _ := res.RowsAffected(); k == 0 {
			return toolgate.Errorf(toolgate.ENotFound, "web session %s not found", id)
		}
		return nil
	}))
}

// ListWebSessions implements store.WebSessions.
func (db *DB) ListWebSessions(ctx context.Context) ([]*store.WebSession, error) {
	const op = "list web sessions"
	if db.closed.Load() {
		return nil, db.errClosed(op)
	}
	return queryRows(ctx, db, op, `SELECT `+webSessionColumns+` FROM web_sessions ORDER BY created_at, rowid`, nil, scanWebSession)
}

// DeleteWebSession implements store.WebSessions.
func (db *DB) DeleteWebSession(ctx context.Context, id string) error {
	const op = "delete web session"
	if db.closed.Load() {
		return db.errClosed(op)
	}
	return wrap(op, db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM web_sessions WHERE id = ?`, id)
		if err != nil {
			return err
		}
		if k, _ := res.RowsAffected(); k == 0 {
			return toolgate.Errorf(toolgate.ENotFound, "web session %s not found", id)
		}
		return nil
	}))
}

// DeleteExpiredWebSessions implements store.WebSessions.
func (db *DB) DeleteExpiredWebSessions(ctx context.Context, now time.Time) (int, error) {
	const op = "delete expired web sessions"
	if db.closed.Load() {
		return 0, db.errClosed(op)
	}
	n, err := rowcodec.Nanos("now", now)
	if err != nil {
		return 0, wrap(op, err)
	}
	var k int64
	err = db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM web_sessions WHERE expires_at <= ?`, n)
		if err != nil {
			return err
		}
		k, _ = res.RowsAffected()
		return nil
	})
	return int(k), wrap(op, err)
}
