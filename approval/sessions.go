package approval

import (
	"context"

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
func (b *Broker) updateSession(ctx context.Context, id, kind string, by Actor, create bool, change func(*toolgate.Session) string) (*toolgate.Session, error) {
	if id == "" {
		return nil, toolgate.Errorf(toolgate.EInvalid, "no session id")
	}
	// Read-modify-write: start from the store's latest state, not a
	// cache another node's write made stale.
	if err := b.fresh(ctx); err != nil {
		return nil, err
	}
	b.sessions.wmu.Lock()
	defer b.sessions.wmu.Unlock()
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

// SetMode changes a session's mode. It applies to calls decided after it;
// pending approvals are not re-decided.
func (b *Broker) SetMode(ctx context.Context, session string, m toolgate.Mode, by Actor) (*toolgate.Session, error) {
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

// Abort ends a session: its pending approvals are cancelled and later
// calls are denied.
func (b *Broker) Abort(ctx context.Context, session string, by Actor) (*toolgate.Session, error) {
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
// host disconnected.
func (b *Broker) CancelWorkspace(ctx context.Context, workspace string, by Actor) error {
	return b.resolveAll(ctx, store.ApprovalFilter{Status: toolgate.StatusPending, Workspace: workspace}, toolgate.Resolution{
		Status: toolgate.StatusCancelled, Reason: "the workspace disconnected", By: by.Name, Via: by.Via,
	})
}

// EndTurn ends the session's current turn: the user spoke again. Turn
// grants lapse and the stop flag of a hard deny clears. Who may end a
// turn: an approver or admin (a human), and the agent credential that owns
// the session, which is how the Claude Code hook's UserPromptSubmit event
// reports the user's new message; another agent credential is told the
// session does not exist.
func (b *Broker) EndTurn(ctx context.Context, session string, by Actor) (*toolgate.Session, error) {
	if by.Agent {
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
