package shell

import (
	"path"
	"strings"
)

// Codes of the critical risks (DESIGN §3.4).
const (
	RiskRecursiveDelete = "recursive-delete"
	RiskForkBomb        = "fork-bomb"
	RiskRemoteFetchExec = "remote-fetch-exec"
	RiskAccountFile     = "system-account-file-write"
	RiskAuthorizedKeys  = "ssh-authorized-keys-write"
	RiskStartupFile     = "shell-startup-file-write"
	RiskPreloadFile     = "preload-file-write"
	RiskFormatDisk      = "format-filesystem"
	RiskDeviceWrite     = "block-device-write"
	RiskShutdown        = "system-shutdown"
	RiskRecursiveChmod  = "recursive-permission-change"
	RiskDevTCP          = "dev-tcp"
)

// systemDirs are top-level directories whose recursive removal or
// permission change breaks the system.
var systemDirs = map[string]bool{
	"/bin": true, "/boot": true, "/dev": true, "/etc": true, "/home": true, "/lib": true,
	"/lib32": true, "/lib64": true, "/libx32": true, "/opt": true, "/proc": true, "/root": true,
	"/run": true, "/sbin": true, "/srv": true, "/sys": true, "/usr": true, "/var": true,
	"/snap": true, "/mnt": true, "/media": true, "/nix": true,
	"/System": true, "/Users": true, "/Applications": true, "/Library": true, "/private": true,
	"/usr/bin": true, "/usr/lib": true, "/usr/local": true, "/usr/sbin": true, "/usr/share": true,
	"/var/lib": true, "/var/log": true,
}

