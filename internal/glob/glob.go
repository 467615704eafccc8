package glob

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// maxAlternatives bounds brace expansion so a hostile pattern cannot make
// compilation explode.
const maxAlternatives = 1024

// Glob is a compiled pattern.
type Glob struct {
	src    string
	negate bool
	alts   []alt
	// one holds the alternative of a pattern without braces (most are):
	// rules are compiled on every hook call, so a glob is one allocation.
	one [1]alt
}

// alt is one brace-free alternative of a pattern.
type alt struct {
	kind   altKind
	lit    string // the literal for kindLiteral, kindPrefix, kindSuffix, kindContains
	prefix string // literal text every match starts with (kindGeneral)
	suffix string // literal text every match ends with (kindGeneral)
	toks   []token
}

type altKind uint8

const (
	kindAny      altKind = iota // "*"
	kindLiteral                 // "abc"
	kindPrefix                  // "abc*"
	kindSuffix                  // "*abc"
	kindContains                // "*abc*"
	kindGeneral
)

type tokKind uint8

const (
	tokLit tokKind = iota
	tokStar
	tokOne
	tokClass
)

type token struct {
	kind tokKind
	lit  string
	cls  *class
}

// Compile parses a pattern.
func Compile(pattern string) (*Glob, error) {
	g := &Glob{src: pattern}
	p := pattern
	if strings.HasPrefix(p, "!") && !strings.HasPrefix(p, "!(") {
		g.negate = true
		p = p[1:]
	}
	if err := checkExtglob(p); err != nil {
		return nil, fmt.Errorf("pattern %q: %w", pattern, err)
	}
	if strings.IndexByte(p, '{') < 0 {
		a, err := compileAlt(p)
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %w", pattern, err)
		}
		g.one[0] = a
		g.alts = g.one[:]
		return g, nil
	}
	expanded, err := expandBraces(p)
	if err != nil {
		return nil, fmt.Errorf("pattern %q: %w", pattern, err)
	}
	for _, e := range expanded {
		a, err := compileAlt(e)
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %w", pattern, err)
		}
		g.alts = append(g.alts, a)
	}
	return g, nil
}

// MustCompile is Compile for patterns known to be valid; it panics otherwise.
func MustCompile(pattern string) *Glob {
	g, err := Compile(pattern)
	if err != nil {
		panic(err)
	}
	return g
}

// String returns the pattern as written.
func (g *Glob) String() string { return g.src }

// MatchesAll reports whether the pattern matches every string ("*").
func (g *Glob) MatchesAll() bool {
	if g.negate {
		return false
	}
	for _, a := range g.alts {
		if a.kind == kindAny {
			return true
		}
	}
	return false
}

// Literal reports whether the pattern has no metacharacters, and its text.
func (g *Glob) Literal() (string, bool) {
	if g.negate || len(g.alts) != 1 || g.alts[0].kind != kindLiteral {
		return "", false
	}
	return g.alts[0].lit, true
}

// Contains reports whether s, taken literally, appears in the pattern's
// source text. The policy uses it to require that a rule names an
// exec-capable flag.
func (g *Glob) Contains(s string) bool { return strings.Contains(g.src, s) }

// Match reports whether s matches the pattern.
func (g *Glob) Match(s string) bool {
	for i := range g.alts {
		if g.alts[i].match(s) {
			return !g.negate
		}
	}
	return g.negate
}

func (a *alt) match(s string) bool {
	switch a.kind {
	case kindAny:
		return true
	case kindLiteral:
		return s == a.lit
	case kindPrefix:
		return strings.HasPrefix(s, a.lit)
	case kindSuffix:
		return strings.HasSuffix(s, a.lit)
	case kindContains:
		return strings.Contains(s, a.lit)
	}
	if len(s) < len(a.prefix)+len(a.suffix) ||
		!strings.HasPrefix(s, a.prefix) || !strings.HasSuffix(s, a.suffix) {
		return false
	}
	return matchTokens(a.toks, s[len(a.prefix):len(s)-len(a.suffix)])
}

// matchTokens is the classic linear-backtracking wildcard match: on a
// mismatch it resumes after the last star, consuming one more character.
func matchTokens(toks []token, s string) bool {
	ti, si := 0, 0
	starT, starS := -1, 0
	for {
		if ti < len(toks) {
			t := &toks[ti]
			switch t.kind {
			case tokStar:
				starT, starS = ti, si
				ti++
				continue
			case tokLit:
				if strings.HasPrefix(s[si:], t.lit) {
					si += len(t.lit)
					ti++
					continue
				}
			case tokOne:
				if si < len(s) {
					_, n := utf8.DecodeRuneInString(s[si:])
					si += n
					ti++
					continue
				}
			case tokClass:
				if si < len(s) {
					r, n := utf8.DecodeRuneInString(s[si:])
					if t.cls.match(r) {
						si += n
						ti++
						continue
					}
				}
			}
		} else if si == len(s) {
			return true
		}
		if starT < 0 || starS >= len(s) {
			return false
		}
		_, n := utf8.DecodeRuneInString(s[starS:])
		starS += n
		ti, si = starT+1, starS
	}
}

