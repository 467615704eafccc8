package sqlite

import (
	"path/filepath"
	"testing"
	"time"
)

func TestConnectionPragmas(t *testing.T) {
	t.Parallel()
	db, err := Open(t.Context(), filepath.Join(t.TempDir(), "toolgate.db"), WithBusyTimeout(1234*time.Millisecond), WithReadConns(2))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, c := range []struct {
		name   string
		pragma string
		want   int
		writer bool
	}{
		{"writer synchronous", "synchronous", 2, true},
		{"writer foreign_keys", "foreign_keys", 1, true},
		{"writer busy_timeout", "busy_timeout", 1234, true},
		{"writer query_only", "query_only", 0, true},
		{"reader synchronous", "synchronous", 2, false},
		{"reader foreign_keys", "foreign_keys", 1, false},
		{"reader busy_timeout", "busy_timeout", 1234, false},
		{"reader query_only", "query_only", 1, false},
	} {
		pool := db.r
		if c.writer {
			pool = db.w
		}
		var got int
		if err := pool.QueryRow("PRAGMA " + c.pragma).Scan(&got); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got != c.want {
			t.Errorf("%s = %d, want %d", c.name, got, c.want)
		}
	}
	if got := db.r.Stats().MaxOpenConnections; got != 2 {
		t.Errorf("read pool size %d, want 2", got)
	}
	if got := db.w.Stats().MaxOpenConnections; got != 1 {
		t.Errorf("write pool size %d, want 1", got)
	}
}
