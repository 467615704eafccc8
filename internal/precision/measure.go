package precision

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
)

// Tool is the shell tool the corpus is sent through (Claude Code's name;
// every shell tool of every profile goes through the same analysis).
const Tool = "Bash"

// Outcome is one corpus command's decision under one policy.
type Outcome struct {
	Entry
	Action toolgate.Action
	Reason string
	// Cause groups stops that share a reason (empty when allowed): the
	// risk, the deny rule or the rule of the subject that stopped it.
	Cause string
	// Where is the command or file kind the cause was found in, for a
	// finer grouping than Cause.
	Where string
}

// Stopped reports whether the command did not run without a person: ask
// or deny.
func (o Outcome) Stopped() bool { return o.Action != toolgate.Allow }

// Decide runs every entry through e as `toolgate check` does: a Bash call
// with the entry's command, decided at cwd with env.
func Decide(e *policy.Engine, env policy.Env, cwd string, entries []Entry) []Outcome {
	out := make([]Outcome, len(entries))
	var d toolgate.Decision
	for i, en := range entries {
		c := toolgate.Call{Tool: Tool, Args: map[string]any{"command": en.Command}, Cwd: cwd}
		e.Decide(&c, env, &d)
		cause, where := Cause(&d)
		out[i] = Outcome{Entry: en, Action: d.Action, Reason: d.Reason, Cause: cause, Where: where}
	}
	return out
}

// severityRank orders risks when a decision carries several: the one a
// person would be shown first.
func severityRank(s toolgate.Severity) int {
	switch s {
	case toolgate.SeverityCritical:
		return 0
	case toolgate.SeverityClass:
		return 1
	}
	return 2
}

// Cause names why d stopped a call, coarse enough to group many commands
// under one cause: a deny rule, else the first risk by severity, else the
// rule of the first subject that asked or denied, else the decision's own
// reason (a parse failure, an unknown construct). where is the command
// (its name and subcommand) or the file kind the cause was found in.
func Cause(d *toolgate.Decision) (cause, where string) {
	if d.Action == toolgate.Allow {
		return "", ""
	}
	var stop *toolgate.SubjectResult
	for i := range d.Subjects {
		if s := &d.Subjects[i]; s.Action == toolgate.Ask || s.Action == toolgate.Deny {
			if stop == nil || (s.Action == toolgate.Deny && stop.Action != toolgate.Deny) {
				stop = s
			}
		}
	}
	if stop != nil {
		where = subjectWhere(stop)
	}
	if d.Action == toolgate.Deny && d.Rule != nil {
		return "deny by rule " + ruleName(d.Rule), where
	}
	if len(d.Risks) > 0 {
		r := d.Risks[0]
		for _, x := range d.Risks[1:] {
			if severityRank(x.Severity) < severityRank(r.Severity) {
				r = x
			}
		}
		if r.Subject != "" {
			where = riskWhere(r.Subject)
		}
		return fmt.Sprintf("risk %s (%s)", r.Code, r.Severity), where
	}
	if stop != nil {
		if stop.Rule == nil {
			return fmt.Sprintf("%s subject matched no rule", stop.Kind), where
		}
		return fmt.Sprintf("%s subject: %s", stop.Kind, ruleName(stop.Rule)), where
	}
	reason, _, _ := strings.Cut(d.Reason, " — ")
	reason, _, _ = strings.Cut(reason, ": ")
	return "decision: " + reason, where
}

// ruleName is a rule without its source line, so a cause stays the same
// key when the defaults document gains a line.
func ruleName(r *toolgate.RuleRef) string {
	origin := "rule"
	if strings.HasPrefix(r.Source, "builtin:") {
		origin = "built-in rule"
	}
	return fmt.Sprintf("%s %s %q %s", origin, r.Tool, r.Pattern, r.Action)
}

// riskWhere is where a risk was found: the construct for a substitution
// ("$(…)", "<(…)", backticks), else the command.
func riskWhere(subject string) string {
	for _, c := range [...]struct{ open, shown string }{
		{"$(", "$(…)"}, {"<(", "<(…)"}, {">(", ">(…)"}, {"`", "`…`"},
	} {
		if strings.HasPrefix(subject, c.open) {
			return c.shown
		}
	}
	return commandWhere(subject)
}

func subjectWhere(s *toolgate.SubjectResult) string {
	if s.Kind == toolgate.SubjectCommand {
		return commandWhere(s.Text)
	}
	return string(s.Kind) + " of a file"
}

// commandWhere is a command's name and, when the next word reads as a
// subcommand, that too: "git log", "docker run", but "find" and "sed"
// (whose next word is an operand).
func commandWhere(text string) string {
	f := strings.Fields(text)
	switch {
	case len(f) == 0:
		return "(empty)"
	case len(f) == 1 || operandFirst(f[0]) || !isVerb(f[1]):
		return f[0]
	}
	return f[0] + " " + f[1]
}

// operandFirst reports commands whose first word after the name is a
// file, directory or pattern, never a subcommand. It only shapes the report.
func operandFirst(name string) bool {
	switch name {
	case "find", "fd", "ls", "cat", "rm", "cp", "mv", "grep", "rg", "ag", "sed", "xargs",
		"chmod", "chown", "tar", "head", "tail", "wc", "du", "tree", "file", "stat", "diff",
		"touch", "mkdir", "echo", "printf", "awk", "perl", "tee", "rsync", "ln", "zip", "unzip":
		return true
	}
	return false
}

