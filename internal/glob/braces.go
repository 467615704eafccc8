package glob

import (
	"fmt"
	"strings"
)

// ExpandBraces expands every '{a,b}' group of a glob into alternatives,
// at most a few hundred: "*.{ts,tsx}" is "*.ts" and "*.tsx".
func ExpandBraces(p string) ([]string, error) { return expandBraces(p) }

// expandBraces expands every '{a,b}' group into alternatives. A brace group
// without a top-level comma is literal, as in bash. The text between groups
// is appended as one run (every rule is compiled on each hook call, so
// compiling stays cheap).
func expandBraces(p string) ([]string, error) {
	if strings.IndexByte(p, '{') < 0 {
		return []string{p}, nil
	}
	out := []string{""}
	run := 0 // start of the literal text not yet appended
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '\\' && i+1 < len(p) {
			i++
			continue
		}
		if c == '[' {
			if _, n, ok := parseClass(p[i:]); ok {
				i += n - 1
				continue
			}
		}
		if c != '{' {
			continue
		}
		end, parts := splitGroup(p[i:])
		if end < 0 || len(parts) < 2 {
			continue // a literal '{', part of the run
		}
		out = appendAll(out, p[run:i])
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
		run = i + 1
	}
	return appendAll(out, p[run:]), nil
}

func appendAll(list []string, s string) []string {
	if s == "" {
		return list
	}
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
