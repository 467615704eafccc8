package store

import (
	"context"
	"maps"
	"slices"
	"strings"
)

// Backend is a store implementation that a Registry opens by the scheme
// of a store's URL.
type Backend struct {
	// Open opens the store url names.
	Open func(ctx context.Context, url string) (Store, error)
	// Shared says several gateway nodes may share the store: it keeps the
	// rules documents and the credential list itself (Keeper), and its
	// nodes hold leases (Leaser).
	Shared bool
}

// Registry is the store backends a program links, by the scheme of the
// URL that names a store: "sqlite:PATH", "postgres://…". The program's
// wiring builds it; no backend registers itself.
type Registry map[string]Backend

// Scheme returns the scheme of a store URL: the text before its first
// ':', or the whole URL when it has none ("sqlite").
func Scheme(url string) string {
	scheme, _, _ := strings.Cut(url, ":")
	return scheme
}

// Lookup returns the backend for url's scheme.
func (r Registry) Lookup(url string) (Backend, bool) {
	b, ok := r[Scheme(url)]
	return b, ok && b.Open != nil
}

// Schemes returns the registered schemes, sorted.
func (r Registry) Schemes() []string {
	return slices.Sorted(maps.Keys(r))
}

// Keeper is implemented by a store that several nodes share: it keeps the
// rules documents and the credential list in the database, so that every
// node reads the same ones, and announces a change to the credential list
// on its Feed with an audit entry of kind TokensChanged.
type Keeper interface {
	// Rules returns the rules documents kept in the store; a new one is
	// seeded with defaults.
	Rules(defaults []byte) Rules
	// Tokens returns the credential list kept in the store.
	Tokens() Credentials
}

// Credentials is a credential list kept in a store (the methods of
// tokens.Backend): the same JSON as the credentials file's.
type Credentials interface {
	// Load returns the list and a version that changes whenever it does;
	// nil and "" if there is none yet.
	Load() (data []byte, version string, err error)
	// Update applies change to the current list (nil if none) atomically.
	Update(change func(data []byte) ([]byte, error)) error
}

// TokensChanged is the audit kind of a change to the credential list kept
// in a shared store.
const TokensChanged = "tokens.changed"
