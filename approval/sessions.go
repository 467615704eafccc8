package approval

import (
	"context"
	"errors"
	"slices"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
)

// Session returns a session.
func (b *Broker) Session(ctx context.Context, id string) (*toolgate.Session, error) {
	return b.getSession(ctx, id)
}

// Sessions lists sessions.
func (b *Broker) Sessions(ctx context.Context, f store.SessionFilter) ([]*toolgate.Session, error) {
	return b.store.ListSessions(ctx, f)
}

// updateSession loads a session, applies change and stores it with an
// audit entry. With create, a session never seen is created unbound (no
// workspace): its first call binds it, so a host may set the mode of a
// session before its first call. Without create it is ENotFound.
func (b *Broker) updateSession(ctx context.Context, id, kind string, by toolgate.Actor, create bool, change func(*toolgate.Session) string) (*toolgate.Session, error) {
	if by.Agent {
		var err error
		if id, err = SessionFor(id, by); err != nil {
			return nil, err
		}
	}
	if id == "" {
		return nil, toolgate.Errorf(toolgate.EInvalid, "no session id")
	}
	// Read-modify-write: under the session's lock, from the store's
	// latest state, not a cache another node's write made stale.
	unlock, err := b.lockSession(ctx, id)
	if err != nil {
		return nil, err
	}
	defer unlock()
	s, err := b.getSession(ctx, id)
	switch {
	case toolgate.ErrorCodeOf(err) == toolgate.ENotFound && create:
		s = &toolgate.Session{ID: id, CreatedAt: b.now()}
	case toolgate.ErrorCodeOf(err) == toolgate.ENotFound:
		return nil, toolgate.Errorf(toolgate.ENotFound, "session %s not found: it has had no calls yet", id)
	case err != nil:
		return nil, err
	}
	outcome := change(s)
	s.UpdatedAt = b.now()
	entry := b.auditEntry(kind, &toolgate.Call{Session: s.ID, Workspace: s.Workspace}, "", outcome, by, "", nil)
	if err := b.putSession(ctx, s, entry); err != nil {
		return nil, err
	}
	return s, nil
}

// setMode changes a session's mode. It applies to calls decided after it;
// pending approvals are not re-decided.
func (b *Broker) setMode(ctx context.Context, session string, m toolgate.Mode, by toolgate.Actor) (*toolgate.Session, error) {
	s, err := b.updateSession(ctx, session, string(toolgate.EventModeChanged), by, true, func(s *toolgate.Session) string {
		s.Mode = m
		return m.String()
	})
	if err != nil {
		return nil, err
	}
	b.emit(toolgate.Event{Type: toolgate.EventModeChanged, Time: b.now(), Session: s.ID, Workspace: s.Workspace, Mode: &m})
	return s, nil
}

// abort ends a session: its pending approvals are cancelled and later
// calls are denied.
func (b *Broker) abort(ctx context.Context, session string, by toolgate.Actor) (*toolgate.Session, error) {
	s, err := b.updateSession(ctx, session, string(toolgate.EventSessionAborted), by, true, func(s *toolgate.Session) string {
		s.Aborted = true
		return "aborted"
	})
	if err != nil {
		return nil, err
	}
	b.emit(toolgate.Event{Type: toolgate.EventSessionAborted, Time: b.now(), Session: s.ID, Workspace: s.Workspace})
	err = b.resolveAll(ctx, store.ApprovalFilter{Status: toolgate.StatusPending, Session: s.ID}, toolgate.Resolution{
		Status: toolgate.StatusCancelled, Reason: "the session was aborted", By: by.Name, Via: by.Via,
	})
	return s, err
}

