package toolgate

import "unicode/utf8"

// Bounds on the text a decision carries (DESIGN §10, bounded work): the
// call keeps the full command once; a decision, and so every approval,
// event and stored record made from it, keeps only clipped copies. Without
// them one 30 KB command answered with 303 MB of subjects (issue 13).
const (
	// MaxSubjectText bounds a subject's text and a risk's subject.
	MaxSubjectText = 256
	// MaxReasonText bounds a reason.
	MaxReasonText = 1024
	// MaxDecisionText bounds the subject text of one decision in all;
	// the subjects beyond it keep only an ellipsis.
	MaxDecisionText = 64 << 10
	// MaxSubjects and MaxRisks bound how many subjects and risks one
	// decision lists; the first of each kind that decided it stays.
	MaxSubjects = 256
	MaxRisks    = 64
)

// Ellipsis marks a clipped text.
const Ellipsis = "…"

// Clip returns s when it is at most max bytes long, else its first max
// bytes (cut back to a UTF-8 boundary) followed by Ellipsis.
func Clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	if max < 0 {
		max = 0
	}
	for max > 0 && !utf8.RuneStart(s[max]) {
		max--
	}
	return s[:max] + Ellipsis
}

// Bound clips d's texts to the bounds above. A suggestion too long to show
// is dropped with all the others, as when a subject can have none: cut
// short it would grant something else. Bound allocates only when it clips.
func (d *Decision) Bound() {
	d.Reason = Clip(d.Reason, MaxReasonText)
	if len(d.Subjects) > MaxSubjects {
		// Keep the first subject whose action is the decision's: the
		// one that decided it (a deny, an ask) stays in the record.
		for i := range d.Subjects {
			if d.Subjects[i].Action == d.Action {
				if i >= MaxSubjects {
					d.Subjects[MaxSubjects-1] = d.Subjects[i]
				}
				break
			}
		}
		d.Subjects = d.Subjects[:MaxSubjects]
	}
	if len(d.Risks) > MaxRisks {
		for i := range d.Risks {
			if d.Risks[i].Severity == SeverityCritical {
				if i >= MaxRisks {
					d.Risks[MaxRisks-1] = d.Risks[i]
				}
				break
			}
		}
		d.Risks = d.Risks[:MaxRisks]
	}
	left := MaxDecisionText
	for i := range d.Subjects {
		s := &d.Subjects[i]
		s.Text = Clip(s.Text, min(MaxSubjectText, left))
		left -= min(len(s.Text), left)
	}
	for i := range d.Risks {
		r := &d.Risks[i]
		r.Reason = Clip(r.Reason, MaxReasonText)
		r.Subject = Clip(r.Subject, MaxSubjectText)
	}
	for _, s := range d.Suggestions {
		if len(s.Pattern) > MaxSubjectText {
			d.Suggestions = d.Suggestions[:0]
			break
		}
	}
}
