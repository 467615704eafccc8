package shell

import (
	"slices"
	"testing"
)

// TestWriterFiles: commands that write files through options and operands
// (the lead's bypasses of write rules with "git *", "sort *"… allowed).
func TestWriterFiles(t *testing.T) {
	t.Parallel()
	cases := []struct {
		src  string
		want []string // "r:path" / "w:path", "@dir" when Dir is set
	}{
		// git.
		{"git diff --output=.env", []string{"w:.env"}},
		{"git log --output .env", []string{"w:.env"}},
		{"git -C sub diff --output=x", []string{"w:x@sub"}},
		{"git format-patch -o out HEAD~3", []string{"w:out"}},
		{"git format-patch --output-directory out HEAD~3", []string{"w:out"}},
		{"git archive -o a.zip HEAD", []string{"w:a.zip"}},
		{"git archive --output=a.zip HEAD", []string{"w:a.zip"}},
		{"git bundle create b.bundle --all", []string{"w:b.bundle"}},
		{"git config --file f.cfg a.b c", []string{"w:f.cfg"}},
		{"git config --file f.cfg --get a.b", []string{"r:f.cfg"}},
		{"git checkout main", nil},
		{"git checkout .env", []string{"w:.env"}},
		{"git checkout main -- a b", []string{"w:a", "w:b"}},
		{"git restore -s HEAD~1 a", []string{"w:a"}},
		{"git rm -r --cached d", []string{"w:d"}},
		{"git mv a b", []string{"w:a", "w:b"}},
		{"git clone https://x/r.git dir", []string{"w:dir"}},
		{"git worktree add ../wt", []string{"w:../wt"}},
		{"git diff --no-index a b", []string{"r:a", "r:b"}},
		{"git diff a b", nil},
		{"git show HEAD:secret.txt", []string{"r:secret.txt"}},
		{"git commit -F msg.txt", []string{"r:msg.txt"}},
		{"git log -p", nil},
		{"git apply fix.patch", []string{"r:fix.patch"}},
		{"git apply <<'EOF'\ndiff --git a/x/y.go b/x/y.go\n--- a/x/y.go\n+++ b/x/y.go\nEOF", []string{"w:x/y.go"}},
		// sort, uniq.
		{"sort -o out x", []string{"w:out", "r:x"}},
		{"sort --output=out x", []string{"w:out", "r:x"}},
		{"uniq a b", []string{"r:a", "w:b"}},
		// tar.
		{"tar -cf a.tar src", []string{"w:a.tar", "r:src"}},
		{"tar -rf a.tar f", []string{"w:a.tar", "r:f"}},
		{"tar -C dir -czf a.tgz f", []string{"w:a.tgz", "r:dir/f"}},
		{"tar -xzf a.tgz -C out", []string{"r:a.tgz", "w:out"}},
		{"tar --extract --file=a.tar --directory=out m", []string{"r:a.tar", "w:out", "w:out/m"}},
		{"tar -xOf a.tar m", []string{"r:a.tar"}},
		{"tar -tf a.tar", []string{"r:a.tar"}},
		// zip, unzip.
		{"zip out.zip a b", []string{"w:out.zip", "r:a", "r:b"}},
		{"zip -r out src", []string{"w:out", "w:out.zip", "r:src"}},
		{"unzip a.zip", []string{"r:a.zip", "w:."}},
		{"unzip -o a.zip -d out", []string{"r:a.zip", "w:out"}},
		{"unzip -l a.zip", []string{"r:a.zip"}},
		// Compressors.
		{"gzip f", []string{"w:f", "w:f.gz"}},
		{"gunzip f.gz", []string{"w:f.gz", "w:f"}},
		{"gzip -d f.gz", []string{"w:f.gz", "w:f"}},
		{"gzip -c f", []string{"r:f"}},
		{"gzip -dc f.gz", []string{"r:f.gz"}},
		{"xz -d f.xz", []string{"w:f.xz", "w:f"}},
		{"bzip2 -k f", []string{"w:f", "w:f.bz2"}},
		{"zstd -o out f", []string{"w:out", "w:f"}},
		{"lz4 -d a.lz4 out", []string{"w:a.lz4", "w:a", "w:out"}},
		// split, patch.
		{"split -l 10 in p", []string{"r:in", "w:paa"}},
		{"split in", []string{"r:in", "w:xaa"}},
		{"split -d -a 3 in p", []string{"r:in", "w:p*"}},
		{"patch -o out a.c fix.diff", []string{"w:out", "w:a.c", "r:fix.diff"}},
		{"patch -p1 -i fix.diff", []string{"r:fix.diff", "w:*"}},
		{"patch -p1 < fix.diff", []string{"w:*", "r:fix.diff"}},
		{"patch -p1 <<'EOF'\n--- a/src/x.c\n+++ b/src/x.c\nEOF", []string{"w:src/x.c"}},
		{"patch -d sub -p0 <<'EOF'\n--- x.c\t2020\n+++ x.c\t2020\nEOF", []string{"w:sub/x.c"}},
		// ln targets are written through the link.
		{"ln -s .env x", []string{"w:x", "w:x/.env", "w:.env"}},
		{"ln -s t", []string{"w:t", "w:t"}},
		// rsync, scp.
		{"rsync -a src dst", []string{"r:src", "w:dst", "w:dst/src"}},
		{"rsync -av src/ host:/x", []string{"r:src/", "w:/x"}},
		{"rsync -a --exclude-from ex.txt host:/x dst", []string{"r:ex.txt", "w:dst", "w:dst/x"}},
		{"rsync -e 'ssh -p 2' host:/x dst", []string{"w:dst", "w:dst/x"}},
		{"scp host:/etc/x ./x", []string{"w:./x", "w:./x/x"}},
		// Downloaders.
		{"wget -O out https://x/y", []string{"w:out"}},
		{"wget -qO- https://x/y", nil},
		{"wget https://x/y.tgz", []string{"w:y.tgz"}},
		{"wget https://x/", []string{"w:index.html"}},
		{"wget -P dl https://x/y.tgz", []string{"w:dl/y.tgz"}},
		{"wget -r https://x/", []string{"w:*", "w:index.html"}},
		{"wget -i urls.txt", []string{"r:urls.txt", "w:*"}},
		{"wget -O out -i urls.txt", []string{"w:out", "r:urls.txt"}},
		{"curl -sSLo out https://x", []string{"w:out"}},
		{"curl -O https://x/y.tgz", []string{"w:y.tgz"}},
		{"curl -LO https://x/a/b.tgz?v=1", []string{"w:b.tgz"}},
		{"curl --output-dir dl -o y https://x", []string{"w:dl/y"}},
		{"curl -OJ https://x/y", []string{"w:*", "w:y"}},
		{"curl -c jar -b jar https://x", []string{"w:jar", "r:jar"}},
		{"curl -D headers.txt https://x", []string{"w:headers.txt"}},
		{"curl -sS https://x", nil},
		// In-place interpreters.
		{"perl -pi -e 's/a/b/' f g", []string{"w:f", "w:g"}},
		{"perl -i.bak -pe 's/a/b/' f", []string{"w:f"}},
		{"perl -ne 'print' f", nil},
		{"ruby -i -pe 'x' f", []string{"w:f"}},
		{"perl -i script.pl f", []string{"r:script.pl", "w:f"}},
		// Copies into a directory name the entry they create.
		{"cp hook .git/hooks/", []string{"w:.git/hooks/", "w:.git/hooks/hook", "r:hook"}},
		{"cp -T a b", []string{"w:b", "r:a"}},
	}
	for _, tc := range cases {
		t.Run(tc.src, func(t *testing.T) {
			res := analyze(t, tc.src)
			if got := fileList(res); !slices.Equal(got, tc.want) {
				t.Errorf("%q: files %q, want %q\n%s", tc.src, got, tc.want, dump(res))
			}
		})
	}
}

