package hosts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"time"

	"github.com/toolgate/toolgate/integrations/claudecode"
)

// TimeoutSlack is what the agent's timeout for the hook adds to the
// hook's own deadline: an agent goes on without a hook it killed, so it
// must never kill one that is about to answer.
const TimeoutSlack = 30 * time.Second

// Timeout is the agent's timeout for a hook whose own deadline is d, in
// the settings file's unit; 0 when the host's files carry none.
func (h *Host) Timeout(d time.Duration) int {
	return int(math.Ceil((d + TimeoutSlack).Seconds())) * h.TimeoutUnit
}

// Entries are the hooks install writes for a hook command line: on the
// tool event (event, or the host's; matcher for hosts that match) and the
// host's other tool events with the deadline tool, and on the prompt
// event with the deadline prompt.
func (h *Host) Entries(cmdline, event, matcher string, tool, prompt time.Duration) []claudecode.HookEntry {
	if event == "" {
		event = h.ToolEvent
	}
	if h.Layout == LayoutGroups && h.Matcher == "" && matcher == "" {
		matcher = ".*" // a tool group without a matcher reads as a prompt group
	}
	toolCmd := cmdline
	if h.ExitWrap {
		toolCmd = FailClosed(cmdline)
	}
	var onFailure string
	if h.OnFailureBlock {
		onFailure = onFailureBlock
	}
	var es []claudecode.HookEntry
	for _, ev := range append([]string{event}, h.AlsoEvents...) {
		es = append(es, claudecode.HookEntry{Event: ev, Matcher: matcher, Command: toolCmd, Timeout: h.Timeout(tool), OnFailure: onFailure})
	}
	if h.PromptEvent != "" {
		es = append(es, claudecode.HookEntry{Event: h.PromptEvent, Command: cmdline, Timeout: h.Timeout(prompt)})
	}
	return es
}

// failClosedTail is what FailClosed appends to a hook command line. A
// status of 2 is the hook's own block, whose reason it wrote to stderr:
// it is kept as it is. Any other failure (1, a signal's 128+N, a missing
// binary's 127) becomes exit 2 with the reason below; exit 0 and its
// output are untouched.
const failClosedTail = ` || { s=$?; [ "$s" -eq 2 ] || echo "toolgate: the hook failed (exit status $s), so the call is blocked" >&2; exit 2; }`

// FailClosed is a hook command line (a simple command of quoted words,
// as install writes it) made to exit 2, a block, whenever the hook fails,
// for a POSIX shell to run: the command line of an ExitWrap host's tool
// events.
func FailClosed(cmdline string) string {
	return cmdline + failClosedTail
}

// IsFailClosed reports whether a hook command line is one FailClosed
// made: toolgate's hook as words quoted as install quotes them, then
// FailClosed's tail. A line that only ends like one ("HOOK || true ||
// { …; }", "HOOK; :  || { …; }") runs the call when the hook fails.
func IsFailClosed(cmd string) bool {
	hook, ok := strings.CutSuffix(strings.TrimSpace(cmd), failClosedTail)
	return ok && quotedWords(hook) && IsHookCommand(hook)
}

