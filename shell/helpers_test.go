package shell

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
)

const testHome = "/home/me"

var testAnalyzer = New(WithHome(testHome))

func analyze(t *testing.T, src string) *Analysis {
	t.Helper()
	res, err := testAnalyzer.Analyze(src)
	if err != nil {
		t.Fatalf("Analyze(%q): %v", src, err)
	}
	return res
}

func texts(res *Analysis) []string {
	out := make([]string, len(res.Commands))
	for i, c := range res.Commands {
		out[i] = c.Text
	}
	return out
}

// findCmd returns the first command whose Text or one of whose Alts is s.
func findCmd(res *Analysis, s string) (Command, bool) {
	for _, c := range res.Commands {
		if c.Text == s || slices.Contains(c.Alts, s) {
			return c, true
		}
	}
	return Command{}, false
}

// matchesDeny reports whether any command's Text or Alts starts with the
// words of prefix (a deny rule "prefix *" in the policy's sense).
func matchesDeny(res *Analysis, prefix string) bool {
	for _, c := range res.Commands {
		for _, s := range append([]string{c.Text}, c.Alts...) {
			if s == prefix || strings.HasPrefix(s, prefix+" ") {
				return true
			}
		}
	}
	return false
}

func riskCodes(res *Analysis) []string {
	var out []string
	for _, r := range res.Risks {
		out = append(out, r.Code)
	}
	return out
}

func hasRisk(res *Analysis, code string) bool {
	for _, r := range res.Risks {
		if r.Code == code {
			return true
		}
	}
	return false
}

func critical(res *Analysis) bool {
	for _, r := range res.Risks {
		if r.Severity == toolgate.SeverityCritical {
			return true
		}
	}
	return false
}

func fileList(res *Analysis) []string {
	var out []string
	for _, f := range res.Files {
		m := "r"
		if f.Write {
			m = "w"
		}
		s := m + ":" + f.Path
		if f.Dir != "" {
			s += "@" + f.Dir
		}
		out = append(out, s)
	}
	return out
}

func dump(res *Analysis) string {
	var b strings.Builder
	for _, c := range res.Commands {
		fmt.Fprintf(&b, "  cmd %q name=%q alts=%q opaque=%v exec=%q via=%q\n", c.Text, c.Name, c.Alts, c.Opaque, c.ExecFlags, c.Via)
	}
	for _, f := range res.Files {
		fmt.Fprintf(&b, "  file %+v\n", f)
	}
	for _, r := range res.Risks {
		fmt.Fprintf(&b, "  risk %s %s: %s\n", r.Severity, r.Code, r.Reason)
	}
	return b.String()
}
