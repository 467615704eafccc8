package shell

import (
	"fmt"
	"strings"
	"testing"
)

// TestScan checks the one option parser of the command table on the
// spellings every check relies on.
func TestScan(t *testing.T) {
	t.Parallel()
	curl := commandSpec("curl")
	tar := commandSpec("tar")
	find := commandSpec("find")
	head := commandSpec("head")
	git := commandSpec("git")
	for _, tc := range []struct {
		s    *cmdSpec
		args string
		stop bool
		want string // options as name=value@at/valAt, then "|" and operand indexes
	}{
		// A cluster up to the letter taking a value, attached or next.
		{curl, "-sSLo out https://x", false, "-s@0 -S@0 -L@0 -o=out@0/1 | 2"},
		{curl, "-sSLoout https://x", false, "-s@0 -S@0 -L@0 -o=out@0/0 | 1"},
		// A unique prefix resolves; an ambiguous one stands for each option.
		{curl, "--upl f https://x", false, "--upload-file=f@0/1 | 2"},
		{curl, "--out f https://x", false, "--output=f@0/1 --output-dir=f@0/1 | 2"},
		{curl, "--output-d=d https://x", false, "--output-dir=d@0/0 | 1"},
		// An unknown long option takes no value unless attached.
		{curl, "--nosuch x", false, "--nosuch@0 | 1"},
		{curl, "--nosuch=v x", false, "--nosuch=v@0/0 | 1"},
		// "--" ends the options; GNU permutation finds options after operands.
		{curl, "https://x -o f -- -o", false, "-o=f@1/2 | 0 4"},
		// Old-style bundled letters take their values in order.
		{tar, "czf a.tgz -C dir src", false, "-c@0 -z@0 -f=a.tgz@0/1 -C=dir@2/3 | 4"},
		// One-dash long options.
		{find, ". -name x -exec rm {} ;", false, "-name@1 -exec@3 | 0 2 4 5 6"},
		// -5 is a count.
		{head, "-5 f", false, "| 1"},
		// Global options before a subcommand, with stop.
		{git, "-C repo --no-pager -c k=v push -f", true, "-C=repo@0/1 --no-pager@2 -c=k=v@3/4 | 5"},
	} {
		opts, ops := tc.s.scan(strings.Fields(tc.args), tc.stop)
		var b strings.Builder
		for _, o := range opts {
			b.WriteString(o.name)
			if o.valAt >= 0 {
				fmt.Fprintf(&b, "=%s@%d/%d ", o.val, o.at, o.valAt)
			} else {
				fmt.Fprintf(&b, "@%d ", o.at)
			}
		}
		b.WriteString("|")
		for _, i := range ops {
			fmt.Fprintf(&b, " %d", i)
		}
		if got := strings.TrimSpace(b.String()); got != tc.want {
			t.Errorf("scan %q:\n got %s\nwant %s", tc.args, got, tc.want)
		}
	}
}

// TestFileOptionsTakeValues: every option of the table whose value is a
// file, a script or a tested value takes a value, so the parser gives it
// one however it is spelled.
func TestFileOptionsTakeValues(t *testing.T) {
	t.Parallel()
	var walk func(key string, s *cmdSpec)
	walk = func(key string, s *cmdSpec) {
		for _, o := range s.opts {
			if o.operand || o.class != "" || o.effect != 0 || o.file == noRole && !o.script && len(o.values) == 0 {
				continue
			}
			for _, n := range o.names {
				switch {
				case strings.HasPrefix(n, "--"):
					if !s.takesValue(n[2:]) {
						t.Errorf("%s: %s names a file or script but takes no value", key, n)
					}
				case len(n) == 2:
					if !strings.Contains(s.shortVal, n[1:]) {
						t.Errorf("%s: %s names a file or script but takes no value", key, n)
					}
				}
			}
		}
		for _, sc := range s.subs {
			walk(key+" "+sc.name, sc.spec)
		}
	}
	for name, s := range tableEntries() {
		walk(name, s)
	}
}

// TestBuiltinExecFlagsKeepsTheTable: BuiltinExecFlags, derived from the
// command table, still lists every exec-capable flag the separate table
// listed before it became entries of the command table.
func TestBuiltinExecFlagsKeepsTheTable(t *testing.T) {
	t.Parallel()
	got := map[string]bool{}
	for _, r := range BuiltinExecFlags() {
		key := r.Command + " " + r.Sub + " "
		if len(r.Flags) == 0 && r.Check == nil {
			got[key] = true
		}
		if r.Check != nil {
			got[key+"check"] = true
		}
		for _, f := range r.Flags {
			got[key+f] = true
		}
	}
	for _, want := range []string{
		"find  -exec", "find  -execdir", "find  -ok", "find  -okdir", "find  -delete", "find  -fprint", "find  -fprint0", "find  -fprintf", "find  -fls",
		"git  -c", "git  --config-env", "git  -p", "git  --paginate", "git  --exec-path",
		"git rebase --exec", "git rebase -x", "git submodule foreach", "git bisect run", "git difftool -x", "git difftool --extcmd",
		"git mergetool --tool", "git grep -O", "git grep --open-files-in-pager", "git filter-branch ", "git config check",
		"git clone --template", "git clone -c", "git clone --config", "git clone -u", "git clone --upload-pack", "git init --template",
		"git fetch --upload-pack", "git pull --upload-pack", "git ls-remote --upload-pack", "git push --receive-pack", "git push --exec",
		"git archive --exec", "git filter-repo ", "rg  --pre", "rg  --hostname-bin", "sed  -i", "sed  -f", "sed  --in-place", "sed  --file", "sed  check",
		"tar  -I", "tar  -F", "tar  --to-command", "tar  --use-compress-program", "tar  --checkpoint-action", "tar  --info-script", "tar  --new-volume-script",
		"rsync  -e", "rsync  --rsh", "rsync  --rsync-path", "ssh  -o", "scp  -o", "scp  -S", "sftp  -S", "sftp  -D",
		"awk  check", "gawk  check", "mawk  check", "nawk  check", "sort  --compress-program", "split  --filter", "curl  -K", "curl  --config",
		"wget  -e", "wget  --execute", "wget  --config", "wget  --use-askpass", "zip  -TT", "zip  --unzip-command", "fd  -x", "fd  -X", "fd  --exec", "fd  --exec-batch",
		"fdfind  -x", "fdfind  -X", "fdfind  --exec", "fdfind  --exec-batch", "less  -o", "less  -O", "less  --log-file", "less  --LOG-FILE",
		"man  -P", "man  --pager", "man  -H", "man  --html", "vim  -c", "vim  --cmd", "vim  -S", "nvim  -c", "nvim  --cmd", "nvim  -S",
	} {
		if !got[want] {
			t.Errorf("BuiltinExecFlags lacks %q", want)
		}
	}
}

// TestShortName: a short option's name is "-" and its byte, for every byte.
func TestShortName(t *testing.T) {
	t.Parallel()
	for c := 0; c < 256; c++ {
		if got, want := shortName(byte(c)), "-"+string([]byte{byte(c)}); got != want {
			t.Errorf("shortName(%d) = %q, want %q", c, got, want)
		}
	}
}