// CancelWorkspace cancels every pending approval of a workspace whose
// host disconnected: seed 001's "On worker disconnect, all pending
// approvals for sessions bound to that worker are cleared" (a worker is a
// workspace; POST /v1/workspaces/{id}/disconnect).
//
// An agent credential cancels only the approvals of the sessions it owns,
// as with the Gate's Cancel: a workspace is not a credential's, and
// another agent's pending calls in it are not its to clear.
func (b *Broker) CancelWorkspace(ctx context.Context, workspace string) error {
	by := caller(ctx)
	list, err := b.store.ListApprovals(ctx, store.ApprovalFilter{Status: toolgate.StatusPending, Workspace: workspace})
	if err != nil {
		return err
	}
	if by.Agent {
		var errs []error
		list = slices.DeleteFunc(list, func(a *toolgate.Approval) bool {
			err := b.checkOwner(ctx, a, by)
			if err != nil && toolgate.ErrorCodeOf(err) != toolgate.ENotFound {
				errs = append(errs, err)
			}
			return err != nil
		})
		if len(errs) > 0 {
			return errors.Join(errs...)
		}
	}
	return b.resolveEach(ctx, list, toolgate.Resolution{
		Status: toolgate.StatusCancelled, Reason: "the workspace disconnected", By: by.Name, Via: by.Via,
	})
}

// endTurn ends the session's current turn: the user spoke again. Turn
// grants lapse and the stop flag of a hard deny clears. Who may end a
// turn: an approver or admin (a human), and the agent credential that owns
// the session, which is how the Claude Code hook's UserPromptSubmit event
// reports the user's new message; another agent credential is told the
// session does not exist.
func (b *Broker) endTurn(ctx context.Context, session string, by toolgate.Actor) (*toolgate.Session, error) {
	if by.Agent {
		var err error
		if session, err = SessionFor(session, by); err != nil {
			return nil, err
		}
		var s toolgate.Session
		found, err := b.loadSession(ctx, session, &s)
		if err != nil {
			return nil, err
		}
		if found && !owns(by, &s) {
			return nil, errSessionNotFound(session)
		}
	}
	s, err := b.updateSession(ctx, session, string(toolgate.EventTurnEnded), by, false, func(s *toolgate.Session) string {
		s.Turn++
		s.Stopped = false
		return "turn ended"
	})
	if err != nil {
		return nil, err
	}
	b.grantsChanged()
	b.emit(toolgate.Event{Type: toolgate.EventTurnEnded, Time: b.now(), Session: s.ID, Workspace: s.Workspace})
	return s, nil
}

// EndSession ends a session for good: a subagent that completed or
// failed, a conversation closed, a session whose remembered approvals
// were to last only as long as it did (seed 004's memory storage). Its
// pending approvals are cancelled, its session and turn grants are
// revoked, and later calls in it are denied, as in an aborted session, so
// nothing it was given (grants, the agent layer its calls named) outlives
// it. Who may end a session: an approver or admin, and the agent
// credential that owns it.
func (b *Broker) EndSession(ctx context.Context, session string) (*toolgate.Session, error) {
	by := caller(ctx)
	if by.Agent {
		var err error
		if session, err = SessionFor(session, by); err != nil {
			return nil, err
		}
		var s toolgate.Session
		found, err := b.loadSession(ctx, session, &s)
		if err != nil {
			return nil, err
		}
		if found && !owns(by, &s) {
			return nil, errSessionNotFound(session)
		}
	}
	s, err := b.updateSession(ctx, session, string(toolgate.EventSessionEnded), by, false, func(s *toolgate.Session) string {
		s.Aborted = true
		return "ended"
	})
	if err != nil {
		return nil, err
	}
	b.emit(toolgate.Event{Type: toolgate.EventSessionEnded, Time: b.now(), Session: s.ID, Workspace: s.Workspace})
	err = b.resolveAll(ctx, store.ApprovalFilter{Status: toolgate.StatusPending, Session: s.ID}, toolgate.Resolution{
		Status: toolgate.StatusCancelled, Reason: "the session ended", By: by.Name, Via: by.Via,
	})
	grants, gerr := b.store.ListGrants(ctx, store.GrantFilter{Session: s.ID})
	if gerr != nil {
		return s, errors.Join(err, gerr)
	}
	errs := []error{err}
	for _, g := range grants {
		if g.Session != s.ID || g.Scope != toolgate.ScopeSession && g.Scope != toolgate.ScopeTurn {
			continue
		}
		if rerr := b.revokeGrant(ctx, g.ID, by); rerr != nil && toolgate.ErrorCodeOf(rerr) != toolgate.ENotFound {
			errs = append(errs, rerr)
		}
	}
	return s, errors.Join(errs...)
}
