package server

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"sync/atomic"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/server/mount"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/tokens"
)

// Deps is what the server needs. Broker, Policies, Rules and Tokens are
// required; the rest have defaults.
type Deps struct {
	Broker   *approval.Broker
	Policies *approval.Workspaces
	Rules    store.Rules
	Tokens   *tokens.Store
	// Store, when set, receives a rules.changed audit entry for every PUT
	// of a rules document.
	Store store.Store
	// Logger gets one line per request (default: discard).
	Logger *slog.Logger
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Limits bound requests; zero fields take the defaults.
	Limits Limits
	// AllowedOrigins are extra WebSocket origins (host patterns, as
	// github.com/coder/websocket's OriginPatterns) besides the request's
	// own host. Connections without an Origin header are always accepted.
	AllowedOrigins []string
	// PublicMetrics serves /metrics without authentication.
	PublicMetrics bool
	// Authenticate, when set, is asked for requests that carry no
	// Authorization header (the web UI's session cookie, for example).
	Authenticate func(r *http.Request) (tokens.Entry, bool)
	// Metrics, when set, writes more metrics (the notifiers' health) after
	// the server's own on /metrics, in the Prometheus text format.
	Metrics func(w io.Writer)
	// Health, when set, replaces the store check of /healthz.
	Health func(ctx context.Context) error
	// NoFileReads stops GET /v1/approvals/{id}/before from reading the
	// files calls name (old against new for writes and edits): for a
	// gateway on another machine than its agents, where those paths name
	// other files. Cards then show the new content alone.
	NoFileReads bool
	// Home is the home directory whose sensitive files are never shown
	// in a card (default: the gateway user's).
	Home string
	// Mounts are routes other packages contribute (the seed protocols'
	// endpoints, the web UI). They go through the same adapter as the
	// API's own routes and are documented by their packages, not by
	// openapi.json.
	Mounts []mount.Route
}

// Limits bound what one request may ask for.
type Limits struct {
	// MaxBodyBytes bounds a request body (default 1 MiB).
	MaxBodyBytes int64
	// MaxArgsBytes bounds one call's args as JSON (default 256 KiB).
	MaxArgsBytes int64
	// MaxRulesBytes bounds a rules document (default 256 KiB).
	MaxRulesBytes int64
	// MaxWait caps a long poll's ?wait= (default 5 minutes).
	MaxWait time.Duration
	// RatePerSecond and Burst make each token's bucket (default 50/s,
	// burst 100). A negative rate turns rate limiting off.
	RatePerSecond float64
	Burst         int
	// Heartbeat is the interval of Server-Sent Events comments and
	// WebSocket pings (default 15 s).
	Heartbeat time.Duration
	// WriteTimeout bounds writing one event to a stream (default 10 s).
	WriteTimeout time.Duration
	// FailedAuthPerSecond and FailedAuthBurst bound the unknown or revoked
	// bearer tokens one client address may present (default 0.2/s, burst
	// 20): past that its requests are 429 until the bucket refills, so a
	// token cannot be guessed by brute force. Negative turns it off.
	FailedAuthPerSecond float64
	FailedAuthBurst     int
	// MaxHoldsPerToken bounds the requests one credential may hold open
	// waiting at once on this process: long polls (?wait=), event streams
	// and mounts' blocking calls (default 64; negative: no bound). Past it
	// a request is 429 with Retry-After.
	MaxHoldsPerToken int
	// StoredBytesPerMinute bounds the request bytes one agent credential
	// may send a minute to routes that store them (calls and their
	// arguments), on this process (default 8 MiB; negative: no bound).
	// The bucket holds a minute's worth; a request that overdraws it is
	// served, and the next waits (429 with Retry-After) until it refills.
	StoredBytesPerMinute int64
	// BodyTimeout bounds receiving a request's body once its headers
	// have arrived (default 10 s); the listener's ReadHeaderTimeout
	// bounds the headers.
	BodyTimeout time.Duration
}

// Defaults.
const (
	DefaultMaxBodyBytes  = 1 << 20
	DefaultMaxArgsBytes  = 256 << 10
	DefaultMaxRulesBytes = 256 << 10
	DefaultMaxWait       = 5 * time.Minute
	DefaultRatePerSecond = 50
	DefaultBurst         = 100
	DefaultHeartbeat     = 15 * time.Second
	DefaultWriteTimeout  = 10 * time.Second
	DefaultBodyTimeout   = 10 * time.Second
	// DefaultStoredBytesPerMinute: 32 calls a minute at the largest
	// arguments (DefaultMaxArgsBytes), thousands of ordinary ones.
	DefaultStoredBytesPerMinute = 8 << 20
	// DefaultMaxHoldsPerToken: a busy agent's parallel sessions each
	// long-polling, with room to spare.
	DefaultMaxHoldsPerToken = 64
	// DefaultFailedAuthPerSecond and DefaultFailedAuthBurst: twenty wrong
	// tokens from one address, then one more every five seconds.
	DefaultFailedAuthPerSecond = 0.2
	DefaultFailedAuthBurst     = 20
	// MaxAuditLimit is the most audit entries one request returns.
	MaxAuditLimit = 1000
	// DefaultAuditLimit is how many it returns when not told.
	DefaultAuditLimit = 100
)

