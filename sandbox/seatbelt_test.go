package sandbox

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/*.sb from Seatbelt's output")

// goldenProfile has one spec of each shape: a directory with exceptions,
// a glob, a file, a directory; a home inside the temporary directory with
// a workspace inside it; a name with a quote.
var goldenProfile = &Profile{
	Write: []string{"/Users/alice/proj", "/private/tmp"},
	DenyRead: []Spec{
		{Parent: "/Users/alice", Name: ".ssh", Dir: true, Except: []string{"*.pub", "known_hosts"}, Reason: "holds SSH private keys"},
		{Parent: "/Users/alice/proj", Name: "*.tfstate", Reason: "is Terraform state"},
		{Parent: "/Users/alice", Name: ".netrc", Reason: "holds login passwords"},
		{Parent: "/Users/alice/Library/Application Support", Name: "toolgate", Dir: true, Reason: "is toolgate's own state"},
	},
	Protect: []Spec{
		{Parent: "/Users/alice/proj/.git", Name: "hooks", Dir: true, Reason: "holds git hooks"},
		{Parent: "/Users/alice/proj/.git", Name: "config", Reason: "is git configuration"},
		{Parent: "/Users/alice/proj", Name: `we"ird`, Reason: "has a quote"},
	},
	NoWrite: []string{"/Users"},
}

func TestSeatbeltGolden(t *testing.T) {
	t.Parallel()
	for name, port := range map[string]uint16{"seatbelt.sb": 0, "seatbelt-proxy.sb": 3128} {
		got := Seatbelt(goldenProfile, port)
		path := filepath.Join("testdata", name)
		if *updateGolden {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("Seatbelt differs from %s (go test ./sandbox -run TestSeatbeltGolden -update-golden):\n%s", path, got)
		}
	}
}

// The path filters match what the specs cover, in any case, and nothing
// beside it.
func TestSeatbeltFilters(t *testing.T) {
	t.Parallel()
	filterRE := regexp.MustCompile(`#"(.*)"\)$`)
	for _, c := range []struct {
		spec      Spec
		match, no []string
	}{
		{goldenProfile.DenyRead[0], []string{"/Users/alice/.ssh", "/Users/alice/.ssh/id_rsa", "/users/ALICE/.SSH/id_rsa"}, []string{"/Users/alice/.sshx", "/Users/alice/x/.ssh"}},
		{goldenProfile.DenyRead[1], []string{"/Users/alice/proj/prod.tfstate", "/Users/alice/proj/X.TFSTATE"}, []string{"/Users/alice/proj/a/prod.tfstate", "/Users/alice/proj/prod.tfstate.txt"}},
		{goldenProfile.DenyRead[2], []string{"/Users/alice/.netrc"}, []string{"/Users/alice/.netrc2", "/Users/alice/.netrc/x"}},
		{Spec{Parent: "/", Name: "etc", Dir: true}, []string{"/etc", "/etc/shadow"}, []string{"/etcx", "/x/etc"}},
	} {
		m := filterRE.FindStringSubmatch(sbplFilter(c.spec))
		if m == nil {
			t.Fatalf("%+v: no regex in %s", c.spec, sbplFilter(c.spec))
		}
		re := regexp.MustCompile(strings.ReplaceAll(m[1], `\"`, `"`))
		for _, p := range c.match {
			if !re.MatchString(p) {
				t.Errorf("%s does not match %s", re, p)
			}
		}
		for _, p := range c.no {
			if re.MatchString(p) {
				t.Errorf("%s matches %s", re, p)
			}
		}
	}
}

// Every spec of the default profile is rendered.
func TestSeatbeltDefault(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	ws := filepath.Join(home, "proj")
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	p, err := Default(Options{Home: home, Workspaces: []string{ws}, Temp: []string{t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	sb := Seatbelt(p, 0)
	for _, s := range append(p.DenyRead, p.Protect...) {
		if !strings.Contains(sb, sbplFilter(s)) {
			t.Errorf("%s is not in the profile", s.Path())
		}
	}
	if !strings.Contains(sb, "(deny network*)") {
		t.Error("network is not denied")
	}
}
