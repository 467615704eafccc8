package tokens_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/tokens"
)

func open(t *testing.T, path string) *tokens.Store {
	t.Helper()
	s, err := tokens.Open(path, tokens.WithCheckInterval(0))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestCreateVerifyRevoke(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "data", "tokens.json")
	s := open(t, path)
	if _, ok := s.Verify("tg_nothing"); ok {
		t.Fatal("empty store verified a token")
	}
	tok, err := s.Create("ci-agent", tokens.RoleAgent)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tok, "tg_") || len(tok) != 3+52 {
		t.Fatalf("token %q", tok)
	}
	adm, err := s.Create("alice", tokens.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	e, ok := s.Verify(tok)
	if !ok || e.Name != "ci-agent" || e.Role != tokens.RoleAgent {
		t.Fatalf("verify: %+v %v", e, ok)
	}
	if e, ok := s.Verify(adm); !ok || e.Name != "alice" {
		t.Fatalf("verify admin: %+v %v", e, ok)
	}
	// A near miss does not verify.
	last := tok[len(tok)-1]
	flip := byte('a')
	if last == 'a' {
		flip = 'b'
	}
	if _, ok := s.Verify(tok[:len(tok)-1] + string(flip)); ok {
		t.Fatal("changed token verified")
	}
	// The file holds hashes only, with mode 0600.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), tok[3:]) {
		t.Fatal("token stored in clear")
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}
	if _, err := s.Create("alice", tokens.RoleAgent); toolgate.ErrorCodeOf(err) != toolgate.EConflict {
		t.Fatalf("duplicate name: %v", err)
	}
	if _, err := s.Create("../x", tokens.RoleAgent); toolgate.ErrorCodeOf(err) != toolgate.EInvalid {
		t.Fatalf("bad name: %v", err)
	}
	if _, err := s.Create("bob", "root"); toolgate.ErrorCodeOf(err) != toolgate.EInvalid {
		t.Fatalf("bad role: %v", err)
	}
	list, err := s.List()
	if err != nil || len(list) != 2 || list[0].Name != "ci-agent" || list[1].Name != "alice" {
		t.Fatalf("list %+v %v", list, err)
	}
	if err := s.Revoke("ci-agent"); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Verify(tok); ok {
		t.Fatal("revoked token verified")
	}
	if err := s.Revoke("ci-agent"); toolgate.ErrorCodeOf(err) != toolgate.ENotFound {
		t.Fatalf("revoke twice: %v", err)
	}
}

// A token created by another process (another Store on the same file) is
// seen without a restart, and so is a revocation.
func TestReloadsWhenFileChanges(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "tokens.json")
	server := open(t, path)
	cli := open(t, path)
	tok, err := cli.Create("late", tokens.RoleApprover)
	if err != nil {
		t.Fatal(err)
	}
	if e, ok := server.Verify(tok); !ok || e.Role != tokens.RoleApprover {
		t.Fatalf("server did not see the new token: %+v %v", e, ok)
	}
	if err := cli.Revoke("late"); err != nil {
		t.Fatal(err)
	}
	if _, ok := server.Verify(tok); ok {
		t.Fatal("server still accepts a revoked token")
	}
}

func TestBrokenFileKeepsLastGoodSnapshot(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "tokens.json")
	s := open(t, path)
	tok, err := s.Create("a", tokens.RoleAgent)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`{"tokens": [`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Verify(tok); !ok {
		t.Fatal("a broken file dropped the last good tokens")
	}
	if _, err := tokens.Open(path); err == nil || !strings.Contains(err.Error(), "tokens.json") {
		t.Fatalf("open broken file: %v", err)
	}
}

func TestRoles(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		have, need tokens.Role
		ok         bool
	}{
		{tokens.RoleAgent, tokens.RoleAgent, true},
		{tokens.RoleAgent, tokens.RoleApprover, false},
		{tokens.RoleAgent, tokens.RoleAdmin, false},
		{tokens.RoleApprover, tokens.RoleAgent, true},
		{tokens.RoleApprover, tokens.RoleApprover, true},
		{tokens.RoleApprover, tokens.RoleAdmin, false},
		{tokens.RoleAdmin, tokens.RoleApprover, true},
		{"", tokens.RoleAgent, false},
		{"root", tokens.RoleAgent, false},
	} {
		if got := tc.have.Allows(tc.need); got != tc.ok {
			t.Errorf("%q allows %q: %v, want %v", tc.have, tc.need, got, tc.ok)
		}
	}
	if r, err := tokens.ParseRole(" Admin "); err != nil || r != tokens.RoleAdmin {
		t.Fatalf("parse: %v %v", r, err)
	}
}

func BenchmarkVerify(b *testing.B) {
	s, err := tokens.Open(filepath.Join(b.TempDir(), "tokens.json"))
	if err != nil {
		b.Fatal(err)
	}
	var tok string
	for i := range 8 {
		t, err := s.Create("t"+string(rune('a'+i)), tokens.RoleAgent)
		if err != nil {
			b.Fatal(err)
		}
		tok = t
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := s.Verify(tok); !ok {
			b.Fatal("no")
		}
	}
}

func TestCreateRejectsBadNames(t *testing.T) {
	t.Parallel()
	st, err := tokens.Open(t.TempDir() + "/tokens.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"", "-lead", ".x", "a b", "a/b", "é", strings.Repeat("a", 65), "x\n"} {
		if _, err := st.Create(name, tokens.RoleAgent); err == nil {
			t.Errorf("Create(%q) succeeded", name)
		}
	}
	for _, name := range []string{"a", "alice@example.com", "ci:deploy-1", "A_b.c", strings.Repeat("a", 64)} {
		if _, err := st.Create(name, tokens.RoleAgent); err != nil {
			t.Errorf("Create(%q): %v", name, err)
		}
	}
}

// Revocation takes effect at once in the process that revoked; another
// process sees it within its check interval. A token another process
// created works on its first use there.
func TestRevocationAndCreationAcrossProcesses(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "tokens.json")
	a, err := tokens.Open(path, tokens.WithCheckInterval(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	b, err := tokens.Open(path, tokens.WithCheckInterval(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	tok, err := a.Create("bot", tokens.RoleAgent)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := b.Verify(tok); !ok {
		t.Fatal("a token created by another process is unknown until the check interval")
	}
	if err := a.Revoke("bot"); err != nil {
		t.Fatal(err)
	}
	if _, ok := a.Verify(tok); ok {
		t.Fatal("the revoking process still accepts the token")
	}
}

// A credential's role becomes the Actor flags a Gate checks: an agent is
// never an approver, only an admin may grant widely.
func TestEntryActor(t *testing.T) {
	for _, tc := range []struct {
		role         tokens.Role
		admin, agent bool
	}{
		{tokens.RoleAgent, false, true},
		{tokens.RoleApprover, false, false},
		{tokens.RoleAdmin, true, false},
		// No role, or one that is none of the three, is least privileged.
		{"", false, true},
		{"root", false, true},
		{"Admin", false, true},
	} {
		got := tokens.Entry{Name: "n", Role: tc.role}.Actor("ws")
		want := toolgate.Actor{Name: "n", Via: "ws", Admin: tc.admin, Agent: tc.agent}
		if got != want {
			t.Errorf("%s: Actor = %+v, want %+v", tc.role, got, want)
		}
	}
}
