package bench

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
)

// BenchmarkDecide decides the same 64 calls (allow, deny and ask; matching
// rules early and late in the set, and no rule but the catch-all) under the
// same rules with each engine, one call per iteration in turn. Inputs are
// built before the timer starts, in each engine's own form: a
// toolgate.Call, a cedar.Request, a parsed OPA input. Before timing, each
// benchmark checks its engine against the reference on every call it will
// decide (TestEquivalence checks far more).
//
// engine=cedar-sliced and engine=opa-data are the fair peers (see
// fair.go), at every size up to 10,000 rules; engine=cedar and engine=opa
// get the whole rule set as one policy per request, the worst case, up to
// 1,000 rules.
func BenchmarkDecide(b *testing.B) {
	ctx := context.Background()
	for _, n := range fairSizes {
		s := Generate(n, ruleSeed)
		calls := s.Calls(benchN, benchSeed)
		b.Run(fmt.Sprintf("engine=toolgate/rules=%d", n), func(b *testing.B) {
			tg, err := NewToolgate(s)
			if err != nil {
				b.Fatal(err)
			}
			in := make([]*toolgate.Call, len(calls))
			var d toolgate.Decision
			for i, c := range calls {
				in[i] = tg.Input(c)
				if got, want := tg.Decide(in[i], &d), s.Reference(c); got != want {
					b.Fatalf("%+v: toolgate %s, reference %s", c, got, want)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			i := 0
			for b.Loop() {
				tg.Engine.Decide(in[i], policy.Env{}, &d)
				i = (i + 1) % len(in)
			}
		})
		b.Run(fmt.Sprintf("engine=cedar-sliced/rules=%d", n), func(b *testing.B) {
			cs, err := NewCedarSliced(s)
			if err != nil {
				b.Fatal(err)
			}
			benchEngine(b, s, calls, cs.Input, cs.Decide)
		})
		b.Run(fmt.Sprintf("engine=opa-data/rules=%d", n), func(b *testing.B) {
			od, err := NewOPAData(ctx, s)
			if err != nil {
				b.Fatal(err)
			}
			benchEngine(b, s, calls, od.Input, func(in ast.Value) (toolgate.Action, error) { return od.Decide(ctx, in) })
		})
		if n > 1000 {
			continue
		}
		b.Run(fmt.Sprintf("engine=cedar/rules=%d", n), func(b *testing.B) {
			ce, err := NewCedar(s)
			if err != nil {
				b.Fatal(err)
			}
			benchEngine(b, s, calls, ce.Input, ce.Decide)
		})
		b.Run(fmt.Sprintf("engine=opa/rules=%d", n), func(b *testing.B) {
			op, err := NewOPA(ctx, s)
			if err != nil {
				b.Fatal(err)
			}
			benchEngine(b, s, calls, op.Input, func(in ast.Value) (toolgate.Action, error) { return op.Decide(ctx, in) })
		})
	}
}

// benchEngine checks a peer engine against the reference on every call,
// then times it deciding them in turn.
func benchEngine[In any](b *testing.B, s *Set, calls []Call, input func(Call) In, decide func(In) (toolgate.Action, error)) {
	in := make([]In, len(calls))
	for i, c := range calls {
		in[i] = input(c)
		if got, err := decide(in[i]); err != nil || got != s.Reference(c) {
			b.Fatalf("%+v: %s (%v), reference %s", c, got, err, s.Reference(c))
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		if _, err := decide(in[i]); err != nil {
			b.Fatal(err)
		}
		i = (i + 1) % len(in)
	}
}

// ShellEngine is the engine of BenchmarkDecideShell: the default rules
// plus allow rules for the three commands of the pipeline.
func ShellEngine() (*policy.Engine, error) {
	doc := &policy.Document{Path: "bench-shell", Workspace: true, Rules: []policy.Rule{
		{Tool: "Bash", Pattern: "git log *", Action: toolgate.Allow},
		{Tool: "Bash", Pattern: "grep *", Action: toolgate.Allow},
		{Tool: "Bash", Pattern: "head *", Action: toolgate.Allow},
	}}
	return policy.New([]*policy.Document{policy.DefaultDocument(), doc})
}

// ShellCall is the three-command pipeline BenchmarkDecideShell decides.
const ShellCall = "git log --oneline | grep fix | head -5"

// BenchmarkDecideShell decides a three-command pipeline: parse, unwrap,
// three command subjects, each matched against the rules.
func BenchmarkDecideShell(b *testing.B) {
	b.Run("engine=toolgate", func(b *testing.B) {
		e, err := ShellEngine()
		if err != nil {
			b.Fatal(err)
		}
		call := &toolgate.Call{Tool: "Bash", Args: map[string]any{"command": ShellCall}}
		var d toolgate.Decision
		e.Decide(call, policy.Env{}, &d)
		if d.Action != toolgate.Allow || len(d.Subjects) != 3 {
			b.Fatalf("pipeline decided %s with %d subjects: %s", d.Action, len(d.Subjects), d.Reason)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			e.Decide(call, policy.Env{}, &d)
		}
	})
}

// BenchmarkDecideMedian times each of the 64 calls of BenchmarkDecide on
// its own (b.N/64 decisions in a row) and reports the median and the
// slowest call: DESIGN §10 sets its target on the median, and the mean of
// BenchmarkDecide hides how the cost spreads over calls.
func BenchmarkDecideMedian(b *testing.B) {
	ctx := context.Background()
	for _, n := range fairSizes {
		s := Generate(n, ruleSeed)
		calls := s.Calls(benchN, benchSeed)
		b.Run(fmt.Sprintf("engine=toolgate/rules=%d", n), func(b *testing.B) {
			tg, err := NewToolgate(s)
			if err != nil {
				b.Fatal(err)
			}
			var d toolgate.Decision
			perCall(b, calls, func(c Call) func() {
				in := tg.Input(c)
				return func() { tg.Engine.Decide(in, policy.Env{}, &d) }
			})
		})
		b.Run(fmt.Sprintf("engine=cedar-sliced/rules=%d", n), func(b *testing.B) {
			cs, err := NewCedarSliced(s)
			if err != nil {
				b.Fatal(err)
			}
			perCall(b, calls, func(c Call) func() {
				in := cs.Input(c)
				return func() { _, _ = cs.Decide(in) }
			})
		})
		b.Run(fmt.Sprintf("engine=opa-data/rules=%d", n), func(b *testing.B) {
			od, err := NewOPAData(ctx, s)
			if err != nil {
				b.Fatal(err)
			}
			perCall(b, calls, func(c Call) func() {
				in := od.Input(c)
				return func() { _, _ = od.Decide(ctx, in) }
			})
		})
		if n > 1000 {
			continue
		}
		b.Run(fmt.Sprintf("engine=cedar/rules=%d", n), func(b *testing.B) {
			ce, err := NewCedar(s)
			if err != nil {
				b.Fatal(err)
			}
			perCall(b, calls, func(c Call) func() {
				in := ce.Input(c)
				return func() { _, _ = ce.Decide(in) }
			})
		})
		b.Run(fmt.Sprintf("engine=opa/rules=%d", n), func(b *testing.B) {
			op, err := NewOPA(ctx, s)
			if err != nil {
				b.Fatal(err)
			}
			perCall(b, calls, func(c Call) func() {
				in := op.Input(c)
				return func() { _, _ = op.Decide(ctx, in) }
			})
		})
	}
}

// perCall runs each call's closure b.N/len(calls) times in a row and
// reports the median and maximum over calls of the time per decision.
func perCall(b *testing.B, calls []Call, prepare func(Call) func()) {
	fns := make([]func(), len(calls))
	for i, c := range calls {
		fns[i] = prepare(c)
		fns[i]() // warm caches (OPA's compiled globs) outside the timing
	}
	k := max(b.N/len(calls), 1)
	per := make([]float64, len(calls))
	b.ReportAllocs()
	b.ResetTimer()
	for i, f := range fns {
		start := time.Now()
		for range k {
			f()
		}
		per[i] = float64(time.Since(start).Nanoseconds()) / float64(k)
	}
	b.StopTimer()
	slices.Sort(per)
	b.ReportMetric(per[len(per)/2], "p50-ns/call")
	b.ReportMetric(per[len(per)-1], "max-ns/call")
}
