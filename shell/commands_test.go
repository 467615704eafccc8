package shell

import (
	"slices"
	"testing"
)

// TestCommands checks the commands extracted, in order, with their texts.
func TestCommands(t *testing.T) {
	t.Parallel()
	cases := []struct {
		src  string
		want []string
	}{
		// Seed 000: chained-command check.
		{"cargo build && cargo test", []string{"cargo build", "cargo test"}},
		{"cargo build; curl https://x|sh", []string{"cargo build", "curl https://x", "sh"}},
		{"cargo build | grep error", []string{"cargo build", "grep error"}},
		// Seed 002: chain table.
		{"pwd && ls", []string{"pwd", "ls"}},
		{"test -f file || echo no", []string{"test -f file", "echo no"}},
		{"cat file | grep test", []string{"cat file", "grep test"}},
		{"echo a; echo b", []string{"echo a", "echo b"}},
		{"pwd && rm -rf /", []string{"pwd", "rm -rf /"}},
		// Empty scripts.
		{"", nil},
		{"   \n\t ", nil},
		{";", nil},
		{"# just a comment", nil},
		// Lists and separators.
		{"a\nb\nc", []string{"a", "b", "c"}},
		{"a & b", []string{"a", "b"}},
		{"a |& b", []string{"a", "b"}},
		{"! false", []string{"false"}},
		// Quote removal and spacing.
		{`"git"  status`, []string{"git status"}},
		{`g'i't status`, []string{"git status"}},
		{`git\ status`, []string{"git status"}},
		{`r\m -rf x`, []string{"rm -rf x"}},
		{`$'\x72\x6d' -rf x`, []string{"rm -rf x"}},
		{`$'\162m' x`, []string{"rm x"}},
		{`$'r\u006d' x`, []string{"rm x"}},
		{`echo "a \"b\" \$c"`, []string{`echo a "b" $c`}},
		// $HOME followed by a path is the home directory's ~ (homeWord);
		// alone, or where the line may assign HOME, it stays a variable.
		{`echo "$HOME/x" ~/y '$z'`, []string{"echo ~/x ~/y $z"}},
		{`echo $HOME "${HOME}/x"`, []string{"echo $HOME ~/x"}},
		{`HOME=/etc; cat $HOME/shadow`, []string{"HOME=/etc", "cat $HOME/shadow"}},
		{`echo $((1+2)) ${x:-d}`, []string{"echo $((1+2)) ${x:-d}"}},
		{"ec\\\nho hi", []string{"echo hi"}},
		// Brace expansion.
		{"{rm,-rf,/}", []string{"rm -rf /"}},
		{"echo {a,b}{1,2}", []string{"echo a1 a2 b1 b2"}},
		{"echo x{1..3}", []string{"echo x1 x2 x3"}},
		{`echo '{a,b}' \{c,d\}`, []string{"echo {a,b} {c,d}"}},
		{"{'rm',-rf,/tmp/x}", []string{"rm -rf /tmp/x"}},
		// Globs keep their source form in arguments.
		{"ls *.go src/[a-z]?.c", []string{"ls *.go src/[a-z]?.c"}},
		// Compound commands: conditions and bodies.
		{"if grep -q x f; then echo yes; elif test -d d; then echo d; else echo no; fi",
			[]string{"grep -q x f", "echo yes", "test -d d", "echo d", "echo no"}},
		{"while read l; do echo $l; done < in", []string{"read l", "echo $l"}},
		{"until false; do sleep 1; done", []string{"false", "sleep 1"}},
		{"for f in a b; do rm $f; done", []string{"rm a", "rm b"}}, // a static list: the body once per word
		{"for f in a \"b c\"; do rm $f; done", []string{"rm $f"}},  // a word with a blank splits again
		{"for ((i=0;i<3;i++)); do echo $i; done", []string{"echo $i"}},
		{"select x in a b; do echo $x; done", []string{"echo $x"}},
		{"case $x in a) echo a;; *) rm b;; esac", []string{"echo a", "rm b"}},
		{"(cd /tmp && ls)", []string{"cd /tmp", "ls"}},
		{"{ echo a; echo b; } > out", []string{"echo a", "echo b"}},
		{"f() { rm -rf x; }; f", []string{"rm -rf x", "f"}},
		{"function g { ls; }", []string{"ls"}},
		{"time ls -la", []string{"ls -la"}},
		{"[[ -f x ]] && echo y", []string{"[[ -f x ]]", "echo y"}},
		{"(( i++ )) || echo z", []string{"(( i++ ))", "echo z"}},
		// Substitutions anywhere.
		{"echo $(date)", []string{"date", "echo $(date)"}},
		{"echo `whoami`", []string{"whoami", "echo `whoami`"}},
		{"diff <(ls a) <(ls b)", []string{"ls a", "ls b", "diff <(ls a) <(ls b)"}},
		{"tee >(grep x) < f", []string{"grep x", "tee >(grep x)"}},
		{"echo ${x:-$(id)}", []string{"id", "echo ${x:-$(id)}"}},
		{"echo hi > $(mktemp)", []string{"mktemp", "echo hi"}},
		{"X=$(id) ls", []string{"id", "X=$(id) ls"}},
		{"[[ $(whoami) == root ]]", []string{"whoami", "[[ $(whoami) == root ]]"}},
		{"(( $(date +%s) > 0 ))", []string{"date +%s", "(( $(date +%s) > 0 ))"}},
		{"cat <<EOF\n$(id)\nEOF", []string{"id", "cat"}},
		{"cat <<'EOF'\n$(id)\nEOF", []string{"cat"}},
		{"case $(uname) in Linux) ;; esac", []string{"uname"}},
		{"for f in $(ls); do :; done", []string{"ls", ":"}},
		{"a=(1 $(id) 3)", []string{"id", "a=(1 $(id) 3)"}},
		{"echo $(echo $(id))", []string{"id", "echo $(id)", "echo $(echo $(id))"}},
		// Assignments and declarations.
		{"PATH=/x:$PATH", []string{"PATH=/x:$PATH"}},
		{"X=1 Y=2", []string{"X=1 Y=2"}},
		{"PAGER=cat git log", []string{"PAGER=cat git log"}},
		{"export LD_PRELOAD=/tmp/x.so", []string{"export LD_PRELOAD=/tmp/x.so"}},
		{"declare -x A=1; local b; readonly c=2; typeset d", []string{"declare -x A=1", "local b", "readonly c=2", "typeset d"}},
		{"let x=1+2", []string{"let x=1+2"}},
		// Commands named by path.
		{"/bin/rm -rf x", []string{"/bin/rm -rf x"}},
		{"./rm x; ../bin/rm y", []string{"./rm x", "../bin/rm y"}},
		// coproc and background.
		{"coproc cat", []string{"cat"}},
		{"sleep 1 &", []string{"sleep 1"}},
	}
	for _, tc := range cases {
		t.Run(tc.src, func(t *testing.T) {
			t.Parallel()
			res := analyze(t, tc.src)
			if got := texts(res); !slices.Equal(got, tc.want) {
				t.Errorf("Analyze(%q) commands = %q, want %q\n%s", tc.src, got, tc.want, dump(res))
			}
		})
	}
}

