package glob

import (
	"strings"
	"unicode"
)

// class is a bracket expression: a set of runes and ranges, maybe negated.
type class struct {
	negate bool
	runes  []rune
	ranges [][2]rune
	posix  []func(rune) bool
}

func (c *class) match(r rune) bool {
	in := false
	for _, x := range c.runes {
		if x == r {
			in = true
			break
		}
	}
	if !in {
		for _, rg := range c.ranges {
			if rg[0] <= r && r <= rg[1] {
				in = true
				break
			}
		}
	}
	if !in {
		for _, f := range c.posix {
			if f(r) {
				in = true
				break
			}
		}
	}
	return in != c.negate
}

// posixClass returns the test of a POSIX character class ("alpha" of
// [[:alpha:]]). A switch, not a map: a map would be built at start-up in
// every process that links the package.
func posixClass(name string) (func(rune) bool, bool) {
	switch name {
	case "alnum":
		return func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }, true
	case "alpha":
		return unicode.IsLetter, true
	case "blank":
		return func(r rune) bool { return r == ' ' || r == '\t' }, true
	case "cntrl":
		return unicode.IsControl, true
	case "digit":
		return func(r rune) bool { return '0' <= r && r <= '9' }, true
	case "graph":
		return func(r rune) bool { return unicode.IsGraphic(r) && !unicode.IsSpace(r) }, true
	case "lower":
		return unicode.IsLower, true
	case "print":
		return unicode.IsPrint, true
	case "punct":
		return unicode.IsPunct, true
	case "space":
		return unicode.IsSpace, true
	case "upper":
		return unicode.IsUpper, true
	case "word":
		return func(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }, true
	case "xdigit":
		return func(r rune) bool { return strings.ContainsRune("0123456789abcdefABCDEF", r) }, true
	}
	return nil, false
}

// parseClass parses a bracket expression at the start of p and returns it
// with the number of bytes it spans. ok is false when the bracket is not
// closed, in which case '[' is a literal.
func parseClass(p string) (c *class, n int, ok bool) {
	c = &class{}
	i := 1
	if i < len(p) && (p[i] == '!' || p[i] == '^') {
		c.negate = true
		i++
	}
	first := true
	for i < len(p) {
		if p[i] == ']' && !first {
			return c, i + 1, true
		}
		first = false
		if strings.HasPrefix(p[i:], "[:") {
			if end := strings.Index(p[i+2:], ":]"); end >= 0 {
				if f, known := posixClass(p[i+2 : i+2+end]); known {
					c.posix = append(c.posix, f)
					i += 2 + end + 2
					continue
				}
			}
		}
		r, size := decodeClassRune(p[i:])
		i += size
		if i+1 < len(p) && p[i] == '-' && p[i+1] != ']' {
			hi, hsize := decodeClassRune(p[i+1:])
			i += 1 + hsize
			if hi < r {
				r, hi = hi, r
			}
			c.ranges = append(c.ranges, [2]rune{r, hi})
			continue
		}
		c.runes = append(c.runes, r)
	}
	return nil, 0, false
}

func decodeClassRune(p string) (rune, int) {
	if p[0] == '\\' && len(p) > 1 {
		r := []rune(p[1:])[0]
		return r, 1 + len(string(r))
	}
	r := []rune(p)[0]
	return r, len(string(r))
}
