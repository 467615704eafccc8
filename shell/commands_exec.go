package shell

import "strings"

// The exec family of the command table: options that make a command run
// other programs, write files nobody named or otherwise escape what a
// wildcard allow ("find *", "git *") was meant to cover, and the options
// whose value is a shell command line (parsed, its commands subjects).
// A command using one records it in Command.ExecFlags; only a rule
// naming it literally allows the command.

// sshCommandOpts are ssh configuration options that run a local program.
var sshCommandOpts = []string{"ProxyCommand", "LocalCommand", "PermitLocalCommand", "KnownHostsCommand"}

// pwshEncoded are PowerShell's -EncodedCommand (a base64 script; any
// unique prefix from -e on) and -Command written out, in the spellings
// seen in use (-c is the interpreter's inline code already).
var pwshEncoded = &cmdSpec{singleDash: true, opts: []optEffect{{names: []string{"-e", "-ec", "-en", "-enc", "-enco", "-encod", "-encode", "-encoded",
	"-encodedcommand", "-EncodedCommand", "-Enc", "-EC", "-E", "-ENC", "-encodedCommand", "-Encodedcommand",
	"-Command", "-command", "-COMMAND", "-CommandWithArgs", "-commandwithargs", "-cwa"}, exec: true}}}

// npmCall is npm exec's -c: a shell command line npm runs.
var npmCall = &cmdSpec{shortVal: "cp", long: []string{"call=", "package="}, opts: []optEffect{{names: []string{"-c", "--call"}, exec: true, script: true}}}

// vimExec are vim's options that run editor commands.
// "+CMD" is -c's other spelling; "+", "+NUM" and "+/PATTERN" only move
// the cursor.
var vimExec = &cmdSpec{shortVal: "cS", long: []string{"cmd="}, opts: []optEffect{{names: []string{"-c", "--cmd", "-S"}, exec: true}}, rare: &rareSpec{analyse: vimCommands}}

// pagerExec: less's and more's "+CMD" operands are keystrokes run at
// start ("!" runs a shell, "|" pipes to one, "s" saves a file, "v" starts
// an editor; macOS's more is less); "+G", "+F", "+NUM" and "+/PATTERN"
// only move.
var pagerExec = &cmdSpec{rare: &rareSpec{analyse: pagerCommands}}

// plusWords returns the "+CMD" operands of args before "--" that safe
// does not accept, as written.
func plusWords(args []string, safe func(string) bool) []string {
	var out []string
	for _, a := range args {
		if a == "--" {
			break
		}
		if c, ok := strings.CutPrefix(a, "+"); ok && !safe(c) {
			out = append(out, a)
		}
	}
	return out
}

func pagerCommands(args []string) []string {
	return plusWords(args, func(c string) bool {
		c = strings.TrimPrefix(c, "+") // ++CMD: for every file
		if c != "" && (c[0] == '/' || c[0] == '?') {
			return printable(c)
		}
		c = strings.TrimLeft(c, "0123456789")
		return c == "" || len(c) == 1 && strings.IndexByte("gGFpP%", c[0]) >= 0
	})
}

func vimCommands(args []string) []string {
	return plusWords(args, func(c string) bool {
		if c != "" && (c[0] == '/' || c[0] == '?') {
			// A search; "|" would start another Ex command.
			return printable(c) && !strings.ContainsRune(c, '|')
		}
		return strings.Trim(c, "0123456789") == ""
	})
}

// printable reports whether s holds no control character (a newline
// would end a pager's search and start other commands).
func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return false
		}
	}
	return true
}

// makeCommands finds the variable definitions among make's operands that
// run programs: SHELL (every recipe runs through it) set to other than a
// usual shell, .SHELLFLAGS holding more than flags (make runs
// "$(SHELL) $(.SHELLFLAGS) RECIPE", so "-c id;" runs id), and a "!="
// definition, whose value make runs as a shell command at once.
// goExecFlags returns the flags of a go command that run a program of
// their value in the toolchain's place: -exec (go run, go test run the
// binary through it), -toolexec (every compiler and linker call),
// -vettool, in any spelling the flag package accepts (-f V, -f=V, --f).
func goExecFlags(args []string) []string {
	var out []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		switch name {
		case "exec", "toolexec", "vettool":
			out = append(out, a)
		}
	}
	return out
}

