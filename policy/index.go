package policy

import (
	"strings"

	"github.com/toolgate/toolgate"
)

// subjectIndex holds one family's rules in a trie keyed by the literal
// prefix of their patterns, so finding the last rule that matches a subject
// visits only rules whose prefix the subject starts with, however many
// rules the family has.
type subjectIndex struct {
	nodes []trieNode // nodes[0] is the root: rules with no literal prefix
	// edges and ids are slabs the nodes' first edge and first rule are cut
	// from: most nodes have one of each, and the hook compiles every rule
	// on each call, so one allocation serves many nodes.
	edges []trieEdge
	ids   []int32
}

type trieNode struct {
	rules []int32 // indices of rules whose prefix ends here, descending
	next  []trieEdge
}

type trieEdge struct {
	b    byte
	node int32
}

// indexSlabs holds the subject indexes of one Ruleset and the slabs
// their tries start from, each one allocation: the hook compiles every
// rule on each call, and each allocation of a size not yet in use is a
// fresh heap page or two it faults in.
type indexSlabs struct {
	indexes []subjectIndex
	nodes   []trieNode
	edges   []trieEdge
	ids     []int32
}

// newIndexSlabs returns slabs for indexes indexes with nodes trie nodes
// and rules rules between them, roots not counted.
func newIndexSlabs(indexes, nodes, rules int) *indexSlabs {
	return &indexSlabs{
		indexes: make([]subjectIndex, 0, indexes),
		nodes:   make([]trieNode, 0, indexes+nodes),
		edges:   make([]trieEdge, 0, nodes),
		ids:     make([]int32, 0, rules),
	}
}

// index returns an empty index with room for nodes trie nodes besides the
// root and for rules rules (trieSize bounds the nodes). Every node but
// the root is reached by one edge: the first edges of all the nodes fit
// in its share of the edge slab, and the first rule of every node in its
// share of the ids. An index that outgrows a share (it cannot, sized by
// trieSize) gets a new one rather than writing into the next.
func (s *indexSlabs) index(nodes, rules int) *subjectIndex {
	if len(s.indexes) == cap(s.indexes) {
		s.indexes = make([]subjectIndex, 0, 1)
	}
	s.indexes = append(s.indexes, subjectIndex{
		nodes: append(cut(&s.nodes, 1+nodes), trieNode{}),
		edges: cut(&s.edges, nodes),
		ids:   cut(&s.ids, rules),
	})
	return &s.indexes[len(s.indexes)-1]
}

// cut takes an empty slice with capacity n from the free end of slab.
func cut[T any](slab *[]T, n int) []T {
	l := len(*slab)
	if cap(*slab)-l < n {
		return make([]T, 0, n)
	}
	*slab = (*slab)[:l+n]
	return (*slab)[l : l : l+n]
}

// add files rule idx under prefix. Rules must be added in ascending order.
func (ix *subjectIndex) add(prefix string, idx int32) {
	n := int32(0)
	for i := 0; i < len(prefix); i++ {
		c := ix.child(n, prefix[i])
		if c < 0 {
			c = int32(len(ix.nodes))
			ix.nodes = append(ix.nodes, trieNode{})
			node := &ix.nodes[n]
			if node.next == nil {
				node.next = ix.edge(trieEdge{b: prefix[i], node: c})
			} else {
				at := len(node.next)
				for at > 0 && node.next[at-1].b > prefix[i] {
					at--
				}
				node.next = append(node.next, trieEdge{})
				copy(node.next[at+1:], node.next[at:])
				node.next[at] = trieEdge{b: prefix[i], node: c}
			}
		}
		n = c
	}
	node := &ix.nodes[n]
	if node.rules == nil {
		node.rules = ix.id(idx)
	} else {
		node.rules = append([]int32{idx}, node.rules...) // keep descending
	}
}

// slab is how many first edges or rule ids one allocation holds.
const slab = 64

// edge returns a one-element slice holding e, cut from the slab; appending
// to it copies.
func (ix *subjectIndex) edge(e trieEdge) []trieEdge {
	if len(ix.edges) == cap(ix.edges) {
		ix.edges = make([]trieEdge, 0, slab)
	}
	ix.edges = append(ix.edges, e)
	n := len(ix.edges)
	return ix.edges[n-1 : n : n]
}

