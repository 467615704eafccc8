// Package ntfy publishes pending approvals to an ntfy topic with http
// action buttons that post to signed one-time answer links on the
// gateway, and updates the notification (same sequence id) when the
// approval resolves.
package ntfy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/notify"
	"github.com/toolgate/toolgate/internal/present"
)

// DefaultURL is the public ntfy server.
const DefaultURL = "https://ntfy.sh"

// Config is notify.ntfy in toolgate.yaml.
type Config struct {
	URL   string `yaml:"url"`
	Topic string `yaml:"topic"`
	// Token is an ntfy access token for publishing; it goes only to the
	// ntfy server, never into a message.
	Token string `yaml:"token"`
	// PublicURL is the gateway's address as the phone reaches it: the
	// answer links point there.
	PublicURL string        `yaml:"public_url"`
	Filter    notify.Filter `yaml:"filter"`
}

// Check validates the configuration.
func (c *Config) Check() error {
	if c.URL == "" {
		c.URL = DefaultURL
	}
	c.URL = strings.TrimRight(c.URL, "/")
	switch {
	case c.Topic == "" || strings.ContainsAny(c.Topic, "/?#"):
		return errors.New("ntfy: topic is required (letters, digits, - and _)")
	case c.PublicURL == "":
		return errors.New("ntfy: public_url (the gateway's URL as your phone reaches it) is required for the answer buttons")
	}
	for _, u := range []string{c.URL, c.PublicURL} {
		if p, err := url.Parse(u); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			return fmt.Errorf("ntfy: %q: want an http(s) URL", u)
		}
	}
	return nil
}

// Notifier publishes to one topic.
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

// Name is "ntfy".
func (n *Notifier) Name() string { return "ntfy" }

// recipient is who the links are issued to, and who an answer is
// recorded as.
func (n *Notifier) recipient() string { return "ntfy:" + n.cfg.Topic }

type action struct {
	Action string `json:"action"`
	Label  string `json:"label"`
	URL    string `json:"url"`
	Method string `json:"method,omitempty"`
	Clear  bool   `json:"clear,omitempty"`
}

// sequenceID names the notification so the resolution updates it in
// place.
func sequenceID(a *toolgate.Approval) string { return "toolgate-" + a.ID }

// Send publishes the approval. ntfy shows at most three buttons: Approve,
// Session (or Always when there is no session) and Deny; each posts to
// its own signed link.
func (n *Notifier) Send(ctx context.Context, a *toolgate.Approval) (string, error) {
	answers := []notify.Answer{notify.AnswerOnce, notify.AnswerDeny}
	if notify.Offered(a, notify.AnswerSession) {
		answers = []notify.Answer{notify.AnswerOnce, notify.AnswerSession, notify.AnswerDeny}
	}
	var acts []action
	for _, ans := range answers {
		u, err := n.links.URL(n.cfg.PublicURL, a, ans, n.recipient())
		if err != nil {
			return "", err
		}
		acts = append(acts, action{Action: "http", Label: ans.Label(), URL: u, Method: http.MethodPost, Clear: true})
	}
	prio := 4
	if len(a.Decision.Risks) > 0 {
		prio = 5
	}
	msg := map[string]any{
		"topic": n.cfg.Topic, "sequence_id": sequenceID(a),
		"title":    limit("toolgate: "+present.Title(a), 200),
		"message":  limit(present.Text(a, n.now()), 3500),
		"priority": prio, "tags": []string{"lock"}, "actions": acts,
	}
	return sequenceID(a), n.publish(ctx, msg)
}

// Resolved updates the notification with the outcome, without buttons.
func (n *Notifier) Resolved(ctx context.Context, a *toolgate.Approval, ref string) error {
	return n.publish(ctx, map[string]any{
		"topic": n.cfg.Topic, "sequence_id": ref,
		"title":    limit("toolgate: "+present.Outcome(a), 200),
		"message":  limit(present.Title(a)+"\n"+present.Where(a.Call), 3500),
		"priority": 2, "tags": []string{"white_check_mark"},
	})
}

func (n *Notifier) publish(ctx context.Context, msg map[string]any) error {
	body, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, n.cfg.URL+"/", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if n.cfg.Token != "" {
		req.Header.Set("Authorization", "Bearer "+n.cfg.Token)
	}
	resp, err := n.http.Do(req)
	if err != nil {
		return fmt.Errorf("ntfy publish: %w", err)
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode >= 300 {
		err := fmt.Errorf("ntfy publish: %s", resp.Status)
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
			return &notify.RetryAfterError{After: notify.ParseRetryAfter(resp.Header.Get("Retry-After")), Err: err}
		}
		return err
	}
	return nil
}

func limit(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
