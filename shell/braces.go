package shell

import (
	"fmt"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// expandBraces renders x after brace expansion, appending to out. It
// reports false when the expansion exceeded budget, the command's share
// of words (the word is then appended once, in its source form), or the
// call's Budget. It returns what is left of budget.
func (w *walker) expandBraces(src string, x *syntax.Word, out []word, budget int) ([]word, int, bool) {
	if hasBraces(x) {
		cp := &syntax.Word{Parts: append([]syntax.WordPart(nil), x.Parts...)}
		if syntax.SplitBraces(cp) {
			start := len(out)
			g := braceGen{w: w, src: src, out: out, budget: budget}
			if g.run([][]syntax.WordPart{cp.Parts}) {
				return g.out, g.budget, true
			}
			return append(g.out[:start], word{text: srcOf(src, x), glob: true}), g.budget, false
		}
	}
	wd := render(src, x)
	if !wd.static {
		if res, ok := w.loopWord(src, x); ok {
			wd = res
		} else if res, ok := w.resolveWord(src, x); ok {
			wd = res
		} else if res, ok := w.homeWord(src, x); ok {
			wd = res
		}
	}
	w.spendWords(1, len(wd.text))
	return append(out, wd), budget - 1, true
}

// braceGen expands braces as bash does (left to right, nested elements in
// place), rendering each word as it is complete. It does what
// expand.BracesSeq does (TestBracesMatchExpand checks it word for word),
// for two reasons: expand.BracesSeq copies the parts after a brace once
// per brace level for every word (quadratic in a word of many groups),
// where braceGen builds each word once in a shared buffer and charges the
// walker a step per part; and the shell package must not link
// mvdan.cc/sh/v3/expand, whose os/user import makes every binary that
// decides calls (the per-call hook above all) a cgo binary with a dynamic
// loader to start.
type braceGen struct {
	w      *walker
	src    string
	buf    []syntax.WordPart // the parts of the word being built
	out    []word
	budget int // words left to the command
}

// run processes the part sequences on stack (the top is last) and yields
// every word they expand to. It reports false when a budget stopped it.
func (g *braceGen) run(stack [][]syntax.WordPart) bool {
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		if len(top) == 0 {
			stack = stack[:len(stack)-1]
			continue
		}
		if !g.w.step(1) {
			return false
		}
		p := top[0]
		stack[len(stack)-1] = top[1:]
		br, ok := p.(*syntax.BraceExp)
		if !ok {
			g.buf = append(g.buf, p)
			continue
		}
		// Each alternative continues with the rest of every sequence
		// below it; the stack is copied so that each sees it whole.
		mark := len(g.buf)
		more := func(alt []syntax.WordPart) bool {
			if !g.w.step(len(stack)) {
				return false
			}
			next := make([][]syntax.WordPart, len(stack), len(stack)+1)
			copy(next, stack)
			ok := g.run(append(next, alt))
			g.buf = g.buf[:mark]
			return ok
		}
		if !br.Sequence {
			for _, e := range br.Elems {
				if !more(e.Parts) {
					return false
				}
			}
			return true
		}
		return braceSeq(br, func(v string) bool {
			return more([]syntax.WordPart{&syntax.Lit{Value: v}})
		})
	}
	if g.budget <= 0 {
		return false
	}
	g.budget--
	wd := render(g.src, &syntax.Word{Parts: g.buf})
	g.out = append(g.out, wd)
	return g.w.spendWords(1, len(wd.text))
}

// braceSeq yields the values of a sequence expression ({1..10}, {a..e},
// {01..10..3}) as expand.BracesSeq does, until yield returns false.
func braceSeq(br *syntax.BraceExp, yield func(string) bool) bool {
	fromLit, toLit := br.Elems[0].Lit(), br.Elems[1].Lit()
	chars := false
	from, err1 := strconv.ParseInt(fromLit, 10, 64)
	to, err2 := strconv.ParseInt(toLit, 10, 64)
	if err1 != nil || err2 != nil {
		if fromLit == "" || toLit == "" {
			return true
		}
		chars = true
		from, to = int64(fromLit[0]), int64(toLit[0])
	}
	width := 0
	if !chars && (leadingZeros(fromLit) || leadingZeros(toLit)) {
		width = max(len(fromLit), len(toLit))
	}
	upward := from <= to
	incr := int64(1)
	if len(br.Elems) > 2 {
		n, _ := strconv.ParseInt(br.Elems[2].Lit(), 10, 64)
		if n < 0 {
			n = -n
		}
		if n != 0 {
			incr = n
		}
	}
	if !upward {
		incr = -incr
	}
	for n := from; upward && n <= to || !upward && n >= to; n += incr {
		var v string
		switch {
		case chars:
			v = string(rune(n))
		case width > 0:
			v = fmt.Sprintf("%0*d", width, n)
		default:
			v = strconv.FormatInt(n, 10)
		}
		if !yield(v) {
			return false
		}
		if upward && n > to-incr || !upward && n < to-incr {
			return true // the next value would pass the end (or overflow)
		}
	}
	return true
}

func leadingZeros(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return len(s) > 1 && s[0] == '0'
}
