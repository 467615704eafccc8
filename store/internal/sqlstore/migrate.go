package sqlstore

import (
	"context"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Migration is one numbered schema change: migrations/NNNN_name.sql.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// Migrations returns the migrations of fsys (migrations/*.sql, a store's
// embedded files) in version order. Versions must run 1, 2, 3, … with no
// gap.
func Migrations(fsys fs.FS) ([]Migration, error) {
	names, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var ms []Migration
	for _, name := range names {
		base := strings.TrimPrefix(name, "migrations/")
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: name must be NNNN_description.sql", base)
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		ms = append(ms, Migration{Version: v, Name: base, SQL: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Version < ms[j].Version })
	for i, m := range ms {
		if m.Version != i+1 {
			return nil, fmt.Errorf("migration %s: want version %d", m.Name, i+1)
		}
	}
	return ms, nil
}

// Migrate brings the schema up to date within tx, which the caller
// commits: it records versions in a schema_version table (created if
// missing), applies each migration of ms after the version recorded, and
// records it. A schema newer than ms is refused with the advice upgrade
// ("upgrade toolgate").
func (d Dialect) Migrate(ctx context.Context, tx Querier, ms []Migration, upgrade string) error {
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_version (
		version    INTEGER PRIMARY KEY,
		applied_at `+d.Int64+` NOT NULL
	)`); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	var current int
	if err := tx.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_version`).Scan(&current); err != nil {
		return fmt.Errorf("migrate: read schema version: %w", err)
	}
	if current > len(ms) {
		return fmt.Errorf("migrate: database schema version %d is newer than this toolgate supports (%d): %s", current, len(ms), upgrade)
	}
	record := d.Bind(`INSERT INTO schema_version (version, applied_at) VALUES (?, ?)`)
	for _, m := range ms[current:] {
		if _, err := tx.Exec(ctx, m.SQL); err != nil {
			return fmt.Errorf("migrate: apply %s: %w", m.Name, err)
		}
		if _, err := tx.Exec(ctx, record, m.Version, time.Now().UnixNano()); err != nil {
			return fmt.Errorf("migrate: record %s: %w", m.Name, err)
		}
	}
	return nil
}
