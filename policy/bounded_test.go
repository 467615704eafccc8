package policy_test

import (
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
)

// TestDecideBounded decides 60 KB commands whose operands once made the
// decision take seconds and 420 MB (issue 13: 18 commands of "xargs xargs
// …" each with 10,000 operands checked against the file rules): the
// decision stays within a bound of allocation and asks. It measures
// allocation, so it is not parallel.
func TestDecideBounded(t *testing.T) {
	e, err := policy.New([]*policy.Document{policy.DefaultDocument()})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		src  string
		past bool // past the budget: asks even in yolo
	}{
		{strings.Repeat("xargs ", 10000) + "x", true},
		{strings.Repeat("sudo ", 10000) + "x", true},
		{"mytool" + distinctWords(8000), true},            // operands of a command the tables do not know
		{"mytool" + strings.Repeat(" f.c", 16000), false}, // one operand, written 16,000 times: one subject
		{"ls" + strings.Repeat(" f", 30000), false},       // within: ls reads no file operand
		{strings.Repeat("cat f;", 10000), true},
		{"echo " + strings.Repeat("$(", 20000) + "x" + strings.Repeat(")", 20000), true},
	} {
		src := c.src
		call := &toolgate.Call{Tool: "Bash", Args: map[string]any{"command": src}}
		var d toolgate.Decision
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		before := ms.TotalAlloc
		e.Decide(call, policy.Env{Mode: toolgate.ModeYolo}, &d)
		runtime.ReadMemStats(&ms)
		if alloc := ms.TotalAlloc - before; alloc > 64<<20 {
			t.Errorf("%.20q…: %d bytes allocated deciding %d bytes", src, alloc, len(src))
		}
		budget := false
		for _, r := range d.Risks {
			budget = budget || r.Code == "analysis-budget"
		}
		if c.past && (d.Action != toolgate.Ask || !budget) || !c.past && budget {
			t.Errorf("%.20q…: %s (%s), budget risk %v, want %v", src, d.Action, d.Reason, budget, c.past)
		}
	}
}

// distinctWords returns n distinct words, each after a space.
func distinctWords(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(" f")
		b.WriteString(strconv.Itoa(i))
		b.WriteString(".c") // shaped like a file: a plain name is no operand to check
	}
	return b.String()
}
