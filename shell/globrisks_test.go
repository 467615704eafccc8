package shell

import "testing"

func TestMayBeCriticalWritePath(t *testing.T) {
	t.Parallel()
	const home = "/home/u"
	cases := []struct {
		p    string
		code string // "" for none
	}{
		{"/home/u/.bashr?", RiskStartupFile},
		{"~/.z*", RiskStartupFile},
		{"/home/*/.ssh/authorized_key*", RiskAuthorizedKeys},
		{"/etc/sudoers.d/*", RiskAccountFile},
		{"/etc/pass*", RiskAccountFile},
		{"/dev/sd?", RiskDeviceWrite},
		{".git/hook*/pre-commit", RiskGitHook},
		{"proj/.GIT/hooks/*", RiskGitHook},
		{".git/conf*", RiskGitConfig},
		{"/home/u/proj/.gi?", RiskGitConfig},
		// Benign twins.
		{"/home/u/proj/*.o", ""},
		{"src/*.go", ""},
		{"/home/u/proj/docs/*.md", ""},
		{"/tmp/*.log", ""},
		{"/etc/host*", ""},
		{".github/workflows/*.yml", ""},
		{"/home/u/.cache/*.bin", ""},
		{"build/*", RiskGitConfig}, // build/.git: a '*' may stand for a dot name (dotglob)
		{"/dev/null", ""},
		{"/home/u/proj/.gitignore", ""},
		{"scripts/*.sh", ""},
	}
	for _, c := range cases {
		code, reason, ok := MayBeCriticalWritePath(c.p, home)
		if code != c.code || ok != (c.code != "") {
			t.Errorf("MayBeCriticalWritePath(%q) = %q %q %v, want %q", c.p, code, reason, ok, c.code)
		}
	}
}
