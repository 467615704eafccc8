package policy

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/glob"
)

// maxDocumentSize bounds a rules document or config file read by LoadFile.
const maxDocumentSize = 16 << 20

// maxNodes bounds the size of a parsed document tree, after YAML aliases are
// expanded, so a hostile file cannot make loading explode.
const maxNodes = 100_000

// maxDepth bounds the nesting of a parsed document tree.
const maxDepth = 200

// LoadError is an error in a rules document or config file. Every error the
// loaders return is a *LoadError naming the file and, when known, the line
// and column of the problem.
type LoadError struct {
	File string
	// Line and Col are 1-based; 0 means unknown.
	Line, Col int
	// Msg says what is wrong in plain words.
	Msg string
	// Err is the underlying cause (an I/O error), if any.
	Err error
}

// Error renders the error as "file:line:col: msg", leaving out the column
// and line when they are unknown.
func (e *LoadError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(":")
		b.WriteString(strconv.Itoa(e.Line))
		if e.Col > 0 {
			b.WriteString(":")
			b.WriteString(strconv.Itoa(e.Col))
		}
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the underlying cause, so errors.Is(err, fs.ErrNotExist)
// works on a file that could not be read.
func (e *LoadError) Unwrap() error { return e.Err }

// LoadFile reads a rules document or config file and parses it by its
// extension: ".jsonc" and ".json" hold a workspace document (ParseWorkspace)
// or, when the top-level object looks like Claude Code settings (a
// "permissions" object, "hooks", "env", "model", …), Claude Code settings
// (ParseClaudeSettings); ".yaml" and ".yml" hold a toolgate.yaml config
// (ParseConfig). Any other extension is an error.
func LoadFile(path string) (*Document, error) {
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".jsonc", ".json", ".yaml", ".yml":
	default:
		return nil, &LoadError{File: path, Msg: fmt.Sprintf("unknown rules file type %q (want .jsonc, .json, .yaml or .yml)", ext)}
	}
	src, err := ReadDocument(path)
	if err != nil {
		return nil, err
	}
	switch ext {
	case ".yaml", ".yml":
		return ParseConfig(path, src)
	}
	if looksLikeClaudeSettings(src) {
		return ParseClaudeSettings(path, src)
	}
	return ParseWorkspace(path, src)
}

// ReadDocument reads a rules document, config or settings file, bounded
// by maxDocumentSize. Its errors are *LoadError naming the file;
// errors.Is(err, fs.ErrNotExist) tells a missing file.
func ReadDocument(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, ioError(path, "cannot open", err)
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, maxDocumentSize+1))
	if err != nil {
		return nil, ioError(path, "cannot read", err)
	}
	if len(src) > maxDocumentSize {
		return nil, &LoadError{File: path, Msg: fmt.Sprintf("file is larger than %d MiB", maxDocumentSize>>20)}
	}
	return src, nil
}

func ioError(path, what string, err error) *LoadError {
	msg := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		msg = pe.Err.Error()
	}
	return &LoadError{File: path, Msg: what + ": " + msg, Err: err}
}

// Clone returns a deep copy of the document.
func (d *Document) Clone() *Document {
	if d == nil {
		return nil
	}
	c := *d
	c.Rules = cloneRules(d.Rules)
	c.Managed = cloneRules(d.Managed)
	if d.Agents != nil {
		c.Agents = make(map[string][]Rule, len(d.Agents))
		for k, v := range d.Agents {
			c.Agents[k] = cloneRules(v)
		}
	}
	if d.Tools != nil {
		c.Tools = make(map[string]ToolSpec, len(d.Tools))
		for k, v := range d.Tools {
			v.Args = slices.Clone(v.Args)
			c.Tools[k] = v
		}
	}
	if d.Arity != nil {
		c.Arity = make(map[string]int, len(d.Arity))
		for k, v := range d.Arity {
			c.Arity[k] = v
		}
	}
	c.QuestionTools = slices.Clone(d.QuestionTools)
	if d.Mode != nil {
		m := *d.Mode
		c.Mode = &m
	}
	if d.Tests != nil {
		c.Tests = make([]Test, len(d.Tests))
		for i, t := range d.Tests {
			if t.Mode != nil {
				m := *t.Mode
				t.Mode = &m
			}
			t.Call.Args = cloneAny(t.Call.Args).(map[string]any)
			if t.Call.Batch != nil {
				b := *t.Call.Batch
				t.Call.Batch = &b
			}
			c.Tests[i] = t
		}
	}
	return &c
}

