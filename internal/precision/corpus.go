package precision

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// Kind says what a corpus command is for the measurement.
type Kind string

// Kinds of corpus command.
const (
	// Read is everyday work whose every effect is a read (DESIGN §3.6):
	// under the built-in defaults it should be allowed.
	Read Kind = "read"
	// Change is everyday work that writes, deletes, builds, runs project
	// code or uses the network: the defaults may ask, a permissive policy
	// should allow it.
	Change Kind = "change"
	// Attack is the dangerous neighbour of an everyday family: it must be
	// stopped (ask or deny) under every policy the benchmark runs.
	Attack Kind = "attack"
)

// Benign reports whether k is everyday work (Read or Change).
func (k Kind) Benign() bool { return k == Read || k == Change }

// Entry is one command of the corpus.
type Entry struct {
	// Category is the family the command belongs to (git, build, search…).
	Category string
	Kind     Kind
	// Command is the shell command line as an agent sends it.
	Command string
	// Pos is file:line of the line the entry was expanded from.
	Pos string
}

// Alternation delimiters: «a|b|c» expands to one command per alternative;
// inside a group `\|` is a literal bar (a pipe). Guillemets appear in no
// shell syntax, so they never clash with the braces and brackets the
// commands themselves use.
const (
	altOpen  = "«"
	altClose = "»"
	altSep   = "|"
)

// maxExpansions bounds what one corpus line may expand to, so a typo such
// as an unclosed group of many alternatives cannot flood the corpus.
const maxExpansions = 400

// Parse reads one corpus file (format in the package doc). name is used in
// positions and errors.
func Parse(name string, src []byte) ([]Entry, error) {
	type raw struct {
		category, kind, command string
		line                    int
	}
	var lines []raw
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		text := sc.Text()
		switch {
		case strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#"):
			continue
		case strings.HasPrefix(text, "\t"):
			if len(lines) == 0 {
				return nil, fmt.Errorf("%s:%d: continuation line before any command", name, n)
			}
			lines[len(lines)-1].command += "\n" + text[1:]
			continue
		}
		f := strings.SplitN(text, "\t", 3)
		if len(f) != 3 || f[0] == "" || strings.TrimSpace(f[2]) == "" {
			return nil, fmt.Errorf("%s:%d: want CATEGORY<TAB>KIND<TAB>COMMAND, got %q", name, n, text)
		}
		switch Kind(f[1]) {
		case Read, Change, Attack:
		default:
			return nil, fmt.Errorf("%s:%d: kind %q: want read, change or attack", name, n, f[1])
		}
		lines = append(lines, raw{f[0], f[1], f[2], n})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var out []Entry
	for _, l := range lines {
		cmds, err := expand(l.command)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, l.line, err)
		}
		for _, c := range cmds {
			out = append(out, Entry{Category: l.category, Kind: Kind(l.kind), Command: c, Pos: fmt.Sprintf("%s:%d", name, l.line)})
		}
	}
	return out, nil
}

// expand replaces each «a|b» group of s by each alternative in turn, left
// to right, giving the cartesian product.
func expand(s string) ([]string, error) {
	out := []string{""}
	for {
		i := strings.Index(s, altOpen)
		j := strings.Index(s, altClose)
		if i < 0 {
			if j >= 0 {
				return nil, fmt.Errorf("%s without %s", altClose, altOpen)
			}
			for k := range out {
				out[k] += s
			}
			return out, nil
		}
		if j < i {
			return nil, fmt.Errorf("%s without %s", altClose, altOpen)
		}
		group := s[i+len(altOpen) : j]
		if strings.Contains(group, altOpen) {
			return nil, fmt.Errorf("nested %s", altOpen)
		}
		alts := strings.Split(strings.ReplaceAll(group, `\`+altSep, "\x00"), altSep)
		for k, a := range alts {
			if strings.TrimSpace(a) != a {
				return nil, fmt.Errorf("alternative %q of %s%s%s starts or ends with a blank: put blanks outside the group", a, altOpen, group, altClose)
			}
			alts[k] = strings.ReplaceAll(a, "\x00", altSep)
		}
		if len(alts) < 2 {
			return nil, fmt.Errorf("group %s%s%s has one alternative", altOpen, group, altClose)
		}
		if len(out)*len(alts) > maxExpansions {
			return nil, fmt.Errorf("expands to more than %d commands", maxExpansions)
		}
		rest := s[j+len(altClose):]
		next := make([]string, 0, len(out)*len(alts))
		for _, o := range out {
			for _, a := range alts {
				head := o + s[:i]
				// An empty alternative between blanks (or at the end)
				// leaves one blank, not two: "ls «|-la» src".
				if a == "" && strings.HasSuffix(head, " ") && (rest == "" || strings.HasPrefix(rest, " ")) {
					head = head[:len(head)-1]
				}
				next = append(next, head+a)
			}
		}
		out = next
		s = rest
	}
}

// Load parses every *.corpus file of fsys's root, in name order, and
// checks that no command appears twice (compared with runs of blanks
// folded, so a stray space cannot inflate the count).
func Load(fsys fs.FS) ([]Entry, error) {
	names, err := fs.Glob(fsys, "*.corpus")
	if err != nil {
		return nil, fmt.Errorf("list corpus files: %w", err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no *.corpus files")
	}
	sort.Strings(names)
	var all []Entry
	seen := map[string]string{}
	for _, name := range names {
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("read corpus: %w", err)
		}
		entries, err := Parse(path.Base(name), src)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			key := strings.Join(strings.Fields(e.Command), " ")
			if prev, ok := seen[key]; ok {
				return nil, fmt.Errorf("%s: %q is already in the corpus at %s", e.Pos, e.Command, prev)
			}
			seen[key] = e.Pos
			all = append(all, e)
		}
	}
	return all, nil
}
