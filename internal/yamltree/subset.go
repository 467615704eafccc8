package yamltree

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxSubsetDepth bounds the nesting ReadSubset follows; deeper documents
// go to the full reader, which has its own limits.
const maxSubsetDepth = 64

// maxKeyChars bounds a key's length from its start to its ':'. YAML
// limits implicit keys to 1024 characters, quoted ones and keys in flow
// mappings included; the subset stays well inside, as yaml.v3 counts.
const maxKeyChars = 1000

// keyTooLong reports whether a key starting at byte start of text, with
// its ':' at byte colon, is longer than the subset reads.
func keyTooLong(text string, start, colon int) bool {
	return colon-start > maxKeyChars && utf8.RuneCountInString(text[start:colon]) > maxKeyChars
}

// ReadSubset reads a document in the subset the package comment
// describes. It returns nil for an empty document (or one of comments
// only) and an error wrapping ErrOutsideSubset for anything else,
// including documents that are not valid YAML: those are the full
// reader's to report.
func ReadSubset(src []byte) (*Node, error) {
	if err := checkChars(src); err != nil {
		return nil, err
	}
	p := subset{lines: splitLines(string(src))}
	if len(p.lines) == 0 {
		return nil, nil
	}
	for _, l := range p.lines {
		if l.indent == 0 && (strings.HasPrefix(l.text, "---") || strings.HasPrefix(l.text, "...") || l.text[0] == '%') {
			return nil, outside(l.num, "a document marker or directive")
		}
	}
	root, err := p.node(-1)
	if err != nil {
		return nil, err
	}
	if p.i < len(p.lines) {
		return nil, outside(p.lines[p.i].num, "content after the document's top-level node")
	}
	return root, nil
}

func outside(line int, what string) error {
	return fmt.Errorf("%w: %s at line %d", ErrOutsideSubset, what, line)
}

