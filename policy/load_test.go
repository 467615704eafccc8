package policy

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
)

// rulesText renders rules compactly: `Tool "pattern" action @line`.
func rulesText(rs []Rule) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		s := fmt.Sprintf("%s %q %s @%d", r.Tool, r.Pattern, r.Action, r.Source.Line)
		for _, c := range r.When {
			s += fmt.Sprintf(" when %s=%q", c.Arg, c.Pattern)
		}
		if r.Reason != "" {
			s += fmt.Sprintf(" (%s)", r.Reason)
		}
		out[i] = s
	}
	return out
}

func wantRules(t *testing.T, got []Rule, want ...string) {
	t.Helper()
	g := rulesText(got)
	if !slices.Equal(g, want) {
		t.Errorf("rules:\n got %s\nwant %s", strings.Join(g, "\n     "), strings.Join(want, "\n     "))
	}
}

func modePtr(m toolgate.Mode) *toolgate.Mode { return &m }

func TestLoadErrorString(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		e    LoadError
		want string
	}{
		{LoadError{File: "a.yaml", Line: 12, Col: 5, Msg: "bad"}, "a.yaml:12:5: bad"},
		{LoadError{File: "a.yaml", Line: 12, Msg: "bad"}, "a.yaml:12: bad"},
		{LoadError{File: "a.yaml", Col: 3, Msg: "bad"}, "a.yaml: bad"},
		{LoadError{File: "a.yaml", Msg: "bad"}, "a.yaml: bad"},
		{LoadError{Msg: "bad"}, "bad"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.e, got, tc.want)
		}
	}
}

func TestLoadWorkspaceSeeds(t *testing.T) {
	t.Parallel()
	defaults := []string{
		`* "*" ask @2`,
		`read_file "*" allow @4`,
		`read_file "*.env" deny @5`,
		`read_file "*.env.*" deny @6`,
		`read_file "*credentials*" deny @7`,
		`read_file "*secret*" deny @8`,
		`read_file "*.env.example" allow @9`,
		`write_file "*" allow @11`,
		`write_file "*.env" deny @11`,
		`write_file "*.env.*" deny @11`,
		`edit_file "*" allow @12`,
		`edit_file "*.env" deny @12`,
		`edit_file "*.env.*" deny @12`,
		`glob "*" allow @13`,
		`grep "*" allow @14`,
		`skill "*" ask @15`,
		`shell_exec "*" ask @16`,
	}
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"seed001_default.jsonc", defaults},
		{"seed001_file_format.jsonc", []string{
			`* "*" ask @14`,
			`read_file "*" allow @16`,
			`read_file "*.env" deny @17`,
			`read_file "*.env.*" deny @18`,
			`read_file "*credentials*" deny @19`,
			`read_file "*secret*" deny @20`,
			`read_file "*.env.example" allow @21`,
			`glob "*" allow @23`,
			`grep "*" allow @24`,
			`shell_exec "*" ask @25`,
		}},
		{"seed001_disable_all.jsonc", []string{`* "*" allow @2`}},
		{"seed001_disable_keep_deny.jsonc", []string{
			`read_file "*" allow @3`,
			`read_file "*.env" deny @4`,
			`read_file "*credentials*" deny @5`,
			`write_file "*" allow @7`,
			`write_file "*.env" deny @7`,
			`edit_file "*" allow @8`,
			`edit_file "*.env" deny @8`,
			`glob "*" allow @9`,
			`grep "*" allow @10`,
			`skill "*" allow @11`,
			`shell_exec "*" allow @12`,
		}},
		{"seed001_manual_edits.jsonc", []string{
			`shell_exec "*" ask @3`,
			`shell_exec "git status" allow @3`,
			`shell_exec "bun test *" allow @3`,
			`my_tool "*" allow @4`,
			`write_file "*" allow @5`,
			`write_file "*.env" deny @5`,
			`write_file "/etc/*" deny @5`,
			`read_file "~/projects/*" allow @6`,
			`read_file "$HOME/.ssh/*" deny @6`,
			`shell_exec "git push *" deny @8`,
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join("testdata", "load", "good", tc.file)
			doc, err := LoadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !doc.Workspace || doc.Path != path || doc.Mode != nil || len(doc.Tests) != 0 {
				t.Errorf("doc = %+v", doc)
			}
			for _, r := range doc.Rules {
				if r.Source.File != path {
					t.Errorf("source %v, want file %s", r.Source, path)
				}
			}
			wantRules(t, doc.Rules, tc.want...)
		})
	}
}

