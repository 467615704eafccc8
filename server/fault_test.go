package server_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate/internal/faultnet"
	"github.com/toolgate/toolgate/internal/stacktest"
	"github.com/toolgate/toolgate/store/postgres"
)

// TestDatabaseCutOff: a node whose network to PostgreSQL goes silent
// answers every request that needs the database with 503 within seconds
// (the store's call timeout), never a 500 and never an allow, says so in
// /healthz, and serves again once the network is back.
func TestDatabaseCutOff(t *testing.T) {
	dsn := os.Getenv("TOOLGATE_TEST_POSTGRES")
	if dsn == "" {
		t.Skip("TOOLGATE_TEST_POSTGRES is not set: skipping the PostgreSQL fault test")
	}
	t.Parallel()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	var r [6]byte
	rand.Read(r[:])
	schema := "tg_test_" + hex.EncodeToString(r[:])
	t.Cleanup(func() {
		if db, err := postgres.Open(context.Background(), dsn); err == nil {
			db.Pool().Exec(context.Background(), `DROP SCHEMA IF EXISTS `+schema+` CASCADE`)
			db.Close()
		}
	})
	relay := faultnet.New(t, u.Host)
	u.Host = relay.Addr()
	st, err := postgres.Open(t.Context(), u.String(), postgres.WithSchema(schema), postgres.WithMaxConns(4),
		postgres.WithOpTimeout(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s := stacktest.New(t, stacktest.On(st, t.TempDir()))
	read := map[string]any{"call": map[string]any{"id": "c1", "session": "s1", "tool": "Read", "args": map[string]any{"file_path": "README.md"}}}
	if res := s.Do("POST", "/v1/calls", s.Agent, read); res.Status != 200 || !strings.Contains(string(res.Body), `"allow"`) {
		t.Fatalf("before the cut: %d %s", res.Status, res.Body)
	}
	relay.Cut()
	for _, at := range []struct {
		method, path, token string
		body                any
	}{
		{"POST", "/v1/calls", s.Agent, map[string]any{"call": map[string]any{"id": "c2", "session": "s1", "tool": "Read", "args": map[string]any{"file_path": "README.md"}}}},
		{"POST", "/v1/calls", s.Agent, map[string]any{"call": map[string]any{"id": "c3", "session": "s2", "tool": "Bash", "args": map[string]any{"command": "git push"}}}},
		{"GET", "/v1/approvals?status=pending", s.Approver, nil},
		{"GET", "/v1/audit", s.Admin, nil},
		{"GET", "/healthz", "", nil},
	} {
		done := make(chan stacktest.Response, 1)
		start := time.Now()
		go func() { done <- s.Do(at.method, at.path, at.token, at.body) }()
		select {
		case res := <-done:
			t.Logf("%s %s: %d after %s", at.method, at.path, res.Status, time.Since(start).Round(time.Millisecond))
			if res.Status != http.StatusServiceUnavailable {
				t.Errorf("%s %s with the database cut off: %d %s, want 503", at.method, at.path, res.Status, res.Body)
			}
		case <-time.After(60 * time.Second):
			t.Fatalf("%s %s with the database cut off: no answer", at.method, at.path)
		}
	}
	// A dry run cannot be told "unavailable" by status: it fails closed
	// to ask, never allow.
	if res := s.Do("POST", "/v1/evaluate", s.Agent, map[string]any{"session": "s1", "tool": "Read", "args": map[string]any{"file_path": "README.md"}}); res.Status == 200 && strings.Contains(string(res.Body), `"allow"`) ||
		res.Status != 200 && res.Status != http.StatusServiceUnavailable {
		t.Errorf("evaluate with the database cut off: %d %s", res.Status, res.Body)
	}
	relay.Restore()
	var res stacktest.Response
	for range 40 {
		if res = s.Do("GET", "/healthz", "", nil); res.Status == 200 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if res.Status != 200 {
		t.Fatalf("healthz after the network is back: %d %s", res.Status, res.Body)
	}
	read["call"].(map[string]any)["id"] = "c4"
	if res := s.Do("POST", "/v1/calls", s.Agent, read); res.Status != 200 || !strings.Contains(string(res.Body), `"allow"`) {
		t.Fatalf("after the network is back: %d %s", res.Status, res.Body)
	}
}
