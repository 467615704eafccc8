package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate/internal/clibase"
)

// settings runs serveSettings as runServe does: a config file with the
// given server section (none if empty) and serve's flags.
func settings(t *testing.T, section string, args ...string) (serveConfig, error) {
	t.Helper()
	dir := t.TempDir()
	config := filepath.Join(dir, "toolgate.yaml")
	if err := os.WriteFile(config, []byte("server:\n"+section), 0o600); err != nil {
		t.Fatal(err)
	}
	fs := clibase.NewFlagSet("serve", io.Discard)
	var flags serveFlags
	flags.define(fs)
	if err := clibase.ParseFlags(fs, append([]string{"--data", filepath.Join(dir, "data")}, args...)); err != nil {
		t.Fatal(err)
	}
	cfg, _, _, err := serveSettings(fs, config, &flags)
	return cfg, err
}

// TestServeSettingsNoFileReads: no_file_reads in the server section turns
// file reads off as --no-file-reads does; a flag given overrides the file
// either way, and a value that is not a boolean is refused with the file,
// its line and the key.
func TestServeSettingsNoFileReads(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, section string
		args          []string
		want          bool
		err           string
	}{
		{name: "default", want: false},
		{name: "config", section: "  no_file_reads: true\n", want: true},
		{name: "config off", section: "  no_file_reads: false\n", want: false},
		{name: "flag", args: []string{"--no-file-reads"}, want: true},
		{name: "flag over config", section: "  no_file_reads: true\n", args: []string{"--no-file-reads=false"}, want: false},
		{name: "flag on over config off", section: "  no_file_reads: false\n", args: []string{"--no-file-reads"}, want: true},
		{name: "not a boolean", section: "  addr: 127.0.0.1:0\n  no_file_reads: maybe\n", err: "toolgate.yaml:3: server: cannot unmarshal !!str `maybe` into bool"},
		{name: "a list", section: "\n  # off-site gateway\n  no_file_reads: [true]\n", err: "toolgate.yaml:4: server: cannot unmarshal !!seq into bool"},
		{name: "misspelt", section: "  addr: 127.0.0.1:0\n\n  no_file_read: true\n", err: "toolgate.yaml:4: server: unknown key no_file_read"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := settings(t, tt.section, tt.args...)
			switch {
			case tt.err != "":
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want one containing %q", err, tt.err)
				}
			case err != nil:
				t.Fatal(err)
			case cfg.NoFileReads != tt.want:
				t.Fatalf("NoFileReads = %v, want %v", cfg.NoFileReads, tt.want)
			}
		})
	}
}

// TestServeSettingsNodeLease: node_lease and node_lease_renewal time a
// PostgreSQL node's lease, flags over the file; a lease over
// postgres.MaxLease, a renewal over half the lease (the default lease's
// too), a non-positive value or one that is not a duration is refused,
// and so is either setting with a store that holds no leases, unless it is
// the default.
func TestServeSettingsNodeLease(t *testing.T) {
	t.Parallel()
	const pg = "--store=postgres://db.example/toolgate"
	for _, tt := range []struct {
		name, section  string
		args           []string
		lease, renewal time.Duration
		err            string
	}{
		{name: "defaults", args: []string{pg}, lease: 2 * time.Second, renewal: 500 * time.Millisecond},
		{name: "config", section: "  node_lease: 10s\n  node_lease_renewal: 2s\n", args: []string{pg}, lease: 10 * time.Second, renewal: 2 * time.Second},
		{name: "store in config", section: "  store: postgres://db/tg\n  node_lease: 1m0s\n", args: []string{"--node-lease=30s"}, lease: 30 * time.Second, renewal: 500 * time.Millisecond},
		{name: "flag over config", section: "  node_lease: 10s\n  node_lease_renewal: 2s\n", args: []string{pg, "--node-lease=4s"}, lease: 4 * time.Second, renewal: 2 * time.Second},
		{name: "renewal half the lease", args: []string{pg, "--node-lease=3s", "--node-lease-renewal=1.5s"}, lease: 3 * time.Second, renewal: 1500 * time.Millisecond},
		{name: "renewal over half the lease", args: []string{pg, "--node-lease=3s", "--node-lease-renewal=1501ms"}, err: "renewal 1.501s must be at most half the lease (1.5s)"},
		{name: "renewal over half the default lease", section: "  node_lease_renewal: 1.5s\n", args: []string{pg}, err: "at most half the lease (1s)"},
		{name: "renewal over the flag's lease", section: "  node_lease: 10s\n  node_lease_renewal: 4s\n", args: []string{pg, "--node-lease=6s"}, err: "at most half the lease (3s)"},
		{name: "lease over the cap", args: []string{pg, "--node-lease=31s"}, err: "lease 31s is longer than 30s"},
		{name: "zero lease", section: "  node_lease: 0s\n", args: []string{pg}, err: "must both be positive"},
		{name: "negative renewal", args: []string{pg, "--node-lease-renewal=-1s"}, err: "must both be positive"},
		{name: "not a duration", section: "  node_lease: fast\n", args: []string{pg}, err: "toolgate.yaml:2: server: cannot unmarshal !!str `fast` into time.Duration"},
		{name: "sqlite with a lease", section: "  node_lease: 10s\n", err: "apply only to nodes sharing a postgres:// store"},
		{name: "sqlite with a renewal flag", args: []string{"--node-lease-renewal=100ms"}, err: "apply only to nodes sharing a postgres:// store"},
		{name: "sqlite with the default lease", section: "  node_lease: 2s\n", lease: 2 * time.Second, renewal: 500 * time.Millisecond},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := settings(t, tt.section, tt.args...)
			switch {
			case tt.err != "":
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want one containing %q", err, tt.err)
				}
			case err != nil:
				t.Fatal(err)
			case cfg.NodeLease != tt.lease || cfg.NodeLeaseRenewal != tt.renewal:
				t.Fatalf("lease %v renewed every %v, want %v and %v", cfg.NodeLease, cfg.NodeLeaseRenewal, tt.lease, tt.renewal)
			}
		})
	}
}

