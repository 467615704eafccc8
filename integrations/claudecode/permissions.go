package claudecode

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"sort"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
)

// ScopeManaged is the managed-settings file an administrator installs for
// every user of the machine.
const ScopeManaged = "managed"

// ScopeCodex is a Codex rules file of the user (CODEX_HOME/rules/*.rules).
const ScopeCodex = "codex"

// CodexRuleFiles lists the user's Codex rules files, codexHome/rules/*.rules
// ($CODEX_HOME, else ~/.codex), in name order. A project's .codex/rules are
// left out: Codex loads them only for a project the user trusts, which
// the hook cannot tell, and a cloned repository must not pre-approve its
// own commands.
func CodexRuleFiles(codexHome string) []SettingsFile {
	if codexHome == "" {
		return nil
	}
	paths, _ := filepath.Glob(filepath.Join(codexHome, "rules", "*.rules"))
	sort.Strings(paths)
	out := make([]SettingsFile, len(paths))
	for i, p := range paths {
		out[i] = SettingsFile{ScopeCodex, p}
	}
	return out
}

// ManagedSettingsPath is where Claude Code reads managed settings on this
// operating system.
func ManagedSettingsPath() string {
	switch runtime.GOOS {
	case "darwin":
		return "/Library/Application Support/ClaudeCode/managed-settings.json"
	case "windows":
		return `C:\ProgramData\ClaudeCode\managed-settings.json`
	}
	return "/etc/claude-code/managed-settings.json"
}

// SettingsFile is one Claude Code settings file and its scope.
type SettingsFile struct {
	Scope string
	Path  string
}

// PermissionFiles lists the settings files whose permissions Claude Code
// applies in a project, in its order: managed, user
// (~/.claude/settings.json), project (.claude/settings.json) and local
// (.claude/settings.local.json). managed is the managed-settings path
// (ManagedSettingsPath outside tests); "" leaves it out, and so do an
// empty home and projectDir their scopes.
func PermissionFiles(projectDir, home, managed string) []SettingsFile {
	var out []SettingsFile
	if managed != "" {
		out = append(out, SettingsFile{ScopeManaged, managed})
	}
	if home != "" {
		p, _ := SettingsPath(ScopeUser, projectDir, home)
		out = append(out, SettingsFile{ScopeUser, p})
	}
	if projectDir != "" {
		for _, scope := range []string{ScopeProject, ScopeLocal} {
			p, _ := SettingsPath(scope, projectDir, home)
			if home != "" && filepath.Clean(p) == filepath.Join(home, ".claude", "settings.json") {
				continue // a project in the home directory: the user file, once
			}
			out = append(out, SettingsFile{scope, p})
		}
	}
	return out
}

func (f SettingsFile) what() string {
	if f.Scope == ScopeCodex {
		return "Codex rules"
	}
	return "Claude Code " + f.Scope + " settings"
}

// FoundFile is a settings file that exists, with how many permission
// entries of each kind it holds.
type FoundFile struct {
	SettingsFile
	Allow, Ask, Deny int
}

// Permissions is an agent's own permissions, as a layer of toolgate's
// rules (DESIGN §3.6): the documents policy.PermissionLayers makes of them.
type Permissions struct {
	// Allow goes after the built-in defaults and before the rules a
	// person wrote for toolgate; Deny goes after every other document.
	Allow, Deny *policy.Document
	// Found lists the files that exist, in Claude Code's order.
	Found []FoundFile
}

// LoadPermissions reads the permissions of the settings files that exist
// (Codex rules files for ScopeCodex).
// A file that exists but cannot be read or parsed is an error naming it:
// its deny entries would be lost, so the hook must not decide without it.
func LoadPermissions(files []SettingsFile) (*Permissions, error) {
	var docs []*policy.Document
	var managed *policy.Document
	p := &Permissions{}
	for _, f := range files {
		data, err := policy.ReadDocument(f.Path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.what(), err)
		}
		parse := policy.ParseClaudeSettings
		if f.Scope == ScopeCodex {
			parse = policy.ParseCodexRules
		}
		d, err := parse(f.Path, data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.what(), err)
		}
		ff := FoundFile{SettingsFile: f}
		for _, r := range d.Rules {
			switch r.Action {
			case toolgate.Allow:
				ff.Allow++
			case toolgate.Ask:
				ff.Ask++
			case toolgate.Deny:
				ff.Deny++
			}
		}
		p.Found = append(p.Found, ff)
		if f.Scope == ScopeManaged {
			managed = d
		} else {
			docs = append(docs, d)
		}
	}
	p.Allow, p.Deny = policy.PermissionLayers(docs, managed)
	return p, nil
}

// Layer puts the permissions into a rules stack from the command line:
// Allow after the built-in default document (first, when the stack has
// it) and Deny at the end.
func (p *Permissions) Layer(docs []*policy.Document) []*policy.Document {
	at := 0
	if len(docs) > 0 && docs[0].Path == policy.DefaultPath {
		at = 1
	}
	out := make([]*policy.Document, 0, len(docs)+2)
	out = append(out, docs[:at]...)
	out = append(out, p.Allow)
	out = append(out, docs[at:]...)
	return append(out, p.Deny)
}
