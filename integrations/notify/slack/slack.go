// Package slack sends pending approvals to a Slack channel as Block Kit
// messages with buttons (Approve once, Session, 30 min, Always, Deny) and takes
// the presses back on the gateway's own HTTP server, at ActionsPath, the
// Slack app's interactivity Request URL.
//
// Every request there must carry a valid X-Slack-Signature (v0,
// HMAC-SHA256 over "v0:TIMESTAMP:BODY" with the app's signing secret) and
// an X-Slack-Request-Timestamp within five minutes; a signature seen
// before is refused, so a captured request cannot be replayed. A press
// counts only from a configured approver (Slack user id) in the
// configured channel, and is recorded as that person. The message is
// updated with the outcome (chat.update) when the approval ends, however
// it was answered.
package slack

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
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/notify"
	"github.com/toolgate/toolgate/internal/present"
	"github.com/toolgate/toolgate/server/mount"
	"github.com/toolgate/toolgate/tokens"
)

// DefaultAPIURL is Slack's Web API.
const DefaultAPIURL = "https://slack.com/api"

// ActionsPath is where Slack posts button presses (the app's
// interactivity Request URL is the gateway's public URL and this path).
const ActionsPath = "/notify/slack/actions"

// Window is how far a request's timestamp may be from the gateway's
// clock, as Slack advises.
const Window = 5 * time.Minute

// maxBody bounds an interactivity request.
const maxBody = 64 << 10

// Config is notify.slack in toolgate.yaml.
type Config struct {
	// BotToken is the app's bot token (xoxb-…), sent only to Slack.
	BotToken string `yaml:"bot_token"`
	// SigningSecret is the app's signing secret: it proves a press came
	// from Slack.
	SigningSecret string `yaml:"signing_secret"`
	// Channel is the channel id the approvals are posted in (C…).
	Channel string `yaml:"channel"`
	// Approvers are the Slack user ids (U…) whose presses count.
	Approvers []string      `yaml:"approvers"`
	APIURL    string        `yaml:"api_url"`
	Filter    notify.Filter `yaml:"filter"`
}

// Check validates the configuration.
func (c *Config) Check() error {
	switch {
	case c.BotToken == "":
		return errors.New("slack: bot_token is required")
	case len(c.SigningSecret) < 16:
		return errors.New("slack: signing_secret (the app's signing secret, to verify button presses) is required")
	case c.Channel == "":
		return errors.New("slack: channel (the channel id, C…) is required")
	case len(c.Approvers) == 0:
		return errors.New("slack: approvers (Slack user ids allowed to answer) is required")
	}
	for _, id := range c.Approvers {
		if id == "" || strings.ContainsAny(id, " \t:") {
			return fmt.Errorf("slack: approver %q: want a Slack user id such as U012AB3CD", id)
		}
	}
	if c.APIURL == "" {
		c.APIURL = DefaultAPIURL
	}
	c.APIURL = strings.TrimRight(c.APIURL, "/")
	if u, err := url.Parse(c.APIURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("slack: api_url %q: want an http(s) URL", c.APIURL)
	}
	return nil
}

// Notifier posts to one channel and takes presses from it.
type Notifier struct {
	cfg  Config
	http *http.Client
	now  func() time.Time

	mu   sync.Mutex
	seen map[string]time.Time // signatures of accepted requests, until they leave the window
}

// New returns the notifier for a checked config.
func New(cfg Config, hc *http.Client) *Notifier {
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	return &Notifier{cfg: cfg, http: hc, now: time.Now, seen: map[string]time.Time{}}
}

// Name is "slack".
func (n *Notifier) Name() string { return "slack" }

// apiError is a Web API failure; its text never holds the token.
type apiError struct {
	method string
	status int
	code   string
}

func (e *apiError) Error() string { return fmt.Sprintf("slack %s: %d %s", e.method, e.status, e.code) }

