package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/toolgate/toolgate"
)

// questionCall is an AskUserQuestion approval with a single choice and a
// multiple choice question.
func questionCall(id string) *toolgate.Approval {
	return &toolgate.Approval{
		ID: id, Status: toolgate.StatusPending, CreatedAt: t0.Add(time.Second), ExpiresAt: t0.Add(5 * time.Minute),
		Call: toolgate.Call{ID: "c-" + id, Session: "s1", Workspace: "demo", Tool: "AskUserQuestion", Args: map[string]any{
			"questions": []any{
				map[string]any{"question": "Which database?", "header": "DB", "options": []any{
					map[string]any{"label": "SQLite", "description": "a file"},
					map[string]any{"label": "PostgreSQL", "description": "a server"},
				}},
				map[string]any{"question": "Which checks?", "multiSelect": true, "options": []any{
					map[string]any{"label": "lint"}, map[string]any{"label": "test"}, map[string]any{"label": "vet"},
				}},
			},
		}},
		Decision: toolgate.Decision{Action: toolgate.Ask, Reason: "questions are for the user"},
	}
}

// withSelected adds a and selects it (it sorts after the shell call).
func withSelected(g Gateway, a *toolgate.Approval) *model {
	m := newTestModel(g, true)
	m.Update(eventMsg(toolgate.Event{Type: toolgate.EventApprovalRequested, Approval: a}))
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("j")})
	return m
}

func TestQuestionKeys(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		keys   []string
		answer string // the Answer sent, "" for none
		status string // in the status line when nothing is sent
	}{
		{"numbers answer each question", []string{"2", "1", "3", "enter"},
			`{"answers":{"Which checks?":"lint, vet","Which database?":"PostgreSQL"}}`, ""},
		{"arrows and enter", []string{"right", "enter", "right", "right", " ", "enter"},
			`{"answers":{"Which checks?":"vet","Which database?":"PostgreSQL"}}`, ""},
		{"a multiple choice toggles", []string{"1", "1", "1", "2", "enter"},
			`{"answers":{"Which checks?":"test","Which database?":"SQLite"}}`, ""},
		{"o types an answer of one's own", []string{"o", "text:MySQL", "enter", "tab", "2", "enter"},
			`{"answers":{"Which checks?":"test","Which database?":"MySQL"}}`, ""},
		{"an own answer joins a multiple choice", []string{"1", "3", "o", "text:fmt", "enter", "enter"},
			`{"answers":{"Which checks?":"vet, fmt","Which database?":"SQLite"}}`, ""},
		{"a picked option replaces an own single answer", []string{"o", "text:MySQL", "enter", "2", "1", "enter"},
			`{"answers":{"Which checks?":"lint","Which database?":"PostgreSQL"}}`, ""},
		{"typed digits in the own answer do not pick", []string{"o", "text:2", "esc", "tab", "1", "enter"}, "", ""},
		{"enter with a question open moves to it, not send", []string{"1", "tab", "enter"}, "", ""},
		{"grant keys do not grant a question", []string{"s", "enter"}, "", "answered, not granted"},
		{"a does not open a pattern", []string{"a", "enter"}, "", "answered, not granted"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := &fakeGateway{}
			m := withSelected(g, questionCall("q1"))
			press(t, m, tc.keys...)
			if tc.answer == "" {
				for _, r := range g.approves {
					t.Fatalf("sent %+v", r)
				}
				if !strings.Contains(m.status, tc.status) {
					t.Fatalf("status %q, want %q", m.status, tc.status)
				}
				return
			}
			if len(g.approves) != 1 {
				t.Fatalf("approves %v", g.approves)
			}
			got := g.approves[0]
			if got.Scope != toolgate.ScopeOnce || got.Grant != "" || got.Pattern != "" || got.Modifications != nil {
				t.Fatalf("approve %+v: want once with an answer only", got)
			}
			var a, b any
			if err := json.Unmarshal(got.Answer, &a); err != nil {
				t.Fatal(err)
			}
			_ = json.Unmarshal([]byte(tc.answer), &b)
			if ga, _ := json.Marshal(a); string(ga) != tc.answer {
				t.Fatalf("answer %s, want %s", ga, tc.answer)
			}
		})
	}
}

// TestShellWithQuestionsIsACommand: a shell call carrying a "questions"
// argument is shown and answered as the command it is.
func TestShellWithQuestionsIsACommand(t *testing.T) {
	t.Parallel()
	a := pending("x", "rm -rf /")
	a.CreatedAt = t0.Add(time.Second)
	a.Call.Args["questions"] = questionCall("y").Call.Args["questions"]
	m := withSelected(&fakeGateway{}, a)
	if m.asking() != nil {
		t.Fatal("a shell command shown as a question card")
	}
	if v := m.View(); !strings.Contains(v, "$ ") {
		t.Fatalf("command not shown:\n%s", v)
	}
}

