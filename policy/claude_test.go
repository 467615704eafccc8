package policy

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
)

func TestClaudeSettingsFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join("testdata", "load", "good", "claude", "project", ".claude", "settings.json")
	doc, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs(filepath.Join("testdata", "load", "good", "claude", "project"))
	if err != nil {
		t.Fatal(err)
	}
	root = filepath.ToSlash(root)
	if doc.Workspace || doc.Path != path {
		t.Errorf("Workspace = %v, Path = %q", doc.Workspace, doc.Path)
	}
	if doc.Mode == nil || *doc.Mode != toolgate.ModeAutoEdit {
		t.Errorf("mode = %v, want auto-edit (acceptEdits)", doc.Mode)
	}
	wantRules(t, doc.Rules,
		`Bash "npm run lint" allow @9`,
		`Bash "npm run test *" allow @10`,
		`Bash "git diff *" allow @11`,
		`Read "~/.zshrc" allow @12`,
		`Edit "`+root+`/src/*" allow @13`,
		`Read "/etc/hosts" allow @14`,
		`Read "docs/*/*.md" allow @15`,
		`WebFetch "domain:example.com" allow @16`,
		`mcp__github__* "*" allow @17`,
		`mcp__puppeteer__puppeteer_navigate "*" allow @18`,
		`Task "Explore" allow @19`,
		`WebSearch "*" allow @20`,
		`Bash "git push *" ask @23`,
		`Write "*.lock" ask @24`,
		`Read ".env" deny @27`,
		`Read ".env.*" deny @28`,
		`Read "secrets/*" deny @29`,
		`Bash "curl *" deny @30`,
		`Bash "*" deny @31`,
	)
	for _, r := range doc.Rules {
		if r.Source.File != path {
			t.Errorf("source %v", r.Source)
		}
	}
}

func TestClaudeSettingsOutsideDotClaude(t *testing.T) {
	t.Parallel()
	path := filepath.Join("testdata", "load", "good", "claude", "settings.local.json")
	doc, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.Abs(filepath.Dir(path))
	wantRules(t, doc.Rules,
		`Read "`+filepath.ToSlash(root)+`/notes/*" allow @4`,
		`Edit "*" allow @4`,
	)
	if doc.Mode != nil {
		t.Errorf("mode = %v, want none", *doc.Mode)
	}
}

func TestClaudeEntryConversion(t *testing.T) {
	t.Parallel()
	const root = "/home/u/proj"
	for _, tc := range []struct {
		entry, tool, pattern string
	}{
		{"Bash", "Bash", "*"},
		{"Bash(npm run build)", "Bash", "npm run build"},
		{"Bash(npm run test:*)", "Bash", "npm run test *"},
		{"Bash(ls:*)", "Bash", "ls *"},
		{"Bash(:*)", "Bash", "*"},
		{"Bash(git diff *)", "Bash", "git diff *"},
		{"Bash(echo (hi))", "Bash", "echo (hi)"},
		{`Bash(echo ")")`, "Bash", `echo ")"`},
		{"Bash(echo it's (ok))", "Bash", "echo it's (ok)"},
		{"Read(//abs/path)", "Read", "/abs/path"},
		{"Read(~/x)", "Read", "~/x"},
		{"Read(./x)", "Read", "x"},
		{"Read(././x)", "Read", "x"},
		{"Read(x)", "Read", "x"},
		{"Read(/x)", "Read", root + "/x"},
		{"Read(/)", "Read", root + "/*"},
		{"Read(./)", "Read", "*"},
		{"Read(**)", "Read", "*"},
		{"Edit(**/*.ts)", "Edit", "*.ts"},
		{"Edit(src/**/*.ts)", "Edit", "src/*/*.ts"},
		{"Write(build/)", "Write", "build/*"},
		{"NotebookEdit(*.ipynb)", "NotebookEdit", "*.ipynb"},
		{"Grep(//var/log/**)", "Grep", "/var/log/*"},
		{"Glob(~/.ssh/**)", "Glob", "~/.ssh/*"},
		{"WebFetch(domain:example.com)", "WebFetch", "domain:example.com"},
		{"WebFetch", "WebFetch", "*"},
		{"mcp__github", "mcp__github__*", "*"},
		{"mcp__github__*", "mcp__github__*", "*"},
		{"mcp__github__create_issue", "mcp__github__create_issue", "*"},
		{"Task(code-reviewer)", "Task", "code-reviewer"},
		{"MyTool(some spec)", "MyTool", "some spec"},
		{"  Bash(ls)  ", "Bash", "ls"},
	} {
		r := &reader{file: "s.json", root: root}
		n := &docNode{kind: kScalar, tag: "str", text: tc.entry, line: 3, col: 7}
		got, err := r.claudeEntry(n, "permissions.allow[0]", toolgate.Allow)
		if err != nil {
			t.Errorf("%q: %v", tc.entry, err)
			continue
		}
		if got.Tool != tc.tool || got.Pattern != tc.pattern || got.Action != toolgate.Allow || got.Source != (Source{"s.json", 3}) {
			t.Errorf("%q: got %s %q %v %v, want %s %q", tc.entry, got.Tool, got.Pattern, got.Action, got.Source, tc.tool, tc.pattern)
		}
	}
}

func TestClaudeEntryErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ entry, want string }{
		{"", `empty entry (want Tool or Tool(specifier))`},
		{"   ", `empty entry`},
		{"Bash(", `unbalanced parentheses in "Bash("`},
		{"Bash(ls", `unbalanced parentheses in "Bash(ls"`},
		{"Bash)", `unbalanced parentheses in "Bash)"`},
		{"Bash(ls))", `unbalanced parentheses in "Bash(ls))"`},
		{"Bash(ls) x", `unbalanced parentheses`},
		{"Bash()", `empty specifier in "Bash()" (write Bash alone to match every call)`},
		{"(ls)", `missing tool name before "(" in "(ls)"`},
		{"Bash ls", `tool name "Bash ls" contains spaces`},
		{"Read(@(a|b))", `invalid pattern`},
	} {
		r := &reader{file: "s.json", root: "/p"}
		n := &docNode{kind: kScalar, tag: "str", text: tc.entry, line: 3, col: 7}
		_, err := r.claudeEntry(n, "permissions.deny[2]", toolgate.Deny)
		if err == nil || !strings.HasPrefix(err.Error(), "s.json:3:7: permissions.deny[2]: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want s.json:3:7: permissions.deny[2]: …%s…", tc.entry, err, tc.want)
		}
	}
}

func TestParseClaudeSettingsShapes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		src   string
		rules []string
		err   string
	}{
		{`{}`, nil, ""},
		{`{"permissions": {}}`, nil, ""},
		{`{"permissions": {"allow": null, "futureKey": 1}}`, nil, ""},
		{`{"permissions": {"deny": ["Bash(rm:*)"], "allow": ["Bash"]}}`, []string{`Bash "*" allow @1`, `Bash "rm *" deny @1`}, ""},
		{`{"permissions": []}`, nil, `s.json:1:17: permissions: want a mapping, got a list`},
		{`{"permissions": {"allow": [1]}}`, nil, `s.json:1:28: permissions.allow[0]: want a string, got the number 1`},
		{`[]`, nil, `s.json:1:1: top level: want a Claude Code settings object, got a list`},
	} {
		doc, err := ParseClaudeSettings("s.json", []byte(tc.src))
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s: got %v, want %s", tc.src, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		wantRules(t, doc.Rules, tc.rules...)
	}
}

func TestParseConfigClaudePermissions(t *testing.T) {
	t.Parallel()
	src := "permissions:\n  deny: [\"Read(/secrets/**)\"]\n  allow:\n    - Bash(make:*)\n  defaultMode: bypassPermissions\nrules:\n  - glob\n"
	doc, err := ParseConfig("/etc/toolgate/toolgate.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	wantRules(t, doc.Rules,
		`glob "*" allow @7`,
		`Bash "make *" allow @4`,
		`Read "/etc/toolgate/secrets/*" deny @2`,
	)
	if doc.Mode == nil || *doc.Mode != toolgate.ModeYolo {
		t.Errorf("mode = %v", doc.Mode)
	}
}
