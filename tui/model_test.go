package tui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/toolgate/toolgate"
)

// fakeGateway records answers.
type fakeGateway struct {
	mu       sync.Mutex
	approves []toolgate.ApproveRequest
	denies   []toolgate.DenyRequest
	refuse   error // returned by Approve, as a broker refusing an edit
}

func (g *fakeGateway) Approve(_ context.Context, id string, req toolgate.ApproveRequest) (*toolgate.Approval, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.approves = append(g.approves, req)
	if g.refuse != nil {
		return nil, g.refuse
	}
	return &toolgate.Approval{ID: id, Call: toolgate.Call{Tool: "Bash"}, Status: toolgate.StatusApproved,
		Resolution: &toolgate.Resolution{Status: toolgate.StatusApproved, Scope: req.Scope, Pattern: req.Pattern, By: "me", Via: "tui"}}, nil
}

func (g *fakeGateway) Deny(_ context.Context, id string, req toolgate.DenyRequest) (*toolgate.Approval, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.denies = append(g.denies, req)
	return &toolgate.Approval{ID: id, Call: toolgate.Call{Tool: "Bash"}, Status: toolgate.StatusDenied,
		Resolution: &toolgate.Resolution{Status: toolgate.StatusDenied, DenyMode: req.Mode, Feedback: req.Feedback}}, nil
}

func (g *fakeGateway) Events(ctx context.Context, _ toolgate.EventFilter) (<-chan toolgate.Event, <-chan error) {
	panic("not used")
}

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func pending(id, command string) *toolgate.Approval {
	return &toolgate.Approval{
		ID: id, Status: toolgate.StatusPending, CreatedAt: t0, ExpiresAt: t0.Add(5 * time.Minute),
		Call: toolgate.Call{ID: "c-" + id, Session: "s1", Workspace: "demo", Tool: "Bash", Args: map[string]any{"command": command},
			Batch: &toolgate.Batch{ID: "b", Index: 0, Total: 2}},
		BatchRemaining: []toolgate.Call{{Tool: "Bash", Args: map[string]any{"command": "make deploy"}}},
		Decision: toolgate.Decision{Action: toolgate.Ask, Reason: "no rule allows git push",
			Subjects:    []toolgate.SubjectResult{{Kind: toolgate.SubjectCommand, Text: "git push --force", Action: toolgate.Ask}, {Kind: toolgate.SubjectCommand, Text: "rm -rf build", Action: toolgate.Ask}},
			Risks:       []toolgate.Risk{{Code: "force-push", Severity: toolgate.SeverityCritical, Reason: "rewrites remote history", Subject: "git push --force"}},
			Suggestions: []toolgate.Suggestion{{Tool: "Bash", Pattern: "git push *", Exact: "git push --force"}}},
	}
}

func newTestModel(g Gateway, noColor bool) *model {
	m := newModel(context.Background(), g, "http://gw", newStyles(lipgloss.NewRenderer(&strings.Builder{}), noColor), t0)
	m.Update(connMsg{live: true})
	m.Update(eventMsg(toolgate.Event{Seq: 1, Type: toolgate.EventApprovalRequested, Approval: pending("a1", "git push --force && rm -rf build"), Replay: true}))
	return m
}

// keys turns "y", "enter", "left", "text:abc" into key messages.
func keys(spec ...string) []tea.KeyMsg {
	var out []tea.KeyMsg
	for _, s := range spec {
		switch {
		case strings.HasPrefix(s, "text:"):
			out = append(out, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(strings.TrimPrefix(s, "text:"))})
		case s == "enter":
			out = append(out, tea.KeyMsg{Type: tea.KeyEnter})
		case s == "tab":
			out = append(out, tea.KeyMsg{Type: tea.KeyTab})
		case s == "esc":
			out = append(out, tea.KeyMsg{Type: tea.KeyEsc})
		case s == "left":
			out = append(out, tea.KeyMsg{Type: tea.KeyLeft})
		case s == "right":
			out = append(out, tea.KeyMsg{Type: tea.KeyRight})
		case s == "ctrl+u":
			out = append(out, tea.KeyMsg{Type: tea.KeyCtrlU})
		default:
			out = append(out, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)})
		}
	}
	return out
}

