// Package tui is toolgate's terminal approver: a Bubble Tea program that
// lists a gateway's pending approvals live from its event stream and
// answers them from the keyboard (seed 001's y/a/n keys with a feedback
// input on deny, seed 004's ←/→ selection with Enter).
package tui

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/present"
)

// Gateway is what the terminal approver needs from a gateway; *client.Client
// implements it.
type Gateway interface {
	Approve(ctx context.Context, id string, req toolgate.ApproveRequest) (*toolgate.Approval, error)
	Deny(ctx context.Context, id string, req toolgate.DenyRequest) (*toolgate.Approval, error)
	Events(ctx context.Context, f toolgate.EventFilter) (<-chan toolgate.Event, <-chan error)
}

// mode is what the keyboard is doing.
type mode int

const (
	modeList    mode = iota
	modeSession      // confirming a session grant
	modeAlways       // editing the pattern of an always grant
	modeDeny         // typing feedback for a deny
	modeEdit         // editing the arguments before approving once
	modeOther        // typing an answer of one's own to a question
	modeHelp
)

// buttons are the answers ←/→ select among, in order.
var buttons = []string{"Approve once", "Session", "Always", "Deny"}

// Messages the program receives.
type (
	eventMsg toolgate.Event
	fatalMsg struct{ err error }
	connMsg  struct {
		live bool
		err  error
	}
	tickMsg   time.Time
	answerMsg struct {
		id   string
		what string
		a    *toolgate.Approval
		err  error
	}
)

// model is the Bubble Tea model.
type model struct {
	ctx    context.Context
	gate   Gateway
	target string // the gateway, as the header shows it
	styles styles
	now    time.Time

	items  []*toolgate.Approval // pending, oldest first
	cursor int
	button int
	mode   mode
	input  input
	hard   bool // deny mode: hard (default) or soft
	global bool // always scope: workspace (default) or global
	turn   bool // the session prompt grants for the turn only
	prefix bool // always grant: a literal prefix, not a glob pattern
	ask    *asking
	busy   map[string]bool

	live   bool
	status string
	fatal  error // why the program quit, if the gateway refused it
	width  int
	height int
}

func newModel(ctx context.Context, g Gateway, target string, st styles, now time.Time) *model {
	// The limit leaves room for the arguments' JSON, when editing them.
	in := input{prompt: "> ", limit: 20000, caret: st.caret, dim: st.dim}
	return &model{ctx: ctx, gate: g, target: target, styles: st, now: now, input: in,
		hard: true, busy: map[string]bool{}, width: 80, height: 24, status: "connecting…"}
}

func tick() tea.Cmd {
	return tea.Tick(time.Second, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// Init starts the countdown clock.
func (m *model) Init() tea.Cmd { return tick() }

func (m *model) selected() *toolgate.Approval {
	if m.cursor >= 0 && m.cursor < len(m.items) {
		return m.items[m.cursor]
	}
	return nil
}

// Update handles one message.
func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return m, nil
	case tickMsg:
		m.now = time.Time(msg)
		m.dropExpired()
		return m, tick()
	case eventMsg:
		m.apply(toolgate.Event(msg))
		return m, nil
	case fatalMsg:
		m.fatal = fmt.Errorf("gateway refused the event stream: %w (toolgate tui needs an approver or admin token)", msg.err)
		return m, tea.Quit
	case connMsg:
		m.live = msg.live
		if msg.err != nil {
			m.status = "disconnected: " + present.Visible(oneLine(msg.err.Error())) + " (retrying)"
		} else if msg.live {
			m.status = "connected"
		}
		return m, nil
	case answerMsg:
		delete(m.busy, msg.id)
		if msg.err != nil {
			m.status = msg.what + " failed: " + present.Visible(oneLine(msg.err.Error()))
			if toolgate.ErrorCodeOf(msg.err) == toolgate.EConflict || toolgate.ErrorCodeOf(msg.err) == toolgate.ENotFound {
				m.remove(msg.id) // answered elsewhere or gone
			}
			return m, nil
		}
		m.status = present.Title(msg.a) + ": " + present.Outcome(msg.a)
		m.remove(msg.id)
		return m, nil
	case tea.KeyMsg:
		return m.key(msg)
	}
	return m, nil
}