func TestGitConfigExec(t *testing.T) {
	t.Parallel()
	sets := []string{
		"git config core.pager 'sh -c id'",
		"git config --add core.fsmonitor x",
		"git config --replace-all core.sshCommand x",
		"git config --global alias.x '!sh'",
		"git config --local core.hooksPath /tmp",
		"git config --system diff.external x",
		"git config --file f filter.x.clean x",
		"git config -f f filter.x.clean x",
		"git config --type=bool a.b true",
		"git config set core.pager x",
		"git config set --global core.pager x",
		"git config unset core.pager",
		"git config --unset core.pager",
		"git config --edit",
		"git config -e",
		"git config rename-section a b",
		"git -C repo config core.pager x",
		"git --git-dir=x config core.pager x",
		"git config -- a.b c",
	}
	for _, src := range sets {
		res := analyze(t, src)
		if c := res.Commands[0]; !slices.Equal(c.ExecFlags, []string{"config"}) {
			t.Errorf("%q: exec flags %q, want [config]", src, c.ExecFlags)
		}
	}
	reads := []string{
		"git config user.name",
		"git config --get user.name",
		"git config --get-all remote.origin.url",
		"git config --get-regexp '^alias'",
		"git config --get-urlmatch http.proxy https://x",
		"git config --list",
		"git config -l",
		"git config --show-origin --get user.name",
		"git config --show-origin -l",
		"git config --global --get user.name",
		"git config get user.name",
		"git config get --all --show-origin user.name",
		"git config list",
		"git config list --global",
		"git config --type=bool --get a.b",
		"git config --default x --get a.b",
		"git log --config x",
		"git config",
	}
	for _, src := range reads {
		res := analyze(t, src)
		if c := res.Commands[0]; len(c.ExecFlags) > 0 {
			t.Errorf("%q: exec flags %q, want none", src, c.ExecFlags)
		}
	}
}

