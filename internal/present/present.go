// Package present words a pending approval for people: the terminal
// approver and every notifier show the same tool, command, sub-commands,
// risks, batch context and outcome, worded in this one place so that a
// better wording (or the shared plain-language reason) changes them all.
package present

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/toolgate/toolgate"
)

// MaxText bounds any one piece of text shown: a command can be long, a
// notification or a terminal line cannot.
const MaxText = 2000

// shellKeys name the args that hold a shell command, in the order the web
// inbox looks for them; pathKeys the args that name what a tool acts on.
var (
	shellKeys = []string{"command", "cmd", "script"}
	pathKeys  = []string{"file_path", "path", "pattern", "url", "name"}
)

// suspect lists characters outside the Unicode categories checked below
// that render as nothing or change how text around them reads.
var suspect = map[rune]bool{
	0x034F: true, 0x115F: true, 0x1160: true, 0x17B4: true, 0x17B5: true, 0x2800: true,
	0x3164: true, 0xFFA0: true,
}

// isSuspect reports whether r is invisible, zero-width, a control or
// format character, changes text direction, or is a space other than
// U+0020: shown as is, it could hide what a command does or, in a
// terminal, drive the terminal itself.
func isSuspect(r rune) bool {
	switch {
	case r == ' ':
		return false
	case unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Co, unicode.Zs):
		return true
	case r >= 0x180B && r <= 0x180F, r >= 0xFE00 && r <= 0xFE0F, r >= 0xE0100 && r <= 0xE01EF:
		return true
	case r == unicode.ReplacementChar:
		return true
	}
	return suspect[r]
}