// press sends keys; the last key's command is run and its answer fed back.
func press(t *testing.T, m *model, spec ...string) {
	t.Helper()
	ks := keys(spec...)
	var cmd tea.Cmd
	for _, k := range ks {
		_, cmd = m.Update(k)
	}
	if cmd == nil {
		return
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	select {
	case msg := <-done:
		if a, ok := msg.(answerMsg); ok {
			m.Update(a)
		}
	case <-time.After(700 * time.Millisecond):
		// A blinking cursor's tick: not an answer.
	}
}

func TestKeys(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		keys    []string
		approve *toolgate.ApproveRequest
		deny    *toolgate.DenyRequest
	}{
		{"y approves once", []string{"y"}, &toolgate.ApproveRequest{Scope: toolgate.ScopeOnce}, nil},
		{"enter on the first button approves once", []string{"enter"}, &toolgate.ApproveRequest{Scope: toolgate.ScopeOnce}, nil},
		{"t shows the turn grant, enter approves for the turn", []string{"t", "enter"},
			&toolgate.ApproveRequest{Scope: toolgate.ScopeTurn, Grant: toolgate.GrantPattern, Pattern: "git push --force"}, nil},
		{"t then s approves for the session", []string{"t", "esc", "s", "enter"},
			&toolgate.ApproveRequest{Scope: toolgate.ScopeSession, Grant: toolgate.GrantPattern, Pattern: "git push --force"}, nil},
		{"s shows the grant, enter approves for the session", []string{"s", "enter"},
			&toolgate.ApproveRequest{Scope: toolgate.ScopeSession, Grant: toolgate.GrantPattern, Pattern: "git push --force"}, nil},
		{"s then 3 approves for the session, 30 minutes only", []string{"s", "3"},
			&toolgate.ApproveRequest{Scope: toolgate.ScopeSession, Grant: toolgate.GrantPattern, Pattern: "git push --force", For: "30m"}, nil},
		{"s then esc answers nothing", []string{"s", "esc"}, nil, nil},
		{"right right enter is always with the suggestion", []string{"right", "right", "enter", "enter"},
			&toolgate.ApproveRequest{Scope: toolgate.ScopeWorkspace, Grant: toolgate.GrantPattern, Pattern: "git push *"}, nil},
		{"a with an edited pattern", []string{"a", "ctrl+u", "text:git push origin *", "enter"},
			&toolgate.ApproveRequest{Scope: toolgate.ScopeWorkspace, Grant: toolgate.GrantPattern, Pattern: "git push origin *"}, nil},
		{"a tab is global", []string{"a", "tab", "enter"},
			&toolgate.ApproveRequest{Scope: toolgate.ScopeGlobal, Grant: toolgate.GrantPattern, Pattern: "git push *"}, nil},
		{"n with feedback is a hard deny", []string{"n", "text:use make push", "enter"}, nil,
			&toolgate.DenyRequest{Feedback: "use make push", Mode: toolgate.DenyHard}},
		{"n tab is a soft deny", []string{"n", "tab", "text:not now", "enter"}, nil,
			&toolgate.DenyRequest{Feedback: "not now", Mode: toolgate.DenySoft}},
		{"left from once wraps to deny", []string{"left", "enter", "enter"}, nil,
			&toolgate.DenyRequest{Mode: toolgate.DenyHard}},
		{"n then esc answers nothing", []string{"n", "text:x", "esc"}, nil, nil},
		{"typed y inside the feedback does not approve", []string{"n", "text:y", "enter"}, nil,
			&toolgate.DenyRequest{Feedback: "y", Mode: toolgate.DenyHard}},
		{"? shows help, any key leaves it", []string{"?", "y"}, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := &fakeGateway{}
			m := newTestModel(g, true)
			press(t, m, tc.keys...)
			switch {
			case tc.approve != nil:
				if len(g.approves) != 1 || len(g.denies) != 0 {
					t.Fatalf("approves %v denies %v", g.approves, g.denies)
				}
				if got := g.approves[0]; got.Scope != tc.approve.Scope || got.Grant != tc.approve.Grant || got.Pattern != tc.approve.Pattern || got.For != tc.approve.For {
					t.Fatalf("approve %+v, want %+v", got, *tc.approve)
				}
				if len(m.items) != 0 {
					t.Fatalf("answered approval still listed")
				}
			case tc.deny != nil:
				if len(g.denies) != 1 || len(g.approves) != 0 {
					t.Fatalf("approves %v denies %v", g.approves, g.denies)
				}
				if got := g.denies[0]; got != *tc.deny {
					t.Fatalf("deny %+v, want %+v", got, *tc.deny)
				}
			default:
				if len(g.approves)+len(g.denies) != 0 {
					t.Fatalf("answered: approves %v denies %v", g.approves, g.denies)
				}
				if len(m.items) != 1 {
					t.Fatalf("approval left the list without an answer")
				}
			}
		})
	}
}

