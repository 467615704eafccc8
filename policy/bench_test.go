package policy_test

import (
	"fmt"
	"path"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
)

// benchRules generates n rules the way a large workspace looks: a catch-all,
// then rules over 50 tool names with path globs and every action.
func benchRules(n, tools int) []policy.Rule {
	actions := []toolgate.Action{toolgate.Allow, toolgate.Deny, toolgate.Ask}
	exts := []string{"go", "md", "txt", "log"}
	rules := []policy.Rule{{Tool: "*", Action: toolgate.Ask, Source: policy.Source{File: "bench", Line: 1}}}
	for i := 1; i < n; i++ {
		rules = append(rules, policy.Rule{
			Tool:    fmt.Sprintf("tool_%d", i%tools),
			Pattern: fmt.Sprintf("/srv/app%d/*.%s", i, exts[i%len(exts)]),
			Action:  actions[i%len(actions)],
			Source:  policy.Source{File: "bench", Line: i + 1},
		})
	}
	return rules
}

func benchEngine(b *testing.B, rules []policy.Rule) *policy.Engine {
	b.Helper()
	// Declare every tool a file reader, so its path argument is the
	// subject the path globs match.
	tools := map[string]policy.ToolSpec{}
	for _, r := range rules {
		if r.Tool != "*" {
			tools[r.Tool] = policy.ToolSpec{Kind: policy.KindRead, Tier: toolgate.TierRead, Args: []string{"path"}}
		}
	}
	e, err := policy.New([]*policy.Document{{Path: "bench", Rules: rules, Tools: tools}})
	if err != nil {
		b.Fatal(err)
	}
	return e
}

// BenchmarkDecide decides a non-shell call whose matching rule sits in the
// middle of the set; the decision is reused, as a server's worker would.
func BenchmarkDecide(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		for _, spread := range []struct {
			name  string
			tools int
		}{{"tools=50", 50}, {"tools=1", 1}} {
			b.Run(fmt.Sprintf("rules=%d/%s", n, spread.name), func(b *testing.B) {
				rules := benchRules(n, spread.tools)
				e := benchEngine(b, rules)
				target := rules[n/2]
				call := &toolgate.Call{
					Tool: target.Tool,
					Args: map[string]any{"path": fmt.Sprintf("/srv/app%d/x%s", n/2, path.Ext(target.Pattern))},
				}
				var d toolgate.Decision
				e.Decide(call, policy.Env{}, &d)
				if d.Rule == nil || d.Rule.Source != target.Source.String() {
					b.Fatalf("decided by %+v, want the rule at %s", d.Rule, target.Source)
				}
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					e.Decide(call, policy.Env{}, &d)
				}
			})
		}
	}
}

// BenchmarkDecideShell decides a three-command pipeline under the default
// rules plus allow rules for its commands.
func BenchmarkDecideShell(b *testing.B) {
	doc := &policy.Document{Path: "bench", Rules: []policy.Rule{
		{Tool: "Bash", Pattern: "git log *", Action: toolgate.Allow},
		{Tool: "Bash", Pattern: "grep *", Action: toolgate.Allow},
		{Tool: "Bash", Pattern: "head *", Action: toolgate.Allow},
	}}
	e, err := policy.New([]*policy.Document{policy.DefaultDocument(), doc})
	if err != nil {
		b.Fatal(err)
	}
	call := &toolgate.Call{Tool: "Bash", Args: map[string]any{"command": "git log --oneline | grep fix | head -5"}}
	var d toolgate.Decision
	e.Decide(call, policy.Env{}, &d)
	if d.Action != toolgate.Allow {
		b.Fatalf("pipeline decided %s: %s", d.Action, d.Reason)
	}
	b.ReportAllocs()
	for b.Loop() {
		e.Decide(call, policy.Env{}, &d)
	}
}

