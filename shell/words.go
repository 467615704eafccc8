package shell

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// word is one shell word after quote removal.
type word struct {
	text   string // quote-removed; expansions keep their source form
	static bool   // no parameter, command or arithmetic expansion
	glob   bool   // an unquoted glob metacharacter (*, ?, [, extglob)
	tilde  bool   // starts with an unquoted ~
	fetch  bool   // a substitution in it runs a remote fetcher
	// src is the source form of a word read with the caller's
	// environment (resolveWord), whose defaults ($XDG_*) stay
	// alternatives deny rules see; "" for the others.
	src   string
	names bool // a find name pattern, whose '*' matches dot-files
	// token is a word xargs hands its command from a pipe that prints
	// words never starting with "-" (stdin.tokens): an operand known
	// only when it runs, never an option.
	token bool
	// substs is set when the word holds a command substitution, and
	// expands when it holds any other expansion (a parameter, arithmetic,
	// a process substitution): a word with substs alone is literal text
	// and what the substituted commands print (substOnly).
	substs, expands bool
}

// substOnly reports whether the word's only expansions are command
// substitutions ("$(date +%F)", "Branch: $(git branch --show-current)"):
// its value is what those commands print, and they are subjects of their
// own.
func (w word) substOnly() bool { return w.substs && !w.expands }

// maxBraceWords caps how many words brace expansion may produce for one
// command; beyond it the words keep their source form and the command is
// opaque.
const maxBraceWords = 1024

// litWord makes a static word from a plain string (a word of a nested
// command line that was split without the parser).
func litWord(s string) word { return word{text: s, static: true} }

// srcOf returns the source text of node n within src, or "" when the
// positions fall outside it.
func srcOf(src string, n syntax.Node) string {
	p, e := n.Pos(), n.End()
	if !p.IsValid() || !e.IsValid() {
		return ""
	}
	s, t := int(p.Offset()), int(e.Offset())
	if s < 0 || t > len(src) || s > t {
		return ""
	}
	return src[s:t]
}

// render quote-removes x without walking its substitutions.
func render(src string, x *syntax.Word) word {
	if len(x.Parts) == 1 {
		if l, ok := x.Parts[0].(*syntax.Lit); ok && strings.IndexByte(l.Value, '\\') < 0 {
			return word{
				text:   l.Value,
				static: true,
				glob:   globMeta(l.Value),
				tilde:  strings.HasPrefix(l.Value, "~"),
			}
		}
	}
	var b strings.Builder
	w := word{static: true}
	litGlob := false
	for i, p := range x.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if i == 0 && strings.HasPrefix(p.Value, "~") {
				w.tilde = true
			}
			if unquoteLit(&b, p.Value) {
				litGlob = true
			}
		default:
			renderPart(&b, &w, src, p)
		}
	}
	w.text = b.String()
	// An unmatched "[" is matched as itself ("[ -f x ]"); a "]" anywhere
	// in the word, quoted or not, keeps it a glob.
	if litGlob && strings.ContainsAny(w.text, "*?]") {
		w.glob = true
	}
	return w
}

// globMeta reports whether an unquoted literal is a glob pattern: a "*", a
// "?" or a "[" with a "]" after it (an unmatched "[" is matched as itself).
func globMeta(s string) bool {
	if strings.ContainsAny(s, "*?") {
		return true
	}
	i := strings.IndexByte(s, '[')
	return i >= 0 && strings.IndexByte(s[i+1:], ']') >= 0
}

// renderPart renders a word part other than an unquoted literal.
func renderPart(b *strings.Builder, w *word, src string, p syntax.WordPart) {
	switch p := p.(type) {
	case *syntax.Lit:
		b.WriteString(p.Value)
	case *syntax.SglQuoted:
		if p.Dollar {
			ansiC(b, p.Value)
		} else {
			b.WriteString(p.Value)
		}
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			if l, ok := q.(*syntax.Lit); ok {
				unquoteDbl(b, l.Value, true)
				continue
			}
			if cs, ok := q.(*syntax.CmdSubst); ok {
				if t, ok := catHeredoc(src, cs); ok {
					b.WriteString(t)
					continue
				}
			}
			renderPart(b, w, src, q)
		}
	case *syntax.ExtGlob:
		w.glob = true
		b.WriteString(srcOf(src, p))
	case *syntax.BraceExp:
		// Only left over when expansion was capped.
		w.static, w.expands = false, true
		b.WriteByte('{')
		for i, e := range p.Elems {
			if i > 0 {
				if p.Sequence {
					b.WriteString("..")
				} else {
					b.WriteByte(',')
				}
			}
			ew := render(src, e)
			b.WriteString(ew.text)
		}
		b.WriteByte('}')
	case *syntax.CmdSubst:
		w.static, w.substs = false, true
		b.WriteString(srcOf(src, p))
	default: // ParamExp, ArithmExp, ProcSubst
		w.static, w.expands = false, true
		b.WriteString(srcOf(src, p))
	}
}

