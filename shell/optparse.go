package shell

import (
	"slices"
	"strings"
)

// This file is the one option parser of the command table: every check
// that reads a known command's options (risk classes, exec-capable flags,
// the files it reads and writes, git's global options) reads them through
// scan, so an option means the same thing to all of them.

// optArg is one option of a command line as the command reads it.
type optArg struct {
	// name is the option's canonical spelling: "--output" for "--out",
	// "-o" for the o inside "-sSLo", "-exec" for find's one-dash options.
	name string
	// val is the option's value, when the table says it takes one.
	val string
	// at is the index of the option's word, valAt that of the word
	// holding its value: at when attached ("-ofile", "--output=file"),
	// at+1 when separate, -1 when there is none.
	at, valAt int
	// ambiguous: the word abbreviates several options, this among them.
	ambiguous bool
	// unknown: a wrapper's option its entry does not know (wraps).
	unknown bool
	// assign: a NAME=value operand setting the environment (env), in val.
	assign bool
}

// word returns the word to record for o: the value word when the
// value came separately and only the value matters, else the option's
// own word ("-oProxyCommand=x", "-sf", "--pre").
func (o optArg) word(args []string) string {
	if len(o.name) == 2 || o.name[1] != '-' {
		return args[o.at] // a short option as written, cluster and all
	}
	return o.name
}

// scan reads args as the command reads them: GNU long options resolved to
// the one they abbreviate (an ambiguous abbreviation stands for every
// option it may mean, so none of their effects is lost), clusters of
// short options up to the one that takes a value, "--" ending the
// options, and operands anywhere (GNU permutation). With stop it stops
// at the operand after the entry's positional ones (a subcommand follows:
// git -C DIR push; a wrapper's command: timeout 5 CMD). It returns the
// options and the indexes of the operands.
func (s *cmdSpec) scan(args []string, stop bool) (opts []optArg, ops []int) {
	return s.scanWords(args, nil, stop)
}

// scanWords is scan for the words of a command line: a word with an
// expansion ("-$X") is an operand, never options (but for a wrapper,
// "--$X" is an unknown option: no command starts with "--").
func (s *cmdSpec) scanWords(args []string, words []word, stop bool) (opts []optArg, ops []int) {
	return s.scanInto(args, words, stop, nil, nil)
}

// scanInto is scanWords appending to opts and ops, buffers of the caller.
func (s *cmdSpec) scanInto(args []string, words []word, stop bool, opts []optArg, ops []int) ([]optArg, []int) {
	var dashOperand func(string) bool
	if s.rare != nil {
		dashOperand = s.rare.dashOperand
	}
	var positional int
	if s.wrap != nil {
		positional = s.wrap.positional
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			for j := i + 1; j < len(args); j++ {
				ops = append(ops, j)
			}
			return opts, ops
		case s.assigns && isAssignment(a):
			opts = append(opts, optArg{val: a, at: i, valAt: i, assign: true})
		case s.assigns && a == "-":
			opts = append(opts, optArg{name: "-i", at: i, valAt: -1}) // env -
		case i == 0 && s.bundled && len(a) > 0 && a[0] != '-' && (words == nil || words[0].static):
			// Old-style bundled letters ("tar czf ARCHIVE"): the values of
			// the letters that take one follow in order.
			next := 1
			for j := 0; j < len(a); j++ {
				o := optArg{name: shortName(a[j]), at: 0, valAt: -1}
				if strings.IndexByte(s.shortVal, a[j]) >= 0 && next < len(args) {
					o.val, o.valAt = args[next], next
					next++
				}
				opts = append(opts, o)
			}
			i = next - 1
		case len(a) < 2 || a[0] != '-' || dashOperand != nil && dashOperand(a) ||
			words != nil && !words[i].static && !(s.wraps && len(a) > 2 && a[1] == '-'):
			ops = append(ops, i)
			if stop && len(ops) > positional {
				return opts, ops
			}
		case s.singleDash && len(a) == 2 && strings.IndexByte(s.shortVal, a[1]) >= 0 && i+1 < len(args):
			// A one-letter option that takes the next word (arch -e V=1).
			opts = append(opts, optArg{name: a, at: i, val: args[i+1], valAt: i + 1})
			i++
		case s.singleDash && strings.IndexByte(a, '=') > 1 && slices.Contains(s.long, a[1:strings.IndexByte(a, '=')+1]):
			// A one-dash word option the entry lists with "=", its value
			// attached (terraform plan -out=tfplan).
			eq := strings.IndexByte(a, '=')
			opts = append(opts, optArg{name: a[:eq], at: i, val: a[eq+1:], valAt: i})
		case s.singleDash && i+1 < len(args) && slices.Contains(s.long, a[1:]+"="):
			// A one-dash word option the entry lists with "=" takes the
			// next word (openssl enc -in FILE -out FILE).
			opts = append(opts, optArg{name: a, at: i, val: args[i+1], valAt: i + 1})
			i++
		case s.singleDash:
			opts = append(opts, optArg{name: a, at: i, valAt: -1})
		case a[1] == '-':
			opts, i = s.scanLong(args, i, opts)
		default:
			opts, i = s.scanShort(args, i, opts)
		}
	}
	return opts, ops
}

