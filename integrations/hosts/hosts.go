// Package hosts is the one home of the agents toolgate's hook runs in:
// Claude Code, Codex CLI, Gemini CLI, Cursor, GitHub Copilot CLI and
// opencode. A host is an adapter over the
// one hook (package claudecode's Hook, which decides every call through a
// toolgate.Gate, locally or at a gateway): how its hook input becomes a
// call and how the answer goes back (Adapter), which of its events gate a
// tool call, where and how "toolgate hook install HOST" writes the hook
// into its settings (Install), and which of the agent's own permission
// files the hook layers (Host.Permissions). An agent that runs
// only hooks its user has trusted (Codex CLI) has an adapter that is also
// Trusting: install trusts the hook, uninstall takes the trust back, and
// doctor checks it. Adding a host is one entry in the table below, its
// adapter file, and its tests.
//
// Every host blocks what the hook cannot read: an input that cannot be
// decoded, an event it does not know that carries a tool call, a crash
// or a gateway that cannot be reached is exit 2 (every host's "block")
// or a deny, never an allow. A hook process that is gone (killed, or a
// missing binary) blocks too: by the host's own setting (FailClosedKey),
// by the host itself, or by the command line install writes (ExitWrap).
package hosts

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolgate/toolgate/integrations/claudecode"
)

// Host is one agent toolgate's hook runs in.
type Host struct {
	// Name is the host's name on the command line: toolgate hook NAME.
	Name string
	// Title is the agent's name for people.
	Title string
	// Adapter translates the host's own hook format; nil is Claude Code's
	// format (Claude Code).
	Adapter Adapter
	// Permissions lists the agent's own permission files for a project
	// directory and home directory, which the hook layers under
	// toolgate's rules (--agent-permissions); nil reads none.
	Permissions func(projectDir, home string) []claudecode.SettingsFile
	// OnAsk is what a gateway's ask does by default: the agent's own
	// prompt where the host can ask from its hook, else a remote wait.
	OnAsk claudecode.AskMode
	// ShellTool is the host's shell tool as the hook decides it, for a
	// host whose hook can replace a call's input: a confined allow
	// (DESIGN §3.7) runs that tool's command under toolgate-sandbox. ""
	// for a host that cannot (Codex, Cursor, Copilot CLI): there a
	// confined allow is an ask.
	ShellTool string
	// ToolEvent and PromptEvent are the events install hooks: the one
	// before each tool call and, if the host has one, the one when the
	// user sends a prompt (it ends the session's turn at a gateway).
	ToolEvent, PromptEvent string
	// Events says which of the host's events the hook answers, for the
	// documentation and the help.
	Events string
	// Scopes are the settings files install can write, the default first.
	Scopes []Scope
	// TimeoutUnit is how many of the settings file's timeout units make a
	// second (1000 for milliseconds); 0 writes no timeout.
	TimeoutUnit int
	// Matcher is the tool matcher of the tool event's group ("" none).
	Matcher string
	// AlsoEvents are more tool events install hooks, for a host that
	// splits its calls over several (Cursor).
	AlsoEvents []string
	// Layout is how the settings file holds hooks: LayoutGroups,
	// LayoutFlat or LayoutPlugin.
	Layout string
	// CommandKey and TimeoutKey name an entry's fields in LayoutFlat
	// ("" TimeoutKey writes none); Type, if set, is its "type".
	CommandKey, TimeoutKey, Type string
	// FailClosedKey names the field of a LayoutFlat entry that makes the
	// host block the call when the hook fails (is missing, crashes, times
	// out or prints nothing it reads), which install sets true on the tool
	// events; "" for a host that has none. Not on the prompt event: a
	// failed hook must not keep the user from speaking.
	FailClosedKey string
	// ExitWrap is set for a host that runs the call when its hook exits
	// with any status but 0 and 2 (a hook killed by a signal, or a
	// missing binary: 127) and that runs the command line through a
	// POSIX shell (bash, zsh or sh): install writes the tool events'
	// command as FailClosed makes it, which turns any such failure into
	// exit 2, a block. Not on the prompt event, as with FailClosedKey.
	ExitWrap bool
	// OnFailureBlock is set for a host whose hook entry takes
	// "onFailure": "block" (Claude Code), which makes it block the call
	// when it kills the hook at its timeout or cannot run it, where it
	// would run the call: install writes it on the tool events. Not on the
	// prompt event, as with FailClosedKey.
	OnFailureBlock bool
	// PowerShellOnWindows is set for a host that runs a hook's command
	// line with PowerShell on Windows: the POSIX command line install
	// writes does not parse there, PowerShell exits 1, and the host runs
	// the call. Install refuses such a host on Windows.
	PowerShellOnWindows bool
}

