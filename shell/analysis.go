package shell

import "github.com/toolgate/toolgate"

// Analysis is what Analyze found in one shell command line.
type Analysis struct {
	// Commands holds every simple command anywhere in the script, after
	// wrappers are seen through, in source order. Never empty for a script
	// that runs something; empty for an empty script.
	Commands []Command
	// Files are the files the script reads or writes: redirection targets
	// and the file operands of well-known readers and writers.
	Files []File
	// Risks are the critical risks (DESIGN §3.4) and the unprefixable
	// constructs (§3.2) found, each with a reason a person reads.
	Risks []toolgate.Risk
	// Exceeded says which budget or depth cap (Budget) stopped the
	// analysis, empty when it saw the whole command. The commands and files
	// found before it are reported, the rest is one opaque command, and
	// Risks holds RiskBudget: such a call is never allowed without a human.
	Exceeded string
	// DotGlob is set when the script may make bash's globs match
	// dot-files (shopt -s dotglob, GLOBIGNORE, BASHOPTS, zsh's GLOB_DOTS,
	// a sourced file, an option or a variable name known only when it
	// runs). Then no File has HidesDots, and a glob operand may reach
	// .git and .env.
	DotGlob bool
	// NoCaseGlob is set when the script may make bash's globs match
	// regardless of case (shopt -s nocaseglob, zsh's NO_CASE_GLOB, or
	// what DotGlob cannot see either): "~/.SSH/*" may then be
	// ~/.ssh's files, and a glob operand is compared with no rule.
	NoCaseGlob bool
}

// Unprefixable reports whether the script contains a construct that no
// prefix or rule can vet (command or process substitution, a lone &).
func (a *Analysis) Unprefixable() bool {
	for _, r := range a.Risks {
		if r.Severity == toolgate.SeverityUnprefixable {
			return true
		}
	}
	return false
}

// JudgedByRules reports whether an unprefixable construct, found under
// risk code code, binds prefix grants only (DESIGN §3.2): the rules see
// inside it (a command or process substitution's commands are subjects,
// its output a value known only at run time) and a lone & runs its
// command with the same effects. The other unprefixable constructs hide
// code the analysis cannot see (prompt expansion, a code variable, a
// subscript) and need a human whatever the rules say.
func JudgedByRules(code string) bool {
	switch code {
	case "command-substitution", "process-substitution", "background":
		return true
	}
	return false
}

// Critical reports whether the script carries a critical risk.
func (a *Analysis) Critical() bool {
	for _, r := range a.Risks {
		if r.Severity == toolgate.SeverityCritical {
			return true
		}
	}
	return false
}

// Command is one simple command: the subject rules match against.
type Command struct {
	// Text is the command's words after quote removal joined by single
	// spaces, with its environment assignments in front ("PAGER=cat git
	// log"). A word that is not static keeps its source form ("$HOME/x").
	Text string
	// Alts are further texts that deny and ask rules match but allow rules
	// never do: the text without its assignments, and with a command named
	// by path reduced to its base name ("/bin/rm -rf x" → "rm -rf x").
	Alts []string
	// Name is the command name's base name ("rm" for "/bin/rm"), empty for an
	// assignment-only command.
	Name string
	// Args are the words after the name, quote-removed where static.
	Args []string
	// Literal marks the Args whose glob metacharacters ('*', '?', '[')
	// were all quoted ("pip install -e '.[dev]'", "jq '.[].name'"): the
	// shell passes them on as written, so they name no file but the one
	// spelled so. Nil when no argument is such a word.
	Literal []bool
	// Keys marks the Args that name a key the command logs in or signs
	// with (ssh -i KEY, -o IdentityFile=KEY, ssh-add KEY): the program
	// reads it to sign and never prints or sends it, so it is no file
	// operand for the file rules. Bit i is Args[i], for the first 63.
	Keys uint64
	// Code marks the Args that are a program given inline (python3 -c
	// CODE, node -e CODE): code, no file name; the paths it names are in
	// Paths. Bit i is Args[i], for the first 63.
	Code uint64
	// Opaque is set when no allow rule may match the command: its name is
	// not static (a variable, a substitution, a glob) or it is eval.
	Opaque bool
	// ExecFlags lists the exec-capable flags or script words found
	// ("-exec", "--pre", the sed script with a w command, …). An allow rule
	// covers the command only if its pattern names every one literally.
	ExecFlags []string
	// Via names the wrapper or context the command was found in ("sudo",
	// "bash -c", "find -exec", "xargs", "eval"), empty at top level.
	Via string
	// Effects are what the command does, from the command table.
	Effects Effect
	// Classes are the risk classes of the command (DESIGN §3.5): a
	// wildcard allow does not cover it; a rule naming each Token does.
	Classes []ClassRisk
	// ReadOnly is set when the command table says the command only reads
	// (DESIGN §3.6): files, its input, the system's state or a service's
	// through the tool's own client. It is not set for a command with
	// environment assignments, a risk class, an exec-capable flag, inline
	// code paths, or a file it writes; which paths it reads is the
	// policy's to judge (a search of the home directory reads secrets).
	ReadOnly bool
	// Remote is set for a command run elsewhere by a remote or container
	// exec (ssh HOST CMD, docker exec): it only restricts, like a read.
	Remote bool
	// Runner is set for the program a package runner starts (npx NAME
	// ARGS, npm exec -- NAME ARGS): the package's program, which may or
	// may not be the command of that name, so it only restricts, though
	// it runs here.
	Runner bool
	// Paths are path-like strings found in inline code (python -c …):
	// files the program may read or write, which the policy checks
	// against its file rules.
	Paths []string
	// ServesCwd names the file server the command starts in the call's
	// own working directory (no cd before it in the line): only the
	// policy knows that directory, and a server there serving the home
	// directory, the root or a credential directory is exfiltration
	// (ServesSecrets).
	ServesCwd string
}

