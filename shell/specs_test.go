package shell

import (
	"slices"
	"testing"
)

func TestResolveLong(t *testing.T) {
	t.Parallel()
	long := []string{"force", "force-with-lease", "recursive", "output=", "output-dir=", "dry-run"}
	for _, tc := range []struct {
		arg, want string
		ok        bool
	}{
		{"--force", "--force", true},             // exact wins over the longer option
		{"--recu", "--recursive", true},          // unique prefix
		{"--recursive=x", "--recursive=x", true}, // exact with a value
		{"--dry", "--dry-run", true},
		{"--forc", "--forc", false},     // ambiguous: force, force-with-lease
		{"--outp=f", "--outp=f", false}, // ambiguous: output, output-dir
		{"--output-d=x", "--output-dir=x", true},
		{"--nothing", "--nothing", false},
		{"--", "--", false},
	} {
		got, ok := resolveLong(long, tc.arg)
		if got != tc.want || ok != tc.ok {
			t.Errorf("resolveLong(%q) = %q, %v; want %q, %v", tc.arg, got, ok, tc.want, tc.ok)
		}
	}
}

func TestNormaliseArgs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		key  string
		args []string
		want []string
	}{
		{"rm", []string{"--recu", "x"}, []string{"--recursive", "x"}},
		{"git", []string{"-C", "d", "reset", "--ha"}, []string{"-C", "d", "reset", "--hard"}},
		{"sort", []string{"--out=f", "x"}, []string{"--output=f", "x"}},
		{"rm", []string{"--", "--recu"}, []string{"--", "--recu"}}, // an operand after --
		{"ls", []string{"--al"}, []string{"--al"}},                 // unknown command
	} {
		if got := normaliseArgs(tc.key, tc.args); !slices.Equal(got, tc.want) {
			t.Errorf("normaliseArgs(%s, %q) = %q, want %q", tc.key, tc.args, got, tc.want)
		}
	}
}

func TestClassify(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cmd  string
		want Class // "" for none
	}{
		{"git push --force", ClassDestructive},
		{"git -C x push -f", ClassDestructive},
		{"git push origin +main", ClassDestructive},
		{"git push origin main", ""},
		{"git clean -fdx", ClassDestructive},
		{"git clean -n", ""},
		{"git stash drop", ClassDestructive},
		{"git stash list", ""},
		{"crontab -", ClassPersistence},
		{"crontab -l", ""},
		{"systemctl enable x", ClassPersistence},
		{"systemctl status x", ""},
		{"chmod u+s f", ClassPrivilege},
		{"chmod 4755 f", ClassPrivilege},
		{"chmod 644 f", ""},
		{"chmod 755 f", ""},
		{"chown root f", ClassPrivilege},
		{"chown me:me f", ""},
		{"docker run --privileged img", ClassPrivilege},
		{"docker run -v /:/host img", ClassPrivilege},
		{"docker run -v /src:/src img", ""},
		{"pip install git+https://x/y", ClassSupplyChain},
		{"pip install requests", ""},
		{"pip install -r requirements.txt", ""},
		{"npm install user/repo", ClassSupplyChain},
		{"npm install @scope/pkg", ""},
		{"go install golang.org/x/tools/cmd/x@latest", ""},
		{"gh auth token", ClassCredential},
		{"gh auth status", ""},
		{"sudo ls", ClassPrivilege},
		{"sudo -l", ""},
		{"mount", ""},
		{"mount /dev/sdb1 /mnt", ClassPrivilege},
	} {
		res := analyze(t, tc.cmd)
		var got Class
		for _, c := range res.Commands {
			if len(c.Classes) > 0 {
				got = c.Classes[0].Class
			}
		}
		if got != tc.want {
			t.Errorf("%s: class %q, want %q", tc.cmd, got, tc.want)
		}
	}
}

func TestSpellings(t *testing.T) {
	t.Parallel()
	if got, ok := decodedAlt("curl x/v1/approvals/a/%61pprove"); !ok || got != "curl x/v1/approvals/a/approve" {
		t.Errorf("decodedAlt = %q, %v", got, ok)
	}
	if got, ok := decodedAlt("echo 100%"); ok {
		t.Errorf("decodedAlt of a stray %%: %q", got)
	}
	for _, tc := range []struct{ in, want string }{
		{"$XDG_CONFIG_HOME/toolgate/t.json", "/h/.config/toolgate/t.json"},
		{"${XDG_DATA_HOME}/toolgate/db", "/h/.local/share/toolgate/db"},
		{"${X:-$HOME/.config}/toolgate", "/h/.config/toolgate"},
		{"${X:-~/.config}/t", "/h/.config/t"},
		{"${X-/etc}/passwd", "/etc/passwd"},
		{"$X/toolgate", ""},
		{"${X}/toolgate", ""},
	} {
		got, _ := defaultExpansion(tc.in, "/h")
		if got != tc.want {
			t.Errorf("defaultExpansion(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// A script's own variables, at each value it gave them, within
	// maxExpansions.
	vars := map[string][]string{"f": {"/h/.ssh/id_rsa"}, "D": {".claude", ".codex"}, "n": {"1", "2", "3"}}
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"$f", []string{"/h/.ssh/id_rsa"}},
		{"${f}.bak", []string{"/h/.ssh/id_rsa.bak"}},
		{"$D/settings.json", []string{".claude/settings.json", ".codex/settings.json"}},
		{"${D:-x}/a", []string{".claude/a", ".codex/a"}},
		{"${E:-.env}", []string{".env"}},
		{"$HOME/$D", []string{"/h/.claude", "/h/.codex"}},
		{"$n$n", []string{"11", "12", "13", "21", "22", "23", "31", "32"}}, // capped
		{"$unknown/x", nil},
		{"plain", nil},
	} {
		got := expansions(tc.in, "/h", vars, maxExpansions)
		if !slices.Equal(got, tc.want) {
			t.Errorf("expansions(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got, ok := gateAlt("tg", []string{"--data", "/d", "approvals", "approve", "a1"}); !ok || got != "toolgate approvals approve a1" {
		t.Errorf("gateAlt = %q, %v", got, ok)
	}
	if _, ok := gateAlt("tool", []string{"approvals.txt"}); ok {
		t.Error("gateAlt matched a file name")
	}
	if got := codePaths(`open('/h/.config/toolgate/t.json','w'); x = "a/b"`); !slices.Equal(got, []string{"/h/.config/toolgate/t.json"}) {
		t.Errorf("codePaths = %q", got)
	}
	// String literals that name files; not a module, a MIME type or a
	// variable's name.
	if got := codePaths(`import secrets; open("config/secrets.yml"); open('app.env.json'); t = "text/plain"; os.environ["AWS_SECRET_ACCESS_KEY"]`); !slices.Equal(got, []string{"config/secrets.yml", "app.env.json"}) {
		t.Errorf("codePaths = %q", got)
	}
	if got := urlToken("git+https://github.com/me/x"); got != "git+https://github.com" {
		t.Errorf("urlToken = %q", got)
	}
}