func TestHardeningExecFlags(t *testing.T) {
	t.Parallel()
	cases := []struct {
		src  string
		want []string
	}{
		{"git clone --template=/tmp/t url", []string{"--template"}},
		{"git clone -c core.hooksPath=/tmp url", []string{"-c"}},
		{"git clone --upload-pack=x url", []string{"--upload-pack"}},
		{"git clone url dir", nil},
		{"git init --template /tmp/t", []string{"--template"}},
		{"git fetch --upload-pack=x origin", []string{"--upload-pack"}},
		{"git pull --upload-pack x origin", []string{"--upload-pack"}},
		{"git push --receive-pack=x origin", []string{"--receive-pack"}},
		{"git push --exec=x origin", []string{"--exec"}},
		{"git push origin main", nil},
		{"git archive --remote=x --exec=y HEAD", []string{"--exec"}},
		{"split --filter='gzip > $FILE.gz' in", []string{"--filter"}},
		{"curl -K cfg https://x", []string{"-K"}},
		{"curl --config cfg https://x", []string{"--config"}},
		{"wget -e robots=off https://x", []string{"-e"}},
		{"wget --use-askpass=x https://x", []string{"--use-askpass"}},
		// awk: alternation in a regular expression or a | in a string is no pipe.
		{"awk '/a|b/ {print}' f", nil},
		{"awk '$1 ~ /x|y/' f", nil},
		{"awk '$1 ~ \"x|y\"' f", nil},
		{"awk '/[/|]/' f", nil},
		{"awk '{print \"a|b\"}' f", nil},
		{"awk 'a || b' f", nil},
		{"awk '{print | \"sh\"}' f", []string{`{print | "sh"}`}},
		{"awk '{\"id\" | getline x}' f", []string{`{"id" | getline x}`}},
		{"awk '/x/ {print $0 | \"sh\"}' f", []string{`/x/ {print $0 | "sh"}`}},
		{"awk '{print a / 2 | \"sh\"}' f", []string{`{print a / 2 | "sh"}`}},
		{"awk '/unterminated|' f", []string{"/unterminated|"}},
	}
	for _, tc := range cases {
		res := analyze(t, tc.src)
		if got := res.Commands[0].ExecFlags; !slices.Equal(got, tc.want) {
			t.Errorf("%q: exec flags %q, want %q\n%s", tc.src, got, tc.want, dump(res))
		}
	}
}