func TestSessionShowsWhatItGrants(t *testing.T) {
	t.Parallel()
	m := newTestModel(&fakeGateway{}, true)
	press(t, m, "s")
	v := strings.Join(strings.Fields(m.View()), " ")
	want := "allows Bash calls matching git push --force in session s1 until the session ends"
	if !strings.Contains(v, want) {
		t.Fatalf("session prompt does not say %q:\n%s", want, v)
	}
}

func TestListFollowsEvents(t *testing.T) {
	t.Parallel()
	m := newTestModel(&fakeGateway{}, true)
	b := pending("a2", "make deploy")
	b.CreatedAt = t0.Add(time.Second)
	m.Update(eventMsg(toolgate.Event{Seq: 2, Type: toolgate.EventApprovalRequested, Approval: b}))
	// A replay of an approval already listed does not duplicate it.
	m.Update(eventMsg(toolgate.Event{Seq: 2, Type: toolgate.EventApprovalRequested, Approval: b, Replay: true}))
	if len(m.items) != 2 {
		t.Fatalf("items %d, want 2", len(m.items))
	}
	press(t, m, "j")
	if m.selected().ID != "a2" {
		t.Fatalf("j did not move down")
	}
	press(t, m, "k")
	if m.selected().ID != "a1" {
		t.Fatalf("k did not move up")
	}
	// Resolved elsewhere: it leaves the list and the status says how.
	res := *b
	res.Status = toolgate.StatusApproved
	res.Resolution = &toolgate.Resolution{Status: toolgate.StatusApproved, Scope: toolgate.ScopeOnce, By: "alice", Via: "web"}
	m.Update(eventMsg(toolgate.Event{Seq: 3, Type: toolgate.EventApprovalResolved, Approval: &res}))
	if len(m.items) != 1 || !strings.Contains(m.status, "approved once by alice via web") {
		t.Fatalf("items %d status %q", len(m.items), m.status)
	}
	// Expiry drops it even if the resolved event never came.
	m.Update(tickMsg(t0.Add(6 * time.Minute)))
	if len(m.items) != 0 {
		t.Fatalf("expired approval still listed")
	}
}

// TestViewFits checks every screen in 80×24 and smaller: no line wider
// than the terminal, no more lines than it has, and without color no
// escape sequence at all.
func TestViewFits(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {60, 16}, {120, 40}} {
		for _, spec := range [][]string{nil, {"s"}, {"a"}, {"n", "text:" + strings.Repeat("long feedback ", 20)}, {"?"}} {
			m := newTestModel(&fakeGateway{}, true)
			long := pending("a3", strings.Repeat("echo very long command; ", 40))
			long.CreatedAt = t0.Add(time.Second)
			m.Update(eventMsg(toolgate.Event{Type: toolgate.EventApprovalRequested, Approval: long}))
			m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			press(t, m, spec...)
			v := m.View()
			lines := strings.Split(v, "\n")
			if len(lines) > size[1] {
				t.Errorf("%v %v: %d lines", size, spec, len(lines))
			}
			for _, l := range lines {
				if w := ansi.StringWidth(l); w > size[0] {
					t.Errorf("%v %v: line %d wide: %q", size, spec, w, l)
				}
			}
			if strings.Contains(v, "\x1b") {
				t.Errorf("%v %v: escape sequence with NO_COLOR", size, spec)
			}
		}
	}
}

