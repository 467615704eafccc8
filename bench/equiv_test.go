package bench

import (
	"context"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
)

// sizes are the rule-set sizes the unsliced peers (the worst case) are
// benchmarked at; fairSizes those of toolgate and the fair peers.
var (
	sizes     = []int{10, 100, 1000}
	fairSizes = []int{10, 100, 1000, 10000}
)

const (
	ruleSeed  = 1
	benchSeed = 2
	benchN    = 64 // calls each benchmark cycles through
)

// engines builds the three engines for one size.
func engines(t testing.TB, s *Set) (*Toolgate, *Cedar, *OPA) {
	t.Helper()
	tg, err := NewToolgate(s)
	if err != nil {
		t.Fatalf("toolgate: %v", err)
	}
	ce, err := NewCedar(s)
	if err != nil {
		t.Fatalf("cedar: %v", err)
	}
	op, err := NewOPA(context.Background(), s)
	if err != nil {
		t.Fatalf("opa: %v", err)
	}
	return tg, ce, op
}

// equivalenceCalls returns the calls checked at one size: the benchmark
// calls, a call that instantiates every rule (so every rule's match is
// compared), one per rule with the rule's tool swapped for another, calls
// of undeclared tools, and a larger random sample.
func equivalenceCalls(s *Set) (bench, all []Call) {
	bench = s.Calls(benchN, benchSeed)
	all = append(all, bench...)
	r := rand.New(rand.NewPCG(3, 3))
	for _, rule := range s.Rules[1:] {
		for range 3 {
			p := instantiate(rule.Pattern, r)
			tool := rule.Tool
			if tool == "*" || len(tool) > 0 && tool[len(tool)-1] == '*' {
				tool = s.Tools[r.IntN(len(s.Tools))]
			}
			all = append(all,
				Call{Tool: tool, Path: p},
				Call{Tool: s.Tools[r.IntN(len(s.Tools))], Path: p},
				Call{Tool: "tool_1x", Path: p})
		}
	}
	all = append(all, s.Calls(5000, 4)...)
	return bench, all
}

// deciders returns every engine configured for the set, by the name the
// benchmarks use, each deciding a Call from scratch (input built per
// call: this is for checking, not timing). The unsliced Cedar and OPA are
// left out past 1,000 rules, where they are too slow to check broadly.
func deciders(t testing.TB, s *Set) map[string]func(Call) (toolgate.Action, error) {
	t.Helper()
	ctx := context.Background()
	tg, err := NewToolgate(s)
	if err != nil {
		t.Fatalf("toolgate: %v", err)
	}
	cs, err := NewCedarSliced(s)
	if err != nil {
		t.Fatalf("cedar-sliced: %v", err)
	}
	od, err := NewOPAData(ctx, s)
	if err != nil {
		t.Fatalf("opa-data: %v", err)
	}
	var d toolgate.Decision
	out := map[string]func(Call) (toolgate.Action, error){
		"toolgate":     func(c Call) (toolgate.Action, error) { return tg.Decide(tg.Input(c), &d), nil },
		"cedar-sliced": func(c Call) (toolgate.Action, error) { return cs.Decide(cs.Input(c)) },
		"opa-data":     func(c Call) (toolgate.Action, error) { return od.Decide(ctx, od.Input(c)) },
	}
	if len(s.Rules) <= 1000 {
		_, ce, op := engines(t, s)
		out["cedar"] = func(c Call) (toolgate.Action, error) { return ce.Decide(ce.Input(c)) }
		out["opa"] = func(c Call) (toolgate.Action, error) { return op.Decide(ctx, op.Input(c)) }
	}
	return out
}

// TestEquivalence proves, before anything is timed, that toolgate and
// every peer configuration (Cedar and OPA unsliced, Cedar sliced per tool,
// data-driven Rego) give the same action as the reference definition of
// last-match-wins on every benchmark call and on a broad sample of others.
func TestEquivalence(t *testing.T) {
	for _, n := range fairSizes {
		s := Generate(n, ruleSeed)
		engs := deciders(t, s)
		tg, err := NewToolgate(s)
		if err != nil {
			t.Fatal(err)
		}
		bench, all := equivalenceCalls(s)
		if n > 1000 {
			// Every benchmark call, and a sample of the rest.
			sample := all[:len(bench)]
			for i := len(bench); i < len(all); i += 7 {
				sample = append(sample, all[i])
			}
			all = sample
		}
		var d toolgate.Decision
		counts := map[toolgate.Action]int{}
		catchAll, overridden := 0, 0
		names := make([]string, 0, len(engs))
		for name := range engs {
			names = append(names, name)
		}
		sort.Strings(names)
		for i, c := range all {
			want := s.Reference(c)
			for _, name := range names {
				got, err := engs[name](c)
				if err != nil {
					t.Fatalf("rules=%d %s %+v: %v", n, name, c, err)
				}
				if got != want {
					t.Errorf("rules=%d call %d %+v (subject %q): reference %s, %s %s", n, i, c, s.Subject(c), want, name, got)
				}
			}
			if i < len(bench) {
				tg.Decide(tg.Input(c), &d)
				counts[want]++
				if d.Rule != nil && d.Rule.Source == "bench:1" {
					catchAll++
				}
				// Does a rule other than the last that matches disagree
				// with it? Then first-match would decide differently.
				m := s.Matching(c)
				for _, k := range m[:len(m)-1] {
					if k > 0 && s.Rules[k].Action != want {
						overridden++
						break
					}
				}
			}
		}
		t.Logf("rules=%d: %d calls agree across %s; the %d benchmark calls: %d allow, %d deny, %d ask (%d by the catch-all only), %d where an earlier matching rule says otherwise",
			n, len(all), strings.Join(names, ", "), len(bench), counts[toolgate.Allow], counts[toolgate.Deny], counts[toolgate.Ask], catchAll, overridden)
		for _, a := range []toolgate.Action{toolgate.Allow, toolgate.Deny, toolgate.Ask} {
			if counts[a] == 0 {
				t.Errorf("rules=%d: no benchmark call decides %s", n, a)
			}
		}
	}
}

