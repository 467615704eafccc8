// Package wire builds a gateway's core from its parts: the rules
// documents and credentials (in the data directory, or in the database
// when nodes share PostgreSQL), the compiled workspace policies, the
// broker, and the HTTP API over them. toolgate serve and the test stack
// are wired by this one piece of code, so what the tests run is what
// serves.
package wire

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/server"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/fsrules"
	"github.com/toolgate/toolgate/tokens"
)

// Config is what a gateway is built from.
type Config struct {
	// Store keeps approvals, grants, sessions and the audit log.
	Store store.Store
	// Dir is the data directory: the rules documents and the credentials
	// file live there unless the store is shared PostgreSQL.
	Dir string
	// DefaultRules seed new workspace documents (default: the built-in
	// defaults).
	DefaultRules []byte
	// Rules, if set, replaces the rules documents the store and Dir
	// would give.
	Rules store.Rules
	// ConfigDocs are layered under every workspace's document.
	ConfigDocs []*policy.Document
	// PolicyOptions and BrokerOptions are passed on. BrokerOptions must not
	// set approval.WithApplied: New sets it to refresh credentials changed
	// on other nodes, and a later one would replace it.
	PolicyOptions []policy.Option
	BrokerOptions []approval.Option
	TokenOptions  []tokens.Option
}

// Gateway is a gateway's core.
type Gateway struct {
	Store    store.Store
	Rules    store.Rules
	Policies *approval.Workspaces
	Broker   *approval.Broker
	Tokens   *tokens.Store
}

// New builds a gateway's core. Nodes sharing a store that keeps the rules
// documents and credentials itself (store.Keeper: PostgreSQL) read them
// from it, and every node picks up another's credential changes from the
// change feed.
func New(ctx context.Context, cfg Config) (*Gateway, error) {
	g := &Gateway{Store: cfg.Store, Rules: cfg.Rules}
	defaults := cfg.DefaultRules
	if defaults == nil {
		defaults = policy.DefaultRulesJSONC()
	}
	keeper, shared := cfg.Store.(store.Keeper)
	if g.Rules == nil {
		if shared {
			g.Rules = keeper.Rules(defaults)
		} else {
			g.Rules = fsrules.New(cfg.Dir, defaults)
		}
	}
	var err error
	if shared {
		g.Tokens, err = tokens.OpenBackend(keeper.Tokens(), cfg.TokenOptions...)
	} else {
		g.Tokens, err = tokens.Open(filepath.Join(cfg.Dir, "tokens.json"), cfg.TokenOptions...)
	}
	if err != nil {
		return nil, fmt.Errorf("tokens: %w", err)
	}
	g.Policies = approval.NewWorkspaces(g.Rules, cfg.ConfigDocs, cfg.PolicyOptions...)
	opts := append([]approval.Option{approval.WithApplied(func(e *toolgate.AuditEntry) {
		if e.Kind == store.TokensChanged {
			g.Tokens.Refresh()
		}
	})}, cfg.BrokerOptions...)
	if g.Broker, err = approval.New(ctx, g.Store, g.Policies, opts...); err != nil {
		return nil, fmt.Errorf("start broker: %w", err)
	}
	return g, nil
}

// API returns the HTTP API over the gateway; deps carries what the caller
// adds (limits, mounts, the web UI's authentication, the logger…), and
// the core's parts are filled in.
func (g *Gateway) API(deps server.Deps) http.Handler {
	deps.Broker, deps.Policies, deps.Rules, deps.Tokens, deps.Store = g.Broker, g.Policies, g.Rules, g.Tokens, g.Store
	return server.NewServer(deps)
}

// Close stops the broker; the store is the caller's to close.
func (g *Gateway) Close() error { return g.Broker.Close() }
