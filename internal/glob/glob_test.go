package glob

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

var matchCases = []struct {
	pattern string
	yes     []string
	no      []string
}{
	{"*", []string{"", "a", ".env", "a/b/c", "git push --force"}, nil},
	{"*.env", []string{".env", "a.env", "config/.env", "/abs/dir/.env"}, []string{".env.example", "env", ".envx"}},
	{"*.env.*", []string{".env.local", "a/.env.production"}, []string{".env", "x.env"}},
	{"*.env.example", []string{".env.example", "a/b/.env.example"}, []string{".env"}},
	{"*credentials*", []string{"credentials", "aws/credentials.json", "/home/u/.aws/credentials"}, []string{"cred"}},
	{"git *", []string{"git push", "git push --force origin main", "git "}, []string{"git", "gitk", "lsof"}},
	{"ls *", []string{"ls -la"}, []string{"lsof", "ls"}},
	{"src/*.go", []string{"src/a.go", "src/x/y.go"}, []string{"src/a.goo", "a.go"}},
	{"?.txt", []string{"a.txt", "é.txt"}, []string{"ab.txt", ".txt"}},
	{"[ab]c", []string{"ac", "bc"}, []string{"cc", "abc"}},
	{"[!ab]c", []string{"cc", "xc"}, []string{"ac", "bc"}},
	{"[^ab]c", []string{"cc"}, []string{"ac"}},
	{"[a-c]x", []string{"ax", "bx", "cx"}, []string{"dx"}},
	{"[[:digit:]]*", []string{"1", "9abc"}, []string{"a1"}},
	{"[]]", []string{"]"}, []string{"["}},
	{`\[abc`, []string{"[abc"}, []string{"a"}},
	{"*.{js,ts}", []string{"a.js", "b/c.ts"}, []string{"a.go", "a.{js,ts}"}},
	{"{a,b{c,d}}x", []string{"ax", "bcx", "bdx"}, []string{"bx"}},
	{"{abc}", []string{"{abc}"}, []string{"abc"}},
	{`\*`, []string{"*"}, []string{"a"}},
	{`a\?b`, []string{"a?b"}, []string{"axb"}},
	{"!*.md", []string{"a.go", ""}, []string{"README.md"}},
	{"a*b*c", []string{"abc", "aXbYc", "abbc", "a/b/c"}, []string{"acb", "ab"}},
	{"*a*b", []string{"ab", "xaxb", "aab"}, []string{"ba", "abx"}},
	{"npm run build", []string{"npm run build"}, []string{"npm run build:prod"}},
	{"/home/u/*", []string{"/home/u/x", "/home/u/.ssh/id"}, []string{"/home/v/x"}},
	{"**/*.env", []string{"a/.env", "a/b/.env"}, []string{".env"}},
}

func TestMatch(t *testing.T) {
	t.Parallel()
	for _, tc := range matchCases {
		g, err := Compile(tc.pattern)
		if err != nil {
			t.Fatalf("Compile(%q): %v", tc.pattern, err)
		}
		for _, s := range tc.yes {
			if !g.Match(s) {
				t.Errorf("%q should match %q", tc.pattern, s)
			}
		}
		for _, s := range tc.no {
			if g.Match(s) {
				t.Errorf("%q should not match %q", tc.pattern, s)
			}
		}
	}
}

func TestCompileErrors(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"@(a|b)", "x+(y)", "!(a)", "*(a)", "?(a)", strings.Repeat("{a,b}", 12)} {
		if _, err := Compile(p); err == nil {
			t.Errorf("Compile(%q) succeeded, want an error", p)
		} else if !strings.Contains(err.Error(), p[:1]) {
			t.Errorf("Compile(%q) error %q does not name the pattern", p, err)
		}
	}
}

