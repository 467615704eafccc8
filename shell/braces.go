package shell

import (
	"errors"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxBraceElems is where brace expansion stops with an error, as bash's
// own expansion in mvdan.cc/sh/v3/expand does (16Ki words).
const maxBraceElems = 16 << 10

// errBraceLimit is a brace expansion past maxBraceElems.
var errBraceLimit = errors.New("brace expansion would exceed " + strconv.Itoa(maxBraceElems) + " elements")

// braceWords expands the brace expressions (after syntax.SplitBraces) of
// word lazily, as bash does: {a,b} yields each element, {1..9..2} and
// {a..e} a sequence, with zero padding when an endpoint has a leading
// zero. It yields errBraceLimit after maxBraceElems words. Yielded words
// may share parts.
//
// It does what expand.BracesSeq does (TestBraceWordsMatchExpand checks
// it word for word): the shell package does its own so that it does not
// link mvdan.cc/sh/v3/expand, whose os/user import makes every binary
// that decides calls (the per-call hook above all) a cgo binary with a
// dynamic loader to start.
func braceWords(word *syntax.Word) iter.Seq2[*syntax.Word, error] {
	return func(yield func(*syntax.Word, error) bool) {
		n := 0
		braceRec(word.Parts, func(parts []syntax.WordPart) bool {
			if n++; n > maxBraceElems {
				yield(nil, errBraceLimit)
				return false
			}
			return yield(&syntax.Word{Parts: parts}, nil)
		})
	}
}

// braceRec yields every expansion of parts; it returns false once yield
// asked to stop.
func braceRec(parts []syntax.WordPart, yield func([]syntax.WordPart) bool) bool {
	i := slices.IndexFunc(parts, func(p syntax.WordPart) bool {
		_, ok := p.(*syntax.BraceExp)
		return ok
	})
	if i < 0 {
		return yield(parts)
	}
	head, br, tail := parts[:i], parts[i].(*syntax.BraceExp), parts[i+1:]
	each := func(mid []syntax.WordPart) bool {
		return braceRec(slices.Concat(mid, tail), func(rest []syntax.WordPart) bool {
			return yield(slices.Concat(head, rest))
		})
	}
	if !br.Sequence {
		for _, e := range br.Elems {
			if !each(e.Parts) {
				return false
			}
		}
		return true
	}
	fromLit, toLit := br.Elems[0].Lit(), br.Elems[1].Lit()
	from, err1 := strconv.ParseInt(fromLit, 10, 64)
	to, err2 := strconv.ParseInt(toLit, 10, 64)
	chars := err1 != nil || err2 != nil
	if chars {
		from, to = int64(fromLit[0]), int64(toLit[0])
	}
	width := 0
	if !chars && (leadingZero(fromLit) || leadingZero(toLit)) {
		width = max(len(fromLit), len(toLit))
	}
	step := int64(1)
	if len(br.Elems) > 2 {
		if s, _ := strconv.ParseInt(br.Elems[2].Lit(), 10, 64); s != 0 {
			step = max(s, -s)
		}
	}
	up := from <= to
	if !up {
		step = -step
	}
	for v := from; up && v <= to || !up && v >= to; v += step {
		var lit string
		switch {
		case chars:
			lit = string(rune(v))
		case width > 0:
			lit = fmt.Sprintf("%0*d", width, v)
		default:
			lit = strconv.FormatInt(v, 10)
		}
		if !each([]syntax.WordPart{&syntax.Lit{Value: lit}}) {
			return false
		}
	}
	return true
}

// leadingZero reports whether a sequence endpoint is zero padded ("01",
// "-05").
func leadingZero(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return len(s) > 1 && s[0] == '0'
}
