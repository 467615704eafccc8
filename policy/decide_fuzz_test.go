package policy_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/shell"
)

// FuzzDecideShell checks the promises no rule can break, under the most
// permissive rules there are: a command the analysis finds a critical risk
// or an unprefixable construct the rules cannot see into in, or cannot
// analyse at all, is never allowed outside yolo.
func FuzzDecideShell(f *testing.F) {
	for _, cmd := range seedCommands(f) {
		f.Add(cmd)
	}
	doc, err := policy.ParseWorkspace("permissive.jsonc", []byte(`{"*": "allow", "read_file": "allow", "write_file": "allow"}`))
	if err != nil {
		f.Fatal(err)
	}
	e, err := policy.New([]*policy.Document{doc}, policy.WithHome("/home/user"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		call := &toolgate.Call{Tool: "Bash", Args: map[string]any{"command": cmd}}
		for _, mode := range []toolgate.Mode{toolgate.ModeDefault, toolgate.ModeAutoEdit, toolgate.ModeReadOnly} {
			var d toolgate.Decision
			e.Decide(call, policy.Env{Mode: mode}, &d)
			if d.Action == toolgate.NoAction {
				t.Fatalf("%q: no action", cmd)
			}
			if d.Action != toolgate.Allow {
				continue
			}
			for _, r := range d.Risks {
				if !judged(r) {
					t.Fatalf("%q allowed in %s despite risks %+v", cmd, mode, d.Risks)
				}
			}
			a, err := e.Shell().Analyze(cmd)
			if err != nil {
				t.Fatalf("%q allowed in %s though it cannot be analysed: %v", cmd, mode, err)
			}
			for _, r := range a.Risks {
				if !judged(r) {
					t.Fatalf("%q allowed in %s though the analysis found %+v", cmd, mode, a.Risks)
				}
			}
		}
	})
}

// judged reports whether a risk is a construct the rules judge (a
// substitution, a lone &: DESIGN §3.2), which binds grants only.
func judged(r toolgate.Risk) bool {
	return r.Severity == toolgate.SeverityUnprefixable && shell.JudgedByRules(r.Code)
}

// seedCommands collects every shell command of the decision cases.
func seedCommands(f *testing.F) []string {
	files, _ := filepath.Glob("testdata/decide/*.txtar")
	var cmds []string
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, af := range ar.Files {
			if af.Name != "cases" {
				continue
			}
			for _, line := range strings.Split(string(af.Data), "\n") {
				i := strings.Index(line, "{")
				if i < 0 || strings.HasPrefix(strings.TrimSpace(line), "#") {
					continue
				}
				var args map[string]any
				if json.NewDecoder(strings.NewReader(line[i:])).Decode(&args) == nil {
					if s, ok := args["command"].(string); ok {
						cmds = append(cmds, s)
					}
				}
			}
		}
	}
	if len(cmds) == 0 {
		f.Fatal("no seed commands")
	}
	return cmds
}
