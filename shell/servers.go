package shell

import (
	"slices"
	"strings"
)

// File servers (DESIGN §3.5, exfiltration): a server started in the
// workspace is a development server; one that serves the home directory,
// the root or a credential directory hands every file in it to whoever
// connects. A directory given on the command line is an entry of the
// command table (servesSecrets); cwdServers lists the servers that serve
// the working directory when given none, so "cd ~ && python3 -m
// http.server" is seen as serving the home directory.

// cwdServer says when a server serves the working directory: it is a
// server at all only with needs ("php -S", "caddy file-server"), and it
// serves the working directory unless one of dirOpts or (with operand) a
// directory operand names another.
type cwdServer struct {
	needs   string
	dirOpts []string
	operand bool
}

type cwdServerEntry struct {
	name string
	cwdServer
}

// cwdServers are the servers that serve the working directory, sorted by
// name for findCwdServer (TestCwdServersSorted).
var cwdServers = [...]cwdServerEntry{
	{"SimpleHTTPServer", cwdServer{}},
	{"caddy", cwdServer{needs: "file-server", dirOpts: []string{"--root", "-r"}}},
	{"http-server", cwdServer{operand: true}},
	{"http.server", cwdServer{dirOpts: []string{"-d", "--directory"}}},
	{"httpd", cwdServer{dirOpts: []string{"-h"}}},
	{"live-server", cwdServer{operand: true}},
	{"miniserve", cwdServer{operand: true}},
	{"php", cwdServer{needs: "-S", dirOpts: []string{"-t"}}},
	{"serve", cwdServer{operand: true}},
	{"twistd", cwdServer{needs: "web", dirOpts: []string{"--path"}}},
	{"updog", cwdServer{dirOpts: []string{"-d", "--directory"}}},
	{"uploadserver", cwdServer{dirOpts: []string{"-d", "--directory"}}},
}

// findCwdServer returns how the server name serves the working directory.
func findCwdServer(name string) (cwdServer, bool) {
	i, ok := slices.BinarySearchFunc(cwdServers[:], name, func(e cwdServerEntry, name string) int { return strings.Compare(e.name, name) })
	if !ok {
		return cwdServer{}, false
	}
	return cwdServers[i].cwdServer, true
}

// packageProgram returns where, in a package runner's arguments, the
// program it starts begins: "npx rimraf dist", "npm exec -- rm -rf x",
// "pnpm dlx NAME", "yarn dlx NAME", "bun x NAME", "bunx NAME". Options
// before it are skipped, each as one word (a value in the next word is
// then taken for the program, which restricts nothing); -c (a script)
// starts none. r is name's roles (rolesOf).
func packageProgram(name string, r role, args []string) (int, bool) {
	i := 0
	switch {
	case r&rolePackageRunner != 0:
	case name == "npm" || name == "bun":
		if len(args) == 0 || args[0] != "exec" && args[0] != "x" {
			return 0, false
		}
		i = 1
	case name == "pnpm" || name == "yarn":
		if len(args) > 0 && args[0] == "dlx" {
			i = 1
			break
		}
		// "yarn rimraf ~", "pnpm prisma migrate reset": a word that is
		// none of the tool's own commands runs the project's package
		// script or bin of that name, which is that program's run.
		if len(args) == 0 || strings.HasPrefix(args[0], "-") || slices.Contains(ownCommands(name), args[0]) {
			return 0, false
		}
		return 0, true
	default:
		return 0, false
	}
	for ; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--":
			if i+1 < len(args) {
				return i + 1, true
			}
			return 0, false
		case a == "-c" || a == "--call" || strings.HasPrefix(a, "--call="):
			return 0, false
		case a == "-p" || a == "--package":
			i++ // its value
		case strings.HasPrefix(a, "-"):
		default:
			return i, true
		}
	}
	return 0, false
}

// ownCommands are yarn's and pnpm's own commands (and their short
// forms): any other first word names a package script or bin.
func ownCommands(name string) []string {
	if name == "yarn" {
		return yarnCommands[:]
	}
	return pnpmCommands[:]
}

