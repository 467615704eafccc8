package approval

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/store"
)

// layerCache keeps compiled grant layers until grants change: each layer
// by its scope and owner, and each session's merged list, so deciding a
// call looks up one map entry and allocates nothing.
type layerCache struct {
	mu       sync.RWMutex
	gen      uint64 // bumped whenever grants change
	layers   map[layerKey]cachedLayer
	sessions map[string]sessionLayers
}

// layerKey names a grant layer: the global one (all fields empty), a
// workspace's, a session's, or a session's turn.
type layerKey struct {
	layer toolgate.Layer
	owner string
	turn  int
}

type cachedLayer struct {
	engine *policy.Engine
	rs     *policy.Ruleset
	until  time.Time // the first of its time-boxed grants to expire (zero: none)
}

// current reports whether a layer compiled with grants until expires
// still holds at now: none of its time-boxed grants has expired.
func current(until, now time.Time) bool { return until.IsZero() || now.Before(until) }

// earlier returns the earlier of two expiries, zero meaning never.
func earlier(a, b time.Time) time.Time {
	if a.IsZero() || !b.IsZero() && b.Before(a) {
		return b
	}
	return a
}

// sessionLayers is a session's merged grant layers as of its workspace
// and turn.
type sessionLayers struct {
	engine    *policy.Engine
	workspace string
	turn      int
	layers    []*policy.Ruleset
	until     time.Time // the first of its time-boxed grants to expire
}

// maxCachedSessionLayers bounds the per-session entries; when full the
// cache starts again (grant changes clear it anyway).
const maxCachedSessionLayers = 16384

func newLayerCache() layerCache {
	return layerCache{layers: map[layerKey]cachedLayer{}, sessions: map[string]sessionLayers{}}
}

// grantLayers returns the session's grant layers in merge order: global,
// workspace, session, turn. Compiled layers are cached until grants
// change. The slice is shared: callers must not modify it.
func (b *Broker) grantLayers(ctx context.Context, e *policy.Engine, s *toolgate.Session) ([]*policy.Ruleset, error) {
	lc := &b.grants
	lc.mu.RLock()
	sl, ok := lc.sessions[s.ID]
	gen := lc.gen
	lc.mu.RUnlock()
	if ok && sl.engine == e && sl.workspace == s.Workspace && sl.turn == s.Turn && (sl.until.IsZero() || current(sl.until, b.now())) {
		return sl.layers, nil
	}
	// A time-boxed grant counts until its expiry by this node's clock,
	// whichever node granted it: expired, it is left out, and the layers
	// that held it are compiled again.
	now := b.now()
	var until time.Time
	specs := [...]struct {
		key    layerKey
		filter store.GrantFilter
		turn   int
	}{
		{layerKey{toolgate.LayerGlobal, "", 0}, store.GrantFilter{Scope: toolgate.ScopeGlobal}, -1},
		{layerKey{toolgate.LayerWorkspace, s.Workspace, 0}, store.GrantFilter{Scope: toolgate.ScopeWorkspace, Workspace: s.Workspace}, -1},
		{layerKey{toolgate.LayerSession, s.ID, 0}, store.GrantFilter{Scope: toolgate.ScopeSession, Session: s.ID}, -1},
		{layerKey{toolgate.LayerTurn, s.ID, s.Turn}, store.GrantFilter{Scope: toolgate.ScopeTurn, Session: s.ID}, s.Turn},
	}
	layers := make([]*policy.Ruleset, 0, len(specs))
	for _, sp := range specs {
		lc.mu.RLock()
		c, ok := lc.layers[sp.key]
		lc.mu.RUnlock()
		if ok && c.engine == e && current(c.until, now) {
			layers = append(layers, c.rs)
			until = earlier(until, c.until)
			continue
		}
		grants, err := b.store.ListGrants(ctx, sp.filter)
		if err != nil {
			return nil, err
		}
		var rules []policy.Rule
		var layerUntil time.Time
		for _, g := range grants {
			if sp.turn >= 0 && g.Turn != sp.turn || !current(g.ExpiresAt, now) {
				continue
			}
			rules = append(rules, grantRule(g))
			layerUntil = earlier(layerUntil, g.ExpiresAt)
		}
		until = earlier(until, layerUntil)
		rs, err := e.Compile(sp.key.layer, rules)
		if err != nil {
			return nil, fmt.Errorf("compile %s grants: %w", sp.key.layer, err)
		}
		lc.mu.Lock()
		if lc.gen == gen {
			lc.layers[sp.key] = cachedLayer{engine: e, rs: rs, until: layerUntil}
		}
		lc.mu.Unlock()
		layers = append(layers, rs)
	}
	lc.mu.Lock()
	if lc.gen == gen {
		if len(lc.sessions) >= maxCachedSessionLayers {
			clear(lc.sessions)
			clear(lc.layers)
		}
		lc.sessions[s.ID] = sessionLayers{engine: e, workspace: s.Workspace, turn: s.Turn, layers: layers, until: until}
	}
	lc.mu.Unlock()
	return layers, nil
}

