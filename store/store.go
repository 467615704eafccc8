package store

import (
	"context"
	"errors"
	"time"

	"github.com/toolgate/toolgate"
)

// ErrUnavailable is in the chain of a store error that says the store
// cannot take writes now (a full disk, an I/O error, a lost database): the
// error's code is EUnavailable, the API answers 503 and /healthz turns
// unhealthy until a write succeeds.
var ErrUnavailable = errors.New("store unavailable")

// Store keeps approvals, grants, sessions and the audit log. Every method
// is safe for concurrent use. A write is durable when the method returns:
// an answer is stored before it is acknowledged.
//
// Errors are *toolgate.Error with ENotFound for a missing record and
// EConflict for a guarded update that lost (an approval no longer
// pending); anything else is an internal error.
type Store interface {
	// CreateApproval stores a new pending approval. If an approval for the
	// same session and call id exists already, it is returned and nothing
	// is stored: a resubmitted call attaches to its approval.
	CreateApproval(ctx context.Context, a *toolgate.Approval, audit ...toolgate.AuditEntry) (existing *toolgate.Approval, err error)
	// GetApproval returns an approval by id.
	GetApproval(ctx context.Context, id string) (*toolgate.Approval, error)
	// GetApprovalByToken returns an approval by its resume token.
	GetApprovalByToken(ctx context.Context, token string) (*toolgate.Approval, error)
	// GetApprovalByCall returns the approval of a session's call.
	GetApprovalByCall(ctx context.Context, session, callID string) (*toolgate.Approval, error)
	// ListApprovals lists approvals, oldest first.
	ListApprovals(ctx context.Context, f ApprovalFilter) ([]*toolgate.Approval, error)
	// ResolveApproval ends a pending approval with res, and in the same
	// transaction adds grant (if not nil) and appends the audit entries.
	// It is a guarded update: if the approval is no longer pending it
	// changes nothing and returns an EConflict error, so exactly one
	// answer wins across every node sharing the store.
	ResolveApproval(ctx context.Context, id string, res toolgate.Resolution, grant *toolgate.Grant, audit ...toolgate.AuditEntry) error

	// AddGrant stores a grant with its audit entries.
	AddGrant(ctx context.Context, g *toolgate.Grant, audit ...toolgate.AuditEntry) error
	// RevokeGrant deletes a grant with its audit entries; ENotFound if none.
	RevokeGrant(ctx context.Context, id string, audit ...toolgate.AuditEntry) error
	// ListGrants lists grants, oldest first.
	ListGrants(ctx context.Context, f GrantFilter) ([]*toolgate.Grant, error)

	// GetSession returns a session; ENotFound if it was never stored.
	GetSession(ctx context.Context, id string) (*toolgate.Session, error)
	// PutSession creates or replaces a session with its audit entries.
	PutSession(ctx context.Context, s *toolgate.Session, audit ...toolgate.AuditEntry) error
	// ListSessions lists sessions, oldest first.
	ListSessions(ctx context.Context, f SessionFilter) ([]*toolgate.Session, error)

	// AppendAudit appends entries to the audit log. The store assigns Seq,
	// PrevHash and Hash; the caller fills the rest.
	AppendAudit(ctx context.Context, entries ...toolgate.AuditEntry) error
	// ListAudit lists audit entries in sequence order.
	ListAudit(ctx context.Context, f AuditFilter) ([]toolgate.AuditEntry, error)

	// Close releases the store.
	Close() error
}

// ApprovalFilter is toolgate.ApprovalFilter.
type ApprovalFilter = toolgate.ApprovalFilter

// GrantFilter is toolgate.GrantFilter.
type GrantFilter = toolgate.GrantFilter

// SessionFilter is toolgate.SessionFilter.
type SessionFilter = toolgate.SessionFilter

// AuditFilter is toolgate.AuditFilter.
type AuditFilter = toolgate.AuditFilter

// Rules keeps the workspace rules documents (DESIGN §5): files on a single
// node, rows when nodes share state.
type Rules interface {
	// Document returns a workspace's rules document, seeding it with the
	// default rules on first use, and a version that changes whenever the
	// document does (a file's modification, a row's revision).
	Document(ctx context.Context, workspace string) (src []byte, version string, err error)
	// PutDocument replaces a workspace's document. The caller validates it
	// first; the write is atomic.
	PutDocument(ctx context.Context, workspace string, src []byte) error
	// UpdateDocument applies edit to the current document atomically: the
	// "workspace" grant appends its rule this way, keeping comments.
	UpdateDocument(ctx context.Context, workspace string, edit func(src []byte) ([]byte, error)) error
}

// FeedRules is implemented by Rules kept in a shared store whose every
// change is an audit entry of kind "rules.changed" (with the workspace)
// on the store's Feed: what a node compiled from a document stays good
// until it applies that entry, so it need not read the document per call.
type FeedRules interface {
	Rules
	// ChangesOnFeed marks the implementation; it does nothing.
	ChangesOnFeed()
}

// Exister is implemented by Rules that can tell whether a workspace has a
// document without seeding one: the broker counts the workspaces an agent
// credential brings into being.
type Exister interface {
	// Exists reports whether the workspace's document exists.
	Exists(ctx context.Context, workspace string) (bool, error)
}

// SessionLocker is implemented by stores several nodes share: it
// serializes read-modify-writes of one session across nodes, so that a
// mode change on one node and a hard deny's stop flag on another cannot
// overwrite each other.
type SessionLocker interface {
	// LockSession blocks until it holds the session's lock; unlock
	// releases it.
	LockSession(ctx context.Context, id string) (unlock func(), err error)
}

