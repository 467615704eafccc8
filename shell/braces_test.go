package shell

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

var braceWords = []string{
	"{a,b}", "x{a,b}y", "{a,b}{c,d}", "{a,{b,c}d}e", "{1..5}", "{05..10..2}", "{e..a}",
	"{-3..3..2}", "{a..e..2}", `{"a b",'c'}$x`, "~{a,b}", "{a,}", "{,a}b", "{a,b,c}{1..3}{x,y}",
	"{{a,b},{c,d}}", "pre{a,b{c,{d,e}}f}post", "{1..3}{", "{a,b", "a,b}", "{a}", "{9223372036854775806..9223372036854775807}",
	"plain", "{a,{b,c}}d", "pre{1..5}post", "{5..1}", "{01..10}", "{-05..3..2}", "{1..10..-3}", "{1..3..0}",
	"{e..a..2}", "{a..5}", `"$x"{a,"b c"}$(echo {d,e})`, "{,}", "{1..2}{a..b}{x,y,z}", "~/{src,test}/*.go",
	"{1..100}{1..100}{1..100}", // past the limit
}

// TestBracesMatchExpand checks the linear brace expander against mvdan.cc/sh's.
func TestBracesMatchExpand(t *testing.T) {
	t.Parallel()
	for _, s := range braceWords {
		checkBraces(t, s)
	}
}

func checkBraces(t *testing.T, s string) {
	t.Helper()
	f, err := parse("e " + s)
	if err != nil || len(f.Stmts) != 1 {
		return
	}
	x, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(x.Args) != 2 {
		return
	}
	src := "e " + s
	w := walker{a: testAnalyzer, res: &Analysis{}, left: testAnalyzer.budget}
	got, _, ok := w.expandBraces(src, x.Args[1], nil, maxBraceWords)
	cp := &syntax.Word{Parts: append([]syntax.WordPart(nil), x.Args[1].Parts...)}
	var want []string
	if syntax.SplitBraces(cp) {
		for ew, err := range expand.BracesSeq(nil, cp) {
			if err != nil || len(want) >= maxBraceWords {
				return // beyond the cap: the word stays whole
			}
			want = append(want, render(src, ew).text)
		}
	} else {
		want = []string{render(src, x.Args[1]).text}
	}
	if !ok {
		t.Fatalf("%q: expansion stopped", s)
	}
	texts := make([]string, len(got))
	for i, wd := range got {
		texts[i] = wd.text
	}
	if strings.Join(texts, "\x00") != strings.Join(want, "\x00") {
		t.Errorf("%q: got %q, want %q", s, texts, want)
	}
}

func FuzzBraces(f *testing.F) {
	for _, s := range braceWords {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 64 {
			return
		}
		checkBraces(t, s)
	})
}
