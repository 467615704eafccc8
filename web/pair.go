package web

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	qrcode "github.com/skip2/go-qrcode"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/tokens"
)

// Pairing defaults and bounds.
const (
	// PairCodeTTL is how long a pairing code can be redeemed.
	PairCodeTTL = 10 * time.Minute
	// DefaultDeviceTTL is how long a paired device stays signed in.
	DefaultDeviceTTL = 30 * 24 * time.Hour
	// MaxDeviceTTL bounds it.
	MaxDeviceTTL = 365 * 24 * time.Hour
	// PairPath is where pairing links point: PairPath + code.
	PairPath = "/ui/pair/"
)

// caller authenticates a request to the pairing and devices endpoints: a
// bearer token (the CLI) or a session cookie with, for a state change,
// its CSRF token (the page). Either must be an approver or an admin.
func (u *UI) caller(w http.ResponseWriter, r *http.Request) (tokens.Entry, *session, bool) {
	if h := r.Header.Get("Authorization"); h != "" {
		tok, ok := strings.CutPrefix(h, "Bearer ")
		e, valid := u.tokens.Verify(strings.TrimSpace(tok))
		if !ok || !valid {
			writeError(w, http.StatusUnauthorized, toolgate.EUnauthorized, "unknown or revoked token")
			return tokens.Entry{}, nil, false
		}
		if !e.Role.Allows(tokens.RoleApprover) {
			writeError(w, http.StatusForbidden, toolgate.EForbidden, fmt.Sprintf("%q is an %s token: devices need an approver or admin", e.Name, e.Role))
			return tokens.Entry{}, nil, false
		}
		return e, nil, true
	}
	s := u.lookup(r)
	if s == nil {
		writeError(w, http.StatusUnauthorized, toolgate.EUnauthorized, "sign in first")
		return tokens.Entry{}, nil, false
	}
	if r.Method != http.MethodGet && !validCSRF(s, r.Header.Get(CSRFHeader)) {
		writeError(w, http.StatusForbidden, toolgate.EForbidden, "missing or wrong "+CSRFHeader+" header")
		return tokens.Entry{}, nil, false
	}
	return s.entry, s, true
}

// pairRequest is the body of POST /ui/pair.
type pairRequest struct {
	// Label names the device ("alice's phone").
	Label string `json:"label"`
	// TTL is how long the device stays signed in ("720h"); default 30 days.
	TTL string `json:"ttl"`
	// PublicURL is the gateway's address as the device reaches it;
	// default the address the request came to.
	PublicURL string `json:"public_url"`
}

// pairResponse is what POST /ui/pair answers.
type pairResponse struct {
	URL       string    `json:"url"`
	ExpiresAt time.Time `json:"expires_at"`
	DeviceTTL string    `json:"device_ttl"`
	// QR is a PNG of the URL as a data: URL, for the page to show.
	QR string `json:"qr"`
}

