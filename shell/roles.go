package shell

// A role is what the analysis knows of a command from its name alone,
// whatever its options: a shell, a downloader, a database shell. A
// command may have several (psql is a database shell that also runs the
// scripts its input names).
type role uint32

// Roles.
const (
	roleShell         role = 1 << iota // its -c argument, heredoc or piped input is a shell script, parsed in turn
	roleFetcher                        // downloads remote content
	roleSQLShell                       // runs the SQL on its input
	roleScriptReader                   // runs a script on its input whose commands read files (sqlite3 .read, psql \i, ed)
	roleListReader                     // reads the files whose names come on its input (cpio -o, pax -w)
	rolePlainCommand                   // its arguments are data, never a command line: "echo 'sudo su'" runs nothing
	roleOpener                         // reads (often writes) the files it is given whatever its options
	rolePlainProgram                   // a pager or editor that runs no other program ("PAGER=cat git log")
	roleServiceClient                  // the client of a service its operands may be sent to (gh gist create FILE)
	roleInterpreter                    // runs code given inline (commandInterpreters), a file, or read from its input
	roleGitPrinter                     // a git subcommand that prints the files its pathspecs name (git log -p -- .env)
	roleSource                         // runs a script in the calling shell (source, .), not a program of its own
	rolePackageRunner                  // runs the package its first operand names (npx PKG ARGS…)
	roleWordOptions                    // spells every option as one word with one dash (scala -version, clojure -M:test): no clusters
	rolePassesArgs                     // a build tool or task runner handing its arguments to code the tables do not describe (go run, make VAR=V)
	roleOutputOptions                  // writes where its output options point (tsc --outDir DIR), its operands data otherwise
	roleTransferShell                  // a file-transfer client whose "!cmd" runs a shell command: its input is a script (ftp host <<< '!sh')
	roleDNSUpdater                     // applies the DNS updates on its input, which may delete records (nsupdate)
	roleMigrator                       // runs database migrations: its down, rollback and revert run them backwards (goose down)
	roleLocalManager                   // manages this machine's toolchains, caches or sessions: clean, uninstall, kill are everyday work
	rolePrinter                        // prints its operands and does nothing else with them: a parameter it prints names no file (echo $PATH)
	roleUploader                       // a general network client that sends the files it reads to the address it names (curl -d @f URL, scp f host:)
)

