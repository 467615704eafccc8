package shell

// wrapCommands is the wrapper family of the command table: commands that
// run the command that follows their options and positional operands
// (env, nice, sudo, timeout DURATION, chrt PRIO …), so analysis sees
// through them to the command they run. Their options are read by the
// one parser (scan) like every entry's; what a wrapper entry adds:
//
//   - wraps: the words after the options and the positional operands are
//     the command it runs;
//   - short: its short options without a value (shortVal: with one,
//     attached or in the next word; shortAttached: attached only, xargs
//     -i). Any other option is unknown: the wrapper stays a subject of its
//     own, opaque, and its inner command is still looked for;
//   - positional: how many operands come before the command (timeout's
//     DURATION, chroot's NEWROOT, flock's lock file);
//   - numeric: -N is an option (nice -10);
//   - assigns: NAME=value operands set the environment, a lone "-"
//     clears it (env);
//   - subject: the wrapper is a subject itself (sudo, chroot);
//   - noCommand: short options after which no command follows (ionice -p).
//
// What a wrapper does with some options' values (env -S and -C, sudo -e
// and -D, flock -c, su -c, time -o, watch's script) is code (wrapper,
// wrappers.go): the value is a command line, a directory or a file.
//
// Adding a wrapper is adding an entry here, with a decision case.
func wrapCommands() map[string]*cmdSpec {
	return map[string]*cmdSpec{
		"env":     {wraps: true, wrap: &wrapSpec{short: "i0v"}, shortVal: "uCSP", long: []string{"ignore-environment", "null", "debug", "block-signal", "default-signal", "ignore-signal", "list-signal-handling", "unset=", "chdir=", "split-string="}, assigns: true},
		"command": {wraps: true, wrap: &wrapSpec{short: "pvV"}},
		"builtin": {wraps: true},
		"exec":    {wraps: true, wrap: &wrapSpec{short: "cl"}, shortVal: "a"},
		"nohup":   {wraps: true},
		// sshpass -p PASSWORD|-f FILE|-d FD|-e CMD: types the password into
		// the command it runs.
		"sshpass":      {wraps: true, wrap: &wrapSpec{short: "ehv"}, shortVal: "pfdP"},
		"nice":         {wraps: true, shortVal: "n", long: []string{"adjustment="}, numeric: true},
		"time":         {wraps: true, wrap: &wrapSpec{short: "apqvV"}, shortVal: "fo", long: []string{"append", "portability", "verbose", "quiet", "format=", "output="}},
		"timeout":      {wraps: true, wrap: &wrapSpec{short: "v", positional: 1}, shortVal: "ks", long: []string{"preserve-status", "foreground", "verbose", "kill-after=", "signal="}},
		"stdbuf":       {wraps: true, shortVal: "ioe", long: []string{"input=", "output=", "error="}},
		"ionice":       {wraps: true, wrap: &wrapSpec{short: "t", noCommand: "pPu"}, shortVal: "cnpPu", long: []string{"ignore", "class=", "classdata=", "pid=", "pgid=", "uid="}},
		"setsid":       {wraps: true, wrap: &wrapSpec{short: "cfw"}, long: []string{"ctty", "fork", "wait"}},
		"watch":        {wraps: true, wrap: &wrapSpec{short: "dgtbecxpwr"}, shortVal: "nq", long: []string{"differences", "no-title", "beep", "errexit", "color", "no-color", "exec", "precise", "no-wrap", "no-rerun", "chgexit", "interval=", "equexit="}},
		"chrt":         {wraps: true, wrap: &wrapSpec{short: "abdefiorRmpv", positional: 1, noCommand: "pm"}, shortVal: "TPD", long: []string{"all-tasks", "batch", "deadline", "ext", "fifo", "idle", "other", "rr", "reset-on-fork", "max", "pid", "verbose", "sched-runtime=", "sched-period=", "sched-deadline="}},
		"taskset":      {wraps: true, wrap: &wrapSpec{short: "acp", positional: 1, noCommand: "p"}, long: []string{"all-tasks", "cpu-list", "pid"}},
		"flock":        {wraps: true, wrap: &wrapSpec{short: "sxenuoFv", positional: 1}, shortVal: "wEc", long: []string{"shared", "exclusive", "unlock", "nonblock", "nb", "close", "no-fork", "verbose", "wait=", "timeout=", "conflict-exit-code=", "command="}},
		"unbuffer":     {wraps: true, wrap: &wrapSpec{short: "p"}},
		"catchsegv":    {wraps: true},
		"chroot":       {wraps: true, long: []string{"skip-chdir", "userspec=", "groups="}, wrap: &wrapSpec{positional: 1}, subject: true},
		"fakeroot":     {wraps: true, wrap: &wrapSpec{short: "u"}, shortVal: "lsib", long: []string{"lib=", "faked="}},
		"strace":       {wraps: true, wrap: &wrapSpec{short: "cCdDfFhiknqrtTvVwxyYz"}, shortVal: "abeEIoOpPsSuUX"},
		"ltrace":       {wraps: true, wrap: &wrapSpec{short: "bcCfhiLrStTV"}, shortVal: "aADeEFlnopsuwx"},
		"proxychains":  {wraps: true, wrap: &wrapSpec{short: "q"}, shortVal: "f"},
		"proxychains4": {wraps: true, wrap: &wrapSpec{short: "q"}, shortVal: "f"},
		"torsocks":     {wraps: true, wrap: &wrapSpec{short: "idqh6"}, shortVal: "uapP", long: []string{"isolate", "quiet", "debug", "user=", "pass=", "address=", "port="}},
		"busybox":      {wraps: true},
		"toybox":       {wraps: true},
		// Process, namespace, sandbox and scheduling launchers.
		"unshare":  {wraps: true, wrap: &wrapSpec{short: "mUipnuCTrfc"}, shortVal: "RwS", long: []string{"mount", "uts", "ipc", "net", "pid", "user", "cgroup", "time", "fork", "kill-child", "map-root-user", "map-current-user", "map-auto", "keep-caps", "mount-proc", "propagation=", "setgroups=", "root=", "wd=", "setuid=", "setgid=", "map-user=", "map-group=", "map-users=", "map-groups=", "monotonic=", "boottime="}},
		"setpriv":  {wraps: true, long: []string{"no-new-privs", "clear-groups", "keep-groups", "init-groups", "reset-env", "dump", "reuid=", "regid=", "ruid=", "rgid=", "euid=", "egid=", "groups=", "inh-caps=", "ambient-caps=", "bounding-set=", "securebits=", "pdeathsig=", "selinux-label=", "apparmor-profile=", "landlock-access=", "landlock-rule="}},
		"prlimit":  {wraps: true, shortVal: "po", long: []string{"noheadings", "raw", "verbose", "pid=", "output=", "as=", "core=", "cpu=", "data=", "fsize=", "locks=", "memlock=", "msgqueue=", "nice=", "nofile=", "nproc=", "rss=", "rtprio=", "rttime=", "sigpending=", "stack="}},
		"numactl":  {wraps: true, wrap: &wrapSpec{short: "ls"}, shortVal: "CNmpiP", long: []string{"all", "localalloc", "show", "hardware", "huge", "offset", "interleave=", "membind=", "cpunodebind=", "physcpubind=", "preferred=", "preferred-many=", "balancing=", "weighted-interleave="}},
		"cpulimit": {wraps: true, wrap: &wrapSpec{short: "fkzrvi"}, shortVal: "lpe", long: []string{"foreground", "kill", "lazy", "restore", "verbose", "include-children", "limit=", "pid=", "exe=", "signal="}},
		"trickle":  {wraps: true, wrap: &wrapSpec{short: "sv"}, shortVal: "udwtlnLPS"},
		"faketime": {wraps: true, wrap: &wrapSpec{short: "m", positional: 1}, shortVal: "f"},
		// firejail's options take their value attached only (--private or
		// --private=DIR): a separate word is the command.
		"firejail": {wraps: true, long: []string{"noprofile", "quiet", "noroot", "seccomp", "caps.drop", "nosound", "no3d", "nogroups", "nonewprivs", "debug", "profile", "private", "whitelist", "blacklist", "read-only", "net", "dns", "name", "env", "rlimit-as", "timeout"}},
		"bwrap": {wraps: true, long: []string{"unshare-all", "unshare-user", "unshare-ipc", "unshare-pid", "unshare-net", "unshare-uts", "unshare-cgroup", "share-net", "die-with-parent", "new-session", "as-pid-1", "clearenv", "bind=", "ro-bind=", "dev-bind=", "bind-try=", "ro-bind-try=", "dev=", "proc=", "tmpfs=", "dir=", "chdir=", "setenv=", "unsetenv=", "uid=", "gid=", "hostname=", "symlink=", "remount-ro=", "cap-add=", "cap-drop=", "dev-bind-try=", "chmod=", "ro-bind-data=", "bind-data=", "file="},
			rare: &rareSpec{pairs: []string{"bind", "bind-try", "dev-bind", "dev-bind-try", "ro-bind", "ro-bind-try", "symlink", "setenv", "file", "bind-data", "ro-bind-data", "chmod"}}},
		"sandbox-exec":     {wraps: true, shortVal: "fpnD"},
		"systemd-inhibit":  {wraps: true, long: []string{"list", "no-pager", "no-legend", "what=", "who=", "why=", "mode="}},
		"dbus-run-session": {wraps: true, long: []string{"config-file=", "dbus-daemon="}},
		"xvfb-run":         {wraps: true, wrap: &wrapSpec{short: "af"}, shortVal: "nslpewe", long: []string{"auto-servernum", "auto-display", "server-num=", "server-args=", "error-file=", "auth-file=", "xauth-protocol=", "wait="}},
		"chpst":            {wraps: true, shortVal: "ugUenlmdofcrp"},
		"caffeinate":       {wraps: true, wrap: &wrapSpec{short: "dimsu"}, shortVal: "tw"},
		"ssh-agent":        {wraps: true, wrap: &wrapSpec{short: "cDdks"}, shortVal: "aEPt"},
		"winpty":           {wraps: true},
		"retry":            {wraps: true, shortVal: "tdm", long: []string{"times=", "delay=", "until=", "while="}},
		"valgrind":         {wraps: true},
		"nsenter":          {wraps: true, wrap: &wrapSpec{short: "amuinpUCTrwFZ"}, shortVal: "tSG", long: []string{"all", "mount", "uts", "ipc", "net", "pid", "user", "cgroup", "time", "preserve-credentials", "no-fork", "target=", "setuid=", "setgid=", "root=", "wd=", "env="}, subject: true},
		"systemd-run":      {wraps: true, wrap: &wrapSpec{short: "GPqrS"}, shortVal: "upEM", long: []string{"user", "system", "scope", "pty", "pipe", "quiet", "wait", "collect", "remain-after-exit", "same-dir", "shell", "no-block", "send-sighup", "no-ask-password", "unit=", "property=", "description=", "slice=", "slice-inherit=", "uid=", "gid=", "nice=", "working-directory=", "setenv=", "service-type=", "on-calendar=", "on-boot=", "on-startup=", "on-active=", "on-unit-active=", "on-unit-inactive=", "on-clock-change=", "on-timezone-change=", "timer-property=", "path-property=", "socket-property=", "machine=", "host=", "expand-environment="}, subject: true},
		"run0":             {wraps: true, long: []string{"no-ask-password", "unit=", "property=", "description=", "slice=", "user=", "group=", "nice=", "chdir=", "setenv=", "background="}, subject: true},
		"sudo":             {wraps: true, wrap: &wrapSpec{short: "AbBEeHiKklnPSsVv", noCommand: "eKkvV"}, shortVal: "CDghpRrtTUu", long: []string{"askpass", "background", "bell", "preserve-env", "edit", "help", "set-home", "login", "remove-timestamp", "reset-timestamp", "list", "non-interactive", "preserve-groups", "stdin", "shell", "validate", "version", "close-from=", "chdir=", "group=", "host=", "prompt=", "chroot=", "role=", "type=", "command-timeout=", "other-user=", "user="}, subject: true},
		"doas":             {wraps: true, wrap: &wrapSpec{short: "nsL"}, shortVal: "uC", subject: true},
		"pkexec":           {wraps: true, long: []string{"disable-internal-agent", "keep-cwd", "user="}, subject: true},
		"su":               {wraps: true, wrap: &wrapSpec{short: "lmpfP"}, shortVal: "cgGsw", long: []string{"login", "preserve-environment", "pty", "command=", "session-command=", "group=", "supp-group=", "shell=", "whitelist-environment="}, subject: true},
		"runuser":          {wraps: true, wrap: &wrapSpec{short: "lmpfP"}, shortVal: "cgGswu", long: []string{"login", "preserve-environment", "pty", "command=", "session-command=", "group=", "supp-group=", "shell=", "whitelist-environment=", "user="}, subject: true},
		// moreutils, cgroup and personality launchers.
		"eatmydata": {wraps: true},
		// A readline wrapper, D-Bus and X session launchers, Tor's wrapper:
		// each runs the command after its options.
		"rlwrap":      {wraps: true, wrap: &wrapSpec{short: "AcEhimnorRsSvWz"}, shortVal: "abCDefFgHlOpPqt"},
		"dbus-launch": {wraps: true, long: []string{"sh-syntax", "csh-syntax", "auto-syntax", "binary-syntax", "close-stderr", "exit-with-session", "exit-with-x11", "autolaunch=", "config-file="}},
		"torify":      {wraps: true},
		"nocache":     {wraps: true},
		"chronic":     {wraps: true, wrap: &wrapSpec{short: "ev"}},
		"ifne":        {wraps: true, wrap: &wrapSpec{short: "n"}},
		"cgexec":      {wraps: true, shortVal: "g", long: []string{"sticky"}},
		// macOS arch runs the command under another architecture
		// (-x86_64, -arm64, -d VAR, -e VAR=VALUE); bare it prints the
		// machine's, as Linux's arch does.
		"arch":    {wraps: true, singleDash: true, shortVal: "de"},
		"setarch": setarch(1),
		"linux32": setarch(0),
		"linux64": setarch(0),
	}
}

// setarch is the entry of setarch ARCH CMD (positional 1) and of its
// aliases linux32 and linux64, which name no architecture.
func setarch(positional int) *cmdSpec {
	return &cmdSpec{wraps: true, wrap: &wrapSpec{positional: positional, short: "RFZLXBIST3v"},
		long: []string{"addr-no-randomize", "fdpic-funcptrs", "mmap-page-zero", "addr-compat-layout", "read-implies-exec",
			"32bit", "short-inode", "whole-seconds", "sticky-timeouts", "3gb", "4gb", "uname-2.6", "verbose", "list"}}
}