// handlePair makes a one-time pairing code: whoever opens its link
// within PairCodeTTL and confirms is signed in as an approver, under the
// credential of the person who paired, for the chosen time.
func (u *UI) handlePair(w http.ResponseWriter, r *http.Request) {
	noStore(w.Header())
	entry, _, ok := u.caller(w, r)
	if !ok {
		return
	}
	var req pairRequest
	if r.ContentLength != 0 {
		dec := json.NewDecoder(io.LimitReader(r.Body, maxLoginBody))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil && err != io.EOF {
			writeError(w, http.StatusBadRequest, toolgate.EInvalid, "malformed pairing request: want {\"label\", \"ttl\", \"public_url\"}")
			return
		}
	}
	ttl := DefaultDeviceTTL
	if req.TTL != "" {
		d, err := time.ParseDuration(req.TTL)
		if err != nil || d < time.Minute || d > MaxDeviceTTL {
			writeError(w, http.StatusBadRequest, toolgate.EInvalid, fmt.Sprintf("ttl %q: want a duration from 1m to %s", req.TTL, MaxDeviceTTL))
			return
		}
		ttl = d
	}
	base := req.PublicURL
	if base == "" {
		scheme := "http"
		if r.TLS != nil || u.secure {
			scheme = "https"
		}
		if !validHost(r.Host) {
			writeError(w, http.StatusBadRequest, toolgate.EInvalid, "bad Host header: give public_url")
			return
		}
		base = scheme + "://" + r.Host
	}
	if p, err := url.Parse(base); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" || p.User != nil {
		writeError(w, http.StatusBadRequest, toolgate.EInvalid, fmt.Sprintf("public_url %q: want http(s)://host[:port]", req.PublicURL))
		return
	}
	label := strings.TrimSpace(req.Label)
	if len(label) > 100 {
		label = label[:100]
	}
	if label == "" {
		label = "paired device"
	}
	code, err := randomString(32)
	var pub string
	if err == nil {
		pub, err = randomString(12)
	}
	if err != nil {
		writeError(w, http.StatusInternalServerError, toolgate.EInternal, "internal error")
		return
	}
	now := u.now()
	rec := &store.WebSession{ID: "pr_" + pub, KeyHash: sessionKey(code), Pairing: true, TokenName: entry.Name, TokenHash: entry.Hash,
		Role: string(tokens.RoleApprover), Label: label, TTL: ttl, CreatedAt: now, LastSeen: now, ExpiresAt: now.Add(PairCodeTTL)}
	if err := u.persist.PutWebSession(r.Context(), rec); err != nil {
		u.log.Error("pairing", "err", err)
		writeError(w, http.StatusInternalServerError, toolgate.EInternal, "internal error")
		return
	}
	link := strings.TrimRight(base, "/") + PairPath + code
	png, err := qrcode.Encode(link, qrcode.Medium, 256)
	if err != nil {
		writeError(w, http.StatusInternalServerError, toolgate.EInternal, "internal error")
		return
	}
	u.log.Info("pairing code issued", "by", entry.Name, "label", label, "device_ttl", ttl)
	writeJSON(w, http.StatusOK, pairResponse{URL: link, ExpiresAt: rec.ExpiresAt.UTC(), DeviceTTL: ttl.String(),
		QR: "data:image/png;base64," + base64.StdEncoding.EncodeToString(png)})
}

// pairing returns the pairing code's record, nil if the code is unknown,
// used or expired.
func (u *UI) pairing(r *http.Request, code string) *store.WebSession {
	if code == "" || len(code) > 128 {
		return nil
	}
	rec, err := u.persist.GetWebSession(r.Context(), sessionKey(code))
	if err != nil || !rec.Pairing || !u.now().Before(rec.ExpiresAt) {
		return nil
	}
	return rec
}

// handlePairPage shows what opening a pairing link does and a button to
// do it. GET never signs in: link previews and scanners fetch links.
func (u *UI) handlePairPage(w http.ResponseWriter, r *http.Request) {
	noStore(w.Header())
	page(w.Header(), r.Host)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	rec := u.pairing(r, r.PathValue("code"))
	data := map[string]any{"OK": rec != nil}
	if rec != nil {
		data["Label"], data["By"], data["TTL"] = rec.Label, rec.TokenName, rec.TTL.String()
	} else {
		w.WriteHeader(http.StatusNotFound)
	}
	_ = pairPage().Execute(w, data)
}