func TestLoadWorkspaceTests(t *testing.T) {
	t.Parallel()
	path := filepath.Join("testdata", "load", "good", "workspace_tests.jsonc")
	doc, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	wantRules(t, doc.Rules,
		`* "*" ask @2`,
		`read_file "*" allow @3`,
		`read_file "*.env" deny @3`,
		`shell_exec "git status" allow @4`,
	)
	want := []Test{
		{
			Name:   "env files are secret",
			Call:   toolgate.Call{Tool: "read_file", Args: map[string]any{"path": ".env"}},
			Expect: toolgate.Deny,
			Source: Source{File: path, Line: 6},
		},
		{
			Call: toolgate.Call{
				Tool: "shell_exec",
				Args: map[string]any{"command": "git status", "timeout": float64(30), "bg": false, "x": nil,
					"list": []any{float64(1), "a"}},
				Agent: "explore", Cwd: "/work", Tier: toolgate.TierWrite, Session: "s1", Workspace: "w1",
			},
			Mode:   modePtr(toolgate.ModeAutoEdit),
			Expect: toolgate.Allow,
			Source: Source{File: path, Line: 11},
		},
	}
	if !reflect.DeepEqual(doc.Tests, want) {
		t.Errorf("tests:\n got %#v\nwant %#v", doc.Tests, want)
	}
}

