// Package telegram sends pending approvals to a Telegram chat with
// inline Approve / Session / 30 min / Always / Deny buttons, reads the presses by
// long-polling getUpdates (no public URL needed), and edits each message
// with the outcome. Only presses from the configured approver user ids
// count; an answer is recorded as that person via telegram.
package telegram

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/notify"
	"github.com/toolgate/toolgate/internal/present"
)

// DefaultAPIURL is the public Bot API.
const DefaultAPIURL = "https://api.telegram.org"

// Config is notify.telegram in toolgate.yaml.
type Config struct {
	BotToken  string        `yaml:"bot_token"`
	ChatID    int64         `yaml:"chat_id"`
	Approvers []int64       `yaml:"approvers"`
	APIURL    string        `yaml:"api_url"`
	Filter    notify.Filter `yaml:"filter"`
}

// Check validates the configuration.
func (c *Config) Check() error {
	switch {
	case c.BotToken == "":
		return errors.New("telegram: bot_token is required")
	case c.ChatID == 0:
		return errors.New("telegram: chat_id is required")
	case len(c.Approvers) == 0:
		return errors.New("telegram: approvers (Telegram user ids allowed to answer) is required")
	}
	if c.APIURL == "" {
		c.APIURL = DefaultAPIURL
	}
	if !strings.HasPrefix(c.APIURL, "https://") && !strings.HasPrefix(c.APIURL, "http://") {
		return fmt.Errorf("telegram: api_url %q: want an http(s) URL", c.APIURL)
	}
	return nil
}

// Bot is the Telegram notifier.
type Bot struct {
	cfg  Config
	http *http.Client
	// pollTimeout is getUpdates' long-poll timeout in seconds.
	pollTimeout int
}

// New returns a bot for a checked config.
func New(cfg Config, hc *http.Client) *Bot {
	if hc == nil {
		hc = &http.Client{Timeout: 60 * time.Second}
	}
	return &Bot{cfg: cfg, http: hc, pollTimeout: 25}
}

// Name is "telegram".
func (b *Bot) Name() string { return "telegram" }

// apiError is a Bot API failure; its text never contains the bot token.
type apiError struct {
	method string
	code   int
	desc   string
}

func (e *apiError) Error() string {
	return fmt.Sprintf("telegram %s: %d %s", e.method, e.code, e.desc)
}

