package sqlstore

import (
	"context"
	"time"

	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/internal/rowcodec"
)

var _ store.Counter = (*Store)(nil)

// CountPending implements store.Counter.
func (s *Store) CountPending(ctx context.Context, owner string) (int, error) {
	return s.count(ctx, "count pending approvals of "+owner, s.q.countPending, owner)
}

// CountSessions implements store.Counter.
func (s *Store) CountSessions(ctx context.Context, owner string, since time.Time) (int, error) {
	op := "count sessions of " + owner
	t, err := rowcodec.Nanos("since", since)
	if err != nil {
		return 0, s.b.Wrap(op, err)
	}
	if t == nil { // the zero time: every session
		return s.count(ctx, op, s.q.countSessions, owner)
	}
	return s.count(ctx, op, s.q.countSessionsSince, owner, t)
}

func (s *Store) count(ctx context.Context, op, q string, args ...any) (int, error) {
	if err := s.closed(op); err != nil {
		return 0, err
	}
	var n int
	if err := s.b.Reads().QueryRow(ctx, q, args...).Scan(&n); err != nil {
		return 0, s.b.Wrap(op, err)
	}
	return n, nil
}

// ClaimWorkspace implements store.Counter. The count and the insert are
// one step: the dialect's claim lock serialises an owner's claims across
// nodes, or the backend's one writer serialises every write.
func (s *Store) ClaimWorkspace(ctx context.Context, owner, workspace string, limit int) (ok bool, created int, err error) {
	op := "claim workspace " + workspace + " for " + owner
	if err := s.closed(op); err != nil {
		return false, 0, err
	}
	err = s.b.Write(ctx, true, func(ctx context.Context, tx Querier) error {
		ok, created = false, 0
		if s.q.claimLock != "" {
			if _, err := tx.Exec(ctx, s.q.claimLock, owner); err != nil {
				return err
			}
		}
		var exists bool
		if err := tx.QueryRow(ctx, s.q.claimed, workspace).Scan(&exists); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, s.q.claims, owner).Scan(&created); err != nil {
			return err
		}
		if exists {
			ok = true
			return nil
		}
		if created >= limit {
			return nil
		}
		n, err := tx.Exec(ctx, s.q.claim, workspace, owner)
		if err != nil {
			return err
		}
		ok = true
		if n == 1 {
			created++
		}
		return nil
	})
	if err != nil {
		return false, 0, s.b.Wrap(op, err)
	}
	return ok, created, nil
}
