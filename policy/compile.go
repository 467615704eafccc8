package policy

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/glob"
	"github.com/toolgate/toolgate/internal/sensitive"
)

// Ruleset is one compiled layer of rules, indexed by tool family. It is
// immutable and safe for concurrent use.
type Ruleset struct {
	layer toolgate.Layer
	rules []compiledRule
	// exact indexes, by family key, the rules that name a tool of that
	// family.
	exact map[string]*subjectIndex
	// wild lists the rules whose tool is a glob (the catch-all included), in
	// ascending order; their tool is tested when the call is decided.
	wild []int32
	// any indexes the rules whose tool is "*".
	any *subjectIndex
	// profile is the engine's: glob-tool rules are filed under every
	// known family they cover, so only tools outside every family need
	// the wild scan.
	profile *toolProfile
}

// Len returns the number of rules in the set.
func (rs *Ruleset) Len() int {
	if rs == nil {
		return 0
	}
	return len(rs.rules)
}

// Layer returns the layer the set was compiled for.
func (rs *Ruleset) Layer() toolgate.Layer { return rs.layer }

type compiledRule struct {
	ref toolgate.RuleRef
	// reason is the decision reason when this rule decides, built the
	// first time it does (reasonText): most rules never decide a call,
	// and the hook compiles every rule on each call.
	reason atomic.Pointer[string]
	home   string
	// prefix is text every subject the rule matches starts with: the
	// whole pattern for Prefix rules, else the pattern's literal prefix.
	prefix   string
	toolGlob *glob.Glob
	// families lists the family keys a glob tool pattern covers through
	// one of their member names.
	families map[string]bool
	pat      *glob.Glob // subject pattern
	bareGlob *glob.Glob // for "X *": X, which a shell subject also matches
	when     []compiledCond
	// same is, for an exact rule, the alias-group key of its tool: only
	// subjects of calls to that tool match.
	same string

	// The flags come last, together, so the struct packs: the hook
	// compiles every rule on each call.

	// sens makes the pattern a class of sensitive paths ("$CREDENTIALS",
	// "$AGENT_CONFIG"): it matches what sensitive.Lookup puts in the class.
	sens sensitive.Kind
	// readOnly makes the pattern "$READ_ONLY": it matches a shell
	// command that only reads (markReadOnly).
	readOnly bool
	catchAll bool // tool pattern is "*": an open match
	// ws marks a "$WORKSPACE/" rule: pat matches the path relative to
	// the workspace root, and only that form.
	ws bool
	// open is true when the mode applies over the rule's answer: a
	// catch-all or a built-in default, unless it denies (a deny is never
	// loosened by a mode).
	open     bool
	any      bool // the subject pattern matches everything
	hasBare  bool
	isPrefix bool
	// exactGlob is an exact rule whose tool is a glob: the call's tool
	// name must match it.
	exactGlob bool
}

type compiledCond struct {
	arg string
	pat *glob.Glob
}

// Compile compiles rules as one layer against the engine's tool profiles
// and home directory. Grants are compiled with it too.
func (e *Engine) Compile(layer toolgate.Layer, rules []Rule) (*Ruleset, error) {
	rs := &Ruleset{layer: layer, rules: make([]compiledRule, len(rules)), exact: map[string]*subjectIndex{}, profile: &e.profile}
	// The rules are compiled first and indexed after, so each index's
	// trie is allocated once at its size (the hook compiles every rule on
	// each call).
	keys := make([]string, len(rules)) // the family key of an exact-tool rule
	size := map[string]trieSize{}      // trie nodes per family key, at most
	var anySize trieSize
	var memo toolMemo
	for i := range rules {
		r := &rules[i]
		cr := &rs.rules[i]
		tool := memo.get(e, r.Tool)
		if err := e.compileRule(cr, layer, r, tool); err != nil {
			return nil, fmt.Errorf("%s: %w", r.Source, err)
		}
		switch {
		case cr.catchAll:
			anySize.add(cr.prefix)
		case cr.toolGlob != nil:
			for fam := range cr.families {
				sz := size[fam]
				sz.add(cr.prefix)
				size[fam] = sz
			}
		default:
			keys[i] = tool.familyKey(e)
			sz := size[keys[i]]
			sz.add(cr.prefix)
			size[keys[i]] = sz
		}
	}
	nIndex, nNodes, nRules := 1, anySize.nodes, anySize.rules
	for _, sz := range size {
		nIndex, nNodes, nRules = nIndex+1, nNodes+sz.nodes, nRules+sz.rules
	}
	slabs := newIndexSlabs(nIndex, nNodes, nRules)
	index := func(key string) *subjectIndex {
		ix := rs.exact[key]
		if ix == nil {
			ix = slabs.index(size[key].nodes, size[key].rules)
			rs.exact[key] = ix
		}
		return ix
	}
	for i := range rs.rules {
		cr := &rs.rules[i]
		idx := int32(i)
		switch {
		case cr.catchAll:
			if rs.any == nil {
				rs.any = slabs.index(anySize.nodes, anySize.rules)
			}
			rs.any.add(cr.prefix, idx)
		case cr.toolGlob != nil:
			rs.wild = append(rs.wild, idx)
			for fam := range cr.families {
				index(fam).add(cr.prefix, idx)
			}
		default:
			index(keys[i]).add(cr.prefix, idx)
		}
	}
	return rs, nil
}

