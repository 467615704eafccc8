package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/present"
)

// styles are the program's looks. Every distinction a style makes is also
// made in text (a "›" cursor, [brackets] around the chosen button, words
// for severity), so nothing is lost without color.
type styles struct {
	header, dim, cursor, button, chosen, risk, warn lipgloss.Style
	caret                                           lipgloss.Style // an input's cursor
}

// newStyles returns styles drawn by r; with noColor it draws plain text.
func newStyles(r *lipgloss.Renderer, noColor bool) styles {
	if noColor {
		r.SetColorProfile(termenv.Ascii)
	}
	return styles{
		header: r.NewStyle().Bold(true),
		dim:    r.NewStyle().Faint(true),
		cursor: r.NewStyle().Bold(true).Foreground(lipgloss.Color("12")),
		button: r.NewStyle(),
		chosen: r.NewStyle().Bold(true).Foreground(lipgloss.Color("0")).Background(lipgloss.Color("14")),
		risk:   r.NewStyle().Bold(true).Foreground(lipgloss.Color("9")),
		warn:   r.NewStyle().Foreground(lipgloss.Color("11")),
		caret:  r.NewStyle().Reverse(true),
	}
}

// View draws the screen: header, list, details of the selected approval,
// the answer bar and a key line, each line cut to the terminal's width.
func (m *model) View() string {
	w, h := max(m.width, 20), max(m.height, 8)
	var lines []string
	add := func(s string) { lines = append(lines, s) }

	state := "live"
	if !m.live {
		state = "offline"
	}
	add(m.styles.header.Render("toolgate approvals") + m.styles.dim.Render(fmt.Sprintf(" · %s · %s · %d pending", m.target, state, len(m.items))))
	add(strings.Repeat("─", w))

	if m.mode == modeHelp {
		for _, l := range helpLines {
			add(l)
		}
		add("")
		add(m.styles.dim.Render("press any key to go back"))
		return m.fit(lines, w, h)
	}

	if len(m.items) == 0 {
		add("")
		add("  No approvals waiting. New ones appear here as agents ask.")
	} else {
		// The list takes at most a third of the screen; the rest is the
		// selected approval.
		rows := max(1, min(len(m.items), (h-12)/3+1))
		start := min(max(0, m.cursor-rows/2), len(m.items)-rows)
		for i := start; i < start+rows; i++ {
			a := m.items[i]
			mark := "  "
			if i == m.cursor {
				mark = m.styles.cursor.Render("› ")
			}
			left := mark + m.title(a)
			right := "  " + present.Remaining(a, m.now)
			add(padRight(left, w-ansi.StringWidth(right)) + right)
		}
		if len(m.items) > rows {
			add(m.styles.dim.Render(fmt.Sprintf("  … %d in all (j/k to move)", len(m.items))))
		}
		add(strings.Repeat("─", w))
		info, prompt := m.details(w)
		lines = append(lines, info...)
		// An open prompt (its input, what it grants) stays on screen: on a
		// short terminal the details above it are cut instead.
		if len(prompt) > 0 {
			lines = append(lines[:min(len(lines), max(0, h-3-len(prompt)))], prompt...)
		}
	}
	body := m.fit(lines, w, h-3)
	var foot []string
	foot = append(foot, m.answerBar())
	foot = append(foot, m.styles.dim.Render(cut(present.Visible(m.status), w)))
	keyLine := "y once · s session · t turn · a always · e edit · n deny · ←/→ Enter · ? help"
	if m.asking() != nil {
		keyLine = "1-9/←/→ Space pick · o own answer · Tab next question · Enter send · n deny"
	}
	foot = append(foot, m.styles.dim.Render(keyLine))
	for i := range foot {
		foot[i] = ansi.Truncate(foot[i], w, "…")
	}
	return body + "\n" + strings.Join(foot, "\n")
}

