package shell

import (
	"strings"
)

// launcher is a form in which a command runs another command given after
// a fixed subcommand, options and operands (ip netns exec NS CMD, tmux
// new-window CMD, ssh HOST CMD, docker exec C CMD): the command table's
// entry lists its forms (wrapSpec.launch, launchCommands). Unlike a
// wrapper, the launcher stays a subject itself.
type launcher struct {
	// sub are the words that select this form ("netns", "exec"); empty
	// for the command itself.
	sub []string
	// opts are the options before the operands, a wrapper's entry
	// (wraps) read by the one parser.
	opts *cmdSpec
	// globals are the options that may come before each word of sub, as
	// the entry reads them (docker compose -f FILE exec SERVICE CMD).
	globals *cmdSpec
	// operands is how many operands come before the command (the host,
	// the container).
	operands int
	// dashdash: the command follows "--" when there is one (kubectl
	// exec POD -- CMD).
	dashdash bool
	// script: the command is one shell string ("tmux new-window 'make
	// test'"); with remote, the words are joined into one script, as ssh
	// does.
	script bool
	// optScript names options whose value is a shell command (vagrant
	// ssh -c CMD, gcloud compute ssh --command=CMD).
	optScript []string
	// remote: the command runs elsewhere (another machine, a container):
	// it only restricts, like a read (DESIGN §3.5).
	remote bool
	// login: the command runs on another machine in its user's login
	// directory (ssh HOST CMD), so a relative path names a file under
	// that home, never one of the workspace's.
	login bool
	// keys: the words are keystrokes typed into a terminal (tmux
	// send-keys): joined and parsed, with a trailing Enter dropped.
	keys bool
	// asRoot names the options whose value is the user the command runs
	// as: root there is a privilege the container's own user usually
	// lacks (docker exec -u 0), reaching what the container mounts.
	asRoot []string
	// tools respells a launcher's built-in tools as the commands they
	// act as ("remove_directory rm -r": cmake -E remove_directory DIR is
	// rm -r DIR); a tool it does not list runs nothing seen here.
	tools []string
	// escapes: the keys are written with screen's escapes, in which \n,
	// \r, ^M and ^J (and their octal spellings) are Enter.
	escapes bool
	// keyScripts: an operand KEY=VALUE whose KEY starts with it carries a
	// shell command as VALUE, which the tool runs later by itself (npm
	// pkg set scripts.postinstall=CMD: npm runs it at every install).
	keyScripts string
	// fdPattern: a first operand of only '.', '!', '|' and ':' says
	// where the command's standard streams go (screen's exec .!. CMD).
	fdPattern bool
	// session: with its flag given, the operands are not a program to
	// start but a command sent to a running session of the launcher
	// (screen -S dev -X stuff KEYS).
	session *sessionSpec
}

// sessionSpec is the command language a launcher sends to a running
// session of its own: the forms of it that run something (typed keys, a
// program), and the commands that run and write nothing. Any other
// command is opaque: it may source a file, bind a key to a command or
// write the scrollback anywhere.
type sessionSpec struct {
	flag     string
	forms    []launcher
	harmless []string
}

// screenSession is screen -X's command language.
var screenSession = &sessionSpec{flag: "-X",
	forms: []launcher{
		{sub: []string{"stuff"}, opts: &cmdSpec{wraps: true}, keys: true, escapes: true},
		{sub: []string{"exec"}, opts: &cmdSpec{wraps: true}, fdPattern: true},
		{sub: []string{"screen"}, opts: screenOpts},
	},
	harmless: []string{"quit", "kill", "detach", "pow_detach", "windows", "select", "title", "info", "version",
		"number", "next", "prev", "other", "clear", "redisplay", "width", "height", "fit", "focus", "only",
		"remove", "split", "resize", "layout", "echo", "msgwait", "hardstatus", "caption", "sessionname",
		"monitor", "silence", "scrollback", "wrap", "lastmsg", "time", "dinfo", "displays"},
}