// trieSize bounds what a subject index needs for the rules added to it so
// far: each prefix adds at most the trie nodes for the bytes it does not
// share with the one before it, exactly those when they come sorted.
// Rules written together share their prefixes (a protected path and its
// "/*"), so the bound stays near the trie's size, which the hook
// allocates on each call.
type trieSize struct {
	nodes, rules int
	last         string
}

func (t *trieSize) add(prefix string) {
	t.nodes += len(prefix) - len(commonPrefix(t.last, prefix))
	t.rules++
	t.last = prefix
}

// toolMemo is the profile lookup of the tool last compiled: rules come
// grouped by tool, and each lookup searches the built-in tool table.
type toolMemo struct {
	tool   string
	info   toolInfo
	known  bool
	key    string
	hasKey bool
}

// get returns the lookup of tool, done once per run of rules naming it.
func (m *toolMemo) get(e *Engine, tool string) *toolMemo {
	if m.tool != tool || m.tool == "" {
		info, known := e.profile.lookup(tool)
		*m = toolMemo{tool: tool, info: info, known: known}
	}
	return m
}

// familyKey is e.familyKey(m.tool).
func (m *toolMemo) familyKey(e *Engine) string {
	if !m.hasKey {
		if m.known {
			m.key = m.info.family
		} else {
			m.key = e.familyKey(m.tool)
		}
		m.hasKey = true
	}
	return m.key
}

func (e *Engine) compileRule(cr *compiledRule, layer toolgate.Layer, r *Rule, tool *toolMemo) error {
	if r.Tool == "" {
		return fmt.Errorf("rule has no tool")
	}
	switch r.Action {
	case toolgate.Allow, toolgate.Ask, toolgate.Deny:
	default:
		return fmt.Errorf("rule for %s has no valid action", r.Tool)
	}
	if r.Sandbox && layer == toolgate.LayerManaged {
		return fmt.Errorf("rule for %s: the managed layer only restricts, and a sandbox rule allows (confined)", r.Tool)
	}
	if r.Sandbox && r.Action != toolgate.Ask {
		return fmt.Errorf("rule for %s: a sandbox rule asks outside the sandbox, not %s", r.Tool, r.Action)
	}
	home := e.home
	if r.Action == toolgate.Allow && e.allowHome != "" {
		home = e.allowHome
	}
	pattern := expandHome(r.Pattern, home)
	if tool.known && tool.info.spec.Kind == KindURL {
		// URL subjects are hosts; rules name them "domain:HOST".
		pattern = strings.TrimPrefix(pattern, "domain:")
	}
	*cr = compiledRule{
		ref: toolgate.RuleRef{
			Layer: layer, Source: r.Source.String(), Tool: r.Tool,
			Pattern: r.Pattern, Action: r.Action, Sandbox: r.Sandbox, Reason: r.Reason,
		},
	}
	if cr.ref.Pattern == "" {
		cr.ref.Pattern = "*"
	}
	toolGlob := isToolGlob(r.Tool)
	if r.Exact {
		if r.Tool == "*" || toolGlob {
			// A glob names its own tools: it is matched against the
			// call's tool name, never widened to the families it touches.
			cr.exactGlob = true
		} else {
			cr.same = e.sameKey(r.Tool, "")
		}
	}
	cr.open = (r.Tool == "*" || r.Default) && r.Action != toolgate.Deny
	switch {
	case r.Tool == "*":
		cr.catchAll = true
	case toolGlob:
		g, err := glob.Compile(r.Tool)
		if err != nil {
			return fmt.Errorf("tool pattern: %w", err)
		}
		cr.toolGlob = g
		cr.families = e.profile.globFamilies(g)
	}
	if rest, ok := strings.CutPrefix(pattern, WorkspacePrefix); ok && !r.Prefix {
		cr.ws, pattern = true, rest
		if pattern == "" {
			pattern = "*"
		}
	}
	if pattern == ReadOnlyPattern && !r.Prefix {
		cr.readOnly = true
		return e.compileWhen(cr, r)
	}
	if k, ok := sensitiveClass(pattern); ok && !r.Prefix {
		cr.sens, cr.home = k, e.home
		return e.compileWhen(cr, r)
	}
	switch {
	case r.Prefix:
		if pattern == "" {
			return fmt.Errorf("empty prefix for %s", r.Tool)
		}
		cr.isPrefix, cr.prefix = true, pattern
	case pattern == "" || pattern == "*":
		cr.any = true
	default:
		g, err := glob.Compile(pattern)
		if err != nil {
			return err
		}
		cr.pat = g
		cr.any = g.MatchesAll()
		cr.prefix = g.LiteralPrefix()
		if bare, ok := strings.CutSuffix(pattern, " *"); ok && bare != "" {
			// "git push *" also matches the bare "git push" (DESIGN §3.3).
			if g, err := glob.Compile(bare); err == nil {
				cr.bareGlob, cr.hasBare = g, true
				cr.prefix = commonPrefix(cr.prefix, g.LiteralPrefix())
			}
		}
	}
	if cr.ws {
		cr.prefix = wsMarker + cr.prefix
	}
	return e.compileWhen(cr, r)
}