// dangerousTarget reports whether a recursive operation on t destroys the
// system, the home directory or the whole working tree, and names it.
func dangerousTarget(t word, home string, d *dirState) (string, bool) {
	p := t.text
	if p == "" {
		return "", false
	}
	// Home: ~, ~/, ~/*, $HOME, ${HOME}, "$HOME"/ …
	for _, pre := range [...]string{"~", "$HOME", "${HOME}"} {
		if rest, ok := strings.CutPrefix(p, pre); ok && (rest == "" || rest[0] == '/') {
			if isWhole(rest) {
				return "your home directory " + pre, true
			}
			return "", false
		}
	}
	if !path.IsAbs(p) && d != nil && d.dir != "" {
		p = joinDir(d.dir, p)
		if strings.HasPrefix(p, "~") || strings.HasPrefix(p, "$") {
			return dangerousTarget(word{text: p, static: true}, home, nil)
		}
	}
	if path.IsAbs(p) {
		c := stripWhole(p)
		switch {
		case c == "/":
			return "/ (the whole file system)", true
		case systemDirs[c]:
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

// risks checks a simple command for critical patterns.
func (w *walker) risks(name string, args []word, text string, d *dirState) {
	home := w.a.home
	switch name {
	case "rm":
		recursive, noPreserve := false, false
		var targets []word
		opts := true
		for _, a := range args {
			t := a.text
			switch {
			case opts && t == "--":
				opts = false
			case opts && strings.HasPrefix(t, "--"):
				switch t {
				case "--recursive":
					recursive = true
				case "--no-preserve-root":
					noPreserve = true
				}
			case opts && len(t) > 1 && t[0] == '-':
				if strings.ContainsAny(t, "rR") {
					recursive = true
				}
			default:
				targets = append(targets, a)
			}
		}
		if noPreserve {
			w.critical(RiskRecursiveDelete, "rm --no-preserve-root disables the protection against deleting the whole file system", text)
		}
		if recursive {
			for _, t := range targets {
				if what, ok := dangerousTarget(t, home, d); ok {
					w.critical(RiskRecursiveDelete, "recursive rm of "+what+" deletes it entirely", text)
					break
				}
			}
		}
	case "chmod", "chown", "chgrp":
		recursive := false
		var ops []word
		for _, a := range args {
			t := a.text
			switch {
			case t == "--recursive":
				recursive = true
			case strings.HasPrefix(t, "--"):
			case len(t) > 1 && t[0] == '-' && (name != "chmod" || strings.Trim(t[1:], "rwxXst") != ""):
				if strings.IndexByte(t, 'R') >= 0 {
					recursive = true
				}
			default:
				ops = append(ops, a)
			}
		}
		if !recursive || len(ops) < 2 {
			return
		}
		if name == "chmod" && !worldWritable(ops[0].text) {
			return
		}
		for _, t := range ops[1:] {
			if what, ok := dangerousTarget(t, home, d); ok {
				reason := "recursive " + name + " " + ops[0].text + " of " + what
				if name == "chmod" {
					reason += " makes every file in it writable by anyone"
				} else {
					reason += " hands every file in it to another owner"
				}
				w.critical(RiskRecursiveChmod, reason, text)
				break
			}
		}
	case "mkfs", "mke2fs", "mkswap", "wipefs", "mkdosfs":
		w.critical(RiskFormatDisk, name+" formats a file system, destroying the data on it", text)
	case "dd":
		for _, a := range args {
			if v, ok := strings.CutPrefix(a.text, "of=/dev/"); ok && !nonFile("/dev/"+v) {
				w.critical(RiskDeviceWrite, "dd writes directly to the device /dev/"+v+", destroying its data", text)
			}
		}
	case "shutdown", "reboot", "halt", "poweroff":
		for _, a := range args {
			if a.text == "-c" || a.text == "--help" {
				return
			}
		}
		w.critical(RiskShutdown, name+" shuts down or restarts the machine", text)
	case "init", "telinit":
		if len(args) > 0 && (args[0].text == "0" || args[0].text == "6") {
			w.critical(RiskShutdown, name+" "+args[0].text+" shuts down or restarts the machine", text)
		}
	case "systemctl":
		for _, a := range args {
			if strings.HasPrefix(a.text, "-") {
				continue
			}
			switch a.text {
			case "poweroff", "reboot", "halt", "kexec", "soft-reboot":
				w.critical(RiskShutdown, "systemctl "+a.text+" shuts down or restarts the machine", text)
			}
			break
		}
	case "find":
		// find / -delete
		var roots []word
		for _, a := range args {
			if strings.HasPrefix(a.text, "-") || a.text == "(" || a.text == "!" {
				break
			}
			roots = append(roots, a)
		}
		del := false
		for _, a := range args {
			if a.text == "-delete" {
				del = true
			}
		}
		if del {
			for _, r := range roots {
				if what, ok := dangerousTarget(r, home, d); ok && r.text != "." && r.text != "./" {
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

// homeFiles are files under a home directory whose modification grants
// persistent access or code execution.
var homeFiles = map[string]string{
	".ssh/authorized_keys":  RiskAuthorizedKeys,
	".ssh/authorized_keys2": RiskAuthorizedKeys,
	".bashrc":               RiskStartupFile, ".bash_profile": RiskStartupFile, ".bash_login": RiskStartupFile,
	".bash_logout": RiskStartupFile, ".profile": RiskStartupFile, ".zshrc": RiskStartupFile,
	".zshenv": RiskStartupFile, ".zprofile": RiskStartupFile, ".zlogin": RiskStartupFile,
	".zlogout": RiskStartupFile, ".kshrc": RiskStartupFile, ".mkshrc": RiskStartupFile,
	".cshrc": RiskStartupFile, ".tcshrc": RiskStartupFile, ".login": RiskStartupFile,
	".config/fish/config.fish": RiskStartupFile,
}

// systemFiles are absolute paths whose modification compromises the system.
var systemFiles = map[string]string{
	"/etc/passwd": RiskAccountFile, "/etc/shadow": RiskAccountFile, "/etc/group": RiskAccountFile,
	"/etc/gshadow": RiskAccountFile, "/etc/sudoers": RiskAccountFile, "/etc/master.passwd": RiskAccountFile,
	"/etc/doas.conf": RiskAccountFile,
	"/etc/profile":   RiskStartupFile, "/etc/bash.bashrc": RiskStartupFile, "/etc/bashrc": RiskStartupFile,
	"/etc/environment": RiskStartupFile, "/etc/zshrc": RiskStartupFile, "/etc/zshenv": RiskStartupFile,
	"/etc/zprofile": RiskStartupFile, "/etc/zlogin": RiskStartupFile, "/etc/csh.cshrc": RiskStartupFile,
	"/etc/fish/config.fish": RiskStartupFile,
	"/etc/ld.so.preload":    RiskPreloadFile,
}

// systemDirFiles are directories every file of which is as sensitive.
var systemDirFiles = map[string]string{
	"/etc/sudoers.d": RiskAccountFile, "/etc/profile.d": RiskStartupFile, "/etc/zsh": RiskStartupFile,
	"/etc/fish/conf.d": RiskStartupFile,
}

var riskReasons = map[string]string{
	RiskAccountFile:    "is a system account or privilege file; writing it can grant root or lock everyone out",
	RiskAuthorizedKeys: "controls who can log in over SSH; writing it grants persistent access",
	RiskStartupFile:    "is a shell start-up file; writing it runs code in every future shell",
	RiskPreloadFile:    "makes every program load a library; writing it runs code in every process",
	RiskDeviceWrite:    "is a disk device; writing it destroys the file systems on it",
}

// blockDevicePrefixes name disk devices under /dev.
var blockDevicePrefixes = []string{"/dev/sd", "/dev/nvme", "/dev/hd", "/dev/vd", "/dev/xvd", "/dev/mmcblk", "/dev/disk", "/dev/mapper/", "/dev/dm-", "/dev/md", "/dev/rdisk"}

// IsCriticalWritePath reports whether writing path is a critical risk
// (DESIGN §3.4): system account files, sudoers, SSH authorized_keys, shell
// start-up files (under any home, ~, $HOME or home) and disk devices. It
// returns the risk code and a reason naming the path. The policy uses it
// for non-shell write tools too.
func IsCriticalWritePath(p, home string) (code, reason string, ok bool) {
	if p == "" {
		return "", "", false
	}
	home = strings.TrimRight(home, "/")
	rel, inHome := "", false
	for _, pre := range [...]string{"~/", "$HOME/", "${HOME}/"} {
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
		code, ok := homeFiles[rel]
		if !ok && strings.HasPrefix(rel, ".config/fish/conf.d/") {
			code, ok = RiskStartupFile, true
		}
		if ok {
			return code, p + " " + riskReasons[code], true
		}
		return "", "", false
	}
	if !path.IsAbs(p) {
		return "", "", false
	}
	c := path.Clean(p)
	if code, ok := systemFiles[c]; ok {
		return code, c + " " + riskReasons[code], true
	}
	if code, ok := systemDirFiles[path.Dir(c)]; ok {
		return code, c + " " + riskReasons[code], true
	}
	for _, pre := range blockDevicePrefixes {
		if strings.HasPrefix(c, pre) {
			return RiskDeviceWrite, c + " " + riskReasons[RiskDeviceWrite], true
		}
	}
	return "", "", false
}