// details draws the selected approval and the prompt of an open input.
func (m *model) details(w int) (info, prompt []string) {
	a := m.selected()
	if a == nil {
		return nil, nil
	}
	var out []string
	out = append(out, m.styles.header.Render(present.Visible(a.Call.Tool))+"  "+m.styles.dim.Render(present.Where(a.Call)))
	s := m.asking()
	if s != nil {
		out = append(out, m.questionLines(s, w)...)
	} else if cmd := present.Command(a.Call); cmd != "" {
		out = append(out, wrap("$ "+cmd, w, 3)...)
	}
	subs := present.Subjects(a.Decision)
	if len(subs) > 1 {
		for i, s := range subs {
			branch := "├ "
			if i == len(subs)-1 {
				branch = "└ "
			}
			out = append(out, "  "+branch+cut(s.Text, w-20)+m.styles.dim.Render("  "+s.Kind+": "+s.Action))
		}
	}
	out = append(out, wrap("Why: "+present.Reason(a.Decision), w, 2)...)
	for _, l := range present.Confirm(a.Decision, 40) {
		out = append(out, "  "+cut(l, w-2))
	}
	for _, r := range present.Risks(a.Decision) {
		for _, l := range wrap("! "+r, w, 2) {
			out = append(out, m.styles.risk.Render(l))
		}
	}
	if s := present.Masked(a.Decision); s != "" {
		out = append(out, wrap("Secrets masked: "+s, w, 2)...)
	}
	// The other calls of the session, from the live list: current as
	// calls arrive and are answered (what the gateway sent is a snapshot).
	live := *a
	live.SessionWaiting = present.WaitingOf(a, m.items, m.now)
	if b := present.Batch(&live); b != "" {
		out = append(out, "Batch: "+b)
	}
	out = append(out, "Expires in "+present.Remaining(a, m.now))
	info, out = out, nil
	switch m.mode {
	case modeSession:
		out = append(out, "")
		label, scope := "Session: ", toolgate.ScopeSession
		if m.turn {
			label, scope = "Turn: ", toolgate.ScopeTurn
		}
		out = append(out, m.warnLines(label+present.Grant(a, scope, present.SessionPattern(a.Decision))+".", w)...)
		out = append(out, "Enter to approve, 3 for the next 30 minutes only, Esc to go back.")
	case modeAlways:
		scope := toolgate.ScopeWorkspace
		if m.global {
			scope = toolgate.ScopeGlobal
		}
		pat := strings.TrimSpace(m.input.Value())
		if pat == "" {
			pat = present.Pattern(a.Decision)
		}
		out = append(out, "")
		kind := "Grant: glob pattern (Ctrl-P for a literal prefix)"
		if m.prefix {
			kind = "Grant: literal prefix: commands starting with " + present.Visible(pat)
		}
		out = append(out, m.warnLines("Always ("+string(scope)+"): "+present.Grant(a, scope, pat)+".", w)...)
		out = append(out, cut(kind, w))
		out = append(out, "Edit; Tab: workspace/global; Ctrl-P: glob/prefix; Enter approves; Esc back.", m.input.View())
	case modeEdit:
		out = append(out, "")
		out = append(out, m.warnLines("Edit the arguments (JSON): Enter approves the edited call once; the rules decide it again first and may refuse it. Esc goes back.", w)...)
		out = append(out, m.input.View())
	case modeOther:
		out = append(out, "")
		out = append(out, "Your own answer to this question; Enter keeps it; Esc goes back.", m.input.View())
	case modeDeny:
		how := "hard: ends the agent's turn and the rest of its batch"
		if !m.hard {
			how = "soft: this call only; the agent asks the user how to go on"
		}
		out = append(out, "")
		out = append(out, m.warnLines("Deny ("+how+")", w)...)
		out = append(out, "Feedback for the agent; Tab: soft/hard; Enter sends; Esc goes back.", m.input.View())
	}
	return info, out
}

// title is a list row's text: a question card's first question rather
// than its arguments' JSON.
func (m *model) title(a *toolgate.Approval) string {
	if qs := questionsOf(a.Call.Args); qs != nil && !isCommand(a) {
		return present.Visible(a.Call.Tool) + ": " + present.Visible(qs[0].Question)
	}
	return present.Title(a)
}

// maxOptions is how many of a question's options show at once.
const maxOptions = 7

