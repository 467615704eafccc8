package postgres

import (
	"context"
	"embed"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/toolgate/toolgate/store/internal/sqlstore"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrate brings the schema up to date in one transaction, holding a
// transaction-scoped advisory lock named after the schema, so nodes that
// start together apply each migration once: the others wait, then find
// the schema current. A database written by a newer toolgate is refused.
func (db *DB) migrate(ctx context.Context) error {
	ms, err := sqlstore.Migrations(migrationFiles)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, "toolgate migrate "+db.schema); err != nil {
			return fmt.Errorf("migrate: lock: %w", err)
		}
		if db.schema != "" {
			if _, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+pgx.Identifier{db.schema}.Sanitize()); err != nil {
				return fmt.Errorf("migrate: create schema %s: %w", db.schema, err)
			}
		}
		return sqlstore.Postgres().Migrate(ctx, txQuerier{tx}, ms, "upgrade toolgate")
	})
}