// Layouts of a host's settings.
const (
	// LayoutGroups is Claude Code's: {"hooks": {EVENT: [{"matcher": M,
	// "hooks": [{"type": "command", "command": CMD, "timeout": N}]}]}}
	// (Codex CLI and Gemini CLI too).
	LayoutGroups = ""
	// LayoutFlat is {"version": 1, "hooks": {EVENT: [{CommandKey: CMD,
	// …}]}} (Cursor, Copilot CLI).
	LayoutFlat = "flat"
	// LayoutPlugin is a file of toolgate's own that the host loads
	// (opencode's plugin, OpencodePlugin).
	LayoutPlugin = "plugin"
)

// Scope is one settings file of a host.
type Scope struct {
	// Name is the flag that picks it: user, project, local.
	Name string
	// Help says what it is, for the flag's help.
	Help string
	// Dir is where the file is: "~" the home directory, "project" the
	// project directory, "codex" $CODEX_HOME (else ~/.codex), "copilot"
	// $COPILOT_HOME (else ~/.copilot).
	Dir string
	// File is the file's path under Dir.
	File string
	// Shared files are read by others (a project's checked-in settings):
	// the hook command there is "toolgate" from PATH, not this machine's
	// path to it.
	Shared bool
}

// Adapter translates between a host's hook format and Claude Code's,
// which the hook answers.
type Adapter interface {
	// Input turns the host's hook input into Claude Code's. An input it
	// cannot read is an error; the hook then blocks (exit 2).
	Input(data []byte) ([]byte, error)
	// Answer renders the hook's answer for the host: what to print on
	// stdout and stderr and the exit code.
	Answer(ans *claudecode.Answer) (stdout []byte, stderr string, exit int)
}

// Trusting is implemented by the Adapter of a host that runs only the
// hooks its user has trusted (Codex CLI): install records the trust,
// uninstall takes it back, and doctor checks it, so the hook is never
// installed and then skipped without a word.
type Trusting interface {
	// Trust records that the user trusts toolgate's hooks in the settings
	// file at path, whose content is settings. It returns what it did or
	// what the user must do, for the user.
	Trust(env TrustEnv, path string, settings []byte) (string, error)
	// Untrust takes back the trust of toolgate's hooks in the settings
	// file at path as it was (old), before they were removed.
	Untrust(env TrustEnv, path string, old []byte) error
	// CheckTrust says, for each of toolgate's hooks in the settings file,
	// whether the host runs it and, if not, why; where the host's own
	// program can be asked, it asks it too.
	CheckTrust(ctx context.Context, env TrustEnv, path string, settings []byte) []TrustCheck
}

// TrustEnv is what a Trusting host's methods need from their caller.
type TrustEnv struct {
	// Home is the user's home directory.
	Home string
	// SHA256 is crypto/sha256's Sum256. It is passed in because the lean
	// hook binary, which links this package, must not start the crypto
	// packages on every call (cmd/toolgate-hook's TestLeanDeps).
	SHA256 func([]byte) [32]byte
	// Program is the agent's program for CheckTrust to ask; "" looks for
	// it on PATH.
	Program string
	// GOOS is the system the agent runs on, as runtime.GOOS names it;
	// "" is this one.
	GOOS string
}

// TrustCheck is whether the host runs one of toolgate's hooks.
type TrustCheck struct {
	// Event is the hook's event.
	Event string
	// OK is true when the host runs the hook.
	OK bool
	// Say is what to tell the user: where the trust is, or why the host
	// skips the hook and how to fix it.
	Say string
}

