package web_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/toolgate/toolgate"
)

// TestBrowserRubberStamping: an approver who approves call after call
// within a second sees one line in the inbox saying so (GET /v1/insights);
// below the threshold the line stays hidden.
func TestBrowserRubberStamping(t *testing.T) {
	b := newBrowser(t)
	e := newEnv(t)
	b.do(t, "open the page", chromedp.Navigate(e.Server.URL+"/"))
	b.wait(t, "the login form", `!document.getElementById('login').hidden`)
	b.do(t, "sign in as the approver",
		chromedp.SetValue(chromedp.ID("token"), e.Approver),
		chromedp.Click(chromedp.CSS(`#login-form button[type=submit]`)))
	b.wait(t, "the inbox, live", `!document.getElementById('top').hidden &&
		document.getElementById('conn').classList.contains('live')`)

	approveInUI := func(id string) {
		t.Helper()
		a := e.ask(shell("s1", id, "npm run build"), "")
		res := e.await(a.ID)
		b.wait(t, "the card", q(card(a.ID)))
		b.do(t, "select and press y", chromedp.Click(chromedp.CSS(card(a.ID)+" .tool")), chromedp.KeyEvent("y"))
		if got := result(t, res); got.Status != toolgate.StatusApproved {
			t.Fatalf("agent got %s", got.Status)
		}
		b.wait(t, "the note", q(card(a.ID)+" .note")+`.textContent.startsWith('Approved once')`)
	}
	approveInUI("c0")
	for i := 1; i < 4; i++ { // four fast approvals in all: not yet a habit
		a := e.ask(shell("s1", fmt.Sprint("c", i), "npm run build"), "")
		e.must(200, "POST", "/v1/approvals/"+a.ID+"/approve", map[string]any{}, nil, "Bearer", e.Approver)
	}
	if got := e.do("GET", "/v1/insights", nil, "Bearer", e.Approver); got.status != 200 || !strings.Contains(string(got.body), `"rubber_stamping":[]`) {
		t.Fatalf("insights after four fast approvals: %d %s", got.status, got.body)
	}
	if eval[bool](t, b, `document.getElementById('stamping').hidden`) != true {
		t.Fatal("the rubber-stamping line shows before there is a pattern")
	}

	approveInUI("c4") // the fifth within a second
	b.wait(t, "the rubber-stamping line", `!document.getElementById('stamping').hidden`)
	got := eval[string](t, b, `document.getElementById('stamping').textContent`)
	if !strings.Contains(got, "approved 5 of their last 5 calls within a second") {
		t.Fatalf("the line says %q", got)
	}
}
