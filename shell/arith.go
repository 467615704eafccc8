package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Bash evaluates the value of a variable used in arithmetic ((( x )),
// $(( x )), let, an indexed array's subscript, a substring's offset) as
// an expression in turn, and a value "a[$(cmd)]" there runs cmd. A
// value the script itself wrote is seen (subscriptCode); one known only
// at run time (read from a file, a substitution's output, a positional
// parameter, the environment) is not: arithmetic on it is code the
// analysis cannot see, and raises RiskSubscriptCode. Values bash or a
// counting command make numbers stay plain: literals, the results of
// arithmetic, $#, $RANDOM, ${#x}, and the output of seq, wc -l and the
// like (numericOutput), so "for i in $(seq 3); do echo $((i+1)); done"
// needs no one.

// arithTaint is what the scripts of one analysis assign to variables, as
// far as arithmetic on them is concerned.
type arithTaint struct {
	// set holds every variable the scripts assign.
	set map[string]bool
	// runtime holds those given a value known only when the command runs
	// (read x, x=$(cat f), for x in $(ls)), or a copy of one.
	runtime map[string]bool
	// sources maps a variable to those whose value it is given (y=$x).
	sources map[string][]string
	// tainted is runtime closed over copies, made on first use.
	tainted map[string]bool
	// assoc holds associative arrays, whose subscripts are strings.
	assoc map[string]bool
	// ints holds integer variables (declare -i), whose assigned values
	// are evaluated as arithmetic.
	ints map[string]bool
	// any is set when a script may assign variables it does not name
	// (eval, source, printf -v $x, a command named at run time).
	any bool
}

// numericVars are the variables bash keeps numeric.
var numericVars = []string{"#", "?", "$", "!", "-", "RANDOM", "SRANDOM",
	"SECONDS", "EPOCHSECONDS", "LINENO", "BASHPID", "PPID", "UID", "EUID",
	"OPTIND", "BASH_SUBSHELL", "SHLVL", "HISTCMD", "COLUMNS", "LINES"}

func (t *arithTaint) assign(name string, runtime bool) {
	if t.set == nil {
		t.set, t.runtime = map[string]bool{}, map[string]bool{}
	}
	t.set[name] = true
	if runtime {
		t.runtime[name] = true
	}
}

// scan records what f assigns.
func (t *arithTaint) scan(f *syntax.File) {
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name == nil {
				return true
			}
			if n.Array != nil {
				for _, e := range n.Array.Elems {
					if e.Value != nil {
						t.value(n.Name.Value, e.Value)
					}
				}
				t.assign(n.Name.Value, false)
			} else if n.Value != nil {
				t.value(n.Name.Value, n.Value)
			} else if !n.Naked {
				t.assign(n.Name.Value, false) // x=
			}
		case *syntax.DeclClause:
			for _, a := range n.Args {
				if a.Name != nil {
					continue
				}
				lit, ok := "", false
				if a.Value != nil {
					lit, ok = litOf(a.Value)
				}
				switch {
				case ok && strings.HasPrefix(lit, "-") && strings.Contains(lit, "n"):
					t.any = true // a reference to another variable
				case ok && strings.HasPrefix(lit, "-") && (strings.Contains(lit, "A") || strings.Contains(lit, "i")):
					t.declared(n.Args, strings.Contains(lit, "A"), strings.Contains(lit, "i"))
				case !ok || !strings.HasPrefix(lit, "-") && !isVarName(lit):
					t.any = true // a name known at run time
				}
			}
		case *syntax.ForClause:
			if wi, ok := n.Loop.(*syntax.WordIter); ok && wi.Name != nil {
				runtime := !wi.InPos.IsValid() // for x; do: the positional parameters
				for _, w := range wi.Items {
					runtime = runtime || !numericWord(w) && !staticWord(w)
				}
				t.assign(wi.Name.Value, runtime)
			}
		case *syntax.ParamExp:
			if n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) && n.Param != nil {
				t.assign(n.Param.Value, n.Exp.Word != nil && !staticWord(n.Exp.Word) && !numericWord(n.Exp.Word))
			}
		case *syntax.CallExpr:
			t.call(n)
		case *syntax.BinaryArithm:
			switch n.Op {
			case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
				syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn:
				t.arithAssign(n.X)
			}
		case *syntax.UnaryArithm:
			if n.Op == syntax.Inc || n.Op == syntax.Dec {
				t.arithAssign(n.X)
			}
		}
		return true
	})
}

