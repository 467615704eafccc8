package server_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/internal/stacktest"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/server"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/sqlite"
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
			before := func(path, cwd string, answer ...string) (shown bool, content, note string) {
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
				for _, a := range answer {
					e.must(200, "POST", "/v1/approvals/"+res.Approval.ID+"/"+a, e.Approver, nil, nil)
				}
				e.must(403, "GET", "/v1/approvals/"+res.Approval.ID+"/before", e.Agent, nil, nil)
				r := e.do("GET", "/v1/approvals/"+res.Approval.ID+"/before", e.Approver, nil, "X-Toolgate-Client", "web")
				if r.status != 200 {
					t.Fatalf("%s: before: %d %s", path, r.status, r.body)
				}
				if strings.Contains(string(r.body), secret) {
					t.Fatalf("%s: the secret is in the answer: %s", path, r.body)
				}
				if a := e.must(200, "GET", "/v1/approvals/"+res.Approval.ID, e.Agent, nil, nil); strings.Contains(string(a.body), "package main") {
					t.Fatalf("the file is in the approval the agent reads: %s", a.body)
				}
				var b struct {
					Path          string
					Shown         bool
					Content, Note string
				}
				r.decode(t, &b)
				checkFileReadAudit(t, e, res.Approval.ID, b.Path, b.Shown, b.Content, b.Note)
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
			// Answered: not read again, and the refusal is recorded too.
			if shown, _, note := before("main.go", ws, "approve"); shown || !strings.Contains(note, "no longer pending") {
				t.Fatalf("main.go after the answer: %v %q", shown, note)
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

// checkFileReadAudit checks that the approver's one request for the file
// of approval id is in the audit log as the answer it got: who asked
// (alice, via the client header), the path, shown or withheld with the
// note, and of a shown file its length and SHA-256 but never its text.
func checkFileReadAudit(t *testing.T, e *env, id, path string, shown bool, content, note string) {
	t.Helper()
	all, err := e.Store.ListAudit(context.Background(), store.AuditFilter{Kind: approval.AuditFileRead})
	if err != nil {
		t.Fatal(err)
	}
	var got []toolgate.AuditEntry
	for _, a := range all {
		if a.ApprovalID == id {
			got = append(got, a)
		}
	}
	if len(got) != 1 {
		t.Fatalf("approval %s: %d file read entries, want 1 (the agent's refused request is not one): %+v", id, len(got), got)
	}
	a := got[0]
	var d struct {
		Path   string
		Shown  bool
		Bytes  int
		SHA256 string
	}
	if err := json.Unmarshal(a.Data, &d); err != nil {
		t.Fatal(err)
	}
	want, wantBytes, wantSum := approval.FileWithheld, 0, ""
	if shown {
		sum := sha256.Sum256([]byte(content))
		want, wantBytes, wantSum = approval.FileShown, len(content), hex.EncodeToString(sum[:])
	}
	if a.Who != "alice" || a.Via != "web" || a.Outcome != want || a.Reason != note || a.Session != "s1" || a.Tool != "Write" ||
		d.Path != path || d.Shown != shown || d.Bytes != wantBytes || d.SHA256 != wantSum {
		t.Errorf("approval %s: audited %+v with data %s; want %s by alice via web, path %q, reason %q, %d bytes", id, a, a.Data, want, path, note, wantBytes)
	}
	if content != "" {
		if raw, _ := json.Marshal(a); strings.Contains(string(raw), content) {
			t.Errorf("the file's content is in the audit log: %s", raw)
		}
	}
}

// auditFault is a store whose audit log refuses approval.file_read
// entries while fail is set, as a full disk would.
type auditFault struct {
	store.Store
	fail atomic.Bool
}

func (f *auditFault) AppendAudit(ctx context.Context, entries ...toolgate.AuditEntry) error {
	for _, e := range entries {
		if e.Kind == approval.AuditFileRead && f.fail.Load() {
			return &toolgate.Error{Code: toolgate.EUnavailable, Message: "disk full", Err: fmt.Errorf("disk full: %w", store.ErrUnavailable)}
		}
	}
	return f.Store.AppendAudit(ctx, entries...)
}

// TestBeforeFailsClosed: when the read cannot be recorded, the approver
// gets an error and nothing of the file; the same request once the audit
// log takes writes again shows it, recorded.
func TestBeforeFailsClosed(t *testing.T) {
	t.Parallel()
	const content = "package main // 9e1f\n"
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "main.go"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	sq, err := sqlite.Open(context.Background(), filepath.Join(dir, "toolgate.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sq.Close() })
	st := &auditFault{Store: sq}
	s := stacktest.New(t, stacktest.On(st, dir), stacktest.Deps(func(_ *stacktest.Stack, d *server.Deps) {
		d.Home = filepath.Join(dir, "home")
	}))
	doc, err := policy.AppendRule(policy.DefaultRulesJSONC(), policy.Rule{Tool: "Write", Pattern: "*", Action: toolgate.Ask}, "")
	if err != nil {
		t.Fatal(err)
	}
	if r := s.Do("PUT", "/v1/workspaces/default/rules", s.Admin, string(doc)); r.Status != 204 {
		t.Fatalf("rules: %d %s", r.Status, r.Body)
	}
	c := toolgate.Call{ID: "w1", Session: "s1", Tool: "Write", Cwd: ws, Args: map[string]any{"file_path": "main.go", "content": "new\n"}}
	r := s.Do("POST", "/v1/calls", s.Agent, map[string]any{"call": c})
	var res toolgate.Result
	if err := json.Unmarshal(r.Body, &res); err != nil || res.Approval == nil {
		t.Fatalf("submit: %d %s", r.Status, r.Body)
	}
	path := "/v1/approvals/" + res.Approval.ID + "/before"

	st.fail.Store(true)
	r = s.Do("GET", path, s.Approver, nil)
	if r.Status != 503 || strings.Contains(string(r.Body), "package main") {
		t.Fatalf("audit log down: %d %s, want 503 without the file", r.Status, r.Body)
	}
	if es, _ := sq.ListAudit(context.Background(), store.AuditFilter{Kind: approval.AuditFileRead}); len(es) != 0 {
		t.Fatalf("entries recorded while failing: %+v", es)
	}

	st.fail.Store(false)
	r = s.Do("GET", path, s.Approver, nil)
	var b struct {
		Shown   bool
		Content string
	}
	if err := json.Unmarshal(r.Body, &b); r.Status != 200 || err != nil || !b.Shown || b.Content != content {
		t.Fatalf("audit log back: %d %s", r.Status, r.Body)
	}
	es, err := sq.ListAudit(context.Background(), store.AuditFilter{Kind: approval.AuditFileRead})
	if err != nil || len(es) != 1 || es[0].Outcome != approval.FileShown || es[0].ApprovalID != res.Approval.ID {
		t.Fatalf("after the shown read: %+v %v", es, err)
	}
}