var (
	yarnCommands = [...]string{"add", "audit", "autoclean", "bin", "cache", "check", "config", "constraints", "create", "dedupe", "dlx", "exec",
		"explain", "generate-lock-entry", "global", "help", "import", "info", "init", "install", "licenses", "link", "list", "login", "logout",
		"node", "npm", "outdated", "owner", "pack", "patch", "patch-commit", "plugin", "policies", "publish", "rebuild", "remove", "run",
		"search", "set", "stage", "tag", "team", "test", "unlink", "unplug", "upgrade", "upgrade-interactive", "up", "version", "versions",
		"why", "workspace", "workspaces"}
	pnpmCommands = [...]string{"add", "install", "i", "update", "up", "upgrade", "remove", "rm", "un", "uninstall", "link", "ln", "unlink",
		"import", "rebuild", "rb", "prune", "fetch", "install-test", "it", "patch", "patch-commit", "patch-remove", "audit", "list", "ls", "ll",
		"outdated", "why", "licenses", "run", "run-script", "test", "t", "tst", "exec", "dlx", "create", "start", "init", "publish", "pack",
		"server", "store", "root", "bin", "setup", "env", "config", "c", "get", "set", "deploy", "doctor", "help", "self-update",
		"approve-builds", "ignored-builds", "cat-file", "cat-index", "find-hash", "dedupe", "recursive", "multi", "m"}
)

// packageName is a package runner's operand without its version:
// "http-server@14" is http-server, "@scope/tool@1" @scope/tool.
func packageName(spec string) string {
	if i := strings.LastIndexByte(spec, '@'); i > 0 {
		return spec[:i]
	}
	return spec
}

// runsPackage returns the program a package runner starts and its
// arguments: the module of "python -m MODULE ARGS…", the package of
// "npx PKG ARGS…" (bunx, pnpx) when nothing precedes it. r is name's
// roles (rolesOf).
func runsPackage(name string, r role, args []string) (string, []string, bool) {
	if m, rest, ok := pythonModule(name, args); ok {
		return m, rest, true
	}
	if r&rolePackageRunner != 0 && len(args) > 0 && !strings.HasPrefix(args[0], "-") && !remotePackage(args[0]) {
		return packageName(args[0]), args[1:], true
	}
	return "", nil, false
}

// servesSecretDir reports whether a file server run without a directory
// serves a working directory (after a cd in the same line) that holds
// the machine's secrets, and names it. The call's own directory is not
// known here: for a server started there it returns the server and an
// empty directory (Command.ServesCwd), for the policy to judge. r is
// name's roles (rolesOf).
func (w *walker) servesSecretDir(name string, r role, args []string, d *dirState) (string, string, bool) {
	if m, rest, ok := runsPackage(name, r, args); ok {
		name, args = m, rest
	}
	s, ok := findCwdServer(name)
	if !ok || d == nil {
		return "", "", false
	}
	args = normaliseArgs(name, args)
	if s.needs != "" && !hasWordPrefix(args, s.needs) {
		return "", "", false
	}
	for _, o := range s.dirOpts {
		if hasWordPrefix(args, o) {
			return "", "", false // the table checks the directory given
		}
	}
	if s.operand {
		if spec := commandSpec(name); spec == nil || len(spec.operands(args)) > 0 {
			return "", "", false
		}
	}
	for _, dir := range append([]string{d.dir}, d.alts()...) {
		if dir != "" && servesSecrets(dir) {
			return name, dir, true
		}
		if dir == "" {
			return name, "", true // the call's own directory: the policy's
		}
	}
	return "", "", false
}

// hasWordPrefix reports whether an argument is opt or starts with it
// ("-S", "-Slocalhost:8000", "--root=x").
func hasWordPrefix(args []string, opt string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if strings.HasPrefix(a, opt) && (len(opt) == 2 || len(a) == len(opt) || a[len(opt)] == '=') {
			return true
		}
	}
	return false
}