// TestLastMatchWins checks the translations on a hand-written set where
// order is everything: the same subject under rules that override each
// other, a tool glob and the catch-all.
func TestLastMatchWins(t *testing.T) {
	s := &Set{
		Rules: []Rule{
			{Tool: "*", Pattern: "*", Action: toolgate.Ask},
			{Tool: "tool_00", Pattern: "/srv/a/*", Action: toolgate.Allow},
			{Tool: "tool_00", Pattern: "/srv/a/*.env", Action: toolgate.Deny},
			{Tool: "tool_0*", Pattern: "/srv/a/x/*", Action: toolgate.Ask},
			{Tool: "tool_00", Pattern: "/srv/a/x/ok.{env,txt}", Action: toolgate.Allow},
			{Tool: "*", Pattern: "*/secret/*", Action: toolgate.Deny},
		},
		Tools:    []string{"tool_00", "tool_01"},
		declared: map[string]bool{"tool_00": true, "tool_01": true},
	}
	cases := []struct {
		c    Call
		want toolgate.Action
	}{
		{Call{"tool_00", "/srv/a/b.go"}, toolgate.Allow},
		{Call{"tool_00", "/srv/a/b.env"}, toolgate.Deny},
		{Call{"tool_00", "/srv/a/x/b.env"}, toolgate.Ask},
		{Call{"tool_00", "/srv/a/x/ok.env"}, toolgate.Allow},
		{Call{"tool_00", "/srv/a/x/ok.txt"}, toolgate.Allow},
		{Call{"tool_01", "/srv/a/x/ok.txt"}, toolgate.Ask},
		{Call{"tool_00", "/srv/a/secret/ok.txt"}, toolgate.Deny},
		{Call{"tool_00", "/srv/b/c"}, toolgate.Ask},
		{Call{"other", "/srv/a/b.go"}, toolgate.Ask},
		{Call{"tool_00", "/srv/a"}, toolgate.Ask},
	}
	tg, ce, op := engines(t, s)
	engs := deciders(t, s)
	var d toolgate.Decision
	for _, tc := range cases {
		for name, decide := range engs {
			if got, err := decide(tc.c); got != tc.want || err != nil {
				t.Errorf("%+v: %s %s (%v), want %s", tc.c, name, got, err, tc.want)
			}
		}
		if got := s.Reference(tc.c); got != tc.want {
			t.Errorf("%+v: reference %s, want %s", tc.c, got, tc.want)
		}
		if got := tg.Decide(tg.Input(tc.c), &d); got != tc.want {
			t.Errorf("%+v: toolgate %s, want %s", tc.c, got, tc.want)
		}
		if got, err := ce.Decide(ce.Input(tc.c)); got != tc.want || err != nil {
			t.Errorf("%+v: cedar %s (%v), want %s", tc.c, got, err, tc.want)
		}
		if got, err := op.Decide(context.Background(), op.Input(tc.c)); got != tc.want || err != nil {
			t.Errorf("%+v: opa %s (%v), want %s", tc.c, got, err, tc.want)
		}
	}
}

// TestZeroAlloc checks DESIGN §10's "no allocation" call by call: the
// benchmark's allocs/op is an average over its 64 calls, and would round
// one allocating call away.
func TestZeroAlloc(t *testing.T) {
	s := Generate(1000, ruleSeed)
	tg, err := NewToolgate(s)
	if err != nil {
		t.Fatal(err)
	}
	calls := append(s.Calls(benchN, benchSeed), Call{Tool: "mcp__srv__x", Path: "/srv/p001/a.go"})
	var d toolgate.Decision
	seen := map[string]bool{}
	for _, c := range calls {
		in := tg.Input(c)
		tg.Decide(in, &d) // size d's slices
		if n := testing.AllocsPerRun(100, func() { tg.Decide(in, &d) }); n > 0 && !seen[c.Tool] {
			seen[c.Tool] = true
			t.Errorf("%+v: %.0f allocations per decision", c, n)
		}
	}
}
