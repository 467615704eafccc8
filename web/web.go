package web

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/tokens"
)

// static holds the page and its assets, served under /static/ (and the
// page itself at /).
//
//go:embed static
var static embed.FS

// AuditLister reads the audit log, as toolgate.Gate does (the broker and
// the HTTP client satisfy it). The UI uses it to verify the log's hash
// chain.
type AuditLister interface {
	Audit(ctx context.Context, f toolgate.AuditFilter) ([]toolgate.AuditEntry, error)
}

// Defaults.
const (
	// DefaultSessionTTL is how long a login lasts at most.
	DefaultSessionTTL = 12 * time.Hour
	// DefaultIdleTimeout ends a session nobody used for this long.
	DefaultIdleTimeout = 2 * time.Hour
	// DefaultMaxSessions bounds the session map; the oldest session is
	// dropped to make room.
	DefaultMaxSessions = 1000
	// recheckInterval is how often a session confirms that its token
	// still exists, so revoking a token ends its web sessions.
	recheckInterval = 2 * time.Second
)

// Option configures a UI.
type Option func(*UI)

// WithTokens sets the credential store logins are checked against. It is
// required.
func WithTokens(t *tokens.Store) Option { return func(u *UI) { u.tokens = t } }

// WithAudit sets where the audit log is read to verify its hash chain
// (GET /ui/audit/verify); without it the endpoint answers 404.
func WithAudit(src AuditLister) Option { return func(u *UI) { u.audit = src } }

// WithClock injects the clock (default time.Now).
func WithClock(now func() time.Time) Option { return func(u *UI) { u.now = now } }

// WithSessionTTL sets how long a login lasts at most (default 12 hours).
func WithSessionTTL(d time.Duration) Option { return func(u *UI) { u.ttl = d } }

// WithIdleTimeout sets how long an unused session lasts (default 2 hours).
func WithIdleTimeout(d time.Duration) Option { return func(u *UI) { u.idle = d } }

// WithSecureCookies marks the session cookie Secure even on requests that
// did not arrive over TLS: use it behind a proxy that terminates TLS. A
// request over TLS always gets a Secure cookie.
func WithSecureCookies(on bool) Option { return func(u *UI) { u.secure = on } }

// WithSessionStore keeps sessions, paired devices and pairing codes in st
// so that they survive a restart and are shared by every node using the
// same store. Without it they live in this process's memory.
func WithSessionStore(st store.WebSessions) Option { return func(u *UI) { u.persist = st } }

// WithLogger sets the logger for logins and logouts (default discard).
func WithLogger(l *slog.Logger) Option { return func(u *UI) { u.log = l } }

// UI is the web approval inbox: its page, its assets and its login
// sessions. It is safe for concurrent use.
type UI struct {
	tokens *tokens.Store
	audit  AuditLister
	now    func() time.Time
	ttl    time.Duration
	idle   time.Duration
	secure bool
	log    *slog.Logger
	max    int

	// persist keeps sessions; a memory store unless WithSessionStore.
	persist store.WebSessions

	mu       sync.Mutex
	sessions map[string]*session // cache, by hex SHA-256 of the cookie value
	swept    time.Time           // when expired sessions were last deleted from persist

	handler http.Handler
}

// New returns the UI. It panics without WithTokens or with an audit
// source of the wrong type: those are wiring bugs, not runtime conditions.
func New(opts ...Option) *UI {
	u := &UI{now: time.Now, ttl: DefaultSessionTTL, idle: DefaultIdleTimeout, max: DefaultMaxSessions, sessions: map[string]*session{}}
	for _, o := range opts {
		o(u)
	}
	if u.tokens == nil {
		panic("web: New needs WithTokens")
	}
	if u.log == nil {
		u.log = slog.New(slog.DiscardHandler)
	}
	if u.persist == nil {
		u.persist = newMemSessions()
	}
	assets, err := fs.Sub(static, "static")
	if err != nil {
		panic("web: embedded assets: " + err.Error())
	}
	mux := http.NewServeMux()
	files := http.FileServerFS(assets)
	mux.Handle("GET /{$}", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page(w.Header(), r.Host)
		http.ServeFileFS(w, r, assets, "index.html")
	}))
	mux.Handle("GET /static/", http.StripPrefix("/static", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page(w.Header(), r.Host)
		if strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r) // no directory listings
			return
		}
		files.ServeHTTP(w, r)
	})))
	mux.HandleFunc("POST /ui/login", u.handleLogin)
	mux.HandleFunc("POST /ui/logout", u.handleLogout)
	mux.HandleFunc("GET /ui/session", u.handleSession)
	mux.HandleFunc("GET /ui/audit/verify", u.handleVerify)
	mux.HandleFunc("POST /ui/pair", u.handlePair)
	mux.HandleFunc("GET "+PairPath+"{code}", u.handlePairPage)
	mux.HandleFunc("POST "+PairPath+"{code}", u.handlePairRedeem)
	mux.HandleFunc("GET /ui/devices", u.handleDevices)
	mux.HandleFunc("DELETE /ui/devices/{id}", u.handleRevokeDevice)
	mux.HandleFunc("/ui/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, toolgate.ENotFound, "no route "+r.Method+" "+r.URL.Path)
	})
	u.handler = mux
	return u
}

// patterns are the net/http patterns the UI serves; Register mounts the
// handler at each.
var patterns = [...]string{"GET /{$}", "GET /static/", "/ui/"}

// Handler serves the page at /, its assets under /static/ and the session
// endpoints under /ui/. Anything else is 404.
func (u *UI) Handler() http.Handler { return u.handler }

// Register mounts the UI's handler on mux at each of its patterns (the
// page, /static/ and /ui/). They are
// more specific than "/", so the API can own "/" on the same mux.
func (u *UI) Register(mux *http.ServeMux) {
	for _, p := range patterns {
		mux.Handle(p, u.handler)
	}
}

// contentSecurityPolicy lets the page load only its own scripts, styles
// and images and connect only to its own origin (fetch, SSE, and the
// WebSocket, which older browsers do not count as 'self').
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'%s; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// page sets the headers of the page and its assets.
func page(h http.Header, host string) {
	ws := ""
	if validHost(host) {
		ws = " ws://" + host + " wss://" + host
	}
	h.Set("Content-Security-Policy", fmt.Sprintf(contentSecurityPolicy, ws))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	// Assets change with the binary; revalidate rather than go stale.
	h.Set("Cache-Control", "no-cache")
}

// validHost reports whether a Host header is a plain host[:port] that may
// be written into a header value.
func validHost(h string) bool {
	if h == "" || len(h) > 255 {
		return false
	}
	for _, c := range h {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune(".-:[]", c)) {
			return false
		}
	}
	return true
}