// call posts a Web API method with a JSON body and decodes the answer
// into out.
func (n *Notifier) call(ctx context.Context, method string, body, out any) error {
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, n.cfg.APIURL+"/"+method, bytes.NewReader(data))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.Header.Set("Authorization", "Bearer "+n.cfg.BotToken)
	resp, err := n.http.Do(req)
	if err != nil {
		return fmt.Errorf("slack %s: %w", method, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	var env struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal(raw, &env); err != nil || !env.OK {
		e := &apiError{method: method, status: resp.StatusCode, code: env.Error}
		if err != nil {
			e.code = "unreadable answer"
		}
		if resp.StatusCode == http.StatusTooManyRequests || env.Error == "ratelimited" {
			return &notify.RetryAfterError{After: notify.ParseRetryAfter(resp.Header.Get("Retry-After")), Err: e}
		}
		return e
	}
	if out != nil {
		return json.Unmarshal(raw, out)
	}
	return nil
}

// text is a Block Kit text object. Plain text only: what an agent wrote
// is never read as mrkdwn, so it cannot mention @channel or hide a link.
type text struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

func plain(s string, max int) text { return text{Type: "plain_text", Text: present.Limit(s, max)} }

type button struct {
	Type     string `json:"type"`
	ActionID string `json:"action_id"`
	Text     text   `json:"text"`
	Value    string `json:"value"`
	Style    string `json:"style,omitempty"`
}

type block struct {
	Type     string `json:"type"`
	BlockID  string `json:"block_id,omitempty"`
	Text     *text  `json:"text,omitempty"`
	Elements []any  `json:"elements,omitempty"`
}

// labels are the buttons' texts.
var labels = map[notify.Answer]string{
	notify.AnswerOnce: "Approve once", notify.AnswerSession: "Session", notify.AnswerSession30m: "30 min",
	notify.AnswerAlways: "Always", notify.AnswerDeny: "Deny",
}

// value is what a button carries back: the answer and the approval id.
// It is no credential: a press counts only when Slack signed it and it
// came from an approver.
func value(ans notify.Answer, id string) string { return string(ans) + ":" + id }

// blocks is an approval's message.
func blocks(a *toolgate.Approval, now time.Time) []block {
	body := present.Text(a, now)
	if p := present.SessionPattern(a.Decision); p != "" {
		body += "\nSession grants: " + present.Visible(p)
	}
	if p := present.Pattern(a.Decision); p != "" {
		body += "\nAlways grants: " + present.Visible(p)
	}
	var buttons []any
	for _, ans := range notify.Answers {
		if !notify.Offered(a, ans) {
			continue
		}
		b := button{Type: "button", ActionID: "toolgate_" + string(ans), Text: plain(labels[ans], 75), Value: value(ans, a.ID)}
		switch ans {
		case notify.AnswerOnce:
			b.Style = "primary"
		case notify.AnswerDeny:
			b.Style = "danger"
		}
		buttons = append(buttons, b)
	}
	head := plain("toolgate: "+present.Title(a), 150)
	return []block{
		{Type: "header", Text: &head},
		{Type: "section", Text: ptr(plain(body, 2900))},
		{Type: "actions", BlockID: "toolgate_answer", Elements: buttons},
	}
}

func ptr[T any](v T) *T { return &v }

// Send posts the approval with its buttons; the reference is the
// message's channel and ts.
func (n *Notifier) Send(ctx context.Context, a *toolgate.Approval) (string, error) {
	var out struct {
		Channel string `json:"channel"`
		TS      string `json:"ts"`
	}
	err := n.call(ctx, "chat.postMessage", map[string]any{
		"channel": n.cfg.Channel, "text": present.Limit("toolgate: approval needed: "+present.Title(a), 3000),
		"blocks": blocks(a, n.now()), "unfurl_links": false, "unfurl_media": false,
	}, &out)
	if err != nil {
		return "", err
	}
	if out.TS == "" {
		return "", errors.New("slack chat.postMessage: no ts in the answer")
	}
	ch := out.Channel
	if ch == "" {
		ch = n.cfg.Channel
	}
	return ch + " " + out.TS, nil
}

var _ notify.Reminder = (*Notifier)(nil)

// Remind posts in the approval's message thread (ref) that it still
// waits and how long it has left, broadcast to the channel so it is
// seen; the buttons stay on the original message.
func (n *Notifier) Remind(ctx context.Context, a *toolgate.Approval, ref string) error {
	ch, ts, ok := strings.Cut(ref, " ")
	if !ok {
		return fmt.Errorf("slack: message reference %q", ref)
	}
	body := notify.StillWaiting(a, n.now()) + "\n" + present.Title(a) + "\n" + present.Where(a.Call)
	return n.call(ctx, "chat.postMessage", map[string]any{
		"channel": ch, "thread_ts": ts, "reply_broadcast": true,
		"text":   present.Limit("toolgate: "+notify.StillWaiting(a, n.now())+": "+present.Title(a), 3000),
		"blocks": []block{{Type: "section", Text: ptr(plain(body, 2900))}}, "unfurl_links": false, "unfurl_media": false,
	}, nil)
}

// Resolved replaces the message with the outcome, without buttons.
func (n *Notifier) Resolved(ctx context.Context, a *toolgate.Approval, ref string) error {
	ch, ts, ok := strings.Cut(ref, " ")
	if !ok {
		return fmt.Errorf("slack: message reference %q", ref)
	}
	summary := present.Title(a) + "\n" + present.Where(a.Call) + "\n→ " + present.Outcome(a)
	return n.call(ctx, "chat.update", map[string]any{
		"channel": ch, "ts": ts, "text": present.Limit("toolgate: "+present.Outcome(a), 3000),
		"blocks": []block{{Type: "section", Text: ptr(plain(summary, 2900))}},
	}, nil)
}

// Errors a request to ActionsPath is refused with.
var (
	ErrBadSignature = errors.New("slack: bad or missing request signature")
	ErrStale        = errors.New("slack: request timestamp outside the allowed window")
	ErrReplayed     = errors.New("slack: request already seen")
)

// Verify checks a request's Slack signature over its raw body and its
// timestamp against now, and that the same signature was not accepted
// before (a replay). It records the signature when it accepts it.
func (n *Notifier) Verify(h http.Header, body []byte) error {
	ts := h.Get("X-Slack-Request-Timestamp")
	sig := h.Get("X-Slack-Signature")
	secs, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || !strings.HasPrefix(sig, "v0=") {
		return ErrBadSignature
	}
	if !hmac.Equal([]byte(sig), []byte(Sign(n.cfg.SigningSecret, ts, body))) {
		return ErrBadSignature
	}
	now := n.now()
	at := time.Unix(secs, 0)
	if at.Before(now.Add(-Window)) || at.After(now.Add(Window)) {
		return ErrStale
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	for s, until := range n.seen {
		if now.After(until) {
			delete(n.seen, s)
		}
	}
	if _, ok := n.seen[sig]; ok {
		return ErrReplayed
	}
	n.seen[sig] = at.Add(Window)
	return nil
}

// Sign is Slack's v0 request signature: "v0=" and the hex HMAC-SHA256,
// keyed with the signing secret, of "v0:TIMESTAMP:BODY".
func Sign(secret, timestamp string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("v0:" + timestamp + ":"))
	m.Write(body)
	return "v0=" + hex.EncodeToString(m.Sum(nil))
}

// payload is the part of an interactivity request read here.
type payload struct {
	Type string `json:"type"`
	User struct {
		ID       string `json:"id"`
		Username string `json:"username"`
	} `json:"user"`
	Channel struct {
		ID string `json:"id"`
	} `json:"channel"`
	Actions []struct {
		ActionID string `json:"action_id"`
		Value    string `json:"value"`
	} `json:"actions"`
}

// Mounts serves ActionsPath. The route is public to the gateway's
// authentication: Slack's signature is the credential.
func (n *Notifier) Mounts(ans notify.Answerer) []mount.Route {
	return []mount.Route{{Method: http.MethodPost, Path: ActionsPath,
		Handler: func(w http.ResponseWriter, r *http.Request, _ tokens.Entry) error {
			return n.handle(w, r, ans)
		}}}
}

// handle takes one interactivity request.
func (n *Notifier) handle(w http.ResponseWriter, r *http.Request, ans notify.Answerer) error {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return toolgate.Errorf(toolgate.EInvalid, "read request: %v", err)
	}
	if len(body) > maxBody {
		return toolgate.Errorf(toolgate.ETooLarge, "request body over %d bytes", maxBody)
	}
	if err := n.Verify(r.Header, body); err != nil {
		return toolgate.Errorf(toolgate.EUnauthorized, "%v", err)
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return toolgate.Errorf(toolgate.EInvalid, "form: %v", err)
	}
	var p payload
	if err := json.Unmarshal([]byte(form.Get("payload")), &p); err != nil {
		return toolgate.Errorf(toolgate.EInvalid, "payload: %v", err)
	}
	w.WriteHeader(http.StatusOK) // Slack wants an answer within 3 s; the outcome edits the message
	if p.Type != "block_actions" || len(p.Actions) != 1 {
		return nil
	}
	n.press(r.Context(), ans, &p)
	return nil
}