func cloneRules(rs []Rule) []Rule {
	if rs == nil {
		return nil
	}
	out := make([]Rule, len(rs))
	for i, r := range rs {
		r.When = slices.Clone(r.When)
		out[i] = r
	}
	return out
}

func cloneAny(v any) any {
	switch v := v.(type) {
	case map[string]any:
		if v == nil {
			return v
		}
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k] = cloneAny(e)
		}
		return m
	case []any:
		if v == nil {
			return v
		}
		l := make([]any, len(v))
		for i, e := range v {
			l[i] = cloneAny(e)
		}
		return l
	}
	return v
}

// ---- the format-neutral document tree ----

// nodeKind is the kind of a docNode in a parsed document.
type nodeKind uint8

const (
	kNull nodeKind = iota
	kScalar
	kMap
	kList
)

// docNode is one value of a parsed document, JSONC or YAML, with its position,
// so every format shares one set of field readers and error messages.
type docNode struct {
	kind nodeKind
	// tag is the scalar type: "str", "int", "float" (YAML), "num" (JSON) or
	// "bool".
	tag       string
	text      string // a scalar's value, unquoted
	line, col int
	keys      []*docNode // map keys, in document order (duplicates kept)
	vals      []*docNode // map values
	items     []*docNode // list items
	// size and height are those of the value with YAML aliases expanded.
	size, height int
}

func (n *docNode) describe() string {
	switch n.kind {
	case kNull:
		return "nothing (null)"
	case kMap:
		return "a mapping"
	case kList:
		return "a list"
	}
	switch n.tag {
	case "str":
		return fmt.Sprintf("the string %q", n.text)
	case "bool":
		return "the boolean " + n.text
	}
	return "the number " + n.text
}

// get returns the last value of key in a map docNode, or nil.
func (n *docNode) get(key string) *docNode {
	var v *docNode
	for i, k := range n.keys {
		if k.text == key {
			v = n.vals[i]
		}
	}
	return v
}

// toAny converts the docNode to the value encoding/json would produce.
func (n *docNode) toAny() any {
	switch n.kind {
	case kMap:
		m := make(map[string]any, len(n.keys))
		for i, k := range n.keys {
			m[k.text] = n.vals[i].toAny()
		}
		return m
	case kList:
		l := make([]any, len(n.items))
		for i, it := range n.items {
			l[i] = it.toAny()
		}
		return l
	case kScalar:
		switch n.tag {
		case "bool":
			return n.text == "true"
		case "num", "int", "float":
			if f, err := strconv.ParseFloat(strings.ReplaceAll(n.text, "_", ""), 64); err == nil {
				return f
			}
			if i, err := strconv.ParseInt(strings.ReplaceAll(n.text, "_", ""), 0, 64); err == nil {
				return float64(i)
			}
		}
		return n.text
	}
	return nil
}

// lineIndex turns byte offsets into 1-based line and column numbers; the
// column counts characters.
type lineIndex struct {
	src   []byte
	start []int // offset of the first byte of each line
}

func newLineIndex(src []byte) *lineIndex {
	li := &lineIndex{src: src, start: []int{0}}
	for i, c := range src {
		if c == '\n' {
			li.start = append(li.start, i+1)
		}
	}
	return li
}

