package claudecode

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
)

// ScopeManaged is the managed-settings file an administrator installs for
// every user of the machine.
const ScopeManaged = "managed"

// ScopeCodex is a Codex rules file of the user (CODEX_HOME/rules/*.rules).
const ScopeCodex = "codex"

// Gemini CLI's settings files (system, user) and a project's
// .gemini/settings.json, and opencode's config files (user) and a
// project's. A project's allow entries are left out: a cloned repository
// must not pre-approve its own commands; its deny and ask entries count.
const (
	ScopeGemini          = "gemini"
	ScopeGeminiProject   = "gemini-project"
	ScopeOpencode        = "opencode"
	ScopeOpencodeProject = "opencode-project"
)

// scopeFormats says, per scope of another host than Claude Code, how its
// files read and what they are called in messages.
var scopeFormats = map[string]struct {
	parse   func(name string, src []byte) (*policy.Document, error)
	what    string
	project bool // allow entries are left out
}{
	ScopeCodex:           {policy.ParseCodexRules, "Codex rules", false},
	ScopeGemini:          {policy.ParseGeminiSettings, "Gemini CLI settings", false},
	ScopeGeminiProject:   {policy.ParseGeminiSettings, "Gemini CLI project settings", true},
	ScopeOpencode:        {policy.ParseOpencodeConfig, "opencode config", false},
	ScopeOpencodeProject: {policy.ParseOpencodeConfig, "opencode project config", true},
}

// GeminiSettingsFiles lists Gemini CLI's settings files in its order:
// system defaults, user (~/.gemini/settings.json), the project's
// .gemini/settings.json, and the system settings that override them
// ($GEMINI_CLI_SYSTEM_DEFAULTS_PATH and $GEMINI_CLI_SYSTEM_SETTINGS_PATH
// move the system files). An empty home or projectDir leaves its file
// out.
func GeminiSettingsFiles(projectDir, home string) []SettingsFile {
	sysDir := "/etc/gemini-cli"
	switch runtime.GOOS {
	case "darwin":
		sysDir = "/Library/Application Support/GeminiCli"
	case "windows":
		sysDir = `C:\ProgramData\gemini-cli`
	}
	env := func(name, def string) string {
		if p := os.Getenv(name); p != "" {
			return p
		}
		return def
	}
	out := []SettingsFile{{ScopeGemini, env("GEMINI_CLI_SYSTEM_DEFAULTS_PATH", filepath.Join(sysDir, "system-defaults.json"))}}
	if home != "" {
		out = append(out, SettingsFile{ScopeGemini, filepath.Join(home, ".gemini", "settings.json")})
	}
	if projectDir != "" && (home == "" || filepath.Clean(projectDir) != filepath.Clean(home)) {
		out = append(out, SettingsFile{ScopeGeminiProject, filepath.Join(projectDir, ".gemini", "settings.json")})
	}
	return append(out, SettingsFile{ScopeGemini, env("GEMINI_CLI_SYSTEM_SETTINGS_PATH", filepath.Join(sysDir, "settings.json"))})
}

// OpencodeConfigFiles lists opencode's config files in its order: the
// user's ($XDG_CONFIG_HOME/opencode, else ~/.config/opencode:
// config.json, opencode.json, opencode.jsonc), $OPENCODE_CONFIG, and the
// project's (opencode.json(c) and .opencode/opencode.json(c) in
// projectDir). opencode also reads config files in the directories
// between the project and its git root, which are not listed.
func OpencodeConfigFiles(projectDir, home string) []SettingsFile {
	var out []SettingsFile
	cfg := os.Getenv("XDG_CONFIG_HOME")
	if cfg == "" && home != "" {
		cfg = filepath.Join(home, ".config")
	}
	if cfg != "" {
		for _, f := range []string{"config.json", "opencode.json", "opencode.jsonc"} {
			out = append(out, SettingsFile{ScopeOpencode, filepath.Join(cfg, "opencode", f)})
		}
	}
	if p := os.Getenv("OPENCODE_CONFIG"); p != "" {
		out = append(out, SettingsFile{ScopeOpencode, p})
	}
	if projectDir != "" {
		for _, f := range []string{"opencode.json", "opencode.jsonc", filepath.Join(".opencode", "opencode.json"), filepath.Join(".opencode", "opencode.jsonc")} {
			out = append(out, SettingsFile{ScopeOpencodeProject, filepath.Join(projectDir, f)})
		}
	}
	return out
}

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
	if sf, ok := scopeFormats[f.Scope]; ok {
		return sf.what
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
// (Codex rules files for ScopeCodex, Gemini CLI settings and opencode
// config files for theirs).
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
		sf, other := scopeFormats[f.Scope]
		if other {
			parse = sf.parse
		}
		d, err := parse(f.Path, data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.what(), err)
		}
		if sf.project {
			d.Rules = slices.DeleteFunc(d.Rules, func(r policy.Rule) bool { return r.Action == toolgate.Allow })
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