// arithAssign records the variable an arithmetic assignment sets: a
// number.
func (t *arithTaint) arithAssign(x syntax.ArithmExpr) {
	if w, ok := x.(*syntax.Word); ok {
		if name, ok := litOf(w); ok && isVarName(name) {
			t.assign(name, false)
		}
	}
}

// declared records the names a declare -A (associative arrays) or -i
// (integers) declares.
func (t *arithTaint) declared(args []*syntax.Assign, assoc, ints bool) {
	if t.assoc == nil {
		t.assoc, t.ints = map[string]bool{}, map[string]bool{}
	}
	for _, a := range args {
		if a.Name != nil {
			t.assoc[a.Name.Value] = t.assoc[a.Name.Value] || assoc
			t.ints[a.Name.Value] = t.ints[a.Name.Value] || ints
		}
	}
}

// value records name given the word v.
func (t *arithTaint) value(name string, v *syntax.Word) {
	switch {
	case staticWord(v) || numericWord(v):
		t.assign(name, false)
	case len(v.Parts) == 1:
		if p, ok := v.Parts[0].(*syntax.ParamExp); ok && plainParam(p) && isVarName(p.Param.Value) {
			// y=$x: y is what x is.
			if t.sources == nil {
				t.sources = map[string][]string{}
			}
			t.sources[name] = append(t.sources[name], p.Param.Value)
			t.assign(name, false)
			return
		}
		t.assign(name, true)
	default:
		t.assign(name, true)
	}
}

// call records the variables a command assigns from what it reads: read,
// mapfile, getopts, printf -v; a command that may assign any (eval,
// source, one named at run time) sets any.
func (t *arithTaint) call(x *syntax.CallExpr) {
	if len(x.Args) == 0 {
		return
	}
	name, ok := litOf(x.Args[0])
	if !ok {
		t.any = true
		return
	}
	switch name {
	case "builtin", "command":
		// "command -v go" runs nothing; "command read x" is read.
		for k, a := range x.Args[1:] {
			if lit, ok := litOf(a); !ok || !strings.HasPrefix(lit, "-") {
				t.call(&syntax.CallExpr{Args: x.Args[k+1:]})
				return
			}
		}
	case "eval", "source", ".", "enable":
		t.any = true
	case "read", "mapfile", "readarray", "getopts":
		named := false
		for _, a := range x.Args[1:] {
			lit, ok := litOf(a)
			if !ok {
				t.any = true
				return
			}
			if isVarName(lit) {
				t.assign(lit, true)
				named = true
			}
		}
		if !named {
			t.assign("REPLY", true)
			t.assign("MAPFILE", true)
		}
		if name == "getopts" {
			t.assign("OPTARG", true)
		}
	case "printf":
		for i, a := range x.Args[1:] {
			lit, ok := litOf(a)
			switch {
			case !ok && i == 0:
				t.any = true
			case lit == "-v" && i+2 < len(x.Args):
				if v, ok := litOf(x.Args[i+2]); ok {
					t.assign(v, true)
				} else {
					t.any = true
				}
			case strings.HasPrefix(lit, "-v") && len(lit) > 2:
				t.assign(lit[2:], true)
			}
		}
	}
}

