package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/internal/rowcodec"
)

// PutSession implements store.Store.
func (s *Store) PutSession(ctx context.Context, sess *toolgate.Session, audit ...toolgate.AuditEntry) error {
	const op = "put session"
	if err := s.closed(op); err != nil {
		return err
	}
	if sess == nil || sess.ID == "" {
		return s.errf("%s: no session id", op)
	}
	mode, _ := sess.Mode.MarshalText()
	var check toolgate.Mode
	if err := check.UnmarshalText(mode); err != nil {
		return s.errf("%s %s: invalid mode %s", op, sess.ID, mode)
	}
	created, err := rowcodec.Nanos("created_at", sess.CreatedAt)
	if err != nil {
		return s.b.Wrap(op+" "+sess.ID, err)
	}
	updated, err := rowcodec.Nanos("updated_at", sess.UpdatedAt)
	if err != nil {
		return s.b.Wrap(op+" "+sess.ID, err)
	}
	err = s.b.Write(ctx, true, func(ctx context.Context, tx Querier) error {
		if _, err := tx.Exec(ctx, s.q.putSession,
			sess.ID, sess.Workspace, string(mode), sess.Turn, sess.Stopped, sess.Aborted, created, updated, sess.Owner); err != nil {
			return err
		}
		return s.b.AppendAudit(ctx, tx, audit)
	})
	return s.b.Wrap(op+" "+sess.ID, err)
}

func scanSession(r Row) (*toolgate.Session, error) {
	var (
		s                toolgate.Session
		mode             string
		created, updated sql.NullInt64
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
func (s *Store) GetSession(ctx context.Context, id string) (*toolgate.Session, error) {
	if s.b.Closed() {
		return nil, s.b.ErrClosed("get session " + id)
	}
	sess, err := scanSession(s.b.Reads().QueryRow(ctx, s.q.getSession, id))
	if s.b.NoRows(err) {
		return nil, toolgate.Errorf(toolgate.ENotFound, "session %s not found", id)
	}
	if err != nil {
		return nil, s.b.Wrap("get session "+id, err)
	}
	return sess, nil
}

// ListSessions implements store.Store. Sessions are ordered by CreatedAt,
// then by the order they were first stored.
func (s *Store) ListSessions(ctx context.Context, f store.SessionFilter) ([]*toolgate.Session, error) {
	w := where{d: s.d}
	if f.Workspace != "" {
		w.add(`workspace =`, f.Workspace)
	}
	q := `SELECT ` + sessionColumns + ` FROM sessions` + w.String() + s.d.order() + limit(f.Limit)
	return queryRows(ctx, s, "list sessions", q, w.args, scanSession)
}
