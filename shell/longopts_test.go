package shell

import (
	"slices"
	"strings"
	"testing"
)

// TestLongOptions checks the per-command gathering against every command's
// long options gathered at once, the way the table was built before: the
// same names for every command and subcommand, and none for others.
func TestLongOptions(t *testing.T) {
	t.Parallel()
	all := map[string][]string{}
	add := func(key string, names ...string) {
		for _, n := range names {
			if n = strings.TrimPrefix(n, "--"); n != "" && !slices.Contains(all[key], n) {
				all[key] = append(all[key], n)
			}
		}
	}
	var walk func(key string, s *cmdSpec)
	walk = func(key string, s *cmdSpec) {
		add(key, s.long...)
		for n, ss := range s.subs {
			walk(key+" "+n, ss)
		}
	}
	for name, s := range cmdSpecs() {
		walk(name, s)
	}
	for name, s := range fileSpecs() {
		for _, l := range s.longVal {
			add(name, l+"=")
		}
		for _, l := range slices.Concat(s.readOpts, s.writeOpts, s.patOpts) {
			if strings.HasPrefix(l, "--") {
				add(name, l)
			}
		}
	}
	for name, s := range map[string]*fileSpec{"curl": curlSpec, "wget": wgetSpec} {
		for _, l := range s.longVal {
			add(name, l+"=")
		}
	}
	for _, l := range tarValueLong {
		add("tar", l+"=")
	}
	for name, s := range wrappers() {
		add(name, s.long...)
		for _, l := range s.longVal {
			add(name, l+"=")
		}
	}
	for _, r := range BuiltinExecFlags() {
		key := strings.TrimSuffix(r.Command+" "+r.Sub, " ")
		for _, f := range r.Flags {
			if strings.HasPrefix(f, "--") {
				add(key, f)
			}
		}
	}
	if len(all) < 50 {
		t.Fatalf("only %d commands with long options gathered", len(all))
	}
	names := func(list []string) []string {
		var out []string
		for _, n := range list {
			if n = strings.TrimSuffix(n, "="); !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
		slices.Sort(out)
		return out
	}
	for key, want := range all {
		got, want := names(longOptions(key)), names(want)
		if !slices.Equal(got, want) {
			t.Errorf("longOptions(%q) = %q, want %q", key, got, want)
		}
	}
	for _, key := range []string{"", "nosuchcommand", "git nosuchsub", "ls nosuchsub"} {
		if got := longOptions(key); len(all[key]) == 0 && len(got) != 0 {
			t.Errorf("longOptions(%q) = %q, want none", key, got)
		}
	}
}
