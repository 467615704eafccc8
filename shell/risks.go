package shell

import (
	"path"
	"slices"
	"strings"

	"github.com/toolgate/toolgate/internal/sensitive"
)

// Codes of the critical risks (DESIGN §3.4).
const (
	RiskRecursiveDelete = "recursive-delete"
	RiskForkBomb        = "fork-bomb"
	RiskRemoteFetchExec = "remote-fetch-exec"
	// RiskFetchSubst is a substitution whose command fetches from the
	// network (echo $(curl …), diff <(wget -O- …)): what the download
	// makes the outer command do is not in the call.
	RiskFetchSubst     = "fetch-substitution"
	RiskAccountFile    = "system-account-file-write"
	RiskAuthorizedKeys = "ssh-authorized-keys-write"
	RiskStartupFile    = "shell-startup-file-write"
	RiskPreloadFile    = "preload-file-write"
	RiskFormatDisk     = "format-filesystem"
	RiskDeviceWrite    = "block-device-write"
	RiskShutdown       = "system-shutdown"
	RiskRecursiveChmod = "recursive-permission-change"
	RiskDevTCP         = "dev-tcp"
	RiskGitConfig      = "git-config-write"
	RiskGitHook        = "git-hook-write"
	RiskSSHConfig      = "ssh-config-write"
	RiskToolConfig     = "tool-config-write"
)

// isSystemDir: the top-level directories whose recursive removal or
// permission change breaks the system.
func isSystemDir(name string) bool {
	switch name {
	case "/bin", "/boot", "/dev", "/etc", "/home", "/lib",
		"/lib32", "/lib64", "/libx32", "/opt", "/proc", "/root",
		"/run", "/sbin", "/srv", "/sys", "/usr", "/var",
		"/snap", "/mnt", "/media", "/nix",
		"/System", "/Users", "/Applications", "/Library", "/private",
		"/usr/bin", "/usr/lib", "/usr/local", "/usr/sbin", "/usr/share",
		"/var/lib", "/var/log":
		return true
	}
	return false
}

// dangerous reports whether a recursive operation on t destroys the
// system, a home directory or the whole working tree, in any directory the
// shell may be in, and names it.
func (w *walker) dangerous(t word, d *dirState) (string, bool) {
	if d == nil {
		return dangerousTarget(t, w.a.home, "")
	}
	what, ok := dangerousTarget(t, w.a.home, d.dir)
	for i, alts := 0, d.alts(); !ok && i < len(alts); i++ {
		what, ok = dangerousTarget(t, w.a.home, alts[i])
	}
	if !ok && d.lost() {
		what, ok = dangerousTarget(t, w.a.home, "/")
	}
	return what, ok
}

