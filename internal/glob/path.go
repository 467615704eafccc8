package glob

import "strings"

// Path is a shell pathname pattern as a command line writes it ("*.log",
// "src/*.go", "~/.ss?/id_*"): a word the shell expands into the names of
// existing files, read so that it can be compared with rule patterns
// without knowing which files exist.
//
// The reading over-approximates what the shell can expand the word to:
// '*', '?' and a bracket expression each stand for any run of characters
// within one path element, "**" (globstar) for any run across elements,
// and every other byte, a backslash included, is literal. A word that
// matches nothing is passed on as written, which the reading covers too
// ('*' matches the literal '*'). So MayMatch never misses a path some
// expansion reaches, and Covers never claims one it does not.
type Path struct {
	syms []sym
	meta bool
}

// symKind is what one element of a flattened pattern matches.
type symKind uint8

const (
	symLit     symKind = iota // the byte b
	symOne                    // one character (of cls when set): rule '?' and classes
	symStar                   // any run of bytes, '/' included
	symSegStar                // any run of bytes without '/'
)

type sym struct {
	k   symKind
	b   byte
	cls *class
	// nodot marks a run that starts a path element of a shell word read
	// without dotglob (ParseShellPath): the element's first byte is not
	// '.', whichever symbol of the element matches it.
	nodot bool
}

// maxStates bounds the product of the two patterns' lengths the
// comparisons explore; beyond it MayMatch says yes and Covers says no,
// the answers that can never make a protected path look unprotected.
const maxStates = 1 << 16

// ParsePath reads a shell pathname pattern. A bracket expression runs
// from '[' to the last ']' of the word, the widest reading the shell may
// give it; one that holds a '/' stands for a run across elements.
func ParsePath(word string) Path {
	p := Path{syms: make([]sym, 0, len(word))}
	lastClose := strings.LastIndexByte(word, ']')
	for i := 0; i < len(word); i++ {
		switch c := word[i]; {
		case c == '*' && i+1 < len(word) && word[i+1] == '*':
			for i+1 < len(word) && word[i+1] == '*' {
				i++
			}
			p.addStar(symStar)
		case c == '*' || c == '?':
			p.addStar(symSegStar)
		case c == '[' && lastClose > i:
			k := symSegStar
			if strings.IndexByte(word[i:lastClose], '/') >= 0 {
				k = symStar
			}
			p.addStar(k)
			i = lastClose
		default:
			p.syms = append(p.syms, sym{k: symLit, b: c})
		}
	}
	return p
}

// ParseShellPath is ParsePath for a word bash expands with its default
// options: a '*', '?' or bracket expression that starts a path element
// does not match a '.' there (".git", ".env" are matched only by an
// element that spells the dot), as without shopt -s dotglob and
// GLOBIGNORE. An element holding a run that crosses '/' keeps
// ParsePath's reading.
func ParseShellPath(word string) Path {
	p := ParsePath(word)
	for i := range p.syms {
		if p.syms[i].k != symSegStar || i > 0 && !(p.syms[i-1].k == symLit && p.syms[i-1].b == '/') {
			continue
		}
		crosses := false
		for j := i; j < len(p.syms) && !(p.syms[j].k == symLit && p.syms[j].b == '/'); j++ {
			crosses = crosses || p.syms[j].k == symStar
		}
		p.syms[i].nodot = !crosses
	}
	return p
}

// addStar appends a star, merging it with a star before it.
func (p *Path) addStar(k symKind) {
	p.meta = true
	if n := len(p.syms); n > 0 && p.syms[n-1].k >= symStar {
		if k == symStar {
			p.syms[n-1].k = symStar
		}
		return
	}
	p.syms = append(p.syms, sym{k: k})
}

// HasMeta reports whether the word holds a glob metacharacter: without
// one it names one file and compares like any path.
func (p Path) HasMeta() bool { return p.meta }

// Crosses reports whether some run of the pattern may hold a '/' ("**",
// a bracket expression holding one): its expansions then need not end in
// the element it writes last.
func (p Path) Crosses() bool {
	for _, s := range p.syms {
		if s.k == symStar {
			return true
		}
	}
	return false
}

// symBuf holds a rule pattern's symbols while it is compared: most
// patterns fit, so a comparison allocates nothing.
type symBuf [64]sym

