package policy_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
)

// The decision cases live in testdata/decide/*.txtar. Each archive holds
// rule files (loaded in archive order like `toolgate check --rules`, after
// the built-in default document unless one is a workspace document), an
// optional agent.jsonc (the agent layer), an optional "grants" file (one
// JSON grant per line: {"layer","tool","pattern","prefix"}; grants are
// exact rules, as the broker makes them) and a "cases"
// file with one case per line:
//
//	EXPECT TOOL ARGS-JSON [mode=M] [agent=A] [cwd=D] [home=H] [env=K=V;K=V] [pathargs=A,B] [tier=T] [rule=SOURCE] [sandbox=yes|no]
//	    [reason~=TEXT] [risk=CODE] [suggest=PATTERN] [nosuggest]
//
// EXPECT is allow, ask or deny, or !allow for "anything but allow" (the
// attacker cases). Values with spaces are written with %20. The engine's
// home is testHome; home=H is the agent's home the call names.
const testHome = "/home/user"

type decideCase struct {
	line   int
	text   string
	expect string
	call   toolgate.Call
	mode   toolgate.Mode
	opts   map[string]string
	// vars is the environment the command runs in (env=K=V;K=V, or
	// env=- for one with nothing of interest set); nil: unknown.
	vars map[string]string
}

func TestDecide(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/decide/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no decision cases: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			engine, env, cases := loadArchive(t, file)
			for _, c := range cases {
				var d toolgate.Decision
				e := env
				e.Mode = c.mode
				if c.vars != nil {
					e.Vars = func(name string) (string, bool) {
						v, ok := c.vars[name]
						return v, ok
					}
				}
				engine.Decide(&c.call, e, &d)
				checkCase(t, file, c, &d)
			}
		})
	}
}

func checkCase(t *testing.T, file string, c decideCase, d *toolgate.Decision) {
	t.Helper()
	where := fmt.Sprintf("%s: cases line %d: %s", filepath.Base(file), c.line, c.text)
	got := d.Action.String()
	switch {
	case c.expect == "!allow":
		if d.Action == toolgate.Allow {
			t.Errorf("%s\n\tgot allow (%s), want anything but allow", where, d.Reason)
			return
		}
	case got != c.expect:
		t.Errorf("%s\n\tgot %s (%s), want %s\n\tsubjects: %s", where, got, d.Reason, c.expect, subjects(d))
		return
	}
	if want, ok := c.opts["rule"]; ok {
		if d.Rule == nil || !strings.HasSuffix(d.Rule.Source, want) {
			t.Errorf("%s\n\tdeciding rule %+v, want source %s", where, d.Rule, want)
		}
	}
	if want, ok := c.opts["reason~"]; ok && !strings.Contains(d.Reason, want) {
		t.Errorf("%s\n\treason %q does not contain %q", where, d.Reason, want)
	}
	if want, ok := c.opts["risk"]; ok {
		found := false
		for _, r := range d.Risks {
			found = found || r.Code == want
		}
		if !found {
			t.Errorf("%s\n\trisks %+v lack %s", where, d.Risks, want)
		}
	}
	if want, ok := c.opts["suggest"]; ok {
		found := false
		for _, s := range d.Suggestions {
			found = found || s.Pattern == want
		}
		if !found {
			t.Errorf("%s\n\tsuggestions %+v lack %q", where, d.Suggestions, want)
		}
	}
	if want, ok := c.opts["sandbox"]; ok && (d.Sandbox != nil) != (want == "yes") {
		t.Errorf("%s\n\tsandbox %+v, want %s (%s)\n\tsubjects: %s", where, d.Sandbox, want, d.Reason, subjects(d))
	}
	if _, ok := c.opts["nosuggest"]; ok && len(d.Suggestions) > 0 {
		t.Errorf("%s\n\tsuggestions %+v, want none", where, d.Suggestions)
	}
}

func subjects(d *toolgate.Decision) string {
	var b strings.Builder
	for _, s := range d.Subjects {
		fmt.Fprintf(&b, "[%s %q %s open=%v] ", s.Kind, s.Text, s.Action, s.Open)
	}
	return b.String()
}

