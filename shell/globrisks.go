package shell

import (
	"strings"
	"sync"

	"github.com/toolgate/toolgate/internal/glob"
)

// criticalPattern is one path IsCriticalWritePath knows, as a path pattern
// ('*' within an element, "**" across elements).
type criticalPattern struct {
	path glob.Path
	src  string
	code string
	fold bool // compared with the pattern lower-cased (git's own files)
}

// criticalPatterns renders the critical write paths as path patterns, once.
var criticalPatterns = sync.OnceValue(func() []criticalPattern {
	var out []criticalPattern
	add := func(code string, fold bool, paths ...string) {
		for _, p := range paths {
			out = append(out, criticalPattern{path: glob.ParsePath(p), src: p, code: code, fold: fold})
		}
	}
	// The tables are sorted: the first match names the risk, and stays
	// the same.
	for _, f := range homeFiles {
		for _, root := range [...]string{"~/", "/root/", "/home/*/", "/Users/*/", "/var/home/*/"} {
			add(f.code, false, root+f.path)
		}
	}
	for _, root := range [...]string{"~/", "/root/", "/home/*/", "/Users/*/", "/var/home/*/"} {
		add(RiskStartupFile, false, root+".config/fish/conf.d/**")
	}
	for _, f := range systemFiles {
		add(f.code, false, f.path)
	}
	for _, d := range systemDirFiles {
		add(d.code, false, d.path+"/*")
	}
	for _, pre := range blockDevicePrefixes {
		add(RiskDeviceWrite, false, pre+"**")
	}
	add(RiskGitHook, true, "**.git/hooks", "**.git/hooks/**")
	add(RiskGitConfig, true, ".git", "**/.git", "**.git/config", "**.git/config.worktree", "**.git/modules/**", "**.git/worktrees/**")
	return out
})

// MayBeCriticalWritePath is IsCriticalWritePath for a shell pathname
// pattern ("~/.bashr?", ".git/hook*/x", "/etc/sudoers.d/*"): whether some
// file the pattern may expand to is a critical write path. The pattern is
// read as glob.ParsePath reads it; p is expected in its cleaned form, home
// as for IsCriticalWritePath. It may say yes wrongly, never no wrongly.
func MayBeCriticalWritePath(p, home string) (code, reason string, ok bool) {
	if p == "" {
		return "", "", false
	}
	forms := [2]glob.Path{glob.ParsePath(p)}
	n := 1
	if home = strings.TrimRight(home, "/"); home != "" {
		if rest, ok := strings.CutPrefix(p, home+"/"); ok {
			forms[1], n = glob.ParsePath("~/"+rest), 2
		}
	}
	var folded glob.Path
	foldDone := false
	pats := criticalPatterns()
	for i := range pats {
		c := &pats[i]
		for _, f := range forms[:n] {
			if c.fold {
				if !foldDone {
					folded, foldDone = glob.ParsePath(strings.ToLower(p)), true
				}
				f = folded
			}
			if c.path.MayMeet(f) {
				return c.code, p + " may expand to " + c.src + ", which " + riskReason(c.code), true
			}
		}
	}
	return "", "", false
}
