package shell

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
)

var updateTable = flag.Bool("update-table", false, "rewrite commands_table.go from the command families")

// families are the families of the command table, in merge order: a
// field two families set is the later one's.
func families() []map[string]*cmdSpec {
	return []map[string]*cmdSpec{riskCommands(), execCommands(), fileCommands(), wrapCommands(), launchCommands(), readCommands()}
}

// mergedFamilies merges the families' entries into one entry per command
// and declares their options: what commands_table.go must hold.
func mergedFamilies() map[string]*cmdSpec {
	out := map[string]*cmdSpec{}
	for _, f := range families() {
		for name, s := range f {
			out[name] = merge(out[name], s, true)
		}
	}
	for _, s := range out {
		declareOptions(s)
	}
	return out
}

// tableEntries returns the command table by name.
func tableEntries() map[string]*cmdSpec {
	out := make(map[string]*cmdSpec, len(commandTable))
	for _, e := range commandTable {
		out[e.name] = e.spec
	}
	return out
}

// mergedRoles merges commandRoles' lists into one entry per name, sorted
// by name. A name twice in one list is an error: an edit that meant
// another role.
func mergedRoles() ([]namedRoles, error) {
	by := map[string]role{}
	for _, l := range commandRoles() {
		for _, name := range l.names {
			if by[name]&l.role != 0 {
				return nil, fmt.Errorf("%q is listed twice as %s", name, roleName(l.role))
			}
			by[name] |= l.role
		}
	}
	opts := map[string]interpreterList{}
	for _, l := range commandInterpreters() {
		for _, name := range l.names {
			if _, ok := opts[name]; ok || by[name]&roleInterpreter != 0 {
				return nil, fmt.Errorf("%q is listed twice as an interpreter", name)
			}
			opts[name] = l
			by[name] |= roleInterpreter
		}
	}
	checks := map[string]riskCheck{}
	for _, l := range commandRiskChecks() {
		for _, name := range l.names {
			if _, ok := checks[name]; ok {
				return nil, fmt.Errorf("%q has two risk checks", name)
			}
			checks[name] = l.check
			if _, ok := by[name]; !ok {
				by[name] = 0
			}
		}
	}
	out := make([]namedRoles, 0, len(by))
	for name, r := range by {
		out = append(out, namedRoles{name: name, roles: r, check: checks[name], code: opts[name].code, val: opts[name].val})
	}
	slices.SortFunc(out, func(a, b namedRoles) int { return strings.Compare(a.name, b.name) })
	return out, nil
}

// roleSlotsFor lays out roleSlots (see rolesOf) for the merged roles:
// each name, in table order, takes the first free slot from its hash on.
func roleSlotsFor(roles []namedRoles) ([1 << roleSlotBits]uint16, error) {
	var slots [1 << roleSlotBits]uint16
	if 2*len(roles) > len(slots) {
		return slots, fmt.Errorf("%d names with roles: make roleSlotBits larger", len(roles))
	}
	for i, e := range roles {
		h := roleHash(e.name)
		for slots[h] != 0 {
			h = (h + 1) % uint32(len(slots))
		}
		slots[h] = uint16(i + 1)
	}
	return slots, nil
}

// tableStarts lays out commandStart for the sorted names: where the
// names with each first byte begin.
func tableStarts(names []string) (start [257]uint16) {
	i := 0
	for b := range 256 {
		start[b] = uint16(i)
		for i < len(names) && names[i] != "" && int(names[i][0]) == b {
			i++
		}
	}
	start[256] = uint16(len(names))
	return start
}

// roleName is the constant name of a single role.
func roleName(r role) string {
	var b bytes.Buffer
	if err := writeConst(&b, reflect.ValueOf(r)); err != nil {
		return fmt.Sprint(uint16(r))
	}
	return b.String()
}

