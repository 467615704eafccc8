package approval

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
)

// Defaults of the limits that keep an agent from growing the gateway
// without bound (DESIGN §9).
const (
	// DefaultWorkspacesPerCredential is how many new workspaces (each a
	// rules document on disk and a compiled engine) one agent credential
	// may bring into being.
	DefaultWorkspacesPerCredential = 32
	// DefaultMaxPendingPerSession is how many approvals one session may
	// hold pending at once.
	DefaultMaxPendingPerSession = 100
	// DefaultMaxPendingPerCredential is how many approvals the sessions
	// of one agent credential may hold pending at once, together: what
	// one agent can put in every approver's inbox.
	DefaultMaxPendingPerCredential = 200
	// DefaultSessionsPerCredential is how many new sessions one agent
	// credential may open in SessionWindow.
	DefaultSessionsPerCredential = 500
	// SessionWindow is the window DefaultSessionsPerCredential counts in.
	SessionWindow = time.Hour
)

// WithCredentialQuotas bounds what one agent credential holds, counted in
// the store (store.Counter) so the bounds hold across every node sharing
// it: pendingPerCredential approvals pending at once in all its sessions
// (DefaultMaxPendingPerCredential) and sessionsPerHour new sessions in
// SessionWindow (DefaultSessionsPerCredential). Zero keeps a default,
// negative removes the bound. Past either, a call is ERateLimited (429).
// Approvers, admins and in-process hosts are not bounded.
func WithCredentialQuotas(pendingPerCredential, sessionsPerHour int) Option {
	return func(b *Broker) {
		if pendingPerCredential != 0 {
			b.maxPendingPerCred = pendingPerCredential
		}
		if sessionsPerHour != 0 {
			b.sessionsPerCred = sessionsPerHour
		}
	}
}

// WithWorkspaceLimits bounds the workspaces agent credentials may use.
// With allowed set, they may use only those (any other is 403); otherwise
// each may create at most perCredential new ones (0 keeps
// DefaultWorkspacesPerCredential, negative removes the limit).
// Approvers, admins and in-process hosts are not limited.
func WithWorkspaceLimits(allowed []string, perCredential int) Option {
	return func(b *Broker) {
		b.wsAllowed = slices.Clone(allowed)
		if perCredential != 0 {
			b.wsPerCredential = perCredential
		}
	}
}

// WithMaxPending bounds the approvals one session may hold pending
// (DefaultMaxPendingPerSession; negative removes the limit).
func WithMaxPending(n int) Option {
	return func(b *Broker) {
		if n != 0 {
			b.maxPending = n
		}
	}
}

// workspaceExister is the part of Policies that tells a new workspace
// from an existing one (Workspaces implements it).
type workspaceExister interface {
	WorkspaceExists(ctx context.Context, workspace string) (bool, error)
}

// admitWorkspace checks that by may use workspace: a configured list, or
// a cap on the new workspaces each agent credential creates, counted in
// the store (store.Counter) so that it holds on every node and across
// restarts. A claim that cannot be checked is refused: a quota that
// cannot be counted is never a pass.
func (b *Broker) admitWorkspace(ctx context.Context, workspace string, by toolgate.Actor) error {
	if !by.Agent {
		return nil
	}
	if len(b.wsAllowed) > 0 {
		if !slices.Contains(b.wsAllowed, workspace) {
			return toolgate.Errorf(toolgate.EForbidden, "workspace %q is not one agents may use here (the gateway's configured workspaces: %v)", workspace, b.wsAllowed)
		}
		return nil
	}
	if b.wsPerCredential < 0 {
		return nil
	}
	key := by.Name + "\x00" + workspace
	if _, known := b.wsAdmitted.Load(key); known {
		return nil
	}
	if ex, ok := b.policies.(workspaceExister); ok {
		exists, err := ex.WorkspaceExists(ctx, workspace)
		if err != nil {
			return toolgate.Errorf(toolgate.EUnavailable, "workspace %s: %v", workspace, err)
		}
		if exists {
			return nil
		}
	}
	c, ok := b.store.(store.Counter)
	if !ok {
		return toolgate.Errorf(toolgate.EUnavailable, "workspace %s: the store cannot count the workspaces agent credential %s created", workspace, by.Name)
	}
	admitted, n, err := c.ClaimWorkspace(ctx, by.Name, workspace, b.wsPerCredential)
	if err != nil {
		return err
	}
	if !admitted {
		return toolgate.Errorf(toolgate.EForbidden, "agent credential %s has created %d workspaces, its limit; use an existing workspace or ask an admin to create %q", by.Name, n, workspace)
	}
	b.wsAdmitted.Store(key, struct{}{})
	return nil
}

