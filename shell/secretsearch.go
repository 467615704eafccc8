package shell

import (
	"strings"

	"github.com/toolgate/toolgate/internal/sensitive"
)

// secretSearch marks a recursive search that reads hidden files, where a
// project keeps .env, for a pattern that names a secret (grep -r API_KEY
// ., rg --hidden -i password): credential access, whatever the rules
// say of the search itself, since the lines it prints are the secrets.
// It counts where a project keeps its .env: a search of the working
// directory (".", or no path) or of a directory above or outside it. A
// search of a subdirectory (grep -r password src/, rg -uu secret_key_base
// config/), one that skips hidden or ignored files (rg without --hidden,
// git grep), one told which files to read (--include='*.go', -g '*.py',
// -t go), or one for anything else (TODO) stays a read.
func secretSearch(cmd *Command, name string, args []string) {
	if !searchesHidden(name, args) || searchRestricted(name, args) || !searchesTop(name, args) {
		return
	}
	for _, p := range searchPatterns(name, args) {
		if secretPattern(p) {
			addClass(cmd, ClassRisk{Class: ClassCredential, Reason: name + " searches every file below, hidden ones such as .env included, for " +
				clip(p, 40) + ": the lines it prints may be the secrets", Token: p})
			return
		}
	}
}

// environSecret marks a search of the environment's values, piped in,
// for the variables a secret is kept in (env | grep -i token, export -p |
// grep AWS_): credential access, as printenv GITHUB_TOKEN is. The names
// in an environment are spelled by convention, so a pattern counts with
// a shorter word than a search of files needs (environWords).
func environSecret(cmd *Command, name string, in stdin) {
	if !in.environ {
		return
	}
	var pats []string
	switch s := commandSpec(name); {
	case name == "awk" || name == "gawk" || name == "mawk" || name == "nawk" || name == "sed":
		// The program is the first operand: awk '/TOKEN/', sed -n '/KEY/p'.
		for _, a := range cmd.Args {
			if !strings.HasPrefix(a, "-") {
				pats = append(pats, a)
				break
			}
		}
	case s != nil && s.pattern:
		pats = searchPatterns(name, cmd.Args)
	}
	for _, p := range pats {
		if secretPattern(p) || environPattern(p) {
			addClass(cmd, ClassRisk{Class: ClassCredential, Reason: name + " picks the environment's variables matching " + clip(p, 40) +
				" out of its values: the lines it prints are the secrets", Token: p})
			return
		}
	}
}

// environWords are the words, in lower case, of the names secrets are
// kept under in an environment (GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY,
// DB_PASSWORD, OPENAI_API_KEY, NPM_AUTH).
var environWords = [...]string{"token", "secret", "key", "pass", "pwd", "auth", "cred", "aws", "api"}

// environPattern reports whether a pattern names a variable a secret is
// kept in.
func environPattern(p string) bool {
	p = strings.ToLower(p)
	for _, w := range environWords {
		if strings.Contains(p, w) {
			return true
		}
	}
	return false
}

// dumpsEnviron reports whether a command prints the environment's values:
// env and printenv without a name, set without arguments, export -p and
// declare or typeset -x or -p.
func dumpsEnviron(cmd *Command) bool {
	named := false
	for _, a := range cmd.Args {
		if !strings.HasPrefix(a, "-") {
			named = true
		}
	}
	switch cmd.Name {
	case "env", "printenv":
		return !named
	case "set":
		return len(cmd.Args) == 0
	case "export", "declare", "typeset":
		for _, a := range cmd.Args {
			if shortCluster(a) && strings.ContainsAny(a, "px") {
				return !named
			}
		}
		return cmd.Name == "export" && len(cmd.Args) == 0
	}
	return false
}

