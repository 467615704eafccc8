package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/internal/rowcodec"
)

const webSessionColumns = `id, key_hash, pairing, token_name, token_hash, role, label, csrf, ttl_ns, created_at, last_seen, expires_at`

var _ store.WebSessions = (*Store)(nil)

// PutWebSession implements store.WebSessions.
func (s *Store) PutWebSession(ctx context.Context, ws *store.WebSession) error {
	const op = "put web session"
	if err := s.closed(op); err != nil {
		return err
	}
	if ws == nil || ws.ID == "" || ws.KeyHash == "" {
		return s.errf("%s: no id or key hash", op)
	}
	var times [3]any
	for i, t := range []time.Time{ws.CreatedAt, ws.LastSeen, ws.ExpiresAt} {
		n, err := rowcodec.Nanos("time", t)
		if err != nil {
			return s.b.Wrap(op, err)
		}
		if n == nil {
			n = int64(0) // NOT NULL columns
		}
		times[i] = n
	}
	err := s.b.Write(ctx, true, func(ctx context.Context, tx Querier) error {
		_, err := tx.Exec(ctx, s.q.putWebSession,
			ws.ID, ws.KeyHash, ws.Pairing, ws.TokenName, ws.TokenHash, ws.Role, ws.Label, ws.CSRF, int64(ws.TTL),
			times[0], times[1], times[2])
		if s.b.IsUnique(err) {
			return toolgate.Errorf(toolgate.EConflict, "web session key already in use")
		}
		return err
	})
	return s.b.Wrap(op, err)
}

func scanWebSession(r Row) (*store.WebSession, error) {
	var (
		ws                       store.WebSession
		ttl                      int64
		created, seen, expiresAt sql.NullInt64
	)
	if err := r.Scan(&ws.ID, &ws.KeyHash, &ws.Pairing, &ws.TokenName, &ws.TokenHash, &ws.Role, &ws.Label, &ws.CSRF, &ttl,
		&created, &seen, &expiresAt); err != nil {
		return nil, err
	}
	ws.TTL = time.Duration(ttl)
	ws.CreatedAt, ws.LastSeen, ws.ExpiresAt = fromNanos(created), fromNanos(seen), fromNanos(expiresAt)
	return &ws, nil
}

// GetWebSession implements store.WebSessions.
func (s *Store) GetWebSession(ctx context.Context, keyHash string) (*store.WebSession, error) {
	const op = "get web session"
	if err := s.closed(op); err != nil {
		return nil, err
	}
	ws, err := scanWebSession(s.b.Reads().QueryRow(ctx, s.q.getWebSession, keyHash))
	if s.b.NoRows(err) {
		return nil, toolgate.Errorf(toolgate.ENotFound, "web session not found")
	}
	if err != nil {
		return nil, s.b.Wrap(op, err)
	}
	return ws, nil
}

// TouchWebSession implements store.WebSessions.
func (s *Store) TouchWebSession(ctx context.Context, id string, lastSeen time.Time) error {
	const op = "touch web session"
	n, err := rowcodec.Nanos("last_seen", lastSeen)
	if err != nil {
		return s.b.Wrap(op, err)
	}
	return s.changeOne(ctx, op, id, s.q.touchWebSession, n, id)
}

// DeleteWebSession implements store.WebSessions: of concurrent deletes,
// on any nodes, exactly one deletes the row.
func (s *Store) DeleteWebSession(ctx context.Context, id string) error {
	return s.changeOne(ctx, "delete web session", id, s.q.deleteWebSession, id)
}

// changeOne runs a write of web session id's row; ENotFound if there is
// none.
func (s *Store) changeOne(ctx context.Context, op, id, q string, args ...any) error {
	if err := s.closed(op); err != nil {
		return err
	}
	return s.b.Wrap(op, s.b.Write(ctx, true, func(ctx context.Context, tx Querier) error {
		n, err := tx.Exec(ctx, q, args...)
		if err == nil && n == 0 {
			err = toolgate.Errorf(toolgate.ENotFound, "web session %s not found", id)
		}
		return err
	}))
}

// ListWebSessions implements store.WebSessions.
func (s *Store) ListWebSessions(ctx context.Context) ([]*store.WebSession, error) {
	return queryRows(ctx, s, "list web sessions", `SELECT `+webSessionColumns+` FROM web_sessions ORDER BY created_at, `+s.d.Stored, nil, scanWebSession)
}

// DeleteExpiredWebSessions implements store.WebSessions.
func (s *Store) DeleteExpiredWebSessions(ctx context.Context, now time.Time) (int, error) {
	const op = "delete expired web sessions"
	if err := s.closed(op); err != nil {
		return 0, err
	}
	n, err := rowcodec.Nanos("now", now)
	if err != nil {
		return 0, s.b.Wrap(op, err)
	}
	var k int64
	err = s.b.Write(ctx, true, func(ctx context.Context, tx Querier) error {
		k, err = tx.Exec(ctx, s.q.deleteExpiredWebSessions, n)
		return err
	})
	return int(k), s.b.Wrap(op, err)
}
