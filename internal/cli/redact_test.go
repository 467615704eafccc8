package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/notify/slack"
)

// recorder keeps every body sent to or answered by something under test.
type recorder struct {
	mu     sync.Mutex
	bodies []string
}

func (r *recorder) add(what string, b []byte) {
	r.mu.Lock()
	r.bodies = append(r.bodies, what+"\n"+string(b))
	r.mu.Unlock()
}

func (r *recorder) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.bodies...)
}

// TestServeRedactsSecrets runs `toolgate serve` with every notifier
// pointed at local stand-ins (Slack's presses signed as Slack signs them), submits calls carrying secrets over HTTP
// and reads them back on every surface (answers, approvals list, audit
// search, events, notifications, the log), and answers them with secrets
// in what the approver types. No secret may appear in any
// of them nor in any file of the data directory, while approvers see that
// a secret was there and where, and the call id still binds the exact
// arguments.
func TestServeRedactsSecrets(t *testing.T) {
	if testing.Short() {
		t.Skip("starts gateway processes")
	}
	t.Parallel()
	// Built at run time: the source holds no real-looking secret.
	secrets := map[string]string{
		"aws id":     "AKIA" + "Q3ZR7TX2LM4KD8WP",
		"aws secret": "Zx8Qp3Lr7Tn2Wv9Ks4Hd" + "Fb6Jm1Gc5Ny0Ua3Eo7Ri",
		"github":     "ghp_" + "R2d2C3p0Xw1ng8Fa1c0nM1ll3nn1umHanS0L0",
		"password":   "Tr0ub4dor" + "AndThree",
		"stripe":     "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc",
		"pem":        "MIIEpAIBAAKCAQEA7bq" + "98s6UO1rLc2rwV0iPf0sDHvW2zmjFT7XQ2b9Lc4N8HvZp",
		"conflict":   "AKIA" + "ZZ9YY8XX7WW6VV5U",
	}
	notified := &recorder{}
	standIn := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		notified.add(r.URL.Path, body)
		switch {
		case strings.HasSuffix(r.URL.Path, "/getUpdates"):
			select { // a long poll with nothing in it
			case <-r.Context().Done():
			case <-time.After(200 * time.Millisecond):
			}
			io.WriteString(w, `{"ok":true,"result":[]}`)
		case strings.HasPrefix(r.URL.Path, "/bot"):
			io.WriteString(w, `{"ok":true,"result":{"message_id":7}}`)
		case strings.HasPrefix(r.URL.Path, "/slack/"):
			io.WriteString(w, `{"ok":true,"channel":"C0APPROVALS","ts":"1700000000.1"}`)
		default:
			io.WriteString(w, `{}`)
		}
	}))
	t.Cleanup(standIn.Close)

	bin := toolgateBinary(t)
	data := t.TempDir()
	config := filepath.Join(t.TempDir(), "toolgate.yaml")
	cfg := fmt.Sprintf(`notify:
  telegram:
    bot_token: "12345:test-bot"
    chat_id: 42
    approvers: [1001]
    api_url: %[1]s
  slack:
    bot_token: xoxb-serve-test
    signing_secret: serve-test-slack-signing-secret
    channel: C0APPROVALS
    approvers: [U0APPROVER]
    api_url: %[1]s/slack
  ntfy:
    url: %[1]s
    topic: approvals
    public_url: https://gate.example.com
  webhook:
    url: %[1]s/hook
    secret: redact-test-webhook-secret
    public_url: https://gate.example.com
`, standIn.URL)
	if err := os.WriteFile(config, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	g := startGateway(t, bin, data, "TOOLGATE_CONFIG="+config)
	agent := createToken(t, bin, data, "agent")
	newClient(t, g.url, agent) // waits until the token is accepted

	answers := &recorder{}
	call := func(token, method, path string, body any) (int, []byte) {
		t.Helper()
		var in io.Reader
		if body != nil {
			b, _ := json.Marshal(body)
			in = bytes.NewReader(b)
		}
		req, _ := http.NewRequest(method, g.url+path, in)
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		answers.add(method+" "+path, out)
		return resp.StatusCode, out
	}

	// Events, from before the first call to after the last answer.
	events := &recorder{}
	ectx, stopEvents := context.WithCancel(context.Background())
	eventsDone := make(chan struct{})
	go func() {
		defer close(eventsDone)
		req, _ := http.NewRequestWithContext(ectx, http.MethodGet, g.url+"/v1/events", nil)
		req.Header.Set("Authorization", "Bearer "+g.token)
		req.Header.Set("Accept", "text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return
		}
		defer resp.Body.Close()
		buf := make([]byte, 4096)
		for {
			n, err := resp.Body.Read(buf)
			events.add("event", buf[:n])
			if err != nil {
				return
			}
		}
	}()

	command := "AWS_ACCESS_KEY_ID=" + secrets["aws id"] + " AWS_SECRET_ACCESS_KEY=" + secrets["aws secret"] +
		" aws s3 rm --recursive s3://prod-backups"
	submit := func(id string, c toolgate.Call) *toolgate.Approval {
		t.Helper()
		c.ID, c.Session, c.Workspace = id, "s-redact", "default"
		code, out := call(agent, http.MethodPost, "/v1/calls", c)
		if code != http.StatusOK && code != http.StatusAccepted && code != http.StatusCreated {
			t.Fatalf("submit %s: %d %s", id, code, out)
		}
		var r toolgate.Result
		if err := json.Unmarshal(out, &r); err != nil || r.Approval == nil {
			t.Fatalf("submit %s: want a pending approval, got %s (%v)", id, out, err)
		}
		return r.Approval
	}
	bashCall := toolgate.Call{Tool: "Bash", Args: map[string]any{"command": command}}
	a1 := submit("c1", bashCall)
	a2 := submit("c2", toolgate.Call{Tool: "Bash", Args: map[string]any{
		"command": `curl -X DELETE -H "Authorization: Bearer ` + secrets["github"] + `" https://api.github.com/repos/o/r`}})
	a3 := submit("c3", toolgate.Call{Tool: "Bash", Args: map[string]any{
		"command": "mysql -u root -p" + secrets["password"] + " prod -e 'DROP TABLE users'"}})
	a4 := submit("c4", toolgate.Call{Tool: "Write", Args: map[string]any{
		"file_path": "/srv/app/notes/backup.txt",
		"content":   "-----BEGIN RSA " + "PRIVATE KEY-----\n" + secrets["pem"] + "\n" + secrets["pem"] + "\n-----END RSA " + "PRIVATE KEY-----\n",
	}})

	// Approvers see that a secret was there, and where.
	for _, c := range []struct {
		a    *toolgate.Approval
		arg  string
		rule string
	}{{a1, "command", "aws-access-key-id"}, {a1, "command", "aws-secret-access-key"}, {a2, "command", "github-token"},
		{a3, "command", "mysql-password-option"}, {a4, "content", "private-key"}} {
		found := false
		for _, r := range c.a.Decision.Redactions {
			found = found || (r.Arg == c.arg && r.Rule == c.rule)
		}
		if !found {
			t.Errorf("approval %s: no redaction by %s in %s: %+v", c.a.ID, c.rule, c.arg, c.a.Decision.Redactions)
		}
	}
	if cmd, _ := a1.Call.Args["command"].(string); !strings.Contains(cmd, "AKIA…[redacted]") || !strings.Contains(cmd, "aws s3 rm --recursive s3://prod-backups") {
		t.Errorf("shown command = %q, want the key masked and the rest kept", cmd)
	}

	// The id still binds the exact arguments: the same call attaches,
	// the same id with another secret is a conflict.
	code, out := call(agent, http.MethodPost, "/v1/calls", toolgate.Call{ID: "c1", Session: "s-redact", Workspace: "default", Tool: "Bash", Args: bashCall.Args})
	if code != http.StatusOK && code != http.StatusAccepted {
		t.Errorf("resubmitting the same call: %d %s", code, out)
	}
	other := strings.Replace(command, secrets["aws id"], secrets["conflict"], 1)
	code, out = call(agent, http.MethodPost, "/v1/calls", toolgate.Call{ID: "c1", Session: "s-redact", Workspace: "default", Tool: "Bash", Args: map[string]any{"command": other}})
	if code != http.StatusConflict {
		t.Errorf("the call id with another secret: %d %s, want 409", code, out)
	}
	// A dry run and an allowed call are masked too.
	call(agent, http.MethodPost, "/v1/evaluate", toolgate.Call{Tool: "Bash", Args: map[string]any{"command": "stripe --api-key " + secrets["stripe"] + " charges list"}})
	call(agent, http.MethodPost, "/v1/calls", toolgate.Call{ID: "c5", Session: "s-redact", Tool: "Bash", Args: map[string]any{"command": "echo " + secrets["stripe"]}})

	// Every surface an approver or admin reads.
	call(g.token, http.MethodGet, "/v1/approvals", nil)
	call(g.token, http.MethodGet, "/v1/approvals/"+a1.ID, nil)
	call(agent, http.MethodGet, "/v1/approvals/"+a2.ID, nil)
	call(g.token, http.MethodGet, "/v1/approvals/"+a4.ID+"/before", nil)
	for _, q := range []string{"AKIA", "aws", secrets["aws id"], secrets["password"], "redacted"} {
		code, out := call(g.token, http.MethodGet, "/v1/audit?q="+url.QueryEscape(q), nil)
		if code != http.StatusOK {
			t.Errorf("audit search %q: %d %s", q, code, out)
		}
	}
	if code, out := call(g.token, http.MethodGet, "/v1/audit?q="+url.QueryEscape("redacted"), nil); code != http.StatusOK || !strings.Contains(string(out), "AKIA…[redacted]") {
		t.Errorf("audit search for the mask found no masked call: %d %s", code, out)
	}
	// A session grant from the answer may not be made of a masked
	// secret; approve once and deny the rest.
	if code, out := call(g.token, http.MethodPost, "/v1/approvals/"+a1.ID+"/approve", map[string]any{"scope": "session", "pattern": "AKIA…[redacted]*"}); code == http.StatusOK {
		t.Errorf("a grant of a masked pattern was accepted: %s", out)
	}
	call(g.token, http.MethodPost, "/v1/approvals/"+a1.ID+"/approve", map[string]any{"scope": "once"})
	// What approvers type is masked too: a deny's reason and feedback,
	// a question's answer; edited arguments with a secret are refused.
	if code, out := call(g.token, http.MethodPost, "/v1/approvals/"+a3.ID+"/approve", map[string]any{"modifications": map[string]any{"command": "mysql -u root -p" + secrets["password"] + " prod -e 'SELECT 1'"}}); code != http.StatusBadRequest {
		t.Errorf("edited arguments with a secret: %d %s, want 400", code, out)
	}
	for _, a := range []*toolgate.Approval{a3, a4} {
		call(g.token, http.MethodPost, "/v1/approvals/"+a.ID+"/deny", map[string]any{"reason": "use " + secrets["aws id"] + " instead", "feedback": "the token is " + secrets["github"], "mode": "soft"})
	}
	q := submit("c6", toolgate.Call{Tool: "AskUserQuestion", Args: map[string]any{"question": "Which Stripe key?"}})
	if code, out := call(g.token, http.MethodPost, "/v1/approvals/"+q.ID+"/approve", map[string]any{"answer": "use " + secrets["stripe"]}); code != http.StatusOK || !strings.Contains(string(out), "sk_live_…[redacted]") {
		t.Errorf("a question answered with a secret: %d %s", code, out)
	}
	call(agent, http.MethodGet, "/v1/approvals/"+a3.ID, nil)
	// a2 is denied from Slack: a signed press reaches the gateway's route.
	payload, _ := json.Marshal(map[string]any{"type": "block_actions", "user": map[string]any{"id": "U0APPROVER"},
		"channel": map[string]any{"id": "C0APPROVALS"}, "actions": []any{map[string]any{"action_id": "toolgate_deny", "value": "deny:" + a2.ID}}})
	form := url.Values{"payload": {string(payload)}}.Encode()
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	req, _ := http.NewRequest(http.MethodPost, g.url+slack.ActionsPath, strings.NewReader(form))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Slack-Request-Timestamp", ts)
	req.Header.Set("X-Slack-Signature", slack.Sign("serve-test-slack-signing-secret", ts, []byte(form)))
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("slack press: %v %v", resp, err)
	}
	if code, out := call(g.token, http.MethodGet, "/v1/approvals/"+a2.ID, nil); code != http.StatusOK || !strings.Contains(string(out), `"via":"slack"`) {
		t.Errorf("after the slack press: %d %s", code, out)
	}
	call(g.token, http.MethodGet, "/v1/approvals?status=denied", nil)

	// Every message a notifier sent is followed by the call's outcome, and
	// the calls left waiting for seconds (a2, a3, a4) were all sent. A call
	// answered before its notifier got to it is, by design, never sent
	// (nor followed): a1 and the question may be. A generous deadline: the
	// gateway delivers in the background, and a loaded two-core machine
	// once took over 15 s for all of them.
	type channel struct {
		name             string
		sent, followedUp func(path, body string) bool
	}
	isPath := func(want string) func(string, string) bool {
		return func(path, _ string) bool { return path == want }
	}
	hook := func(event string) func(string, string) bool {
		return func(path, body string) bool { return path == "/hook" && strings.Contains(body, `"type":"`+event+`"`) }
	}
	ntfy := func(outcome bool) func(string, string) bool { // an outcome is tagged with a check mark
		return func(path, body string) bool {
			return path == "/" && strings.Contains(body, "white_check_mark") == outcome
		}
	}
	channels := []channel{
		{"telegram", isPath("/bot12345:test-bot/sendMessage"), isPath("/bot12345:test-bot/editMessageText")},
		{"slack", isPath("/slack/chat.postMessage"), isPath("/slack/chat.update")},
		{"webhook", hook("approval.requested"), hook("approval.resolved")},
		{"ntfy", ntfy(false), ntfy(true)},
	}
	tally := func(c channel) (sent, followedUp int) {
		for _, b := range notified.all() {
			path, body, _ := strings.Cut(b, "\n")
			if c.sent(path, body) {
				sent++
			}
			if c.followedUp(path, body) {
				followedUp++
			}
		}
		return sent, followedUp
	}
	deadline := time.Now().Add(60 * time.Second)
	for _, c := range channels {
		for {
			sent, followedUp := tally(c)
			if sent >= 3 && followedUp == sent {
				break
			}
			if time.Now().After(deadline) {
				var log []string
				for _, l := range strings.Split(g.logText(), "\n") {
					if strings.Contains(l, "notifier") {
						log = append(log, l)
					}
				}
				t.Fatalf("%s: %d messages sent, %d followed by their outcome; want at least 3, all followed\nthe gateway's notifier log:\n%s",
					c.name, sent, followedUp, strings.Join(log, "\n"))
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	time.Sleep(300 * time.Millisecond) // the last events reach the stream
	stopEvents()
	<-eventsDone
	masked := 0
	for _, b := range notified.all() {
		if strings.Contains(b, "Secrets masked:") || strings.Contains(b, `"redactions"`) {
			masked++
		}
	}
	if masked == 0 {
		t.Error("no notification says that secrets were masked")
	}

	var data2 []string
	filepath.WalkDir(data, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			b, _ := os.ReadFile(path)
			data2 = append(data2, path+"\n"+string(b))
		}
		return nil
	})
	surfaces := map[string][]string{
		"answer": answers.all(), "event": events.all(), "notification": notified.all(),
		"log": {g.logText()}, "data file": data2,
	}
	if len(events.all()) == 0 || !strings.Contains(strings.Join(events.all(), ""), "approval.requested") {
		t.Error("the event stream carried no approval.requested")
	}
	for surface, texts := range surfaces {
		for _, text := range texts {
			// The first line names the text (a search may name a secret).
			head, body, _ := strings.Cut(text, "\n")
			for name, secret := range secrets {
				if strings.Contains(body, secret) {
					t.Errorf("%s %q holds the %s secret", surface, head, name)
				}
			}
		}
	}
}
