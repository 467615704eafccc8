package precision

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/hookcli"
	"github.com/toolgate/toolgate/policy"
	"mvdan.cc/sh/v3/syntax"
)

// Regression ceilings, measured on the corpus as it is: the benchmark fails
// when a change stops more everyday work than this (or allows fewer
// read-only commands). They are today's figures rounded outwards to the
// next 0.01%, less than one command of the corpus, so a single new false
// stop fails; they are not goals. Whoever makes the gate quieter lowers
// them (raises the floor) in the same commit, and whoever grows the corpus
// re-measures them. The goals are DESIGN §3.6 and docs/BENCHMARKS.md's:
// ≤ 5% stopped under a permissive policy, ≥ 90% of read-only commands
// allowed by default.
const (
	maxStoppedDefaultsPct    = 40.12
	maxStoppedPermissivePct  = 3.58
	minReadAllowedDefaultPct = 94.63
)

// minBenign is the size the everyday corpus must keep.
const minBenign = 2000

// Where the corpus is decided: HOME and the project, fixed so the figures
// do not depend on the machine that runs the test.
const (
	home = "/home/dev"
	cwd  = "/home/dev/src/webapp"
)

var dumpFile = flag.String("precision.dump", "", "write every stopped benign command, with its policy, cause and reason, to `FILE`")

// policies are the rules the corpus is decided under: toolgate's built-in
// defaults alone, and the permissive policy (every shell command allowed
// by a wildcard, the defaults' file rules kept), both loaded the way
// `toolgate check [--rules F]` loads them.
var policies = []struct {
	name  string
	rules []string
}{
	{"defaults", nil},
	{"permissive", []string{"testdata/permissive.yaml"}},
}

func TestPrecision(t *testing.T) {
	entries, err := Load(os.DirFS("testdata"))
	if err != nil {
		t.Fatal(err)
	}
	gapsSrc, err := os.ReadFile("testdata/known-gaps.txt")
	if err != nil {
		t.Fatal(err)
	}
	gaps, err := Parse("known-gaps.txt", gapsSrc)
	if err != nil {
		t.Fatal(err)
	}

	// Every command must be valid bash: a twin stopped only because it
	// does not parse would prove nothing, and a benign one would count a
	// typo as a false stop.
	parser := syntax.NewParser(syntax.Variant(syntax.LangBash))
	benign := 0
	for _, e := range append(entries[:len(entries):len(entries)], gaps...) {
		if _, err := parser.Parse(strings.NewReader(e.Command), ""); err != nil {
			t.Errorf("%s: not valid bash: %v: %s", e.Pos, err, e.Command)
		}
		if e.Kind.Benign() {
			benign++
		}
	}
	if benign < minBenign {
		t.Errorf("corpus has %d everyday commands, want at least %d", benign, minBenign)
	}

	// The engine reads HOME (for ~) and the config and data directories
	// (toolgate's own files) when it is built.
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local/share"))

	var dump bytes.Buffer
	sums := map[string]Summary{}
	for _, p := range policies {
		rf := hookcli.RuleFlags{Rules: p.rules, ExplicitOnly: true}
		e, agent, err := rf.Engine()
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		outs := Decide(e, policy.Env{Mode: e.Mode(), Agent: agent}, cwd, entries)
		s := Summarize(p.name, outs)
		sums[p.name] = s
		for _, o := range s.AttacksAllowed {
			t.Errorf("%s: %s: attacker twin allowed (%s): %s", p.name, o.Pos, o.Reason, o.Command)
		}
		t.Log(s.Line())
		if testing.Verbose() {
			var b strings.Builder
			if err := s.WriteReport(&b, 30); err != nil {
				t.Fatal(err)
			}
			t.Log("\n" + b.String())
		}
		// The known gaps are measured, not asserted: they are holes the
		// floor has yet to close, listed so a fix shows up here.
		g := Summarize(p.name, Decide(e, policy.Env{Mode: e.Mode(), Agent: agent}, cwd, gaps))
		t.Logf("%s: %d of %d known gaps (testdata/known-gaps.txt) still allowed", p.name, len(g.AttacksAllowed), g.Attacks)
		if testing.Verbose() {
			for _, o := range g.AttacksAllowed {
				t.Logf("%s: known gap allowed: %s", p.name, o.Command)
			}
		}
		if err := WriteDump(&dump, p.name, outs); err != nil {
			t.Fatal(err)
		}
	}
	if *dumpFile != "" {
		if err := os.WriteFile(*dumpFile, dump.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	for _, c := range []struct {
		what      string
		got, want float64
		ceiling   bool
	}{
		{"benign stopped under the defaults", sums["defaults"].StoppedPct(), maxStoppedDefaultsPct, true},
		{"benign stopped under the permissive policy", sums["permissive"].StoppedPct(), maxStoppedPermissivePct, true},
		{"read-only allowed under the defaults", sums["defaults"].ReadAllowedPct(), minReadAllowedDefaultPct, false},
	} {
		if c.ceiling && c.got > c.want {
			t.Errorf("%s: %.2f%%, ceiling %.2f%% (a regression; run with -v -precision.dump=FILE to see the causes)", c.what, c.got, c.want)
		}
		if !c.ceiling && c.got < c.want {
			t.Errorf("%s: %.2f%%, floor %.2f%% (a regression; run with -v -precision.dump=FILE to see the causes)", c.what, c.got, c.want)
		}
	}
}