// all is the table of hosts. (Data only: the lean hook binary initialises
// it without running code at start-up.)
var all = [...]Host{
	{
		Name: "claude-code", Title: "Claude Code", Permissions: claudePermissions,
		OnAsk: claudecode.AskPrompt, ShellTool: "Bash", // updatedInput
		ToolEvent: claudecode.EventPreToolUse, PromptEvent: claudecode.EventUserPromptSubmit,
		Events: "PreToolUse (or PermissionRequest), UserPromptSubmit",
		Scopes: []Scope{
			{Name: "user", Help: "~/.claude/settings.json, for every project (the default)", Dir: "~", File: ".claude/settings.json"},
			{Name: "project", Help: ".claude/settings.json of the project, shared with the team (the command is 'toolgate' from PATH)", Dir: "project", File: ".claude/settings.json", Shared: true},
			{Name: "local", Help: ".claude/settings.local.json of the project, this checkout only", Dir: "project", File: ".claude/settings.local.json"},
		},
		// Claude Code runs a command hook with bash or zsh.
		TimeoutUnit: 1, Matcher: "*", ExitWrap: true, OnFailureBlock: true,
	},
	{
		Name: "codex", Title: "Codex CLI", Adapter: codex{}, Permissions: codexPermissions,
		// Codex cannot ask from a hook: a call that needs a human waits
		// for a remote approver.
		OnAsk:     claudecode.AskWait,
		ToolEvent: claudecode.EventPreToolUse, PromptEvent: claudecode.EventUserPromptSubmit,
		Events: "PreToolUse, PermissionRequest, UserPromptSubmit (allow and deny; an ask waits for a remote approver through a gateway, else is a deny)",
		Scopes: []Scope{
			{Name: "user", Help: "$CODEX_HOME/hooks.json (~/.codex/hooks.json), for every project (the default)", Dir: "codex", File: "hooks.json"},
			{Name: "project", Help: ".codex/hooks.json of the project, shared with the team (the command is 'toolgate' from PATH)", Dir: "project", File: ".codex/hooks.json", Shared: true},
		},
		// Codex runs a hook's command with bash, and with PowerShell on
		// Windows.
		TimeoutUnit: 1, Matcher: "*", ExitWrap: true, PowerShellOnWindows: true,
	},
	{
		Name: "gemini", Title: "Gemini CLI", Adapter: gemini{}, Permissions: claudecode.GeminiSettingsFiles,
		OnAsk: claudecode.AskPrompt, ShellTool: "run_shell_command", // hookSpecificOutput.tool_input
		ToolEvent: geminiBeforeTool, PromptEvent: geminiBeforeAgent,
		Events: "BeforeTool (allow, deny, ask), BeforeAgent",
		Scopes: []Scope{
			{Name: "user", Help: "~/.gemini/settings.json, for every project (the default)", Dir: "~", File: ".gemini/settings.json"},
			{Name: "project", Help: ".gemini/settings.json of the project, shared with the team (the command is 'toolgate' from PATH)", Dir: "project", File: ".gemini/settings.json", Shared: true},
		},
		// Gemini CLI's hook timeouts are in milliseconds; its matcher is a
		// regular expression, and none is every tool. It runs a hook's
		// command with bash -c (PowerShell on Windows, where the POSIX
		// command line install writes does not run at all).
		TimeoutUnit: 1000, ExitWrap: true, PowerShellOnWindows: true,
	},
	{
		Name: "cursor", Title: "Cursor", Adapter: cursor{},
		OnAsk:     claudecode.AskPrompt,
		ToolEvent: cursorShell, AlsoEvents: []string{cursorRead, cursorMCP}, PromptEvent: cursorPrompt,
		Events: "beforeShellExecution, beforeReadFile, beforeMCPExecution (allow, deny, ask), beforeSubmitPrompt",
		Scopes: []Scope{
			{Name: "user", Help: "~/.cursor/hooks.json, for every project (the default)", Dir: "~", File: ".cursor/hooks.json"},
			{Name: "project", Help: ".cursor/hooks.json of the project, shared with the team (the command is 'toolgate' from PATH)", Dir: "project", File: ".cursor/hooks.json", Shared: true},
		},
		// Cursor runs a call whose hook failed unless the entry says
		// failClosed.
		Layout: LayoutFlat, CommandKey: "command", FailClosedKey: "failClosed",
	},
	{
		Name: "copilot", Title: "GitHub Copilot CLI", Adapter: copilot{},
		OnAsk:     claudecode.AskPrompt,
		ToolEvent: copilotPreToolUse, PromptEvent: copilotPrompt,
		Events: "preToolUse (allow, deny, ask), userPromptSubmitted",
		Scopes: []Scope{
			{Name: "user", Help: "$COPILOT_HOME/hooks/toolgate.json (~/.copilot/hooks/toolgate.json), for every project (the default)", Dir: "copilot", File: "hooks/toolgate.json"},
			{Name: "project", Help: ".github/hooks/toolgate.json of the repository, shared with the team (the command is 'toolgate' from PATH); Copilot CLI runs it only in a folder the user trusts", Dir: "project", File: ".github/hooks/toolgate.json", Shared: true},
			{Name: "local", Help: ".github/hooks/toolgate.json of the repository, with this machine's path to the hook", Dir: "project", File: ".github/hooks/toolgate.json"},
		},
		TimeoutUnit: 1,
		Layout:      LayoutFlat, Type: "command", CommandKey: "bash", TimeoutKey: "timeoutSec",
	},
	{
		Name: "opencode", Title: "opencode", Adapter: opencode{}, Permissions: claudecode.OpencodeConfigFiles,
		// A plugin cannot ask: a call that needs a human waits for a
		// remote approver. Its answer's args replace the call's.
		OnAsk: claudecode.AskWait, ShellTool: "Bash",
		ToolEvent: opencodeBefore,
		Events:    "tool.execute.before, through a plugin file (allow, deny; an ask waits for a remote approver through a gateway, else is a deny)",
		Scopes: []Scope{
			{Name: "user", Help: "~/.config/opencode/plugins/toolgate.js, for every project (the default)", Dir: "~", File: ".config/opencode/plugins/toolgate.js"},
			{Name: "project", Help: ".opencode/plugins/toolgate.js of the project, shared with the team (the command is 'toolgate' from PATH)", Dir: "project", File: ".opencode/plugins/toolgate.js", Shared: true},
		},
		TimeoutUnit: 1000,
		Layout:      LayoutPlugin,
	},
}