// checkChars rejects what the subset leaves to the full reader: invalid
// UTF-8, tabs, carriage returns, byte order marks, and every character
// YAML treats as a line break or does not allow.
func checkChars(src []byte) error {
	line := 1
	for i := 0; i < len(src); {
		c := src[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\n':
				line++
			case c < 0x20 || c == 0x7f:
				return outside(line, fmt.Sprintf("control character %#02x", c))
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(src[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			return outside(line, "invalid UTF-8")
		case r < 0xa0, r == 0x2028, r == 0x2029, r == 0xfeff, r == 0xfffe, r == 0xffff:
			return outside(line, fmt.Sprintf("character %U", r))
		}
		i += n
	}
	return nil
}

// srcLine is a line that holds more than a comment.
type srcLine struct {
	num    int    // from 1
	indent int    // leading spaces
	text   string // the rest, comments included
	// colOff and colChars memoise col: nodes are read left to right, so
	// counting on from the last one keeps a long line linear.
	colOff, colChars int
}

func splitLines(src string) []srcLine {
	var lines []srcLine
	for num := 1; src != ""; num++ {
		l := src
		if i := strings.IndexByte(src, '\n'); i >= 0 {
			l, src = src[:i], src[i+1:]
		} else {
			src = ""
		}
		indent := 0
		for indent < len(l) && l[indent] == ' ' {
			indent++
		}
		if text := l[indent:]; text != "" && text[0] != '#' {
			lines = append(lines, srcLine{num: num, indent: indent, text: text})
		}
	}
	return lines
}

type subset struct {
	lines []srcLine
	i     int // the current line
	depth int
}

// col is the 1-based column of byte offset off in l.text.
func (l *srcLine) col(off int) int {
	if off < l.colOff {
		l.colOff, l.colChars = 0, 0
	}
	l.colChars += utf8.RuneCountInString(l.text[l.colOff:off])
	l.colOff = off
	return l.indent + 1 + l.colChars
}

func isSeqEntry(text string) bool {
	return text == "-" || strings.HasPrefix(text, "- ")
}

// node reads the block node at the current line, which is indented more
// than parent.
func (p *subset) node(parent int) (*Node, error) {
	l := &p.lines[p.i]
	if p.depth++; p.depth > maxSubsetDepth {
		return nil, outside(l.num, "deep nesting")
	}
	defer func() { p.depth-- }()
	if isSeqEntry(l.text) {
		return p.seq(l.indent)
	}
	if _, _, ok, err := p.key(l, 0); err != nil {
		return nil, err
	} else if ok {
		return p.mapping(l.indent, 0)
	}
	n, err := p.lineValue(l, 0)
	if err != nil {
		return nil, err
	}
	return n, p.next(parent)
}

// next moves past the current line, which ended a node inside a block
// indented at parent: a following line indented more would continue the
// node over several lines.
func (p *subset) next(parent int) error {
	p.i++
	if p.i < len(p.lines) && p.lines[p.i].indent > parent {
		return outside(p.lines[p.i].num, "a value continued on the next line")
	}
	return nil
}

// seq reads a block sequence whose entries start at column col.
func (p *subset) seq(col int) (*Node, error) {
	first := &p.lines[p.i]
	s := &Node{Kind: List, Line: first.num, Col: col + 1}
	for p.i < len(p.lines) && p.lines[p.i].indent == col && isSeqEntry(p.lines[p.i].text) {
		l := &p.lines[p.i]
		off := 1
		for off < len(l.text) && l.text[off] == ' ' {
			off++
		}
		var item *Node
		var err error
		switch rest := l.text[off:]; {
		case rest == "" || rest[0] == '#':
			p.i++
			if p.i < len(p.lines) && p.lines[p.i].indent > col {
				item, err = p.node(col)
			} else {
				item = &Node{Kind: Scalar, Tag: "null", Line: l.num, Col: col + 2}
			}
		case isSeqEntry(rest):
			return nil, outside(l.num, "a sequence inside a sequence entry's line")
		default:
			var ok bool
			if _, _, ok, err = p.key(l, off); err != nil {
				return nil, err
			}
			if ok {
				item, err = p.mapping(col+off, off)
			} else if item, err = p.lineValue(l, off); err == nil {
				err = p.next(col)
			}
		}
		if err != nil {
			return nil, err
		}
		s.Content = append(s.Content, item)
		if p.i < len(p.lines) && p.lines[p.i].indent > col {
			return nil, outside(p.lines[p.i].num, "unexpected indentation")
		}
	}
	return s, nil
}

// mapping reads a block mapping whose keys start at column col; the
// first key is at byte off of the current line, the rest start lines.
func (p *subset) mapping(col, off int) (*Node, error) {
	first := &p.lines[p.i]
	m := &Node{Kind: Map, Line: first.num, Col: first.col(off)}
	for {
		l := &p.lines[p.i]
		key, valOff, ok, err := p.key(l, off)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, outside(l.num, "a line in a mapping that is not a key")
		}
		for valOff < len(l.text) && l.text[valOff] == ' ' {
			valOff++
		}
		var val *Node
		if valOff == len(l.text) || l.text[valOff] == '#' {
			empty := &Node{Kind: Scalar, Tag: "null", Line: l.num, Col: l.col(keyEnd(l.text, valOff) + 1)}
			p.i++
			switch {
			case p.i < len(p.lines) && p.lines[p.i].indent > col:
				val, err = p.node(col)
			case p.i < len(p.lines) && p.lines[p.i].indent == col && isSeqEntry(p.lines[p.i].text):
				val, err = p.seq(col)
			default:
				val = empty
			}
		} else if val, err = p.lineValue(l, valOff); err == nil {
			err = p.next(col)
		}
		if err != nil {
			return nil, err
		}
		m.Content = append(m.Content, key, val)
		if p.i == len(p.lines) || p.lines[p.i].indent < col {
			return m, nil
		}
		if nx := &p.lines[p.i]; nx.indent > col || isSeqEntry(nx.text) {
			return nil, outside(nx.num, "unexpected indentation or entry in a mapping")
		}
		off = 0
	}
}

// keyEnd is the offset of the ':' that ends a key, given an offset after
// it and the spaces that follow.
func keyEnd(text string, off int) int {
	for off > 0 && text[off-1] == ' ' {
		off--
	}
	return off - 1
}

// key reads "key:" at byte off of l: the key and the offset after the
// ':'. ok is false when the text there is not a key (and an error is
// returned only for what cannot be read either way).
func (p *subset) key(l *srcLine, off int) (key *Node, valOff int, ok bool, err error) {
	text := l.text
	switch c := text[off]; c {
	case '"', '\'':
		val, end, err := quoted(l, off)
		if err != nil {
			return nil, 0, false, err
		}
		if end < len(text) && text[end] == ':' && (end+1 == len(text) || text[end+1] == ' ') {
			if keyTooLong(text, off, end) {
				return nil, 0, false, outside(l.num, "a very long key")
			}
			return &Node{Kind: Scalar, Tag: "str", Value: val, Line: l.num, Col: l.col(off)}, end + 1, true, nil
		}
		return nil, 0, false, nil
	}
	end := plainEnd(text, off)
	if end == len(text) || text[end] != ':' {
		return nil, 0, false, nil
	}
	raw := text[off:end]
	if err := checkPlain(l, off, raw, true); err != nil {
		return nil, 0, false, err
	}
	if keyTooLong(text, off, end) {
		return nil, 0, false, outside(l.num, "a very long key")
	}
	tag, err := resolvePlain(l, raw)
	if err != nil {
		return nil, 0, false, err
	}
	return &Node{Kind: Scalar, Tag: tag, Value: raw, Line: l.num, Col: l.col(off)}, end + 1, true, nil
}

// plainEnd is where a plain scalar starting at off ends in block
// context: at ": " or a ':' ending the line (a key), at " #" (a
// comment), or at the end of the line.
func plainEnd(text string, off int) int {
	for i := off; i < len(text); i++ {
		switch text[i] {
		case ':':
			if i+1 == len(text) || text[i+1] == ' ' {
				return i
			}
		case '#':
			if i > off && text[i-1] == ' ' {
				return i
			}
		}
	}
	return len(text)
}

// checkPlain rejects plain scalars the subset does not read: empty ones,
// ones starting with an indicator, and keys that end in a space.
func checkPlain(l *srcLine, off int, raw string, isKey bool) error {
	if raw == "" {
		return outside(l.num, "an empty key")
	}
	switch c := raw[0]; c {
	case '-':
		if len(raw) == 1 || raw[1] == ' ' || isKey {
			return outside(l.num, "a '-' where a key or value starts")
		}
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return outside(l.num, fmt.Sprintf("a value starting with %q", c))
	}
	if raw[len(raw)-1] == ' ' {
		return outside(l.num, "a space before a key's ':'")
	}
	return nil
}

// lineValue reads the scalar or flow collection at byte off of l, which
// must take the rest of the line but for a comment.
func (p *subset) lineValue(l *srcLine, off int) (*Node, error) {
	text := l.text
	var n *Node
	end := 0
	switch text[off] {
	case '"', '\'':
		val, e, err := quoted(l, off)
		if err != nil {
			return nil, err
		}
		n, end = &Node{Kind: Scalar, Tag: "str", Value: val, Line: l.num, Col: l.col(off)}, e
	case '[', '{':
		f := flow{l: l, i: off}
		var err error
		if n, err = f.collection(); err != nil {
			return nil, err
		}
		end = f.i
	default:
		end = plainEnd(text, off)
		if end < len(text) && text[end] == ':' {
			return nil, outside(l.num, "a mapping where a value is")
		}
		raw := strings.TrimRight(text[off:end], " ")
		if err := checkPlain(l, off, raw, false); err != nil {
			return nil, err
		}
		tag, err := resolvePlain(l, raw)
		if err != nil {
			return nil, err
		}
		return &Node{Kind: Scalar, Tag: tag, Value: raw, Line: l.num, Col: l.col(off)}, nil
	}
	// After a quoted scalar or a flow collection: spaces, then nothing
	// or a comment.
	rest := text[end:]
	trimmed := strings.TrimLeft(rest, " ")
	if trimmed != "" && (trimmed[0] != '#' || len(trimmed) == len(rest)) {
		return nil, outside(l.num, "text after a value")
	}
	return n, nil
}

// quoted reads the single- or double-quoted scalar at byte off of l,
// which must end on the same line: its value and the offset after the
// closing quote.
func quoted(l *srcLine, off int) (string, int, error) {
	text := l.text
	q := text[off]
	var b []byte // nil until an escape is met
	start := off + 1
	for i := start; i < len(text); i++ {
		c := text[i]
		switch {
		case c == q && q == '\'' && i+1 < len(text) && text[i+1] == '\'':
			b = append(append(b, text[start:i]...), '\'')
			i++
			start = i + 1
		case c == q:
			if b == nil {
				return text[off+1 : i], i + 1, nil
			}
			return string(append(b, text[start:i]...)), i + 1, nil
		case c == '\\' && q == '"':
			b = append(b, text[start:i]...)
			if b == nil {
				b = []byte{}
			}
			r, n := unescape(text[i+1:])
			if n == 0 {
				return "", 0, outside(l.num, "an escape sequence the subset does not read")
			}
			b = utf8.AppendRune(b, r)
			i += n
			start = i + 1
		}
	}
	return "", 0, outside(l.num, "a quoted scalar that does not end on its line")
}

// unescape reads the escape after a backslash: the character and how
// many bytes it took, or 0 for an escape the subset leaves to the full
// reader.
func unescape(s string) (rune, int) {
	if s == "" {
		return 0, 0
	}
	switch s[0] {
	case '\\', '"':
		return rune(s[0]), 1
	case 'n':
		return '\n', 1
	case 't':
		return '\t', 1
	case 'u':
		if len(s) < 5 {
			return 0, 0
		}
		v, err := strconv.ParseUint(s[1:5], 16, 32)
		if err != nil || !utf8.ValidRune(rune(v)) || strings.ContainsAny(s[1:5], "+-_") {
			return 0, 0
		}
		return rune(v), 5
	}
	return 0, 0
}

// flow reads a single-line flow collection of scalars.
type flow struct {
	l     *srcLine
	i     int
	depth int
}

func (f *flow) spaces() {
	for f.i < len(f.l.text) && f.l.text[f.i] == ' ' {
		f.i++
	}
}

func (f *flow) outside(what string) error { return outside(f.l.num, what) }

func (f *flow) collection() (*Node, error) {
	text := f.l.text
	if f.depth++; f.depth > maxSubsetDepth {
		return nil, f.outside("deep nesting")
	}
	defer func() { f.depth-- }()
	open := text[f.i]
	n := &Node{Kind: List, Line: f.l.num, Col: f.l.col(f.i)}
	closer := byte(']')
	if open == '{' {
		n.Kind, closer = Map, '}'
	}
	f.i++
	f.spaces()
	if f.i < len(text) && text[f.i] == closer {
		f.i++
		return n, nil
	}
	for {
		start := f.i
		item, err := f.item(closer, open == '{')
		if err != nil {
			return nil, err
		}
		n.Content = append(n.Content, item)
		if open == '{' {
			if f.i+1 >= len(text) || text[f.i] != ':' || text[f.i+1] != ' ' {
				return nil, f.outside("a flow mapping entry without ': '")
			}
			if keyTooLong(text, start, f.i) {
				return nil, f.outside("a very long key")
			}
			f.i += 2
			f.spaces()
			v, err := f.item(closer, false)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, v)
		}
		if f.i == len(text) {
			return nil, f.outside("a flow collection that does not end on its line")
		}
		switch text[f.i] {
		case closer:
			f.i++
			return n, nil
		case ',':
			f.i++
			f.spaces()
			if f.i < len(text) && text[f.i] == closer {
				return nil, f.outside("a trailing ',' in a flow collection")
			}
		default:
			return nil, f.outside("unexpected text in a flow collection")
		}
	}
}

