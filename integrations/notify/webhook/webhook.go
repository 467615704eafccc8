// Package webhook posts pending approvals, and then their outcomes, as
// JSON to a URL, signed with HMAC-SHA256 in the X-Toolgate-Signature
// header and carrying signed one-time answer links.
package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/notify"
	"github.com/toolgate/toolgate/internal/present"
)

// SignatureHeader carries "sha256=" and the hex HMAC-SHA256 of the body
// under the shared secret.
const SignatureHeader = "X-Toolgate-Signature"

// Config is notify.webhook in toolgate.yaml.
type Config struct {
	URL    string `yaml:"url"`
	Secret string `yaml:"secret"`
	// PublicURL is the gateway's address as the receiver reaches it.
	PublicURL string        `yaml:"public_url"`
	Filter    notify.Filter `yaml:"filter"`
}

// Check validates the configuration.
func (c *Config) Check() error {
	if len(c.Secret) < 16 {
		return errors.New("webhook: secret is required (at least 16 characters)")
	}
	if c.PublicURL == "" {
		return errors.New("webhook: public_url (the gateway's URL as the receiver reaches it) is required for the answer links")
	}
	for _, u := range []string{c.URL, c.PublicURL} {
		if p, err := url.Parse(u); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			return fmt.Errorf("webhook: %q: want an http(s) URL", u)
		}
	}
	return nil
}

// Payload is the JSON body of every post.
type Payload struct {
	// Type is approval.requested, approval.reminder (still pending, soon
	// to expire: the links answer it) or approval.resolved.
	Type     toolgate.EventType `json:"type"`
	SentAt   time.Time          `json:"sent_at"`
	Approval *toolgate.Approval `json:"approval"`
	// Text is the approval in words; Outcome how it ended.
	Text    string `json:"text"`
	Outcome string `json:"outcome,omitempty"`
	// Links answer the approval: POST to one, once.
	Links map[notify.Answer]string `json:"links,omitempty"`
}

// Notifier posts to one URL.
type Notifier struct {
	cfg   Config
	links *notify.Links
	http  *http.Client
	now   func() time.Time
}

// New returns the notifier; links must point at cfg.PublicURL.
func New(cfg Config, links *notify.Links, hc *http.Client) *Notifier {
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	return &Notifier{cfg: cfg, links: links, http: hc, now: time.Now}
}

// Name is "webhook".
func (n *Notifier) Name() string { return "webhook" }

func (n *Notifier) recipient() string {
	u, _ := url.Parse(n.cfg.URL)
	return "webhook:" + u.Host
}

// public strips what a receiver must not get: the resume token answers
// a suspended call for whoever holds it.
func public(a *toolgate.Approval) *toolgate.Approval {
	cp := *a
	cp.ResumeToken = ""
	return &cp
}

// EventReminder is the Type of a reminder's post.
const EventReminder toolgate.EventType = "approval.reminder"

var _ notify.Reminder = (*Notifier)(nil)

// Send posts a new pending approval with its answer links.
func (n *Notifier) Send(ctx context.Context, a *toolgate.Approval) (string, error) {
	return a.ID, n.postPending(ctx, toolgate.EventApprovalRequested, a, present.Text(a, n.now()))
}

// Remind posts an approval still pending, soon to expire, with its
// answer links again.
func (n *Notifier) Remind(ctx context.Context, a *toolgate.Approval, _ string) error {
	return n.postPending(ctx, EventReminder, a, notify.StillWaiting(a, n.now())+": "+present.Text(a, n.now()))
}

// postPending posts a pending approval with its answer links.
func (n *Notifier) postPending(ctx context.Context, typ toolgate.EventType, a *toolgate.Approval, text string) error {
	links := map[notify.Answer]string{}
	for _, ans := range notify.Answers {
		if !notify.Offered(a, ans) {
			continue
		}
		u, err := n.links.URL(n.cfg.PublicURL, a, ans, n.recipient())
		if err != nil {
			return err
		}
		links[ans] = u
	}
	return n.post(ctx, Payload{Type: typ, SentAt: n.now().UTC(), Approval: public(a), Text: text, Links: links})
}

// Resolved posts the outcome.
func (n *Notifier) Resolved(ctx context.Context, a *toolgate.Approval, _ string) error {
	return n.post(ctx, Payload{Type: toolgate.EventApprovalResolved, SentAt: n.now().UTC(), Approval: public(a),
		Text: present.Title(a), Outcome: present.Outcome(a)})
}

// Sign returns the signature header value of body under secret.
func Sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// Verify reports whether sig is body's signature under secret; a receiver
// checks it before trusting a post.
func Verify(secret string, body []byte, sig string) bool {
	return hmac.Equal([]byte(Sign(secret, body)), []byte(sig))
}

func (n *Notifier) post(ctx context.Context, p Payload) error {
	body, err := json.Marshal(p)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, n.cfg.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(SignatureHeader, Sign(n.cfg.Secret, body))
	resp, err := n.http.Do(req)
	if err != nil {
		return fmt.Errorf("webhook post: %w", err)
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode >= 300 {
		err := fmt.Errorf("webhook post: %s", resp.Status)
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
			return &notify.RetryAfterError{After: notify.ParseRetryAfter(resp.Header.Get("Retry-After")), Err: err}
		}
		return err
	}
	return nil
}
