package sqlite_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/sqlite"
	"github.com/toolgate/toolgate/store/storetest"
)

func open(t *testing.T, path string) *sqlite.DB {
	t.Helper()
	db, err := sqlite.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func TestStore(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T) store.Store {
		return open(t, filepath.Join(t.TempDir(), "toolgate.db"))
	})
}

func TestStorePersistent(t *testing.T) {
	t.Parallel()
	storetest.RunPersistent(t, func(t *testing.T, dir string) store.Store {
		return open(t, filepath.Join(dir, "toolgate.db"))
	})
}

func TestOpenCreatesPrivateFiles(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "data", "nested", "toolgate.db")
	db := open(t, path)
	defer db.Close()
	if err := db.AppendAudit(t.Context(), storetestEntry()); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{
		path:                             0o600,
		path + "-wal":                    0o600,
		path + "-shm":                    0o600,
		filepath.Dir(path):               0o700 | os.ModeDir,
		filepath.Dir(filepath.Dir(path)): 0o700 | os.ModeDir,
	} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != want {
			t.Errorf("%s: mode %v, want %v", p, fi.Mode(), want)
		}
	}
	if db.Path() != path {
		t.Errorf("Path() = %s, want %s", db.Path(), path)
	}
}

// rawDB opens the file with the plain driver, to look under the store.
func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	return raw
}

func TestPragmas(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "toolgate.db")
	db := open(t, path)
	defer db.Close()
	var mode string
	if err := rawDB(t, path).QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if mode != "wal" {
		t.Errorf("journal_mode = %s, want wal", mode)
	}
}

func TestMigrations(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "toolgate.db")
	for range 3 { // reopening applies nothing
		db := open(t, path)
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
	raw := rawDB(t, path)
	var n, v int
	if err := raw.QueryRow(`SELECT COUNT(*), MAX(version) FROM schema_version`).Scan(&n, &v); err != nil {
		t.Fatal(err)
	}
	latest := len(migrationNames(t))
	if n != latest || v != latest {
		t.Fatalf("schema_version: %d rows, version %d; want %d rows, version %d", n, v, latest, latest)
	}

	// A database from a newer toolgate is refused, and left alone.
	if _, err := raw.Exec(`INSERT INTO schema_version (version, applied_at) VALUES (99, 0)`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	_, err := sqlite.Open(ctx, path)
	if err == nil || !strings.Contains(err.Error(), "schema version 99 is newer") {
		t.Fatalf("Open of a newer database: %v, want a schema version error", err)
	}
}

func TestAuditIsAppendOnly(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "toolgate.db")
	db := open(t, path)
	defer db.Close()
	if err := db.AppendAudit(t.Context(), storetestEntry()); err != nil {
		t.Fatal(err)
	}
	raw := rawDB(t, path)
	for _, q := range []string{`UPDATE audit SET outcome = 'allow'`, `DELETE FROM audit`} {
		if _, err := raw.Exec(q); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s: %v, want the append-only error", q, err)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	if _, err := sqlite.Open(ctx, ""); err == nil {
		t.Error("Open(\"\"): no error")
	}
	// A directory where the file should be.
	dir := t.TempDir()
	if _, err := sqlite.Open(ctx, dir); err == nil {
		t.Error("Open of a directory: no error")
	}
}

func TestOddPath(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "a dir?with#odd%chars", "toolgate.db")
	db := open(t, path)
	defer db.Close()
	if err := db.AppendAudit(t.Context(), storetestEntry()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("database not at %s: %v", path, err)
	}
}

func migrationNames(t *testing.T) []string {
	t.Helper()
	names, err := filepath.Glob("migrations/*.sql")
	if err != nil || len(names) == 0 {
		t.Fatalf("migrations: %v %v", names, err)
	}
	return names
}

// TestMigrateFromVersion1 opens a database written by the first schema:
// its approvals and sessions survive, with an empty digest and owner.
func TestMigrateFromVersion1(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "toolgate.db")
	v1, err := os.ReadFile("migrations/0001_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	raw := rawDB(t, path)
	for _, q := range []string{
		string(v1),
		`CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)`,
		`INSERT INTO schema_version VALUES (1, 0)`,
		`INSERT INTO approvals (id, session, call_id, workspace, status, call, decision)
			VALUES ('a1', 's1', 'c1', 'w1', 'pending', '{"id":"c1","tool":"Bash"}', '{"action":"ask"}')`,
		`INSERT INTO sessions VALUES ('s1', 'w1', 'default', 0, 0, 0, 0, 0)`,
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	raw.Close()
	db := open(t, path)
	defer db.Close()
	a, err := db.GetApproval(t.Context(), "a1")
	if err != nil || a.Digest != "" || a.Call.Tool != "Bash" {
		t.Fatalf("approval after migration: %+v, %v", a, err)
	}
	s, err := db.GetSession(t.Context(), "s1")
	if err != nil || s.Owner != "" || s.Workspace != "w1" {
		t.Fatalf("session after migration: %+v, %v", s, err)
	}
}

// TestDiskFull: a write the disk cannot take (here a database at its
// size bound, which SQLite reports as SQLITE_FULL like a full disk) is
// EUnavailable naming the cause, and the store stays usable for reads.
func TestDiskFull(t *testing.T) {
	t.Parallel()
	db, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "toolgate.db"), sqlite.WithMaxSize(256<<10))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var werr error
	for i := 0; i < 10000 && werr == nil; i++ {
		e := storetestEntry()
		e.Data = []byte(`{"pad":"` + strings.Repeat("x", 4000) + `"}`)
		werr = db.AppendAudit(t.Context(), e)
	}
	if toolgate.ErrorCodeOf(werr) != toolgate.EUnavailable || !errors.Is(werr, store.ErrUnavailable) || !strings.Contains(toolgate.ErrorMessageOf(werr), "disk full") {
		t.Fatalf("write past the bound: %v (code %s)", werr, toolgate.ErrorCodeOf(werr))
	}
	if _, err := db.ListSessions(t.Context(), store.SessionFilter{Limit: 1}); err != nil {
		t.Fatalf("read after a full disk: %v", err)
	}
}

// TestStalledWrite: a write that cannot commit in time (here another
// process holds the database's write lock, and the busy timeout is
// longer than the write timeout) fails with EUnavailable (a 503) when
// the write timeout ends, not when the lock is let go; writes work again
// once it is.
func TestStalledWrite(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "toolgate.db")
	db, err := sqlite.Open(t.Context(), path, sqlite.WithBusyTimeout(time.Minute), sqlite.WithWriteTimeout(300*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	conn, err := raw.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(t.Context(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		done := make(chan error, 1)
		go func() { done <- db.AppendAudit(context.Background(), storetestEntry()) }()
		select {
		case err := <-done:
			if toolgate.ErrorCodeOf(err) != toolgate.EUnavailable || !errors.Is(err, store.ErrUnavailable) {
				t.Fatalf("write %d behind another process's lock: %v (code %s), want unavailable", i, err, toolgate.ErrorCodeOf(err))
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("write %d behind another process's lock: no answer", i)
		}
	}
	if _, err := conn.ExecContext(t.Context(), "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	var werr error
	for range 50 {
		if werr = db.AppendAudit(t.Context(), storetestEntry()); werr == nil {
			break
		}
	}
	if werr != nil {
		t.Fatalf("write after the lock was let go: %v", werr)
	}
}
