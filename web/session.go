package web

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/tokens"
)

// Cookie names. A Secure cookie takes the __Host- prefix, which browsers
// accept only with Secure, Path=/ and no Domain: no subdomain or plain
// HTTP page can set or shadow it.
const (
	cookieName       = "toolgate_session"
	secureCookieName = "__Host-toolgate_session"
	// CSRFHeader carries the session's CSRF token on every request that
	// is not a GET or HEAD.
	CSRFHeader = "X-CSRF-Token"
	// maxLoginBody bounds the body of POST /ui/login.
	maxLoginBody = 4 << 10
)

// session is one login. The cookie holds a random id; the map and the
// store are keyed by its hash, so neither gives working cookies away.
type session struct {
	id       string // public handle: devices are listed and revoked by it
	label    string
	entry    tokens.Entry
	csrf     string
	created  time.Time
	lastSeen time.Time
	expires  time.Time
	checked  time.Time // when the token was last confirmed to exist
	touched  time.Time // when lastSeen was last written to the store
	// paired devices have no idle timeout: a phone signed in for a month
	// stays signed in though it is used once a day.
	paired bool
}

// idleOut reports whether s went unused for too long.
func (u *UI) idleOut(s *session, now time.Time) bool {
	return !s.paired && now.Sub(s.lastSeen) > u.idle
}

// record is s as the store keeps it.
func (s *session) record(key string) *store.WebSession {
	r := &store.WebSession{ID: s.id, KeyHash: key, TokenName: s.entry.Name, TokenHash: s.entry.Hash, Role: string(s.entry.Role),
		Label: s.label, CSRF: s.csrf, CreatedAt: s.created, LastSeen: s.lastSeen, ExpiresAt: s.expires}
	if s.paired {
		r.TTL = s.expires.Sub(s.created)
	}
	return r
}

// fromRecord is the session a stored record describes.
func fromRecord(r *store.WebSession, now time.Time) *session {
	return &session{id: r.ID, label: r.Label, entry: tokens.Entry{Name: r.TokenName, Role: tokens.Role(r.Role), Hash: r.TokenHash},
		csrf: r.CSRF, created: r.CreatedAt, lastSeen: r.LastSeen, expires: r.ExpiresAt, checked: time.Time{}, touched: r.LastSeen,
		paired: r.TTL > 0}
}

