package policy_test

import (
	"path"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
)

// globUniverse are files a glob operand may expand to: protected ones
// (by the rules below, the sensitive table, the critical write paths) and
// plain ones. A file protected only by a pattern that floats ("*secret*",
// the sensitive table's names found anywhere) has the pattern's literal
// bytes as core: only a glob that aims at it (glob.Path.Aims) must not be
// allowed, "*.yaml" may expand to config/secret.yaml and still be.
var globUniverse = []struct{ path, core string }{
	{".env", ".env"}, {"app.env.local", ""}, {"secrets/key.txt", ""}, {"config/secret.yaml", "secret"},
	{"src/main.go", ""}, {"src/util.go", ""}, {"build/a.o", ""}, {"logs/app.log", ""}, {"docs/index.md", ""},
	{".claude/settings.json", ""}, {".git/hooks/pre-commit", ""}, {".git/config", ""},
	{"kubeconfig", "kubeconfig"}, {"db.kdbx", ".kdbx"}, {"/home/user/.ssh/id_rsa", ""},
	{"/home/user/.ssh/id_rsa.pub", ""}, {"/home/user/.bashrc", ""}, {"/home/user/.aws/credentials", ""},
	{"/etc/shadow", ""}, {"/etc/hosts", ""}, {"/home/user/.config/systemd/user/x.service", ""},
	{"/tmp/x.log", ""}, {"/home/user/notes.txt", ""}, {"dist/app.js", ""},
}

// patternCheck decides commands against rules with read and write
// denies and asks, for FuzzPatternSubject and TestPatternSubjectAll.
type patternCheck struct {
	e *policy.Engine
}

func newPatternCheck(tb testing.TB) *patternCheck {
	doc, err := policy.ParseWorkspace("rules.jsonc", []byte(`{
		"*": "ask", "shell_exec": "allow",
		"Read": {"*": "allow", "*.env": "deny", "secrets/*": "deny", "*secret*": "ask"},
		"Write": {"*": "allow", "*.env": "deny", "dist/*": "ask", "$CREDENTIALS": "deny"}
	}`))
	if err != nil {
		tb.Fatal(err)
	}
	e, err := policy.New([]*policy.Document{doc}, policy.WithHome("/home/user"))
	if err != nil {
		tb.Fatal(err)
	}
	return &patternCheck{e: e}
}

func (pc *patternCheck) decide(cmd string) toolgate.Action {
	var d toolgate.Decision
	pc.e.Decide(&toolgate.Call{Tool: "Bash", Cwd: "/home/user/proj", Args: map[string]any{"command": cmd}}, policy.Env{}, &d)
	return d.Action
}

var patternVerbs = []string{"cat ", "rm -f ", "cp x ", "wc -l ", "chmod +x "}

// globOf turns p[i:j] into a wildcard ("*", or "?" for one byte unless
// two), or with two into "*C*" around the byte after it, removing the
// byte after C too; "" when the span is empty or holds a '/' or '~'. kept
// reports whether the byte of p at k is still written in the glob.
func globOf(p string, i, j int, two bool) (g string, kept func(k int) bool) {
	if j > len(p) {
		j = len(p)
	}
	if j <= i || strings.ContainsAny(p[i:j], "/~") {
		return "", nil
	}
	star := "*"
	if j-i == 1 && !two {
		star = "?"
	}
	g = p[:i] + star + p[j:]
	kept = func(k int) bool { return k < i || k >= j }
	if two && j < len(p) && p[j] != '/' {
		g = p[:i] + "*" + p[j:j+1] + "*" + p[min(j+2, len(p)):]
		kept = func(k int) bool { return k < i || k == j || k >= j+2 }
	}
	return g, kept
}

// check reports whether v+g is allowed, and fails when it is although a
// file of the universe it may expand to is not: any such file, when the
// glob's last element is hidden (".e*") or the file is protected by an
// anchored pattern; src, the file the glob was made from, when the glob
// keeps a third of its core.
func (pc *patternCheck) check(t *testing.T, v, g string, src int, kept func(int) bool) bool {
	if pc.decide(v+g) != toolgate.Allow {
		return false
	}
	hidden := strings.HasPrefix(path.Base(g), ".")
	for k, c := range globUniverse {
		if !shellMatch(g, c.path) {
			continue
		}
		if c.core != "" && !hidden {
			if k != src {
				continue
			}
			at, n := strings.LastIndex(c.path, c.core), 0
			for b := at; b < at+len(c.core); b++ {
				if kept(b) {
					n++
				}
			}
			if 3*n < len(c.core) {
				continue
			}
		}
		if got := pc.decide(v + c.path); got != toolgate.Allow {
			t.Fatalf("%q is allowed, but it may expand to %q, which is %s", v+g, c.path, got)
		}
	}
	return true
}

// shellMatch reports whether the shell expands glob g to the name c:
// path.Match, except that a name's leading '.' must be matched by a '.'
// (bash without dotglob).
func shellMatch(g, c string) bool {
	if m, err := path.Match(g, c); err != nil || !m {
		return false
	}
	ge, ce := strings.Split(g, "/"), strings.Split(c, "/")
	for i := range ce {
		if strings.HasPrefix(ce[i], ".") && !strings.HasPrefix(ge[i], ".") {
			return false
		}
	}
	return true
}

// TestPatternSubjectAll runs FuzzPatternSubject's check over every glob
// made from the universe with one wildcard of up to three bytes.
func TestPatternSubjectAll(t *testing.T) {
	t.Parallel()
	pc := newPatternCheck(t)
	allowed, asked := 0, 0
	for src, u := range globUniverse {
		p := u.path
		for i := 0; i < len(p); i++ {
			for w := 1; w <= 3; w++ {
				for _, two := range []bool{false, true} {
					g, kept := globOf(p, i, i+w, two)
					if g == "" {
						continue
					}
					for _, v := range patternVerbs {
						if pc.check(t, v, g, src, kept) {
							allowed++
						} else {
							asked++
						}
					}
				}
			}
		}
	}
	// The check means something only if globs are allowed at all.
	if allowed < 100 || asked < 100 {
		t.Fatalf("%d globs allowed, %d not: the universe no longer tests both sides", allowed, asked)
	}
	t.Logf("%d glob commands allowed (each checked against its expansions), %d not", allowed, asked)
}

// FuzzPatternSubject checks the promise of pattern subjects: a glob
// operand is allowed only if every file it may expand to (from a small
// universe, as bash expands it) and aims at (check) is allowed when named
// literally by the same command.
func FuzzPatternSubject(f *testing.F) {
	for i := range globUniverse {
		f.Add(uint8(i), uint8(0), uint8(1), uint8(2), false)
		f.Add(uint8(i), uint8(3), uint8(2), uint8(3), true)
	}
	pc := newPatternCheck(f)
	f.Fuzz(func(t *testing.T, which, at, width, verb uint8, two bool) {
		src := int(which) % len(globUniverse)
		p := globUniverse[src].path
		i := int(at) % len(p)
		g, kept := globOf(p, i, i+int(width)%6, two)
		if g == "" {
			return
		}
		pc.check(t, patternVerbs[int(verb)%len(patternVerbs)], g, src, kept)
	})
}
