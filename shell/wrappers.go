package shell

import (
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// wrapperSpec describes a command that runs another command given as its
// remaining words (env, nice, sudo, …), so analysis sees through it.
type wrapperSpec struct {
	short      string   // short options without a value
	shortVal   string   // short options taking a value (attached or next word)
	shortOpt   string   // short options whose value can only be attached (xargs -i)
	long       []string // long options without a value (also accepted with =value)
	longVal    []string // long options taking a value (--opt=value or --opt value)
	positional int      // operands before the command (timeout's DURATION)
	numeric    bool     // -N is an option (nice -10)
	assigns    bool     // NAME=value operands set the environment (env)
	subject    bool     // the wrapper is a subject itself (sudo)
	noCommand  string   // short options after which no command follows (ionice -p)
}

// wrappers is the table of commands seen through. A wrapper with an option
// not listed here stays a subject of its own, opaque, and its inner command
// is still looked for.
var wrappers = sync.OnceValue(func() map[string]*wrapperSpec {
	return map[string]*wrapperSpec{
		"env": {short: "i0v", shortVal: "uCSP", long: []string{"ignore-environment", "null", "debug",
			"block-signal", "default-signal", "ignore-signal", "list-signal-handling"},
			longVal: []string{"unset", "chdir", "split-string"}, assigns: true},
		"command":      {short: "pvV"},
		"builtin":      {},
		"exec":         {short: "cl", shortVal: "a"},
		"nohup":        {},
		"nice":         {shortVal: "n", longVal: []string{"adjustment"}, numeric: true},
		"time":         {short: "apqvV", shortVal: "fo", long: []string{"append", "portability", "verbose", "quiet"}, longVal: []string{"format", "output"}},
		"timeout":      {short: "v", shortVal: "ks", long: []string{"preserve-status", "foreground", "verbose"}, longVal: []string{"kill-after", "signal"}, positional: 1},
		"stdbuf":       {shortVal: "ioe", longVal: []string{"input", "output", "error"}},
		"ionice":       {short: "t", shortVal: "cnpPu", long: []string{"ignore"}, longVal: []string{"class", "classdata", "pid", "pgid", "uid"}, noCommand: "pPu"},
		"setsid":       {short: "cfw", long: []string{"ctty", "fork", "wait"}},
		"watch":        {short: "dgtbecxpwr", shortVal: "nq", long: []string{"differences", "no-title", "beep", "errexit", "color", "no-color", "exec", "precise", "no-wrap", "no-rerun", "chgexit"}, longVal: []string{"interval", "equexit"}},
		"chrt":         {short: "abdefiorRmpv", shortVal: "TPD", long: []string{"all-tasks", "batch", "deadline", "ext", "fifo", "idle", "other", "rr", "reset-on-fork", "max", "pid", "verbose"}, longVal: []string{"sched-runtime", "sched-period", "sched-deadline"}, positional: 1, noCommand: "pm"},
		"taskset":      {short: "acp", long: []string{"all-tasks", "cpu-list", "pid"}, positional: 1, noCommand: "p"},
		"flock":        {short: "sxenuoFv", shortVal: "wEc", long: []string{"shared", "exclusive", "unlock", "nonblock", "nb", "close", "no-fork", "verbose"}, longVal: []string{"wait", "timeout", "conflict-exit-code", "command"}, positional: 1},
		"unbuffer":     {short: "p"},
		"catchsegv":    {},
		"chroot":       {long: []string{"skip-chdir"}, longVal: []string{"userspec", "groups"}, positional: 1, subject: true},
		"fakeroot":     {short: "u", shortVal: "lsib", longVal: []string{"lib", "faked"}},
		"strace":       {short: "cCdDfFhiknqrtTvVwxyYz", shortVal: "abeEIoOpPsSuUX"},
		"ltrace":       {short: "bcCfhiLrStTV", shortVal: "aADeEFlnopsuwx"},
		"proxychains":  {short: "q", shortVal: "f"},
		"proxychains4": {short: "q", shortVal: "f"},
		"torsocks":     {short: "idqh6", shortVal: "uapP", long: []string{"isolate", "quiet", "debug"}, longVal: []string{"user", "pass", "address", "port"}},
		"busybox":      {},
		"toybox":       {},
		// Process, namespace, sandbox and scheduling launchers.
		"unshare":          {short: "mUipnuCTrfc", shortVal: "RwS", long: []string{"mount", "uts", "ipc", "net", "pid", "user", "cgroup", "time", "fork", "kill-child", "map-root-user", "map-current-user", "map-auto", "keep-caps", "mount-proc"}, longVal: []string{"propagation", "setgroups", "root", "wd", "setuid", "setgid", "map-user", "map-group", "map-users", "map-groups", "monotonic", "boottime"}},
		"setpriv":          {long: []string{"no-new-privs", "clear-groups", "keep-groups", "init-groups", "reset-env", "dump"}, longVal: []string{"reuid", "regid", "ruid", "rgid", "euid", "egid", "groups", "inh-caps", "ambient-caps", "bounding-set", "securebits", "pdeathsig", "selinux-label", "apparmor-profile", "landlock-access", "landlock-rule"}},
		"prlimit":          {longVal: []string{"pid", "output", "as", "core", "cpu", "data", "fsize", "locks", "memlock", "msgqueue", "nice", "nofile", "nproc", "rss", "rtprio", "rttime", "sigpending", "stack"}, long: []string{"noheadings", "raw", "verbose"}, shortVal: "po"},
		"numactl":          {short: "ls", shortVal: "CNmpiP", long: []string{"all", "localalloc", "show", "hardware", "huge", "offset"}, longVal: []string{"interleave", "membind", "cpunodebind", "physcpubind", "preferred", "preferred-many", "balancing", "weighted-interleave"}},
		"cpulimit":         {short: "fkzrvi", shortVal: "lpe", long: []string{"foreground", "kill", "lazy", "restore", "verbose", "include-children"}, longVal: []string{"limit", "pid", "exe", "signal"}},
		"trickle":          {short: "sv", shortVal: "udwtlnLPS"},
		"faketime":         {short: "m", shortVal: "f", positional: 1},
		"firejail":         {long: []string{"noprofile", "quiet", "private", "net=none", "noroot", "seccomp", "caps.drop=all", "nosound", "no3d", "nogroups", "nonewprivs", "debug"}, longVal: []string{"profile", "private", "whitelist", "blacklist", "read-only", "net", "dns", "name", "env", "rlimit-as", "timeout"}},
		"bwrap":            {long: []string{"unshare-all", "unshare-user", "unshare-ipc", "unshare-pid", "unshare-net", "unshare-uts", "unshare-cgroup", "share-net", "die-with-parent", "new-session", "as-pid-1", "clearenv"}, longVal: []string{"bind", "ro-bind", "dev-bind", "bind-try", "ro-bind-try", "dev", "proc", "tmpfs", "dir", "chdir", "setenv", "unsetenv", "uid", "gid", "hostname", "symlink", "remount-ro", "cap-add", "cap-drop"}},
		"sandbox-exec":     {shortVal: "fpnD"},
		"systemd-inhibit":  {longVal: []string{"what", "who", "why", "mode"}, long: []string{"list", "no-pager", "no-legend"}},
		"dbus-run-session": {longVal: []string{"config-file", "dbus-daemon"}},
		"xvfb-run":         {short: "af", shortVal: "nslpewe", long: []string{"auto-servernum", "auto-display"}, longVal: []string{"server-num", "server-args", "error-file", "auth-file", "xauth-protocol", "wait"}},
		"chpst":            {shortVal: "ugUenlmdofcrp"},
		"caffeinate":       {short: "dimsu", shortVal: "tw"},
		"ssh-agent":        {short: "cDdks", shortVal: "aEPt"},
		"winpty":           {},
		"retry":            {shortVal: "tdm", longVal: []string{"times", "delay", "until", "while"}},
		"valgrind":         {},
		"nsenter":          {short: "amuinpUCTrwFZ", shortVal: "tSG", long: []string{"all", "mount", "uts", "ipc", "net", "pid", "user", "cgroup", "time", "preserve-credentials", "no-fork"}, longVal: []string{"target", "setuid", "setgid", "root", "wd", "env"}, subject: true},
		"systemd-run": {short: "GPqrS", shortVal: "upEM", long: []string{"user", "system", "scope", "pty", "pipe", "quiet", "wait", "collect", "remain-after-exit", "same-dir", "shell", "no-block", "send-sighup", "no-ask-password"},
			longVal: []string{"unit", "property", "description", "slice", "slice-inherit", "uid", "gid", "nice", "working-directory", "setenv", "service-type", "on-calendar", "on-boot", "on-startup", "on-active", "on-unit-active", "on-unit-inactive", "on-clock-change", "on-timezone-change", "timer-property", "path-property", "socket-property", "machine", "host", "expand-environment"}, subject: true},
		"run0": {long: []string{"no-ask-password"}, longVal: []string{"unit", "property", "description", "slice", "user", "group", "nice", "chdir", "setenv", "background"}, subject: true},
		"sudo": {short: "AbBEeHiKklnPSsVv", shortVal: "CDghpRrtTUu",
			long:    []string{"askpass", "background", "bell", "preserve-env", "edit", "help", "set-home", "login", "remove-timestamp", "reset-timestamp", "list", "non-interactive", "preserve-groups", "stdin", "shell", "validate", "version"},
			longVal: []string{"close-from", "chdir", "group", "host", "prompt", "chroot", "role", "type", "command-timeout", "other-user", "user"},
			subject: true, noCommand: "eKkvV"},
		"doas":    {short: "nsL", shortVal: "uC", subject: true},
		"pkexec":  {long: []string{"disable-internal-agent", "keep-cwd"}, longVal: []string{"user"}, subject: true},
		"su":      {short: "lmpfP", shortVal: "cgGsw", long: []string{"login", "preserve-environment", "pty"}, longVal: []string{"command", "session-command", "group", "supp-group", "shell", "whitelist-environment"}, subject: true},
		"runuser": {short: "lmpfP", shortVal: "cgGswu", long: []string{"login", "preserve-environment", "pty"}, longVal: []string{"command", "session-command", "group", "supp-group", "shell", "whitelist-environment", "user"}, subject: true},
	}
})

// optVal is an option with a value found while parsing a wrapper.
type optVal struct{ opt, val string }

// parseOpts parses a wrapper's options. It returns where the command
// starts, the options with values, the NAME=value operands and whether an
// unknown option was seen.
func parseOpts(spec *wrapperSpec, words []word) (start int, vals []optVal, envs []string, unknown bool) {
	pos := spec.positional
	i := 1
loop:
	for ; i < len(words); i++ {
		t := words[i].text
		switch {
		case t == "--":
			i++
			for pos > 0 && i < len(words) {
				pos--
				i++
			}
			break loop
		case spec.assigns && isAssignment(t):
			envs = append(envs, t)
		case strings.HasPrefix(t, "--") && len(t) > 2:
			name, val, hasEq := strings.Cut(t[2:], "=")
			name = spec.resolve(name)
			switch {
			case contains(spec.longVal, name):
				if !hasEq && i+1 < len(words) {
					i++
					val = words[i].text
				}
				vals = append(vals, optVal{"--" + name, val})
			case contains(spec.long, name):
				vals = append(vals, optVal{"--" + name, ""})
			default:
				unknown = true
			}
		case len(t) > 1 && t[0] == '-' && words[i].static:
			for j := 1; j < len(t); j++ {
				ch := t[j]
				switch {
				case strings.IndexByte(spec.shortVal, ch) >= 0:
					val := t[j+1:]
					if val == "" && i+1 < len(words) {
						i++
						val = words[i].text
					}
					vals = append(vals, optVal{"-" + string(ch), val})
					continue loop
				case strings.IndexByte(spec.shortOpt, ch) >= 0:
					vals = append(vals, optVal{"-" + string(ch), t[j+1:]})
					continue loop
				case strings.IndexByte(spec.short, ch) >= 0:
					vals = append(vals, optVal{"-" + string(ch), ""})
				case spec.numeric && ch >= '0' && ch <= '9':
					continue loop
				default:
					unknown = true
					continue loop
				}
			}
		case t == "-" && spec.assigns: // env -
			vals = append(vals, optVal{"-i", ""})
		default:
			if pos > 0 {
				pos--
				continue
			}
			break loop
		}
	}
	return i, vals, envs, unknown
}

// resolve returns the long option name abbreviates (GNU unique prefix),
// or name itself when it is exact, unknown or ambiguous.
func (spec *wrapperSpec) resolve(name string) string {
	found := ""
	for _, list := range [2][]string{spec.long, spec.longVal} {
		for _, l := range list {
			if l == name {
				return name
			}
			if strings.HasPrefix(l, name) {
				if found != "" && found != l {
					return name
				}
				found = l
			}
		}
	}
	if found == "" {
		return name
	}
	return found
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// isAssignment reports whether s has the form NAME=value.
func isAssignment(s string) bool {
	i := strings.IndexByte(s, '=')
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		c := s[j]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || j > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func hasOpt(vals []optVal, opts ...string) (string, bool) {
	for _, v := range vals {
		for _, o := range opts {
			if v.opt == o {
				return v.val, true
			}
		}
	}
	return "", false
}

// wrapper handles a wrapper command. It returns the inner command's words
// and assignments, or done when nothing more is to be run, and the
// directory state the inner command runs in when the wrapper changes it
// (env -C, sudo -D), else nil.
func (w *walker) wrapper(name string, spec *wrapperSpec, words []word, assigns []string, c scope, d *dirState) ([]word, []string, *dirState, bool) {
	start, vals, envs, unknown := parseOpts(spec, words)
	inner := words[start:]
	noCmd := false
	for _, v := range vals {
		if len(v.opt) == 2 && strings.IndexByte(spec.noCommand, v.opt[1]) >= 0 {
			noCmd = true
		}
	}
	var script *word
	var nd *dirState
	switch name {
	case "command":
		if _, ok := hasOpt(vals, "-v", "-V"); ok {
			noCmd = true
		}
	case "env":
		if s, ok := hasOpt(vals, "-S", "--split-string"); ok {
			inner = append(splitWords(s), inner...)
		}
		nd = w.wrapperDir(vals, d, words, "-C", "--chdir")
	case "time":
		if f, ok := hasOpt(vals, "-o", "--output"); ok {
			w.file(litWord(f), true, joinWords(words), d)
		}
	case "flock":
		if s, ok := hasOpt(vals, "-c", "--command"); ok {
			script = &word{text: s, static: !strings.ContainsAny(s, "$`")}
			inner = nil
		}
	case "su", "runuser":
		if s, ok := hasOpt(vals, "-c", "--command", "--session-command"); ok {
			script = &word{text: s, static: !strings.ContainsAny(s, "$`")}
		}
		if _, ok := hasOpt(vals, "-u", "--user"); !ok || name == "su" {
			inner = nil // operands are a user name and shell arguments
		}
	case "watch":
		if _, ok := hasOpt(vals, "-x", "--exec"); !ok && len(inner) > 0 {
			s, static := joinStatic(inner)
			script = &word{text: s, static: static}
			inner = nil
		}
	case "sudo":
		nd = w.wrapperDir(vals, d, words, "-D", "--chdir")
		if _, ok := hasOpt(vals, "-e", "--edit"); ok {
			for _, f := range inner {
				w.file(f, true, joinWords(words), d)
			}
			inner = nil
		}
	}
	if noCmd {
		inner = nil
	}
	if spec.subject || unknown || script != nil || len(inner) == 0 {
		cmd := w.makeCommand(words, assigns, c.via, unknown)
		classify(&cmd, name, cmd.Args)
		idx := w.emit(cmd)
		if script != nil && !w.script(script.text, script.static, c, d, name, true) {
			w.res.Commands[idx].Opaque = true
		}
	}
	if len(inner) == 0 {
		return nil, nil, nil, true
	}
	if len(envs) > 0 {
		assigns = append(append([]string(nil), assigns...), envs...)
	}
	return inner, assigns, nd, false
}

// wrapperDir returns the directory state of a command a wrapper runs in
// the directory given by one of opts, nil when it has none. The wrapper
// fails rather than run the command elsewhere, so the change is certain.
func (w *walker) wrapperDir(vals []optVal, d *dirState, words []word, opts ...string) *dirState {
	v, ok := hasOpt(vals, opts...)
	if !ok {
		return nil
	}
	dw := litWord(v)
	for _, wd := range words {
		if wd.text == v {
			dw = wd
			break
		}
	}
	nd := d.clone()
	w.chdir(nd, "cd", []word{dw}, false)
	return nd
}

// splitWords splits a command line into static words with the shell
// parser (env -S); on failure it falls back to fields.
func splitWords(s string) []word {
	f, err := parse(s)
	if err == nil && len(f.Stmts) == 1 {
		if x, ok := f.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(x.Assigns) == 0 {
			out := make([]word, 0, len(x.Args))
			for _, a := range x.Args {
				out = append(out, render(s, a))
			}
			return out
		}
	}
	var out []word
	for _, t := range strings.Fields(s) {
		out = append(out, litWord(t))
	}
	return out
}
