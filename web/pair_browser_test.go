package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserDevices pairs a phone from the Devices view of a real
// browser: the QR code and link appear, the phone (here a plain HTTP
// client) redeems the link, and the browser signs it out again.
func TestBrowserDevices(t *testing.T) {
	b := newBrowser(t)
	e := newEnv(t)
	b.do(t, "open the page", chromedp.Navigate(e.Server.URL+"/"))
	b.wait(t, "the login form", `!document.getElementById('login').hidden`)
	b.do(t, "sign in as the approver",
		chromedp.SetValue(chromedp.ID("token"), e.Approver),
		chromedp.Click(chromedp.CSS(`#login-form button[type=submit]`)))
	b.wait(t, "the inbox", `!document.getElementById('top').hidden`)
	b.do(t, "open Devices", chromedp.Navigate(e.Server.URL+"/#devices"))
	b.wait(t, "this browser listed", `[...document.querySelectorAll('#devices-list .row')].some(r => r.textContent.includes('this browser'))`)

	b.do(t, "pair a phone",
		chromedp.SetValue(chromedp.CSS(`#pair-form input[name=label]`), "alice phone"),
		chromedp.Click(chromedp.ID("pair")))
	b.wait(t, "the QR code", `!document.getElementById('pair-result').hidden && document.getElementById('pair-qr').complete &&
		document.getElementById('pair-qr').naturalWidth > 100`)
	link := eval[string](t, b, `document.getElementById('pair-link').textContent`)
	i := strings.Index(link, "/ui/pair/")
	if !strings.HasPrefix(link, e.Server.URL) || i < 0 {
		t.Fatalf("pairing link %q", link)
	}
	if st, cookie := e.redeem(link[i:]); st != http.StatusSeeOther || cookie == "" {
		t.Fatalf("the phone could not redeem the link: %d", st)
	}
	b.click(t, "#devices-refresh")
	b.wait(t, "the phone listed", `[...document.querySelectorAll('#devices-list .row')].some(r => r.textContent.includes('alice phone') && r.textContent.includes('paired device'))`)
	b.shot(t, "devices.png")
	eval[bool](t, b, `(() => {
		const row = [...document.querySelectorAll('#devices-list .row')].find(r => r.textContent.includes('paired device'));
		const btn = row.querySelector('button'); btn.click(); btn.click(); return true; })()`)
	b.wait(t, "the phone gone", `![...document.querySelectorAll('#devices-list .row')].some(r => r.textContent.includes('paired device'))`)
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Fatalf("console errors: %v", errs)
	}
}
