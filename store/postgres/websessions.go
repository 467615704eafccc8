package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

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
		return toolgate.Errorf(toolgate.EInvalid, "postgres: %s: no id or key hash", op)
	}
	var times [3]any
	for i, t := range []time.Time{s.CreatedAt, s.LastSeen, s.ExpiresAt} {
		n, err := rowcodec.Nanos("time", t)
		if err != nil {
			return wrap(op, err)
		}
		if n == nil {
			n = int64(0) // NOT NULL columns, as SQLite's
		}
		times[i] = n
	}
	ctx, cancel := db.bound(ctx)
	defer cancel()
	_, err := db.pool.Exec(ctx, `INSERT INTO web_sessions (`+webSessionColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
		ON CONFLICT (id) DO UPDATE SET key_hash = excluded.key_hash, pairing = excluded.pairing,
			token_name = excluded.token_name, token_hash = excluded.token_hash, role = excluded.role,
			label = excluded.label, csrf = excluded.csrf, ttl_ns = excluded.ttl_ns,
			created_at = excluded.created_at, last_seen = excluded.last_seen, expires_at = excluded.expires_at`,
		s.ID, s.KeyHash, s.Pairing, s.TokenName, s.TokenHash, s.Role, s.Label, s.CSRF, int64(s.TTL),
		times[0], times[1], times[2])
	if isUnique(err) {
		return toolgate.Errorf(toolgate.EConflict, "postgres: %s: web session key already in use", op)
	}
	return wrap(op, err)
}

func scanWebSession(r rowScanner) (*store.WebSession, error) {
	var (
		s                        store.WebSession
		ttl                      int64
		created, seen, expiresAt *int64
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
	ctx, cancel := db.bound(ctx)
	defer cancel()
	s, err := scanWebSession(db.pool.QueryRow(ctx, `SELECT `+webSessionColumns+` FROM web_sessions WHERE key_hash = $1`, keyHash))
	if errors.Is(err, pgx.ErrNoRows) {
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
	ctx, cancel := db.bound(ctx)
	defer cancel()
	tag, err := db.pool.Exec(ctx, `UPDATE web_sessions SET last_seen = $1 WHERE id = $2`, n, id)
	if err == nil && tag.RowsAffected() == 0 {
		err = toolgate.Errorf(toolgate.ENotFound, "web session %s not found", id)
	}
	return wrap(op, err)
}

// ListWebSessions implements store.WebSessions.
func (db *DB) ListWebSessions(ctx context.Context) ([]*store.WebSession, error) {
	return queryRows(ctx, db, "list web sessions", `SELECT `+webSessionColumns+` FROM web_sessions ORDER BY created_at, ord`, nil, scanWebSession)
}

// DeleteWebSession implements store.WebSessions: of concurrent deletes
// on any nodes, exactly one deletes the row.
func (db *DB) DeleteWebSession(ctx context.Context, id string) error {
	const op = "delete web session"
	if db.closed.Load() {
		return db.errClosed(op)
	}
	ctx, cancel := db.bound(ctx)
	defer cancel()
	tag, err := db.pool.Exec(ctx, `DELETE FROM web_sessions WHERE id = $1`, id)
	if err == nil && tag.RowsAffected() == 0 {
		err = toolgate.Errorf(toolgate.ENotFound, "web session %s not found", id)
	}
	return wrap(op, err)
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
	ctx, cancel := db.bound(ctx)
	defer cancel()
	tag, err := db.pool.Exec(ctx, `DELETE FROM web_sessions WHERE expires_at <= $1`, n)
	if err != nil {
		return 0, wrap(op, err)
	}
	return int(tag.RowsAffected()), nil
}
