package shell

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// braceCases are words whose brace expansion braceWords must render
// exactly as mvdan.cc/sh/v3/expand does.
var braceCases = []string{
	"plain",
	"{a,b}",
	"x{a,b}y",
	"{a,b}{c,d}",
	"{a,{b,c}}d",
	"pre{1..5}post",
	"{5..1}",
	"{01..10}",
	"{-05..3..2}",
	"{1..10..-3}",
	"{1..3..0}",
	"{a..e}",
	"{e..a..2}",
	"{a..5}",
	`"$x"{a,"b c"}$(echo {d,e})`,
	"{,}",
	"{a,}b",
	"{a}",
	"{1..2}{a..b}{x,y,z}",
	"~/{src,test}/*.go",
	"{1..100}{1..100}{1..100}", // past the limit: an error
}

func braceRender(t testing.TB, src string, seq func(*syntax.Word) func(func(*syntax.Word, error) bool)) []string {
	t.Helper()
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		return nil
	}
	var out []string
	for _, w := range call.Args {
		cp := &syntax.Word{Parts: append([]syntax.WordPart(nil), w.Parts...)}
		syntax.SplitBraces(cp)
		for ew, err := range seq(cp) {
			if err != nil {
				out = append(out, "error: "+err.Error())
				break
			}
			var b strings.Builder
			syntax.NewPrinter().Print(&b, ew)
			out = append(out, b.String())
		}
	}
	return out
}

func checkBraces(t testing.TB, src string) {
	want := braceRender(t, src, func(w *syntax.Word) func(func(*syntax.Word, error) bool) { return expand.BracesSeq(nil, w) })
	got := braceRender(t, src, func(w *syntax.Word) func(func(*syntax.Word, error) bool) { return braceWords(w) })
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%q: braceWords gives %d words, expand.BracesSeq %d:\n got  %.300q\n want %.300q", src, len(got), len(want), got, want)
	}
}

func TestBraceWordsMatchExpand(t *testing.T) {
	t.Parallel()
	for _, src := range braceCases {
		checkBraces(t, "echo "+src)
	}
}

func FuzzBraceWords(f *testing.F) {
	for _, src := range braceCases {
		f.Add("echo " + src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 200 {
			return
		}
		checkBraces(t, src)
	})
}