// commandRoles are the commands of each role, written as lists: the
// generator merges them into roleTable, one entry per name (go test
// ./shell -run TestCommandTable -update-table).
//
// The roles are a table of their own, not a field of the command table's
// entries: most of these names (bash, lynx, ed, cpio, pytest) have no
// entry there, and commandSpec(name) != nil is what "the command table
// knows this command" means to the analysis (walker.known, the read-only
// test). A role-only entry in the command table would change that
// meaning for every such name. Like the command table, roleTable is data
// the linker lays out: a hook process builds nothing to look a role up.
func commandRoles() []roleList {
	return []roleList{
		{roleShell, []string{"sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "yash", "posh", "fish", "csh", "tcsh",
			"rbash", "ksh93", "oksh", "pdksh", "lksh"}},
		{roleFetcher, []string{"curl", "wget", "fetch", "nc", "ncat", "netcat", "aria2c", "http", "https", "httpie", "xh", "lynx",
			"socat", "ftp", "tftp"}},
		{roleSQLShell, []string{"psql", "mysql", "mariadb", "sqlite3", "duckdb", "mongo", "mongosh", "cqlsh", "redis-cli",
			"clickhouse-client", "sqlcmd"}},
		{roleScriptReader, []string{"sqlite3", "sqlite", "duckdb", "psql", "mysql", "mariadb", "gdb", "ed", "ex"}},
		{roleListReader, []string{"cpio", "afio", "pax"}},
		{rolePlainCommand, []string{"echo", "printf", "ls", "pwd", "cd", "pushd", "popd", "test", "[",
			"true", "false", "exit", "return", "read", "set", "unset", "shift",
			"export", "local", "declare", "type", "which", "whereis", "hash", "help",
			"man", "info", "date", "cal", "sleep", "wait", "kill", "basename",
			"dirname", "realpath", "readlink", "stat", "file", "du", "df", "tr",
			"expr", "seq", "yes", "whoami", "id", "uname", "hostname", "uptime",
			"ps", "top", "free", "make", "go", "npm", "yarn", "pnpm", "cargo",
			"pip", "pip3", "jq", "yq", "tree", "mkdir", "touch", "column",
			"notify-send", "logger", "git", "gh", "docker", "kubectl", "mvn", "gradle",
			"pytest", "tsc", "eslint", "prettier", "gofmt", "rustc", "gcc", "clang",
			"javac", "java", "dotnet", "mix", "rake", "bundle", "composer", "tput",
			"clear", "history", "alias", "unalias", "getopts", "printenv", "env", "diff"}},
		{roleOpener, []string{"man", // a path operand is rendered: "man /etc/shadow"
			"vim", "vi", "nvim", "view", "nano", "pico", "emacs", "ed", "ex",
			"micro", "joe", "code", "subl", "gedit", "kate", "open", "xdg-open",
			"sqlite3", "sqlite", "pandoc", "iconv", "expand", "unexpand", "fmt", "pr",
			"xmllint", "yq", "hexyl", "mlr", "csvlook", "xclip", "xsel", "gpg",
			"openssl", "ssh-keygen", "age", "enscript", "a2ps", "look", "csplit",
			"git", "vimdiff", "meld", "kdiff3", "colordiff", "icdiff", "delta"}},
		// "" is an empty value: "PAGER= git log" runs no pager.
		{rolePlainProgram, []string{"cat", "true", "false", ":", "less", "more", "most",
			"head", "vi", "vim", "nvim", "nano", "emacs", "code", "bat", "delta", ""}},
		{roleServiceClient, []string{"gh", "glab", "hub", "tea", "aws", "gcloud", "gsutil", "az", "doctl", "flyctl", "fly", "heroku",
			"vercel", "netlify", "wrangler", "firebase", "rclone", "s3cmd", "b2", "oci", "ibmcloud", "linode-cli"}},
		// Versions' names, whose options are the language's, and the
		// shell's own script runners.
		{roleInterpreter, []string{"pypy", "pypy3", "perl5", "ruby3", "php8", "source", "."}},
		{roleGitPrinter, []string{"log", "diff", "show", "grep", "blame", "annotate", "whatchanged", "format-patch"}},
		{roleSource, []string{"source", "."}},
		{rolePackageRunner, []string{"npx", "bunx", "pnpx"}},
		{roleWordOptions, []string{"groovy", "scala", "clojure", "clj", "kotlin", "kotlinc"}},
		// The project's own code (go run, cargo run, npm run -- ARGS, make
		// VAR=V), a tool it runs (go tool pprof FILE) or a task: an
		// argument naming a secret is a possible read of it, whatever
		// option it follows (secretOperands).
		{rolePassesArgs, []string{"go", "cargo", "npm", "yarn", "pnpm", "bun", "make", "gmake", "just", "task",
			"mvn", "gradle", "gradlew", "./gradlew", "./mvnw", "mvnw", "dotnet", "mix", "rake",
			"bundle", "composer", "poetry", "uv", "pdm", "hatch", "tox", "nox", "swift", "zig"}},
		// Plain commands whose long output options (outputOption: --outDir,
		// --output-file) are where they write (passedOutputs).
		{roleOutputOptions, []string{"tsc", "eslint"}},
		// File-transfer clients whose command language runs shell
		// commands ("!cmd", and BSD ftp's "|cmd" file names), read on
		// their input or from a batch file (stdinClasses). lftp has its
		// -c in the command table and is not among them.
		{roleUploader, []string{"curl", "wget", "http", "https", "httpie", "xh", "xhs", "nc", "ncat", "netcat", "socat",
			"scp", "sftp", "rsync", "ftp", "lftp", "tftp", "smbclient", "telnet"}},
		{roleTransferShell, []string{"ftp", "pftp", "netkit-ftp", "tnftp", "sftp", "ncftp", "smbclient", "yafc"}},
		// DNS update clients: "update delete" on the input removes
		// records; updates from a file or pipe are unseen (stdinClasses).
		{roleDNSUpdater, []string{"nsupdate"}},
		// Migration runners, whose verbs are migrations' (migratesBack).
		{roleMigrator, []string{"goose", "dbmate", "migrate", "sql-migrate", "tern", "shmig", "alembic", "liquibase", "flyway"}},
		// Tools of this machine's toolchains, caches and sessions, which a
		// reinstall or a rebuild brings back ("flutter clean", "nvm
		// uninstall 18", "pm2 kill"): their retire verbs (retireVerb) are
		// not a service's deletes (serviceDeletes). A role, not command
		// table entries: the command table does not know them, and an
		// entry there would make them known (walker.known).
		{roleLocalManager, []string{"flutter", "dart", "conda", "mamba", "micromamba", "rustup", "nvm", "fnm", "volta", "pyenv", "rbenv",
			"nodenv", "goenv", "jenv", "sdk", "asdf", "mise", "rtx", "bazel", "bazelisk", "screen", "pm2", "ccache",
			"sccache", "port", "pipx", "gem", "cabal", "stack", "opam", "vagrant", "minikube", "kind", "colima", "lima"}},
		// Commands that only print their operands (printedParam): no
		// option of theirs takes a variable's name (printf -v NAME does).
		{rolePrinter, []string{"echo"}},
	}
}

