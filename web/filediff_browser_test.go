package web_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/stacktest"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/server"
)

// TestBrowserFileDiff: a write or edit of a file the gateway can read
// shows the file as it is now against the file after the call, with long
// unchanged runs folded; a new file says so; and a path that leads to a
// secret (a link to the SSH key, a working directory of /) shows the new
// content alone with the reason, never the secret.
func TestBrowserFileDiff(t *testing.T) {
	const secret = "SECRET-KEY-9d2e7a"
	// A short directory: its path shows in the docs' pictures.
	base, err := os.MkdirTemp("", "tg")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	home := filepath.Join(base, "home")
	ws := filepath.Join(home, "src", "app")
	var server0 strings.Builder
	server0.WriteString("package main\n\nimport \"log\"\n\n")
	for i := range 20 {
		fmt.Fprintf(&server0, "// handler %d\n", i)
	}
	server0.WriteString("func main() {\n\tlisten(\":8080\")\n}\n")
	for p, content := range map[string]string{
		filepath.Join(home, ".ssh", "id_rsa"): secret,
		filepath.Join(ws, "server.go"):        server0.String(),
		filepath.Join(ws, "NOTES.md"):         "# Notes\n\nfirst line\nthird line\n",
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(home, ".ssh", "id_rsa"), filepath.Join(ws, "deploy-key.txt")); err != nil {
		t.Fatal(err)
	}

	b := newBrowser(t)
	e := newEnvDeps(t, func(_ *stacktest.Stack, d *server.Deps) { d.Home = home })
	// Every write and edit asks, so each makes a card.
	doc, err := policy.AppendRule(policy.DefaultRulesJSONC(), policy.Rule{Tool: "Write", Pattern: "*", Action: toolgate.Ask}, "")
	if err != nil {
		t.Fatal(err)
	}
	e.must(204, "PUT", "/v1/workspaces/default/rules", string(doc), nil, "Bearer", e.Admin)

	b.do(t, "open the page", chromedp.Navigate(e.Server.URL+"/"))
	b.wait(t, "the login form", `!document.getElementById('login').hidden`)
	b.do(t, "sign in as the approver",
		chromedp.SetValue(chromedp.ID("token"), e.Approver),
		chromedp.Click(chromedp.CSS(`#login-form button[type=submit]`)))
	b.wait(t, "the inbox, live", `!document.getElementById('top').hidden && document.getElementById('conn').classList.contains('live')`)

	call := func(id, tool, cwd string, args map[string]any) *toolgate.Approval {
		return e.ask(toolgate.Call{ID: id, Session: "s-diff", Tool: tool, Cwd: cwd, Args: args}, "")
	}
	edit := call("e1", "Edit", ws, map[string]any{"file_path": "server.go", "old_string": "\tlisten(\":8080\")\n", "new_string": "\tlisten(\":9090\")\n\tlog.Print(\"up\")\n"})
	write := call("w1", "Write", ws, map[string]any{"file_path": "NOTES.md", "content": "# Notes\n\nfirst line\nsecond line\nthird line\n"})
	fresh := call("w2", "Write", ws, map[string]any{"file_path": "cmd/tool/main.go", "content": "package main\n"})
	key := call("w3", "Write", ws, map[string]any{"file_path": "deploy-key.txt", "content": "rotated\n"})
	root := call("w4", "Write", "/", map[string]any{"file_path": "/etc/hostname", "content": "box\n"})
	all := []*toolgate.Approval{edit, write, fresh, key, root}
	for _, a := range all {
		b.wait(t, "the file read for "+a.ID, q(card(a.ID)+" .diff[data-before]"))
	}
	lines := func(id, cls string) []string {
		return eval[[]string](t, b, `[...`+q(card(id))+`.querySelectorAll('.diff .dl.`+cls+`')].map(x => x.textContent.slice(1))`)
	}
	state := func(id string) string { return eval[string](t, b, q(card(id)+" .diff")+`.dataset.before`) }

	// The edit: the whole file against the file after it, folded.
	if got := state(edit.ID); got != "shown" {
		t.Fatalf("edit: %s", got)
	}
	if got := lines(edit.ID, "del"); len(got) != 1 || got[0] != "\tlisten(\":8080\")" {
		t.Fatalf("edit removes %q", got)
	}
	if got := lines(edit.ID, "add"); len(got) != 2 || got[1] != "\tlog.Print(\"up\")" {
		t.Fatalf("edit adds %q", got)
	}
	if got := lines(edit.ID, "fold"); len(got) != 1 || !strings.Contains(got[0], "unchanged lines") {
		t.Fatalf("edit folds %q", got)
	}
	// The write: old against new, only the new line added.
	if got := state(write.ID); got != "shown" {
		t.Fatalf("write: %s", got)
	}
	if got := lines(write.ID, "add"); len(got) != 1 || got[0] != "second line" {
		t.Fatalf("write adds %q", got)
	}
	if got := lines(write.ID, "del"); len(got) != 0 {
		t.Fatalf("write removes %q", got)
	}
	// A new file: all of it new, and said so.
	if got := eval[string](t, b, q(card(fresh.ID)+" .before-note")+`.textContent`); !strings.Contains(got, "a new file") {
		t.Fatalf("new file note %q", got)
	}
	// The attacker's side: the new content alone, with why.
	for _, x := range []struct {
		a    *toolgate.Approval
		note string
	}{{key, "symbolic link"}, {root, "too wide"}} {
		if got := state(x.a.ID); got != "note" {
			t.Fatalf("%s: %s", x.a.ID, got)
		}
		if got := eval[string](t, b, q(card(x.a.ID)+" .before-note")+`.textContent`); !strings.Contains(got, x.note) || !strings.Contains(got, "new content only") {
			t.Fatalf("%s: note %q", x.a.ID, got)
		}
	}
	if eval[bool](t, b, `document.body.innerText.includes(`+js(secret)+`)`) {
		t.Fatal("the secret is on the page")
	}

	b.wait(t, "show the write", `(() => { const c = `+q(card(write.ID))+`; if (!c) return false;
		c.querySelector('.tool').click(); window.scrollTo(0, c.getBoundingClientRect().top + scrollY - 70); return true; })()`)
	writeShot := b.elemShot(t, card(write.ID), "inbox-diff.png")
	b.wait(t, "show the edit", `(() => { const c = `+q(card(edit.ID))+`; if (!c) return false;
		c.querySelector('.tool').click(); window.scrollTo(0, c.getBoundingClientRect().top + scrollY - 70); return true; })()`)
	editShot := b.elemShot(t, card(edit.ID), "inbox-edit.png")
	for _, a := range all {
		e.must(200, "POST", "/v1/approvals/"+a.ID+"/deny", map[string]any{"mode": "soft"}, nil, "Bearer", e.Approver)
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
	updateDocs(t, "inbox-diff.png", writeShot)
	updateDocs(t, "inbox-edit.png", editShot)
}
