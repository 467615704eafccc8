package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Vars is what the caller knows of the environment a command line runs
// in (DESIGN §3.1: "$PWD is the call's cwd, $HOME the agent's home"):
// for a variable, its value, whether it is set, and whether the caller
// knows it at all (known false: the value may be anything).
type Vars func(name string) (value string, set, known bool)

// assigned is what the scripts of one analysis may assign to variables,
// found before their words are read: a word is resolved from the
// caller's environment only when nothing in the command line may have
// changed the variable first.
type assigned struct {
	names map[string]bool
	// any is set when a command may assign variables the analysis
	// cannot name (eval, source, read, a command named at run time).
	any bool
}

// maxAssignedNames bounds the names remembered; past it every variable
// counts as assigned.
const maxAssignedNames = 256

func (as *assigned) add(name string) {
	if as.any {
		return
	}
	if as.names == nil {
		as.names = make(map[string]bool)
	}
	if len(as.names) >= maxAssignedNames {
		as.any = true
		return
	}
	as.names[name] = true
}

// has reports whether the script may assign name.
func (as *assigned) has(name string) bool { return as.any || as.names[name] }

// assignsVars names the commands that assign variables the syntax does
// not show as assignments ("read X", "printf -v X", "cd" sets PWD), or
// run code that may ("eval", "source").
var assignsVars = []string{
	"read", "mapfile", "readarray", "getopts",
	"eval", "source", ".", "let", "unset",
	"export", "declare", "typeset", "local", "readonly",
	"enable", "builtin", "command",
}

// scanAssigned records in as what the parsed script f may assign.
func scanAssigned(f *syntax.File, as *assigned) {
	syntax.Walk(f, func(n syntax.Node) bool {
		if as.any {
			return false
		}
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name != nil {
				as.add(n.Name.Value)
			}
		case *syntax.ForClause:
			if wi, ok := n.Loop.(*syntax.WordIter); ok && wi.Name != nil {
				as.add(wi.Name.Value)
			}
		case *syntax.ParamExp:
			if n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) && n.Param != nil {
				as.add(n.Param.Value)
			}
		case *syntax.BinaryArithm:
			switch n.Op {
			case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
				syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn:
				arithmAssigned(n.X, as)
			}
		case *syntax.UnaryArithm:
			if n.Op == syntax.Inc || n.Op == syntax.Dec {
				arithmAssigned(n.X, as)
			}
		case *syntax.CallExpr:
			if len(n.Args) == 0 {
				return true
			}
			name, ok := litOf(n.Args[0])
			switch {
			case !ok:
				as.any = true // a command named at run time may be eval
			case name == "cd" || name == "pushd" || name == "popd":
				as.add("PWD")
				as.add("OLDPWD")
			case slices.Contains(assignsVars, name):
				as.any = true
			case name == "printf":
				for _, a := range n.Args[1:] {
					if t, ok := litOf(a); !ok || strings.HasPrefix(t, "-v") {
						as.any = true // printf -v NAME
					}
				}
			}
		case *syntax.DeclClause:
			for _, a := range n.Args {
				if a.Name == nil {
					// An option (declare -n, local -n: a reference to
					// another variable) or a name known at run time.
					as.any = true
				}
			}
		}
		return true
	})
}

// assignedVars returns what the scripts may assign, scanning the command
// line on first use: most have no word that needs it.
func (w *walker) assignedVars() *assigned {
	if w.top != nil {
		scanAssigned(w.top, &w.assigned)
		w.top = nil
	}
	return &w.assigned
}

// arithmAssigned records the variable an arithmetic assignment sets.
func arithmAssigned(x syntax.ArithmExpr, as *assigned) {
	if w, ok := x.(*syntax.Word); ok {
		if name, ok := litOf(w); ok {
			as.add(name)
			return
		}
	}
	as.any = true
}

// litOf returns a word's text when it is one plain literal.
func litOf(w *syntax.Word) (string, bool) {
	if len(w.Parts) != 1 {
		return "", false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok || strings.ContainsAny(l.Value, "\\") {
		return "", false
	}
	return l.Value, true
}

// resolveWord renders x with its variables' values from the caller's
// environment (w.env), when every expansion in it is a plain one ($X,
// ${X}, ${X:-word}, ${X-word}, ${X:=word}) of a variable the command line
// does not assign, and the result is one static word: no value that
// word splitting or pathname expansion would change, no empty unquoted
// word. ok is false otherwise: the word stays as render leaves it.
func (w *walker) resolveWord(src string, x *syntax.Word) (word, bool) {
	if w.env == nil || w.assignedVars().any {
		return word{}, false
	}
	var b strings.Builder
	quotedAny := false
	if !w.resolveParts(&b, src, x.Parts, false, &quotedAny) {
		return word{}, false
	}
	text := b.String()
	if text == "" && !quotedAny || len(text) > maxExpansionBytes {
		return word{}, false
	}
	return word{text: text, static: true, src: render(src, x).text}, true
}

// homeWord reads a word that is the home directory's variable ($HOME,
// ${HOME}, quoted or not) followed by a path below it ("$HOME/src"):
// bash gives the variable the value ~ has, the agent's home (DESIGN
// §3.1), so it is the word ~/src: a static path, judged as one. Not when
// the script may assign HOME, nor when the rest holds an expansion or a
// glob character.
func (w *walker) homeWord(src string, x *syntax.Word) (word, bool) {
	parts := x.Parts
	if len(parts) == 1 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = dq.Parts
		}
	}
	if len(parts) != 2 {
		// $HOME alone stays a variable: echo $HOME prints it (a plain
		// variable), and ls $HOME is a listing of the home directory.
		return word{}, false
	}
	pe, ok := parts[0].(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Param.Value != "HOME" || pe.Excl || pe.Length || pe.Width || pe.Index != nil ||
		pe.Slice != nil || pe.Repl != nil || pe.Names != 0 || pe.Exp != nil {
		return word{}, false
	}
	l, ok := parts[1].(*syntax.Lit)
	if !ok || len(l.Value) < 2 || l.Value[0] != '/' || strings.ContainsAny(l.Value, "\\*?[$`~") {
		return word{}, false
	}
	if as := w.assignedVars(); as.any || as.has("HOME") {
		return word{}, false
	}
	return word{text: "~" + l.Value, static: true, tilde: true, src: srcOf(src, x)}, true
}

