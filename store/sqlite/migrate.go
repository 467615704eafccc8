package sqlite

import (
	"context"
	"embed"
	"fmt"

	"github.com/toolgate/toolgate/store/internal/sqlstore"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrate brings the schema up to date in one transaction: either every
// pending migration is applied or none is. Opening an up-to-date database
// changes nothing; a database written by a newer toolgate is refused. It
// runs on the writer before any statement is prepared.
func (db *DB) migrate(ctx context.Context) error {
	ms, err := sqlstore.Migrations(migrationFiles)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback()
	if err := sqlstore.SQLite().Migrate(ctx, writeTx{db: db, tx: tx}, ms, "upgrade toolgate or use another --data directory"); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrate: commit: %w", err)
	}
	return nil
}
