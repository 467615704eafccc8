package tui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

func TestInputEditing(t *testing.T) {
	t.Parallel()
	k := func(t tea.KeyType) tea.KeyMsg { return tea.KeyMsg{Type: t} }
	alt := func(t tea.KeyType) tea.KeyMsg { return tea.KeyMsg{Type: t, Alt: true} }
	runes := func(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }
	tests := []struct {
		name  string
		start string
		keys  []tea.KeyMsg
		want  string
		pos   int
	}{
		{"typed at the end", "git ", []tea.KeyMsg{runes("log")}, "git log", 7},
		{"typed before the cursor's rune", "gt", []tea.KeyMsg{k(tea.KeyLeft), runes("i")}, "git", 2},
		{"a space key", "git", []tea.KeyMsg{{Type: tea.KeySpace, Runes: []rune{' '}}, runes("x")}, "git x", 5},
		{"backspace", "git", []tea.KeyMsg{k(tea.KeyBackspace)}, "gi", 2},
		{"backspace at the start", "git", []tea.KeyMsg{k(tea.KeyHome), k(tea.KeyBackspace)}, "git", 0},
		{"delete under the cursor", "git", []tea.KeyMsg{k(tea.KeyCtrlA), k(tea.KeyDelete)}, "it", 0},
		{"delete at the end", "git", []tea.KeyMsg{k(tea.KeyDelete)}, "git", 3},
		{"right stops at the end", "ab", []tea.KeyMsg{k(tea.KeyRight), runes("c")}, "abc", 3},
		{"left stops at the start", "ab", []tea.KeyMsg{k(tea.KeyLeft), k(tea.KeyLeft), k(tea.KeyLeft), runes("c")}, "cab", 1},
		{"ctrl+u deletes to the start", "git push *", []tea.KeyMsg{k(tea.KeyLeft), k(tea.KeyCtrlU)}, "*", 0},
		{"ctrl+k deletes to the end", "git push *", []tea.KeyMsg{k(tea.KeyHome), k(tea.KeyRight), k(tea.KeyCtrlK)}, "g", 1},
		{"ctrl+w deletes the word and spaces before", "git push  ", []tea.KeyMsg{k(tea.KeyCtrlW)}, "git ", 4},
		{"alt+backspace as ctrl+w", "git push", []tea.KeyMsg{alt(tea.KeyBackspace)}, "git ", 4},
		{"alt+d deletes the word after", "git push now", []tea.KeyMsg{k(tea.KeyHome), {Type: tea.KeyRunes, Runes: []rune("d"), Alt: true}}, " push now", 0},
		{"typed text that spells a key's name is text", "", []tea.KeyMsg{runes("left")}, "left", 4},
		{"word left and right", "git push now", []tea.KeyMsg{alt(tea.KeyLeft), alt(tea.KeyLeft), runes("x"), k(tea.KeyCtrlRight), runes("y")}, "git xpushy now", 10},
		{"end", "git", []tea.KeyMsg{k(tea.KeyHome), k(tea.KeyEnd), runes("s")}, "gits", 4},
		{"a paste is one line without control characters", "", []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune("a\tb\r\nc\x07d"), Paste: true}}, "a b  cd", 7},
		{"the limit holds", "", []tea.KeyMsg{runes("abcdefghijklmnopqrstuvwxyz")}, "abcdefghijklmnopqrst", 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := input{limit: 20}
			in.open("", tt.start)
			for _, key := range tt.keys {
				in.Update(key)
			}
			if in.Value() != tt.want || in.pos != tt.pos {
				t.Errorf("got %q, cursor %d; want %q, cursor %d", in.Value(), in.pos, tt.want, tt.pos)
			}
		})
	}
}

func TestInputIgnoresKeysWithoutFocus(t *testing.T) {
	t.Parallel()
	in := input{}
	in.open("", "git")
	in.Blur()
	in.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")})
	if in.Value() != "git" {
		t.Errorf("got %q, want the text unchanged", in.Value())
	}
}

func TestInputView(t *testing.T) {
	t.Parallel()
	plain := lipgloss.NewStyle()
	mark := plain.Transform(func(s string) string { return "[" + s + "]" })
	in := input{prompt: "> ", caret: mark, dim: plain}
	in.open("pattern", "")
	if got, want := in.View(), "> [p]attern"; got != want {
		t.Errorf("empty: %q, want %q", got, want)
	}
	in.SetValue("git")
	in.CursorEnd()
	if got, want := in.View(), "> git[ ]"; got != want {
		t.Errorf("at the end: %q, want %q", got, want)
	}
	in.Update(tea.KeyMsg{Type: tea.KeyLeft})
	if got, want := in.View(), "> gi[t]"; got != want {
		t.Errorf("on a rune: %q, want %q", got, want)
	}
	in.Blur()
	if got, want := in.View(), "> git"; got != want {
		t.Errorf("without focus: %q, want %q", got, want)
	}
}
