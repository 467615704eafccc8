package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"

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
	db, err := postgres.Open(t.Context(), dsn(t), postgres.WithSchema(schema), postgres.WithMaxConns(2))
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

// TestOpenErrorsKeepThePasswordOut: a bad or unreachable database fails
// Open with an error that names what is wrong but never the password.
func TestOpenErrorsKeepThePasswordOut(t *testing.T) {
	t.Parallel()
	for _, url := range []string{
		"postgres://toolgate:hunter2-secret@127.0.0.1:1/toolgate?connect_timeout=2",
		"postgres://toolgate:hunter2-secret@127.0.0.1:5432/toolgate?sslmode=bogus",
	} {
		db, err := postgres.Open(t.Context(), url)
		if err == nil {
			db.Close()
			t.Fatalf("%s: opened", url)
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("the error shows the password: %v", err)
		}
	}
	if _, err := postgres.Open(t.Context(), "postgres://localhost/x", postgres.WithSchema("a;DROP")); toolgate.ErrorCodeOf(err) != toolgate.EInvalid {
		t.Errorf("schema with a semicolon: %v, want invalid", err)
	}
}

// TestSessionPendingByIndex: the read behind every new approval's
// session_waiting (the oldest pending approvals of one session) can be
// served by an index in the order asked, without sorting every pending
// approval. Sequential scans are off for the plan: on a table this small
// the planner would rightly prefer one.
func TestSessionPendingByIndex(t *testing.T) {
	t.Parallel()
	db := open(t, newSchema(t))
	defer db.Close()
	q, args, err := postgres.ApprovalsQuery(store.ApprovalFilter{Status: toolgate.StatusPending, Session: "s1", Limit: toolgate.MaxWaitingShown + 1})
	if err != nil {
		t.Fatal(err)
	}
	tx, err := db.Pool().Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(context.Background())
	if _, err := tx.Exec(t.Context(), `SET LOCAL enable_seqscan = off`); err != nil {
		t.Fatal(err)
	}
	rows, err := tx.Query(t.Context(), "EXPLAIN "+q, args...)
	if err != nil {
		t.Fatal(err)
	}
	var plan []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, line)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	text := strings.Join(plan, "\n")
	if !strings.Contains(text, "approvals_session_pending") || strings.Contains(text, "Sort") {
		t.Errorf("plan of %s:\n%s\nwant a scan of approvals_session_pending with no sort", q, text)
	}
}