// TestHostileText: a command carrying terminal escapes or direction
// overrides is shown with those characters labelled, never sent to the
// terminal.
func TestHostileText(t *testing.T) {
	t.Parallel()
	m := newTestModel(&fakeGateway{}, true)
	evil := pending("a9", "echo ok\x1b[2J\x1b]0;pwned\x07 \u202erm -rf ~\u202c")
	evil.CreatedAt = t0.Add(time.Second)
	evil.Decision.Reason = "reason\x1b[31m"
	evil.Call.Tool = "Bash\x1b[1A"
	m.Update(eventMsg(toolgate.Event{Type: toolgate.EventApprovalRequested, Approval: evil}))
	press(t, m, "j")
	v := m.View()
	if strings.ContainsAny(v, "\x1b\x07\u202e\u202c") {
		t.Fatalf("raw control or bidi characters reach the terminal: %q", v)
	}
	for _, want := range []string{"⟦U+001B⟧", "⟦U+202E⟧"} {
		if !strings.Contains(v, want) {
			t.Fatalf("view does not label %s:\n%s", want, v)
		}
	}
}

// TestOnceOnly: a shell command with no suggested pattern can only be
// approved once or denied; s and a answer nothing.
func TestOnceOnly(t *testing.T) {
	t.Parallel()
	g := &fakeGateway{}
	m := newTestModel(g, true)
	m.items[0].Decision.Suggestions = nil
	for _, k := range []string{"s", "a"} {
		press(t, m, k)
		if m.mode != modeList || len(g.approves) != 0 || !strings.Contains(m.status, "approve it once") {
			t.Fatalf("%s: mode %v, approves %v, status %q", k, m.mode, g.approves, m.status)
		}
	}
	press(t, m, "y")
	if len(g.approves) != 1 || g.approves[0].Scope != toolgate.ScopeOnce {
		t.Fatalf("y: %v", g.approves)
	}
}

// streamGate serves scripted event streams and records the filters asked.
type streamGate struct {
	fakeGateway
	mu      sync.Mutex
	filters []toolgate.EventFilter
	streams [][]toolgate.Event
}

func (g *streamGate) Events(ctx context.Context, f toolgate.EventFilter) (<-chan toolgate.Event, <-chan error) {
	g.mu.Lock()
	g.filters = append(g.filters, f)
	var evs []toolgate.Event
	if len(g.streams) > 0 {
		evs, g.streams = g.streams[0], g.streams[1:]
	}
	g.mu.Unlock()
	ch, errc := make(chan toolgate.Event, len(evs)), make(chan error, 1)
	for _, e := range evs {
		ch <- e
	}
	if len(evs) == 0 {
		go func() { <-ctx.Done(); close(ch); errc <- nil }()
	} else {
		close(ch)
		errc <- toolgate.Errorf(toolgate.EUnavailable, "event stream ended")
	}
	return ch, errc
}

