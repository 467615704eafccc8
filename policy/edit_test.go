package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
)

// checkAppend checks that out parses to the rules of src followed by r and
// keeps every comment of src.
func checkAppend(t *testing.T, src, out []byte, r Rule) {
	t.Helper()
	var old []Rule
	if strings.TrimSpace(string(src)) != "" {
		d, err := ParseWorkspace("old", src)
		if err != nil {
			t.Fatalf("old document: %v", err)
		}
		old = d.Rules
	}
	d, err := ParseWorkspace("new", out)
	if err != nil {
		t.Fatalf("edited document does not parse: %v\n%s", err, out)
	}
	if len(d.Rules) != len(old)+1 {
		t.Fatalf("edited document has %d rules, want %d\n%s", len(d.Rules), len(old)+1, out)
	}
	for i, o := range old {
		n := d.Rules[i]
		if n.Tool != o.Tool || n.Pattern != o.Pattern || n.Action != o.Action {
			t.Errorf("rule %d changed: %v -> %v", i, rulesText([]Rule{o}), rulesText([]Rule{n}))
		}
	}
	last := d.Rules[len(old)]
	want := r.Pattern
	if want == "" {
		want = "*"
	}
	if last.Tool != r.Tool || last.Exact != r.Exact || last.Pattern != want || last.Action != r.Action {
		t.Errorf("last rule = %v, want %s %q %v", rulesText([]Rule{last}), r.Tool, want, r.Action)
	}
	for _, c := range comments(src) {
		if !strings.Contains(string(out), c) {
			t.Errorf("comment %q lost\n%s", c, out)
		}
	}
	if strings.Contains(string(src), "\r\n") && strings.Count(string(out), "\n") != strings.Count(string(out), "\r\n") {
		t.Errorf("mixed line endings in a CRLF document: %q", out)
	}
}

// comments returns the comments of a JSONC text.
func comments(src []byte) []string {
	var out []string
	s := string(src)
	inStr := false
	for i := 0; i < len(s); i++ {
		switch {
		case inStr:
			if s[i] == '\\' {
				i++
			} else if s[i] == '"' {
				inStr = false
			}
		case s[i] == '"':
			inStr = true
		case strings.HasPrefix(s[i:], "//"):
			j := strings.IndexAny(s[i:], "\r\n")
			if j < 0 {
				j = len(s) - i
			}
			out = append(out, s[i:i+j])
			i += j
		case strings.HasPrefix(s[i:], "/*"):
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return out
			}
			out = append(out, s[i:i+2+j+2])
			i += j + 3
		}
	}
	return out
}