// ServesSecrets reports whether a directory served to the network holds
// the machine's secrets: a home directory, every home, "/", "/etc",
// "/var" or a credential directory.
func ServesSecrets(dir string) bool { return servesSecrets(dir) }

// File is a file a script touches.
type File struct {
	// Path is the path as written after quote removal, with a leading ~
	// expanded when the home directory is known.
	Path string
	// Write is true for a write (redirection target, tee, cp/mv destination
	// and the entry created in it, touch, rm, dd of=, sed -i, git --output,
	// sort -o, tar/zip archives and extraction directories, compressors,
	// downloads, ln targets, …), false for a read.
	Write bool
	// Static is false when the path contains an expansion, so it is kept in
	// its source form.
	Static bool
	// Glob is set when the path is static but for unquoted glob
	// metacharacters ("*.log", "src/*.go"): the shell expands it to the
	// names of the files that match when the command runs. Static is
	// false for it.
	Glob bool
	// Dir is the directory relative paths resolve against when a preceding
	// cd (or env -C, git -C) changed it; empty means the call's own working
	// directory. When a cd may have failed or not run ("cd x; rm y", a cd
	// in an if or || branch), the file is reported once per directory the
	// shell may be in.
	Dir string
	// Command is the Text of the command the file belongs to.
	Command string
	// Delete is set when the command deletes or destroys the file (rm,
	// shred, truncate, dd of=, find -delete).
	Delete bool
	// Recursive is set when the command acts on the whole tree under the
	// path (rm -r, chmod -R).
	Recursive bool
	// Into is set when the command writes files whose names the call does
	// not show under Path, a directory (an archive extracted into it).
	Into bool
	// Under is set when the command deletes some of the files under the
	// path, picked by a test (find DIR -name X -delete), neither the path
	// itself nor its whole tree.
	Under bool
	// HidesDots is set for a Glob path bash expands with its default
	// options: a '*', '?' or bracket expression that starts an element
	// does not match a leading '.' (glob.ParseShellPath), so "chmod g+w
	// *" does not reach .git. Never set when Analysis.DotGlob is, nor for
	// find's name patterns, whose '*' matches dot-files.
	HidesDots bool
	// Picked is set when Path is DIR/**/NAME, the files below DIR that a
	// find name test (-name NAME) picks, and the command changes each in
	// place (find -delete; rm, sed -i, chmod run by find -exec or by
	// xargs on find's output): every file it changes is named by NAME,
	// so a critical path that is any file of a directory counts only
	// through the names that make a file there dangerous
	// (MayBeCriticalPickedPath).
	Picked bool
	// Moved is set for a source a command moves away (mv): the path and
	// the tree under it leave where they were, as a recursive delete
	// there would.
	Moved bool
	// Remote is set for a file of a command run elsewhere (ssh HOST CMD):
	// it only restricts.
	Remote bool
	// Runner is set for a file of a program a package runner starts
	// (Command.Runner): it only restricts.
	Runner bool
	// Named is set for a path named in an interpreter's inline code
	// (python -c, node -e) that writes or deletes files: the program may
	// write it, or only read it, which a scan of the code cannot tell.
	Named bool
	// Alts are the static paths a non-static Path may be ($XDG_* and
	// ${VAR:-default} at their defaults): deny and ask rules match them.
	Alts []string
	// Unknown is set for a path through a variable of the environment
	// whose value nobody knows ("$X/id_rsa" when the caller's environment
	// is not known): it may be any file, a protected one among them.
	Unknown bool
}