func TestPrefixAndEditKeys(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		keys    []string
		approve *toolgate.ApproveRequest
		status  string
	}{
		{"ctrl+p makes always a prefix grant", []string{"a", "ctrl+u", "text:git push", "ctrl+p", "enter"},
			&toolgate.ApproveRequest{Scope: toolgate.ScopeWorkspace, Grant: toolgate.GrantPrefix, Pattern: "git push"}, ""},
		{"ctrl+p turns the suggestion's trailing * into its prefix", []string{"a", "ctrl+p", "enter"},
			&toolgate.ApproveRequest{Scope: toolgate.ScopeWorkspace, Grant: toolgate.GrantPrefix, Pattern: "git push"}, ""},
		{"ctrl+p twice is a glob again", []string{"a", "ctrl+p", "ctrl+p", "tab", "enter"},
			&toolgate.ApproveRequest{Scope: toolgate.ScopeGlobal, Grant: toolgate.GrantPattern, Pattern: "git push"}, ""},
		{"a glob typed after ctrl+p twice", []string{"a", "ctrl+p", "ctrl+p", "ctrl+u", "text:git push origin *", "enter"},
			&toolgate.ApproveRequest{Scope: toolgate.ScopeWorkspace, Grant: toolgate.GrantPattern, Pattern: "git push origin *"}, ""},
		{"prefix is not kept for the next always", []string{"a", "ctrl+p", "esc", "a", "enter"},
			&toolgate.ApproveRequest{Scope: toolgate.ScopeWorkspace, Grant: toolgate.GrantPattern, Pattern: "git push *"}, ""},
		{"e edits the arguments, enter approves once with the change", []string{"e", "ctrl+u", `text:{"command":"git push"}`, "enter"},
			&toolgate.ApproveRequest{Scope: toolgate.ScopeOnce, Modifications: []byte(`{"command":"git push"}`)}, ""},
		{"e adds an argument", []string{"e", "ctrl+u", `text:{"command":"git push --force && rm -rf build","timeout":5}`, "enter"},
			&toolgate.ApproveRequest{Scope: toolgate.ScopeOnce, Modifications: []byte(`{"timeout":5}`)}, ""},
		{"an unchanged edit sends nothing", []string{"e", "enter"}, nil, "nothing was changed"},
		{"a removed argument sends nothing", []string{"e", "ctrl+u", "text:{}", "enter"}, nil, "cannot be removed"},
		{"not JSON sends nothing", []string{"e", "ctrl+u", "text:ls", "enter"}, nil, "not a JSON object"},
		{"an array sends nothing", []string{"e", "ctrl+u", "text:[1]", "enter"}, nil, "not a JSON object"},
		{"esc leaves the editor", []string{"e", "ctrl+u", `text:{"command":"ls"}`, "esc"}, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := &fakeGateway{}
			m := newTestModel(g, true)
			pressWith(t, m, tc.keys...)
			if tc.approve == nil {
				if len(g.approves)+len(g.denies) != 0 {
					t.Fatalf("answered: %+v %+v", g.approves, g.denies)
				}
				if !strings.Contains(m.status, tc.status) {
					t.Fatalf("status %q, want %q", m.status, tc.status)
				}
				return
			}
			if len(g.approves) != 1 {
				t.Fatalf("approves %+v", g.approves)
			}
			got := g.approves[0]
			if got.Scope != tc.approve.Scope || got.Grant != tc.approve.Grant || got.Pattern != tc.approve.Pattern ||
				string(got.Modifications) != string(tc.approve.Modifications) || got.Answer != nil {
				t.Fatalf("approve %+v (mods %s), want %+v (mods %s)", got, got.Modifications, *tc.approve, tc.approve.Modifications)
			}
		})
	}
}

// pressWith is press with Ctrl-P.
func pressWith(t *testing.T, m *model, spec ...string) {
	t.Helper()
	var run []string
	for _, s := range spec {
		if s == "ctrl+p" {
			press(t, m, run...)
			run = nil
			m.Update(tea.KeyMsg{Type: tea.KeyCtrlP})
			continue
		}
		run = append(run, s)
	}
	press(t, m, run...)
}

