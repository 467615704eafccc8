package approval

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/digest"
	"github.com/toolgate/toolgate/internal/redact"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/store"
)

// DefaultWorkspace and DefaultSession name the workspace and session of a
// call that names none. An agent credential's call that names no session
// (or names DefaultSession) is in that credential's own default session
// instead (SessionFor), so that no agent can take the shared one.
const (
	DefaultWorkspace = "default"
	DefaultSession   = "default"
)

// defaultSessionPrefix starts the id of an agent credential's default
// session: "default:" and the credential's name. No other credential may
// name such a session, so none can take another's before its first call.
const defaultSessionPrefix = DefaultSession + ":"

// SessionFor returns the session a caller means by id. An agent
// credential that names no session, or DefaultSession, means its own
// default session ("default:NAME"); an agent that names another
// credential's default session is told it does not exist (ENotFound).
// Anyone else means id as given, DefaultSession when it is empty.
func SessionFor(id string, by toolgate.Actor) (string, error) {
	if !by.Agent {
		if id == "" {
			return DefaultSession, nil
		}
		return id, nil
	}
	own := defaultSessionPrefix + by.Name
	switch {
	case id == "" || id == DefaultSession:
		return own, nil
	case strings.HasPrefix(id, defaultSessionPrefix) && id != own:
		return "", errSessionNotFound(id)
	}
	return id, nil
}

// gate is the Actor the broker records for what it decides by itself.
var gate = toolgate.Actor{Name: "toolgate", Via: "rules"}

// Broker holds pending approvals and answers them. It is safe for
// concurrent use.
type Broker struct {
	store    store.Store
	policies Policies
	now      func() time.Time
	ttl      time.Duration
	maxTTL   time.Duration
	sweep    time.Duration
	log      *slog.Logger

	hub      *hub
	feed     *feed                 // nil unless the store is shared by several nodes
	guard    store.GuardedAppender // the shared store's guarded append, if any
	applied  func(*toolgate.AuditEntry)
	sessions sessionCache
	grants   layerCache

	wsAllowed       []string
	wsPerCredential int
	wsAdmitted      sync.Map // "credential\x00workspace" → struct{}: claims the store granted, never revoked
	maxPending      int
	// maxPendingPerCred and sessionsPerCred are the agent credentials'
	// quotas (WithCredentialQuotas).
	maxPendingPerCred int
	sessionsPerCred   int
	credLocks         sync.Map // agent credential name → *sync.Mutex (lockCredential)

	mu       sync.Mutex
	waiters  map[string]*waiter
	expiries expiries       // the waiters, first to expire first
	timer    *time.Timer    // expires the first of them (nil until one is tracked)
	pending  map[string]int // session → approvals pending in this process
	// storing counts, per session, the approvals Submit is storing and
	// has not tracked yet: with pending, an upper bound on the session's
	// pending approvals in a store this broker alone writes (see alone).
	storing map[string]int
	// answered holds the approvals resolved untracked while a Submit of
	// their session was storing: one answered between its insert and its
	// tracking must not be tracked after (its waiter would sleep until
	// expiry, and it would count as pending). An entry goes when Submit
	// meets it, all of them when nothing is being stored.
	answered map[string]struct{}
	// holders counts, per session and call id, the RequestApproval calls
	// waiting on its approval in this process: the approval is cancelled
	// when the last of them goes away, not the first (two requests may
	// wait on one call id).
	holders map[string]int
	closed  bool
	reapers sync.WaitGroup
	stop    chan struct{}
}

// Option configures a Broker.
type Option func(*Broker)

// WithClock injects the clock; tests drive expiry with it and ReapNow.
func WithClock(now func() time.Time) Option { return func(b *Broker) { b.now = now } }

// WithTTL sets how long approvals wait by default (5 minutes).
func WithTTL(d time.Duration) Option { return func(b *Broker) { b.ttl = d } }

// WithMaxTTL bounds the TTL a request may ask for (default 24 hours).
func WithMaxTTL(d time.Duration) Option { return func(b *Broker) { b.maxTTL = d } }

// WithSweepInterval sets the backstop sweep interval of SpawnReaper's
// default (30 seconds).
func WithSweepInterval(d time.Duration) Option { return func(b *Broker) { b.sweep = d } }

// WithApplied sets a function called with each entry of a shared store's
// change feed after the broker applied it: how the rest of a node hears
// of changes the broker does not keep (credentials).
func WithApplied(f func(*toolgate.AuditEntry)) Option { return func(b *Broker) { b.applied = f } }

// WithLogger sets the logger.
func WithLogger(l *slog.Logger) Option { return func(b *Broker) { b.log = l } }

// New returns a broker over st and pol. It re-arms every approval the
// store holds as pending, so a restart loses none; those already past
// their expiry are expired at once.
func New(ctx context.Context, st store.Store, pol Policies, opts ...Option) (*Broker, error) {
	b := &Broker{
		store: st, policies: pol,
		now: time.Now, ttl: toolgate.DefaultTTL, maxTTL: 24 * time.Hour, sweep: toolgate.DefaultSweepInterval,
		log:      slog.New(slog.DiscardHandler),
		waiters:  map[string]*waiter{},
		pending:  map[string]int{},
		storing:  map[string]int{},
		answered: map[string]struct{}{},
		holders:  map[string]int{},

		wsPerCredential: DefaultWorkspacesPerCredential,
		maxPending:      DefaultMaxPendingPerSession,

		maxPendingPerCred: DefaultMaxPendingPerCredential,
		sessionsPerCred:   DefaultSessionsPerCredential,
		sessions:          sessionCache{m: map[string]sessionEntry{}, max: DefaultSessionCacheSize},
		grants:            newLayerCache(),
		stop:              make(chan struct{}),
	}
	for _, o := range opts {
		o(b)
	}
	if ev, ok := pol.(interface{ OnEvict(func(string)) }); ok {
		// Cached grant layers hold the engine they were compiled by: drop
		// them, so an evicted engine is freed.
		ev.OnEvict(func(string) { b.grantsChanged() })
	}
	feedSeq, err := b.startFeed(ctx, st)
	if err != nil {
		return nil, fmt.Errorf("read the change feed: %w", err)
	}
	pending, err := st.ListApprovals(ctx, store.ApprovalFilter{Status: toolgate.StatusPending})
	if err != nil {
		return nil, fmt.Errorf("load pending approvals: %w", err)
	}
	// Sequence numbers start from the clock so they keep increasing across
	// restarts and a resuming subscriber never mistakes new events for old.
	// On a shared store they are the audit log's, the same on every node.
	startSeq := b.now().UnixMicro()
	if b.feed != nil {
		startSeq = feedSeq
	}
	b.hub = newHub(startSeq, pending, st)
	for _, a := range pending {
		b.track(a)
	}
	if _, err := b.ReapNow(ctx); err != nil {
		return nil, err
	}
	b.runFeed()
	return b, nil
}

