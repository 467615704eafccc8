package shell

import (
	"strings"
	"testing"
)

// TestLongOptions checks that every long option of every entry of the
// command table (and of the wrappers) resolves from its shortest unique
// abbreviation, as the command reads it, both for normaliseArgs (which
// reads longOptions) and for the one parser (scan); and that commands the
// table does not know have none.
func TestLongOptions(t *testing.T) {
	t.Parallel()
	checked := 0
	var walk func(key string, s *cmdSpec)
	walk = func(key string, s *cmdSpec) {
		long := longOptions(key)
		for _, l := range s.long {
			if s.singleDash {
				break // one-dash word options (openssl -in FILE): read whole, never abbreviated
			}
			name := strings.TrimSuffix(l, "=")
			abbr := ""
			for n := 1; n < len(name); n++ {
				p := name[:n]
				unique := true
				for _, o := range long {
					if o = strings.TrimSuffix(o, "="); o != name && strings.HasPrefix(o, p) {
						unique = false
						break
					}
				}
				if unique {
					abbr = p
					break
				}
			}
			if abbr == "" {
				continue // a prefix of another option: only its full name is unique
			}
			checked++
			if r, ok := resolveLong(long, "--"+abbr); !ok || r != "--"+name {
				t.Errorf("%s: --%s resolves to %q (known %v), want --%s", key, abbr, r, ok, name)
			}
			if got := normaliseArgs(key, []string{"--" + abbr}); len(abbr) > 1 && key != "git" && !strings.HasPrefix(key, "git ") && got[0] != "--"+name {
				t.Errorf("%s: normaliseArgs reads --%s as %s, want --%s", key, abbr, got[0], name)
			}
			if sub, ok := strings.CutPrefix(key, "git "); ok && !strings.Contains(sub, " ") {
				if got := normaliseArgs("git", []string{sub, "--" + abbr}); len(abbr) > 1 && got[1] != "--"+name {
					t.Errorf("%s: normaliseArgs reads --%s as %s, want --%s", key, abbr, got[1], name)
				}
			}
			opts, _ := s.scan([]string{"--" + abbr}, false)
			if len(opts) != 1 || opts[0].name != "--"+name {
				t.Errorf("%s: scan reads --%s as %v, want --%s", key, abbr, opts, name)
			}
		}
		for _, sc := range s.subs {
			walk(key+" "+sc.name, sc.spec)
		}
	}
	for name, s := range tableEntries() {
		walk(name, s)
	}
	if checked < 500 {
		t.Fatalf("only %d long options checked", checked)
	}
	for _, key := range []string{"", "nosuchcommand", "git nosuchsub", "ls nosuchsub"} {
		if got := longOptions(key); len(got) != 0 {
			t.Errorf("longOptions(%q) = %q, want none", key, got)
		}
	}
}