// MaxBatch bounds a model turn's batch: the calls still to come that an
// approver is shown, and a call's place in its batch.
const MaxBatch = 256

// checkBatch checks a call's place in its batch and the calls said to
// remain.
func checkBatch(c *toolgate.Call, remaining []toolgate.Call) error {
	if len(remaining) > MaxBatch {
		return toolgate.Errorf(toolgate.ETooLarge, "batch_remaining has %d calls; at most %d", len(remaining), MaxBatch)
	}
	if bt := c.Batch; bt != nil {
		if bt.Total > MaxBatch+1 {
			return toolgate.Errorf(toolgate.ETooLarge, "batch total %d; at most %d", bt.Total, MaxBatch+1)
		}
		if bt.Index < 0 || bt.Total < 0 || bt.Total > 0 && bt.Index >= bt.Total {
			return toolgate.Errorf(toolgate.EInvalid, "batch index %d does not fit a batch of %d", bt.Index, bt.Total)
		}
	}
	return nil
}

// roomToAsk refuses a new approval for a session that holds the most
// pending approvals it may (in this process) with ERateLimited: the
// agent waits for answers or cancels some.
func (b *Broker) roomToAsk(session string) error {
	if b.maxPending < 0 {
		return nil
	}
	b.mu.Lock()
	n := b.pending[session]
	b.mu.Unlock()
	if n >= b.maxPending {
		return toolgate.Errorf(toolgate.ERateLimited, "session %s has %d approvals pending, its limit; wait for answers or cancel some", session, n)
	}
	return nil
}

// credentialRoom refuses a new approval for an agent credential whose
// sessions hold the most pending approvals it may, counted in the store
// on every node. A count that fails is refused too: a quota that cannot
// be checked is never a pass.
func (b *Broker) credentialRoom(ctx context.Context, by toolgate.Actor) error {
	if !by.Agent || b.maxPendingPerCred < 0 {
		return nil
	}
	c, ok := b.store.(store.Counter)
	if !ok {
		return nil
	}
	n, err := c.CountPending(ctx, by.Name)
	if err != nil {
		return err
	}
	if n >= b.maxPendingPerCred {
		return toolgate.Errorf(toolgate.ERateLimited, "agent credential %s has %d approvals pending, its limit; wait for answers or cancel some", by.Name, n)
	}
	return nil
}

// lockCredential serialises an agent credential's pending-quota check
// with the insert it guards, on this node, and returns the unlock. Other
// actors, and credentials without a quota, are not locked.
func (b *Broker) lockCredential(by toolgate.Actor) (unlock func()) {
	if !by.Agent || b.maxPendingPerCred < 0 {
		return func() {}
	}
	m, _ := b.credLocks.LoadOrStore(by.Name, new(sync.Mutex))
	mu := m.(*sync.Mutex)
	mu.Lock()
	return mu.Unlock
}

// sessionRoom refuses a new session to an agent credential that opened
// the most it may in the last SessionWindow, counted in the store.
func (b *Broker) sessionRoom(ctx context.Context, by toolgate.Actor) error {
	if !by.Agent || b.sessionsPerCred < 0 {
		return nil
	}
	c, ok := b.store.(store.Counter)
	if !ok {
		return nil
	}
	n, err := c.CountSessions(ctx, by.Name, b.now().Add(-SessionWindow))
	if err != nil {
		return err
	}
	if n >= b.sessionsPerCred {
		return toolgate.Errorf(toolgate.ERateLimited, "agent credential %s opened %d sessions in the last %s, its limit; use an existing session", by.Name, n, SessionWindow)
	}
	return nil
}