// apply folds an event into the list.
func (m *model) apply(e toolgate.Event) {
	a := e.Approval
	if a == nil {
		return
	}
	switch e.Type {
	case toolgate.EventApprovalRequested:
		if a.Status != toolgate.StatusPending && a.Status != "" {
			return
		}
		for i, x := range m.items {
			if x.ID == a.ID {
				m.items[i] = a
				return
			}
		}
		var keep string
		if s := m.selected(); s != nil {
			keep = s.ID
		}
		m.items = append(m.items, a)
		sort.SliceStable(m.items, func(i, j int) bool { return m.items[i].CreatedAt.Before(m.items[j].CreatedAt) })
		m.reselect(keep)
	case toolgate.EventApprovalResolved:
		if s := m.selected(); s != nil && s.ID == a.ID && m.mode != modeList && m.mode != modeHelp {
			m.mode = modeList
			m.input.Blur()
		}
		if m.remove(a.ID) && !m.busy[a.ID] {
			m.status = present.Title(a) + ": " + present.Outcome(a)
		}
	}
}

func (m *model) reselect(id string) {
	for i, x := range m.items {
		if x.ID == id {
			m.cursor = i
			return
		}
	}
}

// remove drops an approval from the list, reporting whether it was there.
func (m *model) remove(id string) bool {
	for i, x := range m.items {
		if x.ID == id {
			m.items = append(m.items[:i], m.items[i+1:]...)
			if m.cursor >= len(m.items) {
				m.cursor = max(0, len(m.items)-1)
			}
			if m.mode != modeHelp && i == m.cursor {
				m.button = 0
			}
			return true
		}
	}
	return false
}

// dropExpired removes approvals past their expiry: the gateway denies
// them; its resolved event may be late or missed during a reconnect.
func (m *model) dropExpired() {
	for i := 0; i < len(m.items); {
		if !m.items[i].ExpiresAt.IsZero() && !m.now.Before(m.items[i].ExpiresAt) {
			m.remove(m.items[i].ID)
			continue
		}
		i++
	}
}

func (m *model) key(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	if k.Type == tea.KeyCtrlC {
		return m, tea.Quit
	}
	switch m.mode {
	case modeHelp:
		m.mode = modeList
		return m, nil
	case modeDeny, modeAlways, modeEdit, modeOther:
		return m.inputKey(k)
	case modeSession:
		switch k.String() {
		case "enter", "y", "s", "t", "3":
			m.mode = modeList
			forD := ""
			if k.String() == "3" {
				forD = sessionFor // only for the next half hour
			}
			if m.turn {
				return m, m.approve(toolgate.ScopeTurn, "", forD)
			}
			return m, m.approve(toolgate.ScopeSession, "", forD)
		case "esc", "n", "q":
			m.mode = modeList
		}
		return m, nil
	}
	if s := m.asking(); s != nil {
		if cmd, ok := m.questionKey(s, k); ok {
			return m, cmd
		}
	}
	switch k.String() {
	case "q":
		return m, tea.Quit
	case "?":
		m.mode = modeHelp
	case "j", "down":
		if m.cursor < len(m.items)-1 {
			m.cursor++
			m.button = 0
		}
	case "k", "up":
		if m.cursor > 0 {
			m.cursor--
			m.button = 0
		}
	case "left", "h":
		m.button = (m.button + len(buttons) - 1) % len(buttons)
	case "right", "l", "tab":
		m.button = (m.button + 1) % len(buttons)
	case "enter":
		return m, m.press(m.button)
	case "y":
		return m, m.press(0)
	case "s":
		m.turn = false
		return m, m.press(1)
	case "t":
		// The session prompt, for the turn only: until the user speaks again.
		m.turn = true
		cmd := m.press(1)
		if m.mode != modeSession {
			m.turn = false
		}
		return m, cmd
	case "a":
		return m, m.press(2)
	case "n", "d":
		return m, m.press(3)
	case "e":
		return m, m.edit()
	}
	return m, nil
}

// asking is the answers in progress to the selected approval's questions,
// nil unless it is a question tool's call.
func (m *model) asking() *asking {
	a := m.selected()
	if a == nil {
		return nil
	}
	// A shell command carrying a "questions" argument is a command: its
	// card keeps the command and the grant keys in view.
	if isCommand(a) {
		return nil
	}
	if m.ask != nil && m.ask.id == a.ID {
		return m.ask
	}
	qs := questionsOf(a.Call.Args)
	if qs == nil {
		return nil
	}
	m.ask = newAsking(a.ID, qs)
	return m.ask
}

