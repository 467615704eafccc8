//go:build differential

package shell

// The differential test checks the analysis against bash itself (issue
// 11): it generates structurally tricky but harmless commands, runs each
// under real bash with `strace -f -e trace=execve` in a throwaway
// directory, and checks that every program bash actually executed is
// among the subjects the analysis reported, or that the analysis called
// the command opaque. It needs bash and strace (.ci/run installs strace):
//
//	go test -tags differential -run TestDifferentialBash -v ./shell

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Harmless programs: each reads at most the files of the throwaway
// directory (f1, f2) or standard input, which is /dev/null, and writes at
// most there. Builtins (echo, printf, true) run no program and are mixed
// in for structure.
var diffAtoms = []string{
	"cat f1", "wc -l f1", "head -n1 f2", "tail -n1 f1", "ls", "id -u", "uname", "basename /a/b",
	"dirname /a/b", "sort f1", "seq 2", "date +%s", "expr 1 + 1", "/bin/true", "tr a b < f1",
	"cut -c1 f1", "od -c f2", "stat -c %s f1", "rev f1", "tee out < f1", "sleep 0",
	"echo hi", "printf '%s\\n' x", "true", ":",
}

// respell spells the program name of an atom another way bash accepts.
var respell = []func(string) string{
	func(n string) string { return n },
	func(n string) string { return `"` + n + `"` },
	func(n string) string { return "'" + n + "'" },
	func(n string) string { return `\` + n },
	func(n string) string { return n[:1] + `""` + n[1:] },
	func(n string) string { return n[:1] + `'` + n[1:] + `'` },
	func(n string) string { return "$'" + n + "'" },
}

// respellDynamic spells it in a form known only when the command runs:
// the analysis calls it opaque. Drawn rarely, since an opaque command
// accounts for every program of its call.
var respellDynamic = []func(string) string{
	func(n string) string { return `"$(echo ` + n + `)"` },
	func(n string) string { return "${X:-" + n + "}" },
}

// sq quotes s for bash in single quotes.
func sq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// gen draws commands from a small grammar: atoms, lists, pipelines,
// groups, substitutions, wrappers, xargs, find -exec, here-documents,
// here-strings, functions, eval, aliases, bash -c, control flow, traps,
// assignments and redirections.
type gen struct {
	r      *rand.Rand
	delims *int // here-document delimiters used, so that nested ones differ
}

// heredoc returns "{ CMD <<DELIM", the body and the delimiter line, and the
// closing brace on a line of its own, so that what follows it stays off
// the delimiter's line.
func (g gen) heredoc(cmd, body string, quoted bool) string {
	*g.delims++
	d := "EOF" + strconv.Itoa(*g.delims)
	open := d
	if quoted {
		open = "'" + d + "'"
	}
	return "{ " + cmd + " <<" + open + "\n" + body + "\n" + d + "\n}"
}

// name returns a fresh function name, so that no function calls itself.
func (g gen) name(prefix string) string {
	*g.delims++
	return prefix + strconv.Itoa(*g.delims)
}

// subst wraps s in $( ), keeping it apart from an arithmetic $((.
func subst(s string) string {
	if strings.HasPrefix(s, "(") {
		return "$( " + s + ")"
	}
	return "$(" + s + ")"
}

func (g gen) pick(list []string) string { return list[g.r.IntN(len(list))] }

// simple returns a simple command: an atom with its name respelled.
func (g gen) simple() string {
	a := g.pick(diffAtoms)
	name, rest, _ := strings.Cut(a, " ")
	if name == ":" || strings.HasPrefix(name, "/") {
		return a
	}
	s := respell[g.r.IntN(len(respell))](name)
	if g.r.IntN(16) == 0 {
		s = respellDynamic[g.r.IntN(len(respellDynamic))](name)
	}
	if rest != "" {
		s += " " + rest
	}
	return s
}

// plainSimple is an atom whose name is spelled plainly (for the places
// that need a program and its arguments: wrappers, xargs, find -exec).
func (g gen) plainSimple() string {
	for {
		a := g.pick(diffAtoms)
		if !strings.ContainsAny(a, "<") && a != ":" && a != "true" && !strings.HasPrefix(a, "echo") && !strings.HasPrefix(a, "printf") {
			return a
		}
	}
}

func (g gen) cmd(depth int) string {
	if depth <= 0 {
		return g.simple()
	}
	a := func() string { return g.cmd(depth - 1) }
	switch g.r.IntN(46) {
	case 0:
		return a() + "; " + a()
	case 1:
		return a() + " && " + a()
	case 2:
		return "false || " + a()
	case 3:
		return a() + " | " + a()
	case 4:
		return a() + " |& " + a()
	case 5:
		return "( " + a() + " )"
	case 6:
		return "{ " + a() + "; }"
	case 7:
		return "echo " + subst(a())
	case 8:
		return "echo \"`" + strings.ReplaceAll(g.simple(), "`", "") + "`\""
	case 9:
		return "cat <(" + a() + ")"
	case 10:
		return "X=" + subst(a()) + " " + g.simple()
	case 11:
		return ": ${Y:=" + subst(a()) + "}"
	case 12:
		return "[[ -n " + subst(a()) + " ]]"
	case 13:
		w := g.pick([]string{"env", "env -i PATH=/usr/bin:/bin", "env X=1", "nice -n 1", "timeout 5", "command",
			"nohup", "stdbuf -o0", "exec", "env -- nice timeout -s KILL 5", "command -p", "time", "setsid -w", "env -S" + sq(g.plainSimple())})
		if w == "exec" {
			return "(exec " + g.plainSimple() + ")"
		}
		if strings.HasPrefix(w, "env -S") {
			return w
		}
		return w + " " + g.plainSimple()
	case 14:
		return "echo f1 | xargs " + g.plainSimple()
	case 15:
		return "printf 'f1\\n' | xargs -I{} " + g.plainSimple() + " {}"
	case 16:
		return "find . -maxdepth 1 -name f1 -exec " + g.plainSimple() + " {} \\;"
	case 17:
		return "find . -maxdepth 1 -name f2 -exec sh -c " + sq(a()) + " \\;"
	case 18:
		return g.heredoc("bash", a(), true)
	case 19:
		return g.heredoc("sh", a(), false)
	case 20:
		return g.heredoc("cat", subst(a()), false)
	case 21:
		return "bash <<< " + sq(a())
	case 22:
		return "echo " + sq(a()) + " | bash"
	case 23:
		f := g.name("f")
		return f + "() { " + a() + "; }; " + f
	case 24:
		f := g.name("g")
		return "function " + f + " { " + a() + "; }; " + f + "; " + f
	case 25:
		return "eval " + sq(a())
	case 26:
		return "shopt -s expand_aliases\nalias k=" + sq(a()) + "\nk"
	case 27:
		return g.pick([]string{"bash", "sh", "bash --norc"}) + " -c " + sq(a())
	case 28:
		return "bash -c '\"$@\"' _ " + g.plainSimple()
	case 29:
		return "if " + a() + "; then " + a() + "; fi"
	case 30:
		return "for i in 1 2; do " + a() + "; done"
	case 31:
		return "case x in x) " + a() + ";; esac"
	case 32:
		return "trap " + sq(a()) + " EXIT"
	case 33:
		return g.pick([]string{"declare", "export", "readonly"}) + " Z=" + subst(a())
	case 34:
		return "source /dev/stdin <<< " + sq(a())
	case 35:
		return g.pick([]string{"bash -s", "sh -s", "bash /dev/stdin", "sh -"}) + " <<< " + sq(a())
	case 36:
		return g.pick([]string{"env", "command", "nohup", "nice", "timeout 5", "exec", "setsid -w"}) + " " +
			g.pick([]string{"bash", "sh"}) + " -c " + sq(a())
	case 37:
		return "echo f1 | xargs " + g.pick([]string{"bash", "sh"}) + " -c " + sq(a())
	case 38:
		return "mapfile -t -C " + sq(a()) + " -c 1 L < f1"
	case 39:
		f := g.name("h")
		p := strings.Fields(g.plainSimple())
		return "hash -p /usr/bin/" + strings.TrimPrefix(p[0], "/bin/") + " " + f + "; " + f + " " + strings.Join(p[1:], " ")
	case 40:
		return "trap " + sq(a()) + " " + g.pick([]string{"EXIT", "ERR; false", "RETURN", "DEBUG; :"})
	case 41:
		return "eval " + sq("eval "+sq(a()))
	case 42:
		return "flock f1 " + g.plainSimple()
	case 43:
		return "printf '%s\\0' " + sq(a()) + " | xargs -0 " + g.pick([]string{"sh -c", "bash -c", "env", "nice", "timeout 5", "nohup"})
	case 44:
		// The start-up file unsets the variable: the shells it starts
		// would read it again.
		return "echo " + sq("unset BASH_ENV ENV\n"+a()) + " > s; " + g.pick([]string{"BASH_ENV=./s bash -c :", "env BASH_ENV=./s bash -c :", "ENV=./s sh -i -c : 2>/dev/null"})
	default:
		return "time " + g.plainSimple()
	}
}