// The command table the analysis reads (commands_table.go) is the
// families merged, as data, and the role table the role lists merged.
// After editing a family or a role list:
// go test ./shell -run TestCommandTable -update-table
func TestCommandTable(t *testing.T) {
	want := mergedFamilies()
	roles, err := mergedRoles()
	if err != nil {
		t.Fatal(err)
	}
	src, err := tableSource(want, roles)
	if err != nil {
		t.Fatal(err)
	}
	if *updateTable {
		if err := os.WriteFile("commands_table.go", src, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	const stale = "; run go test ./shell -run TestCommandTable -update-table"
	if on, err := os.ReadFile("commands_table.go"); err != nil || !bytes.Equal(on, src) {
		t.Fatalf("commands_table.go is not the families merged (err %v)%s", err, stale)
	}
	// What the compiler made of the source is the merged families, field
	// by field (functions by their code).
	if len(commandTable) != len(want) {
		t.Fatalf("%d entries, want %d%s", len(commandTable), len(want), stale)
	}
	for i, e := range commandTable {
		if i > 0 && commandTable[i-1].name >= e.name {
			t.Fatalf("entries not sorted: %q before %q", commandTable[i-1].name, e.name)
		}
		if g, w := describe(reflect.ValueOf(e.spec)), describe(reflect.ValueOf(want[e.name])); g != w {
			t.Errorf("%s:\n got %s\nwant %s%s", e.name, g, w, stale)
		}
	}
	names := make([]string, len(commandTable))
	for i, e := range commandTable {
		names[i] = e.name
	}
	if commandStart != tableStarts(names) {
		t.Fatalf("commandStart is not where the table's first bytes begin%s", stale)
	}
	if !slices.Equal(roleTable[:], roles) {
		t.Fatalf("roleTable is not the role lists merged%s", stale)
	}
	if slots, err := roleSlotsFor(roles); err != nil || slots != roleSlots {
		t.Fatalf("roleSlots is not roleTable's hash table (err %v)%s", err, stale)
	}
	has := map[string]role{}
	for _, e := range roles {
		has[e.name] = e.roles
	}
	// Every name with roles, and the command table's names, which mostly
	// have none, are found with their roles.
	for _, e := range commandTable {
		if _, ok := has[e.name]; !ok {
			has[e.name] = 0
		}
	}
	for name, r := range has {
		if got := rolesOf(name); got != r {
			t.Errorf("rolesOf(%q) = %d, want %d", name, got, r)
		}
	}
}

// tableSource writes the Go source of commands_table.go for the merged
// table. An entry several commands or subcommands have alike is written
// once, as a variable they share: the table is data the runtime's start
// reads through (the data segment's pointer bitmap), so its size is time.
// The role table follows it.
func tableSource(table map[string]*cmdSpec, roles []namedRoles) ([]byte, error) {
	names := make([]string, 0, len(table))
	for name := range table {
		names = append(names, name)
	}
	slices.Sort(names)
	w := &tableWriter{uses: map[string]int{}, shared: map[string]string{}}
	for _, name := range names {
		if err := w.count(reflect.ValueOf(table[name])); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	var b bytes.Buffer
	b.WriteString("// Code generated by go test ./shell -run TestCommandTable -update-table; DO NOT EDIT.\n\n")
	b.WriteString("package shell\n\n")
	b.WriteString("// commandTable is the command table: the families' entries merged into one\n")
	b.WriteString("// per command, options declared, sorted by name (TestCommandTable). As\n")
	b.WriteString("// data the linker lays out, it costs a process nothing to build.\n")
	b.WriteString("var commandTable = [...]namedSpec{\n")
	for _, name := range names {
		fmt.Fprintf(&b, "{%q, ", name)
		if err := w.value(&b, reflect.ValueOf(table[name]), true); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n\n")
	b.WriteString("// commandStart holds where the command table's names with each first\n")
	b.WriteString("// byte begin: those with byte b are commandTable[commandStart[b]:\n")
	b.WriteString("// commandStart[b+1]].\n")
	b.WriteString("var commandStart = [257]uint16{")
	for i, n := range tableStarts(names) {
		if i%16 == 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%d, ", n)
	}
	b.WriteString("\n}\n\n")
	b.WriteString("// roleTable is the role lists (commandRoles) merged into one entry per\n")
	b.WriteString("// name, sorted by name.\n")
	b.WriteString("var roleTable = [...]namedRoles{\n")
	for _, e := range roles {
		fmt.Fprintf(&b, "{name: %q", e.name)
		if e.roles != 0 {
			b.WriteString(", roles: ")
			if err := writeConst(&b, reflect.ValueOf(e.roles)); err != nil {
				return nil, fmt.Errorf("%s: %w", e.name, err)
			}
		}
		if e.check != noRiskCheck {
			b.WriteString(", check: ")
			if err := writeConst(&b, reflect.ValueOf(e.check)); err != nil {
				return nil, fmt.Errorf("%s: %w", e.name, err)
			}
		}
		if e.code != "" {
			fmt.Fprintf(&b, ", code: %q", e.code)
		}
		if e.val != "" {
			fmt.Fprintf(&b, ", val: %q", e.val)
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n\n")
	slots, err := roleSlotsFor(roles)
	if err != nil {
		return nil, err
	}
	b.WriteString("// roleSlots is the hash table rolesOf searches roleTable by.\n")
	b.WriteString("var roleSlots = [1 << roleSlotBits]uint16{")
	for i, s := range slots {
		if i%32 == 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%d, ", s)
	}
	b.WriteString("\n}\n")
	// The shared entries, in the order first used; writing one may name
	// more.
	for i := 0; i < len(w.order); i++ {
		// A value, referred to by its address: the linker lays out an
		// address, where copying a pointer variable is done at init.
		fmt.Fprintf(&b, "\nvar %s = ", w.shared[w.order[i]])
		if err := w.value(&b, w.defs[i], true); err != nil {
			return nil, err
		}
		b.WriteString("\n")
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting the table: %w", err)
	}
	return src, nil
}

// tableWriter writes the table's values as Go, entries used more than
// once as shared variables.
type tableWriter struct {
	plain  bool           // write every entry in full (for the keys)
	uses   map[string]int // entry, written in full, to how often it is used
	shared map[string]string
	order  []string        // shared entries' keys in the order named
	defs   []reflect.Value // their values (cmdSpec structs), in that order
}

// key writes v in full on one line: what entries alike have in common.
func (w *tableWriter) key(v reflect.Value) (string, error) {
	var b bytes.Buffer
	err := (&tableWriter{plain: true}).value(&b, v, false)
	return b.String(), err
}

// count counts the uses of the entries in v and in its subcommands.
func (w *tableWriter) count(v reflect.Value) error {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		if v.Type() == reflect.TypeFor[*cmdSpec]() {
			k, err := w.key(v)
			if err != nil {
				return err
			}
			if w.uses[k]++; w.uses[k] > 1 {
				return nil // its parts are counted once
			}
		}
		return w.count(v.Elem())
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if err := w.count(v.Field(i)); err != nil {
				return err
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			if err := w.count(v.Index(i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// value writes v as a Go expression of its type. A cmdSpec is written a
// field per line (top), so a change to an entry is a change to a line.
func (w *tableWriter) value(b *bytes.Buffer, v reflect.Value, top bool) error {
	typeName := strings.ReplaceAll(v.Type().String(), "shell.", "")
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return nil
		}
		if !w.plain && v.Type() == reflect.TypeFor[*cmdSpec]() {
			k, err := w.key(v)
			if err != nil {
				return err
			}
			if w.uses[k] > 1 {
				name, ok := w.shared[k]
				if !ok {
					name = fmt.Sprintf("sharedSpec%d", len(w.order))
					w.shared[k] = name
					w.order = append(w.order, k)
					w.defs = append(w.defs, v.Elem())
				}
				b.WriteString("&" + name)
				return nil
			}
		}
		b.WriteString("&")
		return w.value(b, v.Elem(), top)
	case reflect.Struct:
		b.WriteString(typeName + "{")
		return w.fields(b, v, top)
	case reflect.Slice:
		if v.Len() == 0 {
			b.WriteString("nil")
			return nil
		}
		b.WriteString(typeName + "{")
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			e := v.Index(i)
			if e.Kind() == reflect.Struct {
				// Elided type: {…} for each element.
				b.WriteString("{")
				if err := w.fields(b, e, false); err != nil {
					return err
				}
				continue
			}
			if err := w.value(b, e, false); err != nil {
				return err
			}
		}
		b.WriteString("}")
	case reflect.Func:
		if v.IsNil() {
			b.WriteString("nil")
			return nil
		}
		name := runtime.FuncForPC(v.Pointer()).Name()
		name = strings.TrimPrefix(name, "github.com/toolgate/toolgate/shell.")
		if strings.Contains(name, ".func") || strings.Contains(name, "/") || strings.HasSuffix(name, "-fm") {
			return fmt.Errorf("function %s has no name the table can refer to: make it a named function", name)
		}
		b.WriteString(name)
	case reflect.String:
		fmt.Fprintf(b, "%q", v.String())
	case reflect.Bool:
		fmt.Fprint(b, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		fmt.Fprint(b, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return writeConst(b, v)
	default:
		return fmt.Errorf("cannot write a %s (%s) as data", v.Kind(), typeName)
	}
	return nil
}

// constNames are the names of the table's enumerations, by value; an
// Effect or a role is a set (constSets), written as its bits' names
// or-ed. A name out of order here changes what the written table means,
// which TestCommandTable's field-by-field comparison with the families
// catches.
var constNames = map[reflect.Type][]string{
	reflect.TypeFor[Effect]():    {"EffectRuns", "EffectReads", "EffectWrites", "EffectDeletes", "EffectNetwork", "EffectPrivilege", "EffectPersistence"},
	reflect.TypeFor[fileKind]():  {"noFiles", "readAll", "writeAll", "copyKind", "moveKind", "linkKind", "modeKind", "pairKind", "firstKind", "scpKind", "writeFirst", "writeSecond", "bySub", "fetchKind", "tarKind", "compressKind", "codeKind", "syncKind"},
	reflect.TypeFor[fileRole]():  {"noRole", "fileRead", "fileWrite", "fileOutput", "fileDir", "fileArchive", "fileChdir", "fileKey", "fileInto"},
	reflect.TypeFor[valueForm](): {"formPath", "formAt", "formAnyAt", "formField", "formNoAssign", "formWriteOut", "formItem", "formRevPath"},
	reflect.TypeFor[riskCheck](): {"noRiskCheck", "checkTreeDelete", "checkTreeMode", "checkTreeOwner", "checkFormat", "checkDeviceWrite",
		"checkShutdown", "checkRunlevel", "checkSystemctlPower", "checkFindDelete"},
	reflect.TypeFor[runner](): {"runsNothing", "runsFindExec", "runsFdExec", "runsGitExec", "runsChdir", "runsSource", "runsParts"},
	reflect.TypeFor[role](): {"roleShell", "roleFetcher", "roleSQLShell", "roleScriptReader", "roleListReader", "rolePlainCommand",
		"roleOpener", "rolePlainProgram", "roleServiceClient", "roleInterpreter", "roleGitPrinter", "roleSource", "rolePackageRunner", "roleWordOptions", "rolePassesArgs",
		"roleOutputOptions", "roleTransferShell", "roleDNSUpdater", "roleMigrator", "roleLocalManager",
		"rolePrinter", "roleUploader"},
}

// constSets are the enumerations whose values are sets of bits.
var constSets = map[reflect.Type]bool{reflect.TypeFor[Effect](): true, reflect.TypeFor[role](): true}

// writeConst writes an unsigned value of the table by its constants'
// names, so the generated table reads like the families it is made of.
func writeConst(b *bytes.Buffer, v reflect.Value) error {
	names, ok := constNames[v.Type()]
	if !ok {
		return fmt.Errorf("%s has no constant names: add them to constNames", v.Type())
	}
	n := v.Uint()
	if !constSets[v.Type()] {
		if n >= uint64(len(names)) {
			return fmt.Errorf("%s %d has no name in constNames", v.Type(), n)
		}
		b.WriteString(names[n])
		return nil
	}
	for i, name := range names {
		if n&(1<<i) == 0 {
			continue
		}
		if n != v.Uint() {
			b.WriteString(" | ")
		}
		b.WriteString(name)
		n &^= 1 << i
	}
	if n != 0 {
		return fmt.Errorf("%s bits %#x have no name in constNames", v.Type(), n)
	}
	return nil
}

// fields writes the set fields of struct v and the closing brace, keyed,
// except for a namedSpec, written {name, entry}.
func (w *tableWriter) fields(b *bytes.Buffer, v reflect.Value, top bool) error {
	if v.Type() == reflect.TypeFor[namedSpec]() {
		fmt.Fprintf(b, "%q, ", v.Field(0).String())
		if err := w.value(b, v.Field(1), false); err != nil {
			return err
		}
		b.WriteString("}")
		return nil
	}
	sep := ", "
	if top {
		sep = ",\n"
		b.WriteString("\n")
	}
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		if f.IsZero() || f.Kind() == reflect.Slice && f.Len() == 0 {
			continue
		}
		b.WriteString(v.Type().Field(i).Name + ": ")
		if err := w.value(b, f, false); err != nil {
			return fmt.Errorf("%s: %w", v.Type().Field(i).Name, err)
		}
		b.WriteString(sep)
	}
	b.WriteString("}")
	return nil
}