// claudePermissions are Claude Code's permission files: the managed
// settings, the user's, and the project's shared and local ones.
func claudePermissions(projectDir, home string) []claudecode.SettingsFile {
	return claudecode.PermissionFiles(projectDir, home, claudecode.ManagedSettingsPath())
}

// Answer renders the hook's answer for the host: what to print on stdout
// and stderr and the exit code. A host without an Adapter reads Claude
// Code's format, but an input from Codex (which runs Claude Code's hooks
// as well) is answered in what Codex reads.
func (h *Host) Answer(ans *claudecode.Answer) (stdout []byte, stderr string, exit int) {
	switch {
	case h.Adapter != nil:
		return h.Adapter.Answer(ans)
	case ans.TurnID != "":
		return codex{}.Answer(ans)
	case ans.Output != nil:
		return ans.Output.Marshal(), "", claudecode.ExitOK
	}
	return nil, ans.Stderr, ans.Exit
}

// All returns every host, in the table's order.
func All() []*Host {
	hs := make([]*Host, len(all))
	for i := range all {
		hs[i] = &all[i]
	}
	return hs
}

// Names lists the hosts' names.
func Names() []string {
	names := make([]string, len(all))
	for i, h := range all {
		names[i] = h.Name
	}
	return names
}

// Lookup returns the host of a name.
func Lookup(name string) (*Host, error) {
	for i := range all {
		if all[i].Name == name {
			return &all[i], nil
		}
	}
	return nil, fmt.Errorf("unknown host %q (want %s)", name, strings.Join(Names(), ", "))
}

// Scope returns the host's scope of a name; "" is the default.
func (h *Host) Scope(name string) (*Scope, error) {
	if len(h.Scopes) == 0 {
		return nil, fmt.Errorf("%s has no settings file toolgate writes", h.Title)
	}
	if name == "" {
		return &h.Scopes[0], nil
	}
	var names []string
	for i := range h.Scopes {
		if h.Scopes[i].Name == name {
			return &h.Scopes[i], nil
		}
		names = append(names, h.Scopes[i].Name)
	}
	return nil, fmt.Errorf("%s has no %s settings (want %s)", h.Title, name, strings.Join(names, ", "))
}

// IsHookCommand reports whether a hook command line runs toolgate's hook
// for any host (toolgate hook HOST, toolgate-hook HOST), so install
// replaces it and uninstall and doctor find it.
func IsHookCommand(cmd string) bool {
	name, ok := claudecode.HookCommandHost(cmd)
	if !ok {
		return false
	}
	_, err := Lookup(name)
	return err == nil
}

// errNoHome is returned for a user scope without a home directory.
var errNoHome = errors.New("no home directory")

// Path is the settings file of a scope for a project and home directory.
func (s *Scope) Path(project, home string) (string, error) {
	var dir string
	switch s.Dir {
	case "~":
		dir = home
	case "project":
		dir = project
	case "codex":
		dir = os.Getenv("CODEX_HOME")
		if dir == "" && home != "" {
			dir = filepath.Join(home, ".codex")
		}
	case "copilot":
		dir = os.Getenv("COPILOT_HOME")
		if dir == "" && home != "" {
			dir = filepath.Join(home, ".copilot")
		}
	default:
		return "", fmt.Errorf("%s settings: unknown directory %q", s.Name, s.Dir)
	}
	p := filepath.Join(dir, filepath.FromSlash(s.File))
	if dir == "" || !filepath.IsAbs(p) {
		if home == "" {
			return "", fmt.Errorf("%s settings: %w", s.Name, errNoHome)
		}
		return "", fmt.Errorf("%s settings: %q is not an absolute path", s.Name, p)
	}
	return p, nil
}
