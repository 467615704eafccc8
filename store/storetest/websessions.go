package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
)

// testWebSessions checks store.WebSessions, for stores that implement it:
// round trip by key hash, touch, list, guarded delete (a pairing code
// redeemed once under contention) and expiry.
func testWebSessions(t *testing.T, s store.Store) {
	ws, ok := s.(store.WebSessions)
	if !ok {
		t.Skipf("%T does not implement store.WebSessions: web sessions stay in memory and end with a restart", s)
	}
	ctx := context.Background()
	t0 := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	a := &store.WebSession{ID: "ws_a", KeyHash: "hash-a", TokenName: "alice", TokenHash: "th-a", Role: "approver",
		Label: "alice's phone", CSRF: "csrf-a", CreatedAt: t0, LastSeen: t0, ExpiresAt: t0.Add(time.Hour)}
	p := &store.WebSession{ID: "ws_p", KeyHash: "hash-p", Pairing: true, TokenName: "alice", TokenHash: "th-a", Role: "approver",
		TTL: 30 * 24 * time.Hour, CreatedAt: t0.Add(time.Second), LastSeen: t0.Add(time.Second), ExpiresAt: t0.Add(10 * time.Minute)}
	for _, x := range []*store.WebSession{a, p} {
		if err := ws.PutWebSession(ctx, x); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ws.GetWebSession(ctx, "hash-a")
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != a.ID || got.TokenName != "alice" || got.TokenHash != "th-a" || got.Role != "approver" || got.Label != a.Label ||
		got.CSRF != "csrf-a" || !got.ExpiresAt.Equal(a.ExpiresAt) || !got.CreatedAt.Equal(t0) || got.Pairing {
		t.Fatalf("round trip: %+v", got)
	}
	if got, err := ws.GetWebSession(ctx, "hash-p"); err != nil || !got.Pairing || got.TTL != p.TTL {
		t.Fatalf("pairing round trip: %+v %v", got, err)
	}
	code(t, "get unknown hash", func() error { _, err := ws.GetWebSession(ctx, "nope"); return err }(), toolgate.ENotFound)
	// Another session with the same key hash is refused.
	dup := *a
	dup.ID = "ws_dup"
	code(t, "duplicate key hash", ws.PutWebSession(ctx, &dup), toolgate.EConflict)

	if err := ws.TouchWebSession(ctx, "ws_a", t0.Add(5*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got, _ := ws.GetWebSession(ctx, "hash-a"); !got.LastSeen.Equal(t0.Add(5 * time.Minute)) {
		t.Fatalf("touch: last seen %v", got.LastSeen)
	}
	code(t, "touch unknown", ws.TouchWebSession(ctx, "nope", t0), toolgate.ENotFound)

	list, err := ws.ListWebSessions(ctx)
	if err != nil || len(list) != 2 || list[0].ID != "ws_a" || list[1].ID != "ws_p" {
		t.Fatalf("list: %v %v", list, err)
	}

	// Redeeming a pairing code is a guarded delete: exactly one of many
	// concurrent redeemers wins.
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := 0
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if ws.DeleteWebSession(ctx, "ws_p") == nil {
				mu.Lock()
				wins++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if wins != 1 {
		t.Fatalf("pairing code redeemed %d times", wins)
	}
	code(t, "get deleted", func() error { _, err := ws.GetWebSession(ctx, "hash-p"); return err }(), toolgate.ENotFound)

	n, err := ws.DeleteExpiredWebSessions(ctx, t0.Add(30*time.Minute))
	if err != nil || n != 0 {
		t.Fatalf("expired before its time: %d %v", n, err)
	}
	n, err = ws.DeleteExpiredWebSessions(ctx, t0.Add(time.Hour))
	if err != nil || n != 1 {
		t.Fatalf("delete expired: %d %v", n, err)
	}
	code(t, "get expired", func() error { _, err := ws.GetWebSession(ctx, "hash-a"); return err }(), toolgate.ENotFound)
}
