package present

import (
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
)

func TestVisible(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"git status", "git status"},
		{"ls\x1b[2J", "ls⟦U+001B⟧[2J"},
		{"echo \u202eevil", "echo ⟦U+202E⟧evil"},
		{"a\u200bb", "a⟦U+200B⟧b"},
		{"tab\there", "tab⟦U+0009⟧here"},
		{"line\nbreak", "line⟦U+000A⟧break"},
		{"nbsp\u00a0x", "nbsp⟦U+00A0⟧x"},
		{"héllo wörld ✓", "héllo wörld ✓"},
		{"\ufe0fvs", "⟦U+FE0F⟧vs"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			if got := Visible(tc.in); got != tc.want {
				t.Fatalf("Visible(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// FuzzVisible: whatever the input, the output has no control, format or
// direction characters a terminal or a phone would act on.
func FuzzVisible(f *testing.F) {
	for _, s := range []string{"git push", "\x1b]0;x\x07", "\u202e\u2066", "\x00\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range Visible(s) {
			if isSuspect(r) && r != '…' {
				t.Fatalf("Visible(%q) kept %U", s, r)
			}
		}
	})
}

func TestOutcome(t *testing.T) {
	t.Parallel()
	at := time.Unix(0, 0)
	tests := []struct {
		res  toolgate.Resolution
		want string
	}{
		{toolgate.Resolution{Status: toolgate.StatusApproved, Scope: toolgate.ScopeOnce, By: "alice", Via: "tui", At: at}, "approved once by alice via tui"},
		{toolgate.Resolution{Status: toolgate.StatusApproved, Scope: toolgate.ScopeWorkspace, Pattern: "git push *", By: "bob", Via: "telegram"}, "approved always in this workspace (git push *) by bob via telegram"},
		{toolgate.Resolution{Status: toolgate.StatusDenied, DenyMode: toolgate.DenySoft, Feedback: "use make", By: "a", Via: "web"}, "denied (soft: the agent asks how to go on) by a via web: use make"},
		{toolgate.Resolution{Status: toolgate.StatusExpired}, "expired: nobody answered in time"},
		{toolgate.Resolution{Status: toolgate.StatusDenied, By: "x\x1b[31m"}, "denied by x⟦U+001B⟧[31m"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			t.Parallel()
			a := &toolgate.Approval{Resolution: &tc.res}
			if got := Outcome(a); got != tc.want {
				t.Fatalf("Outcome = %q, want %q", got, tc.want)
			}
		})
	}
}

// Seed 003: "Origin: MCP server tool for unannotated mcp__... tools", on
// the TUI and in every notification.
func TestOrigin(t *testing.T) {
	t.Parallel()
	for o, want := range map[string]string{
		"": "", "mcp": "MCP server tool", "mcp:github": "MCP server tool (github)",
		"mcp:gh\u202e": "MCP server tool (gh⟦U+202E⟧)", "local": "origin local",
	} {
		if got := Origin(o); got != want {
			t.Errorf("Origin(%q) = %q, want %q", o, got, want)
		}
	}
	c := toolgate.Call{Session: "s1", Tool: "mcp__github__create_issue", Origin: "mcp:github"}
	if got := Where(c); got != "workspace default, session s1, MCP server tool (github)" {
		t.Errorf("Where = %q", got)
	}
}

func TestGrantWords(t *testing.T) {
	t.Parallel()
	a := &toolgate.Approval{Call: toolgate.Call{Tool: "Bash", Session: "s1", Workspace: "web"}}
	for scope, want := range map[toolgate.Scope]string{
		toolgate.ScopeOnce:      "allows this one call only",
		toolgate.ScopeSession:   "allows Bash calls matching git push * in session s1 until the session ends",
		toolgate.ScopeWorkspace: "allows Bash calls matching git push * in workspace web from now on",
		toolgate.ScopeGlobal:    "allows Bash calls matching git push * in every workspace from now on",
	} {
		if got := Grant(a, scope, "git push *"); !strings.HasPrefix(got, want) {
			t.Errorf("%s: %q, want %q", scope, got, want)
		}
	}
}

func TestWaiting(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	mk := func(id, session, cmd string, at time.Duration, st toolgate.Status) *toolgate.Approval {
		return &toolgate.Approval{ID: id, Status: st, CreatedAt: t0.Add(at), ExpiresAt: t0.Add(time.Minute),
			Call: toolgate.Call{Session: session, Tool: "Bash", Args: map[string]any{"command": cmd}}}
	}
	a := mk("a", "s1", "npm test", 0, toolgate.StatusPending)
	list := []*toolgate.Approval{
		a,
		mk("c", "s1", "make", 3*time.Second, toolgate.StatusPending),
		mk("b", "s1", "npm run lint", time.Second, toolgate.StatusPending),
		mk("d", "s2", "ls", 0, toolgate.StatusPending),                  // another session
		mk("e", "s1", "rm x", 0, toolgate.StatusApproved),               // answered
		mk("f", "s1", "go vet", -2*time.Minute, toolgate.StatusPending), // expired
	}
	list[5].ExpiresAt = t0.Add(-time.Minute)
	tests := []struct {
		name    string
		a       *toolgate.Approval
		pending []*toolgate.Approval
		want    string
	}{
		{"two others, oldest first", a, list, "2 more calls from this session are waiting: Bash npm run lint; Bash make"},
		{"one other", a, list[:2], "1 more call from this session is waiting: Bash make"},
		{"alone", list[3], list, ""},
		{"not pending", list[4], list, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := WaitingOf(tt.a, tt.pending, t0)
			got := ""
			if w != nil {
				got = WaitingText(w)
			}
			if got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
			// Notifications word it in their batch line.
			c := *tt.a
			c.SessionWaiting = w
			if txt := Text(&c, t0); (tt.want != "") != strings.Contains(txt, "Batch: "+tt.want) {
				t.Fatalf("notification text:\n%s", txt)
			}
		})
	}
	var many []*toolgate.Approval
	for i := range 8 {
		many = append(many, mk(string(rune('a'+i)), "s1", "cmd", time.Duration(i)*time.Second, toolgate.StatusPending))
	}
	w := WaitingOf(many[0], many, t0)
	if w.Count != 7 || len(w.Calls) != toolgate.MaxWaitingShown {
		t.Fatalf("count %d, calls %d", w.Count, len(w.Calls))
	}
	if got := WaitingText(w); !strings.HasSuffix(got, "and 4 more") {
		t.Fatalf("%q", got)
	}
}