// TestDecideDoesNotAllocate checks call by call, since an average over a
// benchmark hides a call kind that allocates.
func TestDecideDoesNotAllocate(t *testing.T) {
	rules := append(benchRules(100, 10), policy.Rule{Tool: "mcp__gh__*", Action: toolgate.Allow, Source: policy.Source{File: "x"}})
	tools := map[string]policy.ToolSpec{}
	for _, r := range rules {
		if strings.HasPrefix(r.Tool, "tool_") {
			tools[r.Tool] = policy.ToolSpec{Kind: policy.KindRead, Tier: toolgate.TierRead, Args: []string{"path"}}
		}
	}
	e, err := policy.New([]*policy.Document{policy.DefaultDocument(), {Path: "bench", Rules: rules, Tools: tools}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []*toolgate.Call{
		{Tool: "tool_3", Args: map[string]any{"path": "/srv/app3/x.log"}},
		{Tool: "Read", Args: map[string]any{"file_path": "/home/u/.env"}},
		{Tool: "read_file", Args: map[string]any{"path": "src/main.go"}},
		{Tool: "mcp__gh__create_issue", Args: map[string]any{"title": "x"}},
		{Tool: "mcp__other__thing"},
		{Tool: "WebFetch", Args: map[string]any{"url": "https://example.com/x"}},
		{Tool: "mcp__gh__get_file_contents", Args: map[string]any{"path": "src/main.go", "repo": "r"}},
		{Tool: "mcp__gh__edit_file", Args: map[string]any{"edits": []any{map[string]any{"path": "src/a.go", "newText": "x"}}}},
		{Tool: "mcp__gh__fetch", Args: map[string]any{"url": "https://docs.example.com/", "uri": "file:///srv/app3/x.log"}},
		{Tool: "Grep", Args: map[string]any{"pattern": "TODO", "path": "src"}},
		{Tool: "mcp__gh__api", Args: map[string]any{"endpoint": "/repos/o/r/issues", "asset_path": "dist/a.tgz"}},
	} {
		var d toolgate.Decision
		e.Decide(c, policy.Env{}, &d)
		if n := testing.AllocsPerRun(50, func() { e.Decide(c, policy.Env{}, &d) }); n != 0 {
			t.Errorf("%s allocates %v times per decision", c.Tool, n)
		}
	}
}

// BenchmarkDecideDefaults decides calls against the built-in defaults
// alone, as the hook does with no config: file tools go through the
// $CREDENTIALS class lookup and the $WORKSPACE root check.
func BenchmarkDecideDefaults(b *testing.B) {
	e, err := policy.New([]*policy.Document{policy.DefaultDocument()}, policy.WithHome("/home/u"))
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []*toolgate.Call{
		{Tool: "Read", Args: map[string]any{"file_path": "/work/app/src/main.go"}, Cwd: "/work/app"},
		{Tool: "Read", Args: map[string]any{"file_path": "/home/u/.ssh/id_rsa"}, Cwd: "/work/app"},
		{Tool: "Edit", Args: map[string]any{"file_path": "src/main.go"}, Cwd: "/work/app"},
		{Tool: "Write", Args: map[string]any{"file_path": "/etc/hosts"}, Cwd: "/work/app"},
		{Tool: "Bash", Args: map[string]any{"command": "cat README.md | head -5"}, Cwd: "/work/app"},
	} {
		name := c.Tool
		for _, v := range c.Args {
			name += "/" + strings.ReplaceAll(fmt.Sprint(v), "/", "_")
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var d toolgate.Decision
			for b.Loop() {
				e.Decide(c, policy.Env{}, &d)
			}
		})
	}
}

// BenchmarkDecideShellGlob decides a command line with glob operands
// (pattern subjects: rules and the sensitive and critical path tables
// compared with each glob): under a policy that allows every command and
// file (allow-all), and under one that allows only the command, where
// each glob is also compared with the defaults' floating read and write
// rules ("*secret*", "*.env.*") and found not to aim at them (defaults).
func BenchmarkDecideShellGlob(b *testing.B) {
	allowAll := &policy.Document{Path: "bench", Rules: []policy.Rule{
		{Tool: "Bash", Pattern: "*", Action: toolgate.Allow},
		{Tool: "Read", Pattern: "*", Action: toolgate.Allow},
		{Tool: "Write", Pattern: "*", Action: toolgate.Allow},
	}}
	bashOnly := &policy.Document{Path: "bench", Rules: []policy.Rule{
		{Tool: "Bash", Pattern: "*", Action: toolgate.Allow},
	}}
	for _, bc := range []struct {
		name string
		doc  *policy.Document
	}{{"allow-all", allowAll}, {"defaults", bashOnly}} {
		b.Run(bc.name, func(b *testing.B) {
			e, err := policy.New([]*policy.Document{policy.DefaultDocument(), bc.doc}, policy.WithHome("/home/u"))
			if err != nil {
				b.Fatal(err)
			}
			call := &toolgate.Call{Tool: "Bash", Cwd: "/home/u/proj", Args: map[string]any{"command": "rm -f build/*.o && wc -l src/*.go"}}
			var d toolgate.Decision
			e.Decide(call, policy.Env{}, &d)
			if d.Action != toolgate.Allow {
				b.Fatalf("glob command decided %s: %s", d.Action, d.Reason)
			}
			b.ReportAllocs()
			for b.Loop() {
				e.Decide(call, policy.Env{}, &d)
			}
		})
	}
}
