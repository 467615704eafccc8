package policy

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/glob"
)

// maxCodexPrefixes bounds the prefixes one prefix_rule may expand to (the
// product of its alternatives), so a small file cannot make a huge rule
// set.
const maxCodexPrefixes = 1024

// ParseCodexRules imports a Codex rules file (~/.codex/rules/*.rules, the
// execpolicy Starlark subset Codex documents):
//
//	prefix_rule(
//	    pattern = ["git", ["push", "fetch"]],  # tokens; a list is alternatives
//	    decision = "prompt",                   # allow (default) | prompt | forbidden
//	    justification = "why",
//	    match = ["git push origin"], not_match = [["git", "status"]],
//	)
//
// Each prefix becomes a shell rule "TOKENS *" (which also matches the bare
// prefix) with the decision's action, allow and prompt (ask) first and
// forbidden (deny) last, so the strictest decision wins as in Codex; the
// justification is the rule's reason. match and not_match examples are
// checked against the rule's pattern, as Codex checks them on load.
// host_executable(...) is accepted and ignored; any other statement is an
// error naming its line.
func ParseCodexRules(name string, src []byte) (*Document, error) {
	p := &starParser{name: name, src: string(src), line: 1}
	doc := &Document{Path: name}
	var byAction [3][]Rule
	for {
		p.space()
		if p.eof() {
			break
		}
		line := p.line
		fn, err := p.ident()
		if err != nil {
			return nil, err
		}
		args, err := p.call()
		if err != nil {
			return nil, err
		}
		switch fn {
		case "host_executable":
			continue
		case "prefix_rule":
		default:
			return nil, fmt.Errorf("%s:%d: unknown statement %s(...) (want prefix_rule or host_executable)", name, line, fn)
		}
		rules, err := codexRule(name, line, args)
		if err != nil {
			return nil, err
		}
		for _, r := range rules {
			i := map[toolgate.Action]int{toolgate.Allow: 0, toolgate.Ask: 1, toolgate.Deny: 2}[r.Action]
			byAction[i] = append(byAction[i], r)
		}
	}
	for _, rs := range byAction {
		doc.Rules = append(doc.Rules, rs...)
	}
	return doc, nil
}

// codexRule turns one prefix_rule's arguments into rules.
func codexRule(name string, line int, args map[string]starValue) ([]Rule, error) {
	at := fmt.Sprintf("%s:%d: prefix_rule", name, line)
	for k := range args {
		switch k {
		case "pattern", "decision", "justification", "match", "not_match":
		default:
			return nil, fmt.Errorf("%s: unknown argument %q", at, k)
		}
	}
	pat, ok := args["pattern"]
	if !ok || pat.list == nil || len(pat.list) == 0 {
		return nil, fmt.Errorf("%s: pattern must be a non-empty list of tokens", at)
	}
	alts := make([][]string, len(pat.list))
	n := 1
	for i, el := range pat.list {
		switch {
		case el.isStr:
			alts[i] = []string{el.str}
		case len(el.list) > 0:
			for _, a := range el.list {
				if !a.isStr {
					return nil, fmt.Errorf("%s: pattern[%d]: alternatives must be strings", at, i)
				}
				alts[i] = append(alts[i], a.str)
			}
		default:
			return nil, fmt.Errorf("%s: pattern[%d]: want a token or a non-empty list of alternatives", at, i)
		}
		for _, t := range alts[i] {
			if t == "" {
				return nil, fmt.Errorf("%s: pattern[%d]: empty token", at, i)
			}
		}
		if n *= len(alts[i]); n > maxCodexPrefixes {
			return nil, fmt.Errorf("%s: pattern expands to more than %d prefixes", at, maxCodexPrefixes)
		}
	}
	action := toolgate.Allow
	if d, ok := args["decision"]; ok {
		if !d.isStr {
			return nil, fmt.Errorf("%s: decision must be a string", at)
		}
		switch d.str {
		case "allow":
		case "prompt":
			action = toolgate.Ask
		case "forbidden":
			action = toolgate.Deny
		default:
			return nil, fmt.Errorf("%s: decision %q (want allow, prompt or forbidden)", at, d.str)
		}
	}
	reason := ""
	if j, ok := args["justification"]; ok {
		if !j.isStr {
			return nil, fmt.Errorf("%s: justification must be a string", at)
		}
		reason = j.str
	}
	for _, key := range []string{"match", "not_match"} {
		v, ok := args[key]
		if !ok {
			continue
		}
		if v.list == nil && !v.isStr {
			return nil, fmt.Errorf("%s: %s must be a list of examples", at, key)
		}
		for i, ex := range v.list {
			words, err := ex.words()
			if err != nil {
				return nil, fmt.Errorf("%s: %s[%d]: %w", at, key, i, err)
			}
			if hasPrefix(words, alts) != (key == "match") {
				return nil, fmt.Errorf("%s: %s[%d] %q: the pattern %s", at, key, i, strings.Join(words, " "), map[bool]string{true: "does not match it", false: "matches it"}[key == "match"])
			}
		}
	}
	var rules []Rule
	var expand func(i int, prefix []string)
	expand = func(i int, prefix []string) {
		if i == len(alts) {
			q := make([]string, len(prefix))
			for k, t := range prefix {
				q[k] = glob.QuoteMeta(t)
			}
			rules = append(rules, Rule{Tool: "shell_exec", Pattern: strings.Join(q, " ") + " *", Action: action, Reason: reason, Source: Source{File: name, Line: line}})
			return
		}
		for _, t := range alts[i] {
			expand(i+1, append(prefix[:i:i], t))
		}
	}
	expand(0, nil)
	return rules, nil
}