func isVerb(w string) bool {
	for _, r := range w {
		if (r < 'a' || r > 'z') && r != '-' && r != ':' && r != '_' && (r < '0' || r > '9') {
			return false
		}
	}
	return w != "" && w[0] >= 'a' && w[0] <= 'z'
}

// Summary is the measurement of one policy over the corpus.
type Summary struct {
	Policy string
	// Benign and BenignStopped count read and change commands.
	Benign, BenignStopped, BenignDenied int
	// Read and ReadAllowed count the read-only commands.
	Read, ReadAllowed int
	// Attacks and AttacksAllowed count attacker twins; every allowed one
	// is a hole.
	Attacks        int
	AttacksAllowed []Outcome
	// ByCause counts stopped benign commands per Cause; ByWhere per Cause
	// and Where. ReadByWhere counts the read-only ones among them, the
	// stops DESIGN §3.6 means to remove.
	ByCause     map[string]int
	ByWhere     map[string]int
	ReadByWhere map[string]int
	// ByCategory counts benign commands and stopped ones per category.
	ByCategory map[string][2]int
}

// Summarize counts outcomes.
func Summarize(policyName string, outs []Outcome) Summary {
	s := Summary{Policy: policyName, ByCause: map[string]int{}, ByWhere: map[string]int{}, ReadByWhere: map[string]int{}, ByCategory: map[string][2]int{}}
	for _, o := range outs {
		switch {
		case o.Kind == Attack:
			s.Attacks++
			if !o.Stopped() {
				s.AttacksAllowed = append(s.AttacksAllowed, o)
			}
			continue
		case o.Kind == Read:
			s.Read++
			if !o.Stopped() {
				s.ReadAllowed++
			}
		}
		s.Benign++
		c := s.ByCategory[o.Category]
		c[0]++
		if o.Stopped() {
			c[1]++
			s.BenignStopped++
			if o.Action == toolgate.Deny {
				s.BenignDenied++
			}
			s.ByCause[o.Cause]++
			s.ByWhere[o.Cause+"\x00"+o.Where]++
			if o.Kind == Read {
				s.ReadByWhere[o.Cause+"\x00"+o.Where]++
			}
		}
		s.ByCategory[o.Category] = c
	}
	return s
}

// Pct is n of total in percent; 0 when total is 0.
func Pct(n, total int) float64 {
	if total == 0 {
		return 0
	}
	return 100 * float64(n) / float64(total)
}

// StoppedPct is the share of benign commands stopped, in percent.
func (s Summary) StoppedPct() float64 { return Pct(s.BenignStopped, s.Benign) }

// ReadAllowedPct is the share of read-only commands allowed, in percent.
func (s Summary) ReadAllowedPct() float64 { return Pct(s.ReadAllowed, s.Read) }

// Line is the one-line figure of s.
func (s Summary) Line() string {
	return fmt.Sprintf("%s: %d of %d benign stopped (%.2f%%; %d denied), %d of %d read-only allowed (%.2f%%), %d of %d attacker twins allowed",
		s.Policy, s.BenignStopped, s.Benign, s.StoppedPct(), s.BenignDenied, s.ReadAllowed, s.Read, s.ReadAllowedPct(), len(s.AttacksAllowed), s.Attacks)
}

type count struct {
	key string
	n   int
}

func sorted(m map[string]int) []count {
	out := make([]count, 0, len(m))
	for k, n := range m {
		out = append(out, count{k, n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].n != out[j].n {
			return out[i].n > out[j].n
		}
		return out[i].key < out[j].key
	})
	return out
}

// WriteReport writes s as tables: stops by cause, by cause and command
// (the top ones, of all everyday commands and of the read-only ones), and
// by category.
func (s Summary) WriteReport(w io.Writer, top int) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\n\nstopped\t%% of benign\tcause\n", s.Line())
	for _, c := range sorted(s.ByCause) {
		fmt.Fprintf(tw, "%d\t%.1f%%\t%s\n", c.n, Pct(c.n, s.Benign), c.key)
	}
	for _, t := range []struct {
		title string
		m     map[string]int
	}{{"", s.ByWhere}, {"read-only ", s.ReadByWhere}} {
		fmt.Fprintf(tw, "\n%sstopped\tcommand\tcause (top %d)\n", t.title, top)
		for i, c := range sorted(t.m) {
			if i == top {
				break
			}
			cause, where, _ := strings.Cut(c.key, "\x00")
			fmt.Fprintf(tw, "%d\t%s\t%s\n", c.n, where, cause)
		}
	}
	fmt.Fprintf(tw, "\ncategory\tbenign\tstopped\t%%\n")
	cats := make([]string, 0, len(s.ByCategory))
	for k := range s.ByCategory {
		cats = append(cats, k)
	}
	sort.Strings(cats)
	for _, k := range cats {
		c := s.ByCategory[k]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f%%\n", k, c[0], c[1], Pct(c[1], c[0]))
	}
	return tw.Flush()
}

// WriteDump writes every stopped benign command of outs, one a line:
// policy, action, cause, where, category, kind, position, command and
// reason, tab-separated, newlines in the command written as \n.
func WriteDump(w io.Writer, policyName string, outs []Outcome) error {
	for _, o := range outs {
		if !o.Kind.Benign() || !o.Stopped() {
			continue
		}
		cmd := strings.ReplaceAll(o.Command, "\n", `\n`)
		if _, err := fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
			policyName, o.Action, o.Cause, o.Where, o.Category, o.Kind, o.Pos, cmd, o.Reason); err != nil {
			return fmt.Errorf("write dump: %w", err)
		}
	}
	return nil
}
