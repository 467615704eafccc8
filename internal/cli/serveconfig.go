package cli

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/store/postgres"
)

// serveConfig is the server section of toolgate.yaml, overridden by
// TOOLGATE_* variables, overridden by flags.
type serveConfig struct {
	Addr               string        `yaml:"addr"`
	Data               string        `yaml:"data"`
	Store              string        `yaml:"store"`
	ApprovalTimeout    time.Duration `yaml:"approval_timeout"`
	MaxApprovalTimeout time.Duration `yaml:"max_approval_timeout"`
	SweepInterval      time.Duration `yaml:"sweep_interval"`
	TLSCert            string        `yaml:"tls_cert"`
	TLSKey             string        `yaml:"tls_key"`
	AllowRemote        bool          `yaml:"allow_remote"`
	AllowedOrigins     []string      `yaml:"allowed_origins"`
	RateLimit          float64       `yaml:"rate_limit"`
	RateBurst          int           `yaml:"rate_burst"`
	LogLevel           string        `yaml:"log_level"`
	LogFormat          string        `yaml:"log_format"`
	PublicMetrics      bool          `yaml:"public_metrics"`
	// NoFileReads stops the gateway reading the files write and edit
	// calls name to show old against new (server.Deps.NoFileReads).
	NoFileReads bool `yaml:"no_file_reads"`
	// Workspaces, if set, lists the only workspaces agent tokens may use;
	// otherwise each agent token may create WorkspacesPerToken new ones
	// (default 32, -1 for no limit).
	Workspaces         []string `yaml:"workspaces"`
	WorkspacesPerToken int      `yaml:"workspaces_per_token"`
	// MaxPendingPerSession bounds one session's pending approvals
	// (default 100, -1 for no limit).
	MaxPendingPerSession int `yaml:"max_pending_per_session"`
	// MaxPendingPerToken bounds the pending approvals of all of one agent
	// token's sessions, and SessionsPerToken the sessions it may open in
	// an hour; both counted in the store, so they hold across nodes
	// (defaults 200 and 500, -1 for no limit).
	MaxPendingPerToken int `yaml:"max_pending_per_token"`
	SessionsPerToken   int `yaml:"sessions_per_token"`
	// MaxWaitingPerToken bounds the requests one token holds open waiting
	// (long polls, event streams) on a node (default 64, -1 for none).
	MaxWaitingPerToken int `yaml:"max_waiting_per_token"`
	// StoredBytesPerMinute bounds the request bytes one agent token may
	// send a minute to be stored, on a node (default 8 MiB, -1 for none).
	StoredBytesPerMinute int64 `yaml:"stored_bytes_per_minute"`
	// BodyTimeout bounds receiving a request body (default 10s).
	BodyTimeout time.Duration `yaml:"body_timeout"`
	// ToolProfile is what new workspace documents are seeded with besides
	// the defaults: "seed002" (default) adds seed 002's SAFE and DANGEROUS
	// lists for its WebSocket clients' tools, "none" the defaults only.
	ToolProfile string `yaml:"tool_profile"`
	// NodeLease and NodeLeaseRenewal time a node's lease when nodes share
	// PostgreSQL (postgres.WithLease; postgres.CheckLease bounds them).
	NodeLease        time.Duration `yaml:"node_lease"`
	NodeLeaseRenewal time.Duration `yaml:"node_lease_renewal"`
	// StoreTimeout bounds each call of a PostgreSQL store, connecting
	// included (postgres.WithOpTimeout, default 5s; at most
	// maxStoreTimeout): a node cut off from its database answers 503
	// after it.
	StoreTimeout time.Duration `yaml:"store_timeout"`
}

// maxStoreTimeout bounds store_timeout: past a minute a node cut off
// from its database holds its callers long after /healthz says so.
const maxStoreTimeout = time.Minute

func defaultServeConfig() serveConfig {
	return serveConfig{
		Addr:            "127.0.0.1:8787",
		Data:            clibase.DataDir(),
		ApprovalTimeout: 5 * time.Minute, MaxApprovalTimeout: 24 * time.Hour,
		SweepInterval: 30 * time.Second,
		RateLimit:     50, RateBurst: 100,
		LogLevel: "info", LogFormat: "text",
		ToolProfile: "seed002",
		NodeLease:   postgres.DefaultLease, NodeLeaseRenewal: postgres.DefaultLeaseRenewal,
		StoreTimeout: postgres.DefaultOpTimeout,
	}
}

// loadServerSection reads the "server" section of a config file; the rest
// of the file is the policy loader's. Unknown keys are errors with their
// line, so a typo never silently falls back to a default.
func loadServerSection(path string, c *serveConfig) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read config: %w", err)
	}
	var doc struct {
		Server yaml.Node `yaml:"server"`
	}
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if doc.Server.Kind == 0 || doc.Server.Tag == "!!null" {
		return nil // no section, or one with every key commented out
	}
	// Decoding the section's node reports a bad value at its own line in
	// the file; the re-encoded copy below is only for unknown keys, which
	// Node.Decode does not check.
	if err := doc.Server.Decode(c); err != nil {
		return sectionError(path, "server", &doc.Server, false, err)
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	if err := enc.Encode(&doc.Server); err != nil {
		return fmt.Errorf("%s: server: %w", path, err)
	}
	dec := yaml.NewDecoder(&buf)
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil {
		return sectionError(path, "server", &doc.Server, true, err)
	}
	return nil
}