// TestServeSettingsStoreTimeout: store_timeout bounds each call of a
// PostgreSQL store, from the file, TOOLGATE_STORE_TIMEOUT or the flag
// (which wins); zero, negative, over a minute, or set with SQLite (other
// than the default) is refused.
func TestServeSettingsStoreTimeout(t *testing.T) {
	t.Parallel()
	const pg = "--store=postgres://db.example/toolgate"
	for _, tt := range []struct {
		name, section string
		args          []string
		want          time.Duration
		err           string
	}{
		{name: "default", args: []string{pg}, want: 5 * time.Second},
		{name: "config", section: "  store_timeout: 2s\n", args: []string{pg}, want: 2 * time.Second},
		{name: "flag over config", section: "  store_timeout: 2s\n", args: []string{pg, "--store-timeout=750ms"}, want: 750 * time.Millisecond},
		{name: "a minute", args: []string{pg, "--store-timeout=1m"}, want: time.Minute},
		{name: "over a minute", args: []string{pg, "--store-timeout=61s"}, err: "at most 1m0s"},
		{name: "zero", section: "  store_timeout: 0s\n", args: []string{pg}, err: "want more than 0"},
		{name: "not a duration", section: "  store_timeout: soon\n", args: []string{pg}, err: "toolgate.yaml:2: server: cannot unmarshal !!str `soon` into time.Duration"},
		{name: "sqlite", section: "  store_timeout: 2s\n", err: "applies only to a postgres:// store"},
		{name: "sqlite, the default", args: []string{"--store-timeout=5s"}, want: 5 * time.Second},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := settings(t, tt.section, tt.args...)
			switch {
			case tt.err != "":
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want one containing %q", err, tt.err)
				}
			case err != nil:
				t.Fatal(err)
			case cfg.StoreTimeout != tt.want:
				t.Fatalf("store timeout %v, want %v", cfg.StoreTimeout, tt.want)
			}
		})
	}
	env := map[string]string{"TOOLGATE_STORE": "postgres://db/tg", "TOOLGATE_STORE_TIMEOUT": "3s"}
	cfg := defaultServeConfig()
	if err := cfg.applyEnv(func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	if err := cfg.check(); err != nil || cfg.StoreTimeout != 3*time.Second {
		t.Fatalf("from the environment: %v, %v", cfg.StoreTimeout, err)
	}
}

// TestServeEnvNodeLease: TOOLGATE_NODE_LEASE and
// TOOLGATE_NODE_LEASE_RENEWAL set the lease as the other durations are
// set, and a value that is no duration names its variable.
func TestServeEnvNodeLease(t *testing.T) {
	t.Parallel()
	env := map[string]string{"TOOLGATE_STORE": "postgres://db/tg", "TOOLGATE_NODE_LEASE": "8s", "TOOLGATE_NODE_LEASE_RENEWAL": "1s"}
	cfg := defaultServeConfig()
	if err := cfg.applyEnv(func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	if err := cfg.check(); err != nil || cfg.NodeLease != 8*time.Second || cfg.NodeLeaseRenewal != time.Second {
		t.Fatalf("lease %v every %v: %v", cfg.NodeLease, cfg.NodeLeaseRenewal, err)
	}
	env["TOOLGATE_NODE_LEASE_RENEWAL"] = "often"
	if err := cfg.applyEnv(func(k string) string { return env[k] }); err == nil || !strings.Contains(err.Error(), "TOOLGATE_NODE_LEASE_RENEWAL") {
		t.Fatalf("bad duration: %v", err)
	}
}