// cmakeTools are cmake -E's tools that act as a command: deletes,
// copies, moves and the commands env and time run. chdir, which runs
// its command elsewhere, is an exec form (cmakeCommands).
var cmakeTools = []string{"rm rm", "remove rm", "remove_directory rm -r", "env env", "time time",
	"copy cp", "copy_directory cp -r", "copy_if_different cp", "rename mv", "make_directory mkdir -p",
	"touch touch", "touch_nocreate touch -c", "create_symlink ln -s", "create_hardlink ln", "cat cat"}

// respell returns the command a tool of l stands for, followed by its
// operands, or nil when l does not list it.
func (l *launcher) respell(inner []word) []word {
	if len(inner) == 0 || !inner[0].static {
		return nil
	}
	for _, t := range l.tools {
		name, cmd, _ := strings.Cut(t, " ")
		if name != inner[0].text {
			continue
		}
		out := make([]word, 0, len(inner)+2)
		for _, f := range strings.Fields(cmd) {
			out = append(out, word{text: f, static: true})
		}
		return append(out, inner[1:]...)
	}
	return nil
}

// userOpts are docker exec's options naming the user.
var userOpts = []string{"-u", "--user"}

var (
	sshOpts     = &cmdSpec{wraps: true, wrap: &wrapSpec{short: "46AaCfGgKkMNnqsTtVvXxYy"}, shortVal: "BbcDEeFIiJLlmOoPpQRSWw"}
	autosshOpts = &cmdSpec{wraps: true, wrap: &wrapSpec{short: "46AaCfGgKkNnqsTtVvXxYy"}, shortVal: "BbcDEeFIiJLlMmOoPpQRSWw"}
	moshOpts    = &cmdSpec{wraps: true, wrap: &wrapSpec{short: "46an"}, shortVal: "p", long: []string{"client=", "server=", "ssh=", "port=", "predict=",
		"family=", "bind-server=", "experimental-remote-ip=", "predict-overwrite", "no-ssh-pty", "no-init", "local", "help", "version"}}
	dockerExec  = &cmdSpec{wraps: true, wrap: &wrapSpec{short: "dit"}, shortVal: "euw", long: []string{"detach", "interactive", "tty", "privileged", "env=", "env-file=", "user=", "workdir=", "detach-keys="}}
	kubectlExec = &cmdSpec{wraps: true, wrap: &wrapSpec{short: "itq"}, shortVal: "cnf", long: []string{"stdin", "tty", "quiet", "container=", "namespace=", "filename=", "pod-running-timeout=", "context=", "kubeconfig="}}
	tmuxNew     = &cmdSpec{wraps: true, wrap: &wrapSpec{short: "AdDEPXabhvfIkZS"}, shortVal: "cefFnstxylT"}
	tmuxKeys    = &cmdSpec{wraps: true, wrap: &wrapSpec{short: "FHlMRX"}, shortVal: "Nt"}
	screenOpts  = &cmdSpec{wraps: true, wrap: &wrapSpec{short: "dmDRrxUaAiOlLqQX"}, shortVal: "SctTpesh"}
)

// perfOpts are perf record/stat/trace's options before the command they
// profile.
var perfOpts = &cmdSpec{wraps: true, wrap: &wrapSpec{short: "aAgnqsTvBNRi"}, shortVal: "ceFoptCGjmrIDuMLWSx", long: []string{"all-cpus", "event=", "freq=", "output=", "pid=", "tid=", "cpu=", "count=", "call-graph=", "repeat=", "quiet", "verbose", "no-inherit"}}

