package tui

import (
	"unicode"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// input is the one-line text field of the prompts (a pattern, feedback,
// the arguments' JSON, an own answer): the editing keys of a shell's line
// and a cursor shown in reverse video.
//
// It stands in for bubbles' textinput, which links a clipboard package
// whose initialisation looks for xclip, xsel, termux-clipboard-set and
// clip.exe in every directory of $PATH at the start of every toolgate
// command (docs/BENCHMARKS.md, "Main binary start-up"); its Ctrl-V paste
// never reached the field here. A terminal's paste arrives as typed text.
type input struct {
	prompt      string
	placeholder string
	limit       int // most runes held; 0: no limit

	value []rune
	pos   int // the cursor: an index into value
	focus bool
	caret lipgloss.Style // the cursor's
	dim   lipgloss.Style // the placeholder's
}

// open shows the field with text, the cursor at its end, placeholder
// when it is empty, and gives it the focus.
func (in *input) open(placeholder, text string) {
	in.placeholder = placeholder
	in.SetValue(text)
	in.CursorEnd()
	in.Focus()
}

// Value is the text.
func (in *input) Value() string { return string(in.value) }

// SetValue replaces the text, cleaned as typed text is, and keeps the
// cursor within it.
func (in *input) SetValue(s string) {
	in.value = in.clip(clean([]rune(s)))
	in.pos = min(in.pos, len(in.value))
}

// CursorEnd moves the cursor past the last rune.
func (in *input) CursorEnd() { in.pos = len(in.value) }

// Focus lets keys edit the text.
func (in *input) Focus() { in.focus = true }

// Blur stops keys editing the text.
func (in *input) Blur() { in.focus = false }

// Update edits the text by one key: ←/→ and Ctrl-B/F a rune, Alt-←/→,
// Ctrl-←/→ and Alt-B/F a word, Home/Ctrl-A and End/Ctrl-E the line;
// Backspace/Ctrl-H and Delete/Ctrl-D delete a rune, Alt-Backspace/Ctrl-W
// and Alt-Delete/Alt-D a word, Ctrl-U and Ctrl-K to the start and the end.
// Typed and pasted runes are inserted at the cursor; other keys do nothing.
func (in *input) Update(k tea.KeyMsg) {
	if !in.focus {
		return
	}
	if (k.Type == tea.KeyRunes || k.Type == tea.KeySpace) && !k.Alt {
		in.insert(clean(k.Runes))
		return
	}
	switch k.String() {
	case "left", "ctrl+b":
		in.pos = max(in.pos-1, 0)
	case "right", "ctrl+f":
		in.pos = min(in.pos+1, len(in.value))
	case "alt+left", "ctrl+left", "alt+b":
		in.pos = in.wordStart()
	case "alt+right", "ctrl+right", "alt+f":
		in.pos = in.wordEnd()
	case "home", "ctrl+a":
		in.pos = 0
	case "end", "ctrl+e":
		in.pos = len(in.value)
	case "backspace", "ctrl+h":
		if in.pos > 0 {
			in.cut(in.pos-1, in.pos)
		}
	case "delete", "ctrl+d":
		if in.pos < len(in.value) {
			in.cut(in.pos, in.pos+1)
		}
	case "alt+backspace", "ctrl+w":
		in.cut(in.wordStart(), in.pos)
	case "alt+delete", "alt+d":
		in.cut(in.pos, in.wordEnd())
	case "ctrl+u":
		in.cut(0, in.pos)
	case "ctrl+k":
		in.cut(in.pos, len(in.value))
	}
}

// wordStart is where the word before the cursor starts, spaces before
// the cursor included.
func (in *input) wordStart() int {
	i := in.pos
	for i > 0 && unicode.IsSpace(in.value[i-1]) {
		i--
	}
	for i > 0 && !unicode.IsSpace(in.value[i-1]) {
		i--
	}
	return i
}

// wordEnd is where the word after the cursor ends, spaces after the
// cursor included.
func (in *input) wordEnd() int {
	i := in.pos
	for i < len(in.value) && unicode.IsSpace(in.value[i]) {
		i++
	}
	for i < len(in.value) && !unicode.IsSpace(in.value[i]) {
		i++
	}
	return i
}

// cut deletes value[from:to] and leaves the cursor at from.
func (in *input) cut(from, to int) {
	in.value = append(in.value[:from], in.value[to:]...)
	in.pos = from
}

// insert puts rs at the cursor, as many as the limit leaves room for.
func (in *input) insert(rs []rune) {
	if in.limit > 0 {
		rs = rs[:min(len(rs), max(in.limit-len(in.value), 0))]
	}
	in.value = append(in.value[:in.pos], append(rs, in.value[in.pos:]...)...)
	in.pos += len(rs)
}

// clip cuts rs to the limit.
func (in *input) clip(rs []rune) []rune {
	if in.limit > 0 && len(rs) > in.limit {
		return rs[:in.limit]
	}
	return rs
}

// View is the prompt and the text with the cursor on the rune it is
// before (a space past the end); an empty field shows the placeholder,
// dim.
func (in *input) View() string {
	if len(in.value) == 0 && in.placeholder != "" {
		ph := []rune(in.placeholder)
		first := in.dim.Render(string(ph[:1]))
		if in.focus {
			first = in.caret.Render(string(ph[:1]))
		}
		return in.prompt + first + in.dim.Render(string(ph[1:]))
	}
	if in.pos == len(in.value) {
		return in.prompt + string(in.value) + in.mark(" ")
	}
	return in.prompt + string(in.value[:in.pos]) + in.mark(string(in.value[in.pos])) + string(in.value[in.pos+1:])
}

// mark draws s under the cursor: reversed while the field has the focus.
func (in *input) mark(s string) string {
	if !in.focus {
		return s
	}
	return in.caret.Render(s)
}

// clean makes rs one line of text: tabs and line ends become spaces,
// other control characters and invalid UTF-8 are dropped.
func clean(rs []rune) []rune {
	out := make([]rune, 0, len(rs))
	for _, r := range rs {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			out = append(out, ' ')
		case r == utf8.RuneError || unicode.IsControl(r):
		default:
			out = append(out, r)
		}
	}
	return out
}