// call posts a Bot API method and decodes its result into out.
func (b *Bot) call(ctx context.Context, method string, body, out any) error {
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.cfg.APIURL+"/bot"+b.cfg.BotToken+"/"+method, bytes.NewReader(data))
	if err != nil {
		return b.redact(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := b.http.Do(req)
	if err != nil {
		return b.redact(err)
	}
	defer resp.Body.Close()
	var env struct {
		OK          bool            `json:"ok"`
		Result      json.RawMessage `json:"result"`
		ErrorCode   int             `json:"error_code"`
		Description string          `json:"description"`
		Parameters  struct {
			RetryAfter int `json:"retry_after"`
		} `json:"parameters"`
	}
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err := json.Unmarshal(raw, &env); err != nil || !env.OK {
		e := &apiError{method: method, code: resp.StatusCode, desc: b.redactString(env.Description)}
		if err != nil {
			e.desc = "unreadable answer"
		}
		after := time.Duration(env.Parameters.RetryAfter) * time.Second
		if after == 0 {
			after = notify.ParseRetryAfter(resp.Header.Get("Retry-After"))
		}
		if resp.StatusCode == http.StatusTooManyRequests || after > 0 {
			return &notify.RetryAfterError{After: after, Err: e}
		}
		return e
	}
	if out != nil {
		return json.Unmarshal(env.Result, out)
	}
	return nil
}

// redact removes the bot token from an error: net/http puts the URL,
// and so the token, in its errors, and errors go to the log.
func (b *Bot) redact(err error) error { return errors.New(b.redactString(err.Error())) }

func (b *Bot) redactString(s string) string {
	return strings.ReplaceAll(s, b.cfg.BotToken, "<bot_token>")
}

type button struct {
	Text         string `json:"text"`
	CallbackData string `json:"callback_data"`
}

type markup struct {
	InlineKeyboard [][]button `json:"inline_keyboard"`
}

// callbackData is what a button carries back: the answer and the approval
// id, well inside Telegram's 64 bytes. It is no credential: a press counts
// only from a configured approver.
func callbackData(ans notify.Answer, id string) string { return string(ans) + ":" + id }

// keyboard returns the buttons for an approval: Session and Always only
// when there is a pattern they can grant.
func keyboard(a *toolgate.Approval) markup {
	var row []button
	for _, ans := range notify.Answers {
		if !notify.Offered(a, ans) {
			continue
		}
		row = append(row, button{Text: ans.Label(), CallbackData: callbackData(ans, a.ID)})
	}
	return markup{InlineKeyboard: [][]button{row}}
}

// Send posts the approval with its buttons; the reference is the
// message id.
func (b *Bot) Send(ctx context.Context, a *toolgate.Approval) (string, error) {
	var msg struct {
		MessageID int64 `json:"message_id"`
	}
	text := "toolgate: approval needed\n" + present.Text(a, time.Now())
	if p := present.SessionPattern(a.Decision); p != "" {
		text += "\nSession grants: " + present.Visible(p)
	}
	if p := present.Pattern(a.Decision); p != "" {
		text += "\nAlways grants: " + present.Visible(p)
	}
	err := b.call(ctx, "sendMessage", map[string]any{
		"chat_id": b.cfg.ChatID, "text": present.Limit(text, 4000), "reply_markup": keyboard(a),
		"link_preview_options": map[string]bool{"is_disabled": true},
	}, &msg)
	if err != nil {
		return "", err
	}
	return strconv.FormatInt(msg.MessageID, 10), nil
}

var _ notify.Reminder = (*Bot)(nil)

// Remind replies to the approval's message (ref) that it still waits and
// how long it has left, so the chat shows it again and the buttons are
// one tap up. The reply has no buttons of its own: only the original
// message is edited when the approval ends.
func (b *Bot) Remind(ctx context.Context, a *toolgate.Approval, ref string) error {
	id, err := strconv.ParseInt(ref, 10, 64)
	if err != nil {
		return fmt.Errorf("telegram: message reference %q: %w", ref, err)
	}
	text := "toolgate: " + notify.StillWaiting(a, time.Now()) + "\n" + present.Title(a) + "\n" + present.Where(a.Call)
	return b.call(ctx, "sendMessage", map[string]any{
		"chat_id": b.cfg.ChatID, "text": present.Limit(text, 4000),
		"reply_parameters":     map[string]any{"message_id": id, "allow_sending_without_reply": true},
		"link_preview_options": map[string]bool{"is_disabled": true},
	}, nil)
}

// Resolved replaces the message with the outcome and removes its
// buttons.
func (b *Bot) Resolved(ctx context.Context, a *toolgate.Approval, ref string) error {
	id, err := strconv.ParseInt(ref, 10, 64)
	if err != nil {
		return fmt.Errorf("telegram: message reference %q: %w", ref, err)
	}
	text := present.Title(a) + "\n" + present.Where(a.Call) + "\n→ " + present.Outcome(a)
	err = b.call(ctx, "editMessageText", map[string]any{
		"chat_id": b.cfg.ChatID, "message_id": id, "text": present.Limit(text, 4000),
	}, nil)
	var ae *apiError
	if errors.As(err, &ae) && strings.Contains(ae.desc, "message is not modified") {
		return nil
	}
	return err
}

type update struct {
	UpdateID      int64 `json:"update_id"`
	CallbackQuery *struct {
		ID   string `json:"id"`
		From struct {
			ID        int64  `json:"id"`
			Username  string `json:"username"`
			FirstName string `json:"first_name"`
		} `json:"from"`
		Message *struct {
			MessageID int64 `json:"message_id"`
			Chat      struct {
				ID int64 `json:"id"`
			} `json:"chat"`
		} `json:"message"`
		Data string `json:"data"`
	} `json:"callback_query"`
}

// Listen long-polls getUpdates for button presses until ctx ends or the
// API fails (the dispatcher restarts it with backoff).
func (b *Bot) Listen(ctx context.Context, ans notify.Answerer) error {
	var offset int64
	for ctx.Err() == nil {
		var ups []update
		err := b.call(ctx, "getUpdates", map[string]any{
			"offset": offset, "timeout": b.pollTimeout, "allowed_updates": []string{"callback_query"},
		}, &ups)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		for _, u := range ups {
			offset = max(offset, u.UpdateID+1)
			if u.CallbackQuery != nil {
				b.press(ctx, ans, u)
			}
		}
	}
	return nil
}

// press handles one button press.
func (b *Bot) press(ctx context.Context, ans notify.Answerer, u update) {
	q := u.CallbackQuery
	reply := func(text string) {
		_ = b.call(ctx, "answerCallbackQuery", map[string]any{"callback_query_id": q.ID, "text": text}, nil)
	}
	if !slices.Contains(b.cfg.Approvers, q.From.ID) {
		reply("You are not an approver for this gateway.")
		return
	}
	if q.Message == nil || q.Message.Chat.ID != b.cfg.ChatID {
		reply("This button is not from the approvals chat.")
		return
	}
	a, id, ok := strings.Cut(q.Data, ":")
	answer := notify.Answer(a)
	if !ok || !slices.Contains(notify.Answers, answer) {
		reply("Unknown button.")
		return
	}
	who := "telegram:" + strconv.FormatInt(q.From.ID, 10)
	if q.From.Username != "" {
		who += " (@" + q.From.Username + ")"
	}
	res, err := notify.Apply(ctx, ans, id, answer, toolgate.Actor{Name: who, Via: "telegram"})
	if err != nil {
		reply("Not applied: " + present.Visible(err.Error()))
		return
	}
	reply(present.Outcome(res))
}
