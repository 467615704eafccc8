package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/internal/rowcodec"
)

const grantColumns = `id, scope, kind, tool, pattern, session, workspace, turn, approval_id, created_by, via, created_at, expires_at`

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
func insertGrant(ctx context.Context, tx pgx.Tx, g *toolgate.Grant, row grantRow) error {
	_, err := tx.Exec(ctx, `INSERT INTO grants (`+grantColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
		g.ID, string(g.Scope), string(g.Kind), g.Tool, g.Pattern, g.Session, g.Workspace, g.Turn,
		g.ApprovalID, g.CreatedBy, g.Via, row.createdAt, row.expiresAt)
	if isUnique(err) {
		return &toolgate.Error{Code: toolgate.EConflict, Message: fmt.Sprintf("grant %s already exists", g.ID), Err: err}
	}
	return err
}

// AddGrant implements store.Store. A grant whose id exists already is an
// EConflict error.
func (db *DB) AddGrant(ctx context.Context, g *toolgate.Grant, audit ...toolgate.AuditEntry) error {
	const op = "add grant"
	if db.closed.Load() {
		return db.errClosed(op)
	}
	if g == nil {
		return toolgate.Errorf(toolgate.EInvalid, "postgres: %s: no grant", op)
	}
	row, err := encodeGrant(g)
	if err != nil {
		return wrap(op+" "+g.ID, err)
	}
	err = db.write(ctx, func(tx pgx.Tx) error {
		if err := insertGrant(ctx, tx, g, row); err != nil {
			return err
		}
		return db.appendAudit(ctx, tx, audit)
	})
	return wrap(op+" "+g.ID, err)
}

// RevokeGrant implements store.Store.
func (db *DB) RevokeGrant(ctx context.Context, id string, audit ...toolgate.AuditEntry) error {
	op := "revoke grant " + id
	if db.closed.Load() {
		return db.errClosed(op)
	}
	err := db.write(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM grants WHERE id = $1`, id)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return toolgate.Errorf(toolgate.ENotFound, "grant %s not found", id)
		}
		return db.appendAudit(ctx, tx, audit)
	})
	return wrap(op, err)
}

// ListGrants implements store.Store. Grants are ordered by CreatedAt, then
// by the order they were stored. Filters match exactly: a workspace filter
// does not select global grants.
func (db *DB) ListGrants(ctx context.Context, f store.GrantFilter) ([]*toolgate.Grant, error) {
	var w where
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
	return queryRows(ctx, db, "list grants", `SELECT `+grantColumns+` FROM grants`+w.String()+` ORDER BY created_at NULLS FIRST, ord`, w.args, scanGrant)
}

func scanGrant(s rowScanner) (*toolgate.Grant, error) {
	var (
		g           toolgate.Grant
		scope, kind string
		created     *int64
		expires     *int64
	)
	if err := s.Scan(&g.ID, &scope, &kind, &g.Tool, &g.Pattern, &g.Session, &g.Workspace, &g.Turn,
		&g.ApprovalID, &g.CreatedBy, &g.Via, &created, &expires); err != nil {
		return nil, err
	}
	g.Scope, g.Kind, g.CreatedAt, g.ExpiresAt = toolgate.Scope(scope), toolgate.GrantKind(kind), fromNanos(created), fromNanos(expires)
	return &g, nil
}