// hasPrefix reports whether words start with one choice of each
// alternative.
func hasPrefix(words []string, alts [][]string) bool {
	if len(words) < len(alts) {
		return false
	}
	for i, a := range alts {
		found := false
		for _, t := range a {
			found = found || words[i] == t
		}
		if !found {
			return false
		}
	}
	return true
}

// starValue is a Starlark value of the subset: a string or a list.
type starValue struct {
	isStr bool
	str   string
	list  []starValue
}

// words returns an example as argv: a list of strings, or a string split
// as a shell would (shlex).
func (v starValue) words() ([]string, error) {
	if v.isStr {
		return shlexSplit(v.str)
	}
	out := make([]string, 0, len(v.list))
	for _, w := range v.list {
		if !w.isStr {
			return nil, fmt.Errorf("an example is a string or a list of strings")
		}
		out = append(out, w.str)
	}
	return out, nil
}

// starParser reads the Starlark subset of Codex rules files: calls with
// keyword arguments whose values are strings and (nested) lists, and
// comments.
type starParser struct {
	name string
	src  string
	pos  int
	line int
}

func (p *starParser) eof() bool { return p.pos >= len(p.src) }

func (p *starParser) errf(format string, a ...any) error {
	return fmt.Errorf("%s:%d: %s", p.name, p.line, fmt.Sprintf(format, a...))
}

// space skips blanks, newlines and # comments.
func (p *starParser) space() {
	for !p.eof() {
		switch c := p.src[p.pos]; {
		case c == '\n':
			p.line++
			p.pos++
		case c == ' ' || c == '\t' || c == '\r':
			p.pos++
		case c == '#':
			for !p.eof() && p.src[p.pos] != '\n' {
				p.pos++
			}
		default:
			return
		}
	}
}

func (p *starParser) ident() (string, error) {
	start := p.pos
	for !p.eof() {
		c := p.src[p.pos]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || p.pos > start && c >= '0' && c <= '9' {
			p.pos++
			continue
		}
		break
	}
	if p.pos == start {
		if p.eof() {
			return "", p.errf("unexpected end of file")
		}
		return "", p.errf("unexpected %q (want a call such as prefix_rule(...))", p.src[p.pos])
	}
	return p.src[start:p.pos], nil
}

func (p *starParser) expect(c byte) error {
	p.space()
	if p.eof() || p.src[p.pos] != c {
		if p.eof() {
			return p.errf("unexpected end of file (want %q)", c)
		}
		return p.errf("unexpected %q (want %q)", p.src[p.pos], c)
	}
	p.pos++
	return nil
}

