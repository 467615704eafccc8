package shell

import (
	"slices"
	"testing"
)

func TestExecFlags(t *testing.T) {
	t.Parallel()
	cases := []struct {
		src  string
		want []string // ExecFlags of the first command
	}{
		// Forms the analysis sees through are the subjects they produce
		// (DESIGN §3.1): find -exec CMD on the files a name test picks,
		// find -delete and -exec rm {} of what they pick or of the
		// starting points' trees, sed -i's writes. The others keep the
		// flag: links followed, {} inside a longer word, a command the
		// table does not know.
		{"find . -name x -exec rm {} ;", nil},
		{"find . -exec rm {} ;", nil},
		{"find . -exec rm {}/x ;", []string{"-exec"}},
		{"find -L . -exec rm {} ;", []string{"-exec"}},
		{"find . -name x -exec sh -c 'rm {}' ;", []string{"-exec"}},
		{"find . -name x -delete", nil},
		{"find . -execdir x {} +", []string{"-execdir"}},
		{"find . -ok rm {} ;", nil},
		{"find . -ok mv {} /tmp ;", []string{"-ok"}},
		{"find . -delete", nil},
		{"find . -follow -delete", []string{"-delete"}},
		{"find . -fprint out -fls o2", []string{"-fprint", "-fls"}},
		{"find . -name '*.go'", nil},
		{"git -c core.pager=sh log", []string{"-c"}},
		{"git --config-env=core.pager=X log", []string{"--config-env"}},
		{"git -p log", []string{"-p"}},
		{"git --paginate log", []string{"--paginate"}},
		{"git --exec-path=/tmp log", []string{"--exec-path"}},
		{"git log -p", nil},
		{"git -C repo log -p", nil},
		{"git rebase --exec 'make test' main", []string{"--exec"}},
		{"git rebase -x make main", []string{"-x"}},
		{"git submodule foreach 'git pull'", []string{"foreach"}},
		{"git bisect run ./test.sh", []string{"run"}},
		{"git difftool -x meld", []string{"-x"}},
		{"git grep -O foo", []string{"-O"}},
		{"git filter-branch --tree-filter x", []string{"filter-branch"}},
		{"git grep -n foo", nil},
		{"rg --pre ./pre.sh foo", []string{"--pre"}},
		{"rg --pre=./pre.sh foo", []string{"--pre"}},
		{"rg --hostname-bin=x foo", []string{"--hostname-bin"}},
		{"rg -n foo", nil},
		{"sed -i s/a/b/ f", nil},
		{"sed -ni s/a/b/p f", nil},
		{"sed --in-place s/a/b/ f", nil},
		{"sed -i.bak s/a/b/ f", nil},
		{"sed -i -f script.sed f", []string{"-f"}},
		{"sed -i s/a/b/ $(cat list)", nil}, // its write of a file known only at run time asks
		{"sed -f script.sed f", []string{"-f"}},
		{"sed 's/a/b/w /tmp/out' f", []string{"s/a/b/w /tmp/out"}},
		{"sed 's/a/b/e' f", []string{"s/a/b/e"}},
		{"sed -n '1e id' f", []string{"1e id"}},
		{"sed -e 'r /etc/shadow' f", []string{"r /etc/shadow"}},
		{"sed '/x/W out' f", []string{"/x/W out"}},
		{"sed -n 's/a/b/gp; 3q' f", nil},
		{"sed 's|/usr|/opt|g' f", nil},
		{"sed '/^#/d' f", nil},
		{"sed -E 's/(a)/\\1/' f", nil},
		{"tar --to-command=sh -xf a.tar", []string{"--to-command"}},
		{"tar -I zstd -xf a.tar", []string{"-I"}},
		{"tar -xIzstd -f a.tar", []string{"-xIzstd"}},
		{"tar --use-compress-program=x -cf a.tar .", []string{"--use-compress-program"}},
		{"tar --checkpoint-action=exec=sh -cf a .", []string{"--checkpoint-action"}},
		{"tar -F x.sh -cf a .", []string{"-F"}},
		{"tar -czf a.tgz src", nil},
		// A remote shell that is ssh with options only is seen: no flag.
		{"rsync -e 'ssh -p 2' a b:", nil},
		{"rsync -avze ssh a b:", nil},
		{"rsync --rsh=ssh a b:", nil},
		{"rsync -e 'ssh -o ProxyCommand=x' a b:", []string{"-e"}},
		{"rsync -e 'sshx -p 2' a b:", []string{"-e"}},
		{"rsync -e 'ssh -p 2; id' a b:", []string{"-e"}},
		{"rsync --rsync-path='sudo rsync' a b:", []string{"--rsync-path"}},
		{"rsync -avz a b:", nil},
		{"ssh -o ProxyCommand='nc %h %p' host", []string{"ProxyCommand=nc %h %p"}},
		{"ssh -oProxyCommand=x host", []string{"-oProxyCommand=x"}},
		{"ssh -o LocalCommand=id -o PermitLocalCommand=yes h", []string{"LocalCommand=id", "PermitLocalCommand=yes"}},
		{"ssh -o StrictHostKeyChecking=no host", nil},
		{"awk '{system(\"id\")}' f", []string{`{system("id")}`}},
		{"awk '{print | \"sh\"}' f", []string{`{print | "sh"}`}},
		{"awk '{print > \"/tmp/o\"}' f", []string{`{print > "/tmp/o"}`}},
		{"awk -f prog.awk f", []string{"-f"}},
		{"awk '$1 > 5 || $2 {print $1}' f", nil},
		{"gawk 'BEGIN{ \"date\" | getline d }'", []string{`BEGIN{ "date" | getline d }`}},
		{"sort --compress-program=gzip f", []string{"--compress-program"}},
		{"zip -TT 'sh -c x' a.zip f", []string{"-TT"}},
		{"zip --unzip-command x a.zip f", []string{"--unzip-command"}},
		{"fd -x rm", []string{"-x"}},
		{"fd --exec-batch rm", []string{"--exec-batch"}},
		{"fd -e go", nil},
		{"xargs -n1 echo", nil}, // it prints what it is handed
		{"xargs -n1 ./echo", []string{"xargs"}},
		{"xargs ls -la", nil}, // it lists the files it is handed
		{"xargs du -sh", nil}, // sizes and names
		{"xargs du --files0-from=-", []string{"xargs"}},
		{"xargs du --files0=-", []string{"xargs"}},
		{"xargs tree", []string{"xargs"}},
		{"xargs -n1 printf", []string{"xargs"}},
		{"LD_PRELOAD=x xargs echo", []string{"xargs", "LD_PRELOAD=x"}},
		{"git status", nil},
	}
	for _, tc := range cases {
		t.Run(tc.src, func(t *testing.T) {
			t.Parallel()
			res := analyze(t, tc.src)
			if len(res.Commands) == 0 {
				t.Fatalf("no commands")
			}
			got := res.Commands[0].ExecFlags
			if !slices.Equal(got, tc.want) {
				t.Errorf("%q: exec flags %q, want %q", tc.src, got, tc.want)
			}
			// Every flag appears literally in the text, so a rule naming it can.
			for _, f := range got {
				if !containsStr(res.Commands[0].Text, f) {
					t.Errorf("%q: exec flag %q not in text %q", tc.src, f, res.Commands[0].Text)
				}
			}
		})
	}
}