// sectionError names the file and the line of each key of a section that
// does not decode: "toolgate.yaml:7: server: cannot unmarshal !!str
// `maybe` into bool", "toolgate.yaml:9: server: unknown key rate_limt".
// err is from decoding the section's node (lines are the file's) or, when
// reencoded, a copy of it (lines are the copy's, so only a key's name
// locates it); a message that cannot be placed gets the section's line.
func sectionError(path, name string, section *yaml.Node, reencoded bool, err error) error {
	msgs := []string{strings.TrimPrefix(err.Error(), "yaml: ")}
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	out := make([]string, 0, len(msgs))
	for _, m := range msgs {
		at := section.Line
		if rest, ok := strings.CutPrefix(m, "line "); ok {
			if n, msg, ok := strings.Cut(rest, ": "); ok {
				if l, err := strconv.Atoi(n); err == nil {
					m = msg
					if !reencoded {
						at = l
					}
				}
			}
		}
		if key, ok := strings.CutPrefix(m, "field "); ok {
			if key, _, ok := strings.Cut(key, " not found"); ok {
				m = "unknown key " + key
				for i := 0; i+1 < len(section.Content); i += 2 {
					if section.Content[i].Value == key {
						at = section.Content[i].Line
					}
				}
			}
		}
		out = append(out, fmt.Sprintf("%s:%d: %s: %s", path, at, name, m))
	}
	return errors.New(strings.Join(out, "; "))
}

// applyEnv overrides settings from TOOLGATE_* variables.
func (c *serveConfig) applyEnv(getenv func(string) string) error {
	str := map[string]*string{
		"TOOLGATE_ADDR": &c.Addr, "TOOLGATE_DATA": &c.Data, "TOOLGATE_STORE": &c.Store,
		"TOOLGATE_TLS_CERT": &c.TLSCert, "TOOLGATE_TLS_KEY": &c.TLSKey,
		"TOOLGATE_LOG_LEVEL": &c.LogLevel, "TOOLGATE_LOG_FORMAT": &c.LogFormat,
	}
	for name, p := range str {
		if v := getenv(name); v != "" {
			*p = v
		}
	}
	durs := map[string]*time.Duration{
		"TOOLGATE_APPROVAL_TIMEOUT": &c.ApprovalTimeout, "TOOLGATE_SWEEP_INTERVAL": &c.SweepInterval,
		"TOOLGATE_MAX_APPROVAL_TIMEOUT": &c.MaxApprovalTimeout,
		"TOOLGATE_NODE_LEASE":           &c.NodeLease, "TOOLGATE_NODE_LEASE_RENEWAL": &c.NodeLeaseRenewal,
		"TOOLGATE_STORE_TIMEOUT": &c.StoreTimeout,
	}
	for name, p := range durs {
		if v := getenv(name); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			*p = d
		}
	}
	if v := getenv("TOOLGATE_ALLOW_REMOTE"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("TOOLGATE_ALLOW_REMOTE: %w", err)
		}
		c.AllowRemote = b
	}
	return nil
}

// check validates the settings, and refuses a listener other machines can
// reach unless it has TLS or was explicitly allowed (DESIGN §9).
func (c *serveConfig) check() error {
	if c.ApprovalTimeout <= 0 || c.SweepInterval <= 0 || c.MaxApprovalTimeout < c.ApprovalTimeout {
		return fmt.Errorf("approval_timeout and sweep_interval must be positive and max_approval_timeout at least approval_timeout")
	}
	if (c.TLSCert == "") != (c.TLSKey == "") {
		return fmt.Errorf("tls_cert and tls_key go together")
	}
	host, _, err := net.SplitHostPort(c.Addr)
	if err != nil {
		return fmt.Errorf("addr %q: %w", c.Addr, err)
	}
	if !isLoopback(host) && c.TLSCert == "" && !c.AllowRemote {
		return fmt.Errorf("addr %s can be reached from other machines: configure tls_cert/tls_key, or set allow_remote (--allow-remote) if something else terminates TLS", c.Addr)
	}
	if c.Data == "" {
		return fmt.Errorf("no data directory: set --data or $XDG_DATA_HOME")
	}
	if _, err := c.defaultRules(); err != nil {
		return err
	}
	return c.checkLease()
}

// checkLease validates the lease and store timeout settings, which only
// nodes sharing a store use: set with another store they would do
// nothing, and a setting that silently does nothing is refused like an
// unknown key.
func (c *serveConfig) checkLease() error {
	if b, ok := stores(storeOptions{}).Lookup(defaultStore(c.Store)); !ok || !b.Shared {
		if c.NodeLease != postgres.DefaultLease || c.NodeLeaseRenewal != postgres.DefaultLeaseRenewal {
			return fmt.Errorf("node_lease and node_lease_renewal (--node-lease, --node-lease-renewal) apply only to nodes sharing a postgres:// store")
		}
		if c.StoreTimeout != postgres.DefaultOpTimeout {
			return fmt.Errorf("store_timeout (--store-timeout) applies only to a postgres:// store")
		}
		return nil
	}
	if c.StoreTimeout <= 0 || c.StoreTimeout > maxStoreTimeout {
		return fmt.Errorf("store_timeout %v: want more than 0 and at most %v", c.StoreTimeout, maxStoreTimeout)
	}
	if err := postgres.CheckLease(c.NodeLease, c.NodeLeaseRenewal); err != nil {
		return fmt.Errorf("node_lease, node_lease_renewal: %w", err)
	}
	return nil
}

// defaultRules is the text new workspace documents are seeded with.
func (c *serveConfig) defaultRules() ([]byte, error) {
	switch c.ToolProfile {
	case "seed002":
		return policy.Seed002RulesJSONC(), nil
	case "none":
		return policy.DefaultRulesJSONC(), nil
	}
	return nil, fmt.Errorf("tool_profile %q: want seed002 or none", c.ToolProfile)
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