// diffHandwritten are cases the grammar does not reach.
var diffHandwritten = []string{
	"cat f1 | bash -c 'wc -l'",
	"bash -c 'eval \"$1\"' _ 'id -u'",
	"sh -c 'ls \"$@\"' _ f1 f2",
	"echo x > >(cat)",
	"arr=( $(ls) ); echo ${arr[0]}",
	"arr[$(id -u >/dev/null; echo 0)]=1",
	"cat < \"$(uname >/dev/null; echo f1)\"",
	"echo x > \"$(id >/dev/null; echo out)\"",
	"coproc { cat f1; }; wait",
	"echo $(( $(id -u) + 1 ))",
	"while false; do :; done; seq 1",
	"until true; do ls; done",
	"x=cat; $x f1",
	"e=eval; $e ls",
	"enable -n echo; echo x",
	"hash -p /usr/bin/id fakename; fakename",
	"command -v ls; type ls; hash ls",
	"printf 'f1\\0f2\\0' | xargs -0 cat",
	"printf 'f1 f2' | xargs -n1 wc -c",
	"echo f1 | xargs sh -c 'cat \"$@\"' _",
	"echo | xargs",
	"find . -maxdepth 1 -name f1 -execdir cat {} +",
	"flock f1 cat f1",
	"flock -c 'cat f1' f1",
	"script -qc 'ls' /dev/null",
	"exec 3<f1; cat <&3",
	"time ls",
	"! ls",
	"ls &\nwait",
	"{ ls; } > out 2>&1",
	"(cd /; ls) ; ls",
	"cat f1 | tee out | wc -l",
	"IFS=,; c=cat,f1; $c",
	"set -- cat f1; \"$@\"",
	"f() { \"$@\"; }; f cat f1",
	"alias a=ls\na",
	"shopt -s expand_aliases; alias b=ls\nb",
	"bash -s <<< 'id -u'",
	"bash /dev/stdin <<< 'uname'",
	"source /dev/stdin <<< 'seq 1'",
	". <(echo ls)",
	"sh -c \"$(echo ls)\"",
	"env -S 'cat f1'",
	"env -C / ls",
	"nice -5 ls",
	"timeout -k 1 5 ls",
	"stdbuf -i0 -o0 -e0 ls",
	"ionice -c 3 ls",
	"chrt -o 0 ls",
	"taskset -c 0 ls",
	"setsid ls",
	"bash -c 'bash -c \"sh -c ls\"'",
	"watch -n 1 -g -x ls > /dev/null & sleep 0.2; kill %1",
	"command env nohup ls",
	"builtin command ls",
	"exec ls",
	"exec -a other ls",
	"builtin exec ls",
	"command eval ls",
	"builtin eval ls",
	"eval eval ls",
	"eval \"eval 'ls'\"",
	"env -u X ls", "env --unset=X ls", "env -iS 'ls'", "env -- ls", "nohup -- ls", "command -- ls",
	"xargs -a f1 ls", "xargs --arg-file=f1 ls", "echo f1 | xargs -P2 -n1 ls", "echo f1 | xargs -r ls",
	"echo f1 | xargs -d '\\n' ls", "echo f1 | xargs -L1 ls", "echo f1 | xargs --max-args=1 ls",
	"echo f1 | xargs -i ls {}", "echo f1 | xargs -t ls", "echo f1 | xargs -E x ls",
	"find . -name f1 -print0 | xargs -0 ls",
	"timeout --foreground 5 ls", "timeout --kill-after=1 5 ls", "timeout 5s ls", "timeout -v 5 ls",
	"nice --adjustment=1 ls", "nice -n+1 ls", "stdbuf --output=L ls", "setsid --wait ls",
	"time -p ls",
	"bash -ec 'ls'", "bash -xc 'ls' 2>/dev/null", "bash -o errexit -c ls", "bash +e -c ls", "bash -O extglob -c ls",
	"bash --posix -c ls", "bash -c -- ls", "bash -c 'ls' -- x", "bash -s -- a b <<< 'ls'", "sh -ec ls",
	"trap -- 'ls' EXIT", "trap 'ls' ERR; false", "f() { trap 'ls' RETURN; }; f", "trap 'uname' DEBUG; :",
	"mapfile -C 'ls' -c 1 a < f1", "readarray -C ls -c 1 a < f1",
	"X='$(ls)'; echo ${X@P}",
	"X='a[$(ls)]'; echo $((X))",
	"X='a[$(ls)]'; (( X ))",
	"declare -i n; X='a[$(ls)]'; n=X",
	"X='a[$(ls)]'; [[ $X -eq 0 ]]",
	"X='a[$(ls)]'; test -v \"$X\"",
	"a=(1); X='a[$(ls)]'; echo ${a[X]}",
	"printf -v 'a[$(ls)]' x",
	"read 'a[$(ls)]' < f1",
	"declare 'a[$(ls)]=1'",
	"unset 'a[$(ls)]'",
	"export 'a[$(ls)]=1' 2>/dev/null; :",
	"let 'a[$(ls)]=1'",
	"shift $(ls | wc -l); :",
	"select x in a; do ls; done < /dev/null",
	"coproc ls; wait",
	"command -p ls", "type -P ls", "hash -r; ls",
	"PATH=/usr/bin ls",
	"cd /usr/bin && ./ls",
	"wait $(ls >/dev/null &)",
	"ls & disown",
	"exec 3< <(ls); cat <&3",
	"cat <<< $(ls)",
	"cat <<< \"$(ls)\"",
	": $(: $(ls))",
	"echo ${X:-$(ls)} ${Y:+$(uname)} ${Z-$(id)}",
	"echo ${#X[$(ls)]}",
	"echo ${X/$(ls)/y}",
	"echo $[ $(ls | wc -l) + 1 ]",
	"for ((i=$(ls|wc -l); i<0; i++)); do :; done",
	"case $(ls) in *) uname;; esac",
	"[ -n \"`ls`\" ]",
	"PS4='$(id) ' bash -xc ls 2>/dev/null",
	"set -x; PS4='$(uname) '; ls 2>/dev/null",
	"export PS4='`id` '; set -x; : 2>/dev/null",
	"echo id > s; BASH_ENV=./s bash -c ls",
	"echo uname > s; env BASH_ENV=./s bash -c :",
	"env 'BASH_FUNC_ls%%=() { id; }' bash -c ls",
	"echo id > s; ENV=./s sh -i -c : 2>/dev/null < /dev/null",
	"echo ls | xargs -I{} {}",
	"echo ls | xargs -i{} {}",
	"echo ls | xargs sh -c",
	"echo ls | xargs bash -c",
	"echo ls | xargs env",
	"echo ls | xargs nice",
	"echo ls | xargs timeout 5",
	"echo ls | xargs nohup",
	"echo 'ls -l' | xargs -I% sh -c %",
	"find . -name f1 -exec {} \\;",
	"ls() { id; }; ls",
	"command_not_found_handle() { uname; }; nosuchcommand",
	"X='a[$(ls)]'; echo ${!X}",
	"f1() { id; }; \"$(echo f1)\"",
	"!(ls)", "!(uname) | cat", "! (id -u)",
	"echo id > s; echo s | xargs sh", "echo id > s; echo s | xargs -n1 bash",
}