func TestLoadConfigSeeds(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "load", "good")

	t.Run("seed002", func(t *testing.T) {
		t.Parallel()
		doc, err := LoadFile(filepath.Join(dir, "seed002_host.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if doc.Workspace {
			t.Error("Workspace = true for a config")
		}
		wantRules(t, doc.Rules,
			`read_file "*" allow @4`,
			`Bash "git status" allow @5`,
			`Bash "git diff *" allow @6`,
			`write_file "*" allow @7 when file_path="*.md"`,
		)
	})

	t.Run("seed003", func(t *testing.T) {
		t.Parallel()
		doc, err := LoadFile(filepath.Join(dir, "seed003_approval.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if doc.Mode == nil || *doc.Mode != toolgate.ModeAutoEdit {
			t.Errorf("mode = %v, want auto-edit", doc.Mode)
		}
		wantRules(t, doc.Rules,
			`bash "*" ask @4`,
			`read "*" allow @5`,
			`mcp__filesystem__delete "*" deny @6`,
		)
	})

	t.Run("empty", func(t *testing.T) {
		t.Parallel()
		doc, err := LoadFile(filepath.Join(dir, "empty.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(doc, &Document{Path: filepath.Join(dir, "empty.yaml")}) {
			t.Errorf("doc = %+v", doc)
		}
	})
}

func TestLoadConfigFull(t *testing.T) {
	t.Parallel()
	path := filepath.Join("testdata", "load", "good", "config_full.yaml")
	doc, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(filepath.Dir(path))
	_ = abs
	if doc.Mode == nil || *doc.Mode != toolgate.ModeAutoEdit {
		t.Errorf("mode = %v", doc.Mode)
	}
	wantRules(t, doc.Rules,
		// rules:
		`read_file "*" allow @5`,
		`Bash "git status" allow @6`,
		`Bash "git diff *" allow @7`,
		`write_file "*" allow @8 when content="*TODO*" when file_path="*.md"`,
		`Bash "rm *" deny @12 (no deleting files)`,
		`Bash "curl *" ask @16`,
		// permissions: allow, ask, deny whatever their order in the file
		`Bash "npm run test *" allow @23`,
		`WebFetch "domain:example.com" ask @25`,
		`Read ".env" deny @21`,
		// tools.approval last
		`bash "*" ask @29`,
		`send_email "*" deny @30`,
	)
	wantTools := map[string]ToolSpec{
		"run_sql":    {Kind: KindNone, Tier: toolgate.TierExec, Source: Source{path, 32}},
		"fetch_page": {Kind: KindURL, Tier: toolgate.TierRead, Args: []string{"url", "href"}, Source: Source{path, 35}},
		"ask_human":  {Kind: KindNone, Question: true, Source: Source{path, 39}},
	}
	if !reflect.DeepEqual(doc.Tools, wantTools) {
		t.Errorf("tools:\n got %+v\nwant %+v", doc.Tools, wantTools)
	}
	if len(doc.Agents) != 2 || doc.Agents["general"] != nil {
		t.Errorf("agents = %+v", doc.Agents)
	}
	wantRules(t, doc.Agents["explore"],
		`* "*" deny @44`,
		`read_file "*" allow @45`,
		`Bash "git *" allow @47`,
		`Bash "git push *" deny @48`,
	)
	wantRules(t, doc.Managed, `read_file "~/.config/toolgate/*" deny @53`)
	if want := map[string]int{"make": 2, "docker compose": 3}; !reflect.DeepEqual(doc.Arity, want) {
		t.Errorf("arity = %v, want %v", doc.Arity, want)
	}
	if want := []string{"AskUserQuestion", "ask_human"}; !slices.Equal(doc.QuestionTools, want) {
		t.Errorf("question tools = %v, want %v", doc.QuestionTools, want)
	}
	wantTests := []Test{
		{
			Name:   "markdown writes are fine",
			Call:   toolgate.Call{Tool: "write_file", Args: map[string]any{"file_path": "README.md", "content": "TODO: more"}},
			Expect: toolgate.Allow,
			Source: Source{path, 62},
		},
		{
			Call:   toolgate.Call{Tool: "Bash", Args: map[string]any{"command": "rm -rf build"}, Tier: toolgate.TierExec},
			Mode:   modePtr(toolgate.ModeYolo),
			Expect: toolgate.Deny,
			Source: Source{path, 67},
		},
	}
	if !reflect.DeepEqual(doc.Tests, wantTests) {
		t.Errorf("tests:\n got %#v\nwant %#v", doc.Tests, wantTests)
	}
}

func TestParseConfigYAMLScalars(t *testing.T) {
	t.Parallel()
	// YAML 1.1 booleans stay strings where a string is expected, and
	// numbers are read as their text.
	doc, err := ParseConfig("c.yaml", []byte("rules:\n  - yes\n  - tool: \"on\"\n    pattern: 123\nagents:\n  no:\n    off: deny\n"))
	if err != nil {
		t.Fatal(err)
	}
	wantRules(t, doc.Rules, `yes "*" allow @2`, `on "123" allow @3`)
	wantRules(t, doc.Agents["no"], `off "*" deny @7`)

	// Anchors and aliases work where they make sense.
	doc, err = ParseConfig("c.yaml", []byte("agents:\n  explore: &ro\n    \"*\": deny\n    read_file: allow\n  plan: *ro\n"))
	if err != nil {
		t.Fatal(err)
	}
	wantRules(t, doc.Agents["plan"], `* "*" deny @3`, `read_file "*" allow @4`)
}

func TestParseConfigModeSources(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		src  string
		want toolgate.Mode
	}{
		{"mode: --yolo\n", toolgate.ModeYolo},
		{"mode: Force\n", toolgate.ModeYolo},
		{"mode: event-based\n", toolgate.ModeDefault},
		{"tools:\n  approvalMode: always-ask\n", toolgate.ModeReadOnly},
		{"permissions:\n  defaultMode: dontAsk\n", toolgate.ModeDontAsk},
		{"permissions:\n  defaultMode: plan\n", toolgate.ModeReadOnly},
		{"mode: yolo\ntools:\n  approvalMode: auto-approve\n", toolgate.ModeYolo}, // agree: fine
	} {
		doc, err := ParseConfig("c.yaml", []byte(tc.src))
		if err != nil {
			t.Errorf("%q: %v", tc.src, err)
			continue
		}
		if doc.Mode == nil || *doc.Mode != tc.want {
			t.Errorf("%q: mode %v, want %v", tc.src, doc.Mode, tc.want)
		}
	}
}

// TestLoadBad loads every file in testdata/load/bad. The first line of each
// says the error it must give, after "want:", without the file name.
func TestLoadBad(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "load", "bad", "*"))
	if err != nil || len(files) == 0 {
		t.Fatal("no bad documents", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(string(src), "\n")
			_, want, _ := strings.Cut(first, "want:")
			want = strings.TrimSpace(want)
			if filepath.Ext(path) == ".txt" {
				want = `unknown rules file type ".txt" (want .jsonc, .json, .yaml or .yml)`
			}
			_, err = LoadFile(path)
			var le *LoadError
			if !errors.As(err, &le) {
				t.Fatalf("got %v (%T), want a *LoadError", err, err)
			}
			if le.File != path {
				t.Errorf("File = %q, want %q", le.File, path)
			}
			if got := strings.TrimPrefix(err.Error(), path+":"); strings.TrimSpace(got) != want {
				t.Errorf("got  %s\nwant %s:%s", err, path, want)
			}
		})
	}
}

func TestLoadFileIOError(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "missing.jsonc")
	_, err := LoadFile(path)
	var le *LoadError
	if !errors.As(err, &le) || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("got %v, want a *LoadError wrapping fs.ErrNotExist", err)
	}
	if want := path + ": cannot open: no such file or directory"; err.Error() != want {
		t.Errorf("got %q, want %q", err, want)
	}
}

