package cli

import (
	"context"
	"net"
	"testing"
	"time"
)

// TestStoreTimeoutReachesPostgres: the store timeout a node is given
// bounds opening its PostgreSQL store too, so a database that accepts
// connections and never answers fails the start after it, not after the
// default's 5 s.
func TestStoreTimeoutReachesPostgres(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() }) // held open, never answered
		}
	}()
	url := "postgres://toolgate@" + ln.Addr().String() + "/toolgate?sslmode=disable"
	b, ok := stores(storeOptions{timeout: 300 * time.Millisecond}).Lookup(url)
	if !ok {
		t.Fatal("no backend for postgres://")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	st, err := b.Open(ctx, url)
	if err == nil {
		st.Close()
		t.Fatal("opened a database that never answers")
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("opening gave up after %v: the 300ms store timeout did not reach the store", took)
	}
}
