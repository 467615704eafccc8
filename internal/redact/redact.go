// Package redact finds secrets in a tool call's text and masks them:
// cloud and service tokens, private key blocks, JSON Web Tokens,
// passwords and tokens given as options, in URLs and headers, or assigned
// to variables whose names speak of secrets.
//
// The rules are data (rules.yaml, embedded). A call entering the gateway
// is scanned once (Call); what it found masks the call's arguments and
// every text derived from them (Secrets.Text, Secrets.Decision), so the
// stored, shown, notified and searched forms of the call hold
// "AKIA…[redacted]" where the call held an AWS key, while the call's
// digest, computed from the exact arguments, still binds them.
package redact

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/toolgate/toolgate"
)

// Marker ends every masked secret.
const Marker = "[redacted]"

//go:embed rules.yaml
var rulesYAML []byte

// Rule is one kind of secret (see rules.yaml for the fields).
type Rule struct {
	ID       string   `yaml:"id"`
	What     string   `yaml:"what"`
	Keywords []string `yaml:"keywords"`
	Regex    string   `yaml:"regex"`
	Keep     int      `yaml:"keep"`
	MinLen   int      `yaml:"min_len"`
	Entropy  float64  `yaml:"entropy"`

	re       *regexp.Regexp
	groups   []int    // indexes of the secret groups, empty: whole match
	keywords []string // lower-cased
}

// table is the compiled rule set.
type table struct {
	ignore *regexp.Regexp
	rules  []*Rule
}

var rules = sync.OnceValue(func() *table {
	t, err := parse(rulesYAML)
	if err != nil {
		panic(err) // the embedded table is checked by its tests
	}
	return t
})