// questionKey handles the keys of a question card: it is answered, not
// granted, so s, t, a and e have no grant here. ok is false for keys
// the list handles (j/k, y, n, q, ?).
func (m *model) questionKey(s *asking, k tea.KeyMsg) (tea.Cmd, bool) {
	q := s.qs[s.cur]
	switch key := k.String(); key {
	case "left", "h":
		if len(q.Options) > 0 {
			s.hi = (s.hi + len(q.Options) - 1) % len(q.Options)
		}
	case "right", "l":
		if len(q.Options) > 0 {
			s.hi = (s.hi + 1) % len(q.Options)
		}
	case " ":
		s.pick(s.hi)
	case "tab":
		s.cur, s.hi = (s.cur+1)%len(s.qs), 0
	case "shift+tab":
		s.cur, s.hi = (s.cur+len(s.qs)-1)%len(s.qs), 0
	case "enter":
		if s.labels(s.cur) == "" {
			s.pick(s.hi)
		}
		if i := s.unanswered(); i >= 0 {
			s.cur, s.hi = i, 0
			return nil, true
		}
		return m.sendAnswer(s), true
	case "o":
		m.mode = modeOther
		m.input.open("your own answer (empty: none)", s.other[s.cur])
		return nil, true
	case "s", "t", "a", "e":
		m.status = "A question is answered, not granted: pick with 1-9 or ←/→ and Enter; y lets the agent ask itself; n denies."
	default:
		if len(key) == 1 && key[0] >= '1' && key[0] <= '9' {
			s.pick(int(key[0] - '1'))
			if !q.Multi && s.cur < len(s.qs)-1 && s.labels(s.cur) != "" {
				s.cur, s.hi = s.cur+1, 0
			}
			return nil, true
		}
		return nil, false
	}
	return nil, true
}

// sendAnswer approves the question call once with the chosen answers as
// its output.
func (m *model) sendAnswer(s *asking) tea.Cmd {
	ans, err := s.answer()
	if err != nil {
		m.status = "Cannot send: " + err.Error() + "."
		return nil
	}
	return m.send(toolgate.ApproveRequest{Scope: toolgate.ScopeOnce, Answer: ans}, "answer")
}

// edit opens the arguments for editing; Enter approves the edited call
// once, which the broker decides again and may refuse.
func (m *model) edit() tea.Cmd {
	a := m.selected()
	if a == nil || m.busy[a.ID] {
		return nil
	}
	text, err := editableJSON(a.Call.Args)
	if err != nil {
		m.status = "Cannot show the arguments: " + err.Error()
		return nil
	}
	m.mode = modeEdit
	m.input.open("arguments (JSON object)", text)
	return nil
}

// press starts the answer of button i for the selected approval.
func (m *model) press(i int) tea.Cmd {
	a := m.selected()
	if a == nil || m.busy[a.ID] {
		return nil
	}
	m.button = i
	if (i == 1 || i == 2) && onceOnly(a) {
		m.status = "No pattern can safely cover this command: approve it once (y) or deny it (n)."
		return nil
	}
	if i == 1 && present.SessionPattern(a.Decision) == "" && present.Pattern(a.Decision) != "" {
		// A session grant is the call exactly as made; with no pattern for
		// that, widening is a choice made with "always", pattern in view.
		m.status = "No exact pattern for this call: approve it once (y), or always (a) with a pattern you check."
		return nil
	}
	switch i {
	case 0:
		return m.approve(toolgate.ScopeOnce, "", "")
	case 1:
		m.mode = modeSession
	case 2:
		m.mode = modeAlways
		m.global = false
		m.prefix = false
		m.input.open("pattern", present.Pattern(a.Decision))
	case 3:
		m.mode = modeDeny
		m.hard = true
		m.input.open("feedback for the agent (optional)", "")
	}
	return nil
}