// unquoteLit writes an unquoted literal with its backslashes removed and
// reports whether it holds an unescaped glob metacharacter.
func unquoteLit(b *strings.Builder, s string) (glob bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\':
			if i+1 < len(s) {
				i++
				if s[i] != '\n' {
					b.WriteByte(s[i])
				}
			}
			continue
		case '*', '?', '[':
			glob = true
		}
		b.WriteByte(c)
	}
	return glob
}

// unquoteDbl writes a literal from inside double quotes (or an unquoted
// here-document when dq is false) with its escapes removed.
func unquoteDbl(b *strings.Builder, s string, dq bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			switch n := s[i+1]; n {
			case '$', '`', '\\':
				b.WriteByte(n)
				i++
				continue
			case '"':
				if dq {
					b.WriteByte(n)
					i++
					continue
				}
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(c)
	}
}

// ansiC decodes the body of a $'…' string as bash does.
func ansiC(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch c = s[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '?':
			b.WriteByte(c)
		case 'c':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i] & 0x1f)
			} else {
				b.WriteString("\\c")
			}
		case 'x', 'u', 'U':
			maxDigits := 2
			switch c {
			case 'u':
				maxDigits = 4
			case 'U':
				maxDigits = 8
			}
			j := i + 1
			for j < len(s) && j-i-1 < maxDigits && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				b.WriteByte('\\')
				b.WriteByte(c)
				continue
			}
			n, _ := strconv.ParseUint(s[i+1:j], 16, 32)
			if c == 'x' {
				b.WriteByte(byte(n))
			} else if n <= utf8.MaxRune {
				b.WriteRune(rune(n))
			}
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 32)
			b.WriteByte(byte(n))
			i = j - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// hasBraces reports whether x has an unquoted literal with a brace.
func hasBraces(x *syntax.Word) bool {
	for _, p := range x.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.IndexByte(l.Value, '{') >= 0 {
			return true
		}
	}
	return false
}

// expandHome expands a leading ~ or $HOME / ${HOME} in a path with home.
// It reports whether the result is a known, static path prefix.
func expandHome(p, home string) (string, bool) {
	if home == "" {
		return p, false
	}
	for _, pre := range [...]string{"~", "$HOME", "${HOME}"} {
		if p == pre {
			return home, true
		}
		if strings.HasPrefix(p, pre+"/") {
			return home + p[len(pre):], true
		}
	}
	// ~NAME is NAME's home: /root for root, else where homes are kept
	// (the classes know /home/, /Users/ and /var/home/ alike).
	if name, rest, _ := strings.Cut(p, "/"); len(name) > 1 && name[0] == '~' && userName(name[1:]) {
		dir := "/home/" + name[1:]
		if name == "~root" {
			dir = "/root"
		}
		if rest == "" && !strings.Contains(p, "/") {
			return dir, true
		}
		return dir + "/" + rest, true
	}
	return p, false
}

// userName reports whether s is spelled as a user name may be (what ~NAME
// expands): a letter or underscore, then letters, digits, '_', '-', '.'.
func userName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case i > 0 && (c == '-' || c == '.' || '0' <= c && c <= '9'):
		default:
			return false
		}
	}
	return s != ""
}

// catHeredoc returns the output of a command substitution that only
// prints a here-document with no expansions, "$(cat <<'EOF' … EOF)" (how
// agents write a commit message): its text is known before the command
// runs, trailing newlines removed as bash removes them. Anything else
// (another command, an option, a second redirection, an expansion in the
// body, a tab-stripping <<-) is not.
func catHeredoc(src string, cs *syntax.CmdSubst) (string, bool) {
	if len(cs.Stmts) != 1 {
		return "", false
	}
	st := cs.Stmts[0]
	if st.Negated || st.Background || st.Coprocess || len(st.Redirs) != 1 {
		return "", false
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) != 0 || len(call.Args) != 1 || len(call.Args[0].Parts) != 1 {
		return "", false
	}
	if l, ok := call.Args[0].Parts[0].(*syntax.Lit); !ok || l.Value != "cat" {
		return "", false
	}
	r := st.Redirs[0]
	if r.Op != syntax.Hdoc || r.N != nil || r.Hdoc == nil {
		return "", false
	}
	t, static := heredocText(src, r)
	if !static {
		return "", false
	}
	return strings.TrimRight(t, "\n"), true
}