func TestAppendRule(t *testing.T) {
	t.Parallel()
	allow := func(tool, pat string) Rule { return Rule{Tool: tool, Pattern: pat, Action: toolgate.Allow} }
	for _, tc := range []struct {
		name    string
		src     string
		rule    Rule
		comment string
		want    string // the whole output, when given
	}{
		{
			name: "detailed last member", rule: allow("shell_exec", "git status"), comment: "approved by ann",
			src:  "{\n  \"*\": \"ask\",\n  \"shell_exec\": {\n    \"*\": \"ask\"\n  }\n}\n",
			want: "{\n  \"*\": \"ask\",\n  \"shell_exec\": {\n    \"*\": \"ask\",\n    // approved by ann\n    \"git status\": \"allow\"\n  }\n}\n",
		},
		{
			name: "simple last member becomes detailed", rule: allow("shell_exec", "git push *"),
			src:  "{\n  \"*\": \"ask\",\n  \"shell_exec\": \"ask\" // shell asks\n}\n",
			want: "{\n  \"*\": \"ask\",\n  \"shell_exec\": {\n    \"*\": \"ask\",\n    \"git push *\": \"allow\"\n  } // shell asks\n}\n",
		},
		{
			name: "new member for another tool", rule: Rule{Tool: "read_file", Pattern: "*.pem", Action: toolgate.Deny}, comment: "keys",
			src:  "{\n  \"*\": \"ask\",\n  \"glob\": \"allow\"\n}\n",
			want: "{\n  \"*\": \"ask\",\n  \"glob\": \"allow\",\n  // keys\n  \"read_file\": {\n    \"*.pem\": \"deny\"\n  }\n}\n",
		},
		{
			name: "comments after the last member", rule: allow("glob", "src/*"),
			src:  "{\n  \"grep\": \"allow\", // trailing comma and comment\n  // \"old\": \"allow\",\n  /* block */\n}\n// after\n",
			want: "{\n  \"grep\": \"allow\", // trailing comma and comment\n  // \"old\": \"allow\",\n  /* block */\n  \"glob\": {\n    \"src/*\": \"allow\"\n  }\n}\n// after\n",
		},
		{
			name: "trailing comma inside detailed member", rule: allow("read_file", "a"),
			src:  "{\n\t\"read_file\": {\n\t\t\"*\": \"deny\",\n\t},\n}\n",
			want: "{\n\t\"read_file\": {\n\t\t\"*\": \"deny\",\n\t\t\"a\": \"allow\"\n\t},\n}\n",
		},
		{
			name: "crlf", rule: allow("grep", "x"), comment: "c",
			src:  "{\r\n  \"grep\": {\r\n    \"*\": \"ask\"\r\n  }\r\n}\r\n",
			want: "{\r\n  \"grep\": {\r\n    \"*\": \"ask\",\r\n    // c\r\n    \"x\": \"allow\"\r\n  }\r\n}\r\n",
		},
		{
			name: "one-line detailed member", rule: allow("write_file", "*.md"),
			src:  "{\n  \"write_file\": { \"*\": \"allow\", \"*.env\": \"deny\" }\n}\n",
			want: "{\n  \"write_file\": {\n    \"*\": \"allow\",\n    \"*.env\": \"deny\",\n    \"*.md\": \"allow\"\n  }\n}\n",
		},
		{
			// Seed 000's H-2 fix: a remembered "always" is the tool name, so
			// the rule written for a grant is exact ("=Write"), not Write's
			// family, and it never joins a plain "Write" entry.
			name: "exact grant rule", rule: Rule{Tool: "Write", Exact: true, Pattern: "*", Action: toolgate.Allow}, comment: "granted",
			src:  "{\n  \"Write\": {\n    \"*.env\": \"deny\"\n  }\n}\n",
			want: "{\n  \"Write\": {\n    \"*.env\": \"deny\"\n  },\n  // granted\n  \"=Write\": {\n    \"*\": \"allow\"\n  }\n}\n",
		},
		{
			name: "one-line document", rule: allow("glob", "*"),
			src:  `{"*": "ask"}`,
			want: "{\n  \"*\": \"ask\",\n  \"glob\": {\n    \"*\": \"allow\"\n  }\n}",
		},
		{
			name: "one-line member with a comment inside", rule: allow("w", "b"),
			src: "{\n  \"w\": { \"a\": \"deny\" /* no */ }\n}\n",
		},
		{
			name: "empty object", rule: allow("glob", ""), comment: "first",
			src:  "{}",
			want: "{\n  // first\n  \"glob\": {\n    \"*\": \"allow\"\n  }\n}",
		},
		{
			name: "empty object on lines", rule: allow("glob", "x"),
			src:  "// header\n{\n  // nothing yet\n}\n",
			want: "// header\n{\n  // nothing yet\n  \"glob\": {\n    \"x\": \"allow\"\n  }\n}\n",
		},
		{
			name: "empty source", rule: allow("glob", "x"), comment: "new",
			src:  "",
			want: "{\n  // new\n  \"glob\": {\n    \"x\": \"allow\"\n  }\n}\n",
		},
		{
			name: "escaping", rule: allow("shell_exec", `echo "a\b" é	tab`), comment: "line one\nline two\r\n\n*/ end",
			src: "{\n  \"shell_exec\": \"ask\"\n}\n",
		},
		{
			name: "comment with bytes a line comment cannot hold", rule: allow("0", "0"), comment: "\x8b a\u2028b\x00c\rd",
			src:  "",
			want: "{\n  // \ufffd a b c d\n  \"0\": {\n    \"0\": \"allow\"\n  }\n}\n",
		},
		{
			name: "unindented seed document", rule: allow("shell_exec", "ls *"),
			src:  "{\n\"*\": \"ask\",\n\"shell_exec\": \"ask\"\n}\n",
			want: "{\n\"*\": \"ask\",\n\"shell_exec\": {\n  \"*\": \"ask\",\n  \"ls *\": \"allow\"\n}\n}\n",
		},
		{
			name: "tests last", rule: allow("glob", "x"),
			src: "{\n  \"glob\": \"ask\",\n  \"$tests\": [\n    {\"call\": {\"tool\": \"glob\"}, \"expect\": \"ask\"}\n  ]\n}\n",
		},
		{
			name: "duplicate tool keys", rule: allow("grep", "z"),
			src: "{\n  \"grep\": { \"a\": \"deny\" },\n  \"glob\": \"ask\",\n  \"grep\": { \"b\": \"deny\" }\n}\n",
		},
		{
			name: "simple prompt action kept", rule: Rule{Tool: "skill", Pattern: "lint", Action: toolgate.Deny},
			src: "{\n  \"skill\": \"prompt\"\n}\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := AppendRule([]byte(tc.src), tc.rule, tc.comment)
			if err != nil {
				t.Fatal(err)
			}
			checkAppend(t, []byte(tc.src), out, tc.rule)
			if tc.want != "" && string(out) != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", out, tc.want)
			}
			// Appending again keeps working.
			r2 := Rule{Tool: tc.rule.Tool, Pattern: "again", Action: toolgate.Deny}
			out2, err := AppendRule(out, r2, "again")
			if err != nil {
				t.Fatal(err)
			}
			checkAppend(t, out, out2, r2)
		})
	}
}