// composeExec and composeRun are docker compose exec's and run's options
// before the service.
var (
	composeExec = &cmdSpec{wraps: true, wrap: &wrapSpec{short: "dT"}, shortVal: "euw", long: []string{"detach", "no-TTY", "privileged", "env=", "user=", "workdir=", "index=", "dry-run"}}
	composeRun  = &cmdSpec{wraps: true, wrap: &wrapSpec{short: "dTiPq"}, shortVal: "euwlpv", long: []string{"detach", "no-TTY", "interactive", "rm", "name=", "entrypoint=", "env=", "env-from-file=",
		"label=", "publish=", "service-ports", "use-aliases", "user=", "volume=", "workdir=", "no-deps", "build", "pull=", "quiet-pull", "remove-orphans", "cap-add=", "cap-drop=", "tty", "quiet", "dry-run"}}
)

// dockerRunOpts are docker/podman run's options, from the command table.
var dockerRunOpts = &cmdSpec{wraps: true, wrap: &wrapSpec{short: "dit"}, shortVal: "vewpuhlm", long: dockerRunLong}

// launchCommands is the launcher family of the command table: the forms
// in which a command runs another one (wrapSpec.launch). probe keeps the
// analysis of the commands no other family knows as it was (their other
// forms' arguments are still probed).
func launchCommands() map[string]*cmdSpec {
	return map[string]*cmdSpec{
		"cmake": {wrap: &wrapSpec{launch: []launcher{{sub: []string{"-E"}, opts: &cmdSpec{wraps: true}, tools: cmakeTools}}}},
		// atmos terraform|opentofu SUB COMPONENT -s STACK runs terraform's
		// SUB on the component's stack.
		"atmos": {probe: true, wrap: &wrapSpec{launch: []launcher{{opts: &cmdSpec{wraps: true, long: []string{"logs-level=", "logs-file=", "base-path=", "config=", "config-path=", "redirect-stderr=", "no-color"}},
			tools: []string{"terraform terraform", "tf terraform", "opentofu tofu", "tofu tofu"}}}}},
		"ssh": {wrap: &wrapSpec{launch: []launcher{{opts: sshOpts, operands: 1, remote: true, login: true, script: true}}}},
		// autossh takes ssh's options, and -M PORT, and runs ssh so.
		"autossh": {wrap: &wrapSpec{launch: []launcher{{opts: autosshOpts, operands: 1, remote: true, login: true, script: true}}}},
		// mosh [OPTIONS] HOST [-- COMMAND…] runs the command there.
		"mosh": {probe: true, wrap: &wrapSpec{launch: []launcher{{opts: moshOpts, operands: 1, dashdash: true, remote: true, login: true, script: true}}}},
		"docker": {wrap: &wrapSpec{launch: []launcher{{sub: []string{"exec"}, opts: dockerExec, operands: 1, remote: true, asRoot: userOpts}, {sub: []string{"run"}, opts: dockerRunOpts, operands: 1, remote: true}, {sub: []string{"container", "exec"}, opts: dockerExec, operands: 1, remote: true, asRoot: userOpts},
			{sub: []string{"compose", "exec"}, globals: composeSpec, opts: composeExec, operands: 1, remote: true, asRoot: userOpts},
			{sub: []string{"compose", "run"}, globals: composeSpec, opts: composeRun, operands: 1, remote: true, asRoot: userOpts}}}},
		// A compose project's service: the command runs in its container,
		// often the project's database itself.
		"docker-compose": {wrap: &wrapSpec{launch: []launcher{{sub: []string{"exec"}, globals: composeSpec, opts: composeExec, operands: 1, remote: true, asRoot: userOpts},
			{sub: []string{"run"}, globals: composeSpec, opts: composeRun, operands: 1, remote: true, asRoot: userOpts}}}},
		"podman":  {wrap: &wrapSpec{launch: []launcher{{sub: []string{"exec"}, opts: dockerExec, operands: 1, remote: true, asRoot: userOpts}, {sub: []string{"run"}, opts: dockerRunOpts, operands: 1, remote: true}}}},
		"kubectl": {wrap: &wrapSpec{launch: []launcher{{sub: []string{"exec"}, opts: kubectlExec, operands: 1, dashdash: true, remote: true}}}},
		"oc":      {probe: true, wrap: &wrapSpec{launch: []launcher{{sub: []string{"exec"}, opts: kubectlExec, operands: 1, dashdash: true, remote: true}}}},
		"lxc":     {probe: true, wrap: &wrapSpec{launch: []launcher{{sub: []string{"exec"}, opts: &cmdSpec{wraps: true, long: []string{"force-interactive", "force-noninteractive", "env=", "cwd=", "user=", "group=", "mode="}}, operands: 1, dashdash: true, remote: true}}}},
		"incus":   {probe: true, wrap: &wrapSpec{launch: []launcher{{sub: []string{"exec"}, opts: &cmdSpec{wraps: true, long: []string{"force-interactive", "force-noninteractive", "env=", "cwd=", "user=", "group=", "mode="}}, operands: 1, dashdash: true, remote: true}}}},
		"vagrant": {probe: true, wrap: &wrapSpec{launch: []launcher{{sub: []string{"ssh"}, opts: &cmdSpec{wraps: true, shortVal: "c", long: []string{"plain", "tty", "no-tty", "command="}, wrap: &wrapSpec{positional: 1}}, optScript: []string{"-c", "--command"}, remote: true, login: true}}}},
		"gcloud":  {wrap: &wrapSpec{launch: []launcher{{sub: []string{"compute", "ssh"}, opts: &cmdSpec{wraps: true, long: []string{"tunnel-through-iap", "internal-ip", "command=", "zone=", "project=", "ssh-flag=", "ssh-key-file="}, wrap: &wrapSpec{positional: 1}}, optScript: []string{"--command"}, remote: true, login: true, script: true}}}},
		"ip":      {probe: true, wrap: &wrapSpec{launch: []launcher{{sub: []string{"netns", "exec"}, opts: &cmdSpec{wraps: true}, operands: 1}}}},
		"tmux": {probe: true, wrap: &wrapSpec{launch: []launcher{
			{sub: []string{"new-session"}, opts: tmuxNew, script: true}, {sub: []string{"new"}, opts: tmuxNew, script: true},
			{sub: []string{"new-window"}, opts: tmuxNew, script: true}, {sub: []string{"neww"}, opts: tmuxNew, script: true},
			{sub: []string{"split-window"}, opts: tmuxNew, script: true}, {sub: []string{"splitw"}, opts: tmuxNew, script: true},
			{sub: []string{"respawn-pane"}, opts: tmuxNew, script: true}, {sub: []string{"respawnp"}, opts: tmuxNew, script: true},
			{sub: []string{"respawn-window"}, opts: tmuxNew, script: true}, {sub: []string{"respawnw"}, opts: tmuxNew, script: true},
			{sub: []string{"display-popup"}, opts: tmuxNew, script: true}, {sub: []string{"popup"}, opts: tmuxNew, script: true},
			{sub: []string{"run-shell"}, opts: &cmdSpec{wraps: true, wrap: &wrapSpec{short: "bC"}, shortVal: "dt"}, script: true}, {sub: []string{"run"}, opts: &cmdSpec{wraps: true, wrap: &wrapSpec{short: "bC"}, shortVal: "dt"}, script: true},
			{sub: []string{"send-keys"}, opts: tmuxKeys, keys: true}, {sub: []string{"send"}, opts: tmuxKeys, keys: true},
		}}},
		"screen": {probe: true, wrap: &wrapSpec{launch: []launcher{{opts: screenOpts, session: screenSession}}}},
		// Ad-hoc ansible runs -a's value as a command on every host the
		// pattern names (with the default module, command, or shell or
		// raw); another module's key=value arguments read as assignments.
		"ansible": {probe: true, wrap: &wrapSpec{launch: []launcher{{opts: ansibleOpts, optScript: []string{"-a", "--args"}, remote: true, login: true}}}},
		// A package script set now runs later by itself (npm install runs
		// preinstall, install, postinstall and prepare).
		"npm":    {wrap: &wrapSpec{launch: []launcher{{sub: []string{"pkg", "set"}, opts: &cmdSpec{wraps: true}, keyScripts: "scripts."}, {sub: []string{"set-script"}, opts: &cmdSpec{wraps: true}, operands: 1, script: true}}}},
		"script": {probe: true, wrap: &wrapSpec{launch: []launcher{{opts: &cmdSpec{wraps: true, wrap: &wrapSpec{short: "aeEfqTV"}, shortVal: "cIOBlmto", long: []string{"append", "return", "flush", "force", "quiet", "command=", "log-in=", "log-out=", "log-io=", "log-timing=", "logging-format=", "echo=", "output-limit="}}, optScript: []string{"-c", "--command"}, operands: 1}}}},
		"sg":     {probe: true, wrap: &wrapSpec{launch: []launcher{{opts: &cmdSpec{wraps: true, shortVal: "c"}, operands: 1, optScript: []string{"-c"}, script: true}}}},
		"poetry": {wrap: &wrapSpec{launch: []launcher{{sub: []string{"run"}, opts: &cmdSpec{wraps: true}}}}},
		"pipenv": {probe: true, wrap: &wrapSpec{launch: []launcher{{sub: []string{"run"}, opts: &cmdSpec{wraps: true}}}}},
		"uv":     {wrap: &wrapSpec{launch: []launcher{{sub: []string{"run"}, opts: &cmdSpec{wraps: true, wrap: &wrapSpec{short: "q"}, long: []string{"no-project", "isolated", "frozen", "locked", "no-sync", "all-extras", "with=", "python=", "extra=", "env-file=", "directory=", "project=", "package=", "group="}}}, {sub: []string{"tool", "run"}, opts: toolRunOpts}}}},
		// Package runners that run a tool (uvx twine upload, pipx run
		// twine upload, corepack pnpm publish, hatch run CMD): the words
		// after their options are the command.
		"uvx":           {wrap: &wrapSpec{launch: []launcher{{opts: toolRunOpts}}}},
		"pipx":          {wrap: &wrapSpec{launch: []launcher{{sub: []string{"run"}, opts: &cmdSpec{wraps: true, wrap: &wrapSpec{short: "qv"}, long: []string{"spec=", "python=", "pip-args=", "index-url=", "no-cache", "path", "pypackages", "verbose", "quiet"}}}}}},
		"corepack":      {wrap: &wrapSpec{launch: []launcher{{opts: &cmdSpec{wraps: true}}}}},
		"hatch":         {wrap: &wrapSpec{launch: []launcher{{sub: []string{"run"}, opts: &cmdSpec{wraps: true}}}}},
		"conda":         {probe: true, wrap: &wrapSpec{launch: []launcher{{sub: []string{"run"}, opts: &cmdSpec{wraps: true, shortVal: "np", long: []string{"no-capture-output", "live-stream", "name=", "prefix=", "cwd="}}}}}},
		"bundle":        {probe: true, wrap: &wrapSpec{launch: []launcher{{sub: []string{"exec"}, opts: &cmdSpec{wraps: true}}}}},
		"perf":          {probe: true, wrap: &wrapSpec{launch: []launcher{{sub: []string{"record"}, opts: perfOpts}, {sub: []string{"stat"}, opts: perfOpts}, {sub: []string{"trace"}, opts: perfOpts}}}},
		"pnpm":          {wrap: &wrapSpec{launch: []launcher{{sub: []string{"exec"}, opts: &cmdSpec{wraps: true}}, {sub: []string{"pkg", "set"}, opts: &cmdSpec{wraps: true}, keyScripts: "scripts."}}}},
		"yarn":          {wrap: &wrapSpec{launch: []launcher{{sub: []string{"exec"}, opts: &cmdSpec{wraps: true}, script: true}}}},
		"direnv":        {probe: true, wrap: &wrapSpec{launch: []launcher{{sub: []string{"exec"}, opts: &cmdSpec{wraps: true}, operands: 1}}}},
		"mise":          {probe: true, wrap: &wrapSpec{launch: []launcher{{sub: []string{"exec"}, opts: &cmdSpec{wraps: true}, dashdash: true}, {sub: []string{"x"}, opts: &cmdSpec{wraps: true}, dashdash: true}}}},
		"nix":           {probe: true, wrap: &wrapSpec{launch: []launcher{{sub: []string{"develop"}, opts: &cmdSpec{wraps: true, shortVal: "c", long: []string{"command="}}, optScript: nil, dashdash: false}}}},
		"nix-shell":     {probe: true, wrap: &wrapSpec{launch: []launcher{{opts: &cmdSpec{wraps: true, long: []string{"pure", "impure", "run=", "command=", "packages=", "arg=", "argstr=", "attr=", "include="}}, optScript: []string{"--run", "--command"}}}}},
		"flatpak-spawn": {probe: true, wrap: &wrapSpec{launch: []launcher{{opts: &cmdSpec{wraps: true, long: []string{"host", "clear-env", "watch-bus", "no-network", "env=", "directory=", "forward-fd="}}}}}},
		"distrobox":     {probe: true, wrap: &wrapSpec{launch: []launcher{{sub: []string{"enter"}, opts: &cmdSpec{wraps: true, shortVal: "na", long: []string{"no-tty", "no-workdir", "clean-path", "name=", "additional-flags="}}, dashdash: true, remote: true}}}},
		"toolbox":       {probe: true, wrap: &wrapSpec{launch: []launcher{{sub: []string{"run"}, opts: &cmdSpec{wraps: true, shortVal: "cdr", long: []string{"container=", "distro=", "release="}}, remote: true}}}},
		"watchexec":     {probe: true, wrap: &wrapSpec{launch: []launcher{{opts: &cmdSpec{wraps: true, wrap: &wrapSpec{short: "rcNn"}, shortVal: "wedsfip", long: []string{"restart", "clear", "notify", "postpone", "watch=", "exts=", "debounce=", "signal=", "filter=", "ignore=", "shell=", "on-busy-update="}}, dashdash: true}}}},
		// entr -s hands its first argument to the shell: the words are read
		// as a script, which is what they are without -s too.
		"entr": {probe: true, wrap: &wrapSpec{launch: []launcher{{opts: &cmdSpec{wraps: true, wrap: &wrapSpec{short: "acdnprsz"}}, script: true}}}},
	}
}

