package notify

import (
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
)

func TestFilter(t *testing.T) {
	t.Parallel()
	crit := toolgate.Decision{Risks: []toolgate.Risk{{Severity: toolgate.SeverityCritical}}}
	tests := []struct {
		name string
		f    Filter
		ws   string
		tool string
		d    toolgate.Decision
		want bool
	}{
		{"empty selects all", Filter{}, "", "Bash", toolgate.Decision{}, true},
		{"workspace glob", Filter{Workspaces: []string{"prod-*"}}, "prod-eu", "Bash", toolgate.Decision{}, true},
		{"other workspace", Filter{Workspaces: []string{"prod-*"}}, "dev", "Bash", toolgate.Decision{}, false},
		{"no workspace is default", Filter{Workspaces: []string{"default"}}, "", "Bash", toolgate.Decision{}, true},
		{"tool", Filter{Tools: []string{"Bash", "Write"}}, "w", "Write", toolgate.Decision{}, true},
		{"tool is exact, not a family", Filter{Tools: []string{"Bash"}}, "w", "BashOutput", toolgate.Decision{}, false},
		{"risk present", Filter{Risks: []toolgate.Severity{toolgate.SeverityCritical}}, "w", "Bash", crit, true},
		{"risk absent", Filter{Risks: []toolgate.Severity{toolgate.SeverityCritical}}, "w", "Bash", toolgate.Decision{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := &toolgate.Approval{Call: toolgate.Call{Workspace: tc.ws, Tool: tc.tool}, Decision: tc.d}
			if got := tc.f.Match(a); got != tc.want {
				t.Fatalf("Match = %v, want %v", got, tc.want)
			}
		})
	}
}

// FuzzLinkVerify: no token but one the key signed verifies, whatever its
// bytes.
func FuzzLinkVerify(f *testing.F) {
	l, err := NewLinks([]byte(strings.Repeat("s", 32)), func() time.Time { return time.Unix(1000, 0) })
	if err != nil {
		f.Fatal(err)
	}
	u, _ := l.URL("http://g", &toolgate.Approval{ID: "ap_1", ExpiresAt: time.Unix(2000, 0)}, AnswerOnce, "ntfy:t")
	good := strings.TrimPrefix(u, "http://g"+LinkPath)
	f.Add(good)
	f.Add(good + "x")
	f.Add("." + good)
	f.Add("eyJhIjoiYXBfMSJ9.")
	f.Fuzz(func(t *testing.T, tok string) {
		c, err := l.verify(tok)
		if err == nil && tok != good {
			p, _, _ := strings.Cut(tok, ".")
			if l.sign(p) != strings.SplitN(tok, ".", 2)[1] {
				t.Fatalf("verified an unsigned token %q: %+v", tok, c)
			}
		}
	})
}
