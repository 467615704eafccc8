package web_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/toolgate/toolgate"
)

// TestBrowserSuggestions: calls a person approved again and again show in
// the inbox's suggested-rules card with the calls each rule would have
// allowed; adopting one stores it through the rules API, and the next
// such call runs without asking. A risky command approved as often is
// never proposed, and a refused adoption says why on the card.
func TestBrowserSuggestions(t *testing.T) {
	b := newBrowser(t)
	e := newEnv(t)

	n := 0
	approve := func(cmd string, times int) {
		t.Helper()
		for range times {
			n++
			a := e.ask(shell("s1", fmt.Sprint("c", n), cmd), "")
			e.must(200, "POST", "/v1/approvals/"+a.ID+"/approve", map[string]any{}, nil, "Bearer", e.Approver)
		}
	}
	approve("make lint", 3) // three different make calls: widened to make *
	approve("make test", 3)
	approve("make docs", 2)
	approve("npm run build", 3)
	approve("git push --force origin main", 4) // destructive: never a rule
	approve("terraform apply", 2)              // twice is not a habit

	b.do(t, "open the page", chromedp.Navigate(e.Server.URL+"/"))
	b.wait(t, "the login form", `!document.getElementById('login').hidden`)

	// An approver cannot read the audit log: no card for them.
	b.do(t, "sign in as the approver",
		chromedp.SetValue(chromedp.ID("token"), e.Approver),
		chromedp.Click(chromedp.CSS(`#login-form button[type=submit]`)))
	b.wait(t, "the inbox, live", `!document.getElementById('top').hidden && document.getElementById('conn').classList.contains('live')`)
	if eval[bool](t, b, `document.getElementById('suggestions').hidden`) != true {
		t.Fatal("the suggested-rules card shows for an approver")
	}
	e.must(403, "GET", "/v1/suggestions", nil, nil, "Bearer", e.Approver)
	b.do(t, "sign out", chromedp.Click(chromedp.ID("logout")))
	b.wait(t, "the login form", `!document.getElementById('login').hidden`)

	b.do(t, "sign in as admin",
		chromedp.SetValue(chromedp.ID("token"), e.Admin),
		chromedp.Click(chromedp.CSS(`#login-form button[type=submit]`)))
	row := func(pattern string) string {
		return `#suggestions li.suggestion:has(code.pattern[data-p=` + js(pattern) + `])`
	}
	b.wait(t, "the card with both proposals", `!document.getElementById('suggestions').hidden && `+q(row("make *"))+` && `+q(row("npm run build")))
	patterns := eval[[]string](t, b, `[...document.querySelectorAll('#suggestions code.pattern')].map(x => x.textContent)`)
	for _, p := range patterns {
		if strings.Contains(p, "push") || strings.Contains(p, "terraform") {
			t.Fatalf("proposed %q (all: %q)", p, patterns)
		}
	}
	if len(patterns) != 2 {
		t.Fatalf("proposed %q, want make * and npm run build", patterns)
	}
	if got := eval[[]string](t, b, `[...`+q(row("make *"))+`.querySelectorAll('.examples li')].map(x => x.textContent)`); strings.Join(got, "|") != "make docs \u00d72|make test \u00d73|make lint \u00d73" {
		t.Fatalf("the calls it would have allowed: %q", got)
	}
	if got := eval[string](t, b, q(row("make *")+" .why")+`.textContent`); !strings.Contains(got, "Approved 8 times (3 different calls) by alice") {
		t.Fatalf("why: %q", got)
	}
	shot := b.elemShot(t, "#suggestions", "inbox-suggestions.png")
	b.do(t, "phone width", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
	b.wait(t, "the phone layout", `window.innerWidth === 390`)
	if w := eval[int](t, b, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("with the card the page is %d px wide at 390 px: it scrolls sideways", w)
	}
	b.do(t, "desktop width", chromedp.ResetViewport())

	// The rules change after the card was read: adopting the stale
	// document is refused, and the card says so.
	b.do(t, "change the rules, then adopt npm run build at once", chromedp.Evaluate[chromedp.Void](`(async () => {
		const api = await import('./static/js/api.js');
		const doc = await api.api('GET', 'v1/workspaces/default/rules', undefined, { text: true });
		await api.api('PUT', 'v1/workspaces/default/rules', '// changed meanwhile\n' + doc);
		`+q(row("npm run build")+" button.adopt")+`.click();
	})()`, chromedp.EvalAwaitPromise))
	b.wait(t, "the refusal", q(row("npm run build")+" .error")+`?.hidden === false`)
	if got := eval[string](t, b, q(row("npm run build")+" .error")+`.textContent`); !strings.Contains(got, "Not adopted") || !strings.Contains(got, "changed since") {
		t.Fatalf("the refusal says %q", got)
	}
	if v := e.final(shell("s2", "x1", "npm run build")); v != toolgate.Ask {
		t.Fatalf("a refused adoption changed the rules: npm run build is %s", v)
	}

	if v := e.final(shell("s2", "x2", "make check")); v != toolgate.Ask {
		t.Fatalf("before adopting, make check is %s", v)
	}
	// The refusal reloads the card; until the proposals built on the
	// changed document are in, an adoption would carry the old one.
	b.wait(t, "the card read again", `!document.getElementById('suggestions').hasAttribute('aria-busy')`)
	b.click(t, row("make *")+" button.adopt")
	b.wait(t, "adopted", q(row("make *")+" .status")+`?.textContent.startsWith('Adopted')`)
	doc := string(e.must(200, "GET", "/v1/workspaces/default/rules", nil, nil, "Bearer", e.Admin).body)
	if !strings.Contains(doc, `"make *": "allow"`) || !strings.Contains(doc, "// changed meanwhile") || !strings.Contains(doc, "suggested by toolgate") {
		t.Fatalf("the stored document:\n%s", doc)
	}
	// The next such call runs without asking, in a new session too.
	var res struct {
		Decision toolgate.Decision
		Approval *toolgate.Approval
	}
	e.must(200, "POST", "/v1/calls", map[string]any{"call": shell("s3", "n1", "make check")}, &res, "Bearer", e.Agent)
	if res.Decision.Action != toolgate.Allow || res.Approval != nil {
		t.Fatalf("after adopting, make check is %s: %s", res.Decision.Action, res.Decision.Reason)
	}
	// An adopted proposal leaves the card; the refused one can be adopted
	// now that the card has the new document.
	b.wait(t, "make * gone", q(row("make *"))+` === null`)
	b.click(t, row("npm run build")+" button.adopt")
	b.wait(t, "npm run build adopted", q(row("npm run build")+" .status")+`?.textContent.startsWith('Adopted')`)
	if v := e.final(shell("s2", "x3", "npm run build")); v != toolgate.Allow {
		t.Fatalf("after adopting, npm run build is %s", v)
	}
	if v := e.final(shell("s2", "x4", "git push --force origin main")); v != toolgate.Ask {
		t.Fatalf("the force push is %s", v)
	}
	b.wait(t, "the card empty and hidden", `document.getElementById('suggestions').hidden`)
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
	updateDocs(t, "inbox-suggestions.png", shot)
}
