package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// This file holds the loop variables whose values are the files a glob
// matches ("for f in *.go; do wc -l "$f"; done"): inside the loop's body,
// "$f" stands for the files the pattern matches, so the word is judged as
// the glob written in its place ("wc -l *.go"), as a glob subject, not as
// the literal path "*.go" nor as a path nobody knows.

// loopGlob is a for loop's variable while its body is walked.
type loopGlob struct {
	name string
	src  string // the source the loop and its body's nodes are in
	pat  string // the glob pattern, ~ put in
	// names: the values are the names a pipe of found files carries
	// (find . -name '*.md' | while read -r f), which include dot-files
	// as find's do, not a glob bash expands.
	names bool
	// lit: the value is one word of a for loop's static list, walked once
	// per word (for ns in dev staging), not a pattern.
	lit bool
}

// bindReadLoop returns the binding of a while loop that reads one name
// per line from a pipe of files a name test picked ("find . -name '*.md'
// | while IFS= read -r f; do head -1 "$f"; done"): its condition is one
// read of one variable, with no redirection of its own, and the body
// assigns the variable in no way. Inside the body, "$f" stands for the
// files the pattern names, as it does for "… | xargs CMD"; a pipe of
// every file below a directory (find . -type f) binds nothing, as it
// keeps xargs's question.
func (w *walker) bindReadLoop(x *syntax.WhileClause, in stdin, src string) (loopGlob, bool) {
	if x.Until || in.kind != stdinPipe || !namePicked(in.names) || len(x.Cond) != 1 || len(in.names) > maxExpansionBytes || w.unseen() {
		return loopGlob{}, false
	}
	st := x.Cond[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(st.Redirs) > 0 || st.Negated || st.Background || len(call.Args) < 2 {
		return loopGlob{}, false
	}
	for _, a := range call.Assigns {
		if a.Name == nil || a.Name.Value != "IFS" {
			return loopGlob{}, false
		}
	}
	if t, ok := litOf(call.Args[0]); !ok || t != "read" {
		return loopGlob{}, false
	}
	name := ""
	for i := 1; i < len(call.Args); i++ {
		a, ok := litOf(call.Args[i])
		switch {
		case !ok:
			return loopGlob{}, false
		case a == "-r":
		case a == "-d" && i+1 < len(call.Args):
			i++ // the delimiter, often '' (find -print0)
		case name == "" && isVarName(a):
			name = a
		default:
			return loopGlob{}, false
		}
	}
	if name == "" {
		return loopGlob{}, false
	}
	for _, st := range x.Do {
		if w.assignsIn(st, name) {
			return loopGlob{}, false
		}
	}
	return loopGlob{name: name, src: src, pat: in.names, names: true}, true
}

// bindLoopGlob returns the binding of a for loop over one glob item
// (for f in *.go), when its body's "$f" can only be a file the pattern
// matches: the body assigns the variable in no way (nor does a function,
// a trap or a command that assigns variables the analysis cannot name).
// A loop over several items, one a glob among them, binds nothing: a
// word could then stand for either, where position matters (cp $f DEST).
func (w *walker) bindLoopGlob(it *syntax.WordIter, items []word, src string, body []*syntax.Stmt) (loopGlob, bool) {
	if len(items) != 1 || !items[0].static || !items[0].glob || w.unseen() {
		return loopGlob{}, false
	}
	pat := items[0].text
	if items[0].tilde {
		e, ok := expandHome(pat, w.a.home)
		if !ok {
			return loopGlob{}, false
		}
		pat = e
	}
	if strings.ContainsAny(pat, "$`\\") || len(pat) > maxExpansionBytes {
		return loopGlob{}, false
	}
	for _, st := range body {
		if w.assignsIn(st, it.Name.Value) {
			return loopGlob{}, false
		}
	}
	return loopGlob{name: it.Name.Value, src: src, pat: pat}, true
}

// unseen reports whether code the walk does not see may run inside a
// loop's body, anywhere in the command line or a script it has parsed so
// far: a function (called by name), an alias (expanded where the body
// is read), a trap (run before each command), a nameref (an assignment
// to one name sets another), or a command that may make one of these
// unseen (hidesCode). Where such code sits does not matter: a loop runs
// a later word's definitions before an earlier word's next iteration.
// The files are read once each; each node costs an analysis step.
func (w *walker) unseen() bool {
	if w.varsOff {
		return true
	}
	for !w.hidden && w.hiddenRead <= len(w.nested) {
		f := w.line
		if w.hiddenRead > 0 {
			f = w.nested[w.hiddenRead-1]
		}
		w.hiddenRead++
		if f == nil {
			continue
		}
		syntax.Walk(f, func(n syntax.Node) bool {
			if w.hidden || !w.step(1) {
				w.hidden = true
				return false
			}
			switch n := n.(type) {
			case *syntax.FuncDecl:
				w.hidden = true
			case *syntax.DeclClause:
				w.hidden = declaresRef(n)
			case *syntax.CallExpr:
				w.hidden = hidesCode(n)
			}
			return !w.hidden
		})
	}
	return w.hidden
}

// declaresRef reports whether a declaration may make a nameref: declare,
// typeset or local with an option word holding an n (-n, -gn, +n) or one
// known only when it runs.
func declaresRef(x *syntax.DeclClause) bool {
	switch x.Variant.Value {
	case "declare", "typeset", "local":
	default:
		return false
	}
	for _, a := range x.Args {
		if !a.Naked || a.Value == nil {
			continue
		}
		t, ok := litOf(a.Value)
		if !ok || (t != "" && (t[0] == '-' || t[0] == '+') && strings.Contains(t, "n")) {
			return true
		}
	}
	return false
}

// hidesCode reports whether a command may run or define code the walk
// does not see where it runs: eval, source, trap, alias, enable, a
// declaration spelled as a command ("command declare -n"), or a command
// named at run time, behind command or builtin or not.
func hidesCode(x *syntax.CallExpr) bool {
	wrapped := false
	for _, a := range x.Args {
		name, ok := litOf(a)
		switch {
		case !ok:
			return true
		case name == "command" || name == "builtin":
			wrapped = true
			continue
		case wrapped && strings.HasPrefix(name, "-"):
			continue
		}
		switch name {
		case "eval", "source", ".", "trap", "alias", "enable", "declare", "typeset", "local":
			return true
		}
		return false
	}
	return false
}

// assignsIn reports whether node n may assign the variable name: an
// assignment, a for loop, a declaration, an arithmetic or ${name:=…}
// assignment, a function definition, or a command that assigns variables
// the analysis cannot name (read, eval, source, printf -v, trap, a
// command named at run time). Each node costs an analysis step; past the
// budget it may.
func (w *walker) assignsIn(n syntax.Node, name string) bool {
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
		if found || !w.step(1) {
			found = true
			return false
		}
		switch n := n.(type) {
		case *syntax.Assign:
			found = n.Name == nil || n.Name.Value == name
		case *syntax.ForClause:
			wi, ok := n.Loop.(*syntax.WordIter)
			found = !ok || wi.Name == nil || wi.Name.Value == name
		case *syntax.DeclClause, *syntax.FuncDecl, *syntax.ArithmCmd, *syntax.ArithmExp, *syntax.LetClause:
			found = true
		case *syntax.ParamExp:
			found = n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull)
		case *syntax.CallExpr:
			if len(n.Args) > 0 {
				cmd, ok := litOf(n.Args[0])
				found = !ok || slices.Contains(assignsVars, cmd) || cmd == "printf" || cmd == "trap"
			}
		}
		return !found
	})
	return found
}

