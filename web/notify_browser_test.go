package web_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/toolgate/toolgate"
)

// TestBrowserOpenFromNotification: a notification's link,
// PUBLIC_URL/#inbox/ID (ntfy's button), opens the inbox with that call
// selected, even when it is not the first; the approver answers it with
// their own session. A call that carried a secret shows that a secret was
// masked and where, and never the secret.
func TestBrowserOpenFromNotification(t *testing.T) {
	b := newBrowser(t)
	e := newEnv(t)
	secret := "AKIA" + "Q3ZR7TX2LM4KD8WP"
	first := e.ask(toolgate.Call{ID: "c1", Session: "s1", Tool: "Bash", Args: map[string]any{"command": "git push origin main"}}, "")
	second := e.ask(toolgate.Call{ID: "c2", Session: "s1", Tool: "Bash", Args: map[string]any{"command": "AWS_ACCESS_KEY_ID=" + secret + " aws s3 rm --recursive s3://prod"}}, "")
	b.do(t, "open the notification's link", chromedp.Navigate(e.Server.URL+"/#inbox/"+second.ID))
	b.wait(t, "the login form", `!document.getElementById('login').hidden`)
	b.do(t, "sign in as the approver",
		chromedp.SetValue(chromedp.ID("token"), e.Approver),
		chromedp.Click(chromedp.CSS(`#login-form button[type=submit]`)))
	b.wait(t, "both cards", `document.querySelectorAll('li.card').length === 2`)
	b.wait(t, "the linked call selected", q(card(second.ID))+`.classList.contains('sel') && !`+q(card(first.ID))+`.classList.contains('sel')`)
	text := eval[string](t, b, q(card(second.ID))+`.innerText`)
	if !strings.Contains(text, "Secrets masked") || !strings.Contains(text, "AWS access key ID in command") || !strings.Contains(text, "AKIA…[redacted]") {
		t.Fatalf("card text:\n%s", text)
	}
	if html := eval[string](t, b, `document.documentElement.outerHTML`); strings.Contains(html, secret) {
		t.Fatal("the page holds the secret")
	}
}
