package toolgate_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolgate/toolgate"
)

func TestClip(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		s    string
		max  int
		want string
	}{
		{"", 3, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "abc…"},
		{"abcd", 0, "…"},
		{"abcd", -1, "…"},
		{"aé", 2, "a…"}, // é is two bytes: not cut in half
		{"日本語", 4, "日…"},
		{"日本語", 6, "日本…"},
	} {
		if got := toolgate.Clip(c.s, c.max); got != c.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", c.s, c.max, got, c.want)
		}
	}
}

func TestDecisionBound(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 1000)
	d := toolgate.Decision{Action: toolgate.Ask, Reason: long,
		Risks:       []toolgate.Risk{{Code: "x", Reason: long, Subject: long}},
		Suggestions: []toolgate.Suggestion{{Tool: "Bash", Pattern: "git status"}}}
	for range 1000 {
		d.Subjects = append(d.Subjects, toolgate.SubjectResult{Kind: toolgate.SubjectCommand, Text: long})
	}
	d.Bound()
	total := 0
	for i, s := range d.Subjects {
		total += len(s.Text)
		if len(s.Text) > toolgate.MaxSubjectText+len(toolgate.Ellipsis) || !utf8.ValidString(s.Text) {
			t.Fatalf("subject %d: %d bytes, valid UTF-8 %v", i, len(s.Text), utf8.ValidString(s.Text))
		}
	}
	if total > toolgate.MaxDecisionText+len(d.Subjects)*len(toolgate.Ellipsis) {
		t.Errorf("subjects keep %d bytes in all", total)
	}
	if len(d.Subjects) > toolgate.MaxSubjects {
		t.Errorf("%d subjects kept, bound %d", len(d.Subjects), toolgate.MaxSubjects)
	}
	if len(d.Reason) > toolgate.MaxReasonText+3 || len(d.Risks[0].Reason) > toolgate.MaxReasonText+3 || len(d.Risks[0].Subject) > toolgate.MaxSubjectText+3 {
		t.Errorf("reason %d, risk reason %d, risk subject %d bytes", len(d.Reason), len(d.Risks[0].Reason), len(d.Risks[0].Subject))
	}
	if len(d.Suggestions) != 1 {
		t.Errorf("a short suggestion was dropped")
	}

	d.Suggestions = append(d.Suggestions, toolgate.Suggestion{Tool: "Bash", Pattern: "echo " + long + " *"})
	d.Bound()
	if len(d.Suggestions) != 0 {
		t.Errorf("a suggestion too long to show, clipped, would grant something else: %d kept", len(d.Suggestions))
	}
}

// TestDecisionBoundKeepsDecisive: past the bound on subjects and risks,
// the subject that decided the call and the critical risk stay.
func TestDecisionBoundKeepsDecisive(t *testing.T) {
	t.Parallel()
	d := toolgate.Decision{Action: toolgate.Deny}
	for i := range 10 * toolgate.MaxSubjects {
		s := toolgate.SubjectResult{Kind: toolgate.SubjectWrite, Text: "f", Action: toolgate.Allow}
		if i == 9*toolgate.MaxSubjects {
			s.Text, s.Action = ".env", toolgate.Deny
		}
		d.Subjects = append(d.Subjects, s)
	}
	for i := range 10 * toolgate.MaxRisks {
		r := toolgate.Risk{Code: "c", Severity: toolgate.SeverityClass}
		if i == 9*toolgate.MaxRisks {
			r.Code, r.Severity = "rm-root", toolgate.SeverityCritical
		}
		d.Risks = append(d.Risks, r)
	}
	d.Bound()
	if len(d.Subjects) != toolgate.MaxSubjects || len(d.Risks) != toolgate.MaxRisks {
		t.Fatalf("%d subjects, %d risks kept", len(d.Subjects), len(d.Risks))
	}
	if s := d.Subjects[len(d.Subjects)-1]; s.Action != toolgate.Deny || s.Text != ".env" {
		t.Errorf("the deciding subject was dropped: last kept %+v", s)
	}
	if r := d.Risks[len(d.Risks)-1]; r.Code != "rm-root" {
		t.Errorf("the critical risk was dropped: last kept %+v", r)
	}
}

func TestDecisionBoundDoesNotAllocate(t *testing.T) {
	d := toolgate.Decision{Action: toolgate.Allow, Reason: "ok",
		Subjects: []toolgate.SubjectResult{{Text: "git status"}}, Risks: []toolgate.Risk{{Reason: "r", Subject: "s"}}}
	if n := testing.AllocsPerRun(100, d.Bound); n != 0 {
		t.Errorf("Bound of short texts allocates %v times", n)
	}
}
