package policy

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tailscale/hujson"
	"github.com/toolgate/toolgate"
)

// AppendRule appends r to a workspace JSONC document as its new last rule,
// so it is the last match for its tool, keeping every comment and the
// formatting of the rest of the text:
//
//   - if the document's last member is r.Tool's detailed entry
//     ({"pattern": "action", …}), the rule is added at its end;
//   - if it is r.Tool's simple entry ("tool": "action"), that entry becomes
//     {"*": "action", "pattern": "action"};
//   - otherwise a new member "tool": {"pattern": "action"} is added at the
//     end of the document (a tool key may appear more than once).
//
// A non-empty comment is written as // lines just above the new rule. An
// empty pattern is written as "*". An empty src gives a new document. The
// result is checked: it parses with ParseWorkspace to the old rules and r.
// Prefix rules and rules with When conditions cannot be written in a
// workspace document and are rejected.
func AppendRule(src []byte, r Rule, comment string) ([]byte, error) {
	switch {
	case r.Prefix:
		return nil, errors.New("append rule: prefix rules cannot be written in a workspace document (JSONC patterns are globs)")
	case len(r.When) > 0:
		return nil, errors.New("append rule: rules with \"when\" conditions cannot be written in a workspace document; put them in toolgate.yaml")
	case r.Tool == "":
		return nil, errors.New("append rule: empty tool name")
	case strings.HasPrefix(r.Tool, ExactPrefix):
		return nil, fmt.Errorf("append rule: tool name %q starts with %q, which marks an exact rule", r.Tool, ExactPrefix)
	case strings.HasPrefix(r.Tool, "$"):
		return nil, fmt.Errorf("append rule: tool name %q starts with \"$\", which workspace documents reserve", r.Tool)
	case !utf8.ValidString(r.Tool) || !utf8.ValidString(r.Pattern):
		return nil, errors.New("append rule: tool name and pattern must be valid UTF-8")
	case r.Action != toolgate.Allow && r.Action != toolgate.Ask && r.Action != toolgate.Deny:
		return nil, fmt.Errorf("append rule: invalid action %v", r.Action)
	}
	if r.Pattern == "" {
		r.Pattern = "*"
	}
	var old *Document
	if len(bytes.TrimSpace(src)) > 0 {
		var err error
		if old, err = ParseWorkspace("document", src); err != nil {
			return nil, fmt.Errorf("append rule: %w", err)
		}
	}
	out, err := appendRule(src, r, comment)
	if err != nil {
		return nil, fmt.Errorf("append rule: %w", err)
	}
	// Check the edit did what it says.
	doc, err := ParseWorkspace("document", out)
	if err != nil {
		return nil, fmt.Errorf("append rule: edited document does not parse: %w", err)
	}
	n := 0
	if old != nil {
		n = len(old.Rules)
	}
	if len(doc.Rules) != n+1 {
		return nil, fmt.Errorf("append rule: edited document has %d rules, want %d", len(doc.Rules), n+1)
	}
	last := doc.Rules[n]
	if last.Tool != r.Tool || last.Pattern != r.Pattern || last.Action != r.Action || last.Sandbox != r.Sandbox {
		return nil, fmt.Errorf("append rule: edited document ends with %s %q %v, want %s %q %v", last.Tool, last.Pattern, last.Action, r.Tool, r.Pattern, r.Action)
	}
	return out, nil
}

// editor builds the edited text.
type editor struct {
	src  []byte
	nl   string // "\n" or "\r\n", as the document uses
	unit string // one level of indentation
}

