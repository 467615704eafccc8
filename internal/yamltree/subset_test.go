package yamltree_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate/internal/yamltree"
	"github.com/toolgate/toolgate/internal/yamltree/yamlv3"
)

// inSubset are documents ReadSubset must read, exactly as yaml.v3 does.
var inSubset = []string{
	"",
	"# only a comment\n\n   # and another\n",
	"x",
	"rules:\n  - Bash(git log *)\n  - Bash(grep *)\n  - Bash(head *)\n",
	"a:\nb: 1\n",
	"- \n- x\n",
	"a:\n  - x\n  -\nb: # c\n",
	"a: 1\na: 2\n",
	"  x: 1\n  y: 2\n",
	"k:\n- a\n- b\nm: n\n",
	"-\n  x\n",
	"a: [x, 'y', \"z\"]\nb: {\"*\": deny, c: d}\n",
	"a: 'it''s'\n",
	"a: \"\\u00e9\\n\\t\\\\ \\\"\"\n",
	"a: []\nb: {}\nc: [ ]\nd: [a , b]\n",
	"mode: default\nrules:\n  - tool: Bash\n    pattern: \"rm *\"\n    action: deny\n    when:\n      path: \"/etc/**\"\n  - Read(~/.ssh/**)   # a comment\n",
	"agents:\n  explore:\n    \"*\": deny\n    read_file: allow\n",
	"arity:\n  docker compose: 3\n  \"git stash\": 2\n",
	"- a: 1\n  b: 2\n- c: 3\n",
	"- a:\n  - x\n  - y\n  b:\n    c: d\n",
	"x: http://example.com:8080/a#b\n",
	"x: a#b\ny: a # b\n",
	"x: Bash(echo a:b)\n",
	"- Bash(echo a: b)\n",
	"n: [1, -2, 0x1F, 0o17, 0b101, 1_000, 1.5, .5, -1e3, +3, 08, 1.2.3, -0b1, -0o7, 0x_1, 1__0]\n",
	"b: [true, True, FALSE, yes, no, on, off, y, n, ~, null, NULL, Null, nil]\n",
	"f: [.inf, -.Inf, +.INF, .nan, .x, .5e3, 1e, 1.]\n",
	"1: one\ntrue: yes\nnull: x\n~: y\n",
	"é: ü\n\"日本\": 語\nk: \"日本\" # c\n",
	"a:    spaced   \nb:   x  \n",
	"a: -x\nb: --force\nc: -1\n",
	"a: 'x' # c\nb: [x] # c\nc: {a: b} # c\n",
	"key with spaces: value with spaces\n",
	"a: x\n\n\n# c\n\nb: y\n",
	"a:\n  b:\n    c:\n      - d\n      - e: f\n        g: h\n",
	"a: {x: [1, {y: z}], w: []}\n",
	"- call: {tool: Bash, args: {command: rm -rf build}, tier: exec}\n",
	strings.Repeat("k", 990) + ": v\n",
	"a: {\"" + strings.Repeat("k", 990) + "\": v}\n",
}

// outsideSubset are documents ReadSubset must leave to the full reader.
var outsideSubset = []string{
	"a: &x 1\nb: *x\n",
	"a: !!str 1\n",
	"a: |\n  text\n",
	"a: >\n  text\n",
	"a: long\n  continued\n",
	"- long\n  continued\n",
	"---\na: 1\n",
	"a: 1\n---\nb: 2\n",
	"%YAML 1.2\n---\na: 1\n",
	"a:\tb\n",
	"a: 1\r\nb: 2\r\n",
	"\ufeffa: 1\n",
	"a: \"multi\n  line\"\n",
	"a: [x,\n  y]\n",
	"? \n",
	"a: [-]\n",
	"a: [x, - y]\n",
	"a: [{x}]\n",
	"a: [x,]\n",
	"a: {x}\n",
	"<<: {a: b}\n",
	"a: 2001-12-14\n",
	"a: \"\\x41\"\n",
	"a: b: c\n",
	"a : b\n",
	"? a\n: b\n",
	"- - a\n",
	"a: 1\n b: 2\n",
	"  a: 1\nb: 2\n",
	"a: \"x\"y\n",
	"a: \"x\"#y\n",
	"a: @x\n",
	"a: `x`\n",
	"[a]: b\n",
	"- a\nb: c\n",
	"a:\n  - x\n - y\n",
	"\"a\":b\n",
	"a: [x # c\n  ]\n",
	"a: {" + strings.Repeat("k", 1100) + ": v}\n",
	"\"" + strings.Repeat("k", 1100) + "\": v\n",
	strings.Repeat("k", 1100) + ": v\n",
	"a: \x01\n",
	"a: \u2028\n",
	"a: \xff\n",
}