func TestAppendRuleDocuments(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join("testdata", "load", "good", "*.jsonc"))
	srcs := map[string][]byte{"builtin:default": defaultRulesJSONC}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs[f] = b
	}
	rules := []Rule{
		{Tool: "shell_exec", Pattern: "git status", Action: toolgate.Allow},
		{Tool: "read_file", Pattern: "*.pem", Action: toolgate.Deny},
		{Tool: "mcp__github__create_issue", Pattern: "*", Action: toolgate.Ask},
	}
	for name, src := range srcs {
		for _, r := range rules {
			out, err := AppendRule(src, r, "added by a test")
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			checkAppend(t, src, out, r)
			// The rest of the text is unchanged: the edit only adds.
			if len(out) <= len(src) {
				t.Errorf("%s: output not longer than input", name)
			}
		}
	}
	// On the default document the rule goes after the "$defaults" block,
	// as a rule of the person's own that no mode changes.
	out, err := AppendRule(defaultRulesJSONC, rules[0], "approved")
	if err != nil {
		t.Fatal(err)
	}
	if want := "  },\n  // approved\n  \"shell_exec\": {\n    \"git status\": \"allow\"\n  }\n}\n"; !strings.HasSuffix(string(out), want) {
		t.Errorf("default document edit ends with:\n%s\nwant suffix:\n%s", out[len(out)-120:], want)
	}
}

func TestAppendRuleErrors(t *testing.T) {
	t.Parallel()
	doc := []byte(`{"*": "ask"}`)
	for _, tc := range []struct {
		src  []byte
		rule Rule
		want string
	}{
		{doc, Rule{Tool: "Bash", Pattern: "git ", Prefix: true, Action: toolgate.Allow}, "prefix rules cannot be written"},
		{doc, Rule{Tool: "w", When: []Cond{{"file_path", "*.md"}}, Action: toolgate.Allow}, `"when" conditions cannot be written`},
		{doc, Rule{Pattern: "x", Action: toolgate.Allow}, "empty tool name"},
		{doc, Rule{Tool: "$tests", Action: toolgate.Allow}, `starts with "$"`},
		{doc, Rule{Tool: "x", Action: toolgate.NoAction}, "invalid action"},
		{doc, Rule{Tool: "x", Pattern: "\xff", Action: toolgate.Allow}, "valid UTF-8"},
		{[]byte(`{"*": "ask"`), Rule{Tool: "x", Action: toolgate.Allow}, "document:1:12: invalid JSONC"},
		{[]byte(`["x"]`), Rule{Tool: "x", Action: toolgate.Allow}, "top level"},
	} {
		_, err := AppendRule(tc.src, tc.rule, "")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "append rule: ") {
			t.Errorf("%+v: got %v, want …%s…", tc.rule, err, tc.want)
		}
	}
}