// Close stops the reapers and timers and ends every subscription. Pending
// approvals stay pending in the store.
func (b *Broker) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	close(b.stop)
	if b.timer != nil {
		b.timer.Stop()
	}
	b.mu.Unlock()
	if b.feed != nil && b.feed.stopLease != nil {
		// Writers stop waiting for this node.
		b.feed.stopLease()
	}
	b.reapers.Wait()
	b.hub.closeAll()
	return nil
}

// newID returns a random, unguessable id with a prefix.
func newID(prefix string) string {
	var buf [16]byte
	if _, err := rand.Read(buf[:]); err != nil {
		panic(fmt.Sprintf("crypto/rand failed: %v", err)) // never happens on supported platforms
	}
	return prefix + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(buf[:]))
}

// normalize fills a call's defaults and checks what every call needs. A
// dry run needs no call id; Submit gives a call without one a random id.
// A call that names no session is in by's default session (SessionFor).
func normalize(c *toolgate.Call, needID bool, by toolgate.Actor) error {
	if strings.TrimSpace(c.Tool) == "" {
		return toolgate.Errorf(toolgate.EInvalid, "call has no tool")
	}
	if c.Workspace == "" {
		c.Workspace = DefaultWorkspace
	}
	if err := toolgate.ValidWorkspaceID(c.Workspace); err != nil {
		return err
	}
	sess, err := SessionFor(c.Session, by)
	if err != nil {
		return err
	}
	c.Session = sess
	if o, ok := toolgate.MCPOrigin(c.Tool); ok {
		c.Origin = o // every approver surface shows where the tool comes from
	}
	if needID && c.ID == "" {
		c.ID = newID("call_")
	}
	return nil
}

// session returns the call's session, creating it on first use with the
// workspace's mode.
func (b *Broker) session(ctx context.Context, c *toolgate.Call, e *policy.Engine, by toolgate.Actor) (*toolgate.Session, error) {
	s, err := b.getSession(ctx, c.Session)
	unowned := err == nil && by.Agent && s.Owner == ""
	if err == nil && s.Workspace != "" && !unowned || err != nil && toolgate.ErrorCodeOf(err) != toolgate.ENotFound {
		return b.boundSession(s, c, err, by)
	}
	// A write: read again under the write lock, so that two first calls
	// (or a first call and a mode change) do not overwrite each other.
	unlock, err := b.lockSession(ctx, c.Session)
	if err != nil {
		return nil, err
	}
	defer unlock()
	s, err = b.getSession(ctx, c.Session)
	if err == nil && (s.Workspace == "" || by.Agent && s.Owner == "") {
		// Created by a mode change or an abort before its first call (or
		// stored before sessions had owners): the first call binds it to
		// its workspace and its agent credential.
		if s.Workspace == "" {
			s.Workspace = c.Workspace
		}
		if by.Agent && s.Owner == "" {
			s.Owner = by.Name
		}
		s.UpdatedAt = b.now()
		if err := b.putSession(ctx, s); err != nil {
			return nil, err
		}
	}
	if err == nil || toolgate.ErrorCodeOf(err) != toolgate.ENotFound {
		return b.boundSession(s, c, err, by)
	}
	now := b.now()
	mode := toolgate.ModeDefault
	if e != nil {
		mode = e.Mode()
	}
	s = &toolgate.Session{ID: c.Session, Workspace: c.Workspace, Mode: mode, CreatedAt: now, UpdatedAt: now}
	if by.Agent {
		if err := b.sessionRoom(ctx, by); err != nil {
			return nil, err
		}
		s.Owner = by.Name
	}
	if err := b.putSession(ctx, s); err != nil {
		return nil, err
	}
	return s, nil
}

// boundSession checks that a session read for a call belongs to the
// call's workspace and to the submitting credential.
func (b *Broker) boundSession(s *toolgate.Session, c *toolgate.Call, err error, by toolgate.Actor) (*toolgate.Session, error) {
	if err == nil {
		if !owns(by, s) {
			return nil, errSessionNotFound(s.ID)
		}
		if s.Workspace != c.Workspace {
			return nil, toolgate.Errorf(toolgate.EInvalid, "session %s belongs to workspace %s, not %s", s.ID, s.Workspace, c.Workspace)
		}
		return s, nil
	}
	return nil, err
}

// errSessionNotFound is what an agent credential is told of a session
// another credential owns: the same as of one that does not exist.
func errSessionNotFound(id string) error {
	return toolgate.Errorf(toolgate.ENotFound, "session %s not found", id)
}

// Evaluate decides a call as Submit would, with the session's mode,
// grants and stop flag, but holds nothing and records nothing: the dry
// run. It reads nothing from the store while the rules, session and
// grants are cached.
func (b *Broker) Evaluate(ctx context.Context, c toolgate.Call) (toolgate.Decision, error) {
	return b.evaluateAs(ctx, c, toolgate.Actor{})
}

// evaluateAs is Evaluate for a caller: an agent credential cannot
// evaluate in a session another credential owns.
func (b *Broker) evaluateAs(ctx context.Context, c toolgate.Call, by toolgate.Actor) (toolgate.Decision, error) {
	if err := normalize(&c, false, by); err != nil {
		return toolgate.Decision{}, err
	}
	if err := b.admitWorkspace(ctx, c.Workspace, by); err != nil {
		return toolgate.Decision{}, err
	}
	if err := b.freshDry(ctx); err != nil {
		return failClosed("shared state unavailable: " + err.Error()), nil
	}
	e, err := b.policies.Engine(ctx, c.Workspace)
	if err != nil {
		return failClosed("rules unavailable: " + err.Error()), nil
	}
	var s toolgate.Session
	found, err := b.loadSession(ctx, c.Session, &s)
	if err != nil {
		return failClosed("session state unavailable: " + err.Error()), nil
	}
	if !found {
		s = toolgate.Session{ID: c.Session, Workspace: c.Workspace, Mode: e.Mode()}
	} else if !owns(by, &s) {
		return toolgate.Decision{}, errSessionNotFound(s.ID)
	}
	var d toolgate.Decision
	if !sessionHalts(&s, &d) {
		b.decide(ctx, e, &c, &s, &d)
	}
	_, secrets := redact.Call(&c)
	secrets.Decision(&d)
	return d, nil
}

// sessionHalts writes the decision of a session that takes no calls (it
// was aborted, or a hard deny stopped its turn) and reports whether it
// did: every decision path checks it, the dry run too.
func sessionHalts(s *toolgate.Session, d *toolgate.Decision) bool {
	switch {
	case s.Aborted:
		*d = toolgate.Decision{Action: toolgate.Deny, Reason: "the session was aborted"}
	case s.Stopped:
		*d = toolgate.Decision{Action: toolgate.Deny, Reason: "the user stopped this turn with a hard deny; wait for the user's next message"}
	default:
		return false
	}
	d.Tier, d.Mode = toolgate.TierExec, s.Mode
	d.Subjects, d.Risks, d.Suggestions = []toolgate.SubjectResult{}, []toolgate.Risk{}, []toolgate.Suggestion{}
	return true
}

// failClosed is the decision when the gate cannot decide: ask, never allow
// (DESIGN §2 step 7).
func failClosed(reason string) toolgate.Decision {
	return toolgate.Decision{Action: toolgate.Ask, Reason: reason, Tier: toolgate.TierExec,
		Subjects: []toolgate.SubjectResult{}, Risks: []toolgate.Risk{}, Suggestions: []toolgate.Suggestion{}}
}

