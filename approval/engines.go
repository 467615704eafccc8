package approval

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/store"
)

// Policies gives the broker the compiled policy of a workspace.
type Policies interface {
	// Engine returns the workspace's engine, current with its rules.
	Engine(ctx context.Context, workspace string) (*policy.Engine, error)
	// AppendRule adds a rule to the workspace's rules document as its new
	// last match, keeping the document's comments and formatting.
	AppendRule(ctx context.Context, workspace string, r policy.Rule, comment string) error
	// RemoveRule removes the rule AppendRule added with a comment
	// containing marker, if the document still has it.
	RemoveRule(ctx context.Context, workspace, marker string) error
}

// Workspaces compiles each workspace's rules document, followed by the
// config documents, into an engine, and recompiles when the document
// changes (its version moves). It implements Policies.
//
// If the rules store is a store.Versioner (fsrules is: a stat), each use
// checks the cheap version and reads the document only when it moved, so
// an edit on disk takes effect on the next call without the document
// being read and hashed on every call.
type Workspaces struct {
	rules     store.Rules
	versioner store.Versioner // rules, if it is one
	// onFeed: rules is a store.FeedRules, so a cached engine stays good
	// until the broker applies the document's change entry (Forget).
	onFeed bool
	config []*policy.Document
	opts   []policy.Option

	mu      sync.RWMutex
	cache   map[string]*cachedEngine
	gen     uint64        // bumped by Forget, so a compile that raced one is not cached
	max     int           // engines kept; the least recently used go first
	tick    atomic.Uint64 // orders uses for eviction
	evicted []func(workspace string)
}

type cachedEngine struct {
	version string // Document's
	stat    string // Versioner's as of before the document was read; "" unknown
	engine  *policy.Engine
	used    atomic.Uint64 // tick of the last use
}

// DefaultMaxEngines is how many compiled engines Workspaces keeps: a
// workspace unused while that many others were used is compiled again on
// its next call.
const DefaultMaxEngines = 256

// NewWorkspaces returns Policies over the documents in rules, with config
// documents (toolgate.yaml) after each workspace's own document so their
// rules win, and engine options such as policy.WithHome.
func NewWorkspaces(rules store.Rules, config []*policy.Document, opts ...policy.Option) *Workspaces {
	w := &Workspaces{rules: rules, config: config, opts: opts, cache: map[string]*cachedEngine{}, max: DefaultMaxEngines}
	w.versioner, _ = rules.(store.Versioner)
	_, w.onFeed = rules.(store.FeedRules)
	return w
}

// SetMaxEngines bounds the compiled engines kept (DefaultMaxEngines);
// call it before first use.
func (w *Workspaces) SetMaxEngines(n int) {
	if n > 0 {
		w.max = n
	}
}

// OnEvict registers f to run when an idle workspace's engine is dropped,
// so caches built on it let go of it too. Call it before first use.
func (w *Workspaces) OnEvict(f func(workspace string)) { w.evicted = append(w.evicted, f) }

// Cached reports how many compiled engines are kept.
func (w *Workspaces) Cached() int {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return len(w.cache)
}

// WorkspaceExists reports whether a workspace has a rules document,
// without seeding one. A rules store that cannot tell (no store.Exister)
// reports false: the workspace is counted as new.
func (w *Workspaces) WorkspaceExists(ctx context.Context, workspace string) (bool, error) {
	w.mu.RLock()
	_, ok := w.cache[workspace]
	w.mu.RUnlock()
	if ok {
		return true, nil
	}
	if ex, ok := w.rules.(store.Exister); ok {
		return ex.Exists(ctx, workspace)
	}
	return false, nil
}

// put caches an engine compiled as of gen, evicting the least recently
// used beyond max.
func (w *Workspaces) put(workspace string, c *cachedEngine, gen uint64) {
	c.used.Store(w.tick.Add(1))
	var gone []string
	w.mu.Lock()
	if w.gen == gen {
		w.cache[workspace] = c
	}
	for len(w.cache) > w.max {
		oldest, at := "", uint64(0)
		for ws, e := range w.cache {
			if u := e.used.Load(); oldest == "" || u < at {
				oldest, at = ws, u
			}
		}
		delete(w.cache, oldest)
		gone = append(gone, oldest)
	}
	w.mu.Unlock()
	for _, ws := range gone {
		for _, f := range w.evicted {
			f(ws)
		}
	}
}