// secretWords are the words a pattern that hunts for secrets holds, in
// lower case.
var secretWords = [...]string{"password", "passwd", "secret", "api_key", "apikey", "api-key", "access_key", "accesskey",
	"private_key", "privatekey", "private key", "begin rsa", "begin openssh", "begin ec", "begin private", "aws_", "bearer",
	"credential", "_token", "token="}

// secretPattern reports whether a search pattern names a secret.
func secretPattern(p string) bool {
	p = strings.ToLower(p)
	for _, w := range secretWords {
		if strings.Contains(p, w) {
			return true
		}
	}
	return false
}

// searchesHidden reports whether a search reads every file below its
// directories, hidden ones included: grep's -r, -R, --recursive or -d
// recurse; rg's and ag's --hidden, -uu or --unrestricted.
func searchesHidden(name string, args []string) bool {
	for i, a := range args {
		if a == "--" {
			return false
		}
		switch name {
		case "grep", "egrep", "fgrep":
			if a == "--recursive" || a == "--dereference-recursive" || a == "--directories=recurse" ||
				a == "-d" && i+1 < len(args) && args[i+1] == "recurse" ||
				shortCluster(a) && strings.ContainsAny(a, "rR") {
				return true
			}
		case "rg", "ag":
			if a == "--hidden" || a == "--unrestricted" || a == "-uu" || a == "-uuu" || name == "ag" && a == "-u" ||
				name == "rg" && a == "-." {
				return true
			}
		}
	}
	return false
}

// shortCluster reports whether a is a cluster of one-letter options
// (-rn), not a long option or a lone "-".
func shortCluster(a string) bool {
	return len(a) > 1 && a[0] == '-' && a[1] != '-'
}

// searchRestricted reports whether a search is told to read only files
// whose names hold no secret: grep --include=GLOB, rg -g GLOB or -t TYPE
// (a negated glob, !X, restricts nothing).
func searchRestricted(name string, args []string) bool {
	for i, a := range args {
		var val string
		switch {
		case strings.HasPrefix(a, "--include="):
			val = strings.TrimPrefix(a, "--include=")
		case strings.HasPrefix(a, "--glob="):
			val = strings.TrimPrefix(a, "--glob=")
		case (a == "--include" || name == "rg" && (a == "-g" || a == "--glob")) && i+1 < len(args):
			val = args[i+1]
		case name == "rg" && (a == "-t" || a == "--type" || strings.HasPrefix(a, "--type=")):
			return true
		default:
			continue
		}
		if val != "" && !strings.HasPrefix(val, "!") && !sensitive.SecretName(strings.Trim(val, "*")) && !strings.Contains(val, "env") {
			return true
		}
	}
	return false
}

// searchPatterns returns a search's patterns: its -e/--regexp values, or
// else its first operand.
func searchPatterns(name string, args []string) []string {
	var out []string
	for i, a := range args {
		switch {
		case (a == "-e" || a == "--regexp") && i+1 < len(args):
			out = append(out, args[i+1])
		case strings.HasPrefix(a, "--regexp="):
			out = append(out, strings.TrimPrefix(a, "--regexp="))
		}
	}
	if len(out) > 0 {
		return out
	}
	if i := patternOperand(name, args); i >= 0 {
		out = append(out, args[i])
	}
	return out
}

// searchesTop reports whether a search reads the working directory's
// top: no path operand, or one that is ".", above it, absolute or the
// home directory. The pattern operand and options' values are no paths.
func searchesTop(name string, args []string) bool {
	s := commandSpec(name)
	if s == nil {
		return true
	}
	var optBuf [8]optArg
	var opBuf [8]int
	_, ops := s.scanInto(args, nil, false, optBuf[:0], opBuf[:0])
	pat := patternOperand(name, args)
	paths := 0
	for _, i := range ops {
		if i == pat {
			continue
		}
		paths++
		p := args[i]
		if p == "." || p == "./" || p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") ||
			strings.HasPrefix(p, "~") || strings.HasPrefix(p, "$") {
			return true
		}
	}
	return paths == 0
}