func TestReadSubsetAgreesWithYAMLv3(t *testing.T) {
	t.Parallel()
	for _, src := range inSubset {
		t.Run(fmt.Sprintf("%.40q", src), func(t *testing.T) {
			t.Parallel()
			got, err := yamltree.ReadSubset([]byte(src))
			if err != nil {
				t.Fatalf("ReadSubset: %v", err)
			}
			want, err := yamlv3.Read([]byte(src))
			if err != nil {
				t.Fatalf("yaml.v3: %v", err)
			}
			if d := diff(got, want, "$"); d != "" {
				t.Fatalf("subset and yaml.v3 differ: %s", d)
			}
		})
	}
}

func TestReadSubsetLeavesTheRestToTheFullReader(t *testing.T) {
	t.Parallel()
	for _, src := range outsideSubset {
		t.Run(fmt.Sprintf("%.40q", src), func(t *testing.T) {
			t.Parallel()
			n, err := yamltree.ReadSubset([]byte(src))
			if !errors.Is(err, yamltree.ErrOutsideSubset) {
				t.Fatalf("ReadSubset = %v, %v; want ErrOutsideSubset", dump(n), err)
			}
			// Read hands it to yaml.v3, registered by importing yamlv3.
			full, ferr := yamlv3.Read([]byte(src))
			got, gerr := yamltree.Read([]byte(src))
			if (ferr == nil) != (gerr == nil) || diff(got, full, "$") != "" {
				t.Fatalf("Read = %v, %v; yaml.v3 = %v, %v", dump(got), gerr, dump(full), ferr)
			}
		})
	}
}

// TestConfigsInSubset: the configs toolgate ships and tests with, but for
// the ones written to exercise YAML itself, are read by the subset, so
// the lean hook reads them itself.
func TestConfigsInSubset(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../../policy/testdata/load/good/*.y*ml")
	if len(files) == 0 {
		t.Fatal("no configs found")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := yamltree.ReadSubset(src)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		want, err := yamlv3.Read(src)
		if err != nil {
			t.Fatalf("%s: yaml.v3: %v", f, err)
		}
		if d := diff(got, want, "$"); d != "" {
			t.Errorf("%s: %s", f, d)
		}
	}
}

func FuzzReadSubset(f *testing.F) {
	for _, s := range append(append([]string{}, inSubset...), outsideSubset...) {
		f.Add(s)
	}
	files, _ := filepath.Glob("../../policy/testdata/load/*/*.y*ml")
	for _, p := range files {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(string(src))
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		got, err := yamltree.ReadSubset([]byte(src))
		if err != nil {
			if !errors.Is(err, yamltree.ErrOutsideSubset) {
				t.Fatalf("ReadSubset error %v does not wrap ErrOutsideSubset", err)
			}
			return
		}
		want, err := yamlv3.Read([]byte(src))
		if err != nil {
			t.Fatalf("ReadSubset read what yaml.v3 rejects (%v): %s", err, dump(got))
		}
		if d := diff(got, want, "$"); d != "" {
			t.Fatalf("subset and yaml.v3 differ: %s", d)
		}
	})
}

func diff(a, b *yamltree.Node, path string) string {
	if a == nil || b == nil {
		if a != b {
			return fmt.Sprintf("%s: %s vs %s", path, dump(a), dump(b))
		}
		return ""
	}
	if a.Kind != b.Kind || a.Tag != b.Tag || a.Value != b.Value || a.Anchor != b.Anchor || a.Line != b.Line || a.Col != b.Col || len(a.Content) != len(b.Content) || (a.Alias == nil) != (b.Alias == nil) {
		return fmt.Sprintf("%s: %s vs %s", path, dump(a), dump(b))
	}
	for i := range a.Content {
		if d := diff(a.Content[i], b.Content[i], fmt.Sprintf("%s[%d]", path, i)); d != "" {
			return d
		}
	}
	return ""
}

func dump(n *yamltree.Node) string {
	if n == nil {
		return "nil"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "{kind %d tag %q value %q anchor %q at %d:%d", n.Kind, n.Tag, n.Value, n.Anchor, n.Line, n.Col)
	for _, c := range n.Content {
		b.WriteString(" ")
		b.WriteString(dump(c))
	}
	b.WriteString("}")
	return b.String()
}

// TestReadSubsetLinear: a long line of flow items, or many lines, cost
// time linear in the input (a column counted from the line's start for
// each item would make the first quadratic).
func TestReadSubsetLinear(t *testing.T) {
	t.Parallel()
	for _, gen := range []func(n int) string{
		func(n int) string { return "a: [" + strings.Repeat("é, ", n) + "x]\n" },
		func(n int) string { return "a: {" + strings.Repeat("é: x, ", n) + "x: y}\n" },
		func(n int) string { return strings.Repeat("- é\n", n) },
	} {
		n := 200000
		src := []byte(gen(n))
		start := time.Now()
		if _, err := yamltree.ReadSubset(src); err != nil {
			t.Fatal(err)
		}
		// A quadratic reader takes minutes here; a linear one milliseconds.
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%d items took %v", n, d)
		}
	}
}
