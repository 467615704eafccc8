package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/internal/rowcodec"
)

// CreateApproval implements store.Store. It returns nil and stores a, with
// its audit entries, when no approval exists for a's session and call id;
// otherwise it returns that approval and stores nothing. An empty Status
// is stored as pending; any other status but pending is refused, as is a
// Resolution.
func (s *Store) CreateApproval(ctx context.Context, a *toolgate.Approval, audit ...toolgate.AuditEntry) (*toolgate.Approval, error) {
	if err := s.closed("create approval"); err != nil {
		return nil, err
	}
	if a == nil {
		return nil, s.errf("create approval: no approval")
	}
	op := "create approval " + a.ID
	row, err := rowcodec.EncodeApproval(a)
	if err != nil {
		return nil, s.b.Wrap(op, err)
	}
	var existing *toolgate.Approval
	// A new pending approval may be lost to a power cut until the next
	// durable commit: its agent is still waiting, and resubmits.
	err = s.b.Write(ctx, false, func(ctx context.Context, tx Querier) error {
		n, err := tx.Exec(ctx, s.q.insertApproval,
			a.ID, a.Call.Session, a.Call.ID, a.Call.Workspace, string(toolgate.StatusPending), nullString(a.ResumeToken),
			row.CreatedAt, row.ExpiresAt, row.Call, row.Decision, row.Batch, a.Digest)
		if err != nil {
			return err
		}
		if n == 0 {
			existing, err = scanApproval(tx.QueryRow(ctx, s.q.getApprovalByCall, a.Call.Session, a.Call.ID))
			return err
		}
		return s.b.AppendAudit(ctx, tx, audit)
	})
	if err != nil {
		return nil, s.b.Wrap(op, err)
	}
	return existing, nil
}

func scanApproval(r Row) (*toolgate.Approval, error) {
	var (
		a                 toolgate.Approval
		token, batch, res sql.NullString
		created, expires  sql.NullInt64
		status, call, dec string
	)
	if err := r.Scan(&a.ID, &status, &token, &created, &expires, &call, &dec, &batch, &res, &a.Digest); err != nil {
		return nil, err
	}
	a.Status = toolgate.Status(status)
	a.ResumeToken = token.String
	a.CreatedAt = fromNanos(created)
	a.ExpiresAt = fromNanos(expires)
	var batchCol, resCol *string
	if batch.Valid {
		batchCol = &batch.String
	}
	if res.Valid {
		resCol = &res.String
	}
	if err := rowcodec.DecodeApproval(&a, call, dec, batchCol, resCol); err != nil {
		return nil, err
	}
	return &a, nil
}

// getApproval reads one approval; describe names the operation and the
// approval for an error, and runs only then.
func (s *Store) getApproval(ctx context.Context, q string, describe func() (op, what string), args ...any) (*toolgate.Approval, error) {
	if s.b.Closed() {
		op, _ := describe()
		return nil, s.b.ErrClosed(op)
	}
	a, err := scanApproval(s.b.Reads().QueryRow(ctx, q, args...))
	if s.b.NoRows(err) {
		_, what := describe()
		return nil, toolgate.Errorf(toolgate.ENotFound, "%s not found", what)
	}
	if err != nil {
		op, _ := describe()
		return nil, s.b.Wrap(op, err)
	}
	return a, nil
}

// GetApproval implements store.Store.
func (s *Store) GetApproval(ctx context.Context, id string) (*toolgate.Approval, error) {
	return s.getApproval(ctx, s.q.getApproval, func() (string, string) {
		return "get approval " + id, "approval " + id
	}, id)
}

// GetApprovalByToken implements store.Store.
func (s *Store) GetApprovalByToken(ctx context.Context, token string) (*toolgate.Approval, error) {
	if token == "" {
		return nil, toolgate.Errorf(toolgate.ENotFound, "approval with an empty resume token not found")
	}
	return s.getApproval(ctx, s.q.getApprovalByToken, func() (string, string) {
		return "get approval by resume token", "approval for this resume token"
	}, token)
}

// GetApprovalByCall implements store.Store.
func (s *Store) GetApprovalByCall(ctx context.Context, session, callID string) (*toolgate.Approval, error) {
	return s.getApproval(ctx, s.q.getApprovalByCall, func() (string, string) {
		return fmt.Sprintf("get approval of call %s/%s", session, callID),
			fmt.Sprintf("approval of call %q in session %q", callID, session)
	}, session, callID)
}

// ListApprovals implements store.Store. Approvals are ordered by
// CreatedAt, then by the order they were stored.
func (s *Store) ListApprovals(ctx context.Context, f store.ApprovalFilter) ([]*toolgate.Approval, error) {
	const op = "list approvals"
	q, args, err := ApprovalsQuery(s.d, f)
	if err != nil {
		return nil, s.b.Wrap(op, err)
	}
	return queryRows(ctx, s, op, q, args, scanApproval)
}

// ApprovalsQuery is ListApprovals' query for f in dialect d, and its
// arguments.
func ApprovalsQuery(d Dialect, f store.ApprovalFilter) (string, []any, error) {
	w := where{d: d}
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
	return `SELECT ` + approvalColumns + ` FROM approvals` + w.String() + d.order() + limit(f.Limit), w.args, nil
}

// ResolveApproval implements store.Store: one transaction that updates the
// approval if it is still pending (the guard: of concurrent answers on any
// number of nodes, the first to commit wins and the others update no row),
// stores grant and appends audit.
func (s *Store) ResolveApproval(ctx context.Context, id string, res toolgate.Resolution, grant *toolgate.Grant, audit ...toolgate.AuditEntry) error {
	op := "resolve approval " + id
	if err := s.closed(op); err != nil {
		return err
	}
	if !res.Status.Final() {
		return s.errf("%s: %q is not a final status", op, res.Status)
	}
	text, err := rowcodec.EncodeResolution(&res)
	if err != nil {
		return s.b.Wrap(op, err)
	}
	var g grantRow
	if grant != nil {
		if g, err = encodeGrant(grant); err != nil {
			return s.b.Wrap(op, err)
		}
	}
	err = s.b.Write(ctx, true, func(ctx context.Context, tx Querier) error {
		n, err := tx.Exec(ctx, s.q.resolveApproval, string(res.Status), text, id)
		if err != nil {
			return err
		}
		if n == 0 {
			var status string
			err := tx.QueryRow(ctx, s.q.approvalStatus, id).Scan(&status)
			if s.b.NoRows(err) {
				return toolgate.Errorf(toolgate.ENotFound, "approval %s not found", id)
			}
			if err != nil {
				return err
			}
			return toolgate.Errorf(toolgate.EConflict, "approval %s is already %s", id, status)
		}
		if grant != nil {
			if err := s.insertGrant(ctx, tx, grant, g); err != nil {
				return fmt.Errorf("add grant %s: %w", grant.ID, err)
			}
		}
		return s.b.AppendAudit(ctx, tx, audit)
	})
	return s.b.Wrap(op, err)
}