func appendRule(src []byte, r Rule, comment string) ([]byte, error) {
	e := &editor{src: src, nl: "\n", unit: "  "}
	if bytes.Contains(src, []byte("\r\n")) {
		e.nl = "\r\n"
	}
	action := r.Action.String()
	if r.Sandbox {
		action = SandboxAction
	}
	entry := jsonString(r.Pattern) + ": " + jsonString(action)
	commentLines := commentLines(comment)
	key := r.Tool
	if r.Exact {
		key = ExactPrefix + key
	}

	if len(bytes.TrimSpace(src)) == 0 {
		var b strings.Builder
		b.WriteString("{" + e.nl)
		for _, c := range commentLines {
			b.WriteString(e.unit + c + e.nl)
		}
		b.WriteString(e.unit + jsonString(key) + ": {" + e.nl)
		b.WriteString(e.unit + e.unit + entry + e.nl)
		b.WriteString(e.unit + "}" + e.nl + "}" + e.nl)
		return []byte(b.String()), nil
	}

	v, src, err := parseHuJSON(src)
	if err != nil {
		return nil, err
	}
	top, ok := v.Value.(*hujson.Object)
	if !ok {
		return nil, errors.New("top level is not an object")
	}
	topIndent := e.memberIndent(top, e.unit)
	if len(top.Members) > 0 {
		if ind := e.memberIndent(top, ""); ind != "" {
			e.unit = ind
		}
	}
	if n := len(top.Members); n > 0 {
		last := &top.Members[n-1]
		if last.Name.Value.(hujson.Literal).String() == key {
			switch val := last.Value.Value.(type) {
			case *hujson.Object:
				inner := e.memberIndent(val, topIndent+e.unit)
				return e.appendMember(last.Value.StartOffset, last.Value.EndOffset, val, topIndent, inner, commentLines, entry), nil
			case hujson.Literal:
				// Convert "tool": "action" to the detailed form.
				inner := topIndent + e.unit
				var b strings.Builder
				b.WriteString("{" + e.nl)
				b.WriteString(inner + `"*": ` + string(val) + "," + e.nl)
				for _, c := range commentLines {
					b.WriteString(inner + c + e.nl)
				}
				b.WriteString(inner + entry + e.nl)
				b.WriteString(topIndent + "}")
				return splice(src, last.Value.StartOffset, last.Value.EndOffset, b.String()), nil
			}
		}
	}
	// A new top-level member.
	inner := topIndent + e.unit
	member := jsonString(key) + ": {" + e.nl + inner + entry + e.nl + topIndent + "}"
	return e.appendMember(v.StartOffset, v.EndOffset, top, "", topIndent, commentLines, member), nil
}

// appendMember adds member (already formatted, without its leading indent)
// at the end of the object spanning src[start:end], preceded by the comment
// lines. outer is the indentation of the object's closing brace and inner
// that of its members.
func (e *editor) appendMember(start, end int, obj *hujson.Object, outer, inner string, comments []string, member string) []byte {
	src := e.src
	closeBrace := end - 1
	var block strings.Builder
	for _, c := range comments {
		block.WriteString(inner + c + e.nl)
	}
	block.WriteString(inner + member)

	if len(obj.Members) == 0 {
		// {} or { /* comments */ }: put the member before the brace.
		lineStart := bytes.LastIndexByte(src[:closeBrace], '\n') + 1
		if lineStart > start && isBlank(src[lineStart:closeBrace]) {
			return splice(src, lineStart, lineStart, block.String()+e.nl)
		}
		return splice(src, closeBrace, closeBrace, e.nl+block.String()+e.nl+outer)
	}

	lastVal := &obj.Members[len(obj.Members)-1].Value
	valEnd := lastVal.EndOffset
	// Is there a trailing comma after the last value?
	p := skipExtra(src, valEnd)
	hasComma := p < len(src) && src[p] == ','

	if !bytes.ContainsAny(src[start:end], "\n") && !hasComma && onlySpace(obj) {
		// A one-line object without comments: lay it out on lines.
		var b strings.Builder
		b.WriteString("{" + e.nl)
		for _, m := range obj.Members {
			b.WriteString(inner + string(src[m.Name.StartOffset:m.Value.EndOffset]) + "," + e.nl)
		}
		b.WriteString(block.String() + e.nl + outer + "}")
		return splice(src, start, end, b.String())
	}

	var parts []textEdit
	if !hasComma {
		parts = append(parts, textEdit{at: valEnd, to: valEnd, text: ","})
	}
	lineStart := bytes.LastIndexByte(src[:closeBrace], '\n') + 1
	if lineStart > valEnd && isBlank(src[lineStart:closeBrace]) {
		// The closing brace is on a line of its own: insert above it, after
		// any comments that follow the last member.
		parts = append(parts, textEdit{at: lineStart, to: lineStart, text: block.String() + e.nl})
	} else {
		// Something precedes the brace on its line: break the line there,
		// dropping the spaces before the brace.
		pos := closeBrace
		for pos > valEnd && (src[pos-1] == ' ' || src[pos-1] == '\t') {
			pos--
		}
		parts = append(parts, textEdit{at: pos, to: closeBrace, text: e.nl + block.String() + e.nl + outer})
	}
	return applyEdits(src, parts)
}

