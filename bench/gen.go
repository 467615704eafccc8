// Package bench compares toolgate's policy engine with cedar-go and OPA on
// the same generated rule sets and calls (DESIGN §10). It is its own Go
// module so that the product never depends on the engines it is compared
// with.
//
// A rule set is generated once, engine-neutrally (Set), and translated for
// each engine: policy.Document for toolgate (Set.Document), a Cedar policy
// set (Set.Cedar) and a Rego module (Set.Rego). The equivalence test
// proves the three decide every benchmark call, and many more, the same
// way before anything is timed.
package bench

import (
	"fmt"
	"math/rand/v2"
	"path"
	"strings"

	"github.com/toolgate/toolgate"
)

// Rule is one generated rule, in toolgate's terms: Tool is a tool name, a
// glob over tool names ("tool_1*") or the catch-all "*"; Pattern is a glob
// over the subject in which only "*" (any run of characters, "/"
// included) and one level of "{a,b}" occur, so that every engine can
// express it exactly.
type Rule struct {
	Tool    string
	Pattern string
	Action  toolgate.Action
}

// Call is one generated call: a tool and the path argument it carries.
type Call struct {
	Tool string
	Path string
}

// Set is a generated rule set: rules in order (last match wins, rule 0 is
// the catch-all "*" ask) and the tools it declares. Declared tools are file
// readers whose "path" argument is the subject; a call of any other tool
// has no subject (the tool name alone is matched), which the Cedar and
// Rego translations see as the empty subject.
type Set struct {
	Rules []Rule
	Tools []string

	declared map[string]bool
	dirs     int
}

// Generate returns n rules (the catch-all included) over n/20 tools (at
// least 3, at most 50), drawn deterministically from seed. Rules share
// directories and tools so that later rules override earlier ones often:
// last-match-wins is exercised, not just first-match.
func Generate(n int, seed uint64) *Set {
	r := rand.New(rand.NewPCG(seed, 0x7001))
	nt := min(max(n/20, 3), 50)
	s := &Set{declared: map[string]bool{}, dirs: max(n/4, 2)}
	for i := range nt {
		name := fmt.Sprintf("tool_%02d", i)
		s.Tools = append(s.Tools, name)
		s.declared[name] = true
	}
	s.Rules = append(s.Rules, Rule{Tool: "*", Pattern: "*", Action: toolgate.Ask})
	exts := []string{"go", "md", "txt", "log", "json"}
	for len(s.Rules) < n {
		d := r.IntN(s.dirs)
		dir := fmt.Sprintf("/srv/p%03d", d)
		// Rules about one directory mostly name one or two tools.
		tool := s.Tools[(d+r.IntN(2))%nt]
		ext := exts[r.IntN(len(exts))]
		var rule Rule
		switch w := r.IntN(100); {
		case w < 45:
			rule = Rule{Tool: tool, Pattern: dir + "/*." + ext}
		case w < 57:
			rule = Rule{Tool: tool, Pattern: dir + "/*"}
		case w < 69:
			rule = Rule{Tool: tool, Pattern: dir + "/{src,test}/*." + ext}
		case w < 77:
			rule = Rule{Tool: tool, Pattern: dir + "/*/*." + ext}
		case w < 82:
			rule = Rule{Tool: tool, Pattern: "*.{pem,key}"}
		case w < 85:
			rule = Rule{Tool: tool, Pattern: "*/.env"}
		case w < 88:
			rule = Rule{Tool: tool, Pattern: dir + "/README.md"}
		case w < 96:
			rule = Rule{Tool: fmt.Sprintf("tool_%d*", r.IntN(min(nt, 10))), Pattern: dir + "/*.log"}
		default:
			rule = Rule{Tool: "*", Pattern: dir + "/secret/*"}
		}
		switch w := r.IntN(100); {
		case w < 45:
			rule.Action = toolgate.Allow
		case w < 70:
			rule.Action = toolgate.Deny
		default:
			rule.Action = toolgate.Ask
		}
		s.Rules = append(s.Rules, rule)
	}
	return s
}

// Declared reports whether the set declares tool (a file reader).
func (s *Set) Declared(tool string) bool { return s.declared[tool] }

// Subject is the text the rules' patterns match for c: the path of a
// declared tool, else "" (toolgate matches an undeclared tool by name
// alone).
func (s *Set) Subject(c Call) string {
	if s.declared[c.Tool] {
		return c.Path
	}
	return ""
}

