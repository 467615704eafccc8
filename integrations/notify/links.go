package notify

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/present"
	"github.com/toolgate/toolgate/server/mount"
	"github.com/toolgate/toolgate/tokens"
)

// LinkPath is where answer links point: LinkPath + token.
const LinkPath = "/answer/"

// maxLinkLen bounds a link token: anything longer is not one of ours.
const maxLinkLen = 1024

// claim is what a link token carries, signed.
type claim struct {
	Approval  string `json:"a"`
	Answer    Answer `json:"o"`
	Recipient string `json:"r"`
	Expires   int64  `json:"e"`
	Nonce     string `json:"n"`
}

// Links issues and redeems signed one-time answer links. The key never
// leaves the gateway; a link grants one answer to one approval, issued to
// one recipient, until the approval's expiry, once.
type Links struct {
	key []byte
	now func() time.Time

	mu   sync.Mutex
	used map[string]int64 // nonce → expiry, so a link works once
}

// NewLinks returns links signed with key (at least 32 bytes).
func NewLinks(key []byte, now func() time.Time) (*Links, error) {
	if len(key) < 32 {
		return nil, errors.New("notify: link key must be at least 32 bytes")
	}
	if now == nil {
		now = time.Now
	}
	return &Links{key: key, now: now, used: map[string]int64{}}, nil
}

// LoadKey reads the link signing key from path, creating a random one
// (mode 0600) on first use, so links survive a restart.
func LoadKey(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err == nil {
		if len(b) < 32 {
			return nil, fmt.Errorf("notify: %s: key too short", path)
		}
		return b, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("notify: read key: %w", err)
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("notify: random key: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return LoadKey(path) // another process made it first
		}
		return nil, fmt.Errorf("notify: create key: %w", err)
	}
	if _, err := f.Write(key); err != nil {
		f.Close()
		return nil, fmt.Errorf("notify: write key: %w", err)
	}
	return key, f.Close()
}

// URL returns the link, on the gateway's public URL base, that answers a
// with ans for recipient. It expires with the approval.
func (l *Links) URL(base string, a *toolgate.Approval, ans Answer, recipient string) (string, error) {
	nonce := make([]byte, 12)
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("notify: random: %w", err)
	}
	c := claim{Approval: a.ID, Answer: ans, Recipient: recipient, Expires: a.ExpiresAt.Unix(),
		Nonce: base64.RawURLEncoding.EncodeToString(nonce)}
	payload, err := json.Marshal(c)
	if err != nil {
		return "", err
	}
	p := base64.RawURLEncoding.EncodeToString(payload)
	return strings.TrimRight(base, "/") + LinkPath + p + "." + l.sign(p), nil
}

func (l *Links) sign(payload string) string {
	m := hmac.New(sha256.New, l.key)
	m.Write([]byte("toolgate answer link v1\n"))
	m.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// Errors a link can be refused with.
var (
	ErrBadLink     = errors.New("not a valid answer link")
	ErrLinkExpired = errors.New("this answer link has expired")
	ErrLinkUsed    = errors.New("this answer link was already used")
)

// verify checks a token's signature and expiry, without using it.
func (l *Links) verify(token string) (claim, error) {
	var c claim
	if len(token) > maxLinkLen {
		return c, ErrBadLink
	}
	p, sig, ok := strings.Cut(token, ".")
	if !ok || !hmac.Equal([]byte(sig), []byte(l.sign(p))) {
		return c, ErrBadLink
	}
	raw, err := base64.RawURLEncoding.DecodeString(p)
	if err != nil || json.Unmarshal(raw, &c) != nil || c.Approval == "" || c.Nonce == "" {
		return c, ErrBadLink
	}
	if !l.now().Before(time.Unix(c.Expires, 0)) {
		return c, ErrLinkExpired
	}
	return c, nil
}

// use marks a link's nonce spent; false if it already was.
func (l *Links) use(c claim) bool {
	now := l.now().Unix()
	l.mu.Lock()
	defer l.mu.Unlock()
	for n, exp := range l.used {
		if exp < now {
			delete(l.used, n)
		}
	}
	if _, ok := l.used[c.Nonce]; ok {
		return false
	}
	l.used[c.Nonce] = c.Expires
	return true
}

// Redeem answers the approval a link names, once, as its recipient, via
// the channel the recipient is on ("ntfy:alerts" answers via ntfy). Any other use is refused: a forged or altered
// link, an expired one, a second use. A link cannot name another approval
// than the one it was signed for.
func (l *Links) Redeem(ctx context.Context, ans Answerer, token string) (*toolgate.Approval, error) {
	c, err := l.verify(token)
	if err != nil {
		return nil, err
	}
	if !l.use(c) {
		return nil, ErrLinkUsed
	}
	via, _, _ := strings.Cut(c.Recipient, ":")
	return Apply(ctx, ans, c.Approval, c.Answer, toolgate.Actor{Name: c.Recipient, Via: via})
}

// Mounts serves the links: GET shows what the link would do and a button
// (link previews and scanners fetch with GET, so GET never answers); POST
// answers. Both are public routes: the signed token is the credential,
// and it is good for one answer to one approval.
func (l *Links) Mounts(ans Answerer) []mount.Route {
	handle := func(w http.ResponseWriter, r *http.Request, _ tokens.Entry) error {
		token := r.PathValue("token")
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Referrer-Policy", "no-referrer")
		if r.Method == http.MethodGet {
			c, err := l.verify(token)
			if err != nil {
				return toolgate.Errorf(toolgate.EForbidden, "%v", err)
			}
			a, err := ans.Approval(r.Context(), c.Approval)
			if err != nil {
				return err
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Content-Security-Policy", "default-src 'none'; form-action 'self'; frame-ancestors 'none'")
			return confirmPage().Execute(w, map[string]any{"Title": present.Title(a), "Answer": c.Answer.Label(),
				"Action": LinkPath + url.PathEscape(token), "Status": string(a.Status)})
		}
		a, err := l.Redeem(r.Context(), ans, token)
		if err != nil {
			if errors.Is(err, ErrBadLink) || errors.Is(err, ErrLinkExpired) || errors.Is(err, ErrLinkUsed) {
				return toolgate.Errorf(toolgate.EForbidden, "%v", err)
			}
			return err
		}
		w.Header().Set("Content-Type", "application/json")
		return json.NewEncoder(w).Encode(map[string]any{"id": a.ID, "status": a.Status, "resolution": a.Resolution})
	}
	return []mount.Route{
		{Method: http.MethodGet, Path: LinkPath + "{token}", Handler: handle},
		{Method: http.MethodPost, Path: LinkPath + "{token}", Handler: handle},
	}
}

// confirmPage is parsed when first used: at start-up it would cost every
// toolgate command.
var confirmPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("confirm").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>toolgate</title></head><body>
<p>{{.Title}}</p>
{{if eq .Status "pending"}}<form method="post" action="{{.Action}}"><button type="submit">{{.Answer}}</button></form>
{{else}}<p>Already {{.Status}}.</p>{{end}}
</body></html>
`))
})
