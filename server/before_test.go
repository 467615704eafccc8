package server_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/server"
)

// TestBefore: GET /v1/approvals/{id}/before shows an approver the file a
// pending write changes, and never a file outside the call's working
// directory, a protected one, or one the rules do not let the agent read,
// however the agent names it; agents cannot call it.
func TestBefore(t *testing.T) {
	t.Parallel()
	const secret = "SECRET-4c0ffee"
	base := t.TempDir()
	home := filepath.Join(base, "home")
	ws := filepath.Join(home, "app")
	for p, content := range map[string]string{
		filepath.Join(home, ".ssh", "id_rsa"): secret,
		filepath.Join(ws, "main.go"):          "package main\n",
		filepath.Join(ws, ".env"):             "TOKEN=" + secret,
		filepath.Join(ws, "notes-secret.md"):  secret, // the default rules deny reading *secret*
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(home, ".ssh", "id_rsa"), filepath.Join(ws, "key.txt")); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name    string
		noReads bool
	}{{name: "reads"}, {name: "no file reads", noReads: true}} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, func(d *server.Deps) { d.Home, d.NoFileReads = home, tt.noReads })
			// Every write asks, so each makes a card.
			doc, err := policy.AppendRule(policy.DefaultRulesJSONC(), policy.Rule{Tool: "Write", Pattern: "*", Action: toolgate.Ask}, "")
			if err != nil {
				t.Fatal(err)
			}
			e.must(204, "PUT", "/v1/workspaces/default/rules", e.Admin, string(doc), nil)
			n := 0
			before := func(path, cwd string) (shown bool, content, note string) {
				t.Helper()
				n++
				c := toolgate.Call{ID: "w" + strings.Repeat("i", n), Session: "s1", Tool: "Write", Cwd: cwd,
					Args: map[string]any{"file_path": path, "content": "new\n"}}
				var res struct {
					Approval *toolgate.Approval
					Decision toolgate.Decision
				}
				e.must(200, "POST", "/v1/calls", e.Agent, map[string]any{"call": c}, &res)
				if res.Approval == nil {
					return false, "", "decided " + res.Decision.Action.String() + ": no card"
				}
				e.must(403, "GET", "/v1/approvals/"+res.Approval.ID+"/before", e.Agent, nil, nil)
				r := e.must(200, "GET", "/v1/approvals/"+res.Approval.ID+"/before", e.Approver, nil, nil)
				if strings.Contains(string(r.body), secret) {
					t.Fatalf("%s: the secret is in the answer: %s", path, r.body)
				}
				if a := e.must(200, "GET", "/v1/approvals/"+res.Approval.ID, e.Agent, nil, nil); strings.Contains(string(a.body), "package main") {
					t.Fatalf("the file is in the approval the agent reads: %s", a.body)
				}
				var b struct {
					Shown         bool
					Content, Note string
				}
				r.decode(t, &b)
				return b.Shown, b.Content, b.Note
			}
			shown, content, note := before("main.go", ws)
			if tt.noReads {
				if shown || !strings.Contains(note, "does not read") {
					t.Fatalf("with NoFileReads: %v %q %q", shown, content, note)
				}
				return
			}
			if !shown || content != "package main\n" {
				t.Fatalf("main.go: %v %q %q", shown, content, note)
			}
			for _, tc := range []struct{ path, cwd, note string }{
				{"key.txt", ws, "symbolic link"},
				{".env", ws, "rules do not allow reading it"},
				{"notes-secret.md", ws, "rules do not allow reading it"},
				{"../.ssh/id_rsa", ws, ""},
				{filepath.Join(home, ".ssh", "id_rsa"), home, ""},
				{"/etc/shadow", "/", ""},
				{"/etc/hostname", "/", "too wide"},
			} {
				shown, content, note := before(tc.path, tc.cwd)
				if shown || content != "" || !strings.Contains(note, tc.note) {
					t.Errorf("%s in %s: shown %v %q, note %q (want %q)", tc.path, tc.cwd, shown, content, note, tc.note)
				}
			}
		})
	}
}
