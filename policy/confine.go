package policy

import (
	"os"
	"path"
	"slices"
	"strings"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/shell"
)

// reasonConfined prefixes the reason of an ask that offers a confined
// allow.
const reasonConfined = "allowed inside the kernel sandbox where the agent's host runs it so (writes only in the workspace and the temporary directory, no secrets, no network); elsewhere it asks: "

// confine offers a confined allow on ask decision d (DESIGN §3.7) for a
// shell command that asks only because what it runs is unknown or stays
// inside the sandbox's profile: in the default or auto-edit mode, with no
// risk of any kind (critical, unprefixable, a risk class), every subject
// that asks decided by a rule whose action is "sandbox" or, where the
// workspace opted in ("$sandbox": "auto"), asking open (no rule a person
// wrote asks or denies it), no network effect, and every written path
// inside the working directory, the workspace roots or the temporary
// directory. d stays an ask: only a surface that runs the command
// confined may allow it.
func (e *Engine) confine(c *toolgate.Call, env Env, d *toolgate.Decision) {
	if env.Mode != toolgate.ModeDefault && env.Mode != toolgate.ModeAutoEdit {
		return
	}
	info, known := e.profile.lookup(c.Tool)
	if !known || info.spec.Kind != KindShell || len(d.Risks) > 0 || len(d.Subjects) == 0 || c.Cwd == "" || !path.IsAbs(c.Cwd) {
		return
	}
	cwd := path.Clean(c.Cwd)
	roots := []string{cwd}
	for _, r := range e.roots {
		if !slices.Contains(roots, r) {
			roots = append(roots, r)
		}
	}
	byRule := false
	for _, s := range d.Subjects {
		switch {
		case s.Action == toolgate.Deny:
			return
		case s.Kind == toolgate.SubjectWrite && !insideAny(writePath(s.Text, cwd), roots):
			return
		case s.Action != toolgate.Ask:
		case s.Rule != nil && s.Rule.Sandbox:
			byRule = true
		case !s.Open:
			return
		case !e.sandbox && s.Kind != toolgate.SubjectWrite:
			// Without the opt-in, only the writes (inside the roots) of
			// a command a sandbox rule names go with it.
			return
		}
	}
	if !e.sandbox && !byRule {
		return
	}
	src, ok := commandText(c.Args, info.spec.Args)
	if !ok {
		return
	}
	a, err := e.shell.Analyze(src)
	if err != nil || len(a.Risks) > 0 {
		return
	}
	for i := range a.Commands {
		if a.Commands[i].Effects&shell.EffectNetwork != 0 || len(a.Commands[i].Classes) > 0 {
			return
		}
	}
	d.Sandbox = &toolgate.Confinement{Profile: "default", Workspaces: roots}
	d.Reason = reasonConfined + d.Reason
}

// writePath is a written path made absolute against cwd, or "" when it is
// not a plain path (a variable, a glob, a home directory).
func writePath(p, cwd string) string {
	if p == "" || strings.ContainsAny(p, "$*?[{~`") {
		return ""
	}
	if !path.IsAbs(p) {
		p = path.Join(cwd, p)
	}
	return path.Clean(p)
}

// insideAny reports whether p lies in one of the roots or the temporary
// directory.
func insideAny(p string, roots []string) bool {
	if p == "" {
		return false
	}
	inside := func(r string) bool { return p == r || strings.HasPrefix(p, strings.TrimSuffix(r, "/")+"/") }
	for _, r := range roots {
		if inside(r) {
			return true
		}
	}
	return inside(os.TempDir())
}