// syms flattens one alternative of a rule pattern into buf (a longer one
// into a slice of its own). For MayMatch (may) a '?' or class becomes
// "one or more bytes", since a character may take several; for Covers it
// stays one character.
func (a *alt) syms(buf *symBuf, may bool) []sym {
	out := buf[:0]
	lit := func(s string) {
		for i := 0; i < len(s); i++ {
			out = append(out, sym{k: symLit, b: s[i]})
		}
	}
	star := func() {
		if n := len(out); n == 0 || out[n-1].k != symStar {
			out = append(out, sym{k: symStar})
		}
	}
	switch a.kind {
	case kindAny:
		star()
	case kindLiteral:
		lit(a.lit)
	case kindPrefix:
		lit(a.lit)
		star()
	case kindSuffix:
		star()
		lit(a.lit)
	case kindContains:
		star()
		lit(a.lit)
		star()
	default:
		lit(a.prefix)
		for _, t := range a.toks {
			switch t.kind {
			case tokLit:
				lit(t.lit)
			case tokStar:
				star()
			default:
				if may {
					out = append(out, sym{k: symOne})
					star()
				} else {
					out = append(out, sym{k: symOne, cls: t.cls})
				}
			}
		}
		lit(a.suffix)
	}
	return out
}

// startAgrees reports whether the literal text the alternative's matches
// start with and the one p's expansions start with agree as far as both
// go. When they do not, no string matches both, which each comparison
// below would find only after flattening the pattern: most rules are
// told apart from most words by their first bytes.
func (a *alt) startAgrees(p Path) bool {
	lit := a.literalPrefix()
	for i := 0; i < len(lit) && i < len(p.syms) && p.syms[i].k == symLit; i++ {
		if lit[i] != p.syms[i].b {
			return false
		}
	}
	return true
}

// MayMatch reports whether some path the shell may expand p to matches
// the rule pattern g. It may say yes when none does (a bracket expression
// is read as a run of characters, and so on), never no when one does: a
// deny or ask rule it says no for cannot apply to any expansion.
func (g *Glob) MayMatch(p Path) bool {
	if g.negate {
		return true // all but some paths: assume one of them
	}
	var buf symBuf
	for i := range g.alts {
		if g.alts[i].startAgrees(p) && meet(g.alts[i].syms(&buf, true), p.syms) {
			return true
		}
	}
	return false
}

// Covers reports whether g matches every path the shell may expand p to,
// so that an allow rule of g vouches for the whole word. It may say no
// when g does cover p, never yes when it does not. A path with a byte
// outside ASCII is never covered (a character of a rule's '?' may then
// straddle the pattern's pieces).
func (g *Glob) Covers(p Path) bool {
	for _, s := range p.syms {
		if s.k == symLit && s.b >= 0x80 {
			return false
		}
	}
	var buf symBuf
	if g.negate {
		// The complement of the alternatives covers p when no
		// alternative may match it.
		for i := range g.alts {
			if g.alts[i].startAgrees(p) && meet(g.alts[i].syms(&buf, true), p.syms) {
				return false
			}
		}
		return true
	}
	for i := range g.alts {
		if g.alts[i].startAgrees(p) && covers(g.alts[i].syms(&buf, false), p.syms) {
			return true
		}
	}
	return false
}

// AimedBy is MayMatch for a word that must aim at g to count: see
// Aims. A deny or ask rule that floats ("*secret*", "*.env.*") restricts
// the words that spell it out (".e*", "*secret*"), not every glob that
// could expand to a file so named ("*.log").
func (g *Glob) AimedBy(p Path) bool { return g.aimedBy(p, false) }

func (g *Glob) aimedBy(p Path, floats bool) bool {
	if g.negate {
		return true
	}
	var buf symBuf
	for i := range g.alts {
		if g.alts[i].startAgrees(p) && aimed(g.alts[i].syms(&buf, true), p.syms, floats) {
			return true
		}
	}
	return false
}

// AimedByGlob is AimedBy for a search tool's file glob, which narrows a
// search whose root is decided on its own: every rule, anchored or
// floating, counts only where the glob spells it out ("**/*.env" aims at
// "*.env" and "secrets/*" at "secrets/*"; "**/*.go" at neither).
func (g *Glob) AimedByGlob(p Path) bool { return g.aimedBy(p, true) }

// Aims reports whether the word p aims at q, a protected path pattern
// read as ParsePath reads it. Where q is anchored (its first symbol is a
// literal: "/etc/shadow", "~/.ssh/*") that is MayMeet. Where q floats
// (it starts with a run that crosses '/': "*secret*", "**/id_*") and so
// names a file by its name wherever it lies, any word with a '*' in its
// last element may meet it ("*.log" may expand to "a-secret.log"), and
// meeting would make every glob of a command ask. Such a q is aimed at
// when, in some string both match, p's own literal bytes spell at least
// a third of q's literal bytes, '/' not counted: ".e*" aims at "**/.env"
// (2 of 4), "*cred*" at "*credentials*" (4 of 11), "*.log" at neither.
// A word with a wildcard in an element that starts with '.' picks among
// hidden names, few and chosen on purpose: it aims at every pattern it
// may meet (".c*/x" at "**/.claude/**"). A recursive read is judged
// alike: "grep -r x ." is not a read of every secret below ".".
func (p Path) Aims(q Path) bool { return aimed(q.syms, p.syms, false) }