// isToolGlob reports whether a rule's tool is a glob over tool names.
func isToolGlob(tool string) bool {
	for i := 0; i < len(tool); i++ {
		switch tool[i] {
		case '*', '?', '[', '{':
			return true
		}
	}
	return false
}

func (e *Engine) compileWhen(cr *compiledRule, r *Rule) error {
	for _, c := range r.When {
		g, err := glob.Compile(c.Pattern)
		if err != nil {
			return fmt.Errorf("when %s: %w", c.Arg, err)
		}
		cr.when = append(cr.when, compiledCond{arg: c.Arg, pat: g})
	}
	if len(cr.when) > 1 {
		sort.Slice(cr.when, func(i, j int) bool { return cr.when[i].arg < cr.when[j].arg })
	}
	return nil
}

// reasonText returns the decision reason of the rule, built once.
func (cr *compiledRule) reasonText() string {
	if p := cr.reason.Load(); p != nil {
		return *p
	}
	text := ruleReason(&cr.ref)
	cr.reason.CompareAndSwap(nil, &text)
	return *cr.reason.Load()
}

// ruleReason words the reason a decision gives when rule r decides it.
func ruleReason(r *toolgate.RuleRef) string {
	// One allocation, not fmt.
	where := r.Source
	if where == "" {
		where = string(r.Layer)
	}
	var before, after string
	switch r.Action {
	case toolgate.Allow:
		before = "allowed by "
	case toolgate.Deny:
		before = "denied by "
	case toolgate.Ask:
		after = " asks for approval"
		if r.Sandbox {
			after = " asks for approval unless it runs in the kernel sandbox"
		}
	default:
		before = " by "
	}
	var b strings.Builder
	b.Grow(len(r.Reason) + len(" — ") + len(before) + len("rule ") + len(r.Tool) + len(r.Pattern) + len(where) + len(after) + 6)
	if r.Reason != "" {
		b.WriteString(r.Reason)
		b.WriteString(" — ")
	}
	b.WriteString(before)
	b.WriteString("rule ")
	b.WriteString(r.Tool)
	b.WriteByte(' ')
	writeQuoted(&b, r.Pattern)
	b.WriteString(" (")
	b.WriteString(where)
	b.WriteByte(')')
	b.WriteString(after)
	return b.String()
}

// writeQuoted writes strconv.Quote(s): s itself between quotes when it is
// printable ASCII with nothing to escape, as patterns almost always are.
func writeQuoted(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == '"' || c == '\\' {
			b.WriteString(strconv.Quote(s))
			return
		}
	}
	b.WriteByte('"')
	b.WriteString(s)
	b.WriteByte('"')
}

// familyKey returns the index key for a tool name written in a rule.
func (e *Engine) familyKey(tool string) string {
	if info, ok := e.profile.lookup(tool); ok {
		return info.family
	}
	var buf [128]byte
	if alias, ok := mcpAlias(buf[:0], tool); ok {
		return string(alias)
	}
	return tool
}

// WorkspacePrefix starts a pattern that matches paths inside the
// workspace root (the call's cwd, or a root given with WithWorkspaceRoots):
// "$WORKSPACE/*" is every file in it. The rest of the pattern matches the
// path relative to the root.
const WorkspacePrefix = "$WORKSPACE/"

// wsMarker files "$WORKSPACE/" rules in the subject index apart from
// every path: a path with a NUL byte is opaque and never looked up.
const wsMarker = "\x00ws/"

// expandHome expands a leading "~/" or "$HOME/" (and "${HOME}/") in a
// pattern to home, if set.
func expandHome(p, home string) string {
	if home == "" {
		return p
	}
	for _, pre := range []string{"~/", "$HOME/", "${HOME}/"} {
		if rest, ok := strings.CutPrefix(p, pre); ok {
			return filepath.ToSlash(filepath.Join(home, rest)) + trailingSlash(rest)
		}
	}
	if p == "~" || p == "$HOME" || p == "${HOME}" {
		return home
	}
	return p
}

func trailingSlash(s string) string {
	if strings.HasSuffix(s, "/") && s != "/" {
		return "/"
	}
	return ""
}

// escapeLiteral escapes the glob metacharacters of a path except a final
// "/*", so a protected path with brackets or braces stays literal.
func escapeLiteral(p string) string {
	if rest, ok := strings.CutSuffix(p, "/*"); ok {
		return glob.QuoteMeta(rest) + "/*"
	}
	return glob.QuoteMeta(p)
}

func commonPrefix(a, b string) string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return a[:n]
}