// questionLines draws a question card: the current question with its
// numbered options, the others with what is chosen so far.
func (m *model) questionLines(s *asking, w int) []string {
	var out []string
	for qi, q := range s.qs {
		head := fmt.Sprintf("Q%d/%d ", qi+1, len(s.qs))
		if q.Header != "" {
			head += "[" + present.Visible(q.Header) + "] "
		}
		text := present.Visible(q.Question)
		if qi != s.cur {
			chosen := s.labels(qi)
			if chosen == "" {
				chosen = "(not answered)"
			}
			out = append(out, m.styles.dim.Render(cut("  "+head+text+" → "+present.Visible(chosen), w)))
			continue
		}
		if q.Multi {
			text += " (choose any)"
		}
		out = append(out, wrap("› "+head+text, w, 2)...)
		// A long list shows a window around the highlight: the options
		// beyond it are reached with ←/→ and said to be there.
		first, last := 0, len(q.Options)
		if last > maxOptions {
			first = min(max(0, s.hi-maxOptions/2), last-maxOptions)
			last = first + maxOptions
		}
		if first > 0 {
			out = append(out, m.styles.dim.Render(fmt.Sprintf("  … %d more above (←)", first)))
		}
		for oi := first; oi < last; oi++ {
			o := q.Options[oi]
			box := "( )"
			if q.Multi {
				box = "[ ]"
			}
			if s.picked[qi][oi] {
				box = "(•)"
				if q.Multi {
					box = "[x]"
				}
			}
			mark := "  "
			if oi == s.hi {
				mark = m.styles.cursor.Render("› ")
			}
			line := fmt.Sprintf("%s%d %s %s", mark, oi+1, box, present.Visible(o.Label))
			if o.Description != "" {
				line += m.styles.dim.Render(" — " + present.Visible(o.Description))
			}
			out = append(out, cut(line, w))
		}
		if last < len(q.Options) {
			out = append(out, m.styles.dim.Render(fmt.Sprintf("  … %d more below (→)", len(q.Options)-last)))
		}
		if s.other[qi] != "" {
			out = append(out, cut("  o your own: "+present.Visible(s.other[qi]), w))
		}
	}
	return out
}

// warnLines wraps s to width w (at most three lines) in the warning style.
func (m *model) warnLines(s string, w int) []string {
	ls := wrap(s, w, 3)
	for i := range ls {
		ls[i] = m.styles.warn.Render(ls[i])
	}
	return ls
}

// answerBar draws the four answers, the chosen one in [brackets].
func (m *model) answerBar() string {
	if m.selected() == nil {
		return ""
	}
	var parts []string
	a := m.selected()
	if s := m.asking(); s != nil {
		send := "Send answer"
		if i := s.unanswered(); i >= 0 {
			send = fmt.Sprintf("Send answer (Q%d open)", i+1)
		}
		return m.styles.chosen.Render("["+send+"]") + "   y approve without answering · n deny"
	}
	for i, b := range buttons {
		if (i == 1 || i == 2) && onceOnly(a) {
			b = "(" + b + ")" // not offered: see onceOnly
		}
		if i == m.button {
			parts = append(parts, m.styles.chosen.Render("["+b+"]"))
		} else {
			parts = append(parts, m.styles.button.Render(" "+b+" "))
		}
	}
	return strings.Join(parts, "  ")
}

var helpLines = []string{
	"Keys",
	"  y          approve this call once",
	"  s          approve for the session (shows what it grants; Enter confirms,",
	"             3 confirms for the next 30 minutes only)",
	"  t          approve for this turn only, until the user speaks again (the same)",
	"  a          always: edit the suggested pattern, Tab for workspace/global",
	"  a Ctrl-P   in always: switch glob pattern / literal prefix grant",
	"  e          edit the arguments (JSON), Enter approves the edited call once",
	"  n          deny: type feedback for the agent, Tab for soft/hard, Enter",
	"  1-9 Space  question cards: pick an option (←/→ move, Tab next question),",
	"             o types an answer of your own; Enter sends the answers",
	"  ←/→ Enter  choose an answer and confirm it",
	"  j/k ↓/↑    move between pending approvals",
	"  Esc        leave an input without answering",
	"  ?          this help;  q or Ctrl-C  quit",
	"",
	"A hard deny also denies the rest of the agent's batch and stops its turn;",
	"a soft deny tells the agent to ask the user how to go on.",
}

// fit cuts lines to width w and to at most h lines, padding to h.
func (m *model) fit(lines []string, w, h int) string {
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// wrap breaks s into lines of width w, at most n of them.
func wrap(s string, w, n int) []string {
	r := []rune(s)
	var out []string
	for len(r) > 0 && len(out) < n {
		k := 0
		width := 0
		for k < len(r) {
			cw := ansi.StringWidth(string(r[k]))
			if width+cw > w {
				break
			}
			width += cw
			k++
		}
		if k == 0 {
			k = 1
		}
		// Break after the last space that fits, unless the word is longer
		// than the line.
		if k < len(r) {
			for j := k; j > k/2; j-- {
				if r[j-1] == ' ' {
					k = j
					break
				}
			}
		}
		if len(out) == n-1 && k < len(r) {
			out = append(out, ansi.Truncate(string(r), w, "…"))
			return out
		}
		out = append(out, string(r[:k]))
		r = r[k:]
	}
	return out
}

func padRight(s string, w int) string {
	s = ansi.Truncate(s, max(w, 1), "…")
	if d := w - ansi.StringWidth(s); d > 0 {
		s += strings.Repeat(" ", d)
	}
	return s
}

func cut(s string, w int) string { return ansi.Truncate(s, max(w, 1), "…") }