func loadArchive(t *testing.T, file string) (*policy.Engine, policy.Env, []decideCase) {
	t.Helper()
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var docs []*policy.Document
	var agentFile, grantsText, casesText string
	haveWorkspace := false
	for _, f := range ar.Files {
		switch {
		case f.Name == "cases":
			casesText = string(f.Data)
			continue
		case f.Name == "grants":
			grantsText = string(f.Data)
			continue
		}
		if strings.TrimSpace(string(f.Data)) == "$SEED002" {
			// The document a seed-002 gateway seeds workspaces with.
			f.Data = policy.Seed002RulesJSONC()
		}
		p := filepath.Join(dir, f.Name)
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(f.Name, "agent.") {
			agentFile = p
			continue
		}
		d, err := policy.LoadFile(p)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		haveWorkspace = haveWorkspace || d.Workspace
		docs = append(docs, d)
	}
	if !haveWorkspace {
		docs = append([]*policy.Document{policy.DefaultDocument()}, docs...)
	}
	engine, err := policy.New(docs, policy.WithHome(testHome), policy.WithProtectedPaths(testHome+"/.config/toolgate"), policy.WithProtectedWrites("/usr/local/bin/toolgate"))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	var env policy.Env
	if agentFile != "" {
		d, err := policy.LoadFile(agentFile)
		if err != nil {
			t.Fatal(err)
		}
		if env.Agent, err = engine.Compile(toolgate.LayerAgent, d.Rules); err != nil {
			t.Fatal(err)
		}
	}
	env.Grants = compileGrants(t, engine, grantsText)
	return engine, env, parseCases(t, file, casesText, engine.Mode())
}

// compileGrants compiles the grants file into layers in merge order.
func compileGrants(t *testing.T, e *policy.Engine, text string) []*policy.Ruleset {
	t.Helper()
	order := []toolgate.Layer{toolgate.LayerGlobal, toolgate.LayerWorkspace, toolgate.LayerSession, toolgate.LayerTurn}
	byLayer := map[toolgate.Layer][]policy.Rule{}
	for i, line := range strings.Split(text, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var g struct {
			Layer   toolgate.Layer
			Tool    string
			Pattern string
			Prefix  bool
		}
		if err := json.Unmarshal([]byte(line), &g); err != nil {
			t.Fatalf("grants:%d: %v", i+1, err)
		}
		byLayer[g.Layer] = append(byLayer[g.Layer], policy.Rule{
			Tool: g.Tool, Exact: true, Pattern: g.Pattern, Prefix: g.Prefix, Action: toolgate.Allow,
			Source: policy.Source{File: fmt.Sprintf("grant:%d", i+1)},
		})
	}
	var layers []*policy.Ruleset
	for _, l := range order {
		rs, err := e.Compile(l, byLayer[l])
		if err != nil {
			t.Fatal(err)
		}
		layers = append(layers, rs)
	}
	return layers
}

func parseCases(t *testing.T, file, text string, defaultMode toolgate.Mode) []decideCase {
	t.Helper()
	var cases []decideCase
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c := decideCase{line: i + 1, text: line, mode: defaultMode, opts: map[string]string{}}
		expect, rest, _ := strings.Cut(line, " ")
		rest = strings.TrimSpace(rest)
		tool, rest, _ := strings.Cut(rest, " ")
		c.expect, c.call.Tool = expect, tool
		switch expect {
		case "allow", "ask", "deny", "!allow":
		default:
			t.Fatalf("%s: cases:%d: bad expectation %q", file, c.line, expect)
		}
		dec := json.NewDecoder(strings.NewReader(rest))
		var args map[string]any
		if err := dec.Decode(&args); err != nil {
			t.Fatalf("%s: cases:%d: args: %v", file, c.line, err)
		}
		c.call.Args = args
		tail := rest[dec.InputOffset():]
		for _, opt := range strings.Fields(tail) {
			k, v, _ := strings.Cut(opt, "=")
			v = strings.ReplaceAll(v, "%20", " ")
			switch k {
			case "mode":
				m, err := toolgate.ParseMode(v)
				if err != nil {
					t.Fatalf("%s: cases:%d: %v", file, c.line, err)
				}
				c.mode = m
			case "agent":
				c.call.Agent = v
			case "cwd":
				c.call.Cwd = v
			case "home":
				c.call.Home = v
			case "pathargs":
				c.call.PathArgs = strings.Split(v, ",")
			case "env":
				c.vars = map[string]string{}
				for _, kv := range strings.Split(v, ";") {
					if name, val, ok := strings.Cut(kv, "="); ok {
						c.vars[name] = val
					}
				}
			case "tier":
				if err := c.call.Tier.UnmarshalText([]byte(v)); err != nil {
					t.Fatal(err)
				}
			case "rule", "reason~", "risk", "suggest", "nosuggest", "sandbox":
				c.opts[k] = v
			default:
				t.Fatalf("%s: cases:%d: unknown option %q", file, c.line, k)
			}
		}
		cases = append(cases, c)
	}
	if len(cases) == 0 {
		t.Fatalf("%s: no cases", file)
	}
	return cases
}