// press applies one press, telling the presser (ephemerally) why when it
// does not.
func (n *Notifier) press(ctx context.Context, ans notify.Answerer, p *payload) {
	tell := func(msg string) {
		// Best effort: the press is refused (or failed) either way.
		_ = n.call(ctx, "chat.postEphemeral", map[string]any{"channel": p.Channel.ID, "user": p.User.ID, "text": present.Limit(msg, 3000)}, nil)
	}
	if !slices.Contains(n.cfg.Approvers, p.User.ID) {
		tell("You are not an approver for this gateway.")
		return
	}
	if p.Channel.ID != n.cfg.Channel {
		tell("This button is not from the approvals channel.")
		return
	}
	a, id, ok := strings.Cut(p.Actions[0].Value, ":")
	answer := notify.Answer(a)
	if !ok || id == "" || !slices.Contains(notify.Answers, answer) || p.Actions[0].ActionID != "toolgate_"+a {
		tell("Unknown button.")
		return
	}
	who := "slack:" + p.User.ID
	if p.User.Username != "" {
		who += " (@" + p.User.Username + ")"
	}
	if _, err := notify.Apply(ctx, ans, id, answer, toolgate.Actor{Name: who, Via: "slack"}); err != nil {
		tell("Not applied: " + present.Visible(toolgate.ErrorMessageOf(err)))
	}
}
