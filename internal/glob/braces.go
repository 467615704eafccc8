package glob

import (
	"fmt"
	"strings"
)

// expandBraces expands every '{a,b}' group into alternatives. A brace group
// without a top-level comma is literal, as in bash.
func expandBraces(p string) ([]string, error) {
	out := []string{""}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '\\' && i+1 < len(p) {
			out = appendAll(out, p[i:i+2])
			i++
			continue
		}
		if c == '[' {
			if _, n, ok := parseClass(p[i:]); ok {
				out = appendAll(out, p[i:i+n])
				i += n - 1
				continue
			}
		}
		if c != '{' {
			out = appendAll(out, p[i:i+1])
			continue
		}
		end, parts := splitGroup(p[i:])
		if end < 0 || len(parts) < 2 {
			out = appendAll(out, "{")
			continue
		}
		var next []string
		for _, part := range parts {
			sub, err := expandBraces(part)
			if err != nil {
				return nil, err
			}
			for _, prefix := range out {
				for _, s := range sub {
					next = append(next, prefix+s)
				}
			}
			if len(next) > maxAlternatives {
				return nil, fmt.Errorf("brace expansion yields more than %d alternatives", maxAlternatives)
			}
		}
		out = next
		i += end
	}
	return out, nil
}

func appendAll(list []string, s string) []string {
	for i := range list {
		list[i] += s
	}
	return list
}

// splitGroup splits the brace group at the start of p on its top-level
// commas and returns the index of its closing brace, or -1 if unclosed.
func splitGroup(p string) (end int, parts []string) {
	depth := 0
	start := 1
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				parts = append(parts, p[start:i])
				return i, parts
			}
		case ',':
			if depth == 1 {
				parts = append(parts, p[start:i])
				start = i + 1
			}
		}
	}
	return -1, nil
}

// QuoteMeta escapes every metacharacter in s so that the pattern matches s
// literally.
func QuoteMeta(s string) string {
	if !strings.ContainsAny(s, `*?[]{}\!,`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(`*?[]{}\!,`, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