func TestQuoteMeta(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"cargo ", "a*b", "x{1,2}", `back\slash`, "!bang", "[x]", "a?"} {
		g := MustCompile(QuoteMeta(s))
		if !g.Match(s) {
			t.Errorf("QuoteMeta(%q)=%q does not match itself", s, QuoteMeta(s))
		}
		if lit, ok := g.Literal(); !ok || lit != s {
			t.Errorf("QuoteMeta(%q) is not literal: %q %v", s, lit, ok)
		}
	}
}

func TestMatchDoesNotAllocate(t *testing.T) {
	g := MustCompile("/srv/*/logs/*.{log,txt}")
	allocs := testing.AllocsPerRun(100, func() { g.Match("/srv/app/logs/today.log") })
	if allocs != 0 {
		t.Fatalf("Match allocates %v times", allocs)
	}
}

// reference translates a brace-free, negation-free pattern into a regexp
// with the same semantics, as an oracle for the fuzzer.
func reference(p string) (*regexp.Regexp, bool) {
	var b strings.Builder
	b.WriteString(`^(?s:`)
	for _, r := range p {
		switch r {
		case '*':
			b.WriteString(`.*`)
		case '?':
			b.WriteString(`.`)
		case '[', ']', '{', '}', '\\', '!':
			return nil, false
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString(`)$`)
	return regexp.MustCompile(b.String()), true
}

func FuzzMatch(f *testing.F) {
	for _, tc := range matchCases {
		for _, s := range append(tc.yes, tc.no...) {
			f.Add(tc.pattern, s)
		}
	}
	f.Fuzz(func(t *testing.T, pattern, s string) {
		g, err := Compile(pattern)
		if err != nil {
			return
		}
		got := g.Match(s) // must not panic
		if !utf8.ValidString(pattern) || !utf8.ValidString(s) {
			return // the regexp oracle reads invalid bytes differently
		}
		if re, ok := reference(pattern); ok && re.MatchString(s) != got {
			t.Fatalf("Match(%q, %q) = %v, reference says %v", pattern, s, got, !got)
		}
	})
}

func BenchmarkMatch(b *testing.B) {
	g := MustCompile("/srv/*/logs/*.{log,txt}")
	b.ReportAllocs()
	for b.Loop() {
		g.Match("/srv/app/logs/today.txt")
	}
}

func TestLiteralPrefix(t *testing.T) {
	t.Parallel()
	for pattern, want := range map[string]string{
		"*": "", "abc": "abc", "abc*": "abc", "*abc": "", "*a*": "", "/srv/*/x.go": "/srv/",
		"/srv/app{1,2}/*": "/srv/app", "{a,b}": "", "!abc": "", `a\*b*`: "a*b", "a?c": "a",
	} {
		g := MustCompile(pattern)
		got := g.LiteralPrefix()
		if got != want {
			t.Errorf("LiteralPrefix(%q) = %q, want %q", pattern, got, want)
		}
	}
}

// A bracket that opens no class is refused, with a hint; escaped, it is
// a literal.
func TestUnclosedBracket(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"[", "a[b", "x[!", "[ -f *", "{a,[}"} {
		if _, err := Compile(p); err == nil || !strings.Contains(err.Error(), `write \[`) {
			t.Errorf("Compile(%q): %v", p, err)
		}
	}
	for _, p := range []string{`\[`, `\[ -f *`, "[[]", "[]]"} {
		if _, err := Compile(p); err != nil {
			t.Errorf("Compile(%q): %v", p, err)
		}
	}
}

// A pattern without braces is one allocation, two when it needs the token
// loop: every rule is compiled on each hook call.
func TestCompileAllocs(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		allocs  float64
	}{
		{"*", 1}, {"*.env", 1}, {"git push *", 1}, {"*credentials*", 1}, {"a?c", 2},
		{"*/v1/approvals/*/approve*", 2},
	} {
		got := testing.AllocsPerRun(20, func() { MustCompile(tc.pattern) })
		if got != tc.allocs {
			t.Errorf("Compile(%q): %v allocations, want %v", tc.pattern, got, tc.allocs)
		}
	}
}