func containsStr(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// TestExecFlagScripts: the commands run by exec-capable flags are subjects.
func TestExecFlagScripts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ src, deny string }{
		{"git rebase --exec 'rm -rf x' main", "rm"},
		{"git submodule foreach 'rm -rf x'", "rm"},
		{"git bisect run rm -rf x", "rm"},
		{"rsync -e 'rm -rf x' a b:", "rm"},
		{"tar --to-command='rm -rf x' -xf a.tar", "rm"},
		{"find . -exec sh -c 'rm -rf x' \\;", "rm"},
		{"xargs -I{} sh -c 'rm -rf {}'", "rm"},
		{"parallel rm ::: a b", "rm"},
	} {
		res := analyze(t, tc.src)
		if !matchesDeny(res, tc.deny) {
			t.Errorf("%q: no command matches %q *\n%s", tc.src, tc.deny, dump(res))
		}
	}
}

func TestWithExecFlags(t *testing.T) {
	t.Parallel()
	a := New(WithExecFlags(
		ExecFlagRule{Command: "mytool", Flags: []string{"--hook"}, Script: true},
		ExecFlagRule{Command: "make", Flags: []string{"-f"}, Short: true},
	))
	res, err := a.Analyze("mytool --hook='rm -rf x' build; make -sf evil.mk")
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Commands[0].ExecFlags; !slices.Equal(got, []string{"--hook"}) {
		t.Errorf("mytool flags %q", got)
	}
	if !matchesDeny(res, "rm") {
		t.Errorf("hook script not parsed\n%s", dump(res))
	}
	c, _ := findCmd(res, "make -sf evil.mk")
	if !slices.Equal(c.ExecFlags, []string{"-sf"}) {
		t.Errorf("make flags %q", c.ExecFlags)
	}
	// The built-in table still applies.
	res, _ = a.Analyze("find -L . -delete")
	if !slices.Equal(res.Commands[0].ExecFlags, []string{"-delete"}) {
		t.Errorf("built-in lost: %q", res.Commands[0].ExecFlags)
	}
}
