package policy

import (
	"path"
	"slices"
	"strings"

	"github.com/toolgate/toolgate"
)

// A call may carry its agent's home directory (Call.Home): through a
// gateway the agent runs as another user, or on another machine, than the
// engine's home (WithHome) names. "~" in such a call's paths and commands
// is the agent's home. The home is the agent's word, which the gateway
// cannot check, so it must not weaken what protects the engine's own
// home: the call is decided in two views, and the stricter decision
// stands.
//
//   - The agent's view: "~" in the call and in every rule is the agent's
//     home (the rules' "~/.ssh/**" covers /home/alice/.ssh), and so are
//     the home-relative classes (credentials, agent configuration) and
//     toolgate's own directories under the home.
//   - The engine's view: "~" in the call, in allow rules and in
//     workspace roots is the agent's home (an allow names what the agent
//     may do in its home); "~" in deny and ask rules, the home-relative
//     classes and toolgate's own directories are the engine's home, as
//     for any call. So a protection of the engine's home, "~/.ssh/**" as
//     /home/gw/.ssh/**, still covers an absolute /home/gw/.ssh/id_rsa
//     whatever home the call names, and a home the agent makes up
//     (/nonexistent) moves no deny away from a file.
//
// On a tie the agent's view stands, whose reasons name the agent's files.

// maxViews bounds the views an engine keeps: a view per home the calls
// name. Past it a view is built for the call and dropped.
const maxViews = 16

// viewKey names a view: the home deny and ask rules expand "~" to, the
// home allow rules and workspace roots expand it to, and the home "~" in
// a call means.
type viewKey struct{ rules, allow, tilde string }

// withHomes sets the homes of a view (viewKey).
func withHomes(k viewKey) Option {
	return func(e *Engine) {
		e.home, e.allowHome, e.tilde = k.rules, k.allow, k.tilde
	}
}

// tildeHome is what "~" in a call's paths and commands means.
func (e *Engine) tildeHome() string {
	if e.tilde != "" {
		return e.tilde
	}
	return e.home
}

// callHome returns the call's home directory when it is one the engine
// must decide the call for: set, usable, and not the engine's own "~".
// A home that is not an absolute path, is the root, or holds a glob
// character or a control character, is not used (the call is decided
// with the engine's home): a home is spliced into rule patterns.
func (e *Engine) callHome(home string) (string, bool) {
	if home == "" || e.home == "" {
		return "", false
	}
	home = strings.TrimRight(home, "/")
	if home == "" || !path.IsAbs(home) || path.Clean(home) != home || strings.ContainsAny(home, "*?[]{}\\") {
		// "/" too: its "~/**" would be every file.
		return "", false
	}
	for i := 0; i < len(home); i++ {
		if home[i] < 0x20 || home[i] == 0x7f {
			return "", false
		}
	}
	if home == e.tildeHome() {
		return "", false
	}
	return home, true
}

// view returns the engine built from the same documents and options
// for the homes of k.
func (e *Engine) view(k viewKey) (*Engine, error) {
	e.views.mu.Lock()
	v := e.views.m[k]
	e.views.mu.Unlock()
	if v != nil {
		return v, nil
	}
	opts := append(slices.Clip(e.opts), withHomes(k))
	v, err := build(e.docs, opts, false)
	if err != nil {
		return nil, err
	}
	e.views.mu.Lock()
	defer e.views.mu.Unlock()
	if old := e.views.m[k]; old != nil {
		return old, nil
	}
	if len(e.views.m) < maxViews {
		if e.views.m == nil {
			e.views.m = map[viewKey]*Engine{}
		}
		e.views.m[k] = v
	}
	return v, nil
}

// decideHome decides a call from an agent whose home is home: in the
// agent's view and in the engine's, the stricter decision standing.
func (e *Engine) decideHome(c *toolgate.Call, home string, env Env, d *toolgate.Decision) {
	agent, err := e.view(viewKey{home, home, home})
	var own *Engine
	if err == nil {
		own, err = e.view(viewKey{e.home, home, home})
	}
	if err != nil {
		d.Reset()
		d.Action, d.Tier, d.Mode = toolgate.Ask, toolgate.TierExec, env.Mode
		d.Reason = "the rules could not be compiled for the agent's home " + home + ": " + err.Error()
		return
	}
	agent.decideConfined(c, env, d)
	var theirs toolgate.Decision
	own.decideConfined(c, env, &theirs)
	if theirs.Action > d.Action {
		*d = theirs
	}
}
