package glob

import (
	"path"
	"regexp"
	"strings"
	"testing"
)

func TestPathMayMatchCovers(t *testing.T) {
	t.Parallel()
	cases := []struct {
		rule, word   string
		may, covered bool
	}{
		// A rule '*' absorbs any expansion.
		{"*", "*.log", true, true},
		{"*", "src/**/x", true, true},
		{"*.log", "*.log", true, true},
		{"*.log", "app-*.log", true, true},
		{"*.log", "logs/*.log", true, true},
		{"*.log", "*.txt", false, false},
		{"*.log", "*", true, false},
		{"src/*", "src/*.go", true, true},
		{"src/*", "src/[ab]*.go", true, true},
		{"src/*", "sr?/x.go", true, false},
		{"$ws/*", "*", false, false},
		// Deny rules the word may reach.
		{"*.env", ".en*", true, false},
		{"*.env", "*.env", true, true},
		{"*.env", "config/*", true, false},
		{"*.env.*", "*.log", true, false}, // "a.env.b.log"
		{"*secret*", "*.log", true, false},
		{"*secret*", "src/*.go", true, false},
		{"secrets/*", "secret*/*", true, false},
		{"secrets/*", "src/*.go", false, false},
		{"secrets/*", "s?c*/x", true, false},
		{"/home/*/.ssh/*", "/home/user/.ssh/id_*", true, true},
		{"/home/*/.ssh/*", "/home/user/.ss?/id_*", true, false},
		{"/home/*/.ssh/*", "/home/user/proj/*.log", false, false},
		{"/etc/shadow", "/etc/sha*", true, false},
		{"/etc/shadow", "/etc/*/shadow", false, false},
		{"/etc/shadow", "/etc/**/shadow", false, false}, // "**/" needs the slash
		{"/etc/shadow", "/et**dow", true, false},
		// A '*' of the word never crosses '/', "**" does.
		{"a/*/b", "a*b", false, false},
		{"a/*/b", "a**b", true, false},
		{"x/y", "x[/]y", true, false},
		// Rule '?' and classes: one character.
		{"a?c", "a*c", true, false},
		{"a?c", "abc", true, true},
		{"a?c", "a[b]c", true, false},
		{"[ab]c", "ac", true, true},
		{"[ab]c", "cc", true, false}, // a class may meet, read loosely
		{"a{b,c}", "a*", true, false},
		{"{*.o,*.a}", "*.o", true, true},
		// A literal backslash stays literal.
		{`a\*`, `a*`, true, false},
		{"a*", `a\*`, true, true},
		// Negated rules.
		{"!*.md", "*.go", true, true},
		{"!*.md", "*.md", true, false},
		{"!src/*", "docs/*.md", true, true},
		// Non-ASCII is never covered.
		{"*", "é*", true, false},
	}
	for _, c := range cases {
		rule := c.rule
		if strings.HasPrefix(rule, "$ws/") {
			rule = "src/x"
		}
		g := MustCompile(rule)
		p := ParsePath(c.word)
		if got := g.MayMatch(p); got != c.may {
			t.Errorf("MustCompile(%q).MayMatch(%q) = %v, want %v", rule, c.word, got, c.may)
		}
		if got := g.Covers(p); got != c.covered {
			t.Errorf("MustCompile(%q).Covers(%q) = %v, want %v", rule, c.word, got, c.covered)
		}
	}
}

