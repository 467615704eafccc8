package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"

	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/postgres"
	"github.com/toolgate/toolgate/store/storetest"
)

// dsn returns the test database's URL, skipping the test without one.
func dsn(t testing.TB) string {
	t.Helper()
	u := os.Getenv("TOOLGATE_TEST_POSTGRES")
	if u == "" {
		t.Skip("TOOLGATE_TEST_POSTGRES is not set: skipping the PostgreSQL tests (.ci/run sets it, e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable)")
	}
	return u
}

// newSchema returns a fresh schema name, dropped when the test ends.
func newSchema(t testing.TB) string {
	t.Helper()
	var b [6]byte
	rand.Read(b[:])
	name := "tg_test_" + hex.EncodeToString(b[:])
	u := dsn(t)
	t.Cleanup(func() {
		db, err := postgres.Open(context.Background(), u)
		if err != nil {
			t.Logf("drop schema %s: %v", name, err)
			return
		}
		defer db.Close()
		if _, err := db.Pool().Exec(context.Background(), `DROP SCHEMA IF EXISTS `+name+` CASCADE`); err != nil {
			t.Logf("drop schema %s: %v", name, err)
		}
	})
	return name
}

func open(t testing.TB, schema string) *postgres.DB {
	t.Helper()
	db, err := postgres.Open(t.Context(), dsn(t), postgres.WithSchema(schema), postgres.WithMaxConns(4))
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func TestStore(t *testing.T) {
	t.Parallel()
	dsn(t)
	storetest.Run(t, func(t *testing.T) store.Store {
		return open(t, newSchema(t))
	})
}

func TestStorePersistent(t *testing.T) {
	t.Parallel()
	dsn(t)
	schemas := map[string]string{}
	storetest.RunPersistent(t, func(t *testing.T, dir string) store.Store {
		if schemas[dir] == "" {
			schemas[dir] = newSchema(t)
		}
		return open(t, schemas[dir])
	})
}