// memberIndent returns the indentation of the object's first member when it
// starts a line, else def.
func (e *editor) memberIndent(obj *hujson.Object, def string) string {
	if len(obj.Members) == 0 {
		return def
	}
	before := obj.Members[0].Name.BeforeExtra
	i := bytes.LastIndexByte(before, '\n')
	if i < 0 {
		return def
	}
	ind := before[i+1:]
	if !isBlank(ind) {
		return def
	}
	return string(ind)
}

// onlySpace reports whether the object has no comments inside.
func onlySpace(obj *hujson.Object) bool {
	if !isBlank(obj.AfterExtra) {
		return false
	}
	for _, m := range obj.Members {
		for _, x := range [][]byte{m.Name.BeforeExtra, m.Name.AfterExtra, m.Value.BeforeExtra, m.Value.AfterExtra} {
			if !isBlank(x) {
				return false
			}
		}
	}
	return true
}

// textEdit replaces src[at:to] with text.
type textEdit struct {
	at, to int
	text   string
}

// applyEdits applies edits given in increasing order of offset.
func applyEdits(src []byte, edits []textEdit) []byte {
	var b bytes.Buffer
	prev := 0
	for _, ed := range edits {
		b.Write(src[prev:ed.at])
		b.WriteString(ed.text)
		prev = ed.to
	}
	b.Write(src[prev:])
	return b.Bytes()
}

// splice replaces src[from:to] with text.
func splice(src []byte, from, to int, text string) []byte {
	out := make([]byte, 0, len(src)+len(text))
	out = append(out, src[:from]...)
	out = append(out, text...)
	return append(out, src[to:]...)
}

// isBlank reports whether b holds only spaces and tabs (and a CR).
func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}

// skipExtra skips whitespace and comments from offset n.
func skipExtra(b []byte, n int) int {
	for n < len(b) {
		switch {
		case b[n] == ' ' || b[n] == '\t' || b[n] == '\r' || b[n] == '\n':
			n++
		case bytes.HasPrefix(b[n:], []byte("//")):
			i := bytes.IndexByte(b[n:], '\n')
			if i < 0 {
				return len(b)
			}
			n += i + 1
		case bytes.HasPrefix(b[n:], []byte("/*")):
			i := bytes.Index(b[n+2:], []byte("*/"))
			if i < 0 {
				return len(b)
			}
			n += 2 + i + 2
		default:
			return n
		}
	}
	return n
}

// commentLines renders a comment as // lines. Characters a line comment
// cannot hold (invalid UTF-8, control characters, line separators) become
// spaces or U+FFFD.
func commentLines(comment string) []string {
	comment = strings.ToValidUTF8(strings.ReplaceAll(comment, "\r\n", "\n"), "\uFFFD")
	comment = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return r
		}
		if r < ' ' || r == 0x7f || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, comment)
	comment = strings.TrimSpace(comment)
	if comment == "" {
		return nil
	}
	var out []string
	for _, l := range strings.Split(comment, "\n") {
		l = strings.TrimRight(l, " \t")
		if l == "" {
			out = append(out, "//")
			continue
		}
		out = append(out, "// "+l)
	}
	return out
}

// jsonString quotes s as a JSON string.
func jsonString(s string) string {
	return string(hujson.String(s))
}