// item reads a flow collection's item, key or value, and the spaces
// after it: a collection or a scalar. Collections are not keys.
func (f *flow) item(closer byte, isKey bool) (*Node, error) {
	if f.i < len(f.l.text) && (f.l.text[f.i] == '[' || f.l.text[f.i] == '{') {
		if isKey {
			return nil, f.outside("a flow collection as a key")
		}
		n, err := f.collection()
		if err != nil {
			return nil, err
		}
		f.spaces()
		return n, nil
	}
	return f.scalar(closer, isKey)
}

// scalar reads a quoted or plain scalar inside a flow collection and the
// spaces after it. A key ends at ": ".
func (f *flow) scalar(closer byte, isKey bool) (*Node, error) {
	text := f.l.text
	if f.i == len(text) {
		return nil, f.outside("a flow collection that does not end on its line")
	}
	start := f.i
	if c := text[f.i]; c == '"' || c == '\'' {
		val, end, err := quoted(f.l, f.i)
		if err != nil {
			return nil, err
		}
		f.i = end
		f.spaces()
		return &Node{Kind: Scalar, Tag: "str", Value: val, Line: f.l.num, Col: f.l.col(start)}, nil
	}
	for f.i < len(text) {
		c := text[f.i]
		if c == ',' || c == closer {
			break
		}
		if c == ':' && isKey && f.i+1 < len(text) && text[f.i+1] == ' ' {
			break
		}
		switch c {
		case ':', '?', '[', ']', '{', '}':
			// yaml.v3 ends a flow scalar at '?' too.
			return nil, f.outside("a flow scalar with an indicator in it")
		case '#':
			if f.i > start && text[f.i-1] == ' ' {
				return nil, f.outside("a comment inside a flow collection")
			}
		}
		f.i++
	}
	raw := strings.TrimRight(text[start:f.i], " ")
	if err := checkPlain(f.l, start, raw, false); err != nil {
		return nil, err
	}
	tag, err := resolvePlain(f.l, raw)
	if err != nil {
		return nil, err
	}
	return &Node{Kind: Scalar, Tag: tag, Value: raw, Line: f.l.num, Col: f.l.col(start)}, nil
}

