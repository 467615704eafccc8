package shell

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestZZDebug(t *testing.T) {
	src := os.Getenv("SRC")
	if src == "" {
		t.Skip()
	}
	a := New(WithHome("/home/me"))
	for _, s := range strings.Split(src, "\n---\n") {
		res, err := a.Analyze(s)
		fmt.Printf("### %s\nerr=%v\n", s, err)
		if res == nil {
			continue
		}
		for _, c := range res.Commands {
			b, _ := json.Marshal(c)
			p, ok := a.Suggest(c)
			fmt.Printf("  C %s  suggest=%q,%v\n", b, p, ok)
		}
		for _, f := range res.Files {
			b, _ := json.Marshal(f)
			fmt.Printf("  F %s\n", b)
		}
		for _, r := range res.Risks {
			fmt.Printf("  R %s %s: %s [%s]\n", r.Severity, r.Code, r.Reason, r.Subject)
		}
	}
}