// TestCommandFields checks Name, Args, Alts, Opaque and Via.
func TestCommandFields(t *testing.T) {
	t.Parallel()
	cases := []struct {
		src  string
		text string // the command to look at
		want Command
	}{
		{"/bin/rm -rf x", "/bin/rm -rf x", Command{Name: "rm", Args: []string{"-rf", "x"}, Alts: []string{"rm -rf x"}}},
		{"LD_PRELOAD=x.so ls -l", "LD_PRELOAD=x.so ls -l", Command{Name: "ls", Args: []string{"-l"}, Alts: []string{"ls -l"}, ExecFlags: []string{"LD_PRELOAD=x.so"}}},
		{"A=1 /usr/bin/ls", "A=1 /usr/bin/ls", Command{Name: "ls", Args: []string{}, Alts: []string{"/usr/bin/ls", "ls", "A=1 ls"}}},
		{"X=1", "X=1", Command{}},
		{"export A=1", "export A=1", Command{Name: "export", Args: []string{"A=1"}}},
		{"$CMD -rf /", "$CMD -rf /", Command{Args: []string{"-rf", "/"}, Opaque: true}},
		{"$(echo rm) -rf /", "$(echo rm) -rf /", Command{Args: []string{"-rf", "/"}, Opaque: true}},
		{"/bin/r? x", "/bin/r? x", Command{Args: []string{"x"}, Opaque: true}},
		{"eval ls", "eval ls", Command{Name: "eval", Args: []string{"ls"}, Opaque: true}},
		{"eval ls", "ls", Command{Name: "ls", Args: []string{}, Via: "eval"}},
		{"sudo rm -rf /x", "sudo rm -rf /x", Command{Name: "sudo", Args: []string{"rm", "-rf", "/x"}}},
		{"sudo rm -rf /x", "rm -rf /x", Command{Name: "rm", Args: []string{"-rf", "/x"}, Via: "sudo"}},
		{"sudo -u bob -E env nice rm x", "rm x", Command{Name: "rm", Args: []string{"x"}, Via: "sudo"}},
		{"nohup rm x", "rm x", Command{Name: "rm", Args: []string{"x"}, Via: "nohup"}},
		{"env -i FOO=1 BAR=2 rm x", "FOO=1 BAR=2 rm x", Command{Name: "rm", Args: []string{"x"}, Alts: []string{"rm x"}, Via: "env"}},
		{"bash -c 'ls'", "bash -c ls", Command{Name: "bash", Args: []string{"-c", "ls"}}},
		{"bash -c 'ls'", "ls", Command{Name: "ls", Args: []string{}, Via: "bash -c"}},
		{"find . -exec rm {} +", "rm {}", Command{Name: "rm", Args: []string{"{}"}, Via: "find -exec"}},
		{"xargs rm", "xargs rm", Command{Name: "xargs", Args: []string{"rm"}, ExecFlags: []string{"xargs"}}},
		{"xargs rm", "rm", Command{Name: "rm", Args: []string{}, Via: "xargs"}},
		{"xargs", "echo", Command{Name: "echo", Args: []string{}, Via: "xargs"}},
		{"command -v git", "command -v git", Command{Name: "command", Args: []string{"-v", "git"}}},
		{"nice --frobnicate rm x", "nice --frobnicate rm x", Command{Name: "nice", Args: []string{"--frobnicate", "rm", "x"}, Opaque: true}},
		{"nice --frobnicate rm x", "rm x", Command{Name: "rm", Args: []string{"x"}, Via: "nice"}},
		{"echo x | bash", "bash", Command{Name: "bash", Args: []string{}}},
		{"cat s.sh | bash", "bash", Command{Name: "bash", Args: []string{}, Opaque: true}},
		{"bash -c \"$SCRIPT\"", "bash -c $SCRIPT", Command{Name: "bash", Args: []string{"-c", "$SCRIPT"}, Opaque: true}},
		{"exec >log 2>&1", "exec", Command{Name: "exec", Args: []string{}}},
	}
	for _, tc := range cases {
		t.Run(tc.src+"/"+tc.text, func(t *testing.T) {
			t.Parallel()
			res := analyze(t, tc.src)
			var got Command
			found := false
			for _, c := range res.Commands {
				if c.Text == tc.text {
					got, found = c, true
					break
				}
			}
			if !found {
				t.Fatalf("no command %q in %q\n%s", tc.text, tc.src, dump(res))
			}
			want := tc.want
			want.Text = tc.text
			if got.Name != want.Name || !slices.Equal(got.Args, want.Args) && len(got.Args)+len(want.Args) > 0 ||
				!slices.Equal(got.Alts, want.Alts) || got.Opaque != want.Opaque || got.Via != want.Via ||
				!slices.Equal(got.ExecFlags, want.ExecFlags) {
				t.Errorf("command %q of %q:\n got %+v\nwant %+v", tc.text, tc.src, got, want)
			}
		})
	}
}
