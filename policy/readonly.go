package policy

import (
	"path"
	"strings"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/sensitive"
	"github.com/toolgate/toolgate/shell"
)

// markReadOnly sets subject.readOnly on the command subjects of analysis
// a, run in cwd, that only read (DESIGN §3.6): the command table says so
// (shell.Command.ReadOnly), the line writes no file, and no word of the
// command names a path a secret is or may be under: a search of the home
// directory or of "/" reads every credential in it. A working directory
// that holds secrets (the home directory) makes no command read-only:
// a recursive reader given no path searches it.
func (e *Engine) markReadOnly(subs []subject, a *shell.Analysis, cwd string) {
	for i := range a.Files {
		if a.Files[i].Write {
			return
		}
	}
	if cwd != "" && e.holdsSecrets(path.Clean(cwd)) {
		return
	}
	// After a cd the shell is elsewhere: a relative path that climbs out
	// is not resolved against cwd.
	moved := false
	for i := range a.Commands {
		switch a.Commands[i].Name {
		case "cd", "pushd", "popd":
			moved = true
		}
	}
	for i := range subs {
		s := &subs[i]
		if s.kind == toolgate.SubjectCommand && s.cmd != nil && s.cmd.ReadOnly {
			s.readOnly = e.readsNoSecret(s.cmd, cwd, moved)
		}
	}
}

// holdsSecrets reports whether the absolute path p is a credential or a
// directory one is under.
func (e *Engine) holdsSecrets(p string) bool {
	if e.isSecret(p) {
		return true
	}
	_, ok := sensitive.Within(p, e.home, sensitive.Credential)
	return ok
}

// isSecret reports whether the absolute path p is a credential, or under
// a credential directory.
func (e *Engine) isSecret(p string) bool {
	en, ok := sensitive.Lookup(p, e.home)
	return ok && en.Kind == sensitive.Credential
}

// readsNoSecret reports whether no word of cmd names a path a secret is
// or may be under, or a URL. (A word known only at run time keeps
// Command.ReadOnly unset.)
func (e *Engine) readsNoSecret(cmd *shell.Command, cwd string, moved bool) bool {
	pats := shell.PatternArgs(cmd.Name, cmd.Args) // grep's pattern, find -name's: no path
	for i, a := range cmd.Args {
		if pats.Has(i) {
			continue
		}
		if strings.HasPrefix(a, "-") {
			v, ok := "", false
			if _, v, ok = strings.Cut(a, "="); !ok {
				if strings.Contains(a, "~") {
					return false // an attached value: -C~
				}
				continue
			}
			a = v
		}
		if a == "" {
			continue
		}
		if local, ok := localFileURL(a); ok {
			a = local // aws … --cli-input-json file://req.json: a file read here
		} else if cmd.Name == "aws" && awsServiceURL(a) {
			continue // aws sqs … --queue-url https://sqs….amazonaws.com/…: names the resource, sent to AWS
		} else if strings.Contains(a, "://") && !strings.HasPrefix(a, "s3://") && !strings.HasPrefix(a, "gs://") {
			return false // a destination the command names
		}
		p, ok := e.absPath(a, cwd, moved)
		if !ok {
			return false
		}
		if p == "" {
			continue // relative, with no cwd to resolve it against
		}
		if i := globAt(p); i >= 0 {
			if _, _, ok := sensitive.MayMatch(p, e.home, sensitive.Credential); ok {
				return false
			}
			p = path.Dir(p[:i+1]) // the directory the expansions lie under
		}
		if e.holdsSecrets(p) && (!shell.ListsNames(cmd.Name) || e.isSecret(p)) {
			// A listing of a directory secrets are under (ls -la ~,
			// du -sh ~) prints their names, never what they hold; a
			// credential named itself stays out of a listing too.
			return false
		}
	}
	return true
}

// absPath resolves a word as a path: "" for a relative path when cwd is
// not known (one that climbs out with ".." is not ok then), false for a
// path it cannot resolve (~user, a climb after a cd).
func (e *Engine) absPath(a, cwd string, moved bool) (string, bool) {
	switch {
	case a == "~" || strings.HasPrefix(a, "~/"):
		h := e.tildeHome()
		if h == "" {
			return "", false
		}
		return path.Join(h, a[1:]), true
	case strings.HasPrefix(a, "~"):
		return "", false
	case path.IsAbs(a):
		return path.Clean(a), true
	}
	climbs := a == ".." || strings.HasPrefix(a, "../") || strings.Contains(a, "/../") || strings.HasSuffix(a, "/..")
	if cwd == "" || moved {
		return "", !climbs
	}
	return path.Join(cwd, a), true
}

// globAt returns the index of the first glob metacharacter of p, -1 for
// none: "*", "?", or a "[" that opens a bracket expression ("[]", as in
// a jq filter's ".items[]", matches nothing and is no glob).
func globAt(p string) int {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '*', '?':
			return i
		case '[':
			if j := strings.IndexByte(p[i+1:], ']'); j > 0 {
				return i
			}
		}
	}
	return -1
}

// localFileURL returns the path a file:// or fileb:// word names (the
// AWS CLI reads a parameter's value from it), "" for a file URL with a
// host, which names another machine.
func localFileURL(a string) (string, bool) {
	for _, scheme := range []string{"file://", "fileb://"} {
		if rest, ok := strings.CutPrefix(a, scheme); ok {
			if rest != "" && (rest[0] == '/' || !strings.Contains(rest, "/") || !strings.Contains(strings.SplitN(rest, "/", 2)[0], ".")) {
				return rest, true
			}
			return "", false
		}
	}
	return "", false
}

// awsServiceURL reports whether a is an https URL on AWS's own domain
// (a queue's URL, an object's): to the AWS CLI it names a resource in
// the service it calls, not another destination. (Read by hand: package
// net/url would start net/netip in the hook, which links this package.)
func awsServiceURL(a string) bool {
	rest, ok := strings.CutPrefix(a, "https://")
	if !ok {
		return false
	}
	host := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		host = rest[:i]
	}
	if strings.ContainsAny(host, "@%\\") {
		return false
	}
	if i := strings.LastIndexByte(host, ':'); i >= 0 {
		host = host[:i]
	}
	return strings.HasSuffix(strings.ToLower(host), ".amazonaws.com")
}
