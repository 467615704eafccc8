package policy

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolgate/toolgate"
)

// seedFiles adds the testdata documents with the given extensions.
func seedFiles(f *testing.F, exts ...string) [][]byte {
	var out [][]byte
	for _, dir := range []string{"good", "bad", filepath.Join("good", "claude"), filepath.Join("good", "claude", "project", ".claude")} {
		files, _ := filepath.Glob(filepath.Join("testdata", "load", dir, "*"))
		for _, p := range files {
			for _, ext := range exts {
				if strings.HasSuffix(p, ext) {
					b, err := os.ReadFile(p)
					if err != nil {
						f.Fatal(err)
					}
					out = append(out, b)
				}
			}
		}
	}
	return out
}

// checkLoadResult checks the invariants every loader keeps.
func checkLoadResult(t *testing.T, doc *Document, err error) {
	t.Helper()
	if err != nil {
		var le *LoadError
		if !errors.As(err, &le) || le.File != "f" || le.Msg == "" {
			t.Fatalf("error %v (%T) is not a *LoadError naming the file", err, err)
		}
		return
	}
	for _, rs := range append([][]Rule{doc.Rules, doc.Managed}, mapValues(doc.Agents)...) {
		for _, r := range rs {
			if r.Tool == "" || r.Source.File != "f" || r.Source.Line <= 0 || r.Action < toolgate.Allow || r.Action > toolgate.Deny {
				t.Fatalf("bad rule %+v", r)
			}
		}
	}
}

func mapValues(m map[string][]Rule) [][]Rule {
	var out [][]Rule
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

func FuzzParseWorkspace(f *testing.F) {
	for _, b := range seedFiles(f, ".jsonc", ".json") {
		f.Add(b)
	}
	f.Add(defaultRulesJSONC)
	f.Fuzz(func(t *testing.T, src []byte) {
		doc, err := ParseWorkspace("f", src)
		checkLoadResult(t, doc, err)
		doc2, err2 := ParseClaudeSettings("f", src)
		checkLoadResult(t, doc2, err2)
	})
}

func FuzzParseConfig(f *testing.F) {
	for _, b := range seedFiles(f, ".yaml", ".yml") {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		doc, err := ParseConfig("f", src)
		checkLoadResult(t, doc, err)
	})
}

func FuzzAppendRule(f *testing.F) {
	for _, b := range seedFiles(f, ".jsonc") {
		f.Add(b, "shell_exec", "git status", "approved", uint8(1))
		f.Add(b, "read_file", `a"b\c`, "x\ny", uint8(3))
	}
	f.Add(defaultRulesJSONC, "shell_exec", "npm run build", "always", uint8(1))
	f.Add([]byte("{\r\n\"grep\": {\"*\": \"ask\",}, // c\r\n}"), "grep", "x", "", uint8(2))
	f.Fuzz(func(t *testing.T, src []byte, tool, pattern, comment string, action uint8) {
		r := Rule{Tool: tool, Pattern: pattern, Action: toolgate.Action(action%3 + 1)}
		out, err := AppendRule(src, r, comment)
		if _, perr := ParseWorkspace("f", src); perr != nil && strings.TrimSpace(string(src)) != "" {
			if err == nil {
				t.Fatalf("AppendRule accepted an invalid document")
			}
			return
		}
		valid := tool != "" && !strings.HasPrefix(tool, "$") && utf8.ValidString(tool) && utf8.ValidString(pattern)
		if !valid {
			if err == nil {
				t.Fatalf("AppendRule accepted rule %+v", r)
			}
			return
		}
		if err != nil {
			t.Fatalf("AppendRule on a valid document: %v\n%q", err, src)
		}
		checkAppend(t, src, out, r)
	})
}