// resolvePlain resolves a plain scalar's tag as YAML 1.2's core schema
// does in the full reader (go.yaml.in/yaml/v3's resolve), leaving to it
// what could be a timestamp or a merge key.
func resolvePlain(l *srcLine, s string) (string, error) {
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return "bool", nil
	case "", "~", "null", "Null", "NULL":
		return "null", nil
	case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
		return "float", nil
	case "<<":
		return "", outside(l.num, "a merge key")
	}
	switch c := s[0]; {
	case c == '.':
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return "float", nil
		}
	case c == '+' || c == '-' || '0' <= c && c <= '9':
		if len(s) > 4 && isDigits(s[:4]) && s[4] == '-' {
			return "", outside(l.num, "a value that may be a timestamp")
		}
		plain := strings.ReplaceAll(s, "_", "")
		if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return "int", nil
		}
		if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return "int", nil
		}
		if yamlStyleFloat(plain) {
			if _, err := strconv.ParseFloat(plain, 64); err == nil {
				return "float", nil
			}
		}
		for _, p := range [...]struct {
			prefix string
			base   int
		}{{"0b", 2}, {"-0b", 2}, {"0o", 8}, {"-0o", 8}} {
			if rest, ok := strings.CutPrefix(plain, p.prefix); ok {
				if p.prefix[0] == '-' {
					rest = "-" + rest
				}
				if _, err := strconv.ParseInt(rest, p.base, 64); err == nil {
					return "int", nil
				}
				if _, err := strconv.ParseUint(rest, p.base, 64); err == nil && p.prefix[0] != '-' {
					return "int", nil
				}
			}
		}
	}
	return "str", nil
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// yamlStyleFloat reports whether s matches
// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$.
func yamlStyleFloat(s string) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}