// loopWord renders x with the glob a bound loop variable stands for put
// in place of each plain "$f" or "${f}" (quoted or not) of the loop's
// body: a glob word, the pattern's files. ok is false for a word with any
// other expansion, a quoted glob character (which would stand for
// itself), a backslash or a leading ~.
//
// An unquoted "$f" is split at blanks and globbed again; a file named
// with a blank in it then gives names the pattern does not match, which
// only a file created for it can do (as a symbolic link can): the
// pattern stands for its files.
func (w *walker) loopWord(src string, x *syntax.Word) (word, bool) {
	if len(w.loops) == 0 {
		return word{}, false
	}
	var b strings.Builder
	bound := false
	if !w.loopParts(&b, src, x.Parts, false, &bound) || !bound || b.Len() > maxExpansionBytes {
		return word{}, false
	}
	wd := word{text: b.String(), static: true}
	for _, lg := range w.loops {
		// A pattern of found names keeps find's reading (dot-files
		// included) for the whole word: the wider one.
		wd.names = wd.names || lg.names
		wd.glob = wd.glob || !lg.lit
	}
	return wd, true
}

// maxLoopWords is how many words of a static for list the body is walked
// for, once each.
const maxLoopWords = 8

// literalItems reports whether a for loop's list is 2 to maxLoopWords
// static words, none a glob nor a ~ to expand (for p in 3000 5432; for
// f in go.mod package.json), whose body assigns the variable in no way:
// the body is then walked once per word with the variable bound to it.
func (w *walker) literalItems(it *syntax.WordIter, items []word, body []*syntax.Stmt) bool {
	if len(items) < 2 || len(items) > maxLoopWords || w.unseen() {
		return false
	}
	for _, item := range items {
		// An unquoted "$f" is split at blanks and globbed again: a word
		// with a blank or a glob character ('.en*') would stand for
		// other words or files than its text.
		if !item.static || item.glob || item.tilde || strings.ContainsAny(item.text, "$`\\ \t\n*?[") {
			return false
		}
	}
	for _, st := range body {
		if w.assignsIn(st, it.Name.Value) {
			return false
		}
	}
	return true
}