func (li *lineIndex) pos(off int) (line, col int) {
	off = max(0, min(off, len(li.src)))
	i := sort.Search(len(li.start), func(i int) bool { return li.start[i] > off }) - 1
	return i + 1, utf8.RuneCount(li.src[li.start[i]:off]) + 1
}

// ---- the reader: field access with positioned errors ----

// reader reads one document, turning problems into *LoadErrors.
type reader struct {
	file string
	// root is the project root used to resolve Claude "/path" patterns.
	root string
}

func (r *reader) errAt(n *docNode, format string, args ...any) *LoadError {
	e := &LoadError{File: r.file, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line, e.Col = n.line, n.col
	}
	return e
}

func (r *reader) src(n *docNode) Source {
	return Source{File: r.file, Line: n.line}
}

// str reads a string. A YAML plain scalar that YAML reads as a number is
// taken as its text (`pattern: 123`), and YAML 1.1 words such as yes, no,
// on and off are strings already; booleans, JSON numbers, null, mappings
// and lists are errors.
func (r *reader) str(n *docNode, what string) (string, error) {
	if n.kind != kScalar || n.tag == "bool" || n.tag == "num" {
		return "", r.errAt(n, "%s: want a string, got %s", what, n.describe())
	}
	return n.text, nil
}

// nonEmpty reads a non-empty string.
func (r *reader) nonEmpty(n *docNode, what string) (string, error) {
	s, err := r.str(n, what)
	if err == nil && strings.TrimSpace(s) == "" {
		err = r.errAt(n, "%s: must not be empty", what)
	}
	return s, err
}

func (r *reader) boolean(n *docNode, what string) (bool, error) {
	if n.kind == kScalar && n.tag == "bool" {
		return n.text == "true", nil
	}
	return false, r.errAt(n, "%s: want true or false, got %s", what, n.describe())
}

func (r *reader) posInt(n *docNode, what string) (int, error) {
	if n.kind == kScalar && n.tag != "str" && n.tag != "bool" {
		if v, err := strconv.ParseInt(strings.ReplaceAll(n.text, "_", ""), 0, 32); err == nil && v > 0 {
			return int(v), nil
		}
	}
	return 0, r.errAt(n, "%s: want a positive whole number, got %s", what, n.describe())
}

func (r *reader) mapping(n *docNode, what string) error {
	if n.kind != kMap {
		return r.errAt(n, "%s: want a mapping, got %s", what, n.describe())
	}
	return nil
}

func (r *reader) list(n *docNode, what string) error {
	if n.kind != kList {
		return r.errAt(n, "%s: want a list, got %s", what, n.describe())
	}
	return nil
}

// SandboxAction is the rule action that allows a shell call confined in
// the kernel sandbox (Rule.Sandbox): an ask that offers a confined allow.
const SandboxAction = "sandbox"

// ruleAction reads a rule's action: allow, ask, deny, or "sandbox" (ask,
// with sandbox true). Layers that veto (managed) call action instead.
func (r *reader) ruleAction(n *docNode, what string) (_ toolgate.Action, sandbox bool, _ error) {
	if n.kind == kScalar && n.tag == "str" && n.text == SandboxAction {
		return toolgate.Ask, true, nil
	}
	if n.kind != kScalar || n.tag != "str" {
		return 0, false, r.errAt(n, "%s: want an action (allow, ask, deny or sandbox), got %s", what, n.describe())
	}
	a, err := toolgate.ParseAction(n.text)
	if err != nil {
		return 0, false, r.errAt(n, "%s: invalid action %q (want allow, ask, deny or sandbox)", what, n.text)
	}
	return a, false, nil
}

func (r *reader) action(n *docNode, what string) (toolgate.Action, error) {
	if n.kind != kScalar || n.tag != "str" {
		return 0, r.errAt(n, "%s: want an action (allow, ask or deny), got %s", what, n.describe())
	}
	a, err := toolgate.ParseAction(n.text)
	if err != nil {
		return 0, r.errAt(n, "%s: invalid action %q (want allow, ask or deny)", what, n.text)
	}
	return a, nil
}