func (m *model) inputKey(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	switch k.Type {
	case tea.KeyEsc:
		m.mode = modeList
		m.input.Blur()
		return m, nil
	case tea.KeyTab:
		switch m.mode {
		case modeDeny:
			m.hard = !m.hard
		case modeAlways:
			m.global = !m.global
		}
		return m, nil
	case tea.KeyCtrlP:
		if m.mode == modeAlways {
			m.prefix = !m.prefix
			// A literal prefix has no wildcard: the suggestion's trailing
			// "*" becomes the prefix it meant, in view in the input.
			if v := m.input.Value(); m.prefix && strings.HasSuffix(v, "*") {
				m.input.SetValue(strings.TrimRight(strings.TrimSuffix(v, "*"), " "))
				m.input.CursorEnd()
			}
		}
		return m, nil
	case tea.KeyEnter:
		val := strings.TrimSpace(m.input.Value())
		md := m.mode
		if md == modeOther {
			m.mode = modeList
			m.input.Blur()
			if s := m.asking(); s != nil {
				// Typed text is an answer like a label; an empty one clears it.
				s.other[s.cur] = val
				if !s.qs[s.cur].Multi && val != "" {
					for j := range s.picked[s.cur] {
						s.picked[s.cur][j] = false
					}
				}
			}
			return m, nil
		}
		if md == modeEdit {
			a := m.selected()
			if a == nil {
				m.mode = modeList
				return m, nil
			}
			mods, err := modifications(a.Call.Args, val)
			if err != nil {
				// Stay in the editor: the person fixes the text.
				m.status = "Cannot approve the edit: " + err.Error() + "."
				return m, nil
			}
			m.mode = modeList
			m.input.Blur()
			return m, m.send(toolgate.ApproveRequest{Scope: toolgate.ScopeOnce, Modifications: mods}, "approve edited call")
		}
		m.mode = modeList
		m.input.Blur()
		if md == modeDeny {
			return m, m.deny(val)
		}
		scope := toolgate.ScopeWorkspace
		if m.global {
			scope = toolgate.ScopeGlobal
		}
		return m, m.approve(scope, val, "")
	}
	m.input.Update(k)
	return m, nil
}

// answerTimeout bounds one answer's round trip.
const answerTimeout = 15 * time.Second

// sessionFor is the time box the session prompt's "3" answers with.
const sessionFor = "30m"

func (m *model) approve(scope toolgate.Scope, pattern, forD string) tea.Cmd {
	a := m.selected()
	if a == nil {
		return nil
	}
	req := toolgate.ApproveRequest{Scope: scope, For: forD}
	if scope != toolgate.ScopeOnce {
		if pattern == "" && (scope == toolgate.ScopeSession || scope == toolgate.ScopeTurn) {
			pattern = present.SessionPattern(a.Decision)
		} else if pattern == "" {
			pattern = present.Pattern(a.Decision)
		}
		if pattern != "" {
			req.Grant, req.Pattern = toolgate.GrantPattern, pattern
			if m.prefix && (scope == toolgate.ScopeWorkspace || scope == toolgate.ScopeGlobal) {
				req.Grant = toolgate.GrantPrefix
			}
		} else {
			req.Grant = toolgate.GrantTool
		}
	}
	return m.send(req, "approve")
}

// send approves the selected approval with req; what names the answer
// in the status line, with the gateway's refusal if it refuses.
func (m *model) send(req toolgate.ApproveRequest, what string) tea.Cmd {
	a := m.selected()
	if a == nil {
		return nil
	}
	id, ctx, g := a.ID, m.ctx, m.gate
	m.busy[id] = true
	m.status = what + "…"
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, answerTimeout)
		defer cancel()
		res, err := g.Approve(ctx, id, req)
		return answerMsg{id: id, what: what, a: res, err: err}
	}
}

func (m *model) deny(feedback string) tea.Cmd {
	a := m.selected()
	if a == nil {
		return nil
	}
	req := toolgate.DenyRequest{Feedback: feedback, Mode: toolgate.DenyHard}
	if !m.hard {
		req.Mode = toolgate.DenySoft
	}
	id, ctx, g := a.ID, m.ctx, m.gate
	m.busy[id] = true
	m.status = "denying…"
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, answerTimeout)
		defer cancel()
		res, err := g.Deny(ctx, id, req)
		return answerMsg{id: id, what: "deny", a: res, err: err}
	}
}

// onceOnly reports whether a is a shell command with no suggested
// pattern: a grant could only be the whole tool, which no approver's answer
// may give (DESIGN §9), so it can be approved once or denied.
func onceOnly(a *toolgate.Approval) bool {
	return present.Pattern(a.Decision) == "" && isCommand(a)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// isCommand reports whether a's decision has a shell command subject.
func isCommand(a *toolgate.Approval) bool {
	for _, s := range a.Decision.Subjects {
		if s.Kind == toolgate.SubjectCommand {
			return true
		}
	}
	return false
}