func checkExtglob(p string) error {
	if strings.IndexByte(p, '(') < 0 {
		return nil // every extglob opens a group; most patterns have none
	}
	for i := 0; i+1 < len(p); i++ {
		if p[i] == '\\' {
			i++
			continue
		}
		if p[i+1] == '(' && strings.IndexByte("@!+*?", p[i]) >= 0 {
			return fmt.Errorf("extglob %q is not supported; use {a,b} alternatives", p[i:i+2])
		}
	}
	return nil
}

// compileAlt turns one brace-free alternative into tokens and picks the
// fastest matcher that gives the same answers.
func compileAlt(p string) (alt, error) {
	// The tokens are gathered on the stack: most patterns classify as a
	// kind that keeps none, and classify copies those it keeps.
	var buf [8]token
	toks := buf[:0]
	// A literal run is a substring of p unless it has an escape; then it
	// is built in lit.
	var lit strings.Builder
	start, escaped := 0, false
	flush := func(end int) {
		switch {
		case escaped:
			toks = append(toks, token{kind: tokLit, lit: lit.String()})
			lit.Reset()
		case end > start:
			toks = append(toks, token{kind: tokLit, lit: p[start:end]})
		}
		escaped = false
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch c {
		case '\\':
			if !escaped {
				escaped = true
				lit.WriteString(p[start:i])
			}
			if i+1 < len(p) {
				i++
				lit.WriteByte(p[i])
			} else {
				lit.WriteByte(c)
			}
		case '*':
			flush(i)
			if len(toks) == 0 || toks[len(toks)-1].kind != tokStar {
				toks = append(toks, token{kind: tokStar})
			}
			start = i + 1
		case '?':
			flush(i)
			toks = append(toks, token{kind: tokOne})
			start = i + 1
		case '[':
			cls, n, ok := parseClass(p[i:])
			if !ok {
				// bash reads an unclosed '[' as a literal; in a rule it is
				// more likely a mistake, and one that silently matches
				// only the literal text. Say so.
				return alt{}, fmt.Errorf("unclosed '[': close the class, or write \\[ for a literal bracket")
			}
			flush(i)
			toks = append(toks, token{kind: tokClass, cls: cls})
			i += n - 1
			start = i + 1
		default:
			if escaped {
				lit.WriteByte(c)
			}
		}
	}
	flush(len(p))
	return classify(toks), nil
}

// classify picks the matcher for toks; the alternative it returns keeps a
// copy of the tokens it needs, never toks itself.
func classify(toks []token) alt {
	a := alt{kind: kindGeneral}
	isStar := func(i int) bool { return toks[i].kind == tokStar }
	isLit := func(i int) bool { return toks[i].kind == tokLit }
	switch {
	case len(toks) == 0:
		return alt{kind: kindLiteral}
	case len(toks) == 1 && isStar(0):
		return alt{kind: kindAny}
	case len(toks) == 1 && isLit(0):
		return alt{kind: kindLiteral, lit: toks[0].lit}
	case len(toks) == 2 && isLit(0) && isStar(1):
		return alt{kind: kindPrefix, lit: toks[0].lit}
	case len(toks) == 2 && isStar(0) && isLit(1):
		return alt{kind: kindSuffix, lit: toks[1].lit}
	case len(toks) == 3 && isStar(0) && isLit(1) && isStar(2):
		return alt{kind: kindContains, lit: toks[1].lit}
	}
	// Peel literal ends into prefix/suffix checks so most mismatches are
	// rejected before the token loop runs.
	lo, hi := 0, len(toks)
	if isLit(0) {
		a.prefix = toks[0].lit
		lo++
	}
	if hi > lo && isLit(hi-1) {
		a.suffix = toks[hi-1].lit
		hi--
	}
	a.toks = append(make([]token, 0, hi-lo), toks[lo:hi]...)
	return a
}

// LiteralPrefix returns the text every string the pattern matches starts
// with: the longest literal prefix common to its alternatives. Indexes use
// it to skip patterns that cannot match.
func (g *Glob) LiteralPrefix() string {
	if g.negate || len(g.alts) == 0 {
		return ""
	}
	prefix := g.alts[0].literalPrefix()
	for i := 1; i < len(g.alts) && prefix != ""; i++ {
		p := g.alts[i].literalPrefix()
		n := 0
		for n < len(prefix) && n < len(p) && prefix[n] == p[n] {
			n++
		}
		prefix = prefix[:n]
	}
	return prefix
}

func (a *alt) literalPrefix() string {
	switch a.kind {
	case kindLiteral, kindPrefix:
		return a.lit
	case kindGeneral:
		return a.prefix
	}
	return ""
}