// parse reads and compiles a rule table.
func parse(data []byte) (*table, error) {
	var doc struct {
		Ignore string  `yaml:"ignore"`
		Rules  []*Rule `yaml:"rules"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("secret rules: %w", err)
	}
	t := &table{rules: doc.Rules}
	var err error
	if t.ignore, err = regexp.Compile(doc.Ignore); err != nil {
		return nil, fmt.Errorf("secret rules: ignore: %w", err)
	}
	seen := map[string]bool{}
	for i, r := range doc.Rules {
		if r.ID == "" || r.What == "" || r.Regex == "" {
			return nil, fmt.Errorf("secret rules: rule %d needs id, what and regex", i+1)
		}
		if seen[r.ID] {
			return nil, fmt.Errorf("secret rules: rule id %q used twice", r.ID)
		}
		seen[r.ID] = true
		if r.re, err = regexp.Compile(r.Regex); err != nil {
			return nil, fmt.Errorf("secret rules: rule %s: %w", r.ID, err)
		}
		for j, name := range r.re.SubexpNames() {
			if name == "secret" || strings.HasPrefix(name, "secret_") {
				r.groups = append(r.groups, j)
			}
		}
		for _, k := range r.Keywords {
			r.keywords = append(r.keywords, strings.ToLower(k))
		}
		if r.MinLen == 0 {
			r.MinLen = 1
		}
	}
	return t, nil
}

// Rules returns the rule set, for documentation and doctor.
func Rules() []Rule {
	t := rules()
	out := make([]Rule, len(t.rules))
	for i, r := range t.rules {
		out[i] = *r
	}
	return out
}

// Match is one secret found in a text: s[Start:End] is the secret.
type Match struct {
	Rule       *Rule
	Start, End int
}

// Find returns the secrets in s, sorted and without overlaps; nil when
// there are none (then nothing is allocated).
func Find(s string) []Match {
	if len(s) < 8 {
		return nil
	}
	t := rules()
	var lower string
	var out []Match
	for _, r := range t.rules {
		if len(r.keywords) > 0 {
			if lower == "" {
				lower = strings.ToLower(s)
			}
			if !containsAny(lower, r.keywords) {
				continue
			}
		}
		for _, loc := range r.re.FindAllStringSubmatchIndex(s, -1) {
			start, end := loc[0], loc[1]
			for _, g := range r.groups {
				if loc[2*g] >= 0 {
					start, end = loc[2*g], loc[2*g+1]
					break
				}
			}
			secret := s[start:end]
			if rest := s[end:]; strings.HasPrefix(rest, Marker) || strings.HasPrefix(rest, "…"+Marker) {
				continue // already masked
			}
			if end-start < r.MinLen || t.ignore.MatchString(secret) || strings.Contains(secret, Marker) {
				continue
			}
			if r.Entropy > 0 && entropy(secret) < r.Entropy {
				continue
			}
			out = append(out, Match{Rule: r, Start: start, End: end})
		}
	}
	return merge(out)
}

// containsAny reports whether s holds one of words.
func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// merge sorts ms and joins overlapping matches (the earlier rule names
// the joined one).
func merge(ms []Match) []Match {
	if len(ms) < 2 {
		return ms
	}
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Start < ms[j].Start })
	out := ms[:1]
	for _, m := range ms[1:] {
		last := &out[len(out)-1]
		if m.Start < last.End {
			last.End = max(last.End, m.End)
			continue
		}
		out = append(out, m)
	}
	return out
}

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	var h float64
	n := float64(len(s))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// Masked is how a secret is shown: the characters the rule keeps (a
// provider's prefix), then "…[redacted]"; or only "[redacted]".
func Masked(secret string, keep int) string {
	if keep > 0 && keep < len(secret)-4 {
		return secret[:keep] + "…" + Marker
	}
	return Marker
}

// Mask returns s with each match masked.
func Mask(s string, ms []Match) string {
	if len(ms) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	at := 0
	for _, m := range ms {
		b.WriteString(s[at:m.Start])
		b.WriteString(Masked(s[m.Start:m.End], m.Rule.Keep))
		at = m.End
	}
	b.WriteString(s[at:])
	return b.String()
}

// Text masks every secret the rules find in s.
func Text(s string) string { return Mask(s, Find(s)) }

// Contains reports whether s holds a masked secret: text built from a
// masked call (edited arguments, a suggested pattern) cannot stand for
// the call's real content.
func Contains(s string) bool { return strings.Contains(s, Marker) }

// Secrets is what a scan of one call found: the secrets' literal values,
// to mask wherever text derived from the call repeats them, and where
// they were, for approvers.
type Secrets struct {
	literals []literal
	found    []toolgate.Redaction
}

// literal is one secret and its masked form.
type literal struct{ secret, masked string }

// minLiteral is the shortest secret masked wherever it recurs; shorter
// ones (a four-letter password) are masked where the rules find them, so
// that masking does not shred unrelated text.
const minLiteral = 6

// Call scans a call's arguments. It returns the call as it may be stored
// and shown, with every secret masked, and what was found; s is nil, and
// shown is c itself, when the call holds no secret.
func Call(c *toolgate.Call) (shown toolgate.Call, s *Secrets) {
	shown = *c
	var sc scanner
	args, changed := sc.value(c.Args, "")
	if !changed {
		return shown, nil
	}
	shown.Args = args.(map[string]any)
	return shown, &sc.s
}

// Found lists where the secrets were, for approvers.
func (s *Secrets) Found() []toolgate.Redaction {
	if s == nil {
		return nil
	}
	return s.found
}

// scanner walks a call's arguments.
type scanner struct{ s Secrets }

// value returns v with its secrets masked (a copy where anything
// changed) and whether anything did; path names v for approvers.
func (sc *scanner) value(v any, path string) (any, bool) {
	switch v := v.(type) {
	case string:
		ms := Find(v)
		if len(ms) == 0 {
			return v, false
		}
		for _, m := range ms {
			secret := v[m.Start:m.End]
			masked := Masked(secret, m.Rule.Keep)
			if len(secret) >= minLiteral {
				sc.s.literals = append(sc.s.literals, literal{secret, masked})
			}
			sc.s.found = append(sc.s.found, toolgate.Redaction{Arg: path, Rule: m.Rule.ID, What: m.Rule.What, Shown: masked})
		}
		return Mask(v, ms), true
	case map[string]any:
		var out map[string]any
		for k, x := range v {
			y, changed := sc.value(x, join(path, k))
			k2, kchanged := sc.value(k, join(path, k))
			if !changed && !kchanged {
				continue
			}
			if out == nil {
				out = make(map[string]any, len(v))
				for k0, x0 := range v {
					out[k0] = x0
				}
			}
			if kchanged {
				delete(out, k)
			}
			out[k2.(string)] = y
		}
		if out == nil {
			return v, false
		}
		return out, true
	case []any:
		var out []any
		for i, x := range v {
			y, changed := sc.value(x, fmt.Sprintf("%s[%d]", path, i))
			if !changed {
				continue
			}
			if out == nil {
				out = append([]any(nil), v...)
			}
			out[i] = y
		}
		if out == nil {
			return v, false
		}
		return out, true
	}
	return v, false
}

// JSON masks the secrets in the strings (and keys) of a JSON value, such
// as a question's answer an approver typed. It returns the value as it
// may be stored and shown and what was masked, where path names the
// value; with nothing found it returns raw as it is. A value that does
// not parse is returned as it is too: its callers refuse it before.
func JSON(raw json.RawMessage, path string) (json.RawMessage, []toolgate.Redaction) {
	if len(raw) == 0 {
		return raw, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // numbers come back as they were written
	var v any
	if err := dec.Decode(&v); err != nil {
		return raw, nil
	}
	var sc scanner
	out, changed := sc.value(v, path)
	if !changed {
		return raw, nil
	}
	masked, err := json.Marshal(out)
	if err != nil {
		// Cannot happen for a decoded value; never hand the secret on.
		return json.RawMessage(`"` + Marker + `"`), sc.s.found
	}
	return masked, sc.s.found
}

// join names key k under path.
func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// Text masks, in text derived from the scanned call, each secret found in
// it and whatever else the rules find.
func (s *Secrets) Text(t string) string {
	if s == nil || t == "" {
		return t
	}
	for _, l := range s.literals {
		t = strings.ReplaceAll(t, l.secret, l.masked)
	}
	return Text(t)
}

// Decision masks the secrets in a decision made about the scanned call
// and records where they were. A suggested pattern that held a secret is
// dropped (an exact one too): granted, it would match only the masked
// text, never the call.
func (s *Secrets) Decision(d *toolgate.Decision) {
	if s == nil {
		return
	}
	d.Reason = s.Text(d.Reason)
	if d.Rule != nil {
		r := *d.Rule
		r.Pattern, r.Reason = s.Text(r.Pattern), s.Text(r.Reason)
		d.Rule = &r
	}
	subjects := make([]toolgate.SubjectResult, len(d.Subjects))
	for i, x := range d.Subjects {
		x.Text = s.Text(x.Text)
		if x.Rule != nil {
			r := *x.Rule
			r.Pattern, r.Reason = s.Text(r.Pattern), s.Text(r.Reason)
			x.Rule = &r
		}
		subjects[i] = x
	}
	d.Subjects = subjects
	risks := make([]toolgate.Risk, len(d.Risks))
	for i, x := range d.Risks {
		x.Reason, x.Subject = s.Text(x.Reason), s.Text(x.Subject)
		risks[i] = x
	}
	d.Risks = risks
	suggestions := make([]toolgate.Suggestion, 0, len(d.Suggestions))
	for _, x := range d.Suggestions {
		if s.Text(x.Pattern) != x.Pattern {
			continue
		}
		if s.Text(x.Exact) != x.Exact {
			x.Exact = ""
		}
		suggestions = append(suggestions, x)
	}
	d.Suggestions = suggestions
	d.Redactions = append(d.Redactions[:0:0], s.found...)
}