// dangerousTarget reports whether a recursive operation on t, resolved
// against dir, destroys the system, the home directory or the whole
// working tree, and names it.
func dangerousTarget(t word, home, dir string) (string, bool) {
	p := t.text
	if p == "" {
		return "", false
	}
	// Home: ~, ~/, ~/*, $HOME, ${HOME}, "$HOME"/ …
	for _, pre := range [...]string{"~", "$HOME", "${HOME}"} {
		if rest, ok := strings.CutPrefix(p, pre); ok && (rest == "" || rest[0] == '/') {
			if isWhole(rest) || !t.static && isWhole(dropExpansions(rest)) {
				return "your home directory " + pre, true
			}
			return "", false
		}
	}
	// ~user, ~+ (the working directory), ~- (the previous one).
	if t.tilde && len(p) > 1 && p[0] == '~' {
		user, rest, _ := strings.Cut(p[1:], "/")
		if rest = "/" + rest; isWhole(rest) {
			switch user {
			case "+":
				return "the working directory (" + p + ")", true
			case "-":
				return "the previous working directory (" + p + ")", true
			}
			return "the home directory of " + p, true
		}
	}
	if !t.static {
		// An expansion known only at run time: "$(pwd)", "$PWD/*", "$DIR/"
		// with DIR empty, "$PREFIX/etc".
		q := dropExpansions(p)
		if q == p {
			return "", false
		}
		if q == "" || q[0] == '/' && isWhole(q) {
			return "a path known only at run time (" + p + ") that may be / or your home directory", true
		}
		if q[0] == '/' {
			if what, ok := dangerousTarget(word{text: q, static: true}, home, ""); ok {
				return what + " when " + p + " expands to it", true
			}
		}
		return "", false
	}
	if !path.IsAbs(p) && dir != "" {
		p = joinDir(dir, p)
		if strings.HasPrefix(p, "~") || strings.HasPrefix(p, "$") {
			return dangerousTarget(word{text: p, static: !strings.HasPrefix(p, "$"), tilde: p[0] == '~'}, home, "")
		}
	}
	if path.IsAbs(p) {
		c := stripWhole(p)
		switch {
		case c == "/":
			return "/ (the whole file system)", true
		case isSystemDir(c):
			return "the system directory " + c, true
		case home != "" && c == home:
			return "your home directory " + home, true
		}
		return "", false
	}
	c := path.Clean(p)
	if c == "." || c == "*" || c == ".*" || c == ".." || c == "./*" || c == "../*" {
		return "the working directory or its parent (" + t.text + ")", true
	}
	if strings.HasPrefix(c, "../") && strings.Trim(strings.ReplaceAll(c, "/", ""), ".*") == "" {
		return "a parent directory (" + t.text + ")", true
	}
	return "", false
}

