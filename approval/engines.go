package approval

import (
	"context"
	"fmt"
	"sync"

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

	mu    sync.RWMutex
	cache map[string]cachedEngine
	gen   uint64 // bumped by Forget, so a compile that raced one is not cached
}

type cachedEngine struct {
	version string // Document's
	stat    string // Versioner's as of before the document was read; "" unknown
	engine  *policy.Engine
}

// NewWorkspaces returns Policies over the documents in rules, with config
// documents (toolgate.yaml) after each workspace's own document so their
// rules win, and engine options such as policy.WithHome.
func NewWorkspaces(rules store.Rules, config []*policy.Document, opts ...policy.Option) *Workspaces {
	w := &Workspaces{rules: rules, config: config, opts: opts, cache: map[string]cachedEngine{}}
	w.versioner, _ = rules.(store.Versioner)
	_, w.onFeed = rules.(store.FeedRules)
	return w
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
			c.stat = stat
			w.mu.Lock()
			w.cache[workspace] = c
			w.mu.Unlock()
		}
		return c.engine, nil
	}
	e, err := w.Compile(workspace, src)
	if err != nil {
		// A broken document on disk must not open the gate: the caller
		// gets the error and decides ask.
		return nil, err
	}
	w.mu.Lock()
	if w.gen == gen {
		w.cache[workspace] = cachedEngine{version: version, stat: stat, engine: e}
	}
	w.mu.Unlock()
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
