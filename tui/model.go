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

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/internal/present"
)

// Gate is what the terminal approver needs from a gateway; *client.Client
// implements it.
type Gate interface {
	Approve(ctx context.Context, id string, req approval.ApproveRequest) (*toolgate.Approval, error)
	Deny(ctx context.Context, id string, req approval.DenyRequest) (*toolgate.Approval, error)
	Events(ctx context.Context, f approval.EventFilter) (<-chan toolgate.Event, <-chan error)
}

// mode is what the keyboard is doing.
type mode int

const (
	modeList    mode = iota
	modeSession      // confirming a session grant
	modeAlways       // editing the pattern of an always grant
	modeDeny         // typing feedback for a deny
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
	gate   Gate
	target string // the gateway, as the header shows it
	styles styles
	now    time.Time

	items  []*toolgate.Approval // pending, oldest first
	cursor int
	button int
	mode   mode
	input  textinput.Model
	hard   bool // deny mode: hard (default) or soft
	global bool // always scope: workspace (default) or global
	turn   bool // the session prompt grants for the turn only
	busy   map[string]bool

	live   bool
	status string
	fatal  error // why the program quit, if the gateway refused it
	width  int
	height int
}

func newModel(ctx context.Context, g Gate, target string, st styles, now time.Time) *model {
	in := textinput.New()
	in.CharLimit = 2000
	in.Prompt = "> "
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
	case modeDeny, modeAlways:
		return m.inputKey(k)
	case modeSession:
		switch k.String() {
		case "enter", "y", "s", "t":
			m.mode = modeList
			if m.turn {
				return m, m.approve(toolgate.ScopeTurn, "")
			}
			return m, m.approve(toolgate.ScopeSession, "")
		case "esc", "n", "q":
			m.mode = modeList
		}
		return m, nil
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
	}
	return m, nil
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
		return m.approve(toolgate.ScopeOnce, "")
	case 1:
		m.mode = modeSession
	case 2:
		m.mode = modeAlways
		m.global = false
		m.input.Placeholder = "pattern"
		m.input.SetValue(present.Pattern(a.Decision))
		m.input.CursorEnd()
		return m.input.Focus()
	case 3:
		m.mode = modeDeny
		m.hard = true
		m.input.Placeholder = "feedback for the agent (optional)"
		m.input.SetValue("")
		return m.input.Focus()
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
		if m.mode == modeDeny {
			m.hard = !m.hard
		} else {
			m.global = !m.global
		}
		return m, nil
	case tea.KeyEnter:
		val := strings.TrimSpace(m.input.Value())
		md := m.mode
		m.mode = modeList
		m.input.Blur()
		if md == modeDeny {
			return m, m.deny(val)
		}
		scope := toolgate.ScopeWorkspace
		if m.global {
			scope = toolgate.ScopeGlobal
		}
		return m, m.approve(scope, val)
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(k)
	return m, cmd
}

// answerTimeout bounds one answer's round trip.
const answerTimeout = 15 * time.Second

func (m *model) approve(scope toolgate.Scope, pattern string) tea.Cmd {
	a := m.selected()
	if a == nil {
		return nil
	}
	req := approval.ApproveRequest{Scope: scope}
	if scope != toolgate.ScopeOnce {
		if pattern == "" && (scope == toolgate.ScopeSession || scope == toolgate.ScopeTurn) {
			pattern = present.SessionPattern(a.Decision)
		} else if pattern == "" {
			pattern = present.Pattern(a.Decision)
		}
		if pattern != "" {
			req.Grant, req.Pattern = toolgate.GrantPattern, pattern
		} else {
			req.Grant = toolgate.GrantTool
		}
	}
	id, ctx, g := a.ID, m.ctx, m.gate
	m.busy[id] = true
	m.status = "approving…"
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, answerTimeout)
		defer cancel()
		res, err := g.Approve(ctx, id, req)
		return answerMsg{id: id, what: "approve", a: res, err: err}
	}
}

func (m *model) deny(feedback string) tea.Cmd {
	a := m.selected()
	if a == nil {
		return nil
	}
	req := approval.DenyRequest{Feedback: feedback, Mode: toolgate.DenyHard}
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
	if present.Pattern(a.Decision) != "" {
		return false
	}
	for _, s := range a.Decision.Subjects {
		if s.Kind == toolgate.SubjectCommand {
			return true
		}
	}
	return false
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