// quotedWords reports whether s is only words a POSIX shell reads as
// plain text: letters, digits and -_./:=@%+, bare, anything inside single
// quotes, and a backslash before any character but a line break; words
// are split by blanks. No operator, expansion or redirection.
func quotedWords(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return false
			}
			i += j + 1
		case c == '\\':
			if i+1 == len(s) || s[i+1] == '\n' {
				return false
			}
			i++
		case c == ' ' || c == '\t' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			strings.IndexByte("-_./:=@%+,", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// Merge writes hook entries into a settings file's content, keeping
// everything else; changed is false when they were there already. A
// plugin file is toolgate's own: its content is replaced whole, and
// one that is someone else's is left alone.
func (h *Host) Merge(src []byte, entries []claudecode.HookEntry) (out []byte, changed bool, err error) {
	out = src
	switch h.Layout {
	case LayoutPlugin:
		if len(src) > 0 {
			if _, ok := OpencodePluginCommand(src); !ok {
				return nil, false, errors.New("the file is not toolgate's plugin: move it, and install again")
			}
		}
		e := entries[0]
		out = OpencodePlugin(e.Command, e.Timeout)
		return out, string(out) != string(src), nil
	case LayoutFlat:
		for _, e := range entries {
			var fields []claudecode.Field
			if h.Type != "" {
				fields = append(fields, claudecode.Field{Key: "type", Value: h.Type})
			}
			fields = append(fields, claudecode.Field{Key: h.CommandKey, Value: e.Command})
			if h.TimeoutKey != "" && h.TimeoutUnit > 0 {
				fields = append(fields, claudecode.Field{Key: h.TimeoutKey, Value: e.Timeout})
			}
			if h.FailClosedKey != "" && e.Event != h.PromptEvent {
				fields = append(fields, claudecode.Field{Key: h.FailClosedKey, Value: true})
			}
			var c bool
			if out, c, err = claudecode.MergeFlatHooks(out, e.Event, fields, IsHookCommand); err != nil {
				return nil, false, err
			}
			changed = changed || c
		}
		return out, changed, nil
	}
	for _, e := range entries {
		var c bool
		if h.Name == "claude-code" {
			out, c, err = claudecode.MergeSettings(out, e)
		} else {
			out, c, err = claudecode.MergeHooks(out, e, IsHookCommand)
		}
		if err != nil {
			return nil, false, err
		}
		changed = changed || c
	}
	return out, changed, nil
}

// Remove takes toolgate's hooks out of a settings file's content. For a
// plugin file of toolgate's, out is nil: the file goes.
func (h *Host) Remove(src []byte) (out []byte, removed []claudecode.FoundHook, err error) {
	if h.Layout == LayoutPlugin {
		cmd, ok := OpencodePluginCommand(src)
		if !ok {
			return src, nil, nil
		}
		return nil, []claudecode.FoundHook{{Event: h.ToolEvent, Command: cmd}}, nil
	}
	return claudecode.RemoveHooks(src, IsHookCommand)
}

// Find lists toolgate's hooks in a settings file's content.
func (h *Host) Find(src []byte) ([]claudecode.FoundHook, error) {
	_, found, err := h.Remove(src)
	if err != nil {
		return nil, fmt.Errorf("%s cannot read its hooks: %w", h.Title, err)
	}
	return found, nil
}

// Installed is what Install did.
type Installed struct {
	// Settings is the settings file's content with the hooks in it.
	Settings []byte
	// Changed is false when the hooks were there already, and the file
	// was left as it was.
	Changed bool
	// Trust is what a Trusting host's Trust did or asks of the user; ""
	// for other hosts.
	Trust string
}

// InstallError is a hook Install cannot install as asked: the settings
// file cannot take it, or the host would skip it because it cannot be
// trusted. The user must fix the file or the host's config.
type InstallError struct{ Err error }

func (e *InstallError) Error() string { return e.Err.Error() }
func (e *InstallError) Unwrap() error { return e.Err }

// Install is what "toolgate hook install HOST" does to the host's
// settings file at path: it merges entries into it, keeping everything
// else, writes it if that changed anything, and trusts the hooks where
// the host runs only trusted ones (a Trusting host), so the hook is never
// installed only to be skipped. When the hooks are in the file but cannot
// be trusted, Installed says what was written and the error is an
// InstallError; after any other error nothing was installed and
// Installed is zero.
func (h *Host) Install(env TrustEnv, path string, entries []claudecode.HookEntry) (Installed, error) {
	goos := env.GOOS
	if goos == "" {
		goos = runtime.GOOS
	}
	if h.PowerShellOnWindows && goos == "windows" {
		return Installed{}, &InstallError{fmt.Errorf("%s runs its hooks with PowerShell on Windows, where toolgate's hook command line does not run and %s would run every call: not installed", h.Title, h.Title)}
	}
	src, err := claudecode.ReadSettings(path)
	if err != nil {
		return Installed{}, err
	}
	out, changed, err := h.Merge(src, entries)
	if err != nil {
		return Installed{}, &InstallError{fmt.Errorf("%s: %w", path, err)}
	}
	inst := Installed{Settings: out, Changed: changed}
	if changed {
		if err := claudecode.WriteSettings(path, out); err != nil {
			return Installed{}, err
		}
	}
	if t, ok := h.Adapter.(Trusting); ok {
		if inst.Trust, err = t.Trust(env, path, out); err != nil {
			return inst, &InstallError{fmt.Errorf("the hook is in %s, but %s will skip it until it is trusted: %w", path, h.Title, err)}
		}
	}
	return inst, nil
}

// onFailureBlock is the "onFailure" of an OnFailureBlock host's tool
// event entries.
const onFailureBlock = "block"

// OpenOnTimeout lists the tool events (ToolEvent, AlsoEvents) of an
// OnFailureBlock host's settings file content whose toolgate hook does
// not say "onFailure": "block" (one written by hand or by an older
// install), so the host runs the call when it kills the hook at its
// timeout; nil for other hosts. Claude Code's PermissionRequest is not
// one: a hook killed there leaves the call to Claude Code's own prompt.
func (h *Host) OpenOnTimeout(src []byte) ([]string, error) {
	if !h.OnFailureBlock || h.Layout != LayoutGroups {
		return nil, nil
	}
	var file struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Command   string `json:"command"`
				OnFailure string `json:"onFailure"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(src, &file); err != nil {
		return nil, fmt.Errorf("%s cannot read its hooks: %w", h.Title, err)
	}
	var open []string
	for _, ev := range append([]string{h.ToolEvent}, h.AlsoEvents...) {
		for _, g := range file.Hooks[ev] {
			for _, e := range g.Hooks {
				if IsHookCommand(e.Command) && e.OnFailure != onFailureBlock {
					open = append(open, ev)
				}
			}
		}
	}
	return open, nil
}

// OpenOnFailure lists the tool events of a settings file's content whose
// toolgate hook the host runs the call after when the hook fails (one
// written by hand or by an older install): for a LayoutFlat host with a
// FailClosedKey, an entry without it set true; for an ExitWrap host, a
// command that is not FailClosed's.
func (h *Host) OpenOnFailure(src []byte) ([]string, error) {
	if h.ExitWrap {
		found, err := h.Find(src)
		if err != nil {
			return nil, err
		}
		var open []string
		for _, f := range found {
			if f.Event != h.PromptEvent && !IsFailClosed(f.Command) {
				open = append(open, f.Event)
			}
		}
		return open, nil
	}
	if h.FailClosedKey == "" || h.Layout != LayoutFlat {
		return nil, nil
	}
	var file struct {
		Hooks map[string][]map[string]json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(src, &file); err != nil {
		return nil, fmt.Errorf("%s cannot read its hooks: %w", h.Title, err)
	}
	var open []string
	for _, ev := range append([]string{h.ToolEvent}, h.AlsoEvents...) {
		for _, e := range file.Hooks[ev] {
			var cmd string
			if json.Unmarshal(e[h.CommandKey], &cmd) != nil || !IsHookCommand(cmd) {
				continue
			}
			if string(bytes.TrimSpace(e[h.FailClosedKey])) != "true" {
				open = append(open, ev)
			}
		}
	}
	return open, nil
}
