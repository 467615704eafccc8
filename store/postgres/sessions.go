package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/internal/rowcodec"
)

const sessionColumns = `id, workspace, mode, turn, stopped, aborted, created_at, updated_at, owner`

// PutSession implements store.Store.
func (db *DB) PutSession(ctx context.Context, s *toolgate.Session, audit ...toolgate.AuditEntry) error {
	const op = "put session"
	if db.closed.Load() {
		return db.errClosed(op)
	}
	if s == nil || s.ID == "" {
		return toolgate.Errorf(toolgate.EInvalid, "postgres: %s: no session id", op)
	}
	mode, _ := s.Mode.MarshalText()
	var check toolgate.Mode
	if err := check.UnmarshalText(mode); err != nil {
		return toolgate.Errorf(toolgate.EInvalid, "postgres: %s %s: invalid mode %s", op, s.ID, mode)
	}
	created, err := rowcodec.Nanos("created_at", s.CreatedAt)
	if err != nil {
		return wrap(op+" "+s.ID, err)
	}
	updated, err := rowcodec.Nanos("updated_at", s.UpdatedAt)
	if err != nil {
		return wrap(op+" "+s.ID, err)
	}
	err = db.write(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO sessions (`+sessionColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
			ON CONFLICT (id) DO UPDATE SET workspace = excluded.workspace, mode = excluded.mode, owner = excluded.owner,
				turn = excluded.turn, stopped = excluded.stopped, aborted = excluded.aborted,
				created_at = excluded.created_at, updated_at = excluded.updated_at`,
			s.ID, s.Workspace, string(mode), s.Turn, s.Stopped, s.Aborted, created, updated, s.Owner); err != nil {
			return err
		}
		return db.appendAudit(ctx, tx, audit)
	})
	return wrap(op+" "+s.ID, err)
}

func scanSession(r rowScanner) (*toolgate.Session, error) {
	var (
		s                toolgate.Session
		mode             string
		created, updated *int64
	)
	if err := r.Scan(&s.ID, &s.Workspace, &mode, &s.Turn, &s.Stopped, &s.Aborted, &created, &updated, &s.Owner); err != nil {
		return nil, err
	}
	if err := s.Mode.UnmarshalText([]byte(mode)); err != nil {
		return nil, fmt.Errorf("decode session %s: %w", s.ID, err)
	}
	s.CreatedAt, s.UpdatedAt = fromNanos(created), fromNanos(updated)
	return &s, nil
}

// GetSession implements store.Store.
func (db *DB) GetSession(ctx context.Context, id string) (*toolgate.Session, error) {
	if db.closed.Load() {
		return nil, db.errClosed("get session " + id)
	}
	ctx, cancel := db.bound(ctx)
	defer cancel()
	s, err := scanSession(db.pool.QueryRow(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, toolgate.Errorf(toolgate.ENotFound, "session %s not found", id)
	}
	if err != nil {
		return nil, wrap("get session "+id, err)
	}
	return s, nil
}

// ListSessions implements store.Store. Sessions are ordered by CreatedAt,
// then by the order they were first stored.
func (db *DB) ListSessions(ctx context.Context, f store.SessionFilter) ([]*toolgate.Session, error) {
	var w where
	if f.Workspace != "" {
		w.add(`workspace =`, f.Workspace)
	}
	q := `SELECT ` + sessionColumns + ` FROM sessions` + w.String() + ` ORDER BY created_at NULLS FIRST, ord` + limit(f.Limit)
	return queryRows(ctx, db, "list sessions", q, w.args, scanSession)
}
