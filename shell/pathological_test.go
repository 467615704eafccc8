package shell

import (
	"strconv"
	"strings"
)

// pathological are inputs whose analysis once grew faster than their size
// (issue 13): each nesting level or chained command copied or walked
// everything inside it. gen builds the input with about n repetitions.
var pathological = []struct {
	name string
	gen  func(n int) string
}{
	{"nested-subst", func(n int) string { return "echo " + strings.Repeat("$(", n) + "x" + strings.Repeat(")", n) }},
	{"nested-procsubst", func(n int) string { return "cat " + strings.Repeat("<(cat ", n) + "x" + strings.Repeat(")", n) }},
	{"nested-assign", func(n int) string { return strings.Repeat("a=$(", n) + "x" + strings.Repeat(")", n) }},
	{"nested-param", func(n int) string { return "echo " + strings.Repeat("${a:-", n) + "x" + strings.Repeat("}", n) }},
	{"nested-subshell", func(n int) string { return strings.Repeat("(", n) + "x" + strings.Repeat(")", n) }},
	{"nested-func", func(n int) string { return strings.Repeat("f(){ ", n) + "x" + strings.Repeat("; }", n) }},
	{"xargs-chain", func(n int) string { return strings.Repeat("xargs ", n) + "x" }},
	{"sudo-chain", func(n int) string { return strings.Repeat("sudo ", n) + "x" }},
	{"nice-chain", func(n int) string { return strings.Repeat("nice ", n) + "x" }},
	{"eval-chain", func(n int) string { return strings.Repeat("eval ", n) + "x" }},
	{"find-exec-chain", func(n int) string { return strings.Repeat("find . -exec ", n) + "x" + strings.Repeat(` \;`, n) }},
	{"brace-lines", func(n int) string { return strings.Repeat("e "+strings.Repeat("{a,b}", 10)+"\n", n) }},
	{"brace-long-word", func(n int) string { return "e " + strings.Repeat("{a,b}", 10) + strings.Repeat("A", n) }},
	{"brace-groups", func(n int) string { return "e " + strings.Repeat("{a,b}", n) }},
	{"brace-seq", func(n int) string { return "e " + strings.Repeat("{1..9}", n) }},
	{"cd-chain", func(n int) string { return strings.Repeat("cd a && ", n) + "x" }},
	{"and-chain", func(n int) string { return strings.Repeat("a && ", n) + "x" }},
	{"pipeline", func(n int) string { return strings.Repeat("a | ", n) + "x" }},
	{"func-pipeline", func(n int) string { return "f(){ " + strings.Repeat("f | ", n) + "f; }" }},
	{"commands", func(n int) string { return strings.Repeat("a;", n) }},
	{"redirects", func(n int) string { return "a" + strings.Repeat(" >f", n) }},
	{"cd-redirects", func(n int) string { return strings.Repeat("cd a; ", n) + "x" + strings.Repeat(" >f", n) }},
	{"words", func(n int) string { return "a" + strings.Repeat(" b", n) }},
	// A static echo's text is recorded for each file it writes: once per
	// statement, not once per redirect, and the appends to one file stop
	// being recorded past a bound.
	{"echo-redirects", func(n int) string { return "echo " + strings.Repeat("A", 8<<10) + strings.Repeat(" >>f", n) }},
	{"echo-appends", func(n int) string { return strings.Repeat("echo "+strings.Repeat("A", 64)+" >>f; ", n) }},
	{"cat-heredoc-redirects", func(n int) string {
		return "cat" + strings.Repeat(" >f", n) + " <<'E'\n" + strings.Repeat("A", 8<<10) + "\nE"
	}},
	// A variable's value, and the words that use it, grow the paths a
	// word may be (expansions): each stays bounded.
	{"var-uses", func(n int) string { return "a=" + strings.Repeat("b", n/2) + "; cat " + strings.Repeat("$a", n/4) }},
	{"var-long-word", func(n int) string { return "cat \"" + strings.Repeat("a", n) + "$HOME\"" }},
	{"var-values", func(n int) string { return strings.Repeat("a=x$a; ", n/7) + "cat $a$a$a" }},
	// A loop's body is read for its assignments before it is walked, and
	// a loop over a glob for assignments of its variable: each loop
	// nested in another is read once per loop around it.
	{"nested-for", func(n int) string { return strings.Repeat("for f in *; do ", n) + "f=x" + strings.Repeat("; done", n) }},
	{"nested-while", func(n int) string { return strings.Repeat("while a; do ", n) + "f=x" + strings.Repeat("; done", n) }},
	{"nested-for-names", func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString("for f" + strconv.Itoa(i) + " in *; do ")
		}
		return b.String() + "cat $f1" + strings.Repeat("; done", n)
	}},
	{"loop-reads", func(n int) string { return "f=x; for i in *; do " + strings.Repeat("read f; ", n) + "done" }},
	// SQL given inline is read once per dialect: a comment, a dollar quote
	// or a /*! … */ left open, and DELETE after DELETE, stay linear.
	{"sql-run-comments", func(n int) string { return "mysql -e '" + strings.Repeat("/*!1 x ", n) + "'" }},
	{"sql-open-comments", func(n int) string { return "psql -c '" + strings.Repeat("/* ", n) + "'" }},
	{"sql-dollar-tags", func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString("$t" + strconv.Itoa(i) + "$ ")
		}
		return "psql -c '" + b.String() + "'"
	}},
	{"sql-deletes", func(n int) string { return "psql -c '" + strings.Repeat("delete from t where x=1 ", n) + "'" }},
	{"sql-strings", func(n int) string {
		return "psql -c \"insert into t values (" + strings.Repeat("'drop x', ", n) + "1)\""
	}},
}
