// Package ntfy publishes pending approvals to an ntfy topic and updates
// the notification (same sequence id) when the approval resolves.
//
// The notification carries no answer: its button (and a tap on it) opens
// the approval in the gateway's web inbox, where the person answers with
// their own signed-in session (an approver's web login or a paired
// phone), recorded as them. An ntfy topic is read by whoever subscribes
// to it, often without an account, so a button that answered by itself
// would be a bearer credential for everyone who can read the topic.
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
	// button opens the web inbox there.
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
		return errors.New("ntfy: public_url (the gateway's URL as your phone reaches it) is required for the button that opens the approval")
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
	cfg  Config
	http *http.Client
	now  func() time.Time
}

// New returns the notifier for a checked config.
func New(cfg Config, hc *http.Client) *Notifier {
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	return &Notifier{cfg: cfg, http: hc, now: time.Now}
}

// Name is "ntfy".
func (n *Notifier) Name() string { return "ntfy" }

type action struct {
	Action string `json:"action"`
	Label  string `json:"label"`
	URL    string `json:"url"`
	Clear  bool   `json:"clear,omitempty"`
}

// sequenceID names the notification so the resolution updates it in
// place.
func sequenceID(a *toolgate.Approval) string { return "toolgate-" + a.ID }

// InboxURL is the web inbox with approval a selected, on the gateway's
// public URL.
func InboxURL(publicURL string, a *toolgate.Approval) string {
	return strings.TrimRight(publicURL, "/") + "/#inbox/" + url.PathEscape(a.ID)
}

// Send publishes the approval with one button, which opens it in the web
// inbox.
func (n *Notifier) Send(ctx context.Context, a *toolgate.Approval) (string, error) {
	open := InboxURL(n.cfg.PublicURL, a)
	prio := 4
	if len(a.Decision.Risks) > 0 {
		prio = 5
	}
	msg := map[string]any{
		"topic": n.cfg.Topic, "sequence_id": sequenceID(a),
		"title":    present.Limit("toolgate: "+present.Title(a), 200),
		"message":  present.Limit(present.Text(a, n.now()), 3500),
		"priority": prio, "tags": []string{"lock"}, "click": open,
		"actions": []action{{Action: "view", Label: "Open to answer", URL: open}},
	}
	return sequenceID(a), n.publish(ctx, msg)
}

var _ notify.Reminder = (*Notifier)(nil)

// Remind publishes the approval again, saying it still waits and how
// long it has left, with the same button to the web inbox. It reuses the
// notification's sequence id (ref): the phone alerts again, and Resolved
// later replaces the reminder with the outcome rather than leaving it.
func (n *Notifier) Remind(ctx context.Context, a *toolgate.Approval, ref string) error {
	open := InboxURL(n.cfg.PublicURL, a)
	return n.publish(ctx, map[string]any{
		"topic": n.cfg.Topic, "sequence_id": ref,
		"title":    present.Limit("toolgate: "+notify.StillWaiting(a, n.now()), 200),
		"message":  present.Limit(present.Title(a)+"\n"+present.Where(a.Call), 3500),
		"priority": 4, "tags": []string{"hourglass"}, "click": open,
		"actions": []action{{Action: "view", Label: "Open to answer", URL: open}},
	})
}

// Resolved updates the notification with the outcome, without buttons.
func (n *Notifier) Resolved(ctx context.Context, a *toolgate.Approval, ref string) error {
	return n.publish(ctx, map[string]any{
		"topic": n.cfg.Topic, "sequence_id": ref,
		"title":    present.Limit("toolgate: "+present.Outcome(a), 200),
		"message":  present.Limit(present.Title(a)+"\n"+present.Where(a.Call), 3500),
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
