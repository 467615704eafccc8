package policy_test

import (
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
)

// JSONC edge cases of issue 10: a last-line // comment without a newline
// is a comment; invalid UTF-8 and an unclosed '[' in a pattern are
// errors that say where and what.
func TestJSONCEdges(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src, err string
	}{
		{"line comment at EOF", "{\"*\": \"ask\"} // the end", ""},
		{"line comment at EOF inside", "{\"*\": \"ask\" // no newline\n}", ""},
		{"block comment at EOF", "{\"*\": \"ask\"} /* end */", ""},
		{"CRLF", "{\r\n\"*\": \"ask\"\r\n} // x", ""},
		{"invalid UTF-8 in a pattern", "{\n  \"Bash\": {\"rm \xff*\": \"allow\"}\n}\n", "2:16: invalid UTF-8"},
		{"invalid UTF-8 in a comment", "// caf\xe9\n{\"*\": \"ask\"}\n", "1:7: invalid UTF-8"},
		{"unclosed bracket", "{\"Bash\": {\"[\": \"allow\"}}", "unclosed '['"},
		{"escaped bracket", "{\"Bash\": {\"\\\\[ -f *\": \"allow\"}}", ""},
		{"unclosed comment", "{\"*\": \"ask\"} /* end", "invalid JSONC"},
	} {
		_, err := policy.ParseWorkspace("permissions.jsonc", []byte(tc.src))
		if err == nil && tc.src != "" {
			// A document parses; its patterns must compile too.
			var doc *policy.Document
			if doc, err = policy.ParseWorkspace("permissions.jsonc", []byte(tc.src)); err == nil {
				_, err = policy.New([]*policy.Document{doc})
			}
		}
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: %v, want %q", tc.name, err, tc.err)
		}
	}
	// A document ending in a comment with no newline can be edited.
	src := []byte("{\"*\": \"ask\"} // the end")
	out, err := policy.AppendRule(src, policy.Rule{Tool: "Bash", Pattern: "make *", Action: toolgate.Allow}, "granted")
	if err != nil || !strings.Contains(string(out), `"make *"`) || !strings.Contains(string(out), "// the end") {
		t.Fatalf("AppendRule: %q %v", out, err)
	}
	if _, err := policy.ParseWorkspace("permissions.jsonc", out); err != nil {
		t.Fatalf("after AppendRule: %v\n%s", err, out)
	}
}