// ansibleOpts are ad-hoc ansible's options, before and after the host
// pattern.
var ansibleOpts = &cmdSpec{wraps: true, wrap: &wrapSpec{short: "bKkCDohv", positional: 1}, shortVal: "ilPBtucTefMam",
	long: []string{"inventory=", "limit=", "poll=", "background=", "tree=", "private-key=", "key-file=", "user=", "connection=", "timeout=",
		"ssh-common-args=", "sftp-extra-args=", "scp-extra-args=", "ssh-extra-args=", "extra-vars=", "vault-id=", "vault-password-file=",
		"forks=", "module-path=", "playbook-dir=", "task-timeout=", "args=", "module-name=", "become-method=", "become-user=",
		"become", "ask-become-pass", "ask-pass", "check", "diff", "one-line", "verbose", "list-hosts", "syntax-check", "ask-vault-password"}}

// toolRunOpts are the options of uvx and uv tool run before the tool.
var toolRunOpts = &cmdSpec{wraps: true, wrap: &wrapSpec{short: "qvn"}, shortVal: "p", long: []string{"from=", "with=", "with-editable=",
	"with-requirements=", "python=", "isolated", "offline", "refresh", "no-cache", "index=", "default-index=", "index-url=",
	"extra-index-url=", "env-file=", "directory=", "project=", "quiet", "verbose", "no-progress", "python-preference="}}