// AimsName is Aims for q a name that may lie in any directory
// ("id_*", ".git/hooks/**"): it floats although written without a
// leading "**/".
func (p Path) AimsName(q Path) bool { return aimed(q.syms, p.syms, true) }

// MayMeet reports whether some path may match both p and q, each read
// as ParsePath reads it. Like MayMatch it may say yes wrongly, never no.
func (p Path) MayMeet(q Path) bool { return meet(p.syms, q.syms) }

// Holds reports whether every path q's reading matches, p's reading
// matches too. Like Covers it may say no wrongly, never yes.
func (p Path) Holds(q Path) bool { return covers(p.syms, q.syms) }

// meet reports whether some string matches both a (a rule pattern's
// symbols, symOne meaning any byte) and b (a path pattern's): the product
// of the two automata reaches its accepting state.
func meet(a, b []sym) bool {
	if !endsAgree(a, b) {
		return false
	}
	la, lb := len(a), len(b)
	n := 2 * (la + 1) * (lb + 1)
	if n > maxStates {
		return true
	}
	var seenBuf [1024]bool
	var stackBuf [256]int32
	var seen []bool
	if n <= len(seenBuf) {
		seen = seenBuf[:n]
	} else {
		seen = make([]bool, n)
	}
	// A state is (i, j, f): f is set while b[j] is a nodot run that has
	// matched nothing yet, so the next byte it or b[j+1] takes starts its
	// element and may not be '.'.
	w := lb + 1
	stack := stackBuf[:0]
	push := func(i, j int, f bool) {
		k := 2 * (i*w + j)
		if f {
			k++
		}
		if !seen[k] {
			seen[k] = true
			stack = append(stack, int32(k))
		}
	}
	push(0, 0, lb > 0 && b[0].nodot)
	for len(stack) > 0 {
		k := int(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
		f := k%2 == 1
		i, j := (k/2)/w, (k/2)%w
		if i == la && j == lb {
			return true
		}
		aStar := i < la && a[i].k >= symStar
		bStar := j < lb && b[j].k >= symStar
		if aStar {
			push(i+1, j, f)
		}
		if bStar && !(f && j+1 < lb && b[j+1].k == symLit && b[j+1].b == '.') {
			push(i, j+1, false)
		}
		if aStar && bStar && f {
			push(i, j, false) // both take a first byte that is not '.'
		}
		if i == la || j == lb || aStar && bStar || !bytesMeet(a[i], b[j]) {
			continue
		}
		if f && a[i].k == symLit && a[i].b == '.' {
			continue // the element's first byte, taken by b's run
		}
		ni, nj, nf := i, j, false
		if !aStar {
			ni++
		}
		if !bStar {
			nj++
			nf = nj < lb && b[nj].nodot
		}
		push(ni, nj, nf)
	}
	return false
}

// aimed is Aims, with a floating also when floats is set (AimsName). It
// weighs the paths through the product of the two automata by the
// literal bytes of a that literal bytes of b match, and compares the
// best with a third of a's. Every step moves forward in a, in b or in
// both, so one pass over the states in order finds the best path to each.
func aimed(a, b []sym, floats bool) bool {
	total := 0
	for _, s := range a {
		if s.k == symLit && s.b != '/' {
			total++
		}
	}
	if !floats && (len(a) == 0 || a[0].k != symStar) || total == 0 {
		return meet(a, b)
	}
	if !meet(a, b) {
		return false // most pairs: no common string at all, found fast
	}
	if hiddenWild(b) {
		// Hidden names are few and picked on purpose: "rm -rf .c*"
		// may well mean .claude.
		return true
	}
	la, lb := len(a), len(b)
	w := lb + 1
	if 2*(la+1)*w > maxStates {
		return true
	}
	// best[k] is the most literal bytes matched on a path to state k,
	// 2*(i*w+j)+f as in meet, or -1 when none reaches it.
	var bestBuf [1024]int16
	var best []int16
	if n := 2 * (la + 1) * w; n <= len(bestBuf) {
		best = bestBuf[:n]
	} else {
		best = make([]int16, n)
	}
	for k := range best {
		best[k] = -1
	}
	relax := func(i, j int, f bool, v int16) {
		k := 2 * (i*w + j)
		if f {
			k++
		}
		if v > best[k] {
			best[k] = v
		}
	}
	relax(0, 0, lb > 0 && b[0].nodot, 0)
	for i := 0; i <= la; i++ {
		for j := 0; j <= lb; j++ {
			// f set before f clear: (i, j, set) leads to (i, j, clear).
			for _, f := range [2]bool{true, false} {
				k := 2 * (i*w + j)
				if f {
					k++
				}
				v := best[k]
				if v < 0 {
					continue
				}
				aStar := i < la && a[i].k >= symStar
				bStar := j < lb && b[j].k >= symStar
				if aStar {
					relax(i+1, j, f, v)
				}
				if bStar && !(f && j+1 < lb && b[j+1].k == symLit && b[j+1].b == '.') {
					relax(i, j+1, false, v)
				}
				if aStar && bStar && f {
					relax(i, j, false, v)
				}
				if i == la || j == lb || aStar && bStar || !bytesMeet(a[i], b[j]) {
					continue
				}
				if f && a[i].k == symLit && a[i].b == '.' {
					continue
				}
				ni, nj, nf, gain := i, j, false, int16(0)
				if !aStar {
					ni++
				}
				if !bStar {
					nj++
					nf = nj < lb && b[nj].nodot
				}
				if a[i].k == symLit && b[j].k == symLit && a[i].b != '/' {
					gain = 1
				}
				relax(ni, nj, nf, v+gain)
			}
		}
	}
	got := max(best[2*(la*w+lb)], best[2*(la*w+lb)+1])
	return got >= 0 && 3*int(got) >= total
}

// hiddenWild reports whether an element of b starts with a literal '.'
// and holds a wildcard: the word picks among hidden names.
func hiddenWild(b []sym) bool {
	hidden := false
	for i, s := range b {
		switch {
		case s.k == symLit && s.b == '/':
			hidden = false
		case s.k == symLit && s.b == '.' && (i == 0 || b[i-1].k == symLit && b[i-1].b == '/'):
			hidden = true
		case s.k >= symStar && hidden:
			return true
		}
	}
	return false
}

// endsAgree is meet's quick test: the literal runs both patterns start
// with agree as far as both go, and so do the runs they end with.
func endsAgree(a, b []sym) bool {
	for i := 0; i < len(a) && i < len(b) && a[i].k == symLit && b[i].k == symLit; i++ {
		if a[i].b != b[i].b {
			return false
		}
	}
	for i, j := len(a)-1, len(b)-1; i >= 0 && j >= 0 && a[i].k == symLit && b[j].k == symLit; i, j = i-1, j-1 {
		if a[i].b != b[j].b {
			return false
		}
	}
	return true
}

// bytesMeet reports whether one byte exists that both symbols accept.
func bytesMeet(x, y sym) bool {
	switch {
	case x.k == symLit && y.k == symLit:
		return x.b == y.b
	case x.k == symLit && y.k == symSegStar:
		return x.b != '/'
	case y.k == symLit && x.k == symSegStar:
		return y.b != '/'
	}
	return true
}

// covers reports whether every string b (a path pattern's symbols)
// matches is matched by a (a rule pattern's): a run of b's stars is only
// ever absorbed by a star of a, which matches whatever they expand to,
// and a's literals and single characters only match b's literals.
func covers(a, b []sym) bool {
	la, lb := len(a), len(b)
	if (la+1)*(lb+1) > maxStates {
		return false
	}
	var seenBuf [1024]bool
	var stackBuf [256]int32
	var seen []bool
	if n := (la + 1) * (lb + 1); n <= len(seenBuf) {
		seen = seenBuf[:n]
	} else {
		seen = make([]bool, n)
	}
	stack := stackBuf[:0]
	push := func(i, j int) {
		k := i*(lb+1) + j
		if !seen[k] {
			seen[k] = true
			stack = append(stack, int32(k))
		}
	}
	push(0, 0)
	for len(stack) > 0 {
		k := int(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
		i, j := k/(lb+1), k%(lb+1)
		if i == la && j == lb {
			return true
		}
		if i == la {
			continue
		}
		switch x := a[i]; x.k {
		case symStar:
			push(i+1, j)
			if j < lb {
				push(i, j+1)
			}
		case symSegStar:
			push(i+1, j)
			if j < lb && (b[j].k == symSegStar || b[j].k == symLit && b[j].b != '/') {
				push(i, j+1)
			}
		case symLit:
			if j < lb && b[j].k == symLit && b[j].b == x.b {
				push(i+1, j+1)
			}
		case symOne:
			if j < lb && b[j].k == symLit && (x.cls == nil || x.cls.match(rune(b[j].b))) {
				push(i+1, j+1)
			}
		}
	}
	return false
}

// Lead returns the literal text every expansion of p starts with: the
// bytes before its first wildcard.
func (p Path) Lead() string {
	b := make([]byte, 0, len(p.syms))
	for _, s := range p.syms {
		if s.k != symLit {
			break
		}
		b = append(b, s.b)
	}
	return string(b)
}

// Wild reports whether p has no literal byte ("*", "?*", "[ab]"): it may
// stand for any name at all.
func (p Path) Wild() bool {
	for _, s := range p.syms {
		if s.k == symLit {
			return false
		}
	}
	return len(p.syms) > 0
}