// isRuntime reports whether a variable used in arithmetic may hold a
// value known only when the command runs. env is the caller's view of
// the environment, nil when it knows nothing.
func (t *arithTaint) isRuntime(name string, env Vars) bool {
	switch {
	case slices.Contains(numericVars, name):
		return false
	case !isVarName(name):
		return true // $1, $@, $*: a function's or script's arguments
	case t.any:
		return true
	}
	if !t.set[name] {
		return envRuntime(name, env)
	}
	if t.tainted == nil {
		t.taint(env)
	}
	return t.tainted[name]
}

// taint closes runtime over copies: a variable given the value of one
// that holds a run-time value (or comes from an unknown environment)
// holds one too. One pass over the copies, whatever their cycles.
func (t *arithTaint) taint(env Vars) {
	t.tainted = make(map[string]bool, len(t.runtime))
	targets := map[string][]string{}
	var queue []string
	for to, froms := range t.sources {
		for _, from := range froms {
			targets[from] = append(targets[from], to)
			if !t.set[from] && envRuntime(from, env) && !t.tainted[from] {
				t.tainted[from] = true
				queue = append(queue, from)
			}
		}
	}
	for n := range t.runtime {
		if !t.tainted[n] {
			t.tainted[n] = true
			queue = append(queue, n)
		}
	}
	for len(queue) > 0 {
		n := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, to := range targets[n] {
			if !t.tainted[to] {
				t.tainted[to] = true
				queue = append(queue, to)
			}
		}
	}
}

// envRuntime reports whether a variable the scripts never assign comes
// from an environment the caller does not know, or holds code there.
func envRuntime(name string, env Vars) bool {
	if env == nil {
		return true
	}
	v, _, known := env(name)
	return !known || strings.Contains(v, "[") && strings.ContainsAny(v, "$`")
}

// staticWord reports whether a word has no expansion (brace expansion
// aside): its value is the text the script wrote.
func staticWord(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
		case *syntax.SglQuoted:
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if _, ok := q.(*syntax.Lit); !ok {
					return false
				}
			}
		case *syntax.BraceExp:
		default:
			return false
		}
	}
	return true
}