// findLauncher returns the launcher form words use, if any, and the index
// after its subcommand words.
func findLauncher(name string, words []word) (*launcher, int) {
	s := commandSpec(name)
	if s == nil {
		return nil, 0
	}
	forms := s.wrapFields().launch
	for i := range forms {
		l := &forms[i]
		at := 1
		// Global options before the subcommand are rare for these tools;
		// the subcommand words must follow the name.
		ok := true
		for _, s := range l.sub {
			if l.globals != nil && at < len(words) {
				at += l.globals.firstOperand(wordTexts(words[at:]))
			}
			if at >= len(words) || words[at].text != s {
				ok = false
				break
			}
			at++
		}
		if ok {
			return l, at
		}
	}
	return nil, 0
}

// launch walks a launcher: the launcher is a subject of its own, and the
// command it runs is walked too, marked Remote when it runs elsewhere.
func (w *walker) launch(name string, l *launcher, at int, words []word, assigns []string, c scope, d *dirState) {
	cmd := w.makeCommand(words, assigns, c.via, false)
	classifyWords(&cmd, name, rolesOf(name), cmd.Args, dynamicWords(words[1:]))
	norm := normaliseArgs(name, cmd.Args)
	cmd.ExecFlags, _ = w.execFlags(name, norm)
	if len(l.sub) == 0 && len(norm) == 1 && len(assigns) == 0 && words[0].text == name && words[1].static &&
		strings.HasPrefix(norm[0], "-") && aboutForm(commandSpec(name), name, norm[0]) {
		// ssh -V: the version, no host, nothing run (a word without a
		// dash is the host).
		cmd.ReadOnly = true
		w.emit(cmd)
		return
	}
	idx := w.emit(cmd)
	// Parse the options as a wrapper's: a fake first word stands for the
	// launcher and its subcommand.
	rest := append([]word{{text: name, static: true}}, words[at:]...)
	start, vals, _, unknown := l.opts.wrapped(rest)
	if unknown {
		w.res.Commands[idx].Opaque = true
	}
	// The key it logs in with, among its own options (ssh -i KEY HOST),
	// not the command it runs.
	if end := at + start - 1; end > 1 && end <= len(words) {
		w.res.Commands[idx].Keys = keyWords(commandSpec(name), words[1:end])
	}
	inner := rest[start:]
	for k := 0; k < l.operands && len(inner) > 0 && !(l.dashdash && inner[0].text == "--"); k++ {
		inner = inner[1:]
	}
	if l.dashdash {
		for i, wd := range inner {
			if wd.text == "--" {
				inner = inner[i+1:]
				break
			}
		}
	}
	if l.session != nil && hasOpt(vals, l.session.flag) {
		// screen -X CMD: a command to a running session, not a program.
		var run bool
		if l, inner, run = l.session.command(inner); !run {
			if l == nil {
				w.res.Commands[idx].Opaque = true
			}
			return
		}
	}
	if len(l.tools) > 0 {
		inner = l.respell(inner)
	}
	via := name
	if len(l.sub) > 0 {
		via += " " + strings.Join(l.sub, " ")
	}
	for _, v := range vals {
		if contains(l.asRoot, v.name) && rootUser(v.val) {
			w.res.Commands[idx].Effects |= EffectPrivilege
			addClass(&w.res.Commands[idx], ClassRisk{Class: ClassPrivilege, Reason: via + " " + v.name + " " + v.val + " runs the command as root in the container", Token: v.val})
		}
	}
	ic, ok := w.nest(scope{src: c.src, via: via, depth: c.depth, nest: c.nest})
	if !ok {
		return
	}
	if l.login {
		d = &dirState{dir: "~"}
	}
	from, ffrom := len(w.res.Commands), len(w.res.Files)
	for _, v := range vals {
		if contains(l.optScript, v.name) {
			if !w.script(v.val, !strings.ContainsAny(v.val, "$`"), ic, d, via, true) {
				w.res.Commands[idx].Opaque = true
			}
		}
	}
	if l.keyScripts != "" {
		for _, wd := range inner {
			key, script, ok := strings.Cut(wd.text, "=")
			if ok && strings.HasPrefix(key, l.keyScripts) && !w.script(script, wd.static, ic, d, via, true) {
				w.res.Commands[idx].Opaque = true
			}
		}
		inner = nil
	}
	switch {
	case len(inner) == 0:
	case l.keys:
		keys := make([]word, 0, len(inner))
		for _, k := range inner {
			if k.text == "Enter" || k.text == "C-m" || k.text == "KPEnter" {
				continue
			}
			keys = append(keys, k)
		}
		s, static := joinStatic(keys)
		if l.escapes {
			s = screenEnter(s)
		}
		if !w.script(s, static, ic, d, via, true) {
			w.res.Commands[idx].Opaque = true
		}
	case l.remote && l.script || l.script && len(inner) == 1:
		s, static := joinStatic(inner)
		if !w.script(s, static, ic, d, via, true) {
			w.res.Commands[idx].Opaque = true
		}
	default:
		w.run(inner, nil, ic, d.clone(), false)
	}
	if l.remote {
		for i := from; i < len(w.res.Commands); i++ {
			w.res.Commands[i].Remote = true
		}
		for i := ffrom; i < len(w.res.Files); i++ {
			w.res.Files[i].Remote = true
		}
	}
}