func TestAims(t *testing.T) {
	t.Parallel()
	cases := []struct {
		rule, word string
		aims       bool
	}{
		// A floating rule counts for the words that spell a third of it.
		{"*secret*", "*secret*", true},
		{"*secret*", "*ecre*", true},
		{"*secret*", "sec*", true},
		{"*secret*", "*et*", true}, // 2 of 6
		{"*secret*", "/srv/secrets/*.txt", true},
		{"*credentials*", "*cred*", true},
		{"*.env", ".e*", true},
		{"*.env", "*nv", true},
		{"*.env.*", "*.env.*", true},
		{"*.env.*", "config/*.env*", true},
		// Its benign twins: the glob may expand to such a name, but
		// nothing in it points there.
		{"*secret*", "*.log", false},
		{"*secret*", "src/*.go", false},
		{"*secret*", "*", false},
		{"*secret*", "*s*", false}, // 1 of 6
		{"*credentials*", "*.json", false},
		{"*.env", "*v", false},
		{"*.env.*", "*.log", false}, // "a.env.log": only the '.' is the word's
		// A word of hidden names aims at whatever it may meet.
		{"*secret*", ".s*", true},
		{"*.kdbx", ".b*", true},
		// What cannot meet is never aimed at.
		{"*.env", "*.go", false},
		{"*secret*", "x", false},
		// Anchored rules, rules without a literal and negations are met
		// as MayMatch meets them.
		{"/etc/shadow", "/etc/sha*", true},
		{"/etc/shadow", "/*/*", true},
		{"secrets/*", "s?c*/x", true},
		{"*", "*.go", true},
		{"!*.md", "*.go", true},
	}
	for _, c := range cases {
		g, p := MustCompile(c.rule), ParsePath(c.word)
		if got := g.AimedBy(p); got != c.aims {
			t.Errorf("MustCompile(%q).AimedBy(%q) = %v, want %v", c.rule, c.word, got, c.aims)
		}
		if c.aims && !g.MayMatch(p) {
			t.Errorf("MustCompile(%q).AimedBy(%q) without MayMatch", c.rule, c.word)
		}
	}
	// A name found anywhere floats without a leading "**/".
	names := []struct {
		name, word string
		aims       bool
	}{
		{"kubeconfig", "/proj/logs/kube*", true},
		{"kubeconfig", "/proj/logs/*", false},
		{"application_default_credentials.json", "/proj/*.json", false},
		{"application_default_credentials.json", "/proj/*_credentials.json", true},
		{".claude/**", "/proj/.c*/x", true},
		{".git/hooks/**", "/proj/.git/hook*/*", true},
		{"kubeconfig", "kube*", true},
		{"kubeconfig", "*", false},
		{".claude/**", ".c*/settings.json", true},
	}
	for _, c := range names {
		q := c.name
		if strings.HasPrefix(c.word, "/") {
			q = "**/" + q // as the sensitive table reads a name below a directory
		}
		if got := ParsePath(c.word).AimsName(ParsePath(q)); got != c.aims {
			t.Errorf("ParsePath(%q).AimsName(%q) = %v, want %v", c.word, q, got, c.aims)
		}
	}
}

func TestParsePathMeta(t *testing.T) {
	t.Parallel()
	for w, want := range map[string]bool{"a.txt": false, "*.go": true, "a?": true, "[ab]": true, "a]": false, "x[": false} {
		if got := ParsePath(w).HasMeta(); got != want {
			t.Errorf("ParsePath(%q).HasMeta() = %v, want %v", w, got, want)
		}
	}
	if ParsePath("a/*").Crosses() || !ParsePath("a/**").Crosses() || !ParsePath("[a/b]").Crosses() {
		t.Error("Crosses")
	}
}

// pathRegexp is the reference reading of a Path: what MayMatch and Covers
// must be exact or safe against.
func pathRegexp(p Path) *regexp.Regexp {
	var b strings.Builder
	b.WriteString(`^`)
	for _, s := range p.syms {
		switch s.k {
		case symLit:
			b.WriteString(regexp.QuoteMeta(string([]byte{s.b})))
		case symSegStar:
			b.WriteString(`[^/]*`)
		default:
			b.WriteString(`.*`)
		}
	}
	b.WriteString(`$`)
	return regexp.MustCompile(b.String())
}

// strs returns every string over alphabet up to length n.
func strs(alphabet string, n int) []string {
	out := []string{""}
	level := []string{""}
	for k := 0; k < n; k++ {
		var next []string
		for _, s := range level {
			for i := 0; i < len(alphabet); i++ {
				next = append(next, s+alphabet[i:i+1])
			}
		}
		out = append(out, next...)
		level = next
	}
	return out
}