func TestGitMachineryCritical(t *testing.T) {
	t.Parallel()
	cases := []struct {
		path, code string
	}{
		{".git/config", RiskGitConfig},
		{"./.git/config", RiskGitConfig},
		{"sub/.git/config", RiskGitConfig},
		{"/work/app/.git/config", RiskGitConfig},
		{"/home/me/proj/.git/config", RiskGitConfig},
		{"~/proj/.git/config", RiskGitConfig},
		{".git/config.worktree", RiskGitConfig},
		{".git/modules/lib/config", RiskGitConfig},
		{".git/worktrees/wt/config.worktree", RiskGitConfig},
		{".git/modules/lib/hooks/pre-commit", RiskGitHook},
		{"repo.git/config", RiskGitConfig},
		{"repo.git/hooks/update", RiskGitHook},
		{".GIT/Config", RiskGitConfig},
		{".git/hooks/pre-commit", RiskGitHook},
		{".git/hooks", RiskGitHook},
		{"a/b/.git/hooks/post-checkout", RiskGitHook},
		{".git", RiskGitConfig},
		{"sub/.git", RiskGitConfig},
		{".git/*", RiskGitConfig},
		{"$GIT_DIR/config", RiskGitConfig},
		{"${GIT_DIR}/hooks/pre-push", RiskGitHook},
		{"~/.gitconfig", RiskGitConfig},
		{"$HOME/.config/git/config", RiskGitConfig},
		{"$XDG_CONFIG_HOME/git/config", RiskGitConfig},
		{"/home/me/.gitconfig", RiskGitConfig},
		{"/etc/gitconfig", RiskGitConfig},
		{"~/.ssh/config", RiskSSHConfig},
		{"/root/.ssh/rc", RiskSSHConfig},
		{"/etc/ssh/ssh_config", RiskSSHConfig},
		{"/etc/ssh/ssh_config.d/evil.conf", RiskSSHConfig},
		{"~/.npmrc", RiskToolConfig},
		{"", ""},
		{".gitignore", ""},
		{".gitattributes", ""},
		{".github/workflows/ci.yml", ""},
		{".git/HEAD", ""},
		{".git/info/exclude", ""},
		{"src/config", ""},
		{"my.git", ""},
		{"proj/.npmrc", ""},
		{"~/.ssh/known_hosts", ""},
	}
	for _, tc := range cases {
		code, reason, ok := IsCriticalWritePath(tc.path, testHome)
		if code != tc.code || ok != (tc.code != "") {
			t.Errorf("IsCriticalWritePath(%q) = %q, %v; want %q", tc.path, code, ok, tc.code)
		}
		if ok && reason == "" {
			t.Errorf("IsCriticalWritePath(%q): empty reason", tc.path)
		}
	}
}