// call reads "(name = value, …)" after a function name.
func (p *starParser) call() (map[string]starValue, error) {
	if err := p.expect('('); err != nil {
		return nil, err
	}
	args := map[string]starValue{}
	for {
		p.space()
		if !p.eof() && p.src[p.pos] == ')' {
			p.pos++
			return args, nil
		}
		k, err := p.ident()
		if err != nil {
			return nil, err
		}
		if _, dup := args[k]; dup {
			return nil, p.errf("argument %s given twice", k)
		}
		if err := p.expect('='); err != nil {
			return nil, err
		}
		if args[k], err = p.value(0); err != nil {
			return nil, err
		}
		p.space()
		if !p.eof() && p.src[p.pos] == ',' {
			p.pos++
			continue
		}
		if err := p.expect(')'); err != nil {
			return nil, err
		}
		return args, nil
	}
}

// maxStarDepth bounds list nesting.
const maxStarDepth = 8

func (p *starParser) value(depth int) (starValue, error) {
	p.space()
	if p.eof() {
		return starValue{}, p.errf("unexpected end of file (want a value)")
	}
	switch c := p.src[p.pos]; c {
	case '"', '\'':
		s, err := p.str(c)
		return starValue{isStr: true, str: s}, err
	case '[':
		if depth >= maxStarDepth {
			return starValue{}, p.errf("lists nested too deep")
		}
		p.pos++
		list := []starValue{}
		for {
			p.space()
			if !p.eof() && p.src[p.pos] == ']' {
				p.pos++
				return starValue{list: list}, nil
			}
			v, err := p.value(depth + 1)
			if err != nil {
				return starValue{}, err
			}
			list = append(list, v)
			p.space()
			if !p.eof() && p.src[p.pos] == ',' {
				p.pos++
				continue
			}
			if err := p.expect(']'); err != nil {
				return starValue{}, err
			}
			return starValue{list: list}, nil
		}
	}
	return starValue{}, p.errf("unexpected %q (want a string or a list)", p.src[p.pos])
}

// str reads a one-line string literal quoted with q, with Starlark's
// backslash escapes.
func (p *starParser) str(q byte) (string, error) {
	if strings.HasPrefix(p.src[p.pos:], strings.Repeat(string(q), 3)) {
		return "", p.errf("triple-quoted strings are not supported")
	}
	start := p.pos
	p.pos++
	for !p.eof() {
		switch p.src[p.pos] {
		case '\\':
			p.pos += 2
			continue
		case '\n':
			return "", p.errf("newline in string")
		case q:
			p.pos++
			lit := p.src[start:p.pos]
			if q == '\'' {
				// strconv reads Go's double-quoted form.
				lit = `"` + strings.ReplaceAll(strings.ReplaceAll(lit[1:len(lit)-1], `\'`, `'`), `"`, `\"`) + `"`
			}
			s, err := strconv.Unquote(lit)
			if err != nil {
				return "", p.errf("bad string %s: %v", p.src[start:p.pos], err)
			}
			return s, nil
		}
		p.pos++
	}
	return "", p.errf("unterminated string")
}

// shlexSplit splits an example command line into words as Python's shlex
// does in POSIX mode: blanks separate words, single quotes keep
// everything, double quotes and backslashes escape.
func shlexSplit(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				words, inWord = append(words, cur.String()), false
				cur.Reset()
			}
			continue
		case c == '\\':
			if i++; i == len(s) {
				return nil, fmt.Errorf("trailing backslash in %q", s)
			}
			cur.WriteByte(s[i])
		case c == '\'' || c == '"':
			j := i + 1
			for ; j < len(s) && s[j] != c; j++ {
				if c == '"' && s[j] == '\\' && j+1 < len(s) {
					j++
				}
				cur.WriteByte(s[j])
			}
			if j == len(s) {
				return nil, fmt.Errorf("unterminated quote in %q", s)
			}
			i = j
		default:
			cur.WriteByte(c)
		}
		inWord = true
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