// TestFollowResumes: after a dropped stream the approver reconnects and
// resumes after the last sequence it saw (replays do not move it), so a
// resolution that happened meanwhile is not missed.
func TestFollowResumes(t *testing.T) {
	t.Parallel()
	a := pending("a1", "make deploy")
	g := &streamGate{streams: [][]toolgate.Event{
		{{Seq: 7, Type: toolgate.EventApprovalRequested, Approval: a, Replay: true}, {Seq: 9, Type: toolgate.EventGrantAdded}},
		{{Seq: 12, Type: toolgate.EventApprovalResolved, Approval: a}},
	}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var got []tea.Msg
	go follow(ctx, g, toolgate.EventFilter{Workspace: "w"}, func(m tea.Msg) { mu.Lock(); got = append(got, m); mu.Unlock() })
	deadline := time.Now().Add(30 * time.Second)
	for {
		g.mu.Lock()
		n := len(g.filters)
		g.mu.Unlock()
		if n >= 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("reconnected %d times, want 2", n-1)
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.filters[0].AfterSeq != 0 || g.filters[1].AfterSeq != 9 || g.filters[2].AfterSeq != 12 || g.filters[1].Workspace != "w" {
		t.Fatalf("filters %+v: want to resume after 9, then 12, in workspace w", g.filters)
	}
	mu.Lock()
	defer mu.Unlock()
	offline := false
	for _, m := range got {
		if c, ok := m.(connMsg); ok && !c.live && c.err != nil {
			offline = true
		}
	}
	if !offline {
		t.Fatal("the dropped stream was not reported")
	}
}

// refusingGate refuses the event stream as a gateway does for an agent
// token.
type refusingGate struct{ fakeGateway }

func (*refusingGate) Events(context.Context, toolgate.EventFilter) (<-chan toolgate.Event, <-chan error) {
	ch, errc := make(chan toolgate.Event), make(chan error, 1)
	close(ch)
	errc <- toolgate.Errorf(toolgate.EForbidden, "this needs an approver token")
	return ch, errc
}

// TestWrongCredentialQuits: a refused credential ends the program with
// the reason instead of retrying forever.
func TestWrongCredentialQuits(t *testing.T) {
	t.Parallel()
	var got []tea.Msg
	follow(context.Background(), &refusingGate{}, toolgate.EventFilter{}, func(m tea.Msg) { got = append(got, m) })
	if len(got) != 1 {
		t.Fatalf("messages %v, want one fatal", got)
	}
	m := newTestModel(&fakeGateway{}, true)
	_, cmd := m.Update(got[0])
	if cmd == nil || m.fatal == nil || !strings.Contains(m.fatal.Error(), "approver") {
		t.Fatalf("fatal %v", m.fatal)
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("the program does not quit")
	}
}

func TestTurnShowsWhatItGrants(t *testing.T) {
	t.Parallel()
	m := newTestModel(&fakeGateway{}, true)
	press(t, m, "t")
	v := strings.Join(strings.Fields(m.View()), " ")
	want := "Turn: allows Bash calls matching git push --force in session s1 until the user speaks again"
	if !strings.Contains(v, want) {
		t.Fatalf("turn prompt does not say %q:\n%s", want, v)
	}
}

// Calls of one session that arrive one at a time (hooks, POST /v1/calls
// without a batch) show each other as batch context, kept current from
// the live list; a call of another session is no context.
func TestSessionWaiting(t *testing.T) {
	t.Parallel()
	m := newModel(context.Background(), &fakeGateway{}, "http://gw", newStyles(lipgloss.NewRenderer(&strings.Builder{}), true), t0)
	m.Update(connMsg{live: true})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	mk := func(id, session, cmd string, at time.Duration) *toolgate.Approval {
		return &toolgate.Approval{ID: id, Status: toolgate.StatusPending, CreatedAt: t0.Add(at), ExpiresAt: t0.Add(5 * time.Minute),
			Call:     toolgate.Call{ID: "c-" + id, Session: session, Tool: "Bash", Args: map[string]any{"command": cmd}},
			Decision: toolgate.Decision{Action: toolgate.Ask, Reason: "asks"}}
	}
	one, two, other := mk("a1", "s1", "npm test", 0), mk("a2", "s1", "npm run lint", time.Second), mk("a3", "s2", "make", 2*time.Second)
	for i, a := range []*toolgate.Approval{one, two, other} {
		m.Update(eventMsg(toolgate.Event{Seq: int64(i + 1), Type: toolgate.EventApprovalRequested, Approval: a}))
	}
	view := func() string { return strings.Join(strings.Fields(m.View()), " ") }
	if v := view(); !strings.Contains(v, "Batch: 1 more call from this session is waiting: Bash npm run lint") {
		t.Fatalf("the first does not show the second:\n%s", v)
	}
	press(t, m, "j")
	if v := view(); !strings.Contains(v, "Batch: 1 more call from this session is waiting: Bash npm test") {
		t.Fatalf("the second does not show the first:\n%s", v)
	}
	press(t, m, "j")
	if v := view(); strings.Contains(v, "Batch:") {
		t.Fatalf("a call alone in its session shows batch context:\n%s", v)
	}
	// The first is answered elsewhere: the second shows no more context.
	res := *one
	res.Status = toolgate.StatusApproved
	res.Resolution = &toolgate.Resolution{Status: toolgate.StatusApproved, Scope: toolgate.ScopeOnce, By: "alice", Via: "web"}
	m.Update(eventMsg(toolgate.Event{Seq: 4, Type: toolgate.EventApprovalResolved, Approval: &res}))
	press(t, m, "k")
	if m.selected().ID != "a2" {
		t.Fatalf("selected %s", m.selected().ID)
	}
	if v := view(); strings.Contains(v, "Batch:") {
		t.Fatalf("an answered call still shows as waiting:\n%s", v)
	}
}