// randomString returns n random bytes, base64url without padding.
func randomString(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("web: random: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// cookieKey returns the session key of a request's cookie, "" if it has
// none.
func cookieKey(r *http.Request) string {
	for _, name := range []string{secureCookieName, cookieName} {
		if c, err := r.Cookie(name); err == nil && c.Value != "" && len(c.Value) <= 128 {
			return sessionKey(c.Value)
		}
	}
	return ""
}

func sessionKey(cookie string) string {
	sum := sha256.Sum256([]byte(cookie))
	return hex.EncodeToString(sum[:])
}

// lookup returns the session of a request's cookie, nil if it has none or
// it ended. It extends the idle deadline and, at most every few seconds,
// checks that the session's token was not revoked and that the session is
// still stored (another node, or the devices list, may have revoked it).
// A session this process has not seen yet (after a restart) is read from
// the store.
func (u *UI) lookup(r *http.Request) *session {
	key := cookieKey(r)
	if key == "" {
		return nil
	}
	ctx := r.Context()
	now := u.now()
	u.mu.Lock()
	s := u.sessions[key]
	u.mu.Unlock()
	if s == nil {
		rec, err := u.persist.GetWebSession(ctx, key)
		if err != nil || rec.Pairing {
			return nil
		}
		s = fromRecord(rec, now)
		u.mu.Lock()
		u.sessions[key] = s
		u.mu.Unlock()
	}
	u.mu.Lock()
	ended := now.After(s.expires) || u.idleOut(s, now)
	if ended {
		delete(u.sessions, key)
	}
	recheck := !ended && now.Sub(s.checked) >= recheckInterval
	u.mu.Unlock()
	if ended {
		_ = u.persist.DeleteWebSession(ctx, s.id)
		return nil
	}
	if recheck {
		why := ""
		if !u.tokenExists(s.entry) {
			why = "its token was revoked"
		} else if _, err := u.persist.GetWebSession(ctx, key); err != nil {
			why = "it was revoked"
		}
		if why != "" {
			u.drop(ctx, key, s.id)
			u.log.Info("web session ended: "+why, "token", s.entry.Name, "device", s.label)
			return nil
		}
	}
	u.mu.Lock()
	s.lastSeen = now
	if recheck {
		s.checked = now
	}
	touch := now.Sub(s.touched) >= touchInterval
	if touch {
		s.touched = now
	}
	cp := *s
	u.mu.Unlock()
	if touch {
		_ = u.persist.TouchWebSession(ctx, s.id, now) // best effort: only the idle deadline depends on it
	}
	return &cp
}

// touchInterval is how often a session's last use is written to the
// store.
const touchInterval = time.Minute

// drop ends a session in this process and in the store.
func (u *UI) drop(ctx context.Context, key, id string) {
	u.mu.Lock()
	delete(u.sessions, key)
	u.mu.Unlock()
	_ = u.persist.DeleteWebSession(ctx, id)
}

// tokenExists reports whether the credential a session was made with is
// still stored (same name, same hash).
func (u *UI) tokenExists(e tokens.Entry) bool {
	list, err := u.tokens.List()
	if err != nil {
		return false // fail closed
	}
	for _, x := range list {
		if x.Name == e.Name && x.Hash == e.Hash {
			return true
		}
	}
	return false
}

// Authenticate is server.Deps.Authenticate: it returns the caller of a
// request that carries a live session cookie. For every method but GET and
// HEAD the request must also carry the session's CSRF token in the
// X-CSRF-Token header; without it the request is not authenticated (and
// the API answers 401), so a cross-site form or script cannot act with
// the cookie.
func (u *UI) Authenticate(r *http.Request) (tokens.Entry, bool) {
	s := u.lookup(r)
	if s == nil {
		return tokens.Entry{}, false
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		if !validCSRF(s, r.Header.Get(CSRFHeader)) {
			return tokens.Entry{}, false
		}
	}
	return s.entry, true
}

func validCSRF(s *session, got string) bool {
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(s.csrf)) == 1
}

// sessionInfo is the body of GET /ui/session and of a successful login.
type sessionInfo struct {
	Authenticated bool        `json:"authenticated"`
	Name          string      `json:"name,omitempty"`
	Role          tokens.Role `json:"role,omitempty"`
	CSRF          string      `json:"csrf,omitempty"`
	ExpiresAt     *time.Time  `json:"expires_at,omitempty"`
	// ServerTime lets the page correct its countdowns for clock skew.
	ServerTime time.Time `json:"server_time"`
}

func (u *UI) info(s *session) sessionInfo {
	in := sessionInfo{ServerTime: u.now().UTC()}
	if s != nil {
		exp := s.expires.UTC()
		in.Authenticated, in.Name, in.Role, in.CSRF, in.ExpiresAt = true, s.entry.Name, s.entry.Role, s.csrf, &exp
	}
	return in
}

// loginBody is the body of POST /ui/login.
type loginBody struct {
	Token string `json:"token"`
}

// handleLogin exchanges an approver or admin token for a session cookie.
// The body must be JSON: a cross-site form cannot send that without a
// CORS preflight, which this server never grants, so no other site can
// log a visitor in under its own token.
func (u *UI) handleLogin(w http.ResponseWriter, r *http.Request) {
	noStore(w.Header())
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		writeError(w, http.StatusUnsupportedMediaType, toolgate.EInvalid, "send the token as JSON: {\"token\": \"tg_…\"}")
		return
	}
	var body loginBody
	dec := json.NewDecoder(io.LimitReader(r.Body, maxLoginBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		writeError(w, http.StatusBadRequest, toolgate.EInvalid, "malformed login: want {\"token\": \"tg_…\"}")
		return
	}
	entry, ok := u.tokens.Verify(body.Token)
	if !ok {
		u.log.Info("web login refused: unknown token", "remote", r.RemoteAddr)
		writeError(w, http.StatusUnauthorized, toolgate.EUnauthorized, "unknown or revoked token")
		return
	}
	if !entry.Role.Allows(tokens.RoleApprover) {
		u.log.Info("web login refused: role", "token", entry.Name, "role", entry.Role)
		writeError(w, http.StatusForbidden, toolgate.EForbidden,
			fmt.Sprintf("%q is an %s token: only approver and admin tokens can sign in", entry.Name, entry.Role))
		return
	}
	now := u.now()
	s, err := u.signIn(w, r, &session{entry: entry, label: deviceLabel(r), created: now, expires: now.Add(u.ttl)})
	if err != nil {
		u.log.Error("web login", "err", err)
		writeError(w, http.StatusInternalServerError, toolgate.EInternal, "internal error")
		return
	}
	u.log.Info("web login", "token", entry.Name, "role", entry.Role, "remote", r.RemoteAddr)
	writeJSON(w, http.StatusOK, u.info(s))
}

// signIn completes s (ids, CSRF token), stores it and sets its cookie.
func (u *UI) signIn(w http.ResponseWriter, r *http.Request, s *session) (*session, error) {
	cookie, err := randomString(32)
	if err != nil {
		return nil, err
	}
	if s.csrf, err = randomString(32); err != nil {
		return nil, err
	}
	pub, err := randomString(12)
	if err != nil {
		return nil, err
	}
	s.id = "ws_" + pub
	s.lastSeen, s.checked, s.touched = s.created, s.created, s.created
	if err := u.store(r.Context(), sessionKey(cookie), s); err != nil {
		return nil, err
	}
	secure := u.secure || r.TLS != nil
	name := cookieName
	if secure {
		name = secureCookieName
	}
	http.SetCookie(w, &http.Cookie{
		Name: name, Value: cookie, Path: "/", HttpOnly: true, Secure: secure,
		SameSite: http.SameSiteStrictMode, MaxAge: int(s.expires.Sub(s.created) / time.Second),
	})
	return s, nil
}

// store adds a session to the store and the cache, first dropping ended
// ones and, at the bound, the oldest.
func (u *UI) store(ctx context.Context, key string, s *session) error {
	now := u.now()
	if err := u.persist.PutWebSession(ctx, s.record(key)); err != nil {
		return err
	}
	u.mu.Lock()
	sweep := now.Sub(u.swept) >= sweepInterval
	if sweep {
		u.swept = now
	}
	u.mu.Unlock()
	if sweep {
		_, _ = u.persist.DeleteExpiredWebSessions(ctx, now)
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	for k, x := range u.sessions {
		if now.After(x.expires) || u.idleOut(x, now) {
			delete(u.sessions, k)
		}
	}
	for len(u.sessions) >= u.max {
		var oldest string
		for k, x := range u.sessions {
			if oldest == "" || x.created.Before(u.sessions[oldest].created) {
				oldest = k
			}
		}
		delete(u.sessions, oldest) // only from the cache: the store keeps it
	}
	u.sessions[key] = s
	return nil
}

// sweepInterval is how often expired sessions are deleted from the store.
const sweepInterval = 10 * time.Minute

// deviceLabel names a browser from its User-Agent, roughly: enough for a
// person to tell their phone from their laptop in the devices list.
func deviceLabel(r *http.Request) string {
	ua := r.Header.Get("User-Agent")
	var browser, system string
	for _, b := range []string{"Firefox", "Edg", "Chrome", "Safari"} {
		if strings.Contains(ua, b+"/") {
			browser = map[string]string{"Edg": "Edge"}[b]
			if browser == "" {
				browser = b
			}
			break
		}
	}
	for _, o := range []string{"Android", "iPhone", "iPad", "Windows", "Mac OS", "Linux"} {
		if strings.Contains(ua, o) {
			system = o
			break
		}
	}
	switch {
	case browser != "" && system != "":
		return browser + " on " + system
	case browser != "":
		return browser
	case system != "":
		return system
	}
	return "browser"
}

// handleLogout ends the session. It needs the CSRF token, like every state
// change; without a session it only clears the cookie.
func (u *UI) handleLogout(w http.ResponseWriter, r *http.Request) {
	noStore(w.Header())
	if s := u.lookup(r); s != nil {
		if !validCSRF(s, r.Header.Get(CSRFHeader)) {
			writeError(w, http.StatusForbidden, toolgate.EForbidden, "missing or wrong "+CSRFHeader+" header")
			return
		}
		u.drop(r.Context(), cookieKey(r), s.id)
		u.log.Info("web logout", "token", s.entry.Name)
	}
	for _, name := range []string{cookieName, secureCookieName} {
		if _, err := r.Cookie(name); err == nil {
			http.SetCookie(w, &http.Cookie{Name: name, Value: "", Path: "/", HttpOnly: true,
				Secure: name == secureCookieName || u.secure || r.TLS != nil, SameSite: http.SameSiteStrictMode, MaxAge: -1})
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

// handleSession says who the caller is and gives the page its CSRF token.
// Without a session it answers 200 with authenticated false, so the page
// can show its login form without an error in the console.
func (u *UI) handleSession(w http.ResponseWriter, r *http.Request) {
	noStore(w.Header())
	writeJSON(w, http.StatusOK, u.info(u.lookup(r)))
}

func noStore(h http.Header) {
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
}

// writeJSON writes v as JSON; an encoding error can only be a bug and
// becomes a 500.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"error":{"code":"internal","message":"internal error"}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// writeError writes an error in the API's format.
func writeError(w http.ResponseWriter, status int, code toolgate.ErrorCode, msg string) {
	type detail struct {
		Code    toolgate.ErrorCode `json:"code"`
		Message string             `json:"message"`
	}
	writeJSON(w, status, struct {
		Error detail `json:"error"`
	}{detail{code, msg}})
}

// errNoAudit is returned when the UI has no audit source.
var errNoAudit = errors.New("web: no audit source configured")