// decide runs the engine with the session's mode and grant layers.
func (b *Broker) decide(ctx context.Context, e *policy.Engine, c *toolgate.Call, s *toolgate.Session, d *toolgate.Decision) {
	layers, err := b.grantLayers(ctx, e, s)
	if err != nil {
		*d = failClosed("grants unavailable: " + err.Error())
		return
	}
	e.Decide(c, policy.Env{Mode: s.Mode, Grants: layers}, d)
}

// Submit decides a call. Allow and deny are final and recorded; ask holds
// the call as a pending approval (or attaches to the one an earlier
// submission of the same call id created) and returns at once: Wait for
// its outcome.
func (b *Broker) Submit(ctx context.Context, req toolgate.SubmitRequest) (*toolgate.Result, error) {
	c := req.Call
	if err := normalize(&c, true, req.By); err != nil {
		return nil, err
	}
	if err := checkBatch(&c, req.BatchRemaining); err != nil {
		return nil, err
	}
	if len(req.Confirm) > MaxConfirm {
		return nil, toolgate.Errorf(toolgate.ETooLarge, "confirm is %d bytes, more than %d", len(req.Confirm), MaxConfirm)
	}
	// The reason is the submitter's text: its secrets are masked like
	// the call's.
	req.Confirm = redact.Text(req.Confirm)
	if err := b.admitWorkspace(ctx, c.Workspace, req.By); err != nil {
		return nil, err
	}
	sum := digest.Call(&c)
	if req.By.Agent {
		// Another credential's session is not there for this one: checked
		// before a resubmitted call could attach to its approval.
		var s toolgate.Session
		found, err := b.loadSession(ctx, c.Session, &s)
		if err != nil {
			return nil, err
		}
		if found && !owns(req.By, &s) {
			return nil, errSessionNotFound(c.Session)
		}
	}
	if a, err := b.store.GetApprovalByCall(ctx, c.Session, c.ID); err == nil {
		if err := b.sameCall(ctx, a, &c, sum); err != nil {
			return nil, err
		}
		return &toolgate.Result{Decision: a.Decision, Approval: a}, nil
	} else if toolgate.ErrorCodeOf(err) != toolgate.ENotFound {
		return nil, err
	}
	// The call's secrets are masked in everything recorded or shown from
	// here on; the gate decides, and sum binds, the exact arguments.
	shown, secrets := redact.Call(&c)
	d, err := b.decideRecorded(ctx, &c, &shown, secrets, sum, req)
	if err != nil {
		return nil, err
	}
	if d.Action != toolgate.Ask || req.NoHold || runsConfined(req, &d) {
		return &toolgate.Result{Decision: d}, nil // recorded
	}
	if err := b.roomToAsk(c.Session); err != nil {
		return nil, err
	}
	// The count and the insert are one step per credential on this node,
	// so concurrent asks cannot all pass a count taken before any of them
	// is stored. Across nodes a few may still overshoot (docs/security.md).
	unlock := b.lockCredential(req.By)
	if err := b.credentialRoom(ctx, req.By); err != nil {
		unlock()
		return nil, err
	}
	ttl := b.ttl
	if req.TTL > 0 {
		ttl = min(req.TTL, b.maxTTL)
	}
	now := b.now()
	a := &toolgate.Approval{
		ID: newID("ap_"), ResumeToken: newID("rt_"),
		Call: shown, Digest: sum, Decision: d, Status: toolgate.StatusPending,
		CreatedAt: now, ExpiresAt: now.Add(ttl), BatchRemaining: redactedCalls(req.BatchRemaining),
	}
	entry := b.auditEntry(string(toolgate.EventApprovalRequested), &shown, a.ID, "ask", gate, d.Reason, decisionData(&shown, sum, &d))
	b.beginStoring(c.Session)
	existing, err := b.store.CreateApproval(ctx, a, entry)
	unlock()
	stored := a
	if err != nil || existing != nil {
		stored = nil
	}
	b.endStoring(c.Session, stored)
	if err != nil {
		return nil, err
	}
	if existing != nil {
		// Another submission of the id won the race to store it.
		if err := b.sameCall(ctx, existing, &c, sum); err != nil {
			return nil, err
		}
		return &toolgate.Result{Decision: existing.Decision, Approval: existing}, nil
	}
	b.publish(toolgate.EventApprovalRequested, b.announced(ctx, a), nil)
	if halted, err := b.haltedSince(ctx, a); err != nil || halted != nil {
		return &toolgate.Result{Decision: d, Approval: halted}, err
	}
	return &toolgate.Result{Decision: d, Approval: a}, nil
}

