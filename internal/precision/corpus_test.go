package precision

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

func TestParse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src string
		want      []string
		err       string
	}{
		{name: "plain", src: "git\tread\tgit status\n", want: []string{"git status"}},
		{name: "comment and blank", src: "# c\n\ngit\tread\tls\n", want: []string{"ls"}},
		{name: "group", src: "x\tread\tls «-la|-1» src\n", want: []string{"ls -la src", "ls -1 src"}},
		{name: "empty alternative keeps one blank", src: "x\tread\tls «|-la» src\n", want: []string{"ls src", "ls -la src"}},
		{name: "empty alternative at the end", src: "x\tread\tgit status «|-s»\n", want: []string{"git status", "git status -s"}},
		{name: "two groups", src: "x\tread\t«a|b» «1|2»\n", want: []string{"a 1", "a 2", "b 1", "b 2"}},
		{name: "escaped bar is a pipe", src: "x\tread\tls «|\\| wc -l»\n", want: []string{"ls", "ls | wc -l"}},
		{name: "continuation", src: "x\tchange\tcat > f <<'EOF'\n\thello\n\tEOF\n", want: []string{"cat > f <<'EOF'\nhello\nEOF"}},
		{name: "bad kind", src: "x\tmaybe\tls\n", err: `kind "maybe"`},
		{name: "missing field", src: "x\tls\n", err: "want CATEGORY<TAB>KIND<TAB>COMMAND"},
		{name: "continuation first", src: "\tls\n", err: "continuation line before any command"},
		{name: "unclosed group", src: "x\tread\tls «a|b\n", err: "without"},
		{name: "stray close", src: "x\tread\tls a»\n", err: "without"},
		{name: "one alternative", src: "x\tread\tls «a»\n", err: "one alternative"},
		{name: "blank inside a group", src: "x\tread\tls« |-la»\n", err: "put blanks outside the group"},
		{name: "nested", src: "x\tread\tls «a|«b|c»»\n", err: "nested"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := Parse("t.corpus", []byte(tc.src))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var cmds []string
			for _, e := range got {
				cmds = append(cmds, e.Command)
			}
			if !reflect.DeepEqual(cmds, tc.want) {
				t.Errorf("got %q, want %q", cmds, tc.want)
			}
		})
	}
}

func TestLoadRejectsDuplicates(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"a.corpus": {Data: []byte("x\tread\tls  -la\n")},
		"b.corpus": {Data: []byte("y\tread\tls «-la|-1»\n")},
	}
	if _, err := Load(fsys); err == nil || !strings.Contains(err.Error(), "already in the corpus at a.corpus:1") {
		t.Fatalf("err = %v, want a duplicate error", err)
	}
}
