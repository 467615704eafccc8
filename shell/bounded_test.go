package shell

import (
	"runtime"
	"strings"
	"testing"
)

// Bounds on the work of one analysis (DESIGN §10): a fixed base plus a
// share per input byte. Before the per-call budget the pathological
// inputs took up to 4,000 bytes and 0.5 ms per input byte, growing with
// the square of their size.
const (
	boundAllocBase    = 8 << 20 // bytes
	boundAllocPerByte = 512
	boundCPUBase      = 100e6 // ns
	boundCPUPerByte   = 5e3
)

// work measures one analysis of src: bytes allocated and CPU time of the
// calling thread (ok is false where that cannot be measured). The process
// must be otherwise idle: callers are not parallel.
func work(a *Analyzer, src string) (alloc uint64, cpu int64, ok bool) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	c0, ok0 := threadCPU()
	_, _ = a.Analyze(src)
	c1, ok1 := threadCPU()
	runtime.ReadMemStats(&ms)
	return ms.TotalAlloc - before, c1 - c0, ok0 && ok1
}

// checkBounded fails t when analysing src costs more than the bounds.
func checkBounded(t *testing.T, a *Analyzer, src string) {
	t.Helper()
	alloc, cpu, ok := work(a, src)
	n := uint64(len(src))
	if limit := boundAllocBase + boundAllocPerByte*n; alloc > limit {
		t.Errorf("%d-byte input allocated %d bytes, bound %d: %.80q", n, alloc, limit, src)
	}
	if limit := int64(boundCPUBase + boundCPUPerByte*float64(n)); ok && cpu > limit {
		// A shared machine can charge one run a stall (a GC assist, a
		// cache flushed by a neighbour): work that grows with the
		// square of the input is over the bound every time.
		if _, again, ok := work(a, src); ok && again > limit {
			t.Errorf("%d-byte input took %d and %d ns of CPU, bound %d: %.80q", n, cpu, again, limit, src)
		}
	}
}

// TestPathologicalBounded analyses each pathological input at the size the
// default byte limit allows. It measures allocation, so it is not parallel.
func TestPathologicalBounded(t *testing.T) {
	a := New(WithHome(testHome))
	for _, p := range pathological {
		src := p.gen(fit(p.gen, DefaultMaxBytes))
		t.Run(p.name, func(t *testing.T) {
			checkBounded(t, a, src)
			alloc, cpu, _ := work(a, src)
			t.Logf("%d bytes: %d bytes allocated (%d per byte), %.1f ms CPU", len(src), alloc, alloc/uint64(len(src)), float64(cpu)/1e6)
		})
	}
}

// fit returns the largest n (a power of two) for which gen(n) fits in max
// bytes.
func fit(gen func(int) string, max int) int {
	n := 1
	for len(gen(n*2)) <= max {
		n *= 2
	}
	return n
}

func FuzzAnalyzeBounded(f *testing.F) {
	for _, p := range pathological {
		f.Add(p.gen(fit(p.gen, DefaultMaxBytes)))
		f.Add(p.gen(8))
	}
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	a := New(WithHome(testHome))
	f.Fuzz(func(t *testing.T, src string) {
		checkBounded(t, a, src)
	})
}

// TestBudget stops the analysis at each bound of a small budget: the
// commands seen before it stay, the rest is one opaque command, and the
// risk names the bound.
func TestBudget(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		budget Budget
		src    string
		want   string // in Exceeded; "" for within the budget
	}{
		{"steps", Budget{Steps: 8}, "rm -rf x; a; b; c; d; e; f; g; h; i", "analysis steps"},
		{"subjects", Budget{Subjects: 3}, "rm -rf x; a; b; c; d", "subjects"},
		{"files", Budget{Subjects: 3}, "rm -rf x >a >b >c", "subjects"},
		{"words", Budget{Words: 4}, "rm -rf x; echo {a,b,c}", "words after brace expansion"},
		{"bytes", Budget{SubjectBytes: 30}, "rm -rf x; echo aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "bytes of subject text"},
		{"substitution", Budget{Depth: 2}, "rm -rf x; echo $(echo $(echo $(id)))", "levels of nested"},
		{"process substitution", Budget{Depth: 2}, "rm -rf x; cat <(cat <(cat <(id)))", "levels of nested"},
		{"wrappers", Budget{Depth: 2}, "rm -rf x; nice nohup timeout 5 id", "levels of nested"},
		{"xargs", Budget{Depth: 2}, "rm -rf x; xargs xargs xargs id", "levels of nested"},
		{"find -exec", Budget{Depth: 2}, `rm -rf x; find . -exec find . -exec find . -exec id \; \; \;`, "levels of nested"},
		{"bash -c", Budget{Depth: 2}, `rm -rf x; bash -c "bash -c 'bash -c id'"`, "levels of nested"},
		{"eval", Budget{Depth: 2}, "rm -rf x; eval eval eval id", "levels of nested"},
		{"functions", Budget{Depth: 2}, "rm -rf x; f(){ g(){ h(){ id; }; }; }", "levels of nested"},
		{"within", Budget{Depth: 3}, "rm -rf x; echo $(echo $(id))", ""},
		{"within wrappers", Budget{Depth: 3}, "rm -rf x; nice nohup timeout 5 id", ""},
		{"expansion at the cap", Budget{Depth: 1}, "rm -rf x; nice echo $HOME ${X:-y}", ""},
		{"substitution past the cap", Budget{Depth: 1}, "rm -rf x; echo $(echo $(id))", "levels of nested"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			res, err := New(WithBudget(c.budget)).Analyze(c.src)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Exceeded, c.want) || (c.want == "") != (res.Exceeded == "") {
				t.Fatalf("Exceeded = %q, want %q\n%s", res.Exceeded, c.want, dump(res))
			}
			if !matchesDeny(res, "rm -rf x") {
				t.Errorf("the command seen before the bound is lost\n%s", dump(res))
			}
			if c.want == "" {
				if hasRisk(res, RiskBudget) {
					t.Errorf("budget risk within the budget\n%s", dump(res))
				}
				return
			}
			last := res.Commands[len(res.Commands)-1]
			if !last.Opaque || last.Via != "analysis budget" || !hasRisk(res, RiskBudget) || !res.Unprefixable() {
				t.Errorf("no opaque rest and budget risk\n%s", dump(res))
			}
		})
	}
}

// TestProbeSharesBudget: the walker that probes an unknown command's
// arguments for a command spends the call's budget, not a fresh one (nor
// none).
func TestProbeSharesBudget(t *testing.T) {
	t.Parallel()
	const src = "frobnicate 'rm -rf ~'"
	if res := analyze(t, src); !hasRisk(res, RiskRecursiveDelete) || res.Exceeded != "" {
		t.Errorf("probe within the budget\n%s", dump(res))
	}
	res, err := New(WithBudget(Budget{Steps: 8})).Analyze(src)
	if err != nil || !strings.Contains(res.Exceeded, "steps") {
		t.Errorf("probe past the budget: %v\n%s", err, dump(res))
	}
}