func (r *reader) mode(n *docNode, what string) (*toolgate.Mode, error) {
	s, err := r.str(n, what)
	if err != nil {
		return nil, err
	}
	m, err := toolgate.ParseMode(s)
	if err != nil {
		return nil, r.errAt(n, "%s: %v", what, err)
	}
	return &m, nil
}

// checkKeys reports the first key of a map docNode not in known.
func (r *reader) checkKeys(n *docNode, what string, known ...string) error {
	for _, k := range n.keys {
		if !slices.Contains(known, k.text) {
			return r.errAt(k, "%s: unknown key %q (known keys: %s)", what, k.text, strings.Join(known, ", "))
		}
	}
	return nil
}

// checkGlob reports a pattern the glob compiler rejects.
func (r *reader) checkGlob(n *docNode, what, pattern string) error {
	if pattern == "" || pattern == "*" {
		return nil
	}
	if _, err := glob.Compile(pattern); err != nil {
		return r.errAt(n, "%s: invalid pattern: %v", what, err)
	}
	return nil
}

// checkRule validates the tool and pattern globs of a rule.
func (r *reader) checkRule(n *docNode, what string, rule Rule) error {
	if strings.ContainsAny(rule.Tool, "*?[{") {
		if err := r.checkGlob(n, what, rule.Tool); err != nil {
			return err
		}
	}
	if err := r.checkGlob(n, what, rule.Pattern); err != nil {
		return err
	}
	for _, c := range rule.When {
		if err := r.checkGlob(n, what+": when."+c.Arg, c.Pattern); err != nil {
			return err
		}
	}
	return nil
}

// key reads a mapping key as a non-empty string.
func (r *reader) key(k *docNode, what string) (string, error) {
	if k.kind != kScalar || k.tag == "bool" {
		return "", r.errAt(k, "%s: keys must be strings, got %s", what, k.describe())
	}
	if k.text == "" {
		return "", r.errAt(k, "%s: empty key", what)
	}
	return k.text, nil
}

// ruleMap reads a workspace-format mapping: {"tool": "action"} or
// {"tool": {"pattern": "action", …}}, in document order. what prefixes
// error messages ("" at the top of a workspace document).
func (r *reader) ruleMap(n *docNode, what string, skip func(key *docNode) (bool, error)) ([]Rule, error) {
	if err := r.mapping(n, orTop(what)); err != nil {
		return nil, err
	}
	var rules []Rule
	for i, k := range n.keys {
		if skip != nil {
			done, err := skip(k)
			if err != nil {
				return nil, err
			}
			if done {
				continue
			}
		}
		tool, err := r.key(k, orTop(what))
		if err != nil {
			return nil, err
		}
		at := joinKey(what, tool)
		// "=Tool" names the tool exactly, without its family.
		tool, exact := strings.CutPrefix(tool, ExactPrefix)
		if tool == "" {
			return nil, r.errAt(k, "%s: %q names no tool", at, ExactPrefix)
		}
		v := n.vals[i]
		switch v.kind {
		case kScalar:
			a, sb, err := r.ruleAction(v, at)
			if err != nil {
				return nil, err
			}
			rule := Rule{Tool: tool, Exact: exact, Pattern: "*", Action: a, Sandbox: sb, Source: r.src(k)}
			if err := r.checkRule(k, at, rule); err != nil {
				return nil, err
			}
			rules = append(rules, rule)
		case kMap:
			for j, pk := range v.keys {
				if pk.kind != kScalar || pk.tag == "bool" {
					return nil, r.errAt(pk, "%s: patterns must be strings, got %s", at, pk.describe())
				}
				pat := pk.text
				pat2 := at + ": " + strconv.Quote(pat)
				a, sb, err := r.ruleAction(v.vals[j], pat2)
				if err != nil {
					return nil, err
				}
				rule := Rule{Tool: tool, Exact: exact, Pattern: pat, Action: a, Sandbox: sb, Source: r.src(pk)}
				if err := r.checkRule(pk, pat2, rule); err != nil {
					return nil, err
				}
				rules = append(rules, rule)
			}
		default:
			return nil, r.errAt(v, "%s: want an action (\"allow\", \"ask\", \"deny\" or \"sandbox\") or an object of \"pattern\": \"action\", got %s", at, v.describe())
		}
	}
	return rules, nil
}