// Calls returns n calls drawn deterministically from seed: paths that
// instantiate a rule's pattern (so they match it, unless a later rule
// overrides it), other paths under the same directories, paths no rule
// names, and tools no rule declares. Every path is clean (path.Clean
// leaves it unchanged), as toolgate cleans paths before matching.
func (s *Set) Calls(n int, seed uint64) []Call {
	r := rand.New(rand.NewPCG(seed, 0xca11))
	leaves := []string{"a.go", "src/b.md", "x/y/z.log", "secret/k", "README.md", ".env",
		"c.pem", "test/d.txt", "e.json", "src/f.go", "test/g.log", "h.key"}
	outside := []string{"/home/u/f.txt", "/etc/hosts", "/srv/other/a.go", "rel/a.go",
		"/srv/p/x.log", "notes.md", "/.env"}
	undeclared := []string{"tool_1x", "mcp__srv__x", "other"}
	calls := make([]Call, 0, n)
	for len(calls) < n {
		c := Call{Tool: s.Tools[r.IntN(len(s.Tools))]}
		switch w := r.IntN(100); {
		case w < 45:
			rule := s.Rules[1+r.IntN(len(s.Rules)-1)]
			c.Path = instantiate(rule.Pattern, r)
			if !strings.ContainsAny(rule.Tool, "*") {
				c.Tool = rule.Tool
			}
		case w < 85:
			d := r.IntN(s.dirs)
			c.Path = fmt.Sprintf("/srv/p%03d/%s", d, leaves[r.IntN(len(leaves))])
			if r.IntN(100) < 70 {
				c.Tool = s.Tools[(d+r.IntN(2))%len(s.Tools)]
			}
		default:
			c.Path = outside[r.IntN(len(outside))]
		}
		if r.IntN(100) < 5 {
			c.Tool = undeclared[r.IntN(len(undeclared))]
		}
		if path.Clean(c.Path) != c.Path {
			continue
		}
		calls = append(calls, c)
	}
	return calls
}

// instantiate returns a string pattern matches: each "*" becomes a short
// run of characters (sometimes with a "/"), each {a,b} one alternative.
func instantiate(pattern string, r *rand.Rand) string {
	fills := []string{"x", "a/b", "src", "k.v", "m-1", "deep/er/path"}
	var b strings.Builder
	if strings.HasPrefix(pattern, "*") {
		b.WriteString(fmt.Sprintf("/srv/p%03d/", r.IntN(50)))
		pattern = pattern[1:]
		if strings.HasPrefix(pattern, "/") {
			pattern = pattern[1:]
		}
		b.WriteString(fills[r.IntN(len(fills))])
		if !strings.HasPrefix(pattern, ".") || strings.HasPrefix(pattern, ".env") {
			b.WriteByte('/')
		}
	}
	for i := 0; i < len(pattern); i++ {
		switch pattern[i] {
		case '*':
			b.WriteString(fills[r.IntN(len(fills))])
		case '{':
			end := strings.IndexByte(pattern[i:], '}')
			alts := strings.Split(pattern[i+1:i+end], ",")
			b.WriteString(alts[r.IntN(len(alts))])
			i += end
		default:
			b.WriteByte(pattern[i])
		}
	}
	return b.String()
}

// expand returns the brace-free alternatives of a pattern with at most one
// level of "{a,b}" groups.
func expand(pattern string) []string {
	i := strings.IndexByte(pattern, '{')
	if i < 0 {
		return []string{pattern}
	}
	end := i + strings.IndexByte(pattern[i:], '}')
	var out []string
	for _, alt := range strings.Split(pattern[i+1:end], ",") {
		for _, rest := range expand(pattern[end+1:]) {
			out = append(out, pattern[:i]+alt+rest)
		}
	}
	return out
}

// Matching returns the indices of the rules that match c, in order.
func (s *Set) Matching(c Call) []int {
	subj := s.Subject(c)
	var out []int
	for i, rule := range s.Rules {
		if !starMatch(rule.Tool, c.Tool) {
			continue
		}
		for _, alt := range expand(rule.Pattern) {
			if starMatch(alt, subj) {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// Reference decides c by the definition: the last rule whose tool and
// pattern match decides. It is the specification the engines are checked
// against, written without any of their code.
func (s *Set) Reference(c Call) toolgate.Action {
	subj := s.Subject(c)
	for i := len(s.Rules) - 1; i >= 0; i-- {
		rule := s.Rules[i]
		if !starMatch(rule.Tool, c.Tool) {
			continue
		}
		for _, alt := range expand(rule.Pattern) {
			if starMatch(alt, subj) {
				return rule.Action
			}
		}
	}
	return toolgate.Ask
}

// starMatch matches s against a pattern whose only metacharacter is "*",
// which matches any run of characters, "/" included.
func starMatch(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return len(s) >= len(last) && strings.HasSuffix(s, last)
}