// authorKey carries who makes a change through the context, for stores
// that record it themselves (a rules document written in a shared store).
type authorKey struct{}

// WithAuthor returns ctx carrying the name and channel of whoever makes
// the writes done with it: a store that appends its own audit entry for a
// write (store/postgres's rules documents) records them as the author.
func WithAuthor(ctx context.Context, who, via string) context.Context {
	return context.WithValue(ctx, authorKey{}, [2]string{who, via})
}

// AuthorFrom returns the author WithAuthor put in ctx ("" if none).
func AuthorFrom(ctx context.Context) (who, via string) {
	a, _ := ctx.Value(authorKey{}).([2]string)
	return a[0], a[1]
}

// Versioner is implemented by Rules that can tell a document's version
// without reading it (a file's stat). Callers that cache what they build
// from a document (the compiled engine) check it on every use and call
// Document only when it moved.
type Versioner interface {
	// Version returns the current version of a workspace's document: it
	// changes whenever the document does. It is not comparable with the
	// version Document returns. It is "" when the version cannot be told
	// cheaply: the document does not exist yet (Document seeds it), or it
	// changed so recently that a further change might not show (a file
	// system's timestamp granularity); the caller then calls Document.
	Version(ctx context.Context, workspace string) (string, error)
}

// Feed is implemented by stores that several nodes share (PostgreSQL):
// the audit log is the change feed. A node applies entries in sequence
// order (ListAudit with AfterSeq) to wake its waiters, drop its caches and
// publish events. So that no cache older than the database decides a
// call, a dry run checks Head first (unless the node's lease is current,
// Leaser), and a recorded decision is appended
// only if its caches are still current (GuardedAppender), or after a Head
// check when the store has no guarded append.
type Feed interface {
	// Head returns the sequence numbers of the latest audit entry and of
	// the latest that caches depend on (ChangesCaches); 0 if none.
	Head(ctx context.Context) (FeedHead, error)
	// Changes returns a channel that receives a value whenever entries may
	// have been appended by any node, or may have been missed (the
	// notification connection was lost and is back). Values are
	// coalesced; the reader catches up by sequence.
	Changes() <-chan struct{}
}

// GuardedAppender is implemented by a shared store (a Feed) that can
// record a decision made on caches only if they are still current when it
// commits: no entry that caches depend on (ChangesCaches) was appended
// after the last one the deciding node had applied. The check and the
// append are one transaction, serialized with every other append, so a
// change made on another node is either applied before the decision or
// ordered after it in the log; never a stale allow recorded after it.
type GuardedAppender interface {
	// AppendAuditIfCurrent appends entries as AppendAudit does if the
	// feed's ChangeSeq is at most applied when they are appended, and
	// reports true; otherwise it appends nothing and reports false.
	AppendAuditIfCurrent(ctx context.Context, applied int64, entries ...toolgate.AuditEntry) (bool, error)
}

// Leaser is implemented by a shared store (a Feed) whose writers wait
// for the nodes that hold a lease, so that a node may decide a dry run on
// its caches without reading Head. A node holds a lease (renewed in the
// database while its notification connection is up) and reports the feed
// entries it has applied; every write of an entry that caches depend on
// (ChangesCaches) returns to its caller only once every node with a live
// lease has applied it, or that node's lease has lapsed. So a node whose
// lease is valid, by its own clock with a margin, holds every change whose
// write has returned.
type Leaser interface {
	// StartLease registers this node and renews its lease until stop is
	// called (which gives it up at once).
	StartLease(ctx context.Context) (stop func(), err error)
	// Applied reports that this node's caches hold every entry up to seq.
	Applied(seq int64)
	// Current reports whether caches that hold every entry up to applied
	// hold every change whose write has returned: the lease is valid by
	// the local clock, the notification connection is up and no change
	// announced or seen at the last renewal is beyond applied. When it is
	// false the caller reads Head.
	Current(applied int64) bool
}

// FeedHead is where the change feed stands.
type FeedHead struct {
	// Seq is the sequence number of the latest audit entry.
	Seq int64
	// ChangeSeq is that of the latest entry caches depend on.
	ChangeSeq int64
}

// ChangesCaches reports whether an audit entry of this kind records a
// change that a node's caches depend on (a grant, a session's mode, turn
// or stop flag, a rules document, the credential list: a revoked token
// must fail on every node once the revocation returns). Decisions, the
// creation and resolution of approvals, call conflicts and approvers'
// reads of the files calls change do not: approvals are always read from
// the store, and those entries record what happened without changing
// what decides. Unknown kinds count as changes.
func ChangesCaches(kind string) bool {
	switch kind {
	case "decision", "approval.requested", "approval.resolved", "call.conflict", "approval.file_read":
		return false
	}
	return true
}

// Counter is implemented by stores that count what an agent credential
// holds, so that its quotas (DESIGN §9) hold across every node sharing
// the store, not per process.
type Counter interface {
	// CountPending returns how many approvals are pending in the
	// sessions owner opened.
	CountPending(ctx context.Context, owner string) (int, error)
	// CountSessions returns how many sessions owner opened at or after
	// since.
	CountSessions(ctx context.Context, owner string, since time.Time) (int, error)
	// ClaimWorkspace records workspace as created by owner, unless some
	// credential created it before, when owner has created fewer than
	// limit workspaces. It reports whether owner may use workspace, and
	// how many workspaces owner has created. Concurrent claims by one
	// owner are serialised, on every node, so the limit is exact.
	ClaimWorkspace(ctx context.Context, owner, workspace string, limit int) (ok bool, created int, err error)
}