// FuzzPathCompare checks MayMatch and Covers against brute force on a
// small alphabet: whenever a short string matches both the rule and the
// word's reading, MayMatch says yes; whenever Covers says yes, every short
// string of the word's reading matches the rule. It also checks that the
// reading holds what the shell (path.Match) expands the word to and the
// word itself.
func FuzzPathCompare(f *testing.F) {
	for _, s := range [][2]string{{"*.env", ".en*"}, {"a/*/b", "a**b"}, {"a?b", "a*b"}, {"[ab]*", "a[/]b"}, {"!a*", "b*"}, {"a{b,/}*", "ab?"}, {`\*a`, "*a"}} {
		f.Add(s[0], s[1])
	}
	all := strs("ab/.*", 5)
	f.Fuzz(func(t *testing.T, rule, word string) {
		if len(rule) > 10 || len(word) > 10 || !ascii(rule) || !ascii(word) {
			return // the reference reading is a regexp, which reads UTF-8
		}
		g, err := Compile(rule)
		if err != nil {
			return
		}
		p := ParsePath(word)
		re := pathRegexp(p)
		if !re.MatchString(word) {
			t.Fatalf("reading of %q does not hold the word itself", word)
		}
		may, cov := g.MayMatch(p), g.Covers(p)
		// The rule text read as a path pattern too: MayMeet and Holds.
		q := ParsePath(rule)
		reQ := pathRegexp(q)
		meets, holds := q.MayMeet(p), q.Holds(p)
		for _, s := range all {
			inP := re.MatchString(s)
			// path.Match reads a backslash as an escape; in a quote-removed word
			// a backslash was quoted, so the shell reads it literally.
			if ok, err := path.Match(word, s); err == nil && ok && !inP && !strings.Contains(word, `\`) {
				t.Fatalf("the shell expands %q to %q, which its reading lacks", word, s)
			}
			inG := g.Match(s)
			if inP && inG && !may {
				t.Fatalf("MustCompile(%q).MayMatch(%q) = false, but %q matches both", rule, word, s)
			}
			if inP && !inG && cov {
				t.Fatalf("MustCompile(%q).Covers(%q) = true, but %q is not matched", rule, word, s)
			}
			inQ := reQ.MatchString(s)
			if inP && inQ && !meets {
				t.Fatalf("ParsePath(%q).MayMeet(%q) = false, but %q matches both", rule, word, s)
			}
			if inP && !inQ && holds {
				t.Fatalf("ParsePath(%q).Holds(%q) = true, but %q is not matched", rule, word, s)
			}
		}
	})
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func TestParseShellPathHidesDots(t *testing.T) {
	t.Parallel()
	cases := []struct {
		pattern, word string
		plain, shell  bool // MayMeet with ParsePath's and ParseShellPath's reading of word
	}{
		{"**/.git", "/p/*", true, false},
		{"**/.git", "/p/?git", true, false},
		{"**/.git", "/p/[.]git", true, false},
		{"**/.git", "/p/*.git", true, false},
		{"**/.git/config", "/p/*/config", true, false},
		{"**/.git", "/p/.*", true, true}, // the dot spelled out
		{"**/.git", "/p/.g*", true, true},
		{"**/x.git", "/p/*", true, true},
		{"**/hooks", "/p/*hooks", true, true}, // '*' may match nothing
		{".env", "*", true, false},
		{"*.env", "*", true, true},
		{"**/.git/config", "/p/**/*", true, true}, // "**" may cross a hidden directory: kept
		{"/p/*", "/p/*", true, true},
		{"/p/.bashrc", "/p/*rc", true, false},
		{"/p/a.bashrc", "/p/*rc", true, true},
		{"/p/.x/y", "/p/*/y", true, false},
		{"/p/.x/y", "/p/.*/y", true, true},
		{"/p/q/.x", "/p/*/*", true, false},
		{"/p/q/.x", "/p/*/.*", true, true},
	}
	for _, c := range cases {
		q := ParsePath(c.pattern)
		if got := q.MayMeet(ParsePath(c.word)); got != c.plain {
			t.Errorf("ParsePath(%q).MayMeet(ParsePath(%q)) = %v, want %v", c.pattern, c.word, got, c.plain)
		}
		if got := q.MayMeet(ParseShellPath(c.word)); got != c.shell {
			t.Errorf("ParsePath(%q).MayMeet(ParseShellPath(%q)) = %v, want %v", c.pattern, c.word, got, c.shell)
		}
		// Aims agrees with MayMeet where it must: never yes where
		// MayMeet says no.
		if !c.shell && ParseShellPath(c.word).Aims(q) {
			t.Errorf("ParseShellPath(%q).Aims(%q) = true where the paths cannot meet", c.word, c.pattern)
		}
	}
}

// TestPathCompareDoesNotAllocate: comparing a word with a rule pattern
// allocates nothing, whether the two part at their first bytes or are
// compared to the end: a glob operand meets every file rule, so a
// command line's decision would otherwise allocate per rule.
func TestPathCompareDoesNotAllocate(t *testing.T) {
	p := ParseShellPath("/home/u/proj/build/*.o")
	for _, rule := range []string{"/home/u/.config/toolgate/**", "**/toolgate.db", "/home/u/proj/**", "**/*.{o,a}", "!**/*.c"} {
		g := MustCompile(rule)
		allocs := testing.AllocsPerRun(100, func() { g.MayMatch(p); g.Covers(p); g.AimedBy(p); g.AimedByGlob(p) })
		if allocs != 0 {
			t.Errorf("comparing %q with the word allocates %v times", rule, allocs)
		}
	}
}