// commandInterpreters are the commands that run code given by an option,
// a file, or read from standard input, with their options: code lists
// the short options that give the code inline, val the short options
// that take a value. The generator gives them roleInterpreter and their
// options in roleTable (interpreterOpts). A version's name (python3.12,
// ruby3) reads as its language's (interpreterKey).
func commandInterpreters() []interpreterList {
	return []interpreterList{
		{[]string{"sh"}, "c", "oO"},
		{[]string{"python"}, "cm", "WXQ"},
		{[]string{"perl"}, "eE", "I"},
		{[]string{"ruby"}, "e", "IrEC"},
		{[]string{"node", "nodejs"}, "ep", "r"},
		{[]string{"php"}, "rBRFE", "dcz"},
		{[]string{"lua"}, "e", "l"},
		{[]string{"luajit"}, "e", "lj"},
		{[]string{"fish"}, "c", "C"},
		{[]string{"deno", "tclsh"}, "", ""},
		{[]string{"bun"}, "ep", ""},
		{[]string{"Rscript", "osascript"}, "e", ""},
		{[]string{"pwsh", "powershell", "elvish", "nu", "xonsh"}, "c", ""},
		// Other languages' runners with inline code (GTFOBins' readers
		// and shells): Julia, the JDK's script runner, shells that are
		// not sh.
		{[]string{"julia"}, "eE", "LJC"},
		{[]string{"jrunscript"}, "e", "fl"},
		{[]string{"expect"}, "c", "fD"},
		// m4 runs commands (syscmd, esyscmd) from its input; Octave's
		// --eval.
		{[]string{"m4"}, "", "DUIdtoFRl"},
		{[]string{"octave", "octave-cli"}, "", "pW"},
		// Lisps, the BEAM, the JVM's and Haskell's runners, R and Tcl's
		// windowing shell: code after -e, -c or -x, or after --eval and
		// -eval (inlineCode reads those for every interpreter).
		{[]string{"R"}, "e", "f"},
		{[]string{"guile"}, "c", "lLCxe"},
		{[]string{"racket"}, "e", "tlfrk"},
		{[]string{"clisp"}, "x", "i"},
		{[]string{"sbcl", "ecl", "erl", "wish", "jshell", "ocaml"}, "", ""},
		{[]string{"elixir", "iex"}, "e", "r"},
		{[]string{"bb"}, "e", ""},
		// Options one word each (roleWordOptions): only a lone -e.
		{[]string{"groovy", "scala", "clojure", "clj", "kotlin", "kotlinc"}, "e", ""},
		{[]string{"ghc", "ghci"}, "e", "o"},
	}
}