// scanLong reads the long option args[i] (and its value) into opts and
// returns them and the index of the last word it used.
func (s *cmdSpec) scanLong(args []string, i int, opts []optArg) ([]optArg, int) {
	a := args[i]
	name, val, hasEq := strings.Cut(a, "=")
	n0 := len(opts)
	s.resolveAll(name, func(canon string) {
		o := optArg{name: canon, at: i, valAt: -1}
		if hasEq {
			o.val, o.valAt = val, i
		}
		opts = append(opts, o)
	})
	if s.wraps && len(opts)-n0 != 1 {
		// A wrapper's option it does not know, or abbreviated
		// ambiguously (the wrapper refuses it): its value, if any, is
		// unknown, and the next word is not taken for it.
		opts = append(opts[:n0], optArg{name: name, at: i, valAt: -1, unknown: true})
		if hasEq {
			opts[n0].val, opts[n0].valAt = val, i
		}
		return opts, i
	}
	if hasEq || len(opts) == n0 {
		if len(opts) == n0 {
			o := optArg{name: name, at: i, valAt: -1}
			if hasEq {
				o.val, o.valAt = val, i
			}
			opts = append(opts, o)
		}
		return opts, i
	}
	// A separate value: the next word, when any option it may be takes
	// one.
	if len(opts)-n0 > 1 {
		for k := n0; k < len(opts); k++ {
			opts[k].ambiguous = true
		}
	}
	if s.anyTakesValue(opts[n0:]) && i+1 < len(args) {
		i++
		for k := n0; k < len(opts); k++ {
			opts[k].val, opts[k].valAt = args[i], i
		}
		if len(opts)-n0 == 1 && s.rare != nil && contains(s.rare.pairs, strings.TrimPrefix(opts[n0].name, "--")) && i+1 < len(args) {
			i++ // the second value of a pair (--bind SRC DEST)
		}
	}
	return opts, i
}

// scanShort reads the cluster of short options args[i] (and the value of
// the one that takes a value) into opts and returns them and the index of
// the last word it used.
func (s *cmdSpec) scanShort(args []string, i int, opts []optArg) ([]optArg, int) {
	a := args[i]
	var short, shortAttached string
	if s.wrap != nil {
		short, shortAttached = s.wrap.short, s.wrap.shortAttached
	}
	for j := 1; j < len(a); j++ {
		c := a[j]
		if s.numeric && c >= '0' && c <= '9' {
			break // -5: a count, not options
		}
		o := optArg{name: shortName(a[j]), at: i, valAt: -1}
		switch {
		case strings.IndexByte(s.shortVal, c) >= 0:
			if j+1 < len(a) {
				o.val, o.valAt = a[j+1:], i
			} else if i+1 < len(args) {
				i++
				o.val, o.valAt = args[i], i
			}
			opts = append(opts, o)
			return opts, i
		case strings.IndexByte(shortAttached, c) >= 0:
			o.val, o.valAt = a[j+1:], i
			opts = append(opts, o)
			return opts, i
		case s.wraps && strings.IndexByte(short, c) < 0:
			// A wrapper's unknown letter: the rest of the word is
			// unreadable (it may be the letter's value). Its letters are
			// still reported, unknown, so a risky one counts (fail
			// closed); they take no value from the next word.
			for k := j; k < len(a); k++ {
				opts = append(opts, optArg{name: shortName(a[k]), at: i, valAt: -1, unknown: true})
			}
			return opts, i
		}
		opts = append(opts, o)
	}
	return opts, i
}