// Visible returns s with every suspect character replaced by a visible
// ⟦U+XXXX⟧ label (as the web inbox does), cut to MaxText runes. Newlines
// and tabs are labelled too: a terminal line or a notification title shows
// one line.
func Visible(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n >= MaxText {
			b.WriteString("…")
			break
		}
		n++
		if isSuspect(r) {
			fmt.Fprintf(&b, "⟦U+%04X⟧", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Command returns what the call does in one line: the shell command of a
// shell tool, the path or name a tool acts on, else its args as JSON.
func Command(c toolgate.Call) string {
	for _, k := range shellKeys {
		if s, ok := c.Args[k].(string); ok {
			return Visible(s)
		}
	}
	for _, k := range pathKeys {
		if s, ok := c.Args[k].(string); ok {
			return Visible(s)
		}
	}
	if len(c.Args) == 0 {
		return ""
	}
	b, err := json.Marshal(c.Args)
	if err != nil {
		return "(args not shown: " + err.Error() + ")"
	}
	return Visible(string(b))
}

// Subject is one sub-command (or path) of a call and what the rules said.
type Subject struct {
	Kind, Text, Action string
}

// Subjects lists the call's sub-commands and the files it reads or
// writes, each with its own verdict.
func Subjects(d toolgate.Decision) []Subject {
	out := make([]Subject, 0, len(d.Subjects))
	for _, s := range d.Subjects {
		if s.Kind == toolgate.SubjectTool {
			continue
		}
		out = append(out, Subject{Kind: string(s.Kind), Text: Visible(s.Text), Action: actionWords[s.Action]})
	}
	return out
}

// actionWords word a subject's verdict.
var actionWords = map[toolgate.Action]string{
	toolgate.NoAction: "no rule", toolgate.Allow: "allowed", toolgate.Ask: "needs you", toolgate.Deny: "denied",
}

// Reason words why the call waits for a person.
func Reason(d toolgate.Decision) string {
	if d.Reason == "" {
		return "no rule allows this call"
	}
	return Visible(d.Reason)
}

// Risks words the risks found, most severe first: "dangerous: REASON (in
// SUBJECT)".
func Risks(d toolgate.Decision) []string {
	rs := append([]toolgate.Risk(nil), d.Risks...)
	rank := map[toolgate.Severity]int{toolgate.SeverityCritical: 0, toolgate.SeverityUnprefixable: 1}
	sort.SliceStable(rs, func(i, j int) bool {
		ri, ok := rank[rs[i].Severity]
		if !ok {
			ri = 2
		}
		rj, ok := rank[rs[j].Severity]
		if !ok {
			rj = 2
		}
		return ri < rj
	})
	out := make([]string, 0, len(rs))
	for _, r := range rs {
		// A risk class's reason names its class already ("destructive: …").
		line := Visible(r.Reason)
		switch r.Severity {
		case toolgate.SeverityCritical:
			line = "dangerous: " + line
		case toolgate.SeverityUnprefixable:
			line = "no pattern can vet this: " + line
		}
		if r.Subject != "" {
			line += " (in " + Visible(r.Subject) + ")"
		}
		out = append(out, line)
	}
	return out
}

// Batch words where the call stands in its batch, what is still to come
// and which other calls of its session wait for an answer, "" when there
// is nothing to say.
func Batch(a *toolgate.Approval) string {
	c := a.Call
	var parts []string
	if c.Batch != nil && c.Batch.Total > 1 {
		parts = append(parts, fmt.Sprintf("call %d of %d in this turn", c.Batch.Index+1, c.Batch.Total))
	}
	if n := len(a.BatchRemaining); n > 0 {
		next := make([]string, 0, min(n, 3))
		for _, r := range a.BatchRemaining[:min(n, 3)] {
			next = append(next, Visible(r.Tool)+" "+cut(Command(r), 40))
		}
		more := ""
		if n > 3 {
			more = fmt.Sprintf(" and %d more", n-3)
		}
		parts = append(parts, "still to come: "+strings.Join(next, "; ")+more)
	}
	if w := a.SessionWaiting; w != nil && w.Count > 0 {
		parts = append(parts, WaitingText(w))
	}
	return strings.Join(parts, "; ")
}

// WaitingText words the other calls of a session that wait: "2 more calls
// from this session are waiting: Bash git push; Write main.go".
func WaitingText(w *toolgate.Waiting) string {
	s := fmt.Sprintf("%d more calls from this session are waiting", w.Count)
	if w.Count == 1 {
		s = "1 more call from this session is waiting"
	}
	shown := make([]string, 0, min(len(w.Calls), 3))
	for _, c := range w.Calls[:min(len(w.Calls), 3)] {
		shown = append(shown, Visible(c.Tool)+" "+cut(Visible(c.Summary), 40))
	}
	if len(shown) == 0 {
		return s
	}
	s += ": " + strings.Join(shown, "; ")
	if w.Count > len(shown) {
		s += fmt.Sprintf(" and %d more", w.Count-len(shown))
	}
	return s
}

// WaitingOf returns the other calls of a's session among pending (a
// gateway's or an approver's list of pending approvals), oldest first;
// nil when none waits or a is not pending.
func WaitingOf(a *toolgate.Approval, pending []*toolgate.Approval, now time.Time) *toolgate.Waiting {
	if a.Status != toolgate.StatusPending {
		return nil
	}
	var others []*toolgate.Approval
	for _, x := range pending {
		if x.ID == a.ID || x.Call.Session != a.Call.Session || x.Status != toolgate.StatusPending ||
			(!x.ExpiresAt.IsZero() && !now.Before(x.ExpiresAt)) {
			continue
		}
		others = append(others, x)
	}
	if len(others) == 0 {
		return nil
	}
	sort.SliceStable(others, func(i, j int) bool { return others[i].CreatedAt.Before(others[j].CreatedAt) })
	w := &toolgate.Waiting{Count: len(others)}
	for _, x := range others[:min(len(others), toolgate.MaxWaitingShown)] {
		w.Calls = append(w.Calls, toolgate.WaitingCall{ApprovalID: x.ID, Tool: x.Call.Tool, Summary: cut(Command(x.Call), 120)})
	}
	return w
}

// Where words the call's session and workspace, and where its tool
// comes from when that is known.
func Where(c toolgate.Call) string {
	ws := c.Workspace
	if ws == "" {
		ws = "default"
	}
	s := "workspace " + Visible(ws)
	if c.Session != "" {
		s += ", session " + Visible(c.Session)
	}
	if o := Origin(c.Origin); o != "" {
		s += ", " + o
	}
	return s
}

// Origin words a call's origin (seed 003: "Origin: MCP server tool"):
// "MCP server tool (github)" for "mcp:github", "" for none.
func Origin(o string) string {
	switch {
	case o == "":
		return ""
	case o == "mcp":
		return "MCP server tool"
	case strings.HasPrefix(o, "mcp:"):
		return "MCP server tool (" + Visible(strings.TrimPrefix(o, "mcp:")) + ")"
	}
	return "origin " + Visible(o)
}

// Pattern returns the suggested pattern an "always" or "session" answer
// grants by default, "" when the decision suggests none (the grant is
// then the tool itself).
func Pattern(d toolgate.Decision) string {
	if len(d.Suggestions) > 0 {
		return d.Suggestions[0].Pattern
	}
	return ""
}

// SessionPattern is what a turn or session answer grants: the call exactly
// as made (the broker's default for those scopes), "" when no pattern can
// say it (then only once is offered). Widening it is the person's choice,
// on a surface that lets them type a pattern.
func SessionPattern(d toolgate.Decision) string {
	if len(d.Suggestions) > 0 {
		return d.Suggestions[0].Exact
	}
	return ""
}

// Grant words exactly what approving with scope grants: which tool, which
// pattern, where and for how long.
func Grant(a *toolgate.Approval, scope toolgate.Scope, pattern string) string {
	what := "every " + Visible(a.Call.Tool) + " call"
	if pattern != "" {
		what = Visible(a.Call.Tool) + " calls matching " + Visible(pattern)
	}
	switch scope {
	case toolgate.ScopeOnce, "":
		return "allows this one call only"
	case toolgate.ScopeTurn:
		return "allows " + what + " in session " + Visible(a.Call.Session) + " until the user speaks again"
	case toolgate.ScopeSession:
		return "allows " + what + " in session " + Visible(a.Call.Session) + " until the session ends"
	case toolgate.ScopeWorkspace:
		ws := a.Call.Workspace
		if ws == "" {
			ws = "default"
		}
		return "allows " + what + " in workspace " + Visible(ws) + " from now on (a rule is added)"
	case toolgate.ScopeGlobal:
		return "allows " + what + " in every workspace from now on"
	}
	return "allows " + what + " (" + string(scope) + ")"
}

// Remaining words the time left before expiry: "4m05s", "expired".
func Remaining(a *toolgate.Approval, now time.Time) string {
	d := a.ExpiresAt.Sub(now)
	if d <= 0 {
		return "expired"
	}
	d = d.Round(time.Second)
	if d >= time.Hour {
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// Outcome words how an approval ended: "approved for the session by alice
// via telegram".
func Outcome(a *toolgate.Approval) string {
	r := a.Resolution
	if r == nil {
		return "still pending"
	}
	var s string
	switch r.Status {
	case toolgate.StatusApproved:
		s = "approved"
		switch r.Scope {
		case toolgate.ScopeOnce, "":
			s += " once"
		case toolgate.ScopeSession:
			s += " for the session"
		case toolgate.ScopeTurn:
			s += " for this turn"
		case toolgate.ScopeWorkspace:
			s += " always in this workspace"
		case toolgate.ScopeGlobal:
			s += " always, everywhere"
		}
		if r.Pattern != "" {
			s += " (" + Visible(r.Pattern) + ")"
		}
	case toolgate.StatusDenied:
		s = "denied"
		if r.DenyMode == toolgate.DenySoft {
			s += " (soft: the agent asks how to go on)"
		}
	case toolgate.StatusExpired:
		return "expired: nobody answered in time"
	case toolgate.StatusCancelled:
		return "cancelled: the agent stopped waiting"
	default:
		s = string(r.Status)
	}
	if r.By != "" {
		s += " by " + Visible(r.By)
	}
	if r.Via != "" {
		s += " via " + Visible(r.Via)
	}
	if r.Feedback != "" {
		s += ": " + cut(Visible(r.Feedback), 200)
	}
	return s
}

// Title is a one-line summary: "Bash: git push origin main".
func Title(a *toolgate.Approval) string {
	cmd := Command(a.Call)
	if cmd == "" {
		return Visible(a.Call.Tool)
	}
	return Visible(a.Call.Tool) + ": " + cut(cmd, 120)
}

// Text is the whole approval as plain text, for a notification body.
func Text(a *toolgate.Approval, now time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s wants to run %s\n", Where(a.Call), Visible(a.Call.Tool))
	if cmd := Command(a.Call); cmd != "" {
		fmt.Fprintf(&b, "%s\n", cut(cmd, 600))
	}
	if subs := Subjects(a.Decision); len(subs) > 1 {
		for _, s := range subs {
			fmt.Fprintf(&b, "  - %s %s: %s\n", s.Kind, cut(s.Text, 120), s.Action)
		}
	}
	fmt.Fprintf(&b, "Why: %s\n", cut(Reason(a.Decision), 300))
	for _, l := range Confirm(a.Decision, 24) {
		fmt.Fprintf(&b, "  %s\n", cut(l, 160))
	}
	for _, r := range Risks(a.Decision) {
		fmt.Fprintf(&b, "Risk: %s\n", cut(r, 300))
	}
	if m := Masked(a.Decision); m != "" {
		fmt.Fprintf(&b, "Secrets masked: %s\n", cut(m, 300))
	}
	if bt := Batch(a); bt != "" {
		fmt.Fprintf(&b, "Batch: %s\n", bt)
	}
	fmt.Fprintf(&b, "Expires in %s", Remaining(a, now))
	return b.String()
}

// Confirm returns the detail of what a person was required for
// (Decision.Confirm, e.g. the diff of a changed MCP tool definition): its
// lines after the first, which leads the reason, each made visible, at
// most most of them (the last says how many more there were).
func Confirm(d toolgate.Decision, most int) []string {
	_, rest, ok := strings.Cut(d.Confirm, "\n")
	if !ok || most < 1 {
		return nil
	}
	lines := strings.Split(strings.TrimRight(rest, "\n"), "\n")
	if len(lines) > most {
		more := len(lines) - most + 1
		lines = append(lines[:most-1:most-1], fmt.Sprintf("… %d more lines", more))
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = Visible(l)
	}
	return out
}

// Masked words the secrets masked in a call and where they were: "AWS
// access key ID in command, password in a URL in env.DB"; "" when none.
func Masked(d toolgate.Decision) string {
	parts := make([]string, 0, len(d.Redactions))
	for _, r := range d.Redactions {
		p := r.What + " in " + Visible(r.Arg)
		if !slices.Contains(parts, p) {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ", ")
}

// Limit shortens s to n runes, marking the cut with "…": a message
// within a chat API's length limit.
func Limit(s string, n int) string { return cut(s, n) }

// cut shortens s to n runes, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
