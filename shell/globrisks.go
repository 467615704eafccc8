package shell

import (
	"slices"
	"strings"

	"github.com/toolgate/toolgate/internal/glob"
)

// criticalPattern is one path IsCriticalWritePath knows, as a path pattern
// ('*' within an element, "**" across elements).
type criticalPattern struct {
	path glob.Path
	src  string
	code string
	fold bool // compared with the pattern lower-cased (git's own files)
	// picked is what the pattern stands for against a word whose last
	// element is a find name test (MayBeCriticalPickedPath): path, or,
	// where the pattern ends in a wildcard element (".git/hooks/**"),
	// that element replaced by each name a file there must have to be
	// dangerous to write.
	picked    []glob.Path
	pickedSrc []string
}

// gitHookNames are the names git runs from a hooks directory
// (githooks(5)): the other files there run only if a hook calls them.
var gitHookNames = []string{
	"applypatch-msg", "commit-msg", "fsmonitor-watchman", "p4-changelist", "p4-post-changelist",
	"p4-pre-submit", "p4-prepare-changelist", "post-applypatch", "post-checkout", "post-commit", "post-index-change",
	"post-merge", "post-receive", "post-rewrite", "post-update", "pre-applypatch", "pre-auto-gc", "pre-commit",
	"pre-merge-commit", "pre-push", "pre-rebase", "pre-receive", "prepare-commit-msg", "proc-receive",
	"push-to-checkout", "reference-transaction", "sendemail-validate", "update",
}

// gitDirNames are the names below a submodule's or a worktree's git
// directory (.git/modules/X, .git/worktrees/X) whose writing makes git
// run code: its configuration, the pointer to the common directory
// whose configuration applies, its hooks directory and the hooks. Two
// lists, joined where the patterns are built: an append here would run
// at every process start.
var gitDirNames = [][]string{{"commondir", "config", "config.worktree", "hooks"}, gitHookNames}

// pickedNames gives, for a critical pattern ending in a wildcard
// element, the last elements a file there has when writing it is
// dangerous; a pattern not listed keeps its wildcard (every file of
// /etc/sudoers.d is read by sudo).
var pickedNames = []struct {
	suffix string
	names  [][]string
}{
	{".config/fish/conf.d/**", [][]string{{"*.fish"}}}, // fish sources conf.d/*.fish
	{".git/hooks/**", [][]string{gitHookNames}},
	{".git/modules/**", gitDirNames},
	{".git/worktrees/**", gitDirNames},
}

// criticalPatterns renders the critical write paths as path patterns, once.
var criticalPatterns = lazy[[]criticalPattern]{build: func() []criticalPattern {
	var out []criticalPattern
	add := func(code string, fold bool, paths ...string) {
		for _, p := range paths {
			c := criticalPattern{path: glob.ParsePath(p), src: p, code: code, fold: fold}
			c.picked, c.pickedSrc = []glob.Path{c.path}, []string{p}
			for _, pn := range pickedNames {
				if strings.HasSuffix(p, pn.suffix) {
					dir := strings.TrimSuffix(p, "**")
					if pn.suffix != ".git/hooks/**" {
						dir += "**/" // a submodule's or worktree's own directory below
					}
					c.picked, c.pickedSrc = c.picked[:0], c.pickedSrc[:0]
					for _, n := range slices.Concat(pn.names...) {
						c.picked = append(c.picked, glob.ParsePath(dir+n))
						c.pickedSrc = append(c.pickedSrc, dir+n)
					}
				}
			}
			out = append(out, c)
		}
	}
	// The tables are sorted: the first match names the risk, and stays
	// the same.
	for _, f := range homeFiles.get() {
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
}}

// MayBeCriticalWritePath is IsCriticalWritePath for a shell pathname
// pattern ("~/.bashr?", ".git/hook*/x", "/etc/sudoers.d/*"): whether some
// file the pattern may expand to is a critical write path. The pattern is
// read as glob.ParsePath reads it; p is expected in its cleaned form, home
// as for IsCriticalWritePath. It may say yes wrongly, never no wrongly.
func MayBeCriticalWritePath(p, home string) (code, reason string, ok bool) {
	return mayBeCritical(p, home, false, false)
}

// MayBeCriticalShellWrite is MayBeCriticalWritePath for a glob bash
// expands with its default options (File.HidesDots): a wildcard that
// starts an element does not match a leading '.' ("chmod g+w *" does not
// reach .git; ".git/hook*/*" does).
func MayBeCriticalShellWrite(p, home string) (code, reason string, ok bool) {
	return mayBeCritical(p, home, false, true)
}

// MayBeCriticalPickedPath is MayBeCriticalWritePath for the files a find
// name test picks and a command changes in place (File.Picked): p is
// DIR/**/NAME, and each file so changed is named by NAME. A critical
// path that is every file of a directory (".git/hooks/**") then counts
// only through the names that make a file there dangerous: "**" /
// "*.pyc" cannot be a git hook, "pre-*" can.
func MayBeCriticalPickedPath(p, home string) (code, reason string, ok bool) {
	return mayBeCritical(p, home, true, false)
}

func mayBeCritical(p, home string, picked, hides bool) (code, reason string, ok bool) {
	parse := glob.ParsePath
	if hides {
		parse = glob.ParseShellPath
	}
	if p == "" {
		return "", "", false
	}
	word := p
	// "a/**/b" is "a/b" too (globstar, and find's DIR/**/NAME for the
	// files right in DIR): "a/**b" reads it so, and more.
	p = strings.ReplaceAll(p, "/**/", "/**")
	forms := [2]glob.Path{parse(p)}
	n := 1
	if home = strings.TrimRight(home, "/"); home != "" {
		if rest, ok := strings.CutPrefix(p, home+"/"); ok {
			forms[1], n = parse("~/"+rest), 2
		}
	}
	p = word
	var folded glob.Path
	foldDone := false
	pats := criticalPatterns.get()
	for i := range pats {
		c := &pats[i]
		for _, f := range forms[:n] {
			if c.fold {
				if !foldDone {
					folded, foldDone = parse(strings.ToLower(strings.ReplaceAll(p, "/**/", "/**"))), true
				}
				f = folded
			}
			if !picked && c.path.MayMeet(f) {
				return c.code, p + " may expand to " + c.src + ", which " + riskReason(c.code), true
			}
			if picked {
				for k, q := range c.picked {
					if q.MayMeet(f) {
						return c.code, p + " may expand to " + c.pickedSrc[k] + ", which " + riskReason(c.code), true
					}
				}
			}
		}
	}
	return "", "", false
}