// loopParts is loopWord for a word's parts; quoted is set inside double
// quotes, and bound once a loop variable was put in.
func (w *walker) loopParts(b *strings.Builder, src string, parts []syntax.WordPart, quoted bool, bound *bool) bool {
	for i, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "\\$`") || quoted && strings.ContainsAny(p.Value, "*?[") ||
				!quoted && i == 0 && strings.HasPrefix(p.Value, "~") {
				return false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar || strings.ContainsAny(p.Value, "*?[\\") {
				return false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if !w.loopParts(b, src, p.Parts, true, bound) {
				return false
			}
		case *syntax.ParamExp:
			if p.Param == nil || p.Flags != nil || p.Excl || p.Length || p.Width || p.IsSet || p.NestedParam != nil ||
				p.Index != nil || len(p.Modifiers) > 0 || p.Slice != nil || p.Repl != nil || p.Names != 0 {
				return false
			}
			lg, ok := w.loopBound(p.Param.Value, src)
			if !ok {
				return false
			}
			pat, ok := trimPattern(lg.pat, p.Exp)
			if !ok {
				return false
			}
			b.WriteString(pat)
			*bound = true
		default:
			return false
		}
	}
	return true
}

// loopBound returns the innermost binding of name for words of src.
func (w *walker) loopBound(name, src string) (loopGlob, bool) {
	for i := len(w.loops) - 1; i >= 0; i-- {
		if lg := w.loops[i]; lg.name == name {
			return lg, lg.src == src
		}
	}
	return loopGlob{}, false
}

// trimPattern is the pattern of "${f%SUFFIX}" or "${f#PREFIX}" (either
// doubled) when f's values match pat: with a literal suffix or prefix
// that pat spells at its end or start, outside any bracket expression,
// every value has it, and the rest of pat matches what is left. ok is
// false for any other operator or word.
func trimPattern(pat string, e *syntax.Expansion) (string, bool) {
	if e == nil {
		return pat, true
	}
	if e.Word == nil {
		return "", false
	}
	lit, ok := litOf(e.Word)
	if !ok || lit == "" || strings.ContainsAny(pat, "[]") || strings.Trim(lit, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/") != "" {
		return "", false
	}
	switch e.Op {
	case syntax.RemSmallSuffix, syntax.RemLargeSuffix:
		rest, ok := strings.CutSuffix(pat, lit)
		return rest, ok
	case syntax.RemSmallPrefix, syntax.RemLargePrefix:
		rest, ok := strings.CutPrefix(pat, lit)
		return rest, ok
	}
	return "", false
}