// Forget drops the engine compiled for workspace ("" for every
// workspace): its document changed on another node.
func (w *Workspaces) Forget(workspace string) {
	w.mu.Lock()
	w.gen++
	if workspace == "" {
		clear(w.cache)
	} else {
		delete(w.cache, workspace)
	}
	w.mu.Unlock()
}

// Engine implements Policies.
func (w *Workspaces) Engine(ctx context.Context, workspace string) (*policy.Engine, error) {
	w.mu.RLock()
	gen := w.gen
	if w.onFeed {
		if c, ok := w.cache[workspace]; ok {
			w.mu.RUnlock()
			c.used.Store(w.tick.Add(1))
			return c.engine, nil
		}
	}
	w.mu.RUnlock()
	var stat string
	if w.versioner != nil {
		var err error
		if stat, err = w.versioner.Version(ctx, workspace); err != nil {
			return nil, fmt.Errorf("workspace %s rules: %w", workspace, err)
		}
		if stat != "" {
			w.mu.RLock()
			c, ok := w.cache[workspace]
			w.mu.RUnlock()
			if ok && c.stat == stat {
				c.used.Store(w.tick.Add(1))
				return c.engine, nil
			}
		}
	}
	// The version moved, or cannot be told cheaply: read the document. It
	// is read after the stat, so it is at least as new as the stat says.
	src, version, err := w.rules.Document(ctx, workspace)
	if err != nil {
		return nil, fmt.Errorf("workspace %s rules: %w", workspace, err)
	}
	w.mu.RLock()
	c, ok := w.cache[workspace]
	w.mu.RUnlock()
	if ok && c.version == version {
		if c.stat != stat {
			w.put(workspace, &cachedEngine{version: version, stat: stat, engine: c.engine}, gen)
		} else {
			c.used.Store(w.tick.Add(1))
		}
		return c.engine, nil
	}
	e, err := w.Compile(workspace, src)
	if err != nil {
		// A broken document on disk must not open the gate: the caller
		// gets the error and decides ask.
		return nil, err
	}
	w.put(workspace, &cachedEngine{version: version, stat: stat, engine: e}, gen)
	return e, nil
}

// Compile compiles a workspace document as it would be used, without
// storing it: PUT /v1/workspaces/{id}/rules validates with it.
func (w *Workspaces) Compile(workspace string, src []byte) (*policy.Engine, error) {
	doc, err := policy.ParseWorkspace("workspaces/"+workspace+"/permissions.jsonc", src)
	if err != nil {
		return nil, toolgate.Errorf(toolgate.EInvalid, "%w", err)
	}
	docs := append([]*policy.Document{doc}, w.config...)
	e, err := policy.New(docs, w.opts...)
	if err != nil {
		return nil, toolgate.Errorf(toolgate.EInvalid, "%w", err)
	}
	return e, nil
}

// Document returns a workspace's rules document and its version.
func (w *Workspaces) Document(ctx context.Context, workspace string) ([]byte, string, error) {
	return w.rules.Document(ctx, workspace)
}

// PutDocument replaces a workspace's rules document; the next decision in
// the workspace is made with it.
func (w *Workspaces) PutDocument(ctx context.Context, workspace string, src []byte) error {
	if err := w.rules.PutDocument(ctx, workspace, src); err != nil {
		return err
	}
	w.Forget(workspace)
	return nil
}

// AppendRule implements Policies.
func (w *Workspaces) AppendRule(ctx context.Context, workspace string, r policy.Rule, comment string) error {
	return w.rules.UpdateDocument(ctx, workspace, func(src []byte) ([]byte, error) {
		return policy.AppendRule(src, r, comment)
	})
}

// RemoveRule implements Policies.
func (w *Workspaces) RemoveRule(ctx context.Context, workspace, marker string) error {
	return w.rules.UpdateDocument(ctx, workspace, func(src []byte) ([]byte, error) {
		out, _, err := policy.RemoveRule(src, marker)
		return out, err
	})
}
