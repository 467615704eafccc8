package suggest_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolgate/toolgate/internal/present"
	"github.com/toolgate/toolgate/internal/suggest"
	"github.com/toolgate/toolgate/policy"
)

var jsoncPatterns = []struct {
	name, pattern string
}{
	{"plain", "npm run build"},
	{"html characters stay as typed", `make > out && cat <in`},
	{"quotes and backslashes", `echo "a\b"`},
	{"right-to-left override", "git push origin \u202emain"},
	{"zero-width space", "npm\u200b run build"},
	{"escape sequence", "ls \x1b[2J"},
	{"astral", "echo 😀"},
	{"accents", "cat café.txt"},
}

// TestJSONC: what rules suggest prints is a workspace document that loads
// to exactly the proposed patterns, and no pattern hides a character a
// person cannot see.
func TestJSONC(t *testing.T) {
	t.Parallel()
	for _, tt := range jsoncPatterns {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			checkJSONC(t, tt.pattern)
		})
	}
}

func FuzzJSONC(f *testing.F) {
	for _, tt := range jsoncPatterns {
		f.Add(tt.pattern)
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		if !utf8.ValidString(pattern) || pattern == "" {
			return
		}
		checkJSONC(t, pattern)
	})
}

func checkJSONC(t *testing.T, pattern string) {
	t.Helper()
	p := suggest.Proposal{Workspace: "ws", Rules: []suggest.Rule{{Tool: "Bash", Pattern: pattern}, {Tool: "Bash", Pattern: "x"}, {Tool: "Read", Pattern: "src/*"}},
		Approvals: 3, Distinct: 1, Approvers: []string{"alice"}, Examples: []suggest.Example{{Call: pattern, Count: 3}}}
	out := p.JSONC()
	for _, line := range strings.Split(out, "\n") {
		if present.Visible(line) != line && !strings.HasPrefix(line, "//") {
			t.Fatalf("a line hides characters: %q", line)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "//") && present.Visible(line) != line {
			t.Fatalf("a comment line hides characters: %q", line)
		}
	}
	doc, err := policy.ParseWorkspace("suggested.jsonc", []byte(out))
	if err != nil {
		if strings.Contains(err.Error(), "invalid pattern") {
			return // not a valid glob: the document's to refuse, and Suggest drops it
		}
		t.Fatalf("the proposal does not load: %v\n%s", err, out)
	}
	var got []string
	for _, r := range doc.Rules {
		got = append(got, r.Tool+" "+r.Pattern+" "+r.Action.String())
	}
	want := []string{"Bash " + pattern + " allow", "Bash x allow", "Read src/* allow"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("loaded %q, want %q\n%s", got, want, out)
	}
}