// handlePairRedeem signs this device in: the code is deleted (a guarded
// delete, so it works once) and a session made under the credential of
// whoever paired, as an approver.
func (u *UI) handlePairRedeem(w http.ResponseWriter, r *http.Request) {
	noStore(w.Header())
	// A cross-site form must not sign a visitor in under someone else's
	// code.
	if o := r.Header.Get("Origin"); o != "" && o != "null" {
		if p, err := url.Parse(o); err != nil || p.Host != r.Host {
			writeError(w, http.StatusForbidden, toolgate.EForbidden, "cross-origin pairing refused")
			return
		}
	}
	rec := u.pairing(r, r.PathValue("code"))
	if rec == nil || u.persist.DeleteWebSession(r.Context(), rec.ID) != nil {
		writeError(w, http.StatusForbidden, toolgate.EForbidden, "this pairing link is unknown, used or expired: make a new one with toolgate pair")
		return
	}
	entry := tokens.Entry{Name: rec.TokenName, Role: tokens.Role(rec.Role), Hash: rec.TokenHash}
	if !u.tokenExists(entry) {
		writeError(w, http.StatusForbidden, toolgate.EForbidden, "the credential that made this pairing link was revoked")
		return
	}
	now := u.now()
	if _, err := u.signIn(w, r, &session{entry: entry, label: rec.Label, created: now, expires: now.Add(rec.TTL), paired: true}); err != nil {
		u.log.Error("pairing", "err", err)
		writeError(w, http.StatusInternalServerError, toolgate.EInternal, "internal error")
		return
	}
	u.log.Info("device paired", "by", rec.TokenName, "label", rec.Label, "remote", r.RemoteAddr)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// pairPage is parsed when first used: at start-up it would cost every
// toolgate command.
var pairPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("pair").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>toolgate: sign this device in</title><link rel="stylesheet" href="/static/style.css"></head>
<body><main class="pair">
<h1>toolgate</h1>
{{if .OK}}<p>Sign this device in as an approver ({{.Label}}, paired by {{.By}}) for {{.TTL}}?</p>
<form method="post"><button type="submit">Sign in</button></form>
{{else}}<p>This pairing link is unknown, used or expired. Make a new one with <code>toolgate pair</code>.</p>{{end}}
</main></body></html>
`))
})

// device is one entry of GET /ui/devices.
type device struct {
	ID        string    `json:"id"`
	Label     string    `json:"label"`
	Token     string    `json:"token"`
	Role      string    `json:"role"`
	Paired    bool      `json:"paired"`
	Pending   bool      `json:"pending,omitempty"` // a pairing code not used yet
	Current   bool      `json:"current,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	LastSeen  time.Time `json:"last_seen"`
	ExpiresAt time.Time `json:"expires_at"`
}

// visible reports whether entry may see and revoke rec: an admin every
// session, anyone else those made with their own credential.
func visible(entry tokens.Entry, rec *store.WebSession) bool {
	return entry.Role.Allows(tokens.RoleAdmin) || (rec.TokenName == entry.Name && rec.TokenHash == entry.Hash)
}

// handleDevices lists signed-in browsers, paired devices and unused
// pairing codes.
func (u *UI) handleDevices(w http.ResponseWriter, r *http.Request) {
	noStore(w.Header())
	entry, cur, ok := u.caller(w, r)
	if !ok {
		return
	}
	recs, err := u.persist.ListWebSessions(r.Context())
	if err != nil {
		writeError(w, http.StatusInternalServerError, toolgate.EInternal, "internal error")
		return
	}
	now := u.now()
	out := []device{}
	for _, rec := range recs {
		if !visible(entry, rec) || !now.Before(rec.ExpiresAt) {
			continue
		}
		out = append(out, device{ID: rec.ID, Label: rec.Label, Token: rec.TokenName, Role: rec.Role, Paired: rec.TTL > 0,
			Pending: rec.Pairing, Current: cur != nil && cur.id == rec.ID,
			CreatedAt: rec.CreatedAt.UTC(), LastSeen: rec.LastSeen.UTC(), ExpiresAt: rec.ExpiresAt.UTC()})
	}
	writeJSON(w, http.StatusOK, map[string]any{"devices": out})
}

// handleRevokeDevice signs a device out (or cancels a pairing code).
func (u *UI) handleRevokeDevice(w http.ResponseWriter, r *http.Request) {
	noStore(w.Header())
	entry, _, ok := u.caller(w, r)
	if !ok {
		return
	}
	id := r.PathValue("id")
	recs, err := u.persist.ListWebSessions(r.Context())
	if err != nil {
		writeError(w, http.StatusInternalServerError, toolgate.EInternal, "internal error")
		return
	}
	for _, rec := range recs {
		if rec.ID != id || !visible(entry, rec) {
			continue
		}
		u.drop(r.Context(), rec.KeyHash, rec.ID)
		u.log.Info("device signed out", "by", entry.Name, "device", rec.Label, "id", rec.ID)
		w.WriteHeader(http.StatusNoContent)
		return
	}
	writeError(w, http.StatusNotFound, toolgate.ENotFound, fmt.Sprintf("no device %q", id))
}
