package shell

import (
	"cmp"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Bash runs code from places that look like data. Each was found by the
// differential test against bash (differential_test.go): bash executed a
// program the analysis did not report.

// Codes of the unprefixable risks of code hidden in data.
const (
	RiskPromptExpansion = "prompt-expansion"
	RiskSubscriptCode   = "subscript-code"
	RiskCodeVariable    = "code-variable"
)

// hash handles the hash builtin. "hash -p /bin/rm x" makes the name x run
// /bin/rm: later commands named x are analysed as the program (so "x -rf
// ~" is "rm -rf ~" to every rule and risk), and the hash command itself is
// opaque, because a command that ran before it was seen (a function
// body) is not renamed.
func (w *walker) hash(words []word, assigns []string, c scope) {
	cmd := w.makeCommand(words, assigns, c.via, false)
	args := words[1:]
	for i := 0; i < len(args); i++ {
		t := args[i].text
		if t == "--" || !strings.HasPrefix(t, "-") {
			break
		}
		j := strings.IndexByte(t, 'p')
		if j < 0 {
			continue
		}
		cmd.Opaque = true
		p := t[j+1:]
		if p == "" && i+1 < len(args) {
			i++
			p = args[i].text
		}
		if i+1 < len(args) && args[i+1].static && p != "" {
			if w.hashed == nil {
				w.hashed = map[string]word{}
			}
			pw := args[i]
			if pw.text != p {
				pw = litWord(p)
			}
			for _, n := range args[i+1:] {
				w.hashed[n.text] = pw
			}
		}
		break
	}
	w.emit(cmd)
}

// rehash returns words with a name that hash -p bound replaced by the
// program it runs.
func (w *walker) rehash(words []word) []word {
	if w.hashed == nil || !words[0].static {
		return words
	}
	p, ok := w.hashed[words[0].text]
	if !ok {
		return words
	}
	out := make([]word, len(words))
	copy(out, words)
	out[0] = p
	return out
}

// mapfile handles mapfile and readarray, whose -C option names a command
// bash evaluates for every -c lines read: it is a nested script.
func (w *walker) mapfile(words []word, assigns []string, c scope, d *dirState) {
	idx := w.emit(w.makeCommand(words, assigns, c.via, false))
	args := words[1:]
	for i := 0; i < len(args); i++ {
		t := args[i].text
		if len(t) < 2 || t[0] != '-' || t == "--" {
			return
		}
		for j := 1; j < len(t); j++ {
			if strings.IndexByte("dnOsucC", t[j]) < 0 {
				continue
			}
			v, vw := t[j+1:], args[i]
			if v == "" && i+1 < len(args) {
				i++
				v, vw = args[i].text, args[i]
			}
			if t[j] == 'C' && !w.script(v, vw.static, c, d.clone(), "mapfile -C", false) {
				w.res.Commands[idx].Opaque = true
			}
			break
		}
	}
}

// promptExpansion reports ${X@P}: bash expands the value of X as a prompt,
// which runs the command substitutions in it.
func (w *walker) promptExpansion(pe *syntax.ParamExp, src string) {
	if pe.Exp == nil || pe.Exp.Op != syntax.OtherParamOps || pe.Exp.Word == nil || pe.Exp.Word.Lit() != "P" {
		return
	}
	w.unprefixable(RiskPromptExpansion, "prompt expansion (${X@P}) runs the command substitutions in the variable's value, which no prefix can vet", srcOf(src, pe))
}

// subscriptCode reports a command text holding a command substitution in
// an array subscript ('a[$(id)]'). Bash runs it when the string is used
// as a variable name or evaluated as arithmetic: by printf -v, read,
// declare, let, (( )), $(( )), [[ -eq ]], test -v, declare -i, …, even
// through a variable that holds it.
func (w *walker) subscriptCode(s string) bool {
	open := strings.IndexByte(s, '[')
	if open < 0 {
		return false
	}
	rest := s[open:]
	code := strings.Index(rest, "$(")
	if bt := strings.IndexByte(rest, '`'); bt >= 0 && (code < 0 || bt < code) {
		code = bt
	}
	if code < 0 || strings.IndexByte(rest[code:], ']') < 0 {
		return false
	}
	w.unprefixable(RiskSubscriptCode, "a string holds a command substitution in an array subscript, which bash runs when the string is used as a variable name or evaluated as arithmetic", s)
	return true
}

// xargsInput returns the command xargs runs with what it adds at run time
// made visible: with a replace string (-I R, -i, --replace) the words
// holding it are not static; without one, code is true when the input
// appended to the words would itself be the command ("xargs env", "xargs
// timeout 5") or a shell's -c script ("xargs sh -c"): the command is
// then opaque.
func xargsInput(inner []word, vals []optArg) (_ []word, code bool) {
	repl := xargsReplace(vals)
	if repl == "" {
		return inner, appendsCode(inner)
	}
	out := make([]word, len(inner))
	for i, wd := range inner {
		if strings.Contains(wd.text, repl) {
			wd.static = false
		}
		out[i] = wd
	}
	return out, false
}

// appendsCode reports whether words appended to a command would be its
// command or a shell's script (-c or a file).
func appendsCode(words []word) bool {
	for range 64 {
		if len(words) == 0 {
			return true
		}
		name := cmdName(words[0])
		if spec := wrapperFor(name); spec != nil {
			start, _, _, _ := spec.wrapped(words)
			words = words[start:]
			continue
		}
		if hasRole(name, roleShell) {
			// Without an operand the first appended word is the -c
			// script or the script file.
			i, _, stdinMode := shellOpts(words)
			return i >= len(words) && !stdinMode
		}
		return false
	}
	return true
}

// codeVars are the variables whose value bash runs as code: prompts
// (command substitutions in PS4 under set -x, in PS1 and PROMPT_COMMAND
// in an interactive shell), start-up files (BASH_ENV, ENV) and exported
// functions (BASH_FUNC_name%%).
var codeVars = []string{"PS1=", "PS2=", "PS3=", "PS4=", "PROMPT_COMMAND=", "BASH_ENV=", "ENV=", "BASH_FUNC_"}

// isDeclBuiltin: the declaration builtins set the variables named in
// their arguments.
func isDeclBuiltin(name string) bool {
	switch name {
	case "export", "declare", "typeset", "readonly", "local":
		return true
	}
	return false
}

// codeVar reports a command that sets a variable bash runs as code: in
// its assignments (the text before the command's own words), in the
// arguments of export and the like, or by env (whose BASH_FUNC_ operand
// is not a plain assignment and is taken for the command).
func (w *walker) codeVar(cmd *Command) bool {
	for _, f := range strings.Fields(assignsOf(cmd)) {
		for _, v := range codeVars {
			if strings.HasPrefix(f, v) {
				w.unprefixable(RiskCodeVariable, "the command sets "+strings.TrimSuffix(v, "=")+", whose value bash runs as code (a prompt's command substitutions, a start-up file, an exported function), which no prefix can vet", cmd.Text)
				return true
			}
		}
	}
	return false
}

// assignsOf returns the text of the variables a command sets: its
// assignments (the text before the command's own words), or the arguments
// of export and the like.
func assignsOf(cmd *Command) string {
	if cmd.Name != "" && !isDeclBuiltin(cmd.Name) && !strings.HasPrefix(cmd.Name, "BASH_FUNC_") {
		if len(cmd.Alts) > 0 {
			return strings.TrimSuffix(cmd.Text, cmd.Alts[0])
		}
		return ""
	}
	return cmd.Text
}

// programVars are environment variables that name a program (or a
// command line) the command they are set for runs in its own place: git's
// ssh, editor, pager and helpers, the pagers and editors of man, less,
// systemctl and sudo, less's input filter, a backup's password helper,
// the dynamic loader's preloads, interpreters' start-up options.
var programVars = []string{"GIT_SSH_COMMAND=", "GIT_SSH=", "GIT_EDITOR=", "GIT_SEQUENCE_EDITOR=", "GIT_PAGER=", "GIT_EXTERNAL_DIFF=",
	"GIT_ASKPASS=", "SSH_ASKPASS=", "GIT_CONFIG_PARAMETERS=", "GIT_CONFIG_COUNT=", "GIT_PROXY_COMMAND=", "PAGER=", "MANPAGER=",
	"MANROFFOPT=", "EDITOR=", "VISUAL=", "SYSTEMD_EDITOR=", "SYSTEMD_PAGER=", "SUDO_EDITOR=", "LESSOPEN=", "LESSCLOSE=",
	"LESSEDIT=", "CRASHPAGER=", "RESTIC_PASSWORD_COMMAND=", "BORG_PASSCOMMAND=", "BORG_RSH=", "RSYNC_RSH=", "BROWSER=",
	"PERL5DB=", "LD_PRELOAD=", "LD_AUDIT=", "DYLD_INSERT_LIBRARIES=", "GCONV_PATH=", "GROFF_BIN_PATH=", "RUSTC_WRAPPER=", "PYTHONSTARTUP=",
	"RUSTC_WORKSPACE_WRAPPER=", "CARGO_BUILD_RUSTC_WRAPPER=", "CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER=", "CARGO_BUILD_RUSTC=",
	"CARGO_BUILD_RUSTDOC=", "RUSTC=", "RUSTDOC="}

// optionVars are environment variables whose value is options a runtime
// reads at every start, as if given on its command line (NODE_OPTIONS
// for node, JAVA_TOOL_OPTIONS for every JVM, RUBYOPT, PERL5OPT): some
// load code (--require, -javaagent:, -r, -M), most only size a heap or
// quiet warnings. The value is exec-capable unless each of its options
// starts with one of harmless, which load and run nothing.
var optionVars = [...]struct {
	name     string
	jvm      bool // harmless are jvmHarmless
	harmless []string
}{
	{name: "NODE_OPTIONS", harmless: []string{"--max-old-space-size=", "--max_old_space_size=", "--max-semi-space-size=", "--stack-size=", "--stack_size=",
		"--openssl-legacy-provider", "--enable-source-maps", "--trace-warnings", "--trace-deprecation", "--trace-uncaught",
		"--no-warnings", "--no-deprecation", "--throw-deprecation", "--pending-deprecation", "--disable-warning=",
		"--unhandled-rejections=", "--dns-result-order=", "--experimental-vm-modules", "--max-http-header-size=",
		"--use-openssl-ca", "--use-bundled-ca", "--expose-gc", "--tls-min-v1.", "--tls-max-v1.", "--no-experimental-fetch",
		"--experimental-fetch", "--no-experimental-global-navigator", "--heapsnapshot-near-heap-limit=", "--report-on-fatalerror",
		"--title="}},
	{name: "JAVA_TOOL_OPTIONS", jvm: true}, {name: "_JAVA_OPTIONS", jvm: true}, {name: "JDK_JAVA_OPTIONS", jvm: true},
	{name: "RUBYOPT", harmless: []string{"-W", "--yjit", "--jit", "--enable-frozen-string-literal", "--disable-frozen-string-literal",
		"--enable=frozen-string-literal", "--disable=frozen-string-literal", "--disable-did_you_mean", "--disable=did_you_mean",
		"--disable-error_highlight", "--disable=error_highlight", "-Eutf-8", "-EUTF-8", "--encoding=", "--external-encoding="}},
	{name: "PERL5OPT", harmless: []string{"-w", "-W", "-X", "-C"}},
}

// jvmHarmless are the JVM options that size memory, pick a collector or
// set a locale property: not -javaagent:, -agentpath:, -agentlib:,
// -XX:OnError= or -XX:OnOutOfMemoryError= (which run a command), @argfiles
// or class-path and boot-path options.
var jvmHarmless = []string{"-Xmx", "-Xms", "-Xss", "-Xmn", "-XX:+", "-XX:-", "-XX:MaxRAMPercentage=", "-XX:InitialRAMPercentage=",
	"-XX:MinRAMPercentage=", "-XX:MaxMetaspaceSize=", "-XX:MetaspaceSize=", "-XX:ReservedCodeCacheSize=", "-XX:MaxDirectMemorySize=",
	"-XX:ActiveProcessorCount=", "-XX:TieredStopAtLevel=", "-Dfile.encoding=", "-Dsun.jnu.encoding=", "-Duser.timezone=",
	"-Duser.language=", "-Duser.country=", "-Djava.awt.headless=", "-Djava.net.preferIPv4Stack=", "-Dhttps.protocols=",
	"-Djdk.tls.client.protocols=", "-Dstdout.encoding=", "-Dstderr.encoding="}

// optionVarRuns reports whether the options v an optionVars variable
// holds may load code: an option none of harmless begins (an assignment
// word after it belongs to the next variable, not to it).
func optionVarRuns(v string, harmless []string) bool {
	for _, f := range strings.Fields(v) {
		if isAssignment(f) && !strings.HasPrefix(f, "-") {
			break
		}
		ok := false
		for _, h := range harmless {
			ok = ok || strings.HasPrefix(f, h)
		}
		if !ok {
			return true
		}
	}
	return false
}

// programVar records, as exec-capable, an assignment in front of a
// command that names a program the command runs ("LESSOPEN='|sh %s'
// less x", "GIT_SSH_COMMAND=… git fetch", "LD_PRELOAD=./x.so ls"), or
// set for the commands after it ("export PAGER=…; git log"): only a rule
// naming it allows the command.
func programVar(cmd *Command) {
	assigns := assignsOf(cmd)
	if i := strings.Index(assigns, "GOFLAGS="); i >= 0 && goFlagsExec(assigns[i:]) {
		// "GOFLAGS=-toolexec=/tmp/x go build": the flags of every go
		// command it is set for.
		cmd.ExecFlags = append(cmd.ExecFlags, assigns[i:])
	}
	if i := strings.Index(assigns, "RUSTFLAGS="); i >= 0 && (strings.Contains(assigns[i:], "linker=") || strings.Contains(assigns[i:], "fuse-ld=")) {
		// "RUSTFLAGS='-C linker=/tmp/x' cargo build": rustc runs it to
		// link (a quoted value spans fields; CARGO_ENCODED_RUSTFLAGS too).
		cmd.ExecFlags = append(cmd.ExecFlags, assigns[i:])
	}
	if v, ok := envValue(assigns, "LESS"); ok && lessRuns(strings.Fields(v)) {
		// "LESS='+!sh' less f": less reads its options and start-up
		// commands from LESS as from its arguments.
		cmd.ExecFlags = append(cmd.ExecFlags, "LESS="+v)
	}
	for i := range optionVars {
		o := &optionVars[i]
		harmless := o.harmless
		if o.jvm {
			harmless = jvmHarmless
		}
		if v, ok := envValue(assigns, o.name); ok && optionVarRuns(v, harmless) {
			// "NODE_OPTIONS='--require ./x.js' npm test"; a heap size
			// (--max-old-space-size=4096) loads nothing.
			cmd.ExecFlags = append(cmd.ExecFlags, o.name+"="+v)
		}
	}
	if v, ok := envValue(assigns, "MAKEFLAGS"); ok && makeFlagsRun(strings.Fields(v)) {
		// "MAKEFLAGS='SHELL=/tmp/x' make": make reads MAKEFLAGS as its
		// own options and variable definitions, in every sub-make too.
		cmd.ExecFlags = append(cmd.ExecFlags, "MAKEFLAGS="+v)
	}
	for _, f := range strings.Fields(assigns) {
		if v, ok := strings.CutPrefix(f, "PATH="); ok && tempOnPath(v) {
			cmd.ExecFlags = append(cmd.ExecFlags, f)
			continue
		}
		if cargoProgramVar(f) {
			cmd.ExecFlags = append(cmd.ExecFlags, f)
			continue
		}
		for _, v := range programVars {
			if !strings.HasPrefix(f, v) {
				continue
			}
			val := strings.Trim(f[len(v):], "'\"")
			if (v == "PAGER=" || v == "GIT_PAGER=" || v == "MANPAGER=" || v == "SYSTEMD_PAGER=" || v == "EDITOR=" || v == "VISUAL=" ||
				v == "GIT_EDITOR=" || v == "GIT_SEQUENCE_EDITOR=" || v == "SYSTEMD_EDITOR=" || v == "SUDO_EDITOR=") && hasRole(val, rolePlainProgram) {
				continue
			}
			cmd.ExecFlags = append(cmd.ExecFlags, f)
		}
	}
}

// gateVars classes, as tampering, an assignment that points toolgate at
// other rules, another gateway, credential, store or workspace for the
// commands it is set for (TOOLGATE_CONFIG=…, export TOOLGATE_URL=…), and
// one that starts an AI agent with its configuration, where its toolgate
// hook is installed, read from another directory (HOME=/tmp/h claude,
// CODEX_HOME=… codex): the agent's calls would no longer reach the gate,
// as editing those files would make them.
func gateVars(cmd *Command) {
	assigns := assignsOf(cmd)
	if assigns == "" {
		return
	}
	agent := slices.Contains(agentPrograms[:], cmd.Name) ||
		hasRole(cmd.Name, rolePackageRunner) && slices.ContainsFunc(cmd.Args, func(a string) bool {
			return slices.Contains(agentPackages[:], a) || slices.Contains(agentPrograms[:], a)
		})
	for _, f := range strings.Fields(assigns) {
		name, _, ok := strings.Cut(f, "=")
		if !ok {
			continue
		}
		switch {
		case slices.Contains(gateConfigVars[:], name):
			addClass(cmd, ClassRisk{Class: ClassTampering, Reason: "sets " + name + ", which points toolgate at other rules, another gateway, credential or store for what it is set for", Token: name})
		case agent && slices.Contains(agentHomeVars[:], name):
			addClass(cmd, ClassRisk{Class: ClassTampering, Reason: "starts an AI agent with its configuration read from elsewhere (" + name + "), without the hook that sends its tool calls to toolgate", Token: name})
		}
	}
}

// agentPrograms are the AI agents' command names (riskCommands lists
// their switches), agentPackages their npm packages, which a package
// runner starts (npx -y @openai/codex), and agentHomeVars the variables
// that move where they read their configuration from.
var (
	agentPrograms = [...]string{"claude", "claude-code", "codex", "gemini", "gemini-cli", "qwen", "qwen-code", "copilot", "aider", "aider-chat",
		"cursor-agent", "amp", "crush", "droid", "q", "kiro-cli", "opencode", "goose"}
	agentPackages = [...]string{"@anthropic-ai/claude-code", "@openai/codex", "@google/gemini-cli", "@qwen-code/qwen-code", "@github/copilot",
		"@sourcegraph/amp", "@charmland/crush"}
	agentHomeVars = [...]string{"HOME", "XDG_CONFIG_HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "QWEN_HOME"}
	// gateConfigVars are the variables toolgate's hook and commands read
	// their rules, gateway, credential, store and workspace from.
	gateConfigVars = [...]string{"TOOLGATE_CONFIG", "TOOLGATE_URL", "TOOLGATE_TOKEN", "TOOLGATE_STORE", "TOOLGATE_WORKSPACE", "TOOLGATE_SESSION"}
)

// envValue returns the value an assignment text gives name, up to the
// end of the text: the text is quote-removed ("LESS=-R +F A=1"), so
// where a value with blanks ends is not known, and the words after it
// count as part of it.
func envValue(assigns, name string) (string, bool) {
	for i := 0; ; {
		j := strings.Index(assigns[i:], name+"=")
		if j < 0 {
			return "", false
		}
		j += i
		i = j + len(name) + 1
		if j == 0 || assigns[j-1] == ' ' {
			return assigns[i:], true
		}
	}
}

// lessRuns reports LESS options that run or write: a start-up command
// other than a search or a move ("+!cmd", "+|cmd", pagerCommands), a log
// file (-o, -O, --log-file) or a lesskey file, whose #env section sets
// LESSOPEN.
func lessRuns(opts []string) bool {
	if len(pagerCommands(opts)) > 0 {
		return true
	}
	for _, o := range opts {
		switch {
		case strings.HasPrefix(o, "--"):
			n := strings.ToLower(strings.TrimPrefix(o, "--"))
			if strings.HasPrefix(n, "log-file") || strings.HasPrefix(n, "lesskey") {
				return true
			}
		case strings.HasPrefix(o, "-"):
			if strings.ContainsAny(o[1:], "oOk") {
				return true
			}
		}
	}
	return false
}

// makeFlagsRun reports MAKEFLAGS words that run a program: a variable
// definition makeCommands flags (SHELL, .SHELLFLAGS, "!="), makefile text
// to evaluate (--eval, -E) or another makefile (-f, --file, --makefile).
func makeFlagsRun(words []string) bool {
	// make writes its variable definitions after a "--" in MAKEFLAGS;
	// makeCommands stops at one.
	defs := slices.DeleteFunc(slices.Clone(words), func(w string) bool { return w == "--" })
	if len(makeCommands(defs)) > 0 {
		return true
	}
	for _, w := range words {
		n, _, _ := strings.Cut(w, "=")
		switch n {
		case "--eval", "-E", "--file", "--makefile", "-f":
			return true
		}
		if strings.HasPrefix(w, "-E") || strings.HasPrefix(w, "-f") && !strings.Contains(w, "=") {
			return true
		}
	}
	return false
}

// goFlagsExec reports whether a GOFLAGS assignment ("GOFLAGS=-toolexec=/tmp/x",
// go env -w's operand) sets a flag that runs a program in the toolchain's
// place (goExecFlags).
func goFlagsExec(a string) bool {
	v, ok := strings.CutPrefix(a, "GOFLAGS=")
	return ok && len(goExecFlags(strings.Fields(strings.NewReplacer("'", " ", "\"", " ").Replace(v)))) > 0
}

// cargoProgramVar reports an assignment of cargo's environment that names
// a program it runs: the target runner or linker
// (CARGO_TARGET_<TRIPLE>_RUNNER=, _LINKER=).
func cargoProgramVar(f string) bool {
	name, _, ok := strings.Cut(f, "=")
	switch {
	case !ok:
		return false
	case strings.HasPrefix(name, "CARGO_TARGET_"):
		return strings.HasSuffix(name, "_RUNNER") || strings.HasSuffix(name, "_LINKER")
	}
	return false
}

// indexVars are environment variables that point a package manager at
// another package index or module proxy, or turn off its checksums: the
// variables' spellings of --registry and --index-url.
var indexVars = []string{"GOPROXY=", "GOSUMDB=", "GOINSECURE=", "GONOSUMDB=", "GONOSUMCHECK=", "PIP_INDEX_URL=", "PIP_EXTRA_INDEX_URL=",
	"UV_INDEX_URL=", "UV_EXTRA_INDEX_URL=", "UV_DEFAULT_INDEX=", "UV_INDEX=", "NPM_CONFIG_REGISTRY=", "npm_config_registry=",
	"YARN_NPM_REGISTRY_SERVER=", "YARN_REGISTRY=", "BUN_CONFIG_REGISTRY=", "COMPOSER_REPOSITORY="}

// indexVar classes a command run with, or an export of, a variable that
// points a package manager at another index ("GOPROXY=https://x go mod
// download", "export PIP_INDEX_URL=…; pip install y"): supply chain, as
// --registry and --index-url are.
func indexVar(cmd *Command) {
	fields := strings.Fields(assignsOf(cmd))
	for _, f := range fields {
		if tlsOff(f) {
			name, _, _ := strings.Cut(f, "=")
			addClass(cmd, ClassRisk{Class: ClassSupplyChain, Reason: "sets " + name + ", which turns off the certificate check of what is downloaded, so a network attacker can serve the packages", Token: f})
			return
		}
		if caBundle(f) {
			name, _, _ := strings.Cut(f, "=")
			addClass(cmd, ClassRisk{Class: ClassSupplyChain, Reason: "sets " + name + ", which " + trustsCAWhy, Token: f})
			return
		}
	}
	for _, f := range fields {
		for _, v := range indexVars {
			if strings.HasPrefix(f, v) && !(publicIndexVar(v) && !otherIndex(f[len(v):]) && onlyAssigns(fields, isDeclBuiltin(cmd.Name))) {
				addClass(cmd, ClassRisk{Class: ClassSupplyChain, Reason: "sets " + strings.TrimSuffix(v, "=") + ", which points package installs at another index or turns off their checksums", Token: f})
				return
			}
		}
	}
}

// tlsOff reports whether an assignment turns off a package manager's or
// a runtime's certificate check: NODE_TLS_REJECT_UNAUTHORIZED=0,
// GIT_SSL_NO_VERIFY (any value), PIP_TRUSTED_HOST, PYTHONHTTPSVERIFY=0,
// npm's and yarn's strict SSL set to false.
func tlsOff(f string) bool {
	name, val, ok := strings.Cut(f, "=")
	if !ok {
		return false
	}
	val = strings.Trim(val, "'\"")
	switch name {
	case "NODE_TLS_REJECT_UNAUTHORIZED", "PYTHONHTTPSVERIFY":
		return val == "0"
	case "GIT_SSL_NO_VERIFY", "PIP_TRUSTED_HOST", "UV_INSECURE_HOST":
		return val != ""
	case "NPM_CONFIG_STRICT_SSL", "npm_config_strict_ssl", "YARN_ENABLE_STRICT_SSL":
		return strings.EqualFold(val, "false")
	}
	return false
}

// caBundle reports whether an assignment points a runtime's or a
// package manager's certificate check at another set of authorities
// (SSL_CERT_FILE, REQUESTS_CA_BUNDLE, NODE_EXTRA_CA_CERTS, …), other than
// the system's own bundle (under /etc/ssl or /etc/pki).
func caBundle(f string) bool {
	name, val, ok := strings.Cut(f, "=")
	if !ok {
		return false
	}
	switch name {
	case "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "NODE_EXTRA_CA_CERTS", "GIT_SSL_CAINFO",
		"GIT_SSL_CAPATH", "PIP_CERT", "AWS_CA_BUNDLE", "NPM_CONFIG_CAFILE", "npm_config_cafile", "YARN_CA_FILE_PATH", "DENO_CERT":
	default:
		return false
	}
	val = strings.Trim(val, "'\"")
	switch {
	case val == "":
		return false
	case (strings.HasPrefix(val, "/etc/ssl/") || strings.HasPrefix(val, "/etc/pki/")) && !strings.Contains(val, ".."):
		return false
	}
	return true
}

// publicIndexVar reports whether an index variable names the one index
// installs fetch from, so that its public registry's URL (otherIndex)
// redirects nothing; the extra indexes, proxies and checksum settings
// are another matter.
func publicIndexVar(v string) bool {
	switch v {
	case "PIP_INDEX_URL=", "UV_INDEX_URL=", "UV_DEFAULT_INDEX=", "NPM_CONFIG_REGISTRY=", "npm_config_registry=", "YARN_REGISTRY=", "BUN_CONFIG_REGISTRY=":
		return true
	}
	return false
}

// onlyAssigns reports whether every word of a command's assignments text
// is an assignment (after a declaration builtin's name and flags): the
// text is joined at blanks, so a quoted value with a blank in it
// (PIP_INDEX_URL='https://pypi.org/simple https://x') shows as a word
// that is none, and its first part is not the whole value.
func onlyAssigns(fields []string, decl bool) bool {
	for i, f := range fields {
		if decl && (i == 0 || strings.HasPrefix(f, "-")) {
			continue
		}
		name, _, ok := strings.Cut(f, "=")
		if !ok || !isVarName(name) {
			return false
		}
	}
	return true
}

// tempOnPath reports whether a PATH value puts a directory anyone may
// write to (/tmp, /var/tmp, /dev/shm) on the search path: a program
// dropped there runs in place of the one every later command names
// ("export PATH=/tmp/x:$PATH && git status").
func tempOnPath(v string) bool {
	for _, d := range strings.Split(strings.Trim(v, "'\""), ":") {
		d = path.Clean(d)
		for _, t := range [...]string{"/tmp", "/var/tmp", "/dev/shm"} {
			if d == t || strings.HasPrefix(d, t+"/") {
				return true
			}
		}
	}
	return false
}

// historyOff classes a command run with the shell history turned off
// ("HISTFILE=/dev/null bash", "env HISTSIZE=0 sh"): it hides what runs.
func historyOff(cmd *Command) {
	if cmd.Name == "" || isDeclBuiltin(cmd.Name) {
		return // export HISTFILE=… is the command table's
	}
	for _, f := range strings.Fields(assignsOf(cmd)) {
		if historyVar(f) {
			addClass(cmd, ClassRisk{Class: ClassPrivilege, Reason: cmd.Name + " runs with " + f + ", which turns off the shell history, a security control that records what runs", Token: f})
			return
		}
	}
}

// negatedSubshell walks "!(cmd)" as bash runs it: the parser reads an
// extended glob, bash (extglob on or off) the reserved word ! and the
// subshell (cmd). It reports whether x was one.
func (w *walker) negatedSubshell(x *syntax.CallExpr, c scope, d *dirState) bool {
	if len(x.Assigns) > 0 || len(x.Args) != 1 || len(x.Args[0].Parts) != 1 {
		return false
	}
	g, ok := x.Args[0].Parts[0].(*syntax.ExtGlob)
	if !ok || g.Op != syntax.GlobExcept || g.Pattern == nil {
		return false
	}
	if !w.script(g.Pattern.Value, true, c, d, "!( )", true) {
		w.emit(Command{Text: srcOf(c.src, x), Opaque: true, Via: c.via})
	}
	return true
}

// xargsReplace is the string xargs replaces with each input (-I R, -i,
// --replace), "" when it appends the input instead.
func xargsReplace(vals []optArg) string {
	repl := ""
	for _, v := range vals {
		switch v.name {
		case "-I":
			repl = v.val
		case "-i", "--replace":
			repl = cmp.Or(v.val, "{}")
		}
	}
	return repl
}
