package cli

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/postgres"
	"github.com/toolgate/toolgate/store/sqlite"
)

// storeOptions are what the toolgate command passes to a store it opens.
type storeOptions struct {
	// data is the data directory: a bare "sqlite" store is its
	// toolgate.db.
	data string
	log  *slog.Logger
	// lease and leaseRenewal are a shared store's node lease.
	lease, leaseRenewal time.Duration
	// timeout bounds each call of a shared store (zero: its default).
	timeout time.Duration
}

// stores is the store backends the toolgate command links, by the scheme
// of the store setting's URL: the one place that names them.
func stores(o storeOptions) store.Registry {
	pg := store.Backend{Shared: true, Open: func(ctx context.Context, url string) (store.Store, error) {
		opts := []postgres.Option{postgres.WithLease(o.lease, o.leaseRenewal), postgres.WithOpTimeout(o.timeout)}
		if o.log != nil {
			opts = append(opts, postgres.WithLogger(o.log))
		}
		return postgres.Open(ctx, url, opts...)
	}}
	return store.Registry{
		"sqlite": {Open: func(ctx context.Context, url string) (store.Store, error) {
			path := strings.TrimPrefix(strings.TrimPrefix(url, "sqlite"), ":")
			if path == "" {
				path = filepath.Join(o.data, "toolgate.db")
			}
			return sqlite.Open(ctx, path)
		}},
		"postgres":   pg,
		"postgresql": pg,
	}
}

// defaultStore is the store setting with its default: "" is the data
// directory's SQLite database.
func defaultStore(setting string) string {
	if setting == "" {
		return "sqlite"
	}
	return setting
}