// dropExpansions removes the parameter expansions, command substitutions
// and arithmetic expansions from a word's source form, leaving what is
// there whatever they expand to ("$DIR/*" → "/*").
func dropExpansions(p string) string {
	if strings.IndexByte(p, '$') < 0 && strings.IndexByte(p, '`') < 0 {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '`':
			j := strings.IndexByte(p[i+1:], '`')
			if j < 0 {
				return b.String()
			}
			i += j + 1
		case c == '$' && i+1 < len(p) && (p[i+1] == '{' || p[i+1] == '('):
			open, close := p[i+1], byte('}')
			if open == '(' {
				close = ')'
			}
			depth := 0
			j := i + 1
			for ; j < len(p); j++ {
				if p[j] == open {
					depth++
				} else if p[j] == close {
					if depth--; depth == 0 {
						break
					}
				}
			}
			i = j
		case c == '$' && i+1 < len(p) && isNameStart(p[i+1]):
			j := i + 1
			for j < len(p) && (isNameStart(p[j]) || p[j] >= '0' && p[j] <= '9') {
				j++
			}
			i = j - 1
		case c == '$' && i+1 < len(p) && strings.IndexByte("@*#?-$!0123456789", p[i+1]) >= 0:
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isNameStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// stripWhole cleans p and strips a trailing /* or /.* (everything in).
func stripWhole(p string) string {
	for {
		c := path.Clean(p)
		switch {
		case strings.HasSuffix(c, "/*"):
			p = c[:len(c)-2]
		case strings.HasSuffix(c, "/.*"):
			p = c[:len(c)-3]
		default:
			if c == "" {
				return "/"
			}
			return c
		}
		if p == "" {
			return "/"
		}
	}
}

// isWhole reports whether rest (after a home prefix) still means the whole
// directory: "", "/", "/*", "/.", "/.*".
func isWhole(rest string) bool {
	if rest == "" {
		return true
	}
	return stripWhole("/"+strings.TrimLeft(rest, "/")) == "/"
}

// risks checks a simple command for critical patterns: the code its
// risk check names (commandRiskChecks, looked up with its roles).
func (w *walker) risks(name string, check riskCheck, args []word, text string, d *dirState) {
	switch check {
	case checkTreeDelete:
		spec, texts := commandSpec(name), wordTexts(args)
		if spec.hasAny(texts, "--no-preserve-root") {
			w.critical(RiskRecursiveDelete, name+" --no-preserve-root disables the protection against deleting the whole file system", text)
		}
		if spec.treeDeletes || spec.hasAny(texts, spec.rareFields().recursive...) {
			for _, i := range spec.operands(texts) {
				if what, ok := w.dangerous(args[i], d); ok {
					w.critical(RiskRecursiveDelete, "recursive "+name+" of "+what+" deletes it entirely", text)
					break
				}
			}
		}
	case checkTreeMode, checkTreeOwner:
		spec, texts := commandSpec(name), wordTexts(args)
		ops := spec.operands(texts)
		if !spec.hasAny(texts, spec.rareFields().recursive...) || len(ops) < 2 {
			return
		}
		mode := args[ops[0]].text
		if check == checkTreeMode && !worldWritable(mode) {
			return
		}
		for _, i := range ops[1:] {
			if what, ok := w.dangerous(args[i], d); ok {
				reason := "recursive " + name + " " + mode + " of " + what
				if check == checkTreeMode {
					reason += " makes every file in it writable by anyone"
				} else {
					reason += " hands every file in it to another owner"
				}
				w.critical(RiskRecursiveChmod, reason, text)
				break
			}
		}
	case checkFormat:
		w.critical(RiskFormatDisk, name+" formats a file system, destroying the data on it", text)
	case checkDeviceWrite:
		for _, a := range args {
			if v, ok := strings.CutPrefix(a.text, "of=/dev/"); ok && !nonFile("/dev/"+v) {
				w.critical(RiskDeviceWrite, "dd writes directly to the device /dev/"+v+", destroying its data", text)
			}
		}
	case checkShutdown:
		for _, a := range args {
			if a.text == "-c" || a.text == "--help" {
				return
			}
		}
		w.critical(RiskShutdown, name+" shuts down or restarts the machine", text)
	case checkRunlevel:
		if len(args) > 0 && (args[0].text == "0" || args[0].text == "6") {
			w.critical(RiskShutdown, name+" "+args[0].text+" shuts down or restarts the machine", text)
		}
		if len(args) > 0 && (args[0].text == "1" || args[0].text == "s" || args[0].text == "S") {
			// Single-user mode stops every service, ssh among them.
			w.critical(RiskShutdown, name+" "+args[0].text+" takes the machine to single-user mode, stopping its services", text)
		}
	case checkSystemctlPower:
		for _, a := range args {
			if strings.HasPrefix(a.text, "-") {
				continue
			}
			switch a.text {
			case "poweroff", "reboot", "halt", "kexec", "soft-reboot", "rescue", "emergency":
				w.critical(RiskShutdown, "systemctl "+a.text+" shuts down or restarts the machine, or stops its services", text)
			case "isolate":
				w.critical(RiskShutdown, "systemctl isolate switches the machine to another target, stopping every service it does not want", text)
			}
			break
		}
	case checkFindDelete:
		// find / -delete
		var roots []word
		for _, a := range args {
			if strings.HasPrefix(a.text, "-") || a.text == "(" || a.text == "!" {
				break
			}
			roots = append(roots, a)
		}
		if hasWord(args, "-delete") && findDeleteAt(wordTexts(args)) >= 0 {
			for _, r := range roots {
				if what, ok := w.dangerous(r, d); ok && r.text != "." && r.text != "./" {
					w.critical(RiskRecursiveDelete, "find -delete under "+what+" deletes it entirely", text)
					break
				}
			}
		}
	}
	if strings.HasPrefix(name, "mkfs.") {
		w.critical(RiskFormatDisk, name+" formats a file system, destroying the data on it", text)
	}
}

// worldWritable reports whether a chmod mode grants write (or everything)
// to others: 777, 0777, a+rwx, o+w, +w….
func worldWritable(m string) bool {
	if m == "" {
		return false
	}
	if strings.Trim(m, "01234567") == "" {
		last := m[len(m)-1]
		return len(m) >= 3 && (last == '2' || last == '3' || last == '6' || last == '7')
	}
	for _, clause := range strings.Split(m, ",") {
		i := 0
		for i < len(clause) && strings.IndexByte("ugoa", clause[i]) >= 0 {
			i++
		}
		who := clause[:i]
		op := clause[i:]
		if len(op) < 2 || (op[0] != '+' && op[0] != '=') {
			continue
		}
		if (who == "" || strings.ContainsAny(who, "oa")) && strings.ContainsAny(op[1:], "w") {
			return true
		}
	}
	return false
}

// pathRisk is a path and the risk of writing it. The tables of them are
// sorted by path for findRisk (TestRiskTablesSorted): the compiler lays
// them out, where maps would be built in every process at start-up.
type pathRisk struct{ path, code string }

// findRisk returns the risk of writing p, from a table sorted by path.
func findRisk(table []pathRisk, p string) (string, bool) {
	i, ok := slices.BinarySearchFunc(table, p, func(r pathRisk, p string) int { return strings.Compare(r.path, p) })
	if !ok {
		return "", false
	}
	return table[i].code, true
}

// homeFiles are files under a home directory whose modification grants
// persistent access or code execution (sensitive.HomeFiles, sorted by
// path), with their risks, built on first use.
var homeFiles = lazy[[]pathRisk]{build: func() []pathRisk {
	codes := [...]string{
		sensitive.StartupFile:    RiskStartupFile,
		sensitive.GitConfig:      RiskGitConfig,
		sensitive.ToolConfig:     RiskToolConfig,
		sensitive.AuthorizedKeys: RiskAuthorizedKeys,
		sensitive.SSHConfig:      RiskSSHConfig,
	}
	files := sensitive.HomeFiles()
	out := make([]pathRisk, len(files))
	for i, f := range files {
		out[i] = pathRisk{f.Path, codes[f.Kind]}
	}
	return out
}}

// systemFiles are absolute paths whose modification compromises the system.
var systemFiles = [...]pathRisk{
	{"/etc/bash.bashrc", RiskStartupFile},
	{"/etc/bashrc", RiskStartupFile},
	{"/etc/csh.cshrc", RiskStartupFile},
	{"/etc/doas.conf", RiskAccountFile},
	{"/etc/environment", RiskStartupFile},
	{"/etc/fish/config.fish", RiskStartupFile},
	{"/etc/gitconfig", RiskGitConfig},
	{"/etc/group", RiskAccountFile},
	{"/etc/gshadow", RiskAccountFile},
	{"/etc/ld.so.preload", RiskPreloadFile},
	{"/etc/master.passwd", RiskAccountFile},
	{"/etc/npmrc", RiskToolConfig},
	{"/etc/passwd", RiskAccountFile},
	{"/etc/profile", RiskStartupFile},
	{"/etc/shadow", RiskAccountFile},
	{"/etc/ssh/ssh_config", RiskSSHConfig},
	{"/etc/ssh/sshrc", RiskSSHConfig},
	{"/etc/sudoers", RiskAccountFile},
	{"/etc/zlogin", RiskStartupFile},
	{"/etc/zprofile", RiskStartupFile},
	{"/etc/zshenv", RiskStartupFile},
	{"/etc/zshrc", RiskStartupFile},
	{"/proc/sysrq-trigger", RiskShutdown},
}

// systemDirFiles are directories every file of which is as sensitive.
var systemDirFiles = [...]pathRisk{
	{"/etc/fish/conf.d", RiskStartupFile},
	{"/etc/profile.d", RiskStartupFile},
	{"/etc/ssh/ssh_config.d", RiskSSHConfig},
	{"/etc/sudoers.d", RiskAccountFile},
	{"/etc/zsh", RiskStartupFile},
}

// riskReason words why writing a file of a risk code is dangerous.
func riskReason(code string) string {
	switch code {
	case RiskAccountFile:
		return "is a system account or privilege file; writing it can grant root or lock everyone out"
	case RiskAuthorizedKeys:
		return "controls who can log in over SSH; writing it grants persistent access"
	case RiskStartupFile:
		return "is a shell start-up file; writing it runs code in every future shell"
	case RiskPreloadFile:
		return "makes every program load a library; writing it runs code in every process"
	case RiskDeviceWrite:
		return "is a disk device; writing it destroys the file systems on it"
	case RiskGitConfig:
		return "is git configuration; writing it lets every later git command run code (core.fsmonitor, core.pager, core.sshCommand, core.hooksPath, aliases, filters)"
	case RiskGitHook:
		return "is a git hook; writing it runs code in later git commands (commit, checkout, merge, push)"
	case RiskSSHConfig:
		return "is SSH configuration; writing it runs code in later ssh, scp, rsync and git-over-ssh commands (ProxyCommand, LocalCommand, Match exec) or at login"
	case RiskToolConfig:
		return "is npm's configuration; writing it runs code in every later npm command (script-shell, node-options, git)"
	case RiskShutdown:
		return "makes the kernel act at once: a letter written there reboots, powers off or crashes the machine"
	}
	return ""
}

// blockDevicePrefixes name disk devices under /dev.
var blockDevicePrefixes = []string{"/dev/sd", "/dev/nvme", "/dev/hd", "/dev/vd", "/dev/xvd", "/dev/mmcblk", "/dev/disk", "/dev/mapper/", "/dev/dm-", "/dev/md", "/dev/rdisk"}

// IsCriticalWritePath reports whether writing path is a critical risk
// (DESIGN §3.4): system account files, sudoers, SSH authorized_keys, shell
// start-up files (under any home, ~, $HOME or home), disk devices, and
// the files that make later commands an allow rule trusts run code: a
// repository's .git/config and hooks (and the .git entry itself, which
// can point git at another repository), ~/.gitconfig, SSH client
// configuration and ~/.npmrc. It
// returns the risk code and a reason naming the path. The policy uses it
// for non-shell write tools too.
func IsCriticalWritePath(p, home string) (code, reason string, ok bool) {
	if p == "" {
		return "", "", false
	}
	if code, reason, ok := gitMachinery(p); ok {
		return code, reason, true
	}
	home = strings.TrimRight(home, "/")
	rel, inHome := "", false
	for _, pre := range [...]string{"~/", "$HOME/", "${HOME}/", "$XDG_CONFIG_HOME/", "${XDG_CONFIG_HOME}/"} {
		if r, ok := strings.CutPrefix(p, pre); ok && strings.Contains(pre, "XDG") {
			rel, inHome = ".config/"+r, true
			break
		}
		if r, ok := strings.CutPrefix(p, pre); ok {
			rel, inHome = r, true
		}
	}
	if !inHome && home != "" {
		if r, ok := strings.CutPrefix(path.Clean(p), home+"/"); ok {
			rel, inHome = r, true
		}
	}
	if !inHome && path.IsAbs(p) {
		c := path.Clean(p)
		for _, pre := range [...]string{"/home/", "/Users/", "/var/home/"} {
			if r, ok := strings.CutPrefix(c, pre); ok {
				if _, after, ok := strings.Cut(r, "/"); ok {
					rel, inHome = after, true
				}
			}
		}
		if r, ok := strings.CutPrefix(c, "/root/"); ok {
			rel, inHome = r, true
		}
	}
	if inHome {
		rel = path.Clean(rel)
		code, ok := findRisk(homeFiles.get(), rel)
		if !ok && hasUpperASCII(rel) {
			// On a file system that folds case (macOS's, Windows')
			// ".BASHRC" is .bashrc; the table's names are lower case.
			code, ok = findRisk(homeFiles.get(), strings.ToLower(rel))
		}
		if !ok {
			// Directories every file of which a shell start-up file sources
			// (Fedora's .bashrc reads ~/.bashrc.d/*, oh-my-zsh its custom/).
			for _, d := range [...]string{".config/fish/conf.d/", ".bashrc.d/", ".zshrc.d/", ".oh-my-zsh/custom/"} {
				if len(rel) > len(d) && strings.EqualFold(rel[:len(d)], d) {
					code, ok = RiskStartupFile, true
				}
			}
		}
		if ok {
			return code, p + " " + riskReason(code), true
		}
		return "", "", false
	}
	if !path.IsAbs(p) {
		return "", "", false
	}
	c := path.Clean(p)
	if code, ok := findRisk(systemFiles[:], c); ok {
		return code, c + " " + riskReason(code), true
	}
	if code, ok := findRisk(systemDirFiles[:], path.Dir(c)); ok {
		return code, c + " " + riskReason(code), true
	}
	for _, pre := range blockDevicePrefixes {
		if strings.HasPrefix(c, pre) {
			return RiskDeviceWrite, c + " " + riskReason(RiskDeviceWrite), true
		}
	}
	return "", "", false
}

// gitMachinery reports whether p is part of a git repository's own
// machinery whose modification makes later git commands run code: the
// .git entry itself (a .git file can redirect git to another repository),
// its config (and config.worktree, submodule and worktree configs) and
// anything under its hooks. Bare repositories (NAME.git/config) and
// $GIT_DIR/… count too. Names are compared case-insensitively, as on
// macOS and Windows file systems.
func gitMachinery(p string) (code, reason string, ok bool) {
	if !strings.Contains(p, "GIT_") && !containsFold(p, ".git") {
		return "", "", false
	}
	for _, pre := range [...]string{"$GIT_DIR", "${GIT_DIR}", "$GIT_COMMON_DIR", "${GIT_COMMON_DIR}"} {
		if rest, ok := strings.CutPrefix(p, pre); ok && (rest == "" || rest[0] == '/') {
			p = ".git" + rest
			break
		}
	}
	parts := strings.Split(path.Clean(p), "/")
	for i, c := range parts {
		exact := strings.EqualFold(c, ".git")
		if !exact && !(len(c) > 4 && strings.EqualFold(c[len(c)-4:], ".git")) {
			continue
		}
		rest := parts[i+1:]
		switch {
		case len(rest) == 0:
			if exact {
				return RiskGitConfig, p + " is a repository's .git entry; writing it can point git at a repository whose configuration or hooks run code in every later git command", true
			}
		case strings.EqualFold(rest[0], "hooks"):
			return RiskGitHook, p + " " + riskReason(RiskGitHook), true
		case len(rest) == 1 && isGitConfigName(rest[0]):
			return RiskGitConfig, "writing " + p + " lets every later git command run code (core.fsmonitor, core.pager, core.sshCommand, core.hooksPath, aliases, filters)", true
		case strings.EqualFold(rest[0], "modules") || strings.EqualFold(rest[0], "worktrees"):
			for _, r := range rest[1:] {
				if strings.EqualFold(r, "hooks") {
					return RiskGitHook, p + " " + riskReason(RiskGitHook), true
				}
			}
			if isGitConfigName(rest[len(rest)-1]) {
				return RiskGitConfig, "writing " + p + " lets every later git command run code (core.fsmonitor, core.pager, core.sshCommand, core.hooksPath, aliases, filters)", true
			}
		}
	}
	return "", "", false
}

func isGitConfigName(s string) bool {
	return strings.EqualFold(s, "config") || strings.EqualFold(s, "config.worktree") || strings.ContainsAny(s, "*?[")
}

// containsFold reports whether s contains sub, ASCII case-insensitively.
func containsFold(s, sub string) bool {
	n := len(sub)
	for i := 0; i+n <= len(s); i++ {
		if strings.EqualFold(s[i:i+n], sub) {
			return true
		}
	}
	return false
}