// runBash runs src under strace in a fresh directory and returns the base
// names of the programs bash executed, after bash itself.
func runBash(ctx context.Context, bash, strace, src string) ([]string, error) {
	dir, err := os.MkdirTemp("", "tg-diff-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	work, traces := filepath.Join(dir, "work"), filepath.Join(dir, "trace")
	for _, d := range []string{work, traces} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return nil, err
		}
	}
	// bash is started by a name of its own, so that its exec is told
	// apart from the bash processes the command starts.
	launcher := filepath.Join(traces, "tgbash")
	if err := os.Symlink(bash, launcher); err != nil {
		return nil, err
	}
	for _, f := range []string{"f1", "f2"} {
		if err := os.WriteFile(filepath.Join(work, f), []byte(f+" a b\n"), 0o600); err != nil {
			return nil, err
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, strace, "-ff", "-qq", "-z", "-e", "trace=execve", "-e", "signal=none",
		"-o", filepath.Join(traces, "t"), "--", launcher, "--norc", "--noprofile", "-c", src)
	cmd.Dir = work
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + work, "LANG=C", "TMPDIR=" + dir}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	if out, err := cmd.CombinedOutput(); ctx.Err() != nil {
		return nil, fmt.Errorf("timed out: %v: %s", err, out)
	}
	files, err := filepath.Glob(filepath.Join(traces, "t.*"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no trace: %v", err)
	}
	var progs []string
	root := 0
	for _, f := range files {
		execs, err := readExecs(f)
		if err != nil {
			return nil, err
		}
		for _, e := range execs {
			if e == launcher && root == 0 {
				root++ // the traced bash itself
				continue
			}
			progs = append(progs, path.Base(e))
		}
	}
	if root != 1 {
		return nil, fmt.Errorf("no exec of %s in the traces", launcher)
	}
	return progs, nil
}

