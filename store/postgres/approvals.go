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

const approvalColumns = `id, status, resume_token, created_at, expires_at, call, decision, batch_remaining, resolution, digest`

// CreateApproval implements store.Store. It returns nil and stores a, with
// its audit entries, when no approval exists for a's session and call id;
// otherwise it returns that approval and stores nothing. An empty Status
// is stored as pending; any other status but pending is refused, as is a
// Resolution.
func (db *DB) CreateApproval(ctx context.Context, a *toolgate.Approval, audit ...toolgate.AuditEntry) (*toolgate.Approval, error) {
	if db.closed.Load() {
		return nil, db.errClosed("create approval")
	}
	if a == nil {
		return nil, toolgate.Errorf(toolgate.EInvalid, "postgres: create approval: no approval")
	}
	op := "create approval " + a.ID
	row, err := rowcodec.EncodeApproval(a)
	if err != nil {
		return nil, wrap(op, err)
	}
	var existing *toolgate.Approval
	err = db.write(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO approvals
			(id, session, call_id, workspace, status, resume_token, created_at, expires_at, call, decision, batch_remaining, resolution, digest)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, NULL, $12)
			ON CONFLICT (session, call_id) DO NOTHING`,
			a.ID, a.Call.Session, a.Call.ID, a.Call.Workspace, string(toolgate.StatusPending), nullString(a.ResumeToken),
			row.CreatedAt, row.ExpiresAt, row.Call, row.Decision, row.Batch, a.Digest)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			existing, err = scanApproval(tx.QueryRow(ctx,
				`SELECT `+approvalColumns+` FROM approvals WHERE session = $1 AND call_id = $2`, a.Call.Session, a.Call.ID))
			return err
		}
		return db.appendAudit(ctx, tx, audit)
	})
	if err != nil {
		return nil, wrap(op, err)
	}
	return existing, nil
}

func scanApproval(s rowScanner) (*toolgate.Approval, error) {
	var (
		a                 toolgate.Approval
		token, batch, res *string
		created, expires  *int64
		status, call, dec string
	)
	if err := s.Scan(&a.ID, &status, &token, &created, &expires, &call, &dec, &batch, &res, &a.Digest); err != nil {
		return nil, err
	}
	a.Status = toolgate.Status(status)
	if token != nil {
		a.ResumeToken = *token
	}
	a.CreatedAt = fromNanos(created)
	a.ExpiresAt = fromNanos(expires)
	if err := rowcodec.DecodeApproval(&a, call, dec, batch, res); err != nil {
		return nil, err
	}
	return &a, nil
}

// getApproval reads one approval; describe names the operation and the
// approval for an error, and runs only then.
func (db *DB) getApproval(ctx context.Context, q string, describe func() (op, what string), args ...any) (*toolgate.Approval, error) {
	if db.closed.Load() {
		op, _ := describe()
		return nil, db.errClosed(op)
	}
	ctx, cancel := db.bound(ctx)
	defer cancel()
	a, err := scanApproval(db.pool.QueryRow(ctx, q, args...))
	if errors.Is(err, pgx.ErrNoRows) {
		_, what := describe()
		return nil, toolgate.Errorf(toolgate.ENotFound, "%s not found", what)
	}
	if err != nil {
		op, _ := describe()
		return nil, wrap(op, err)
	}
	return a, nil
}

// GetApproval implements store.Store.
func (db *DB) GetApproval(ctx context.Context, id string) (*toolgate.Approval, error) {
	return db.getApproval(ctx, `SELECT `+approvalColumns+` FROM approvals WHERE id = $1`, func() (string, string) {
		return "get approval " + id, "approval " + id
	}, id)
}

// GetApprovalByToken implements store.Store.
func (db *DB) GetApprovalByToken(ctx context.Context, token string) (*toolgate.Approval, error) {
	if token == "" {
		return nil, toolgate.Errorf(toolgate.ENotFound, "approval with an empty resume token not found")
	}
	return db.getApproval(ctx, `SELECT `+approvalColumns+` FROM approvals WHERE resume_token = $1`, func() (string, string) {
		return "get approval by resume token", "approval for this resume token"
	}, token)
}

// GetApprovalByCall implements store.Store.
func (db *DB) GetApprovalByCall(ctx context.Context, session, callID string) (*toolgate.Approval, error) {
	return db.getApproval(ctx, `SELECT `+approvalColumns+` FROM approvals WHERE session = $1 AND call_id = $2`, func() (string, string) {
		return fmt.Sprintf("get approval of call %s/%s", session, callID),
			fmt.Sprintf("approval of call %q in session %q", callID, session)
	}, session, callID)
}

// ListApprovals implements store.Store. Approvals are ordered by
// CreatedAt, then by the order they were stored.
func (db *DB) ListApprovals(ctx context.Context, f store.ApprovalFilter) ([]*toolgate.Approval, error) {
	const op = "list approvals"
	q, args, err := approvalsQuery(f)
	if err != nil {
		return nil, wrap(op, err)
	}
	return queryRows(ctx, db, op, q, args, scanApproval)
}

// approvalsQuery is ListApprovals' query for f and its arguments.
func approvalsQuery(f store.ApprovalFilter) (string, []any, error) {
	var w where
	if f.Status != "" {
		w.add(`status =`, string(f.Status))
	}
	if f.Session != "" {
		w.add(`session =`, f.Session)
	}
	if f.Workspace != "" {
		w.add(`workspace =`, f.Workspace)
	}
	if !f.ExpiresBefore.IsZero() {
		t, err := rowcodec.Nanos("expires_before", f.ExpiresBefore)
		if err != nil {
			return "", nil, err
		}
		w.add(`expires_at <=`, t)
	}
	q := `SELECT ` + approvalColumns + ` FROM approvals` + w.String() + ` ORDER BY created_at NULLS FIRST, ord` + limit(f.Limit)
	return q, w.args, nil
}

// ResolveApproval implements store.Store: one transaction that updates the
// approval if it is still pending (the guard: of concurrent answers on any
// number of nodes, the first to commit wins and the others update no row),
// stores grant and appends audit.
func (db *DB) ResolveApproval(ctx context.Context, id string, res toolgate.Resolution, grant *toolgate.Grant, audit ...toolgate.AuditEntry) error {
	op := "resolve approval " + id
	if db.closed.Load() {
		return db.errClosed(op)
	}
	if !res.Status.Final() {
		return toolgate.Errorf(toolgate.EInvalid, "postgres: %s: %q is not a final status", op, res.Status)
	}
	text, err := rowcodec.EncodeResolution(&res)
	if err != nil {
		return wrap(op, err)
	}
	var g grantRow
	if grant != nil {
		if g, err = encodeGrant(grant); err != nil {
			return wrap(op, err)
		}
	}
	err = db.write(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE approvals SET status = $1, resolution = $2 WHERE id = $3 AND status = 'pending'`, string(res.Status), text, id)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			var status string
			err := tx.QueryRow(ctx, `SELECT status FROM approvals WHERE id = $1`, id).Scan(&status)
			if errors.Is(err, pgx.ErrNoRows) {
				return toolgate.Errorf(toolgate.ENotFound, "approval %s not found", id)
			}
			if err != nil {
				return err
			}
			return toolgate.Errorf(toolgate.EConflict, "approval %s is already %s", id, status)
		}
		if grant != nil {
			if err := insertGrant(ctx, tx, grant, g); err != nil {
				return fmt.Errorf("add grant %s: %w", grant.ID, err)
			}
		}
		return db.appendAudit(ctx, tx, audit)
	})
	return wrap(op, err)
}