// wrapped reads a wrapper's command line (words[0] is the wrapper) with
// the one parser: it returns where the command it runs starts
// (len(words) when none follows), the options it knows, the NAME=value
// operands
// (env) and whether an option is unknown (wraps).
func (s *cmdSpec) wrapped(words []word) (start int, opts []optArg, envs []string, unknown bool) {
	args := make([]string, len(words)-1)
	for i, wd := range words[1:] {
		args[i] = wd.text
	}
	opts, ops := s.scanWords(args, words[1:], true)
	start = len(words)
	if p := s.wrapFields().positional; len(ops) > p {
		start = ops[p] + 1
	}
	known := opts[:0]
	for _, o := range opts {
		switch {
		case o.assign:
			envs = append(envs, o.val)
		case o.unknown:
			unknown = true
			continue
		}
		known = append(known, o)
	}
	return start, known, envs, unknown
}

// resolveAll calls fn with each long option name ("--out") may be: the
// option itself when the table lists it exactly, else every option it is
// a prefix of. Nothing when the table does not know it.
func (s *cmdSpec) resolveAll(name string, fn func(canon string)) {
	n := name[2:]
	if n == "" {
		return
	}
	for _, l := range s.long {
		if strings.TrimSuffix(l, "=") == n {
			fn(name)
			return
		}
	}
	var seen [4]string // "x" and "x=" are one option
	k := 0
	for _, l := range s.long {
		c := strings.TrimSuffix(l, "=")
		if !strings.HasPrefix(c, n) {
			continue
		}
		dup := false
		for _, x := range seen[:k] {
			dup = dup || x == c
		}
		if dup {
			continue
		}
		if k < len(seen) {
			seen[k] = c
			k++
		}
		fn("--" + c)
	}
}

// anyTakesValue reports whether any of the options takes a value.
func (s *cmdSpec) anyTakesValue(opts []optArg) bool {
	for _, o := range opts {
		if s.takesValue(o.name[2:]) {
			return true
		}
	}
	return false
}

// firstOperand returns the index of the first operand of args, the
// subcommand of a command with subcommands (len(args) when there is
// none): git's global options (-C DIR, --git-dir=DIR, -c k=v) come first.
func (s *cmdSpec) firstOperand(args []string) int {
	var optBuf [8]optArg
	var opBuf [4]int
	_, ops := s.scanInto(args, nil, true, optBuf[:0], opBuf[:0])
	if len(ops) == 0 {
		return len(args)
	}
	return ops[0]
}

// valWord returns the word holding o's value, its text the value alone
// ("--output=x" gives x, keeping the word's quoting).
func valWord(args []word, o optArg) word {
	v := args[o.valAt]
	v.text = o.val
	return v
}

// dashChars holds "-c" for every printable ASCII c, so a short option's
// name is a slice of it, not a new string.
const dashChars = "-!-\"-#-$-%-&-'-(-)-*-+-,---.-/-0-1-2-3-4-5-6-7-8-9-:-;-<-=->-?-@-A-B-C-D-E-F-G-H-I-J-K-L-M-N-O-P-Q-R-S-T-U-V-W-X-Y-Z-[-\\-]-^-_-`-a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-s-t-u-v-w-x-y-z-{-|-}-~"

// shortName returns "-" followed by c.
func shortName(c byte) string {
	if c > 32 && c < 127 {
		i := 2 * int(c-33)
		return dashChars[i : i+2]
	}
	return "-" + string([]byte{c})
}
