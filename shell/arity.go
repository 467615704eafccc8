package shell

import "strings"

// builtinArity is the seed arity table (seed 001): how many leading words
// form a command's "always" pattern. Unknown commands have arity 1. It and
// the tables below are built on first use: only an ask is suggested a
// rule, and a hook process that allows never reads them.
var builtinArity = lazy[map[string]int]{build: func() map[string]int {
	return map[string]int{
		// Arity 1.
		"cat": 1, "ls": 1, "grep": 1, "rm": 1, "cp": 1, "mv": 1, "mkdir": 1, "chmod": 1, "echo": 1,
		"which": 1, "tail": 1, "head": 1, "touch": 1, "pwd": 1, "wc": 1, "whoami": 1, "date": 1,
		"uname": 1, "env": 1, "printenv": 1, "cd": 1, "find": 1, "sed": 1, "awk": 1, "sort": 1,
		"uniq": 1, "cut": 1, "tr": 1, "tee": 1, "xargs": 1, "diff": 1, "curl": 1, "wget": 1,
		"tar": 1, "zip": 1, "unzip": 1, "ssh": 1, "scp": 1, "rsync": 1, "dd": 1, "shutdown": 1,
		"reboot": 1, "mkfs": 1, "sh": 1, "bash": 1, "zsh": 1,
		// Arity 2.
		"git": 2, "npm": 2, "bun": 2, "docker": 2, "cargo": 2, "kubectl": 2, "pip": 2, "pnpm": 2,
		"yarn": 2, "terraform": 2, "systemctl": 2, "bunx": 2,
		// Arity 3.
		"npm run": 3, "bun run": 3, "docker compose": 3, "git remote": 3, "git stash": 3,
		"aws": 3, "gcloud": 3, "gh": 3,
	}
}}

// neverSuggest are heads whose "always" pattern would grant arbitrary code:
// interpreters and wrappers. They are granted once only.
var neverSuggest = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"env": true, "sudo": true, "doas": true, "su": true, "runuser": true, "pkexec": true,
		"xargs": true, "parallel": true, "eval": true, "exec": true, "source": true, ".": true,
		"nohup": true, "timeout": true, "nice": true, "time": true, "watch": true, "command": true,
		"builtin": true, "ssh": true, "stdbuf": true, "ionice": true, "setsid": true, "chrt": true,
		"taskset": true, "flock": true, "strace": true, "ltrace": true, "chroot": true, "unshare": true,
		"nsenter": true, "fakeroot": true, "unbuffer": true, "busybox": true, "toybox": true,
		"proxychains": true, "proxychains4": true, "torsocks": true, "catchsegv": true, "script": true,
		"alias": true, "trap": true, "node": true, "nodejs": true, "deno": true, "perl": true,
		"ruby": true, "php": true, "lua": true, "luajit": true, "Rscript": true, "tclsh": true,
		"pwsh": true, "osascript": true, "irb": true, "ipython": true, "let": true,
		"export": true, "declare": true, "local": true, "readonly": true, "typeset": true, "nameref": true,
		"unset": true, "set": true, "shopt": true, "enable": true, "hash": true,
	}
}}

// subcommandTools are interpreters that are also subcommand tools (seed
// 001's arity table lists bun and bun run): with one of these subcommands
// they are suggested by arity; anything else (bun -e, bun FILE.ts, bun x,
// bun run FILE.ts) is code and granted once only.
var subcommandTools = lazy[map[string]map[string]bool]{build: func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"bun": {
			"run": true, "test": true, "install": true, "i": true, "add": true, "a": true,
			"remove": true, "rm": true, "update": true, "outdated": true, "link": true,
			"unlink": true, "pm": true, "build": true, "init": true, "publish": true,
			"upgrade": true, "patch": true, "audit": true, "info": true, "why": true,
		},
	}
}}

// scriptExts are the file extensions that make an argument a program file.
var scriptExts = []string{".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx", ".jsx", ".sh"}

// runsSubcommand reports whether interpreter c is used as a subcommand
// tool: its first argument is a listed subcommand, and for "run" the
// script is a package script, not a file.
func runsSubcommand(c Command) bool {
	subs := subcommandTools.get()[c.Name]
	if subs == nil || len(c.Args) == 0 || !subs[c.Args[0]] {
		return false
	}
	if c.Args[0] == "run" {
		if len(c.Args) < 2 || strings.HasPrefix(c.Args[1], "-") || strings.ContainsAny(c.Args[1], "/\\") {
			return false
		}
		for _, ext := range scriptExts {
			if strings.HasSuffix(c.Args[1], ext) {
				return false
			}
		}
	}
	return true
}

// Suggest returns the "always" pattern for a command from the arity table
// (DESIGN §3.3): the first N words, plus " *" when the command has more.
// It returns ok=false for a command that must be granted once only: an
// interpreter or wrapper head, an opaque command, one with exec-capable
// flags or environment assignments, a bare assignment, or one whose
// leading words hold glob characters.
func (a *Analyzer) Suggest(c Command) (pattern string, ok bool) {
	if c.Name == "" || c.Opaque || len(c.ExecFlags) > 0 || neverSuggest.get()[c.Name] || isInterpreter(c.Name) && !runsSubcommand(c) {
		return "", false
	}
	rest := strings.Join(c.Args, " ")
	head := c.Text
	if len(c.Args) > 0 {
		var found bool
		head, found = strings.CutSuffix(c.Text, " "+rest)
		if !found {
			return "", false
		}
	}
	if head == "" || strings.ContainsAny(head, " \t\n=") {
		return "", false // assignments, or a name we cannot tell apart
	}
	words := make([]string, 0, 1+len(c.Args))
	words = append(words, head)
	words = append(words, c.Args...)
	// The longest arity key matching the leading words (base name first).
	n := 1
	table, maxK := a.arityTable()
	for k := min(maxK, len(words)); k >= 1; k-- {
		key := c.Name
		if k > 1 {
			key += " " + strings.Join(c.Args[:k-1], " ")
		}
		if v, ok := table[key]; ok {
			n = v
			break
		}
	}
	if n > len(words) {
		n = len(words)
	}
	for _, wd := range words[:n] {
		if wd == "" || strings.ContainsAny(wd, "*?[{") {
			return "", false
		}
	}
	pattern = strings.Join(words[:n], " ")
	if len(words) > n {
		pattern += " *"
	}
	return pattern, true
}

// arityTable is the analyzer's arity table and the most words in one of
// its keys: the built-in one unless WithArity gave entries.
func (a *Analyzer) arityTable() (map[string]int, int) {
	if a.arity != nil {
		return a.arity, a.maxArityK
	}
	return builtinArity.get(), builtinMaxArity.get()
}

// builtinMaxArity is the most words in a key of the built-in table.
var builtinMaxArity = lazy[int]{build: func() int { return maxWords(builtinArity.get()) }}

func maxWords(table map[string]int) int {
	n := 0
	for k := range table {
		n = max(n, strings.Count(k, " ")+1)
	}
	return n
}
