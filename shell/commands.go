package shell

import (
	"slices"
	"strings"
)

// The command table (DESIGN §3.5) has one entry per known command, read
// by the one option parser (scan) for every check. Its entries are written
// by family, each in its own file:
//
//   - riskCommands (specs.go): effects and risk classes;
//   - execCommands (commands_exec.go): exec-capable options, the options
//     whose values are command lines, git's global options;
//   - fileCommands (commands_files.go): the files options and operands
//     read, write and delete;
//   - wrapCommands (commands_wrap.go): the wrappers, commands that run
//     the command following their options (env, nice, sudo, timeout);
//   - launchCommands (launchers.go): the commands that run another after a
//     subcommand, options and operands (ssh HOST CMD).
//
// Adding a command, or an option's effect, is adding data to one of them,
// with a decision case. The families are merged into one entry per
// command, and the merged table written as data (commands_table.go, by
// TestCommandTable): a hook process analyses one command line, and
// building the families' maps and merging them was most of its work.
//
// What the analysis knows of a command by its name alone, its roles (a
// shell, a downloader, a database shell), an interpreter's options and
// the critical risks worth checking, is lists in commandRoles,
// commandInterpreters and commandRiskChecks (roles.go), merged the same
// way into roleTable.

// commandSpec returns the command table's entry for name, nil for a
// command the table does not know.
func commandSpec(name string) *cmdSpec {
	if name == "" {
		return nil
	}
	// Only the names with name's first byte are searched: the analysis
	// looks a command up a dozen times.
	lo, end := int(commandStart[name[0]]), int(commandStart[int(name[0])+1])
	for hi := end; lo < hi; {
		m := int(uint(lo+hi) >> 1)
		if commandTable[m].name < name {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < end && commandTable[lo].name == name {
		return commandTable[lo].spec
	}
	return nil
}

// mergeSpec returns a new entry with the fields of a and b: lists are
// joined, flags and effects or-ed, functions and kinds taken from b when
// it sets them. Neither a nor b is changed (entries are shared): the
// result and its subcommands are copies. It merges the families into the
// table and the rules given to WithExecFlags into the table's entries.
func mergeSpec(a, b *cmdSpec) *cmdSpec { return merge(a, b, false) }

// merge is mergeSpec; with own, a is the caller's own entry (made by an
// earlier merge), whose subcommands are taken over rather than copied.
func merge(a, b *cmdSpec, own bool) *cmdSpec {
	if a == nil {
		a = &cmdSpec{}
	}
	if b == nil {
		b = &cmdSpec{}
	}
	out := *a
	out.long = joinNew(a.long, b.long)
	out.shortVal = a.shortVal
	if out.shortVal == "" && !dupByte(b.shortVal) {
		out.shortVal = b.shortVal
	} else {
		for i := 0; i < len(b.shortVal); i++ {
			if strings.IndexByte(out.shortVal, b.shortVal[i]) < 0 {
				out.shortVal += b.shortVal[i : i+1]
			}
		}
	}
	out.effect |= b.effect
	if b.class != "" {
		out.class, out.why, out.bare = b.class, b.why, b.bare
	}
	switch {
	case len(b.opts) == 0:
		out.opts = clipped(a.opts)
	case len(a.opts) == 0:
		out.opts = clipped(b.opts)
	default:
		out.opts = append(append([]optEffect(nil), a.opts...), b.opts...)
	}
	out.deletes = a.deletes || b.deletes
	out.treeDeletes = a.treeDeletes || b.treeDeletes
	out.numeric = a.numeric || b.numeric
	out.singleDash = a.singleDash || b.singleDash
	out.bundled = a.bundled || b.bundled
	out.wraps = a.wraps || b.wraps
	out.inOrder = a.inOrder || b.inOrder
	out.assigns = a.assigns || b.assigns
	out.subject = a.subject || b.subject
	out.exec = a.exec || b.exec
	if b.files != noFiles {
		out.files = b.files
	}
	out.pattern = a.pattern || b.pattern
	out.decompress = a.decompress || b.decompress
	out.saves = a.saves || b.saves
	out.probe = a.probe || b.probe
	out.fileOpts = a.fileOpts || b.fileOpts
	if b.runs != runsNothing {
		out.runs = b.runs
	}
	out.readOnly = a.readOnly || b.readOnly
	out.readBare = a.readBare || b.readBare
	out.wrap = mergeWrap(a.wrap, b.wrap)
	out.read = mergeRead(a.read, b.read)
	out.rare = mergeRare(a.rare, b.rare, b.class != "")
	if len(a.subs)+len(b.subs) > 0 {
		out.subs = make(subcommands, 0, len(a.subs)+len(b.subs))
		for _, sc := range a.subs {
			if !own {
				sc.spec = mergeSpec(sc.spec, nil)
			}
			out.subs = append(out.subs, sc)
		}
		for _, sc := range b.subs {
			// An entry of out.subs is a copy made here: this entry's own.
			if i := out.subs.index(sc.name); i >= 0 {
				out.subs[i].spec = merge(out.subs[i].spec, sc.spec, true)
			} else {
				out.subs = append(out.subs, namedSpec{sc.name, merge(nil, sc.spec, true)})
			}
		}
	}
	return &out
}

// mergeWrap merges the wrapper fields of two entries as merge does: nil
// when the merged fields are all zero, so an entry has a group only when
// it sets one of its fields.
func mergeWrap(a, b *wrapSpec) *wrapSpec {
	if a == nil && b == nil {
		return nil
	}
	x, y := ptrValue(a), ptrValue(b)
	out := wrapSpec{
		short:         joinBytes(x.short, y.short),
		shortAttached: joinBytes(x.shortAttached, y.shortAttached),
		noCommand:     joinBytes(x.noCommand, y.noCommand),
		positional:    max(x.positional, y.positional),
		launch:        append(clipped(x.launch), y.launch...),
	}
	if out.short == "" && out.shortAttached == "" && out.noCommand == "" && out.positional == 0 && len(out.launch) == 0 {
		return nil
	}
	return &out
}

// mergeRead merges the read-only fields of two entries as merge does: nil
// when the merged fields are all zero.
func mergeRead(a, b *readSpec) *readSpec {
	if a == nil && b == nil {
		return nil
	}
	x, y := ptrValue(a), ptrValue(b)
	out := readSpec{
		notReadWith:   joinNew(x.notReadWith, y.notReadWith),
		readWith:      joinNew(x.readWith, y.readWith),
		readVerbs:     joinNew(x.readVerbs, y.readVerbs),
		verbAt:        max(x.verbAt, y.verbAt),
		about:         joinNew(x.about, y.about),
		readSQL:       joinNew(x.readSQL, y.readSQL),
		readKey:       x.readKey || y.readKey,
		readEnvNames:  x.readEnvNames || y.readEnvNames,
		verbOnly:      x.verbOnly || y.verbOnly,
		verbLast:      x.verbLast || y.verbLast,
		startsProject: x.startsProject || y.startsProject,
	}
	if len(out.notReadWith)+len(out.readWith)+len(out.readVerbs)+len(out.about)+len(out.readSQL) == 0 && out.verbAt == 0 && !out.readKey && !out.readEnvNames && !out.startsProject && !out.verbOnly && !out.verbLast {
		return nil
	}
	return &out
}

// mergeRare merges the rare fields of two entries as merge does: nil when
// the merged fields are all zero. With risky (b's class replaces a's),
// b's unless replaces a's with it.
func mergeRare(a, b *rareSpec, risky bool) *rareSpec {
	if a == nil && b == nil {
		return nil
	}
	x, y := ptrValue(a), ptrValue(b)
	out := x
	out.pairs = joinNew(x.pairs, y.pairs)
	if risky {
		out.unless = y.unless
	}
	out.dryRun = joinNew(x.dryRun, y.dryRun)
	out.recursive = joinNew(x.recursive, y.recursive)
	if y.dashOperand != nil {
		out.dashOperand = y.dashOperand
	}
	out.analyse = chainChecks(x.analyse, y.analyse)
	out.maxOps = max(x.maxOps, y.maxOps)
	if y.suffix != "" {
		out.suffix = y.suffix
	}
	if y.needMode != "" {
		out.needMode = y.needMode
	}
	out.everySub = append(clipped(x.everySub), y.everySub...)
	if y.otherSub != nil {
		out.otherSub = y.otherSub
	}
	if y.fileCode != nil {
		out.fileCode = y.fileCode
	}
	if y.otherProgram != nil {
		out.otherProgram = y.otherProgram
	}
	if y.patternArgs != nil {
		out.patternArgs = y.patternArgs
	}
	if len(out.pairs)+len(out.unless)+len(out.dryRun)+len(out.recursive)+len(out.everySub) == 0 && out.dashOperand == nil && out.analyse == nil &&
		out.maxOps == 0 && out.suffix == "" && out.needMode == "" && out.otherSub == nil && out.fileCode == nil && out.otherProgram == nil &&
		out.patternArgs == nil {
		return nil
	}
	return &out
}

// ptrValue is *p, or T's zero value for a nil p.
func ptrValue[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

// wrapFields are the entry's wrapper fields (zero when it has none).
func (s *cmdSpec) wrapFields() wrapSpec { return ptrValue(s.wrap) }

// readFields are the entry's read-only fields (zero when it has none).
func (s *cmdSpec) readFields() readSpec { return ptrValue(s.read) }

// rareFields are the entry's rare fields (zero when it has none).
func (s *cmdSpec) rareFields() rareSpec { return ptrValue(s.rare) }

// declareOptions adds the long options the entry's exec and file effects
// name to its long options, so an abbreviation of one resolves, and makes
// every option whose value the table reads (a script, a value tested)
// one that takes a value, so the parser gives it the next word: the
// entries need not repeat either.
func declareOptions(s *cmdSpec) {
	if r := s.rare; r != nil && len(r.everySub) > 0 {
		for _, sc := range s.subs {
			sc.spec.opts = append(clipped(sc.spec.opts), r.everySub...)
		}
		r.otherSub = &cmdSpec{opts: clipped(r.everySub)}
		declareOptions(r.otherSub)
	}
	ownLong := false
	for i := range s.opts {
		o := &s.opts[i]
		if o.file != noRole || o.mode != "" || o.pattern {
			s.fileOpts = true
		}
		if o.operand || o.match != nil || (o.class != "" || o.effect != 0) && o.value == nil {
			continue // risk options name spellings, not options
		}
		value := o.script || len(o.values) > 0 || o.file != noRole || o.value != nil
		for _, n := range o.names {
			switch {
			case strings.HasPrefix(n, "--") && !strings.Contains(n, "="):
				l := n[2:]
				if value || contains(s.long, l+"=") {
					l += "="
				}
				if !contains(s.long, l) {
					if !ownLong {
						// The list may be a family's: the first append
						// copies it, the rest go to the copy.
						s.long, ownLong = clipped(s.long), true
					}
					s.long = append(s.long, l)
				}
			case value && len(n) == 2 && n[0] == '-' && strings.IndexByte(s.shortVal, n[1]) < 0:
				s.shortVal += n[1:]
			}
		}
	}
	for _, sc := range s.subs {
		declareOptions(sc.spec)
	}
}

// joinNew returns a followed by the elements of b it lacks. The lists of
// entries are shared, never written in place (appends go to a copy): most
// commands are in one family, and the table is built by every hook call
// that analyses a command, so merging one entry copies no list.
func joinNew(a, b []string) []string {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 && !dupString(b) {
		return clipped(b)
	}
	out := append([]string(nil), a...)
	for _, x := range b {
		if !contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// clipped returns s with no room to append in place, so an append copies:
// slices of the table's entries are shared.
func clipped[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s[:len(s):len(s)]
}

// dupString reports whether a string appears twice in list.
func dupString(list []string) bool {
	for i, x := range list {
		if contains(list[:i], x) {
			return true
		}
	}
	return false
}

// joinBytes returns a followed by the bytes of b it lacks.
func joinBytes(a, b string) string {
	for i := 0; i < len(b); i++ {
		if strings.IndexByte(a, b[i]) < 0 {
			a += b[i : i+1]
		}
	}
	return a
}

// dupByte reports whether a byte appears twice in s.
func dupByte(s string) bool {
	for i := 1; i < len(s); i++ {
		if strings.IndexByte(s[:i], s[i]) >= 0 {
			return true
		}
	}
	return false
}

// subcommands are a command's subcommands, by name.
type subcommands []namedSpec

// namedSpec is the entry of a command or subcommand.
type namedSpec struct {
	name string
	spec *cmdSpec
}

// get returns the entry of the subcommand name, nil for one not listed.
func (l subcommands) get(name string) *cmdSpec {
	if i := l.index(name); i >= 0 {
		return l[i].spec
	}
	return nil
}

// index returns the position of the subcommand name, -1 if not listed.
func (l subcommands) index(name string) int {
	for i := range l {
		if l[i].name == name {
			return i
		}
	}
	return -1
}

// sorted returns the subcommands in name order.
func (l subcommands) sorted() subcommands {
	out := slices.Clone(l)
	slices.SortFunc(out, func(a, b namedSpec) int { return strings.Compare(a.name, b.name) })
	return out
}
