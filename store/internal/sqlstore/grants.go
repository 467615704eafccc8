package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/internal/rowcodec"
)

// grantRow holds a grant's encoded column values.
type grantRow struct {
	createdAt, expiresAt any
}

func encodeGrant(g *toolgate.Grant) (grantRow, error) {
	var row grantRow
	if g.ID == "" {
		return row, toolgate.Errorf(toolgate.EInvalid, "no grant id")
	}
	var err error
	if row.createdAt, err = rowcodec.Nanos("created_at", g.CreatedAt); err != nil {
		return row, err
	}
	row.expiresAt, err = rowcodec.Nanos("expires_at", g.ExpiresAt)
	return row, err
}

// insertGrant stores g; a grant with the same id is a conflict.
func (s *Store) insertGrant(ctx context.Context, tx Querier, g *toolgate.Grant, row grantRow) error {
	_, err := tx.Exec(ctx, s.q.insertGrant, g.ID, string(g.Scope), string(g.Kind), g.Tool, g.Pattern, g.Session, g.Workspace, g.Turn,
		g.ApprovalID, g.CreatedBy, g.Via, row.createdAt, row.expiresAt)
	if s.b.IsUnique(err) {
		return &toolgate.Error{Code: toolgate.EConflict, Message: fmt.Sprintf("grant %s already exists", g.ID), Err: err}
	}
	return err
}

// AddGrant implements store.Store. A grant whose id exists already is an
// EConflict error.
func (s *Store) AddGrant(ctx context.Context, g *toolgate.Grant, audit ...toolgate.AuditEntry) error {
	const op = "add grant"
	if err := s.closed(op); err != nil {
		return err
	}
	if g == nil {
		return s.errf("%s: no grant", op)
	}
	row, err := encodeGrant(g)
	if err != nil {
		return s.b.Wrap(op+" "+g.ID, err)
	}
	err = s.b.Write(ctx, true, func(ctx context.Context, tx Querier) error {
		if err := s.insertGrant(ctx, tx, g, row); err != nil {
			return err
		}
		return s.b.AppendAudit(ctx, tx, audit)
	})
	return s.b.Wrap(op+" "+g.ID, err)
}

// RevokeGrant implements store.Store.
func (s *Store) RevokeGrant(ctx context.Context, id string, audit ...toolgate.AuditEntry) error {
	op := "revoke grant " + id
	if err := s.closed(op); err != nil {
		return err
	}
	err := s.b.Write(ctx, true, func(ctx context.Context, tx Querier) error {
		n, err := tx.Exec(ctx, s.q.deleteGrant, id)
		if err != nil {
			return err
		}
		if n == 0 {
			return toolgate.Errorf(toolgate.ENotFound, "grant %s not found", id)
		}
		return s.b.AppendAudit(ctx, tx, audit)
	})
	return s.b.Wrap(op, err)
}

// ListGrants implements store.Store. Grants are ordered by CreatedAt, then
// by the order they were stored. Filters match exactly: a workspace filter
// does not select global grants.
func (s *Store) ListGrants(ctx context.Context, f store.GrantFilter) ([]*toolgate.Grant, error) {
	w := where{d: s.d}
	if f.Scope != "" {
		w.add(`scope =`, string(f.Scope))
	}
	if f.Session != "" {
		w.add(`session =`, f.Session)
	}
	if f.Workspace != "" {
		w.add(`workspace =`, f.Workspace)
	}
	if f.Tool != "" {
		w.add(`tool =`, f.Tool)
	}
	return queryRows(ctx, s, "list grants", `SELECT `+grantColumns+` FROM grants`+w.String()+s.d.order(), w.args, scanGrant)
}

func scanGrant(r Row) (*toolgate.Grant, error) {
	var (
		g                toolgate.Grant
		scope, kind      string
		created, expires sql.NullInt64
	)
	if err := r.Scan(&g.ID, &scope, &kind, &g.Tool, &g.Pattern, &g.Session, &g.Workspace, &g.Turn,
		&g.ApprovalID, &g.CreatedBy, &g.Via, &created, &expires); err != nil {
		return nil, err
	}
	g.Scope, g.Kind, g.CreatedAt, g.ExpiresAt = toolgate.Scope(scope), toolgate.GrantKind(kind), fromNanos(created), fromNanos(expires)
	return &g, nil
}