// numericWord reports whether a word's value is a number (or several,
// split at blanks): digits, arithmetic expansions (their result is a
// number whatever they read; what they read is checked where they are),
// ${#x}, and the output of a command that prints numbers.
func numericWord(w *syntax.Word) bool {
	if len(w.Parts) == 0 {
		return false
	}
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.Trim(p.Value, "0123456789") != "" {
				return false
			}
		case *syntax.ArithmExp:
		case *syntax.ParamExp:
			if !p.Length || p.Index != nil || p.Exp != nil || p.Slice != nil || p.Repl != nil {
				return false
			}
		case *syntax.CmdSubst:
			if !numericOutput(p.Stmts) {
				return false
			}
		case *syntax.DblQuoted:
			if !numericWord(&syntax.Word{Parts: p.Parts}) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// plainParam reports whether p is $x or ${x}, nothing done to it.
func plainParam(p *syntax.ParamExp) bool {
	return p.Param != nil && !p.Excl && !p.Length && !p.Width && p.Index == nil && p.Slice == nil && p.Repl == nil &&
		p.Exp == nil && p.NestedParam == nil && len(p.Modifiers) == 0
}

// numericOutput reports whether a substitution's commands print only
// numbers: one command, or a pipeline ending in one, that counts (wc -l
// with no file operand, which would be printed too), a sequence of
// numbers (seq with numeric operands, no format or separator of its
// own), the processors (nproc), an id (id -u), a time (date +%s), or a
// count (git rev-list --count).
func numericOutput(stmts []*syntax.Stmt) bool {
	if len(stmts) != 1 || stmts[0].Background || stmts[0].Negated {
		return false
	}
	cmd := stmts[0].Cmd
	for {
		b, ok := cmd.(*syntax.BinaryCmd)
		if !ok || b.Op != syntax.Pipe && b.Op != syntax.PipeAll {
			break
		}
		cmd = b.Y.Cmd
	}
	x, ok := cmd.(*syntax.CallExpr)
	if !ok || len(x.Args) == 0 || len(x.Assigns) > 0 {
		return false
	}
	var args []string
	for _, a := range x.Args {
		lit, ok := litOf(a)
		if !ok {
			return false
		}
		args = append(args, lit)
	}
	switch rest := args[1:]; args[0] {
	case "wc":
		for _, a := range rest {
			if !strings.HasPrefix(a, "-") || strings.Trim(a[1:], "lcmw") != "" || a == "-" {
				return false // a file operand is printed beside its count
			}
		}
		return true
	case "seq":
		for _, a := range rest {
			if a != "-w" && strings.Trim(a, "0123456789.-") != "" {
				return false
			}
		}
		return true
	case "grep", "egrep", "fgrep":
		return grepCount(rest)
	case "stat":
		// stat -c %s FILE: a size, a time, an inode of one file.
		return len(rest) == 3 && (rest[0] == "-c" || rest[0] == "-f" || rest[0] == "--format" || rest[0] == "--printf") &&
			len(rest[1]) == 2 && rest[1][0] == '%' && strings.IndexByte("sbBYXZWzmi", rest[1][1]) >= 0
	case "nproc":
		return len(rest) == 0
	case "id":
		return len(rest) == 1 && (rest[0] == "-u" || rest[0] == "-g")
	case "date":
		return len(rest) == 1 && numericDate(rest[0])
	case "git":
		return len(rest) >= 2 && rest[0] == "rev-list" && contains(rest, "--count")
	}
	return false
}

// grepCount reports whether grep's arguments count matches (-c) in at
// most one file: it prints a number. With more files it prints each
// file's name beside its count.
func grepCount(args []string) bool {
	count, operands := false, 0
	for _, a := range args {
		switch {
		case a == "--count":
			count = true
		case a == "-e" || a == "-f" || strings.HasPrefix(a, "--") && a != "--count" && !strings.HasPrefix(a, "--ignore-case") && a != "--fixed-strings" && a != "--extended-regexp":
			return false // a pattern or file option, or one not read here
		case strings.HasPrefix(a, "-") && len(a) > 1:
			if strings.Trim(a[1:], "civwxFEPs") != "" {
				return false
			}
			count = count || strings.Contains(a, "c")
		default:
			operands++
		}
	}
	return count && operands >= 1 && operands <= 2
}

// numericDate reports whether a date format prints only numbers: "+"
// then directives of numeric fields and separators.
func numericDate(f string) bool {
	f, ok := strings.CutPrefix(f, "+")
	if !ok || f == "" {
		return false
	}
	for i := 0; i < len(f); i++ {
		switch c := f[i]; {
		case c == '%' && i+1 < len(f) && strings.IndexByte("sYmdHMSjuwVGgNyeIk", f[i+1]) >= 0:
			i++
		case c >= '0' && c <= '9' || c == '-' || c == ':' || c == '.':
		default:
			return false
		}
	}
	return true
}

// arithCode raises RiskSubscriptCode when arithmetic in the scripts of
// the analysis reads a value known only when the command runs.
func (w *walker) arithCode(src string) {
	files := w.nested
	if arithPossible(src) {
		files = append([]*syntax.File{w.line}, files...)
	}
	if len(files) == 0 {
		return
	}
	var t arithTaint
	for _, f := range files {
		if f != nil {
			t.scan(f)
		}
	}
	for _, f := range files {
		if f == nil {
			continue
		}
		found := ""
		syntax.Walk(f, func(n syntax.Node) bool {
			if found != "" || !w.step(1) {
				return false
			}
			switch n := n.(type) {
			case *syntax.ArithmExp:
				found = t.reads(n.X, w.env)
			case *syntax.ArithmCmd:
				found = t.reads(n.X, w.env)
			case *syntax.LetClause:
				for _, e := range n.Exprs {
					if found == "" {
						found = t.reads(e, w.env)
					}
				}
			case *syntax.CStyleLoop:
				for _, e := range [...]syntax.ArithmExpr{n.Init, n.Cond, n.Post} {
					if found == "" && e != nil {
						found = t.reads(e, w.env)
					}
				}
			case *syntax.ParamExp:
				if n.Index != nil && n.Param != nil && !t.assoc[n.Param.Value] {
					found = t.reads(n.Index, w.env)
				}
				if n.Slice != nil {
					for _, e := range [...]syntax.ArithmExpr{n.Slice.Offset, n.Slice.Length} {
						if found == "" && e != nil {
							found = t.reads(e, w.env)
						}
					}
				}
			case *syntax.Assign:
				if n.Index != nil && n.Name != nil && !t.assoc[n.Name.Value] {
					found = t.reads(n.Index, w.env)
				}
				if found == "" && n.Value != nil && n.Name != nil && t.ints[n.Name.Value] {
					found = t.reads(n.Value, w.env) // declare -i n; n=$x
				}
			case *syntax.BinaryTest:
				// [[ x -eq 1 ]]: both sides are arithmetic, a bare
				// name too (testCode reads the $ forms).
				switch n.Op {
				case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
					for _, e := range [...]syntax.TestExpr{n.X, n.Y} {
						if x, ok := e.(*syntax.Word); ok && found == "" {
							found = t.reads(x, w.env)
						}
					}
				}
			}
			return true
		})
		if found != "" {
			w.unprefixable(RiskSubscriptCode, "arithmetic evaluates "+found+", a value known only when the command runs, as an expression in turn, where an array subscript with a command substitution runs it", found)
			return
		}
	}
}

// arithPossible reports whether a command line may hold arithmetic: ((
// )), $(( )), $[ ], let, a parameter's subscript or offset, an element's
// assignment, [[ -eq ]] and its kin, declare -i. Most lines need no walk; a nested script (bash -c $'…')
// is text after quote removal, and always walked.
func arithPossible(src string) bool {
	for _, s := range [...]string{"((", "$[", "let", "${", "]=", "]+=", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-i"} {
		if strings.Contains(src, s) {
			return true
		}
	}
	return false
}

// reads returns the first value known only when the command runs that
// arithmetic expression x reads ($x, x, $1, a substitution's output), or
// "".
func (t *arithTaint) reads(x syntax.ArithmExpr, env Vars) string {
	found := ""
	syntax.Walk(x, func(n syntax.Node) bool {
		if found != "" {
			return false
		}
		switch n := n.(type) {
		case *syntax.BinaryArithm:
			if n.Op == syntax.Assgn {
				// x = …: x's old value is not read.
				if _, ok := n.X.(*syntax.Word); ok {
					if found == "" {
						found = t.reads(n.Y, env)
					}
					return false
				}
			}
		case *syntax.CmdSubst:
			if !numericOutput(n.Stmts) {
				found = "the output of $(…)"
			}
			return false // its commands are walked as commands
		case *syntax.ArithmExp:
			return false // a nested $(( )) is checked where the walk finds it
		case *syntax.Lit:
			if name := leadingName(n.Value); name != "" && t.isRuntime(name, env) {
				found = name
			}
		case *syntax.ParamExp:
			switch {
			case n.Length && n.Index == nil:
				return false // ${#x} is a number
			case n.Param != nil && t.isRuntime(n.Param.Value, env):
				found = "$" + n.Param.Value
			}
		}
		return true
	})
	return found
}

// leadingName returns the variable name a literal in arithmetic starts
// with ("x" of "x", "x++"), or "" for a number.
func leadingName(s string) string {
	n := 0
	for n < len(s) && (s[n] == '_' || s[n] >= 'a' && s[n] <= 'z' || s[n] >= 'A' && s[n] <= 'Z' || n > 0 && s[n] >= '0' && s[n] <= '9') {
		n++
	}
	return s[:n]
}