// cargoExecFlags returns cargo's --config values that name a program it
// runs: build.rustc, build.rustc-wrapper, build.rustdoc, a target's
// runner or linker (any target or host key but its rustflags), a linker
// in rustflags (-C linker=, -fuse-ld=), the environment of build scripts, or a config file,
// which may set any of them.
func cargoExecFlags(args []string) []string {
	var out []string
	for i, a := range args {
		v, ok := strings.CutPrefix(a, "--config=")
		if !ok && a == "--config" && i+1 < len(args) {
			v, ok = args[i+1], true
		}
		if !ok {
			continue
		}
		kv := strings.ToLower(strings.TrimSpace(v))
		key, val, ok := strings.Cut(kv, "=")
		key = strings.TrimSpace(key)
		if !ok || strings.HasPrefix(key, "build.rustc") || strings.HasPrefix(key, "build.rustdoc") || strings.HasPrefix(key, "env.") ||
			strings.HasSuffix(key, "rustflags") && (strings.Contains(val, "linker") || strings.Contains(val, "fuse-ld")) ||
			(strings.HasPrefix(key, "target.") || strings.HasPrefix(key, "host.")) && !strings.HasSuffix(key, "rustflags") && !strings.HasSuffix(key, "rustdocflags") {
			out = append(out, v)
		}
	}
	return out
}