// interpreterList is interpreters alike in their options.
type interpreterList struct {
	names     []string
	code, val string
}

// A riskCheck names the code that finds a command's critical risks
// (walker.risks), what its name alone makes worth checking: the target of
// a recursive delete or mode change, a device dd writes, a shutdown.
type riskCheck uint8

// The risk checks.
const (
	noRiskCheck         riskCheck = iota
	checkTreeDelete               // a recursive delete of /, ~ or the like; --no-preserve-root
	checkTreeMode                 // a recursive chmod that makes such a tree writable by anyone
	checkTreeOwner                // a recursive chown or chgrp of such a tree
	checkFormat                   // formats a file system, whatever its arguments
	checkDeviceWrite              // dd of=/dev/DISK
	checkShutdown                 // shuts down or restarts, unless -c or --help
	checkRunlevel                 // init 0, init 6
	checkSystemctlPower           // systemctl poweroff, reboot, halt, kexec
	checkFindDelete               // find -delete under a starting point like /
)

// commandRiskChecks are the commands of each risk check, merged into
// roleTable with the roles (mkfs.TYPE is checkFormat by its prefix).
func commandRiskChecks() []riskList {
	return []riskList{
		{checkTreeDelete, []string{"rm", "rimraf", "del-cli"}},
		{checkTreeMode, []string{"chmod"}},
		{checkTreeOwner, []string{"chown", "chgrp"}},
		{checkFormat, []string{"mkfs", "mke2fs", "mkswap", "wipefs", "mkdosfs"}},
		{checkDeviceWrite, []string{"dd"}},
		{checkShutdown, []string{"shutdown", "reboot", "halt", "poweroff"}},
		{checkRunlevel, []string{"init", "telinit"}},
		{checkSystemctlPower, []string{"systemctl"}},
		{checkFindDelete, []string{"find"}},
	}
}

// riskList is the commands of one risk check.
type riskList struct {
	check riskCheck
	names []string
}

// roleList is the commands of one role.
type roleList struct {
	role  role
	names []string
}

// namedRoles is an entry of roleTable: a name's roles, its risk check
// and, for an interpreter of commandInterpreters, its options.
type namedRoles struct {
	name      string
	roles     role
	check     riskCheck
	code, val string
}

// hasRole reports whether command name has one of the roles r.
func hasRole(name string, r role) bool {
	return rolesOf(name)&r != 0
}

// roleSlotBits sizes roleSlots: 1<<roleSlotBits slots, about four to a
// name, so a search ends in one or two steps.
const roleSlotBits = 10

// rolesOf returns the roles of command name, none for a name roleTable
// does not list. roleSlots is a hash table over roleTable, generated with
// it: slot roleHash(name) holds the index (plus one) of name's entry, or
// of a name that came first to that slot, whose entry is in a later slot
// (linear probing); an empty slot (0) ends the search. The analysis looks
// roles up some thirty times per command line: a binary search of the
// table cost several times the switches the roles replace.
func rolesOf(name string) role {
	if e := roleEntry(name); e != nil {
		return e.roles
	}
	return 0
}

// roleEntry returns name's entry of roleTable, nil for a name it does
// not list (see rolesOf).
func roleEntry(name string) *namedRoles {
	const mask = 1<<roleSlotBits - 1
	for h := roleHash(name); ; h = (h + 1) & mask {
		i := roleSlots[h&mask]
		if i == 0 {
			return nil
		}
		if e := &roleTable[i-1]; e.name == name {
			return e
		}
	}
}

// roleHash is the slot a name's search starts at: its length and its
// first, middle and last bytes, mixed by a multiplication (Fibonacci
// hashing). Names alike in all four share a start and are told apart by
// the probing.
func roleHash(name string) uint32 {
	h := uint32(len(name))
	if n := len(name); n > 0 {
		h |= uint32(name[0])<<8 | uint32(name[n/2])<<16 | uint32(name[n-1])<<24
	}
	return h * 0x9e3779b1 >> (32 - roleSlotBits)
}
