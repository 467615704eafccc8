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

func TestMayBeCriticalPickedPath(t *testing.T) {
	t.Parallel()
	const home = "/home/u"
	cases := []struct {
		p    string
		code string // "" for none
	}{
		{"/home/u/proj/**/pre-commit", RiskGitHook},
		{"/home/u/proj/**/pre-*", RiskGitHook},
		{"/home/u/proj/**/*", RiskGitHook},
		{"/home/u/proj/**/config", RiskGitConfig},
		{"/home/u/proj/**/commondir", RiskGitConfig},
		{"/home/u/proj/**/hooks", RiskGitHook},
		{"/home/u/proj/**/.git", RiskGitConfig},
		{"/home/u/proj/.git/hooks/**/post-merge", RiskGitHook}, // find .git/hooks -name post-merge: a file right in DIR
		{"/home/u/proj/.git/modules/**/update", RiskGitHook},
		{"/home/u/**/.bashrc", RiskStartupFile},
		{"/home/u/.config/fish/**/*.fish", RiskStartupFile},
		{"/etc/sudoers.d/**/*.bak", RiskAccountFile},
		// Benign twins: no file so named is dangerous to write.
		{"/home/u/proj/**/*.pyc", ""},
		{"/home/u/proj/**/*.orig", ""},
		{"/home/u/proj/**/__pycache__", ""},
		{"/home/u/proj/**/*.sh", ""},
		{"/home/u/proj/**/commit-*.txt", ""},
		{"/home/u/proj/build/**/*.o", ""},
		{"/home/u/proj/**/.bashrc", ""},
		{"/home/u/.config/fish/**/*.bak", ""},
	}
	for _, c := range cases {
		code, reason, ok := MayBeCriticalPickedPath(c.p, home)
		if code != c.code || ok != (c.code != "") {
			t.Errorf("MayBeCriticalPickedPath(%q) = %q %q %v, want %q", c.p, code, reason, ok, c.code)
		}
		// Every name the picked reading flags, the reading of the
		// whole word flags too: it only narrows.
		if ok {
			if _, _, whole := MayBeCriticalWritePath(c.p, home); !whole {
				t.Errorf("MayBeCriticalWritePath(%q) misses what the picked reading finds", c.p)
			}
		}
	}
}

func TestMayBeCriticalShellWrite(t *testing.T) {
	t.Parallel()
	const home = "/home/u"
	cases := []struct {
		p    string
		code string // "" for none
	}{
		{"~/.z*", RiskStartupFile},
		{"/home/u/.bashr?", RiskStartupFile},
		{".git/hook*/pre-commit", RiskGitHook},
		{"/home/u/proj/.gi?", RiskGitConfig},
		{"/home/u/proj/.*", RiskGitConfig},
		{"/etc/sudoers.d/*", RiskAccountFile},
		{"/home/u/proj/**/config", RiskGitHook},  // "**" may cross .git: kept
		{"/home/u/proj/*/config", RiskGitConfig}, // a bare repository x.git
		// Benign twins: bash's '*' skips the dot-files these need.
		{"build/*", ""},
		{"/home/u/proj/*", ""},
		{"/home/u/*rc", ""},
		{"/home/u/proj/src/*", ""},
		{"/home/u/proj/?git", ""},
	}
	for _, c := range cases {
		code, reason, ok := MayBeCriticalShellWrite(c.p, home)
		if code != c.code || ok != (c.code != "") {
			t.Errorf("MayBeCriticalShellWrite(%q) = %q %q %v, want %q", c.p, code, reason, ok, c.code)
		}
	}
}