func makeCommands(args []string) []string {
	var out []string
	for _, a := range args {
		if a == "--" {
			break
		}
		eq := strings.IndexByte(a, '=')
		if eq <= 0 || a[0] == '-' {
			continue
		}
		name, val := a[:eq], a[eq+1:]
		if strings.HasSuffix(name, "!") {
			out = append(out, a)
			continue
		}
		name = strings.TrimRight(name, ":+?")
		switch name {
		case "SHELL", "MAKESHELL":
			if !usualShell(val) {
				out = append(out, a)
			}
		case ".SHELLFLAGS":
			for _, f := range strings.Fields(val) {
				if !(len(f) > 1 && f[0] == '-' && strings.Trim(f[1:], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") == "") && !setOption(f) {
					out = append(out, a)
					break
				}
			}
		}
	}
	return out
}

// usualShell reports whether v names a usual shell by its usual path.
func usualShell(v string) bool {
	switch v {
	case "sh", "bash", "dash", "zsh", "ksh", "/bin/sh", "/bin/bash", "/bin/dash", "/bin/zsh", "/bin/ksh",
		"/usr/bin/sh", "/usr/bin/bash", "/usr/bin/dash", "/usr/bin/zsh", "/usr/bin/ksh", "/usr/local/bin/bash", "/opt/homebrew/bin/bash":
		return true
	}
	return false
}

// setOption reports whether f is a name "set -o" takes (pipefail).
func setOption(f string) bool {
	switch f {
	case "pipefail", "errexit", "nounset", "xtrace", "noglob", "posix", "noclobber", "allexport":
		return true
	}
	return false
}

// cmakeCommands finds cmake's command mode running a program in another
// directory: "cmake -E chdir DIR CMD" (env and time are launchers).
func cmakeCommands(args []string) []string {
	for i, a := range args {
		if a == "--" {
			break
		}
		if a == "-E" && i+1 < len(args) {
			switch args[i+1] {
			case "chdir":
				return []string{"-E " + args[i+1]}
			}
			return nil
		}
	}
	return nil
}

// apacheExec: -C and -c give configuration directives on the command
// line (LoadModule runs code, Include reads any file).
var apacheExec = &cmdSpec{probe: true, shortVal: "CcdfDeE", opts: []optEffect{{names: []string{"-C", "-c"}, exec: true}}}

// gdbCommands finds gdb's options that run debugger commands (-ex 'shell
// id', -ex 'dump value FILE …', a command file -x), in any of the
// spellings gdb accepts (one or two dashes, "=VALUE").
func gdbCommands(args []string) []string {
	var out []string
	for _, a := range args {
		if a == "--" {
			break
		}
		n, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if a == n {
			continue
		}
		switch n {
		case "ex", "iex", "x", "ix", "eval-command", "init-eval-command", "command", "init-command":
			out = append(out, a)
		}
	}
	return out
}

// awkExec reads the awk program for commands, pipes and output files.
var awkExec = &cmdSpec{rare: &rareSpec{analyse: awkPrograms}}

// gitGlobalLong are git's global options, before the subcommand; "=" marks
// those taking a value (git -C DIR, --git-dir=DIR).
var gitGlobalLong = []string{"git-dir=", "work-tree=", "namespace=", "super-prefix=", "config-env=", "list-cmds=", "attr-source=",
	"exec-path", "paginate", "no-pager", "bare", "no-replace-objects", "no-lazy-fetch", "literal-pathspecs", "glob-pathspecs",
	"noglob-pathspecs", "icase-pathspecs", "no-optional-locks", "no-advice", "html-path", "man-path", "info-path", "version", "help"}

func execCommands() map[string]*cmdSpec {
	return map[string]*cmdSpec{
		// aria2c runs a program when a download starts, stops or ends.
		"aria2c": {long: []string{"on-download-complete=", "on-download-error=", "on-download-start=", "on-download-pause=", "on-download-stop=", "on-bt-download-complete="},
			opts: []optEffect{{names: []string{"--on-download-complete", "--on-download-error", "--on-download-start", "--on-download-pause", "--on-download-stop", "--on-bt-download-complete"}, exec: true}}},
		"find": {singleDash: true, opts: []optEffect{{names: []string{"-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls"}, exec: true},
			{names: []string{"-delete"}, exec: true, writes: true, when: findNoFollow}}, runs: runsFindExec},
		"git": {long: gitGlobalLong, shortVal: "Cc", runs: runsGitExec,
			opts: []optEffect{{names: []string{"-c", "--config-env", "-p", "--paginate", "--exec-path"}, exec: true}},
			subs: subcommands{
				{"rebase", &cmdSpec{opts: []optEffect{{names: []string{"--exec", "-x"}, exec: true, script: true}}}},
				{"submodule", &cmdSpec{opts: []optEffect{{names: []string{"foreach"}, operand: true, exec: true}}}},
				{"bisect", &cmdSpec{opts: []optEffect{{names: []string{"run"}, operand: true, exec: true}}}},
				{"difftool", &cmdSpec{opts: []optEffect{{names: []string{"-x", "--extcmd"}, exec: true, script: true}}}},
				{"mergetool", &cmdSpec{opts: []optEffect{{names: []string{"--tool"}, exec: true}}}},
				{"grep", &cmdSpec{opts: []optEffect{{names: []string{"-O", "--open-files-in-pager"}, exec: true}}}},
				// Setting git configuration makes later git commands run
				// code (core.fsmonitor, core.pager, core.sshCommand,
				// core.hooksPath, alias.*, diff.external, filter.*).
				{"config", &cmdSpec{rare: &rareSpec{analyse: gitConfigCheck}}},
				// Templates carry hooks; clone -c sets configuration in the
				// new repository; --upload-pack and friends name the
				// program to run.
				{"clone", &cmdSpec{opts: []optEffect{{names: []string{"--template", "-c", "--config", "-u", "--upload-pack"}, exec: true}}}},
				{"init", &cmdSpec{opts: []optEffect{{names: []string{"--template"}, exec: true}}}},
				{"fetch", &cmdSpec{opts: []optEffect{{names: []string{"--upload-pack"}, exec: true}}}},
				{"pull", &cmdSpec{opts: []optEffect{{names: []string{"--upload-pack"}, exec: true}}}},
				{"ls-remote", &cmdSpec{opts: []optEffect{{names: []string{"--upload-pack"}, exec: true}}}},
				{"push", &cmdSpec{opts: []optEffect{{names: []string{"--receive-pack", "--exec"}, exec: true}}}},
				{"archive", &cmdSpec{opts: []optEffect{{names: []string{"--exec"}, exec: true}}}},
				{"filter-branch", &cmdSpec{exec: true}},
				{"filter-repo", &cmdSpec{exec: true}},
			}},
		"rg": {opts: []optEffect{{names: []string{"--pre", "--hostname-bin"}, exec: true}}},
		"sed": {rare: &rareSpec{analyse: sedScripts}, opts: []optEffect{{names: []string{"-f"}, exec: true, cluster: true}, {names: []string{"-i"}, exec: true, cluster: true, writes: true},
			{names: []string{"--file"}, exec: true}, {names: []string{"--in-place"}, exec: true, writes: true}}},
		"tar": {bundled: true, opts: []optEffect{{names: []string{"-I", "-F"}, exec: true, cluster: true},
			{names: []string{"--to-command", "--use-compress-program", "--checkpoint-action", "--info-script", "--new-volume-script"}, exec: true, script: true},
			{names: []string{"--rsh-command"}, exec: true}}},
		// cpio's remote archives are reached through the program named.
		"cpio": {probe: true, opts: []optEffect{{names: []string{"--rsh-command"}, exec: true}}},
		// Programs a tool runs by itself: a backup's password helper, a
		// capture's post-rotate command, a mount's ssh, a socket's server
		// program, apache's command-line directives (LoadModule loads
		// code, Include reads any file), gdb's commands (shell, dump).
		"restic":  {probe: true, opts: []optEffect{{names: []string{"--password-command"}, exec: true, script: true}}},
		"tcpdump": {probe: true, shortVal: "iwWGcZzrsCFETyBjMQ", opts: []optEffect{{names: []string{"-z"}, exec: true, cluster: true}}},
		"sshfs":   {probe: true, shortVal: "op", opts: []optEffect{{names: []string{"-o"}, exec: true, cluster: true, values: []string{"ssh_command", "sshfs_sync", "ProxyCommand", "LocalCommand"}}}},
		"socket":  {probe: true, opts: []optEffect{{names: []string{"-p"}, exec: true, cluster: true, script: true}}},
		"apache2": apacheExec, "apache2ctl": apacheExec, "apachectl": apacheExec, "httpd": apacheExec,
		"gdb":           {probe: true, rare: &rareSpec{analyse: gdbCommands}},
		"gdb-multiarch": {probe: true, rare: &rareSpec{analyse: gdbCommands}},
		"mosh":          {opts: []optEffect{{names: []string{"--ssh", "--client", "--server"}, exec: true, script: true}}},
		"rsync":         {opts: []optEffect{{names: []string{"-e"}, exec: true, cluster: true, script: true}, {names: []string{"--rsh", "--rsync-path"}, exec: true, script: true}}},
		"ssh":           {opts: []optEffect{{names: []string{"-o"}, exec: true, cluster: true, values: sshCommandOpts}}},
		"scp":           {opts: []optEffect{{names: []string{"-o"}, exec: true, cluster: true, values: sshCommandOpts}, {names: []string{"-S"}, exec: true, cluster: true}}},
		"sftp":          {opts: []optEffect{{names: []string{"-S", "-D"}, exec: true, cluster: true}}},
		"awk":           awkExec, "gawk": awkExec, "mawk": awkExec, "nawk": awkExec,
		"sort": {opts: []optEffect{{names: []string{"--compress-program"}, exec: true}}},
		// fzf runs its preview command on every line it shows, in the
		// shell --with-shell names.
		"fzf":    {long: []string{"preview=", "with-shell="}, opts: []optEffect{{names: []string{"--preview"}, exec: true, script: true}, {names: []string{"--with-shell"}, exec: true}}},
		"split":  {opts: []optEffect{{names: []string{"--filter"}, exec: true, script: true}}},
		"curl":   {opts: []optEffect{{names: []string{"-K", "--config"}, exec: true}}},
		"wget":   {opts: []optEffect{{names: []string{"-e", "--execute", "--config", "--use-askpass"}, exec: true}}},
		"zip":    {opts: []optEffect{{names: []string{"-TT", "--unzip-command"}, exec: true}}},
		"fd":     {opts: []optEffect{{names: []string{"-x", "-X"}, exec: true, cluster: true}, {names: []string{"--exec", "--exec-batch"}, exec: true}}, runs: runsFdExec},
		"fdfind": {opts: []optEffect{{names: []string{"-x", "-X", "--exec", "--exec-batch"}, exec: true}}, runs: runsFdExec},
		// The shell's own: the directory cd enters, the script source reads.
		"cd": {runs: runsChdir}, "pushd": {runs: runsChdir}, "popd": {runs: runsChdir},
		"source": {runs: runsSource}, ".": {runs: runsSource},
		// run-parts runs every program in its directory, as running a
		// script there: the files this command line wrote there are
		// walked as scripts. --test and --list only print the names.
		"run-parts": {long: []string{"test", "list", "report", "reverse", "verbose", "lsbsysinit", "new-session", "exit-on-error", "regex=", "umask=", "arg=", "ignore-suffixes="}, shortVal: "au", runs: runsParts},
		"less":      {opts: []optEffect{{names: []string{"-o", "-O", "--log-file", "--LOG-FILE"}, exec: true}}, rare: &rareSpec{analyse: pagerCommands}},
		"man":       {opts: []optEffect{{names: []string{"-P", "--pager", "-H", "--html"}, exec: true}}},
		"more":      pagerExec,
		"make":      {rare: &rareSpec{analyse: makeCommands}}, "gmake": {rare: &rareSpec{analyse: makeCommands}},
		// Builds that run a program they are given in the compiler's or
		// the test binary's place.
		"go": {rare: &rareSpec{analyse: goExecFlags}}, "cargo": {rare: &rareSpec{analyse: cargoExecFlags}},
		"cmake": {rare: &rareSpec{analyse: cmakeCommands}},
		// procmail -m RCFILE filters with the recipes of RCFILE, whose
		// actions pipe mail into programs ("| cmd") and run backquoted
		// commands: a script in procmail's language, which nothing here
		// reads.
		"procmail": {shortVal: "afd", opts: []optEffect{{names: []string{"-m"}, exec: true}}},
		"vim":      vimExec, "nvim": vimExec, "vi": vimExec, "ex": vimExec, "view": vimExec, "rvim": vimExec, "vimdiff": vimExec, "gvim": vimExec,
		// emacs evaluates Lisp given on the command line (shell-command,
		// delete-file, write-region).
		"emacs": {long: []string{"eval=", "execute="}, opts: []optEffect{{names: []string{"--eval", "--execute"}, exec: true}}},
		// PowerShell runs a base64-encoded script or a command line.
		"pwsh": pwshEncoded, "powershell": pwshEncoded,
		// Programs that load a library or script named on the command
		// line: openssl's engines and providers, ssh-add's and ssh-keygen's
		// PKCS#11 providers, nmap's scripts.
		// kustomize build runs the exec and container plugins a
		// kustomization names only when told to, and helm (or the
		// program --helm-command names) for its helmCharts.
		"kustomize": {probe: true, subs: subcommands{{"build", &cmdSpec{long: []string{"enable-alpha-plugins", "enable-exec", "enable-helm", "helm-command="},
			opts: []optEffect{{names: []string{"--enable-alpha-plugins", "--enable-exec", "--enable-helm", "--helm-command"}, exec: true}}}}}},
		"openssl":    {singleDash: true, opts: []optEffect{{names: []string{"-engine", "-provider", "-provider-path", "-keygen_engine"}, exec: true}}},
		"ssh-keygen": {opts: []optEffect{{names: []string{"-D"}, exec: true, cluster: true}}},
		"ssh-add":    {opts: []optEffect{{names: []string{"-s", "-S"}, exec: true, cluster: true}}},
		"nmap":       {long: []string{"script=", "script-args=", "script-args-file=", "script-help=", "script-trace", "script-updatedb"}, opts: []optEffect{{names: []string{"--script"}, exec: true}}},
		// npx -c and npm exec -c run a shell command line.
		"npx": {shortVal: "cp", long: []string{"call=", "package="}, opts: []optEffect{{names: []string{"-c", "--call"}, exec: true, script: true}}},
		"npm": {subs: subcommands{{"exec", npmCall}, {"x", npmCall}}},
		// git runs the program an --upload-pack or --receive-pack names
		// (on this machine for a local or ext:: remote).
	}
}