// id is edge for a rule index.
func (ix *subjectIndex) id(idx int32) []int32 {
	if len(ix.ids) == cap(ix.ids) {
		ix.ids = make([]int32, 0, slab)
	}
	ix.ids = append(ix.ids, idx)
	n := len(ix.ids)
	return ix.ids[n-1 : n : n]
}

func (ix *subjectIndex) child(n int32, b byte) int32 {
	for _, e := range ix.nodes[n].next {
		if e.b == b {
			return e.node
		}
		if e.b > b {
			break
		}
	}
	return -1
}

// last returns the highest rule index above floor whose rule matches text,
// or floor. allowOK is false for forms only deny and ask rules may match.
// A non-empty pre (wsMarker) is walked in the trie before text and makes
// text an in-workspace form: only "$WORKSPACE/" rules match it, and they
// match text alone.
func (ix *subjectIndex) last(rs *Ruleset, pre, text string, s *subject, args map[string]any, allowOK bool, floor int32) int32 {
	var stack [24][]int32
	lists := stack[:0]
	n := int32(0)
	for i := 0; ; i++ {
		if rules := ix.nodes[n].rules; len(rules) > 0 && rules[0] > floor {
			lists = append(lists, rules)
		}
		if i == len(pre)+len(text) {
			break
		}
		b := byte(0)
		if i < len(pre) {
			b = pre[i]
		} else {
			b = text[i-len(pre)]
		}
		if n = ix.child(n, b); n < 0 {
			break
		}
	}
	// Merge the lists from the highest index down; the first rule that
	// matches is the last match.
	for {
		best, at := floor, -1
		for j, l := range lists {
			if len(l) > 0 && l[0] > best {
				best, at = l[0], j
			}
		}
		if at < 0 {
			return floor
		}
		lists[at] = lists[at][1:]
		r := &rs.rules[best]
		if r.ws != (pre != "") {
			continue
		}
		if r.eligible(s, args, allowOK) && r.matches(text, s) {
			return best
		}
	}
}

// eligible reports whether the rule may decide the subject at all: its
// conditions hold, and an allow rule may vouch for it (DESIGN §3.1: never
// for opaque subjects, forms matched only for restriction, or exec-capable
// flags the pattern does not name).
func (r *compiledRule) eligible(s *subject, args map[string]any, allowOK bool) bool {
	if r.same != "" && r.same != s.same {
		return false // an exact rule covers its own tool, not the family
	}
	if r.exactGlob && !r.catchAll && !r.toolGlob.Match(s.call) && (s.alias == "" || !r.toolGlob.Match(s.alias)) {
		return false
	}
	if r.ref.Action == toolgate.Allow {
		if !allowOK || s.opaque || s.unprefixable && r.grant() {
			return false
		}
		for _, f := range s.flags {
			if !containsString(r.ref.Pattern, f) {
				return false
			}
		}
		// A risky subject needs a rule that spells the risky form out.
		for i := range s.classes {
			if !namesWord(r.ref.Pattern, s.classes[i].Token) {
				return false
			}
		}
		if s.fclass.Class != "" && !namesWord(r.ref.Pattern, s.fclass.Token) {
			return false
		}
	}
	for i := range r.when {
		if !r.when[i].holds(args) {
			return false
		}
	}
	return true
}

// grant reports whether the rule is a grant (an "always" answer, a prefix
// grant) rather than a rule a document holds: seed 000's grants never
// cover an unprefixable construct (DESIGN §3.2), which falls through to
// a person.
func (r *compiledRule) grant() bool {
	switch r.ref.Layer {
	case toolgate.LayerGlobal, toolgate.LayerWorkspace, toolgate.LayerSession, toolgate.LayerTurn:
		return true
	}
	return r.isPrefix
}

// namesWord reports whether pattern contains token as a whole word:
// bounded by the pattern's ends, spaces, quotes, '/', '=' or ':', so
// "sudo *" does not name "su" and "--force-with-lease" does not name
// "--force".
func namesWord(pattern, token string) bool {
	if token == "" {
		return true
	}
	for from := 0; ; {
		i := strings.Index(pattern[from:], token)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(token)
		if (i == 0 || wordEdge(pattern[i-1])) && (end == len(pattern) || wordEdge(pattern[end])) {
			return true
		}
		from = i + 1
	}
}

func wordEdge(c byte) bool {
	switch c {
	case ' ', '\t', '"', '\'', '/', '=', ':':
		return true
	}
	return false
}