// grantsChanged drops every cached layer.
func (b *Broker) grantsChanged() {
	lc := &b.grants
	lc.mu.Lock()
	lc.gen++
	clear(lc.layers)
	clear(lc.sessions)
	lc.mu.Unlock()
}

// grantAdded publishes a new grant, appends a workspace grant to the
// workspace's rules document, and cascades it to the pending approvals it
// could affect.
func (b *Broker) grantAdded(ctx context.Context, g *toolgate.Grant, by toolgate.Actor) {
	b.grantsChanged()
	b.publish(toolgate.EventGrantAdded, nil, g)
	if g.Scope == toolgate.ScopeWorkspace && g.ExpiresAt.IsZero() {
		// A time-boxed grant stays out of the rules document, which
		// has no expiry: it lives in the grants alone.
		comment := fmt.Sprintf("granted by %s via %s at %s %s", g.CreatedBy, g.Via, g.CreatedAt.UTC().Format("2006-01-02T15:04:05Z"), grantMarker(g.ID))
		r := grantRule(g)
		r.Prefix = false
		if g.Kind != toolgate.GrantPrefix {
			if err := b.policies.AppendRule(ctx, g.Workspace, r, comment); err != nil {
				// The grant is in the store and works; only its copy in the
				// document is missing.
				b.log.Error("append workspace grant to rules document", "grant", g.ID, "workspace", g.Workspace, "err", err)
			}
		}
	}
	b.cascade(ctx, g, by)
}

// cascade re-evaluates the pending approvals a new grant could affect and
// approves those it now allows (DESIGN §4.2).
func (b *Broker) cascade(ctx context.Context, g *toolgate.Grant, by toolgate.Actor) {
	f := store.ApprovalFilter{Status: toolgate.StatusPending}
	switch g.Scope {
	case toolgate.ScopeTurn, toolgate.ScopeSession:
		f.Session = g.Session
	case toolgate.ScopeWorkspace:
		f.Workspace = g.Workspace
	}
	pending, err := b.store.ListApprovals(ctx, f)
	if err != nil {
		b.log.Error("cascade: list pending approvals", "err", err)
		return
	}
	for _, a := range pending {
		if a.Decision.Confirm != "" {
			// The submitter required a person's answer: no grant gives it.
			continue
		}
		if len(a.Decision.Redactions) > 0 {
			// Stored with masked secrets: the stored call is not the
			// call, so no grant decides it; its approver answers.
			continue
		}
		d, err := b.Evaluate(ctx, a.Call)
		if err != nil || d.Action != toolgate.Allow {
			continue
		}
		res := toolgate.Resolution{
			Status: toolgate.StatusApproved, Scope: toolgate.ScopeOnce, GrantID: g.ID,
			Reason: "allowed by grant " + g.ID + ": " + d.Reason, By: by.Name, Via: "cascade",
		}
		if _, err := b.Resolve(ctx, a.ID, res); err != nil && toolgate.ErrorCodeOf(err) != toolgate.EConflict {
			b.log.Error("cascade: resolve", "approval", a.ID, "err", err)
		}
	}
}

// addGrant stores a grant an admin makes directly (not as an answer) and
// cascades it.
func (b *Broker) addGrant(ctx context.Context, g toolgate.Grant, by toolgate.Actor) (*toolgate.Grant, error) {
	if g.Tool == "" {
		return nil, toolgate.Errorf(toolgate.EInvalid, "grant has no tool")
	}
	if g.Kind == "" {
		g.Kind = toolgate.GrantPattern
	}
	if g.Pattern == "" {
		g.Pattern = "*"
	}
	if !g.ExpiresAt.IsZero() && !g.ExpiresAt.After(b.now()) {
		return nil, toolgate.Errorf(toolgate.EInvalid, "expires_at %s is not in the future", g.ExpiresAt.UTC().Format(time.RFC3339))
	}
	switch g.Scope {
	case toolgate.ScopeGlobal:
		g.Workspace, g.Session = "", ""
	case toolgate.ScopeWorkspace:
		if g.Workspace == "" {
			return nil, toolgate.Errorf(toolgate.EInvalid, "a workspace grant needs a workspace")
		}
		g.Session = ""
	case toolgate.ScopeSession, toolgate.ScopeTurn:
		if err := b.fresh(ctx); err != nil { // the session's turn
			return nil, err
		}
		if g.Session == "" {
			return nil, toolgate.Errorf(toolgate.EInvalid, "a %s grant needs a session", g.Scope)
		}
		s, err := b.getSession(ctx, g.Session)
		if err != nil {
			return nil, err
		}
		g.Workspace, g.Turn = s.Workspace, s.Turn
	default:
		return nil, toolgate.Errorf(toolgate.EInvalid, "unknown scope %q (want turn, session, workspace or global)", g.Scope)
	}
	switch g.Kind {
	case toolgate.GrantTool, toolgate.GrantPattern, toolgate.GrantPrefix:
	default:
		return nil, toolgate.Errorf(toolgate.EInvalid, "unknown grant kind %q (want tool, pattern or prefix)", g.Kind)
	}
	ws := g.Workspace
	if ws == "" {
		ws = DefaultWorkspace
	}
	e, err := b.policies.Engine(ctx, ws)
	if err != nil {
		return nil, toolgate.Errorf(toolgate.EUnavailable, "rules of workspace %s: %w", ws, err)
	}
	g.ID, g.CreatedBy, g.Via, g.CreatedAt = newID("gr_"), by.Name, by.Via, b.now()
	if _, err := e.Compile(toolgate.LayerSession, []policy.Rule{grantRule(&g)}); err != nil {
		return nil, toolgate.Errorf(toolgate.EInvalid, "pattern %q: %w", g.Pattern, err)
	}
	if err := b.store.AddGrant(ctx, &g, b.grantAudit(string(toolgate.EventGrantAdded), &g, by)); err != nil {
		return nil, err
	}
	b.grantAdded(ctx, &g, by)
	return &g, nil
}

