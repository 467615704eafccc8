package policy_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
)

// growth runs TestDecideGrowth, the search for inputs whose decision costs
// more than linear time or memory (DESIGN §10, bounded work). It takes
// minutes of CPU, so it is off by default:
//
//	go test ./policy -run TestDecideGrowth -growth [-growth.seed N]
var (
	growth     = flag.Bool("growth", false, "search for shell inputs whose decision grows faster than their size")
	growthSeed = flag.Uint64("growth.seed", 1, "seed of the constructs TestDecideGrowth combines")
)

// constructs are the pieces a command line is built of, each one
// repetition of a construct the analysis handles: TestDecideGrowth grows
// each alone and in random pairs.
var constructs = []struct{ name, unit string }{
	{"command", "a; "},
	{"and", "a && "},
	{"pipe", "a | "},
	{"word", "x "},
	{"file-operand", "cat f; "},
	{"redirect-out", ">f "},
	{"redirect-append", ">>f "},
	{"redirect-in", "<f "},
	{"heredoc", "cat <<'E'\nx\nE\n"},
	{"echo-append", "echo AAAAAAAAAAAAAAAA >>f; "},
	{"substitution", "$(a) "},
	{"backquote", "`a` "},
	{"procsubst", "<(a) "},
	{"assign", "v=$v.x; "},
	{"var-use", "$v "},
	{"default", "${X:-d} "},
	{"glob", "*.go "},
	{"brace", "{a,b} "},
	{"wrapper", "sudo "},
	{"env", "env A=1 "},
	{"xargs", "xargs "},
	{"bash-c", "bash -c 'a'; "},
	{"subshell", "(a); "},
	{"group", "{ a; }; "},
	{"if", "if a; then b; fi; "},
	{"for", "for i in a b; do c $i; done; "},
	{"function", "f(){ a; }; "},
	{"cd", "cd d && "},
	{"find-exec", "find . -exec a {} \\; ; "},
	{"git", "git -C d status; "},
	{"kubectl", "kubectl -n x get p; "},
	{"curl", "curl -s https://x.example/a -o f; "},
	{"path-secret", "cat ~/.ssh/id_rsa; "},
}

// TestDecideGrowth decides each construct repeated n and 10n times (and
// random pairs of them, interleaved) and fails when the larger input
// costs more than growthLimit times as much per byte, in CPU time or in
// allocation: a construct whose cost grows with the square of its count
// is 10 times as costly per byte at 10n.
func TestDecideGrowth(t *testing.T) {
	if !*growth {
		t.Skip("the growth search runs with -growth")
	}
	const growthLimit = 3.0
	e, err := policy.New([]*policy.Document{policy.DefaultDocument()}, policy.WithHome("/home/user"))
	if err != nil {
		t.Fatal(err)
	}
	type family struct {
		name string
		gen  func(n int) string
	}
	var fams []family
	for _, c := range constructs {
		fams = append(fams, family{c.name, func(n int) string { return lead(c.unit) + strings.Repeat(c.unit, n) + "a" }})
	}
	r := rand.New(rand.NewPCG(*growthSeed, 0))
	for range 40 {
		a, b := constructs[r.IntN(len(constructs))], constructs[r.IntN(len(constructs))]
		fams = append(fams, family{a.name + "+" + b.name, func(n int) string {
			return lead(a.unit) + strings.Repeat(a.unit+b.unit, n/2) + "a"
		}})
	}
	for _, f := range fams {
		// n grows until the smaller input is 1 KB or more, so the fixed
		// cost of a decision does not hide the per-byte cost.
		n := 8
		for len(f.gen(n)) < 1<<10 {
			n *= 2
		}
		small, large := f.gen(n), f.gen(10*n)
		if len(large) > policy.DefaultMaxCommandBytes {
			large = f.gen(policy.DefaultMaxCommandBytes / len(f.gen(1)) / 2)
		}
		cs, as := decideCost(e, small)
		cl, al := decideCost(e, large)
		perS, perL := cs/float64(len(small)), cl/float64(len(large))
		aperS, aperL := as/float64(len(small)), al/float64(len(large))
		t.Logf("%-28s %6d→%6d bytes: %7.0f→%7.0f ns/byte, %6.0f→%6.0f B/byte", f.name, len(small), len(large), perS, perL, aperS, aperL)
		if perL > growthLimit*perS && cl > 50e6 {
			t.Errorf("%s: CPU per byte grows %.1f× from %d to %d bytes (%s)", f.name, perL/perS, len(small), len(large), time.Duration(cl))
		}
		if aperL > growthLimit*aperS && al > 16<<20 {
			t.Errorf("%s: allocation per byte grows %.1f× from %d to %d bytes (%.0f MB)", f.name, aperL/aperS, len(small), len(large), al/1e6)
		}
	}
}

// lead is what a construct follows: a command name for a word, a
// redirection or an expansion, nothing for a statement.
func lead(unit string) string {
	for _, end := range []string{"; ", "&& ", "| ", "\n"} {
		if strings.HasSuffix(unit, end) {
			return ""
		}
	}
	return "a "
}

// decideCost decides src in yolo mode and returns the best of five runs'
// wall time (ns) and the allocation of one (bytes).
func decideCost(e *policy.Engine, src string) (ns, alloc float64) {
	call := &toolgate.Call{Tool: "Bash", Args: map[string]any{"command": src}, Cwd: "/home/user/proj"}
	var d toolgate.Decision
	best := time.Duration(1 << 62)
	for range 5 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		before := ms.TotalAlloc
		t0 := time.Now()
		e.Decide(call, policy.Env{Mode: toolgate.ModeYolo}, &d)
		best = min(best, time.Since(t0))
		runtime.ReadMemStats(&ms)
		alloc = float64(ms.TotalAlloc - before)
	}
	if len(d.Subjects) > toolgate.MaxSubjects {
		panic(fmt.Sprintf("decision of %d bytes lists %d subjects", len(src), len(d.Subjects)))
	}
	return float64(best), alloc
}
