package store_test

import (
	"context"
	"slices"
	"testing"

	"github.com/toolgate/toolgate/store"
)

func TestRegistryLookup(t *testing.T) {
	t.Parallel()
	open := func(context.Context, string) (store.Store, error) { return nil, nil }
	r := store.Registry{"sqlite": {Open: open}, "postgres": {Open: open, Shared: true}, "nil": {}}
	for _, c := range []struct {
		url          string
		scheme       string
		found, share bool
	}{
		{"sqlite", "sqlite", true, false},
		{"sqlite:/var/lib/toolgate/x.db", "sqlite", true, false},
		{"sqlite:C:\\data\\x.db", "sqlite", true, false},
		{"postgres://u@h/db?sslmode=disable", "postgres", true, true},
		{"postgresql://u@h/db", "postgresql", false, false},
		{"sqlitex:/tmp/x", "sqlitex", false, false},
		{"nil:x", "nil", false, false}, // a backend without Open is not one
		{"", "", false, false},
	} {
		if got := store.Scheme(c.url); got != c.scheme {
			t.Errorf("Scheme(%q) = %q, want %q", c.url, got, c.scheme)
		}
		b, ok := r.Lookup(c.url)
		if ok != c.found || b.Shared != c.share && ok {
			t.Errorf("Lookup(%q) = shared %v, %v; want %v, %v", c.url, b.Shared, ok, c.share, c.found)
		}
	}
	if got := r.Schemes(); !slices.Equal(got, []string{"nil", "postgres", "sqlite"}) {
		t.Errorf("Schemes() = %q", got)
	}
}