// GrantSuggestions adds the rules the decision of approval id suggested
// (Decision.Suggestions) as grants of its workspace, each cascading, as
// the context's actor, who must be an approver: what the seed tRPC
// protocol's "always" does for a call of several commands, where no one
// rule covers the call as an answer's grant must. The suggestions are the
// gate's own and as narrow as it makes them; any other grant is the
// Gate's AddGrant, an admin's. Only a pending call's suggestions are
// granted (one answered meanwhile, denied perhaps, is a conflict), and
// each must pass the check an answer's grant does (authorizeGrant). A
// rule that cannot be added is in the joined error; the others stay
// added.
func (b *Broker) GrantSuggestions(ctx context.Context, id string) error {
	by, err := approver(ctx)
	if err != nil {
		return err
	}
	a, err := b.store.GetApproval(ctx, id)
	if err != nil {
		return err
	}
	if a.Status != toolgate.StatusPending {
		return toolgate.Errorf(toolgate.EConflict, "approval %s is %s: only a pending call's suggestions are granted", a.ID, a.Status)
	}
	e, err := b.policies.Engine(ctx, a.Call.Workspace)
	if err != nil {
		return toolgate.Errorf(toolgate.EUnavailable, "rules of workspace %s: %w", a.Call.Workspace, err)
	}
	var errs []error
	for _, s := range a.Decision.Suggestions {
		g := toolgate.Grant{Scope: toolgate.ScopeWorkspace, Workspace: a.Call.Workspace, Kind: toolgate.GrantPattern, Tool: s.Tool, Pattern: s.Pattern, ApprovalID: a.ID}
		if err := authorizeGrant(e, a, &g, by); err != nil {
			errs = append(errs, fmt.Errorf("grant %s %q: %w", s.Tool, s.Pattern, err))
			continue
		}
		if _, err := b.addGrant(ctx, g, by); err != nil {
			errs = append(errs, fmt.Errorf("grant %s %q: %w", s.Tool, s.Pattern, err))
		}
	}
	return errors.Join(errs...)
}

// grantMarker is the text that marks a workspace grant's rule in the rules
// document, so revoking the grant can find and remove it.
func grantMarker(id string) string { return "(grant " + id + ")" }

// revokeGrant deletes a grant. A workspace grant's rule is removed from
// the rules document first: if that fails, nothing is revoked, since a
// revoked grant whose rule still allows would be worse than an error.
func (b *Broker) revokeGrant(ctx context.Context, id string, by toolgate.Actor) error {
	grants, err := b.store.ListGrants(ctx, store.GrantFilter{})
	if err != nil {
		return err
	}
	var g *toolgate.Grant
	for _, x := range grants {
		if x.ID == id {
			g = x
			break
		}
	}
	if g == nil {
		return toolgate.Errorf(toolgate.ENotFound, "grant %s not found", id)
	}
	if g.Scope == toolgate.ScopeWorkspace && g.ExpiresAt.IsZero() { // a time-boxed one is not in the document
		if err := b.policies.RemoveRule(ctx, g.Workspace, grantMarker(g.ID)); err != nil {
			return fmt.Errorf("remove grant %s from the rules of workspace %s: %w", g.ID, g.Workspace, err)
		}
	}
	if err := b.store.RevokeGrant(ctx, id, b.grantAudit(string(toolgate.EventGrantRevoked), g, by)); err != nil {
		return err
	}
	b.grantsChanged()
	b.publish(toolgate.EventGrantRevoked, nil, g)
	return nil
}

// Grants lists grants.
func (b *Broker) Grants(ctx context.Context, f store.GrantFilter) ([]*toolgate.Grant, error) {
	return b.store.ListGrants(ctx, f)
}
