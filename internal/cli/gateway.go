package cli

import (
	"encoding/json"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/present"
)

// callSummary renders a call's arguments on one line for a table.
func callSummary(c toolgate.Call) string {
	if cmd, ok := c.Args["command"].(string); ok {
		return clibase.OneLine(cmd)
	}
	for _, k := range []string{"file_path", "path", "url", "pattern", "name"} {
		if s, ok := c.Args[k].(string); ok {
			return s
		}
	}
	b, _ := json.Marshal(c.Args)
	s := string(b)
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// originLabel words a call's origin for a listing, "-" for none.
func originLabel(o string) string {
	if o == "" {
		return "-"
	}
	return present.Origin(o)
}