// resolveParts is resolveWord for a word's parts; quoted is set inside
// double quotes.
func (w *walker) resolveParts(b *strings.Builder, src string, parts []syntax.WordPart, quoted bool, quotedAny *bool) bool {
	for i, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			if strings.ContainsAny(v, "\\*?[$`") || !quoted && i == 0 && strings.HasPrefix(v, "~") {
				return false
			}
			b.WriteString(v)
		case *syntax.SglQuoted:
			if p.Dollar || strings.ContainsAny(p.Value, "*?[$`\\") {
				return false
			}
			*quotedAny = true
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			*quotedAny = true
			if !w.resolveParts(b, src, p.Parts, true, quotedAny) {
				return false
			}
		case *syntax.ParamExp:
			v, ok := w.paramValue(src, p)
			// A value with a glob character or a blank would be split
			// or expanded unquoted, and read as a pattern by the checks
			// quoted: it stays unknown.
			if !ok || strings.ContainsAny(v, "*?[$`\\\n\t") || !quoted && strings.ContainsAny(v, " ") {
				return false
			}
			b.WriteString(v)
		default:
			return false
		}
	}
	return true
}

// paramValue returns the value of a plain parameter expansion in the
// caller's environment.
func (w *walker) paramValue(src string, p *syntax.ParamExp) (string, bool) {
	if p.Param == nil || p.Flags != nil || p.Excl || p.Length || p.Width || p.IsSet || p.NestedParam != nil ||
		p.Index != nil || len(p.Modifiers) > 0 || p.Slice != nil || p.Repl != nil || p.Names != 0 {
		return "", false
	}
	name := p.Param.Value
	if !isVarName(name) || w.assignedVars().has(name) {
		return "", false
	}
	v, set, known := w.env(name)
	if !known {
		return "", false
	}
	if p.Exp == nil {
		return v, true
	}
	useDefault := false
	switch p.Exp.Op {
	case syntax.DefaultUnsetOrNull, syntax.AssignUnsetOrNull:
		useDefault = !set || v == ""
	case syntax.DefaultUnset, syntax.AssignUnset:
		useDefault = !set
	default:
		return "", false
	}
	if !useDefault {
		return v, true
	}
	if p.Exp.Word == nil {
		return "", true
	}
	if l, ok := litOf(p.Exp.Word); ok && (l == "~" || strings.HasPrefix(l, "~/")) {
		// A tilde at the start of the default expands.
		home, set, known := w.env("HOME")
		if !known || !set || home == "" {
			return "", false
		}
		return home + l[1:], true
	}
	var b strings.Builder
	quotedAny := false
	if !w.resolveParts(&b, src, p.Exp.Word.Parts, true, &quotedAny) {
		return "", false
	}
	return b.String(), true
}

// isVarName reports whether s names a variable (not $1, $@, $?, …).
func isVarName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// unknownVar reports whether path p (a word's source form) expands a
// variable whose value nobody knows: no static value the script gives it
// (walker.vars), no default the analysis puts in ($HOME, $XDG_*, $PWD
// while no cd changes it), and no value from the caller's environment
// that the command line leaves alone. Such a file may be any file, a
// protected one among them.
func (w *walker) unknownVar(p string) bool {
	for {
		i := strings.IndexByte(p, '$')
		if i < 0 || i+1 >= len(p) {
			return false
		}
		rest := p[i+1:]
		var name string
		if rest[0] == '{' {
			end := matchingBrace(rest)
			if end < 0 {
				return true
			}
			inner := rest[1:end]
			var plain bool
			name, _, plain = cutDefault(inner)
			p = rest[end+1:]
			if lead := strings.TrimPrefix(inner, "!"); !plain && !isVarName(name) && lead != "" && isVarName(lead[:1]) {
				// An operator whose result is not computed here
				// (${f%.pub}, ${f/x/y}, ${f:0:3}, ${f[0]}) or a name
				// read at run time (${!f}): the value is not known.
				return true
			}
		} else {
			n := 0
			for n < len(rest) && (rest[n] == '_' || rest[n] >= 'a' && rest[n] <= 'z' || rest[n] >= 'A' && rest[n] <= 'Z' || n > 0 && rest[n] >= '0' && rest[n] <= '9') {
				n++
			}
			name, p = rest[:n], rest[n:]
		}
		switch {
		case !isVarName(name):
			// $1, $@, $(…): judged as before (a substitution asks on
			// its own).
		case len(w.vars[name]) > 0:
		case w.assignedVars().has(name):
			return true // assigned a value the analysis does not know
		case name == "PWD" || name == "HOME" || xdgDefault(name) != "" && w.a.home != "":
		case w.env == nil:
			return true
		default:
			// A value the word's splitting or globbing would change
			// was not put in (resolveWord): its files are not known.
			if v, _, known := w.env(name); !known || strings.ContainsAny(v, "*?[$`\\ \t\n") {
				return true
			}
		}
	}
}
