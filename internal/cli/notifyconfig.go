package cli

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/integrations/notify"
	"github.com/toolgate/toolgate/integrations/notify/ntfy"
	"github.com/toolgate/toolgate/integrations/notify/slack"
	"github.com/toolgate/toolgate/integrations/notify/telegram"
	"github.com/toolgate/toolgate/integrations/notify/webhook"
	"github.com/toolgate/toolgate/server/mount"
)

// notifyConfig is the notify section of toolgate.yaml. Unknown keys are
// errors: a misspelt notifier must not silently send nothing.
type notifyConfig struct {
	Telegram *telegram.Config `yaml:"telegram"`
	Slack    *slack.Config    `yaml:"slack"`
	Ntfy     *ntfy.Config     `yaml:"ntfy"`
	Webhook  *webhook.Config  `yaml:"webhook"`
	// RemindBefore, when set, reminds approvers through the notifiers
	// that can (the webhook) of an approval still pending this long
	// before it expires.
	RemindBefore time.Duration `yaml:"remind_before"`
}

// loadNotifySection reads and checks the notify section of a config
// file; nil without one. Secrets may be given as ${VAR} to keep them out
// of the file.
func loadNotifySection(path string) (*notifyConfig, error) {
	if path == "" {
		return nil, nil
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	var doc struct {
		Notify yaml.Node `yaml:"notify"`
	}
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if doc.Notify.Kind == 0 {
		return nil, nil
	}
	var buf bytes.Buffer
	if err := yaml.NewEncoder(&buf).Encode(&doc.Notify); err != nil {
		return nil, fmt.Errorf("%s: notify: %w", path, err)
	}
	var c notifyConfig
	dec := yaml.NewDecoder(&buf)
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("%s:%d: notify: %s", path, doc.Notify.Line, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	fail := func(err error) error { return fmt.Errorf("%s:%d: notify: %w", path, doc.Notify.Line, err) }
	if c.RemindBefore < 0 {
		return nil, fail(fmt.Errorf("remind_before %s: want a positive duration such as 1m", c.RemindBefore))
	}
	if t := c.Telegram; t != nil {
		t.BotToken = expandSecret(t.BotToken)
		if err := t.Check(); err != nil {
			return nil, fail(err)
		}
		if err := t.Filter.Check(); err != nil {
			return nil, fail(fmt.Errorf("telegram: %w", err))
		}
	}
	if s := c.Slack; s != nil {
		s.BotToken, s.SigningSecret = expandSecret(s.BotToken), expandSecret(s.SigningSecret)
		if err := s.Check(); err != nil {
			return nil, fail(err)
		}
		if err := s.Filter.Check(); err != nil {
			return nil, fail(fmt.Errorf("slack: %w", err))
		}
	}
	if n := c.Ntfy; n != nil {
		n.Token = expandSecret(n.Token)
		if err := n.Check(); err != nil {
			return nil, fail(err)
		}
		if err := n.Filter.Check(); err != nil {
			return nil, fail(fmt.Errorf("ntfy: %w", err))
		}
	}
	if w := c.Webhook; w != nil {
		w.Secret = expandSecret(w.Secret)
		if err := w.Check(); err != nil {
			return nil, fail(err)
		}
		if err := w.Filter.Check(); err != nil {
			return nil, fail(fmt.Errorf("webhook: %w", err))
		}
	}
	return &c, nil
}

// expandSecret reads a "${VAR}" value from the environment.
func expandSecret(v string) string {
	if strings.HasPrefix(v, "${") && strings.HasSuffix(v, "}") {
		return os.Getenv(v[2 : len(v)-1])
	}
	return v
}

// notifiers builds the dispatcher and the answer links' routes; a nil
// dispatcher when nothing is configured.
func notifiers(c *notifyConfig, b *approval.Broker, data string, logger *slog.Logger) (*notify.Dispatcher, []mount.Route, error) {
	if c == nil || (c.Telegram == nil && c.Slack == nil && c.Ntfy == nil && c.Webhook == nil) {
		return nil, nil, nil
	}
	key, err := notify.LoadKey(filepath.Join(data, "answer-links.key"))
	if err != nil {
		return nil, nil, err
	}
	links, err := notify.NewLinks(key, nil)
	if err != nil {
		return nil, nil, err
	}
	d := notify.NewDispatcher(b, notify.WithLogger(logger), notify.WithStateFile(filepath.Join(data, "notify-state.json")),
		notify.WithReminder(c.RemindBefore))
	if c.Telegram != nil {
		d.Add(telegram.New(*c.Telegram, nil), c.Telegram.Filter)
	}
	mounts := links.Mounts(b.Gate())
	if c.Slack != nil {
		s := slack.New(*c.Slack, nil)
		d.Add(s, c.Slack.Filter)
		mounts = append(mounts, s.Mounts(b.Gate())...)
	}
	if c.Ntfy != nil {
		d.Add(ntfy.New(*c.Ntfy, nil), c.Ntfy.Filter)
	}
	if c.Webhook != nil {
		d.Add(webhook.New(*c.Webhook, links, nil), c.Webhook.Filter)
	}
	for _, h := range d.Health() {
		logger.Info("notifier configured", "notifier", h.Name)
	}
	return d, mounts, nil
}

// runNotifiers runs d until ctx ends; it returns at once for a nil d.
func runNotifiers(ctx context.Context, d *notify.Dispatcher, b *approval.Broker) func() {
	if d == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); d.Run(ctx, b.Gate()) }()
	return func() { cancel(); <-done }
}
