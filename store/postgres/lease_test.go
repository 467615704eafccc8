package postgres_test

import (
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate/store/postgres"
)

// TestCheckLease: the defaults are sound; a renewal of exactly half the
// lease and a lease of exactly MaxLease pass, a hair over either fails,
// and nothing non-positive passes. No database needed.
func TestCheckLease(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	for _, tt := range []struct {
		lease, renewal time.Duration
		err            string
	}{
		{postgres.DefaultLease, postgres.DefaultLeaseRenewal, ""},
		{2 * time.Second, time.Second, ""},
		{postgres.MaxLease, 15 * time.Second, ""},
		{postgres.MaxLease, 100 * ms, ""},
		{10 * ms, 5 * ms, ""},
		{2 * time.Second, 1001 * ms, "at most half the lease"},
		{2 * time.Second, 2 * time.Second, "at most half the lease"},
		{2 * time.Second, 3 * time.Second, "at most half the lease"},
		{postgres.MaxLease + ms, time.Second, "longer than 30s"},
		{time.Hour, time.Second, "longer than 30s"},
		{0, postgres.DefaultLeaseRenewal, "positive"},
		{postgres.DefaultLease, 0, "positive"},
		{-time.Second, -2 * time.Second, "positive"},
	} {
		err := postgres.CheckLease(tt.lease, tt.renewal)
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("CheckLease(%v, %v) = %v, want %q", tt.lease, tt.renewal, err, tt.err)
		}
	}
}