func TestHardeningRisks(t *testing.T) {
	t.Parallel()
	crit := []struct{ src, code string }{
		{"echo x >> .git/config", RiskGitConfig},
		{"cp x .git/hooks/pre-commit", RiskGitHook},
		{"cp pre-commit .git/hooks", RiskGitHook},
		{"cp -r evil/.git .", RiskGitConfig},
		{"cp .bashrc ~", RiskStartupFile},
		{"rsync -a payload/ .git/", RiskGitConfig},
		{"tar -xf a.tar -C .git/hooks", RiskGitHook},
		{"unzip a.zip -d .git/hooks", RiskGitHook},
		{"ln -s ~/.bashrc notes.txt", RiskStartupFile},
		{"git config --file .git/config core.pager x", RiskGitConfig},
		{"cd sub && echo x > .git/config", RiskGitConfig},
		{"env -C /etc sh -c 'echo x > passwd'", RiskAccountFile},
		{"cd /nonexistent; echo x >> .bashrc", ""}, // relative: no home known
		// Recursive deletes of run-time paths.
		{"rm -rf $PWD", RiskRecursiveDelete},
		{"rm -rf \"${PWD}\"/", RiskRecursiveDelete},
		{"rm -rf \"$(pwd)\"", RiskRecursiveDelete},
		{"rm -rf `pwd`/*", RiskRecursiveDelete},
		{"rm -rf \"$DIR\"", RiskRecursiveDelete},
		{"rm -rf \"$DIR/\"*", RiskRecursiveDelete},
		{"rm -rf ${A}${B}", RiskRecursiveDelete},
		{"rm -rf \"$PREFIX/usr\"", RiskRecursiveDelete},
		{"rm -rf \"$HOME/$SUB\"", RiskRecursiveDelete},
		{"rm -rf ~root", RiskRecursiveDelete},
		{"rm -rf ~root/", RiskRecursiveDelete},
		{"rm -rf ~+", RiskRecursiveDelete},
		{"rm -rf ~-/*", RiskRecursiveDelete},
		// A cd that may fail or not run leaves the shell where it was.
		{"cd /nonexistent; rm -rf *", RiskRecursiveDelete},
		{"cd /nonexistent || rm -rf .", RiskRecursiveDelete},
		{"true || cd /tmp; rm -rf *", RiskRecursiveDelete},
		{"false && cd /tmp; rm -rf *", RiskRecursiveDelete},
		{"if false; then cd /tmp; fi; rm -rf *", RiskRecursiveDelete},
		{"cd /; cd nothere; rm -rf *", RiskRecursiveDelete},
		{"cd / && cd nothere; rm -rf *", RiskRecursiveDelete},
		{"cd /tmp && rm -rf x; rm -rf *", RiskRecursiveDelete},
		{"cd a; cd b; cd c; cd d; cd e; rm -rf etc", RiskRecursiveDelete}, // too many to track
		{"env -C / rm -rf *", RiskRecursiveDelete},
		{"env --chdir=/usr rm -rf *", RiskRecursiveDelete},
		{"sudo -D / rm -rf *", RiskRecursiveDelete},
	}
	for _, tc := range crit {
		res := analyze(t, tc.src)
		if tc.code == "" {
			continue
		}
		if !hasRisk(res, tc.code) {
			t.Errorf("%q: risks %v, want %s\n%s", tc.src, riskCodes(res), tc.code, dump(res))
		}
	}
	benign := []string{
		"rm -rf \"$OUT/build\"",
		"rm -rf $X.bak",
		"rm -rf build/$X",
		"rm -rf \"$(mktemp -d)/x\"",
		"cd /tmp && rm -rf *",
		"cd build && rm -rf *",
		"cd /tmp && cd x && rm -rf *",
		"env -C sub rm -rf build",
		"(cd /tmp && rm -rf *)",
		"echo x > .gitignore",
		"cp a .github/workflows/",
		"tar -xzf a.tgz",
		"git diff",
		"rm -rf ~/tmp/x",
	}
	for _, src := range benign {
		res := analyze(t, src)
		if critical(res) {
			t.Errorf("%q: unexpected critical risks %v\n%s", src, riskCodes(res), dump(res))
		}
	}
}

// TestCdAlternatives: a relative path after a cd that may fail resolves
// against every directory the shell may be in.
func TestCdAlternatives(t *testing.T) {
	t.Parallel()
	cases := []struct {
		src  string
		want []string
	}{
		{"cd /srv && cat a", []string{"r:a@/srv"}},
		{"cd /srv; cat a", []string{"r:a@/srv", "r:a"}},
		{"cd /srv || cat a", []string{"r:a@/srv", "r:a"}},
		{"cd /srv && cat a; cat b", []string{"r:a@/srv", "r:b@/srv", "r:b"}},
		{"cd /srv && cd app && cat a", []string{"r:a@/srv/app"}},
		{"(cd /srv; cat a); cat b", []string{"r:a@/srv", "r:a", "r:b"}},
		{"env -C /srv cat a", []string{"r:a@/srv"}},
		{"env -C /srv cat a; cat b", []string{"r:a@/srv", "r:b"}},
		{"cd /srv && cat /abs", []string{"r:/abs"}},
	}
	for _, tc := range cases {
		res := analyze(t, tc.src)
		if got := fileList(res); !slices.Equal(got, tc.want) {
			t.Errorf("%q: files %q, want %q\n%s", tc.src, got, tc.want, dump(res))
		}
	}
}