func orTop(what string) string {
	if what == "" {
		return "top level"
	}
	return what
}

func joinKey(what, key string) string {
	if what == "" {
		return key
	}
	return what + "." + key
}

// tests reads a list of tests: [{name?, call: {…}, mode?, expect}].
func (r *reader) tests(n *docNode, what string) ([]Test, error) {
	if err := r.list(n, what); err != nil {
		return nil, err
	}
	out := make([]Test, 0, len(n.items))
	for i, it := range n.items {
		at := fmt.Sprintf("%s[%d]", what, i)
		t, err := r.test(it, at)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

func (r *reader) test(n *docNode, at string) (Test, error) {
	t := Test{Source: r.src(n)}
	if err := r.mapping(n, at); err != nil {
		return t, err
	}
	if err := r.checkKeys(n, at, "name", "call", "mode", "expect"); err != nil {
		return t, err
	}
	if v := n.get("name"); v != nil {
		s, err := r.str(v, at+".name")
		if err != nil {
			return t, err
		}
		t.Name = s
	}
	c := n.get("call")
	if c == nil {
		return t, r.errAt(n, "%s: missing \"call\"", at)
	}
	call, err := r.call(c, at+".call")
	if err != nil {
		return t, err
	}
	t.Call = call
	if v := n.get("mode"); v != nil {
		m, err := r.mode(v, at+".mode")
		if err != nil {
			return t, err
		}
		t.Mode = m
	}
	e := n.get("expect")
	if e == nil {
		return t, r.errAt(n, "%s: missing \"expect\" (allow, ask or deny)", at)
	}
	if t.Expect, err = r.action(e, at+".expect"); err != nil {
		return t, err
	}
	return t, nil
}

var callKeys = []string{"tool", "args", "agent", "cwd", "home", "tier", "session", "workspace", "id", "origin"}

func (r *reader) call(n *docNode, at string) (toolgate.Call, error) {
	var c toolgate.Call
	if err := r.mapping(n, at); err != nil {
		return c, err
	}
	if err := r.checkKeys(n, at, callKeys...); err != nil {
		return c, err
	}
	tool := n.get("tool")
	if tool == nil {
		return c, r.errAt(n, "%s: missing \"tool\"", at)
	}
	var err error
	if c.Tool, err = r.nonEmpty(tool, at+".tool"); err != nil {
		return c, err
	}
	if a := n.get("args"); a != nil && a.kind != kNull {
		if err := r.mapping(a, at+".args"); err != nil {
			return c, err
		}
		c.Args = a.toAny().(map[string]any)
	}
	for _, f := range []struct {
		key string
		dst *string
	}{{"agent", &c.Agent}, {"cwd", &c.Cwd}, {"home", &c.Home}, {"session", &c.Session}, {"workspace", &c.Workspace}, {"id", &c.ID}, {"origin", &c.Origin}} {
		if v := n.get(f.key); v != nil {
			if *f.dst, err = r.str(v, at+"."+f.key); err != nil {
				return c, err
			}
		}
	}
	if v := n.get("tier"); v != nil {
		s, err := r.str(v, at+".tier")
		if err != nil {
			return c, err
		}
		if c.Tier, err = toolgate.ParseTier(s); err != nil {
			return c, r.errAt(v, "%s.tier: %v", at, err)
		}
	}
	return c, nil
}