// haltedSince ends an approval Submit just stored if its session was
// stopped (a hard deny) or aborted after the call was decided: the stop
// resolves the approvals pending when it lists them, and one stored after
// that list would be left waiting for an answer nobody will give. The
// stop writes the session before it lists: on a store this broker alone
// writes, its cache is written before the list too; on a shared one the
// session is read from the store. It returns the approval as resolved,
// or nil if the session goes on.
func (b *Broker) haltedSince(ctx context.Context, a *toolgate.Approval) (*toolgate.Approval, error) {
	var s toolgate.Session
	found, err := b.loadSession(ctx, a.Call.Session, &s)
	if b.feed != nil {
		var stored *toolgate.Session
		stored, err = b.store.GetSession(ctx, a.Call.Session)
		if found = err == nil; found {
			s = *stored
		} else if toolgate.ErrorCodeOf(err) == toolgate.ENotFound {
			err = nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("read session %s: %w", a.Call.Session, err)
	}
	if !found {
		return nil, nil
	}
	res := toolgate.Resolution{Status: toolgate.StatusDenied, DenyMode: toolgate.DenyHard, By: gate.Name, Via: gate.Via}
	switch {
	case s.Aborted:
		res.Status, res.DenyMode, res.Reason = toolgate.StatusCancelled, "", "the session was aborted"
	case s.Stopped:
		res.Reason = "an earlier call was denied and the user stopped this turn"
	default:
		return nil, nil
	}
	resolved, err := b.Resolve(ctx, a.ID, res)
	if toolgate.ErrorCodeOf(err) == toolgate.EConflict {
		return b.store.GetApproval(ctx, a.ID) // resolved by the stop itself
	}
	return resolved, err
}

// maxStale bounds how often one Submit decides again because another
// node changed what it depends on between its decision and its record;
// past it the call fails (never allows) and the agent may retry.
const maxStale = 16

// decideRecorded decides a call and records the decision unless it is an
// ask to hold (the caller creates the approval).
//
// On a shared store, the caches decide first and the record checks them:
// the decision is appended only if no change that caches depend on was
// appended since the last entry this node had applied when it decided
// (store.GuardedAppender, one transaction with the append); otherwise the
// node applies the feed and decides again. So an allow is checked against
// the database as of its commit, and the head need not be read before
// every decision. An ask to hold, which a person will see, is checked the
// same way with a read of the feed's head before it is created.
//
// c is the call as submitted, shown the call with its secrets masked
// (secrets, nil when there are none, masks the decision): the decision
// is made about c and recorded about shown.
func (b *Broker) decideRecorded(ctx context.Context, c, shown *toolgate.Call, secrets *redact.Secrets, sum string, req toolgate.SubmitRequest) (toolgate.Decision, error) {
	optimistic := b.feed != nil && b.guard != nil
	if b.feed != nil && !optimistic {
		// Another node may have changed grants, modes, stop flags or
		// rules: the caches must be as new as the store before they decide.
		if err := b.fresh(ctx); err != nil {
			return toolgate.Decision{}, err
		}
	}
	for attempt := 0; ; attempt++ {
		var seen int64
		if b.feed != nil {
			// Before any cache is read: the caches hold at least every
			// change up to seen.
			seen = b.feed.applied.Load()
		}
		e, engineErr := b.policies.Engine(ctx, c.Workspace)
		s, err := b.session(ctx, c, e, req.By)
		if err != nil {
			return toolgate.Decision{}, err
		}
		var d toolgate.Decision
		switch {
		case sessionHalts(s, &d):
		case engineErr != nil:
			d = failClosed("rules unavailable: " + engineErr.Error())
		default:
			b.decide(ctx, e, c, s, &d)
		}
		secrets.Decision(&d)
		needsPerson(&d, req.Confirm)
		var entry toolgate.AuditEntry
		switch {
		case d.Action != toolgate.Ask:
			entry = b.auditEntry("decision", shown, "", d.Action.String(), gate, d.Reason, decisionData(shown, sum, &d))
		case runsConfined(req, &d):
			// The host runs it in the kernel sandbox: allowed so, and
			// nobody is asked.
			entry = b.auditEntry("decision", shown, "", toolgate.Allow.String(), gate, ConfinedReason+": "+d.Reason, decisionData(shown, sum, &d))
		case req.NoHold:
			// The host asks its own user: the ask is recorded, nothing is
			// held, so no approver sees a question nobody waits for.
			entry = b.auditEntry("decision", shown, "", "ask", gate, NoHoldReason+": "+d.Reason, decisionData(shown, sum, &d))
		case optimistic:
			current, err := b.currentSince(ctx, seen)
			if err != nil {
				return toolgate.Decision{}, err
			}
			if !current {
				continue // caught up: decide again
			}
			return d, nil
		default:
			return d, nil
		}
		if !optimistic {
			if err := b.store.AppendAudit(ctx, entry); err != nil {
				// The decision must be recorded before it is acted on.
				return toolgate.Decision{}, fmt.Errorf("record decision: %w", err)
			}
			return d, nil
		}
		ok, err := b.guard.AppendAuditIfCurrent(ctx, seen, entry)
		if err != nil {
			return toolgate.Decision{}, fmt.Errorf("record decision: %w", err)
		}
		if ok {
			return d, nil
		}
		if attempt+1 >= maxStale {
			return toolgate.Decision{}, toolgate.Errorf(toolgate.EUnavailable, "record decision: shared state changed under %d decisions in a row; retry", maxStale)
		}
		if err := b.catchUp(ctx, 0); err != nil {
			return toolgate.Decision{}, fmt.Errorf("apply change feed: %w", err)
		}
	}
}

// MaxConfirm bounds SubmitRequest.Confirm.
const MaxConfirm = 16 << 10

// needsPerson makes a decision that a submitter required a person for
// (SubmitRequest.Confirm) an ask led by the confirm text's first line
// (its other lines, such as a diff, are the detail every surface shows
// from Decision.Confirm): a deny stays a deny, and neither an allow by
// rule, grant or mode nor a confined allow stands.
func needsPerson(d *toolgate.Decision, confirm string) {
	if confirm == "" || d.Action == toolgate.Deny {
		return
	}
	why := "the rules allow the call"
	if d.Action == toolgate.Ask {
		why = "the rules ask too"
	}
	d.Action, d.Confirm, d.Sandbox = toolgate.Ask, confirm, nil
	head, _, _ := strings.Cut(confirm, "\n")
	d.Reason = fmt.Sprintf("%s (a person must answer this; %s: %s)", head, why, d.Reason)
}

// NoHoldReason leads the audited reason of a call that asks and was
// submitted with NoHold.
const NoHoldReason = "asked in the agent's own prompt"

// ConfinedReason leads the audited reason of a call offered a confined
// allow and submitted by a host that runs it so (SubmitRequest.Confined).
const ConfinedReason = "allowed confined: the agent's host runs it in toolgate's kernel sandbox"

// runsConfined reports whether ask decision d is allowed confined: it
// offers a confined allow and the host runs it so.
func runsConfined(req toolgate.SubmitRequest, d *toolgate.Decision) bool {
	return req.Confined && d.Action == toolgate.Ask && d.Sandbox != nil
}

// sameCall checks that a resubmitted call id carries the call its stored
// approval was made for. An id names one call: attaching other content to
// it would hand a human's answer about one call to another (approve
// `git push` as call 7, then resubmit call 7 as `rm -rf /`). A mismatch is
// audited and refused with EConflict, whatever the approval's status.
func (b *Broker) sameCall(ctx context.Context, a *toolgate.Approval, c *toolgate.Call, sum string) error {
	stored := a.Digest
	if stored == "" {
		// Stored before digests were kept: digest the stored call.
		stored = digest.Call(&a.Call)
	}
	if stored == sum {
		return nil
	}
	reason := fmt.Sprintf("call id %q of session %s was already submitted with other content (tool, arguments, workspace, cwd or home); a call id names one call", c.ID, c.Session)
	shown, _ := redact.Call(c)
	c = &shown
	data, _ := json.Marshal(struct {
		Digest       string         `json:"digest"`
		StoredDigest string         `json:"stored_digest"`
		Args         map[string]any `json:"args,omitempty"`
		Cwd          string         `json:"cwd,omitempty"`
	}{sum, stored, c.Args, c.Cwd})
	entry := b.auditEntry(AuditCallConflict, c, a.ID, "conflict", gate, reason, data)
	if err := b.store.AppendAudit(ctx, entry); err != nil {
		return fmt.Errorf("record call conflict: %w", err)
	}
	b.log.Warn("call id resubmitted with other content", "session", c.Session, "call", c.ID, "approval", a.ID, "tool", c.Tool)
	return toolgate.Errorf(toolgate.EConflict, "%s", reason)
}

// AuditCallConflict is the audit kind of a call id resubmitted with other
// content.
const AuditCallConflict = "call.conflict"

// expire denies an approval whose time is up.
func (b *Broker) expire(ctx context.Context, id string) (*toolgate.Approval, error) {
	return b.Resolve(ctx, id, toolgate.Resolution{
		Status: toolgate.StatusExpired, Reason: toolgate.TimeoutReason, By: gate.Name, Via: "timeout",
	})
}

// Wait blocks until the approval is resolved or ctx ends, and returns the
// approval as it then stands (still pending if ctx ended first, with
// ctx's error). Waiting does not cancel anything: see RequestApproval.
func (b *Broker) Wait(ctx context.Context, id string) (*toolgate.Approval, error) {
	w := b.waiterOf(id)
	if w == nil {
		// Not tracked here: created on another node whose entry this
		// node has not applied yet, or the agent re-attached here after
		// its node died. Track it, if it is still pending.
		a, err := b.store.GetApproval(ctx, id)
		if err != nil || a.Status != toolgate.StatusPending {
			return a, err
		}
		b.track(a)
		w = b.waiterOf(id)
	}
	if w != nil && b.feed != nil {
		// The feed may have applied the resolution before this waiter
		// existed (then nothing will close it): the store, read after
		// it exists, tells. A resolution committed after this read is
		// applied after it too, and closes the waiter.
		a, err := b.store.GetApproval(ctx, id)
		if err != nil || a.Status != toolgate.StatusPending {
			b.release(id, "") // tracked (w): nothing to remember
			return a, err
		}
	}
	if w != nil {
		select {
		case <-w.done:
			if w.final != nil {
				// Resolved here: as stored, without reading it back.
				a := *w.final
				return &a, nil
			}
		case <-ctx.Done():
			a, err := b.store.GetApproval(context.WithoutCancel(ctx), id)
			if err != nil {
				return nil, err
			}
			return a, ctx.Err()
		}
	}
	return b.store.GetApproval(context.WithoutCancel(ctx), id)
}

// RequestApproval submits a call and waits for its outcome: the seed
// engine's request_approval. If ctx ends while the call waits, the waiter
// has gone away and the approval is cancelled (never allowed).
//
// Several requests may wait on one approval (the same call id submitted
// twice, seed 004's two waiters): it is cancelled only when the last of
// those waiting in this process goes away; the others keep waiting.
func (b *Broker) RequestApproval(ctx context.Context, req toolgate.SubmitRequest) (*toolgate.Result, error) {
	// Counted from before the submission, so that a request attaching to
	// the approval is counted before another's departure could cancel it.
	key := req.Call.Session + "\x00" + req.Call.ID
	if req.Call.ID == "" {
		key = "" // a fresh call id: nobody else can wait on it
	}
	b.hold(key, 1)
	r, err := b.Submit(ctx, req)
	if err != nil || r.Approval == nil || r.Approval.Status != toolgate.StatusPending {
		b.hold(key, -1)
		return r, err
	}
	a, err := b.Wait(ctx, r.Approval.ID)
	if others := b.hold(key, -1); err != nil && ctx.Err() != nil && others > 0 {
		// Another request still waits for the answer.
		r.Approval = a
		return r, ctx.Err()
	}
	if err != nil && ctx.Err() != nil {
		a, cerr := b.Resolve(context.WithoutCancel(ctx), r.Approval.ID, toolgate.Resolution{
			Status: toolgate.StatusCancelled, Reason: "the agent stopped waiting for approval", By: gate.Name, Via: "cancel",
		})
		if cerr != nil && toolgate.ErrorCodeOf(cerr) != toolgate.EConflict {
			return nil, cerr
		}
		if a == nil {
			a, _ = b.store.GetApproval(context.WithoutCancel(ctx), r.Approval.ID)
		}
		r.Approval = a
		return r, ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	r.Approval = a
	return r, nil
}

// hold adds delta to the requests waiting on a call (key "" counts
// nothing) and returns how many are left.
func (b *Broker) hold(key string, delta int) int {
	if key == "" {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	n := b.holders[key] + delta
	if n <= 0 {
		delete(b.holders, key)
		return 0
	}
	b.holders[key] = n
	return n
}

// Get returns an approval.
func (b *Broker) Get(ctx context.Context, id string) (*toolgate.Approval, error) {
	return b.store.GetApproval(ctx, id)
}

// getAs returns an approval to a caller: an agent credential sees only
// the approvals of its own sessions; another's is not found, so its
// arguments and resume token stay with the session's owner.
func (b *Broker) getAs(ctx context.Context, id string, by toolgate.Actor) (*toolgate.Approval, error) {
	a, err := b.store.GetApproval(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := b.checkOwner(ctx, a, by); err != nil {
		return nil, err
	}
	return a, nil
}

// checkOwner refuses an agent credential an approval of a session it does
// not own, as not found.
func (b *Broker) checkOwner(ctx context.Context, a *toolgate.Approval, by toolgate.Actor) error {
	if !by.Agent {
		return nil
	}
	var s toolgate.Session
	found, err := b.loadSession(ctx, a.Call.Session, &s)
	if err != nil {
		return err
	}
	if found && !owns(by, &s) {
		return toolgate.Errorf(toolgate.ENotFound, "approval %s not found", a.ID)
	}
	return nil
}

// GetByToken returns an approval by its resume token.
func (b *Broker) GetByToken(ctx context.Context, token string) (*toolgate.Approval, error) {
	return b.store.GetApprovalByToken(ctx, token)
}

// List lists approvals.
func (b *Broker) List(ctx context.Context, f store.ApprovalFilter) ([]*toolgate.Approval, error) {
	return b.store.ListApprovals(ctx, f)
}

// pendingApproval loads an approval that must still be pending; one past
// its expiry is expired on the spot.
func (b *Broker) pendingApproval(ctx context.Context, id string) (*toolgate.Approval, error) {
	a, err := b.store.GetApproval(ctx, id)
	if err != nil {
		return nil, err
	}
	if a.Status == toolgate.StatusPending && !b.now().Before(a.ExpiresAt) {
		if a, err = b.expire(ctx, id); err != nil && toolgate.ErrorCodeOf(err) != toolgate.EConflict {
			return nil, err
		}
		if a == nil {
			if a, err = b.store.GetApproval(ctx, id); err != nil {
				return nil, err
			}
		}
	}
	if a.Status != toolgate.StatusPending {
		return a, toolgate.Errorf(toolgate.EConflict, "approval %s is already %s", id, a.Status)
	}
	return a, nil
}

// approve answers a pending approval with yes, at the scope the human
// chose; a scope beyond once adds a grant and re-evaluates every pending
// approval it could affect (the cascade).
func (b *Broker) approve(ctx context.Context, id string, req toolgate.ApproveRequest, by toolgate.Actor) (*toolgate.Approval, error) {
	a, err := b.pendingApproval(ctx, id)
	if err != nil {
		return a, err
	}
	e, err := b.policies.Engine(ctx, a.Call.Workspace)
	if err != nil {
		return nil, toolgate.Errorf(toolgate.EUnavailable, "rules of workspace %s: %w", a.Call.Workspace, err)
	}
	if len(req.Answer) > 0 && !e.IsQuestionTool(a.Call.Tool) {
		return nil, toolgate.Errorf(toolgate.EInvalid, "an answer is only accepted for question tools, and %s is not one", a.Call.Tool)
	}
	if len(req.Answer) > 0 && !json.Valid(req.Answer) {
		return nil, toolgate.Errorf(toolgate.EInvalid, "answer is not valid JSON")
	}
	if len(req.Modifications) > 0 && !json.Valid(req.Modifications) {
		return nil, toolgate.Errorf(toolgate.EInvalid, "modifications are not valid JSON")
	}
	if len(req.Modifications) > 0 && !e.IsQuestionTool(a.Call.Tool) {
		if _, found := redact.JSON(req.Modifications, "modifications"); len(found) > 0 {
			// Stored masked, the agent would run the masked text.
			return nil, toolgate.Errorf(toolgate.EInvalid, "the edited arguments hold a secret (%s): the gateway keeps no secret, so it cannot hand it to the agent; approve the call without it (let the tool read the secret where it is kept) or deny it", redactedArgs(found))
		}
		if err := b.decideModified(ctx, e, a, req.Modifications); err != nil {
			return nil, err
		}
	}
	if req.Scope == "" {
		req.Scope = toolgate.ScopeOnce
	}
	if err := checkRest(req.Rest, a); err != nil {
		return nil, err
	}
	if req.For != "" && req.Scope == toolgate.ScopeOnce {
		return nil, toolgate.Errorf(toolgate.EInvalid, "for %q needs a scope beyond once (turn, session, workspace or global): a once approval has nothing to time-box", req.For)
	}
	if err := b.fresh(ctx); err != nil { // the session's turn, for a turn grant
		return nil, err
	}
	now := b.now()
	res := toolgate.Resolution{
		Status: toolgate.StatusApproved, Scope: req.Scope, Answer: req.Answer,
		Modifications: req.Modifications, By: by.Name, Via: by.Via, At: now,
	}
	maskResolution(&res)
	var grant *toolgate.Grant
	if req.Scope != toolgate.ScopeOnce {
		if grant, err = b.grantFor(ctx, e, a, req, by); err != nil {
			return nil, err
		}
		res.Grant, res.Pattern, res.GrantID = grant.Kind, grant.Pattern, grant.ID
	}
	audit := []toolgate.AuditEntry{b.auditEntry(string(toolgate.EventApprovalResolved), &a.Call, a.ID, string(res.Status), by, "approved at scope "+string(req.Scope), resolutionData(&res, &a.Call))}
	if grant != nil {
		audit = append(audit, b.grantAudit(string(toolgate.EventGrantAdded), grant, by))
	}
	resolved, err := b.resolve(ctx, a, res, grant, audit)
	if err != nil {
		return resolved, err
	}
	if grant != nil {
		b.grantAdded(ctx, grant, by)
	}
	if req.Rest {
		return resolved, b.answerRest(ctx, a, by, nil)
	}
	return resolved, nil
}

// checkRest refuses an answer for the rest of a batch to a call in no
// batch, before anything is applied.
func checkRest(rest bool, a *toolgate.Approval) error {
	if rest && (a.Call.Batch == nil || a.Call.Batch.ID == "") {
		return toolgate.Errorf(toolgate.EInvalid, "call %s is in no batch: there is no rest to answer", a.Call.ID)
	}
	return nil
}

// answerRest answers the other pending calls of a's batch: denies each
// with deny, or (deny nil) decides each by its own rules as they stand
// now (the session's mode and stop flag, grants, the rules document) and
// denies what they deny, approving the rest once. An approval answered
// meanwhile by someone else is left as it is, and so, when approving, is
// one its submitter required a person's own answer for (Decision.Confirm).
func (b *Broker) answerRest(ctx context.Context, a *toolgate.Approval, by toolgate.Actor, deny *toolgate.DenyRequest) error {
	pending, err := b.store.ListApprovals(ctx, store.ApprovalFilter{Status: toolgate.StatusPending, Session: a.Call.Session})
	if err != nil {
		return err
	}
	var errs []error
	for _, p := range pending {
		if p.ID == a.ID || p.Call.Batch == nil || p.Call.Batch.ID != a.Call.Batch.ID {
			continue
		}
		var err error
		switch {
		case deny != nil:
			_, err = b.deny(ctx, p.ID, *deny, by)
		case p.Decision.Confirm != "":
			continue
		default:
			var d toolgate.Decision
			if d, err = b.decideNow(ctx, p); err != nil {
				break
			}
			if d.Action == toolgate.Deny {
				_, err = b.deny(ctx, p.ID, toolgate.DenyRequest{Mode: toolgate.DenySoft, Reason: "its own rules deny it: " + d.Reason}, by)
			} else {
				_, err = b.approve(ctx, p.ID, toolgate.ApproveRequest{Scope: toolgate.ScopeOnce}, by)
			}
		}
		if err != nil && toolgate.ErrorCodeOf(err) != toolgate.EConflict && toolgate.ErrorCodeOf(err) != toolgate.ENotFound {
			errs = append(errs, fmt.Errorf("batch %s, call %s: %w", a.Call.Batch.ID, p.Call.ID, err))
		}
	}
	return errors.Join(errs...)
}

// decideNow decides a pending call again as its session and rules stand.
func (b *Broker) decideNow(ctx context.Context, p *toolgate.Approval) (toolgate.Decision, error) {
	var d toolgate.Decision
	e, err := b.policies.Engine(ctx, p.Call.Workspace)
	if err != nil {
		return d, toolgate.Errorf(toolgate.EUnavailable, "rules of workspace %s: %w", p.Call.Workspace, err)
	}
	s, err := b.getSession(ctx, p.Call.Session)
	if err != nil {
		return d, err
	}
	if !sessionHalts(s, &d) {
		c := p.Call
		b.decide(ctx, e, &c, s, &d)
	}
	return d, nil
}

// decideModified decides the call as the human changed it, like a new
// call in the call's session, before the approval applies: the human saw
// the change, so an ask is theirs to answer, but a deny stays a deny.
func (b *Broker) decideModified(ctx context.Context, e *policy.Engine, a *toolgate.Approval, mods json.RawMessage) error {
	args, err := ApplyModifications(a.Call.Args, mods)
	if err != nil {
		return toolgate.Errorf(toolgate.EInvalid, "%v", err)
	}
	if len(a.Decision.Redactions) > 0 {
		// The stored call holds masked secrets: the call as modified can
		// be decided only if no masked text is left in it.
		if text, _ := json.Marshal(args); redact.Contains(string(text)) {
			return toolgate.Errorf(toolgate.EInvalid, "the call's arguments hold masked secrets (%s): modifications must replace every argument that holds one; approve it unchanged or deny it", redactedArgs(a.Decision.Redactions))
		}
	}
	s, err := b.getSession(ctx, a.Call.Session)
	if err != nil {
		return err
	}
	c := a.Call
	c.Args = args
	var d toolgate.Decision
	b.decide(ctx, e, &c, s, &d)
	if d.Action == toolgate.Deny {
		return toolgate.Errorf(toolgate.EForbidden, "the call as modified is denied (%s); approve it unchanged or deny it", d.Reason)
	}
	return nil
}

// ApplyModifications is toolgate.ApplyModifications.
func ApplyModifications(args map[string]any, mods json.RawMessage) (map[string]any, error) {
	return toolgate.ApplyModifications(args, mods)
}

// grantFor builds the grant an approval at a scope beyond once creates,
// checking that its pattern compiles.
func (b *Broker) grantFor(ctx context.Context, e *policy.Engine, a *toolgate.Approval, req toolgate.ApproveRequest, by toolgate.Actor) (*toolgate.Grant, error) {
	switch req.Scope {
	case toolgate.ScopeTurn, toolgate.ScopeSession, toolgate.ScopeWorkspace, toolgate.ScopeGlobal:
	default:
		return nil, toolgate.Errorf(toolgate.EInvalid, "unknown scope %q (want once, turn, session, workspace or global)", req.Scope)
	}
	kind := req.Grant
	if kind == "" {
		kind = toolgate.GrantTool
		if req.Pattern != "" || len(a.Decision.Suggestions) > 0 {
			kind = toolgate.GrantPattern
		}
	}
	g := &toolgate.Grant{
		ID: newID("gr_"), Scope: req.Scope, Kind: kind, Tool: a.Call.Tool,
		ApprovalID: a.ID, CreatedBy: by.Name, Via: by.Via, CreatedAt: b.now(),
	}
	if req.For != "" {
		d, err := toolgate.ParseGrantFor(req.For)
		if err != nil {
			return nil, err
		}
		g.ExpiresAt = g.CreatedAt.Add(d)
	}
	switch kind {
	case toolgate.GrantTool:
		g.Pattern = "*"
	case toolgate.GrantPattern, toolgate.GrantPrefix:
		g.Pattern = req.Pattern
		if g.Pattern == "" {
			if len(a.Decision.Suggestions) == 0 {
				return nil, toolgate.Errorf(toolgate.EInvalid, "no pattern given and the decision suggested none; grant the tool or give a pattern")
			}
			sg := a.Decision.Suggestions[0]
			g.Tool, g.Pattern = sg.Tool, sg.Pattern
			if req.Scope == toolgate.ScopeTurn || req.Scope == toolgate.ScopeSession {
				// "For this turn/session" with no pattern allows the call
				// exactly as it was made, never the wider suggestion the
				// person did not see; every surface answering without a
				// pattern gets this. Always (workspace, global) is the
				// answer that generalizes, to the suggestion.
				if sg.Exact == "" {
					return nil, toolgate.Errorf(toolgate.EInvalid, "no pattern given and the decision has no exact pattern for this call; give a pattern")
				}
				g.Pattern = sg.Exact
			}
		}
		if strings.TrimSpace(g.Pattern) == "" {
			return nil, toolgate.Errorf(toolgate.EInvalid, "empty pattern")
		}
		if redact.Contains(g.Pattern) {
			return nil, toolgate.Errorf(toolgate.EInvalid, "pattern %q holds a masked secret: it would never match the call; give a pattern without it", g.Pattern)
		}
		if ms := redact.Find(g.Pattern); len(ms) > 0 {
			// A grant is stored, shown and written to the rules document.
			return nil, toolgate.Errorf(toolgate.EInvalid, "pattern %q holds a secret (%s): the gateway keeps no secret; give a pattern without it", redact.Text(g.Pattern), ms[0].Rule.What)
		}
	default:
		return nil, toolgate.Errorf(toolgate.EInvalid, "unknown grant kind %q (want tool, pattern or prefix)", kind)
	}
	if len(g.Pattern) > 1024 {
		return nil, toolgate.Errorf(toolgate.EInvalid, "pattern longer than 1024 bytes")
	}
	if g.Scope != toolgate.ScopeGlobal {
		g.Workspace = a.Call.Workspace
	}
	if g.Scope == toolgate.ScopeTurn || g.Scope == toolgate.ScopeSession {
		g.Session = a.Call.Session
	}
	if g.Scope == toolgate.ScopeTurn {
		s, err := b.getSession(ctx, a.Call.Session)
		if err != nil {
			return nil, err
		}
		g.Turn = s.Turn
	}
	if _, err := e.Compile(toolgate.LayerSession, []policy.Rule{grantRule(g)}); err != nil {
		return nil, toolgate.Errorf(toolgate.EInvalid, "pattern %q: %w", g.Pattern, err)
	}
	if err := authorizeGrant(e, a, g, by); err != nil {
		return nil, err
	}
	return g, nil
}

// grantSource is where a grant's rule says it comes from.
func grantSource(g *toolgate.Grant) string { return "grant:" + g.ID }

// grantRule is the rule a grant stands for.
func grantRule(g *toolgate.Grant) policy.Rule {
	return policy.Rule{
		Tool: g.Tool, Exact: true, Pattern: g.Pattern, Prefix: g.Kind == toolgate.GrantPrefix,
		Action: toolgate.Allow, Source: policy.Source{File: grantSource(g)},
		Reason: fmt.Sprintf("granted by %s", g.CreatedBy),
	}
}

// deny answers a pending approval with no. Soft denies this call and lets
// the batch go on; hard (the default) also denies the session's other
// pending calls and sets its stop flag.
func (b *Broker) deny(ctx context.Context, id string, req toolgate.DenyRequest, by toolgate.Actor) (*toolgate.Approval, error) {
	if req.Mode == "" {
		req.Mode = toolgate.DenyHard
	}
	if req.Mode != toolgate.DenySoft && req.Mode != toolgate.DenyHard {
		return nil, toolgate.Errorf(toolgate.EInvalid, "unknown deny mode %q (want soft or hard)", req.Mode)
	}
	a, err := b.pendingApproval(ctx, id)
	if err != nil {
		return a, err
	}
	if err := checkRest(req.Rest, a); err != nil {
		return nil, err
	}
	res := toolgate.Resolution{
		Status: toolgate.StatusDenied, DenyMode: req.Mode, Feedback: req.Feedback,
		Reason: DenyMessage(a.Call.Tool, req), By: by.Name, Via: by.Via, At: b.now(),
	}
	maskResolution(&res)
	audit := b.auditEntry(string(toolgate.EventApprovalResolved), &a.Call, a.ID, string(res.Status), by, res.Reason, resolutionData(&res, &a.Call))
	resolved, err := b.resolve(ctx, a, res, nil, []toolgate.AuditEntry{audit})
	if err == nil && req.Rest {
		rest := toolgate.DenyRequest{Mode: toolgate.DenySoft, Reason: req.Reason, Feedback: req.Feedback}
		err = b.answerRest(ctx, a, by, &rest)
	}
	if err != nil || req.Mode == toolgate.DenySoft {
		return resolved, err
	}
	if err := b.stopSession(ctx, a, by); err != nil {
		return resolved, err
	}
	return resolved, nil
}

// maskResolution masks the secrets in what a person (or an agent
// withdrawing its call) typed into an answer: a deny's reason and
// feedback, a question's answer, a cancel's reason. They are stored,
// shown, notified, searched and handed to the agent masked.
func maskResolution(res *toolgate.Resolution) {
	res.Feedback = redact.Text(res.Feedback)
	res.Reason = redact.Text(res.Reason)
	res.Answer, _ = redact.JSON(res.Answer, "answer")
	// A call's edited arguments with a secret are refused before; a
	// question's modifications carry its answer (seed 000).
	res.Modifications, _ = redact.JSON(res.Modifications, "modifications")
}

// DenyMessage is what the agent is told when a human denies a call: the
// feedback, and a reminder of what to do next (seed 002's wording).
func DenyMessage(tool string, req toolgate.DenyRequest) string {
	var b strings.Builder
	fmt.Fprintf(&b, "User rejected tool '%s'.", tool)
	if req.Reason != "" {
		fmt.Fprintf(&b, " Reason: %s", sentence(req.Reason))
	}
	if req.Feedback != "" && req.Feedback != req.Reason {
		fmt.Fprintf(&b, " Feedback: %s", req.Feedback)
	}
	if req.Mode == toolgate.DenySoft {
		b.WriteString("\n\n[System reminder: Ask the user how they would like to proceed before trying this again.]")
	} else {
		b.WriteString("\n\n[System reminder: The user stopped this turn. Do not call more tools; wait for the user's next message.]")
	}
	return b.String()
}

// sentence ends s with a full stop unless it ends in punctuation already, so
// the reason and the feedback after it read as two sentences.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsRune(".!?:;", rune(s[len(s)-1])) {
		return s
	}
	return s + "."
}

// stopSession sets the stop flag after a hard deny and denies the
// session's other pending calls: the batch is over.
func (b *Broker) stopSession(ctx context.Context, a *toolgate.Approval, by toolgate.Actor) error {
	unlock, err := b.lockSession(ctx, a.Call.Session)
	if err != nil {
		return err
	}
	s, err := b.getSession(ctx, a.Call.Session)
	if err != nil {
		unlock()
		return err
	}
	s.Stopped, s.UpdatedAt = true, b.now()
	entry := b.auditEntry("session.stopped", &a.Call, a.ID, "stopped", by, "hard deny", nil)
	err = b.putSession(ctx, s, entry)
	unlock()
	if err != nil {
		return err
	}
	b.emit(toolgate.Event{Type: toolgate.EventSessionStopped, Time: b.now(), Session: s.ID, Workspace: s.Workspace})
	return b.resolveAll(ctx, store.ApprovalFilter{Status: toolgate.StatusPending, Session: s.ID}, toolgate.Resolution{
		Status: toolgate.StatusDenied, DenyMode: toolgate.DenyHard,
		Reason: "an earlier call was denied and the user stopped this turn", By: by.Name, Via: by.Via,
	})
}

// resolveAll resolves every approval the filter selects with res.
func (b *Broker) resolveAll(ctx context.Context, f store.ApprovalFilter, res toolgate.Resolution) error {
	list, err := b.store.ListApprovals(ctx, f)
	if err != nil {
		return err
	}
	return b.resolveEach(ctx, list, res)
}

// resolveEach ends each approval of list that is still pending with res.
func (b *Broker) resolveEach(ctx context.Context, list []*toolgate.Approval, res toolgate.Resolution) error {
	var errs []error
	for _, a := range list {
		if _, err := b.Resolve(ctx, a.ID, res); err != nil && toolgate.ErrorCodeOf(err) != toolgate.EConflict {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Resolve ends a pending approval with res: the seed engine's resolve. It
// is how expiry, cancellation and the cascade end approvals; approve and
// deny are the human answers (the Gate's Approve and Deny).
func (b *Broker) Resolve(ctx context.Context, id string, res toolgate.Resolution) (*toolgate.Approval, error) {
	if !res.Status.Final() {
		return nil, toolgate.Errorf(toolgate.EInvalid, "resolution status %q is not final", res.Status)
	}
	a, err := b.store.GetApproval(ctx, id)
	if err != nil {
		return nil, err
	}
	if a.Status != toolgate.StatusPending {
		return a, toolgate.Errorf(toolgate.EConflict, "approval %s is already %s", id, a.Status)
	}
	if res.At.IsZero() {
		res.At = b.now()
	}
	maskResolution(&res)
	by := toolgate.Actor{Name: res.By, Via: res.Via}
	entry := b.auditEntry(string(toolgate.EventApprovalResolved), &a.Call, a.ID, string(res.Status), by, res.Reason, resolutionData(&res, &a.Call))
	return b.resolve(ctx, a, res, nil, []toolgate.AuditEntry{entry})
}

// resolve stores a resolution (durably, before anyone is told), then wakes
// the waiters and publishes the event.
func (b *Broker) resolve(ctx context.Context, a *toolgate.Approval, res toolgate.Resolution, grant *toolgate.Grant, audit []toolgate.AuditEntry) (*toolgate.Approval, error) {
	if err := b.store.ResolveApproval(ctx, a.ID, res, grant, audit...); err != nil {
		if toolgate.ErrorCodeOf(err) == toolgate.EConflict {
			cur, gerr := b.store.GetApproval(ctx, a.ID)
			if gerr == nil {
				b.release(a.ID, a.Call.Session)
				return cur, toolgate.Errorf(toolgate.EConflict, "approval %s is already %s", a.ID, cur.Status)
			}
		}
		return nil, err
	}
	if grant != nil {
		// Drop the cached grant layers before any waiter wakes: the agent's
		// next call, made the moment it hears "approved", must see the grant.
		b.grantsChanged()
	}
	res.At = res.At.Round(0).UTC() // as the store gives it back
	done := *a
	done.Status, done.Resolution = res.Status, &res
	b.releaseWith(a.ID, a.Call.Session, &done)
	b.publish(toolgate.EventApprovalResolved, &done, nil)
	return &done, nil
}

// cancel ends a pending approval because its waiter went away. An agent
// credential may cancel only the approvals of its own sessions.
func (b *Broker) cancel(ctx context.Context, id, reason string, by toolgate.Actor) (*toolgate.Approval, error) {
	if reason == "" {
		reason = "cancelled"
	}
	if by.Agent {
		if _, err := b.getAs(ctx, id, by); err != nil {
			return nil, err
		}
	}
	return b.Resolve(ctx, id, toolgate.Resolution{Status: toolgate.StatusCancelled, Reason: reason, By: by.Name, Via: by.Via})
}

// ResumeByToken answers a suspended approval by its resume token (DESIGN
// §4.6): approved with optional modifications, or denied, as the
// context's actor, who must be an approver (as for the Gate's answers).
func (b *Broker) ResumeByToken(ctx context.Context, token string, approved bool, modifications json.RawMessage) (*toolgate.Approval, error) {
	by, err := approver(ctx)
	if err != nil {
		return nil, err
	}
	a, err := b.store.GetApprovalByToken(ctx, token)
	if err != nil {
		return nil, err
	}
	if !approved {
		return b.deny(ctx, a.ID, toolgate.DenyRequest{Mode: toolgate.DenySoft}, by)
	}
	req := toolgate.ApproveRequest{Modifications: modifications}
	// A question tool's answer travels in the modifications (seed 000).
	var m struct {
		Answer json.RawMessage `json:"answer"`
	}
	if len(modifications) > 0 && json.Unmarshal(modifications, &m) == nil && len(m.Answer) > 0 {
		if e, err := b.policies.Engine(ctx, a.Call.Workspace); err == nil && e.IsQuestionTool(a.Call.Tool) {
			req.Answer = m.Answer
		}
	}
	return b.approve(ctx, a.ID, req, by)
}
