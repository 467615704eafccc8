package cli_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestNodeLeaseSettings: node_lease and node_lease_renewal in the config
// file time the lease a `toolgate serve` node holds in the shared
// database, and TOOLGATE_NODE_LEASE(_RENEWAL) override the file. Read from
// the nodes table: node A (a 12 s lease renewed every 3 s) has about 9 to
// 12 s left and renews rarely; node B (4 s every 1 s, by the variables)
// about 3 to 4 s. The defaults (2 s, every 0.5 s) would show neither.
func TestNodeLeaseSettings(t *testing.T) {
	storeURL, db := sharedStore(t)
	t.Parallel()
	ctx := context.Background()
	config := filepath.Join(t.TempDir(), "toolgate.yaml")
	if err := os.WriteFile(config, []byte("server:\n  node_lease: 12s\n  node_lease_renewal: 3s\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	bin := toolgateBinary(t)
	startGateway(t, bin, t.TempDir(), "TOOLGATE_STORE="+storeURL, "TOOLGATE_CONFIG="+config)
	startGateway(t, bin, t.TempDir(), "TOOLGATE_STORE="+storeURL, "TOOLGATE_CONFIG="+config, "TOOLGATE_NODE_LEASE=4s", "TOOLGATE_NODE_LEASE_RENEWAL=1s")

	// left returns the live leases' remaining seconds, longest first, and
	// their ends.
	left := func() (secs []float64, ends []time.Time) {
		t.Helper()
		rows, err := db.Pool().Query(ctx, `SELECT EXTRACT(EPOCH FROM lease_until - clock_timestamp())::float8, lease_until
			FROM nodes WHERE lease_until > clock_timestamp() ORDER BY lease_until DESC`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var s float64
			var end time.Time
			if err := rows.Scan(&s, &end); err != nil {
				t.Fatal(err)
			}
			secs, ends = append(secs, s), append(ends, end)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return secs, ends
	}
	deadline := time.Now().Add(15 * time.Second)
	var secs []float64
	for {
		if secs, _ = left(); len(secs) == 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if len(secs) != 2 || secs[0] < 8.5 || secs[0] > 12.5 || secs[1] < 0.5 || secs[1] > 4.5 {
		t.Fatalf("live leases with %v s left; want one of 12 s renewed every 3 s and one of 4 s", secs)
	}
	// Node A's lease end moves only when it renews: at most twice in 2.5 s
	// at a 3 s renewal (the default 0.5 s would move it about five times).
	seen := map[time.Time]bool{}
	for stop := time.Now().Add(2500 * time.Millisecond); time.Now().Before(stop); time.Sleep(50 * time.Millisecond) {
		if _, ends := left(); len(ends) > 0 {
			seen[ends[0]] = true
		}
	}
	if len(seen) > 2 {
		t.Fatalf("node A renewed its lease %d times in 2.5 s; want every 3 s", len(seen)-1)
	}
}
