package glob

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// bytewiseExpand is expandBraces as first written, appending the pattern
// byte by byte: the oracle for the run-at-once version.
func bytewiseExpand(p string) ([]string, error) {
	out := []string{""}
	add := func(s string) {
		for i := range out {
			out[i] += s
		}
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '\\' && i+1 < len(p) {
			add(p[i : i+2])
			i++
			continue
		}
		if c == '[' {
			if _, n, ok := parseClass(p[i:]); ok {
				add(p[i : i+n])
				i += n - 1
				continue
			}
		}
		if c != '{' {
			add(p[i : i+1])
			continue
		}
		end, parts := splitGroup(p[i:])
		if end < 0 || len(parts) < 2 {
			add("{")
			continue
		}
		var next []string
		for _, part := range parts {
			sub, err := bytewiseExpand(part)
			if err != nil {
				return nil, err
			}
			for _, prefix := range out {
				for _, s := range sub {
					next = append(next, prefix+s)
				}
			}
			if len(next) > maxAlternatives {
				return nil, fmt.Errorf("too many alternatives")
			}
		}
		out = next
		i += end
	}
	return out, nil
}

// bytewiseTokens is compileAlt's tokenising as first written, a builder fed
// byte by byte.
func bytewiseTokens(p string) ([]token, bool) {
	var toks []token
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			toks = append(toks, token{kind: tokLit, lit: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '\\':
			if i+1 < len(p) {
				i++
				lit.WriteByte(p[i])
			} else {
				lit.WriteByte(c)
			}
		case '*':
			flush()
			if len(toks) == 0 || toks[len(toks)-1].kind != tokStar {
				toks = append(toks, token{kind: tokStar})
			}
		case '?':
			flush()
			toks = append(toks, token{kind: tokOne})
		case '[':
			cls, n, ok := parseClass(p[i:])
			if !ok {
				return nil, false
			}
			flush()
			toks = append(toks, token{kind: tokClass, cls: cls})
			i += n - 1
		default:
			lit.WriteByte(c)
		}
	}
	flush()
	return toks, true
}

// Compile takes literal text in runs, not byte by byte; the alternatives
// and the matchers it builds are the same.
func FuzzCompileBytewise(f *testing.F) {
	for _, tc := range matchCases {
		f.Add(tc.pattern)
	}
	for _, p := range []string{`a\`, `\\{a,b}`, `x{a\,b,c}y`, `[{]a,b}`, `{a,{b,c}`, `{}`, `a{b}c{d,e}f`, `\*\?[*]x`, `a\b*c\d`} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		got, gerr := expandBraces(p)
		want, werr := bytewiseExpand(p)
		if (gerr == nil) != (werr == nil) {
			t.Fatalf("expandBraces(%q) error %v, bytewise %v", p, gerr, werr)
		}
		if gerr != nil {
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("expandBraces(%q) = %q, bytewise %q", p, got, want)
		}
		for _, e := range got {
			a, err := compileAlt(e)
			toks, ok := bytewiseTokens(e)
			if (err == nil) != ok {
				t.Fatalf("compileAlt(%q) error %v, bytewise ok %v", e, err, ok)
			}
			if err == nil && altString(a) != altString(classify(toks)) {
				t.Fatalf("compileAlt(%q) = %s, bytewise %s", e, altString(a), altString(classify(toks)))
			}
		}
	})
}

// altString spells out a compiled alternative; a class is compared by its
// source-independent parts (its POSIX classes by count: both sides parse
// the same bracket text with parseClass).
func altString(a alt) string {
	s := fmt.Sprintf("%d %q %q %q [", a.kind, a.lit, a.prefix, a.suffix)
	for _, tk := range a.toks {
		s += fmt.Sprintf(" %d %q", tk.kind, tk.lit)
		if tk.cls != nil {
			s += fmt.Sprintf(" %v %v %v %d", tk.cls.negate, tk.cls.runes, tk.cls.ranges, len(tk.cls.posix))
		}
	}
	return s + " ]"
}