func TestLoadFileDetectsFormat(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, src string
		workspace bool
		rules     []string
	}{
		// A tool called "model" or "env" in a workspace document stays a tool.
		{"w.json", `{"model": "allow", "env": {"*": "deny"}}`, true, []string{`model "*" allow @1`, `env "*" deny @1`}},
		{"c.json", `{"model": "opus"}`, false, nil},
		{"c2.jsonc", `{"env": {"A": "1"}, "permissions": {"deny": ["Bash"]}}`, false, []string{`Bash "*" deny @1`}},
		{"c3.json", `{"$schema": "https://json.schemastore.org/claude-code-settings.json"}`, false, nil},
		{"c4.JSON", `{"hooks": {}, "permissions": {"allow": ["Read"]}}`, false, []string{`Read "*" allow @1`}},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, []byte(tc.src), 0o600); err != nil {
			t.Fatal(err)
		}
		doc, err := LoadFile(path)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if doc.Workspace != tc.workspace {
			t.Errorf("%s: Workspace = %v, want %v", tc.name, doc.Workspace, tc.workspace)
		}
		wantRules(t, doc.Rules, tc.rules...)
	}
}

func TestParseWorkspaceErrorsPlain(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ src, want string }{
		{`{"a": "allow"} x`, `w.jsonc:1:16: invalid JSONC: invalid character 'x' after top-level value`},
		{"{\n  \"é\": \"nope\"\n}", `w.jsonc:2:8: é: invalid action "nope" (want allow, ask, deny or sandbox)`},
		{`{"a": null}`, `w.jsonc:1:7: a: want an action ("allow", "ask", "deny" or "sandbox") or an object of "pattern": "action", got nothing (null)`},
		{`{"a": {"*": true}}`, `w.jsonc:1:13: a: "*": want an action (allow, ask, deny or sandbox), got the boolean true`},
		{`"allow"`, `w.jsonc:1:1: top level: want an object mapping tool names to actions, got the string "allow"`},
	} {
		_, err := ParseWorkspace("w.jsonc", []byte(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.src, err, tc.want)
		}
	}
}

func TestDocumentClone(t *testing.T) {
	t.Parallel()
	doc, err := LoadFile(filepath.Join("testdata", "load", "good", "config_full.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	c := doc.Clone()
	if !reflect.DeepEqual(c, doc) {
		t.Fatal("clone differs")
	}
	c.Rules[3].When[0].Pattern = "x"
	c.Agents["explore"][0].Action = toolgate.Allow
	c.Tests[0].Call.Args["file_path"] = "x"
	*c.Mode = toolgate.ModeYolo
	c.Arity["make"] = 9
	if reflect.DeepEqual(c, doc) || doc.Rules[3].When[0].Pattern == "x" || doc.Agents["explore"][0].Action == toolgate.Allow ||
		doc.Tests[0].Call.Args["file_path"] == "x" || *doc.Mode == toolgate.ModeYolo || doc.Arity["make"] == 9 {
		t.Error("clone shares memory with the original")
	}
}

// TestDocsExamples checks that the examples in docs/rules.md load.
func TestDocsExamples(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("..", "docs", "rules.md"))
	if err != nil {
		t.Skip("docs/rules.md not found:", err)
	}
	parts := strings.Split(string(b), "```")
	n := 0
	for i := 1; i < len(parts); i += 2 {
		lang, body, _ := strings.Cut(parts[i], "\n")
		switch {
		case lang == "jsonc" && strings.HasPrefix(strings.TrimSpace(body), `"`):
			continue // a fragment of a document
		case lang == "jsonc":
			_, err = ParseWorkspace("rules.md", []byte(body))
		case lang == "yaml":
			_, err = ParseConfig("rules.md", []byte(body))
		case lang == "json":
			_, err = ParseClaudeSettings("/p/.claude/settings.json", []byte(body))
		default:
			continue
		}
		n++
		if err != nil {
			t.Errorf("example %d (%s): %v", i/2+1, lang, err)
		}
	}
	if n < 5 {
		t.Errorf("only %d examples found", n)
	}
}

func TestParseConfigAliasBomb(t *testing.T) {
	t.Parallel()
	src := "x: &a0 [1,1,1,1,1,1,1,1,1,1]\n"
	for i := 1; i < 12; i++ {
		src += fmt.Sprintf("x%d: &a%d [%s*a%d]\n", i, i, strings.Repeat(fmt.Sprintf("*a%d,", i-1), 9), i-1)
	}
	_, err := ParseConfig("bomb.yaml", []byte(src))
	if err == nil || !strings.Contains(err.Error(), "document too large") {
		t.Errorf("got %v, want a too-large error", err)
	}
}
