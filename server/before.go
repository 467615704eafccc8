package server

import (
	"context"
	"net/http"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/internal/filebefore"
	"github.com/toolgate/toolgate/internal/redact"
)

// handleBefore returns the file a pending write or edit is about to
// change, as it is now, so the card can show old against new
// (internal/filebefore says what may be read). Approvers only: the
// content never goes into the approval itself, which the agent can read,
// nor into events and notifications. Every answer is audited (who, which
// approval and path, shown or withheld and why) before it is sent: when
// the entry cannot be written the request fails and nothing of the file
// is sent.
func (s *server) handleBefore(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	a, err := s.gate.Approval(r.Context(), id)
	if err != nil {
		return err
	}
	var b filebefore.Before
	switch p, ok := filebefore.PathArg(a.Call.Args); {
	case !ok:
		b.Note = "the call is not a file write or edit"
	case a.Status != toolgate.StatusPending:
		b.Path, b.Note = p, "the call is no longer pending: the file may have changed since"
	case s.deps.NoFileReads:
		b.Path, b.Note = p, "this gateway does not read the files calls name (it may run on another machine)"
	default:
		b = filebefore.Read(r.Context(), &a.Call, filebefore.Options{Home: s.deps.Home, Allowed: s.readAllowed(&a.Call)})
	}
	// The file may hold secrets of its own: shown and hashed masked,
	// like the call.
	b.Content = redact.Text(b.Content)
	read := approval.FileRead{Path: b.Path, Shown: b.Shown, Exists: b.Exists, Content: b.Content, Note: b.Note}
	if err := s.broker.RecordFileRead(r.Context(), a, read); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, b)
}

// readAllowed asks the rules of the call's workspace whether its agent
// may read a path (a Read call in no session: grants do not count). Only
// an allow with no risk lets the file be shown.
func (s *server) readAllowed(c *toolgate.Call) func(ctx context.Context, path string) (bool, string) {
	return func(ctx context.Context, path string) (bool, string) {
		d, err := s.broker.Evaluate(ctx, toolgate.Call{Workspace: c.Workspace, Agent: c.Agent, Tool: "Read",
			Args: map[string]any{"file_path": path}, Cwd: c.Cwd})
		switch {
		case err != nil:
			return false, "the rules could not be asked: " + toolgate.ErrorMessageOf(err)
		case d.Action != toolgate.Allow:
			return false, "reading it is " + d.Action.String() + ": " + d.Reason
		case len(d.Risks) > 0:
			return false, "reading it is risky: " + d.Risks[0].Reason
		}
		return true, ""
	}
}
