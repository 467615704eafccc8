package server

import (
	"bufio"
	"fmt"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
)

// An agent that invents tool names cannot grow the metrics without bound:
// past maxToolSeries pairs, new ones count as other.
func TestToolSeriesBounded(t *testing.T) {
	t.Parallel()
	var c toolCounts
	for i := range maxToolSeries + 500 {
		c.add("w", fmt.Sprintf("mcp__x__tool%d", i), toolgate.Ask)
	}
	c.add("", "Bash", toolgate.Deny)
	if len(c.m) != maxToolSeries+1 {
		t.Fatalf("%d series, want %d and other", len(c.m), maxToolSeries)
	}
	var b strings.Builder
	w := bufio.NewWriter(&b)
	c.write(w)
	w.Flush()
	if !strings.Contains(b.String(), `toolgate_tool_decisions_total{workspace="other",tool="other",action="ask"} 500`) ||
		!strings.Contains(b.String(), `toolgate_tool_decisions_total{workspace="other",tool="other",action="deny"} 1`) {
		t.Errorf("overflow not counted as other:\n%s", b.String()[len(b.String())-400:])
	}
}
