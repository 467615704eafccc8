package approval_test

import (
	"context"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/store"
)

// lateStore holds the creation of one call's approval until released:
// the call was decided before a stop, and is stored after the stop
// listed the session's pending approvals.
type lateStore struct {
	store.Store
	callID  string
	reached chan struct{}
	release chan struct{}
}

func (s *lateStore) CreateApproval(ctx context.Context, a *toolgate.Approval, audit ...toolgate.AuditEntry) (*toolgate.Approval, error) {
	if a.Call.ID == s.callID {
		close(s.reached)
		<-s.release
	}
	return s.Store.CreateApproval(ctx, a, audit...)
}

// TestCallAfterHardDenyIsNotLeftPending: a call decided just before a hard
// deny stopped its session and stored just after the stop resolved the
// session's pending approvals (seed 002's reject_hard race) ends denied,
// not pending; and one after an abort ends cancelled. Calls of other
// sessions are untouched.
func TestCallAfterHardDenyIsNotLeftPending(t *testing.T) {
	for _, c := range []struct {
		name string
		stop func(e *env, a *toolgate.Approval) error
		want toolgate.Status
	}{
		{"hard deny", func(e *env, a *toolgate.Approval) error {
			_, err := e.broker.Deny(context.Background(), a.ID, toolgate.DenyRequest{Mode: toolgate.DenyHard, Reason: "no"}, human)
			return err
		}, toolgate.StatusDenied},
		{"abort", func(e *env, a *toolgate.Approval) error {
			_, err := e.broker.Abort(context.Background(), a.Call.Session, human)
			return err
		}, toolgate.StatusCancelled},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			late := &lateStore{callID: "late", reached: make(chan struct{}), release: make(chan struct{})}
			e := openEnvOn(t, t.TempDir(), newClock(), func(st store.Store) store.Store { late.Store = st; return late })
			first := e.ask(t, shellCall("s1", "c1", "git push origin main"))
			other := e.ask(t, shellCall("s2", "c1", "git push origin main"))
			done := make(chan *toolgate.Result, 1)
			go func() {
				r, err := e.broker.Submit(context.Background(), toolgate.SubmitRequest{Call: shellCall("s1", "late", "npm publish")})
				if err != nil {
					t.Error(err)
				}
				done <- r
			}()
			<-late.reached // decided, not yet stored
			if err := c.stop(e, first); err != nil {
				t.Fatal(err)
			}
			close(late.release)
			r := <-done
			if r == nil || r.Approval == nil || r.Approval.Status != c.want {
				t.Fatalf("the late call: %+v, want %s", r, c.want)
			}
			stored, err := e.broker.Get(context.Background(), r.Approval.ID)
			if err != nil || stored.Status != c.want {
				t.Fatalf("the late call as stored: %+v %v, want %s", stored, err, c.want)
			}
			if got, _ := e.broker.Get(context.Background(), other.ID); got.Status != toolgate.StatusPending {
				t.Fatalf("another session's call: %s, want pending", got.Status)
			}
		})
	}
}

// answeredStore lets a test answer one call's approval after the store has
// it and before CreateApproval returns to the broker: a human answering
// from the inbox the instant the call appears there.
type answeredStore struct {
	store.Store
	callID string
	stored chan *toolgate.Approval
	answer chan struct{}
}

func (s *answeredStore) CreateApproval(ctx context.Context, a *toolgate.Approval, audit ...toolgate.AuditEntry) (*toolgate.Approval, error) {
	existing, err := s.Store.CreateApproval(ctx, a, audit...)
	if err == nil && existing == nil && a.Call.ID == s.callID {
		s.stored <- a
		<-s.answer
	}
	return existing, err
}

// TestAnsweredBeforeTracked: an approval answered between its insert and
// the broker tracking it wakes its waiter with the answer (not at its
// expiry) and is not counted as pending afterwards.
func TestAnsweredBeforeTracked(t *testing.T) {
	t.Parallel()
	st := &answeredStore{callID: "c1", stored: make(chan *toolgate.Approval, 1), answer: make(chan struct{})}
	e := openEnvOn(t, t.TempDir(), newClock(), func(inner store.Store) store.Store { st.Store = inner; return st },
		approval.WithMaxPending(1))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	type out struct {
		r   *toolgate.Result
		err error
	}
	done := make(chan out, 1)
	go func() {
		r, err := e.broker.RequestApproval(ctx, toolgate.SubmitRequest{Call: shellCall("s1", "c1", "git push origin main")})
		done <- out{r, err}
	}()
	a := <-st.stored
	if _, err := e.broker.Approve(ctx, a.ID, toolgate.ApproveRequest{}, human); err != nil {
		t.Fatal(err)
	}
	close(st.answer)
	got := <-done
	if got.err != nil || got.r.Approval == nil || got.r.Approval.Status != toolgate.StatusApproved {
		t.Fatalf("the waiter of an approval answered before it was tracked: %+v %v", got.r, got.err)
	}
	// With one pending approval allowed per session, the answered one must
	// not hold the place of the next.
	e.ask(t, shellCall("s1", "c2", "npm publish"))
}
