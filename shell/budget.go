package shell

import (
	"strconv"
	"strings"

	"github.com/toolgate/toolgate"
)

// RiskBudget is the code of the risk Analyze reports when it stopped at a
// budget or depth cap: what it saw is reported, the rest of the command is
// not, so the call must reach a human in every mode.
const RiskBudget = "analysis-budget"

// RiskUnparsed is the code of the risk Analyze reports for a nested
// script written out in full (bash -c '…', !( … ), eval '…') that the
// parser cannot read: bash may read it otherwise and run what nobody
// saw, so, like a command past the budget, it must reach a human in
// every mode, as a top-level parse failure does.
const RiskUnparsed = "unparsed-script"

// Budget bounds the work of one Analyze call, so that every command is
// analysed in time and memory linear in its size (issue 13): without it a
// 64 KiB command nesting $(…) 20,000 deep copied each level's text into
// the level above, 2.8 GB in all. Beyond any bound the analysis stops, the
// rest of the command becomes one opaque subject and the risk RiskBudget
// says which bound was hit. A zero field takes the default.
type Budget struct {
	// Steps bounds the walking: statements, syntax nodes visited, wrapper
	// levels, bytes of nested scripts parsed and of directories tracked.
	Steps int
	// Subjects bounds the commands and files reported.
	Subjects int
	// Words bounds the words of all commands after brace expansion.
	Words int
	// SubjectBytes bounds the bytes of the reported subjects' texts (and
	// of brace-expanded words, which become them).
	SubjectBytes int
	// Depth bounds nesting: command and process substitutions, wrappers,
	// nested scripts (bash -c, eval, …), xargs, find -exec and function
	// bodies, counted together.
	Depth int
}

// Default budget. A hand-written script of 64 KiB (the default byte
// limit) stays well inside each.
const (
	DefaultSteps        = 1 << 20
	DefaultSubjects     = 4096
	DefaultWords        = 1 << 16
	DefaultSubjectBytes = 1 << 20
	DefaultNesting      = 32
)

// DefaultBudget returns the budget an Analyzer has unless WithBudget
// changes it.
func DefaultBudget() Budget {
	return Budget{Steps: DefaultSteps, Subjects: DefaultSubjects, Words: DefaultWords,
		SubjectBytes: DefaultSubjectBytes, Depth: DefaultNesting}
}

// WithBudget sets the per-call budget; zero fields keep the default.
func WithBudget(b Budget) Option {
	return func(a *Analyzer) {
		d := DefaultBudget()
		for _, f := range [...]struct {
			dst *int
			v   int
		}{
			{&d.Steps, b.Steps}, {&d.Subjects, b.Subjects}, {&d.Words, b.Words},
			{&d.SubjectBytes, b.SubjectBytes}, {&d.Depth, b.Depth},
		} {
			if f.v > 0 {
				*f.dst = f.v
			}
		}
		a.budget = d
	}
}

// over reports whether the walk has stopped at a budget.
func (w *walker) over() bool { return w.exceeded != "" }

// exceed stops the walk; the first bound hit is the one reported.
func (w *walker) exceed(what string, limit int) {
	if w.exceeded == "" {
		w.stop("the command needs more than " + strconv.Itoa(limit) + " " + what + " to analyse")
	}
}

// stop stops the walk with reason unless it has stopped already.
func (w *walker) stop(reason string) {
	if w.exceeded == "" {
		w.exceeded = reason
	}
}

// step spends n steps and reports whether the walk may go on.
func (w *walker) step(n int) bool {
	if w.left.Steps -= n; w.left.Steps < 0 {
		w.exceed("analysis steps", w.a.budget.Steps)
	}
	return !w.over()
}

// words spends n words (after brace expansion) of b bytes.
func (w *walker) spendWords(n, b int) bool {
	if w.left.Words -= n; w.left.Words < 0 {
		w.exceed("words after brace expansion", w.a.budget.Words)
	}
	return w.spendBytes(b)
}

// spendBytes spends b bytes of subject text.
func (w *walker) spendBytes(b int) bool {
	if w.left.SubjectBytes -= b; w.left.SubjectBytes < 0 {
		w.exceed("bytes of subject text", w.a.budget.SubjectBytes)
	}
	return !w.over()
}

// spendSubject spends one subject of b bytes.
func (w *walker) spendSubject(b int) {
	if w.left.Subjects--; w.left.Subjects < 0 {
		w.exceed("subjects (commands and files)", w.a.budget.Subjects)
	}
	w.spendBytes(b)
}

// nest returns c one level deeper, and false when that passes the depth
// cap.
func (w *walker) nest(c scope) (scope, bool) {
	c.nest++
	if c.nest > w.a.budget.Depth {
		w.exceed("levels of nested substitutions, wrappers and scripts", w.a.budget.Depth)
	}
	return c, !w.over()
}

// finishBudget reports a stopped walk: the command as a whole becomes an
// opaque subject (no allow rule can match it, a deny rule on its start
// still can) and RiskBudget names the bound.
func (w *walker) finishBudget(src string) {
	if !w.over() {
		return
	}
	text := clip(strings.Join(strings.Fields(clip(src, 2*maxRiskSubject)), " "), maxRiskSubject)
	w.res.Commands = append(w.res.Commands, Command{Text: text, Opaque: true, Via: "analysis budget"})
	w.res.Risks = append(w.res.Risks, toolgate.Risk{Code: RiskBudget, Severity: toolgate.SeverityUnprefixable,
		Reason: w.exceeded + "; it cannot be allowed by a rule and needs a human", Subject: text})
	w.res.Exceeded = w.exceeded
}

// maxRiskSubject bounds the text of a risk's subject.
const maxRiskSubject = 200

// clip returns s cut to at most max bytes (at a UTF-8 boundary) with an
// ellipsis when it was longer.
func clip(s string, max int) string {
	return toolgate.Clip(s, max)
}