// TestEditRefused: the broker's refusal of the edited call is shown and
// the approval stays to be answered.
func TestEditRefused(t *testing.T) {
	t.Parallel()
	g := &fakeGateway{refuse: toolgate.Errorf(toolgate.EForbidden, "the call as modified is denied (rm -rf / is denied); approve it unchanged or deny it")}
	m := newTestModel(g, true)
	press(t, m, "e", "ctrl+u", `text:{"command":"rm -rf /"}`, "enter")
	if len(g.approves) != 1 {
		t.Fatalf("approves %+v", g.approves)
	}
	if len(m.items) != 1 {
		t.Fatal("refused approval left the list")
	}
	v := strings.Join(strings.Fields(m.View()), " ")
	if !strings.Contains(v, "the call as modified is denied") {
		t.Fatalf("refusal not shown:\n%s", v)
	}
}

// TestNewScreensFit: question cards, the prefix prompt and the argument
// editor fit 80×24 (and smaller) and draw no escapes with NO_COLOR.
func TestNewScreensFit(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {60, 16}} {
		for _, tc := range []struct {
			q    bool
			keys []string
		}{{true, nil}, {true, []string{"2", "tab", "?"}}, {true, []string{"o", "text:" + strings.Repeat("long answer ", 20)}}, {false, []string{"a", "ctrl+p"}}, {false, []string{"e"}}, {false, []string{"?"}}} {
			var m *model
			if tc.q {
				m = withSelected(&fakeGateway{}, questionCall("q1"))
			} else {
				m = newTestModel(&fakeGateway{}, true)
			}
			m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			pressWith(t, m, tc.keys...)
			v := m.View()
			lines := strings.Split(v, "\n")
			if len(lines) > size[1] {
				t.Errorf("%v %v: %d lines", size, tc.keys, len(lines))
			}
			for _, l := range lines {
				if w := ansi.StringWidth(l); w > size[0] {
					t.Errorf("%v %v: line %d wide: %q", size, tc.keys, w, l)
				}
			}
			if strings.Contains(v, "\x1b") {
				t.Errorf("%v %v: escape sequence with NO_COLOR", size, tc.keys)
			}
			if tc.q && len(tc.keys) == 0 && (!strings.Contains(v, "› AskUserQuestion: Which database?") || !strings.Contains(v, "2 ( ) PostgreSQL")) {
				t.Errorf("question card lacks its question or options:\n%s", v)
			}
			if !tc.q && len(tc.keys) == 2 && !strings.Contains(v, "literal prefix") {
				t.Errorf("prefix prompt does not say so:\n%s", v)
			}
		}
	}
}

// TestEditableJSON: the editor's text shows & as is and escapes what
// could drive or fool the terminal, and reads back as the same arguments.
func TestEditableJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"command": "a && b"}, `{"command":"a && b"}`},
		{map[string]any{"command": "echo \x1b[2Jok"}, `{"command":"echo \u001b[2Jok"}`},
		{map[string]any{"command": "ls \u202etxt.exe"}, `{"command":"ls \u202etxt.exe"}`},
		{map[string]any{"command": "a\u200bb", "n": 2}, `{"command":"a\u200bb","n":2}`},
		{map[string]any{"path": "caf\u00e9 \U0001F600"}, `{"path":"café 😀"}`},
		{map[string]any{"x": "\U000E0041"}, `{"x":"\udb40\udc41"}`},
	}
	for _, tc := range tests {
		got, err := editableJSON(tc.args)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("editableJSON(%q) = %s, want %s", tc.args, got, tc.want)
		}
		if _, err := modifications(tc.args, got); err == nil || !strings.Contains(err.Error(), "nothing was changed") {
			t.Errorf("%s does not read back as the same arguments: %v", got, err)
		}
	}
}

// TestManyOptions: a question with more options than fit shows a window
// around the highlight and says how many are beyond it; ←/→ reach them.
func TestManyOptions(t *testing.T) {
	t.Parallel()
	a := questionCall("q1")
	var opts []any
	for i := 1; i <= 20; i++ {
		opts = append(opts, map[string]any{"label": fmt.Sprintf("choice-%02d", i)})
	}
	a.Call.Args = map[string]any{"questions": []any{map[string]any{"question": "Which one?", "options": opts}}}
	g := &fakeGateway{}
	m := withSelected(g, a)
	v := m.View()
	if !strings.Contains(v, "choice-07") || strings.Contains(v, "choice-08") || !strings.Contains(v, "13 more below") {
		t.Fatalf("first window wrong:\n%s", v)
	}
	for i := 0; i < 14; i++ { // to choice-15
		m.Update(tea.KeyMsg{Type: tea.KeyRight})
	}
	v = m.View()
	if !strings.Contains(v, "› 15 ( ) choice-15") || !strings.Contains(v, "more above") {
		t.Fatalf("window does not follow the highlight:\n%s", v)
	}
	press(t, m, " ", "enter")
	if len(g.approves) != 1 || string(g.approves[0].Answer) != `{"answers":{"Which one?":"choice-15"}}` {
		t.Fatalf("approves %+v", g.approves)
	}
}