// screenEnter turns screen's spellings of Enter in typed keys into the
// newline that ends a command.
func screenEnter(s string) string {
	for _, e := range [...]string{`\n`, `\r`, "^M", "^J", `\015`, `\012`} {
		s = strings.ReplaceAll(s, e, "\n")
	}
	return s
}

// command returns the form of the session command words start with and
// the words it runs (run), or run false: a command that runs nothing
// (harmless: l is not nil) or one the table cannot follow (l nil).
func (s *sessionSpec) command(words []word) (l *launcher, inner []word, run bool) {
	if len(words) == 0 {
		return &launcher{}, nil, false
	}
	if !words[0].static {
		return nil, nil, false
	}
	for i := range s.forms {
		f := &s.forms[i]
		if f.sub[0] != words[0].text {
			continue
		}
		rest := append([]word{{text: words[0].text, static: true}}, words[1:]...)
		start, _, _, unknown := f.opts.wrapped(rest)
		if unknown {
			return nil, nil, false
		}
		inner = rest[start:]
		if f.fdPattern && len(inner) > 0 && inner[0].static && strings.Trim(inner[0].text, ".!|:") == "" {
			inner = inner[1:] // exec's file-descriptor pattern (exec .!. CMD)
		}
		return f, inner, true
	}
	if contains(s.harmless, words[0].text) {
		return &launcher{}, nil, false
	}
	return nil, nil, false
}