var execveLine = regexp.MustCompile(`^execve\("((?:[^"\\]|\\.)*)"`)

// readExecs returns the paths of the successful execve calls in a trace.
func readExecs(file string) ([]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := execveLine.FindStringSubmatch(line); m != nil && strings.HasSuffix(line, "= 0") {
			p, err := strconv.Unquote(`"` + m[1] + `"`)
			if err != nil {
				p = m[1]
			}
			out = append(out, p)
		}
	}
	return out, sc.Err()
}

// diffTally counts how the programs bash ran were accounted for.
type diffTally struct {
	mu                                        sync.Mutex
	commands, programs, named, wrapper, shell int
	opaque, unanalysable                      int
	gaps, unparsed                            []string
}

// account checks the programs one command ran against its analysis.
func (d *diffTally) account(src string, res *Analysis, err error, progs []string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.commands++
	d.programs += len(progs)
	if err != nil {
		d.unanalysable += len(progs)
		d.unparsed = append(d.unparsed, fmt.Sprintf("%q: %v", src, err))
		return
	}
	names := map[string]bool{}
	// Code bash finds in data (a prompt expansion, a subscript) is not
	// seen: the risk says so and no rule can allow it.
	opaque := res.Exceeded != "" || hasRisk(res, RiskPromptExpansion) || hasRisk(res, RiskSubscriptCode) || hasRisk(res, RiskCodeVariable)
	nested := false
	for _, c := range res.Commands {
		names[c.Name] = true
		for _, a := range c.Alts {
			names[cmdName(litWord(strings.Fields(a + " x")[0]))] = true
		}
		opaque = opaque || c.Opaque
		nested = nested || c.Via != ""
	}
	for _, p := range progs {
		switch {
		case names[p]:
			d.named++
		case wrapperFor(p) != nil:
			d.wrapper++ // seen through on purpose: the inner command is the subject
		case hasRole(p, roleShell) && nested:
			d.shell++ // the shell a wrapper runs a parsed script with (flock -c, xargs sh -c)
		case opaque:
			d.opaque++
		default:
			d.gaps = append(d.gaps, fmt.Sprintf("bash ran %s, not among the subjects of %q:\n%s", p, src, dump(res)))
		}
	}
}

func TestDifferentialBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("differential test needs bash")
	}
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("differential test needs strace (apt-get install strace)")
	}
	if bash, err = filepath.EvalSymlinks(bash); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if progs, err := runBash(ctx, bash, strace, "ls"); err != nil || !slices.Equal(progs, []string{"ls"}) {
		t.Skipf("strace cannot trace bash here (%v, %q)", err, progs)
	}

	n := 1000
	if s := os.Getenv("TOOLGATE_DIFFERENTIAL_N"); s != "" {
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	g := gen{r: rand.New(rand.NewPCG(11, 5)), delims: new(int)}
	cases := slices.Clone(diffHandwritten)
	for range n {
		cases = append(cases, g.cmd(1+g.r.IntN(3)))
	}

	a := New(WithHome("/nonexistent-home"))
	var tally diffTally
	var wg sync.WaitGroup
	work := make(chan string)
	var errMu sync.Mutex
	var runErrs []string
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for src := range work {
				progs, err := runBash(ctx, bash, strace, src)
				if err != nil {
					errMu.Lock()
					runErrs = append(runErrs, fmt.Sprintf("%q: %v", src, err))
					errMu.Unlock()
					continue
				}
				res, aerr := a.Analyze(src)
				tally.account(src, res, aerr, progs)
			}
		}()
	}
	for _, c := range cases {
		work <- c
	}
	close(work)
	wg.Wait()

	for _, e := range runErrs {
		t.Errorf("running under bash: %s", e)
	}
	for _, gap := range tally.gaps {
		t.Error(gap)
	}
	for _, u := range tally.unparsed {
		t.Logf("not parsed (asks): %s", u)
	}
	t.Logf("differential: ran %d commands under bash (%d generated, %d hand-written); bash executed %d programs: "+
		"%d among the subjects by name, %d wrappers seen through, %d shells running a parsed script, "+
		"%d in commands the analysis called opaque, %d in commands it could not parse; %d gaps",
		tally.commands, n, len(diffHandwritten), tally.programs, tally.named, tally.wrapper, tally.shell,
		tally.opaque, tally.unanalysable, len(tally.gaps))
	if tally.commands != len(cases) {
		t.Errorf("checked %d of %d commands", tally.commands, len(cases))
	}
}
