package shell

import (
	"strings"
	"testing"
)

// fuzzSeeds are the sources of the test tables, gathered at init.
var fuzzSeeds = []string{
	"git log --oneline | grep fix | head -5",
	":(){ :|:& };:",
	"bash -c \"sh -c 'eval \\\"rm -rf /\\\"'\"",
	"cat <<EOF | bash\n$(id)\nEOF",
	"{a,b}{c,d}{e,f} $'\\x41' ${x:-$(y)} <(z) >(w) `v` &",
	"find . -exec sh -c 'xargs rm' \\; | sudo env -S 'a b' nice -n1 bash -s",
	"for ((;;)); do [[ $(a) ]] && (( b[$(c)] )); done; case x in *) coproc d;; esac",
}

func FuzzAnalyze(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	for _, bc := range benchCases {
		f.Add(bc.src)
	}
	a := New(WithHome("/home/me"), WithMaxDepth(4))
	f.Fuzz(func(t *testing.T, src string) {
		res, err := a.Analyze(src)
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Fatalf("%q: %v", src, err) // a recovered panic
			}
			if res != nil {
				t.Fatalf("result with error")
			}
			return
		}
		for _, c := range res.Commands {
			if c.Name != "" && strings.ContainsRune(c.Name, '/') {
				t.Fatalf("name %q has a slash", c.Name)
			}
			for _, fl := range c.ExecFlags {
				if !strings.Contains(c.Text, fl) {
					t.Fatalf("exec flag %q not in text %q", fl, c.Text)
				}
			}
			a.Suggest(c)
		}
		// A command substitution outside single quotes, comments and
		// heredocs with quoted delimiters is either reported or absent from
		// the parse; when the parser saw one, the risk must be there. "$$("
		// is the shell's PID and a parenthesis.
		if strings.Contains(strings.ReplaceAll(src, "$$", ""), "$(") && !strings.ContainsAny(src, "'#\\<") && !strings.Contains(src, "$((") {
			if !res.Unprefixable() {
				t.Fatalf("%q: $( without an unprefixable risk", src)
			}
		}
		if strings.HasSuffix(strings.TrimSpace(src), "&") && !strings.HasSuffix(strings.TrimSpace(src), "&&") &&
			!strings.ContainsAny(src, "'\"#\\<>|`$") && len(res.Commands) > 0 {
			if !res.Unprefixable() {
				t.Fatalf("%q: trailing & without a background risk", src)
			}
		}
	})
}