// hasOpt reports whether opts holds the option name.
func hasOpt(opts []optArg, name string) bool {
	for _, o := range opts {
		if o.name == name {
			return true
		}
	}
	return false
}

// runnerProgram walks the program a package runner starts (packageProgram)
// as a command of its own, marked Runner: what the command of that name
// would do (rm -rf ~, rimraf /) still counts, and nothing else asks.
func (w *walker) runnerProgram(name string, prog []word, c scope, d *dirState) {
	ic, ok := w.nest(c.withVia(name))
	if !ok || len(prog) == 0 {
		return
	}
	if prog[0].static {
		// "npx rimraf@5 ~" runs rimraf.
		prog = append([]word{prog[0]}, prog[1:]...)
		prog[0].text = packageName(prog[0].text)
		if len(prog) > 1 && prog[1].text == "--" {
			// "npm exec wrangler -- delete worker": the runner takes
			// the "--" that ends its options; the program gets the rest.
			prog = append(prog[:1:1], prog[2:]...)
		}
	}
	from, ffrom := len(w.res.Commands), len(w.res.Files)
	w.run(prog, nil, ic, d.clone(), false)
	for i := from; i < len(w.res.Commands); i++ {
		w.res.Commands[i].Runner = true
	}
	for i := ffrom; i < len(w.res.Files); i++ {
		w.res.Files[i].Runner = true
	}
}