func (l Limits) withDefaults() Limits {
	if l.MaxBodyBytes <= 0 {
		l.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if l.MaxArgsBytes <= 0 {
		l.MaxArgsBytes = DefaultMaxArgsBytes
	}
	if l.MaxRulesBytes <= 0 {
		l.MaxRulesBytes = DefaultMaxRulesBytes
	}
	if l.MaxWait <= 0 {
		l.MaxWait = DefaultMaxWait
	}
	if l.RatePerSecond == 0 {
		l.RatePerSecond = DefaultRatePerSecond
	}
	if l.Burst <= 0 {
		l.Burst = DefaultBurst
	}
	if l.Heartbeat <= 0 {
		l.Heartbeat = DefaultHeartbeat
	}
	if l.WriteTimeout <= 0 {
		l.WriteTimeout = DefaultWriteTimeout
	}
	if l.FailedAuthPerSecond == 0 {
		l.FailedAuthPerSecond = DefaultFailedAuthPerSecond
	}
	if l.FailedAuthBurst <= 0 {
		l.FailedAuthBurst = DefaultFailedAuthBurst
	}
	if l.BodyTimeout <= 0 {
		l.BodyTimeout = DefaultBodyTimeout
	}
	if l.StoredBytesPerMinute == 0 {
		l.StoredBytesPerMinute = DefaultStoredBytesPerMinute
	}
	if l.MaxHoldsPerToken == 0 {
		l.MaxHoldsPerToken = DefaultMaxHoldsPerToken
	}
	return l
}

// storeFault is a store failure /healthz reports.
type storeFault struct {
	at  time.Time
	msg string
}

// server holds the dependencies the handlers share.
type server struct {
	broker *approval.Broker
	// gate is the broker as a toolgate.Gate: every route that answers,
	// changes or reads as a credential goes through it, with the caller
	// in the request's context (toolgate.WithActor).
	gate     toolgate.Gate
	policies *approval.Workspaces
	rules    store.Rules
	tokens   *tokens.Store
	store    store.Store
	log      *slog.Logger
	now      func() time.Time
	limits   Limits
	origins  []string
	deps     Deps

	limiter *limiter
	// fault is the last store error that made a request answer 503, until
	// a write succeeds again; /healthz reports it.
	fault atomic.Pointer[storeFault]
	// authFails is a bucket per client address that each failed token
	// check drains.
	authFails *limiter
	// holds counts each credential's waiting requests; stored is a
	// bucket of bytes per agent credential (StoredBytesPerMinute).
	holds   *holds
	stored  *limiter
	metrics *metrics
	mux     *http.ServeMux
}

// NewServer returns the API handler. It panics if a required dependency
// is missing: that is a wiring bug, not a runtime condition.
func NewServer(deps Deps) http.Handler {
	if deps.Broker == nil || deps.Policies == nil || deps.Rules == nil || deps.Tokens == nil {
		panic("server: NewServer needs Broker, Policies, Rules and Tokens")
	}
	s := &server{
		broker: deps.Broker, gate: deps.Broker.Gate(), policies: deps.Policies, rules: deps.Rules, tokens: deps.Tokens,
		store: deps.Store, log: deps.Logger, now: deps.Now, limits: deps.Limits.withDefaults(),
		origins: deps.AllowedOrigins, deps: deps,
		mux: http.NewServeMux(),
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.deps.Home == "" {
		s.deps.Home, _ = os.UserHomeDir()
	}
	s.limiter = newLimiter(s.limits.RatePerSecond, s.limits.Burst, s.now)
	s.authFails = newLimiter(s.limits.FailedAuthPerSecond, s.limits.FailedAuthBurst, s.now)
	s.holds = newHolds(s.limits.MaxHoldsPerToken)
	s.stored = newLimiter(float64(s.limits.StoredBytesPerMinute)/60, int(s.limits.StoredBytesPerMinute), s.now)
	table := s.routes()
	for _, m := range deps.Mounts {
		table = append(table, route{Method: m.Method, Path: m.Path, Role: m.Role, handler: mountHandler(m), writeAuthErr: m.WriteError, Holds: m.Holds,
			Stores: m.Role == tokens.RoleAgent})
	}
	s.metrics = newMetrics(table)
	for i := range table {
		rt := &table[i]
		pattern := rt.Path
		if rt.Method != "" {
			pattern = rt.Method + " " + rt.Path
		}
		s.mux.Handle(pattern, s.adapt(rt))
	}
	// Anything else under /v1 answers in the API's error format.
	notFound := &route{Path: "/v1/", handler: s.handleNotFound, slot: s.metrics.unmatchedSlot()}
	s.mux.Handle("/v1/", s.adapt(notFound))
	s.watchBroker()
	return s.mux
}
