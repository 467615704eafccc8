package claudecode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// HookEntry is the hook the installer writes into a settings file:
//
//	{"hooks": {EVENT: [{"matcher": MATCHER, "hooks": [
//	    {"type": "command", "command": COMMAND, "timeout": TIMEOUT}]}]}}
//
// A UserPromptSubmit group has no matcher: the event is not about a tool,
// and Claude Code ignores matchers on it.
type HookEntry struct {
	// Event is PreToolUse (default), PermissionRequest or
	// UserPromptSubmit.
	Event string
	// Matcher selects the tools; "*" (default) is every tool. Not used
	// with UserPromptSubmit.
	Matcher string
	// Command is the command line the agent runs (through a shell).
	Command string
	// Timeout is the agent's timeout for the hook, in seconds. It must
	// outlast the hook's own deadline: an agent that kills a hook goes on
	// without it.
	Timeout int
	// OnFailure, if set, is written as the entry's "onFailure": Claude
	// Code's "block" blocks the call when the hook times out or cannot be
	// run, where without it Claude Code runs the call.
	OnFailure string
}

// Scopes of a settings file (Claude Code's settings hierarchy).
const (
	// ScopeUser is ~/.claude/settings.json: every project of this user.
	ScopeUser = "user"
	// ScopeProject is .claude/settings.json, shared with the team.
	ScopeProject = "project"
	// ScopeLocal is .claude/settings.local.json, this checkout only.
	ScopeLocal = "local"
)

// SettingsPath is the settings file of a scope.
func SettingsPath(scope, projectDir, home string) (string, error) {
	switch scope {
	case ScopeUser:
		if home == "" {
			return "", errors.New("no home directory for the user settings")
		}
		return filepath.Join(home, ".claude", "settings.json"), nil
	case ScopeProject:
		return filepath.Join(projectDir, ".claude", "settings.json"), nil
	case ScopeLocal:
		return filepath.Join(projectDir, ".claude", "settings.local.json"), nil
	}
	return "", fmt.Errorf("unknown settings scope %q (want user, project or local)", scope)
}

// IsToolgateCommand reports whether a hook command runs toolgate's hook,
// so reinstalling replaces it instead of adding a second one: an
// executable named toolgate* (quoted or not) followed by "hook claude-code"
// or "hook codex", or the lean hook binary toolgate-hook followed by
// "claude-code" or "codex".
func IsToolgateCommand(cmd string) bool {
	host, ok := HookCommandHost(cmd)
	return ok && (host == "claude-code" || host == "codex")
}

// HookCommandHost reads a hook command line as toolgate's hook: an
// executable named toolgate* (quoted or not) followed by "hook HOST", or
// the lean hook binary toolgate-hook followed by "HOST". It returns the
// host name as written; ok is false for any other command.
func HookCommandHost(cmd string) (host string, ok bool) {
	exe, rest := FirstWord(strings.TrimSpace(cmd))
	base := filepath.Base(exe)
	next, rest := FirstWord(rest)
	switch {
	case base == "toolgate-hook":
		host = next
	case strings.HasPrefix(base, "toolgate") && next == "hook":
		host, _ = FirstWord(rest)
	default:
		return "", false
	}
	if host == "" || strings.HasPrefix(host, "-") || strings.ContainsAny(host, `'"\`) {
		return "", false
	}
	return host, true
}

// FirstWord splits the first word of a POSIX shell command line off,
// with its quotes removed (single, double, and a backslash before a
// character, which covers the escaped quote shellQuote writes).
func FirstWord(s string) (word, rest string) {
	s = strings.TrimLeft(s, " \t")
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t':
			return b.String(), s[i:]
		case '\'', '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return b.String() + s[i+1:], ""
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case '\\':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), ""
}

// MergeSettings adds the hook entry to a settings document, keeping
// everything else: other keys in their order, other events, other hooks of
// the same event. A toolgate hook already there is updated in place, so
// installing twice changes nothing (changed is false). src may be empty
// (no file yet). The result is indented with two spaces, as Claude Code
// writes its settings.
func MergeSettings(src []byte, e HookEntry) (out []byte, changed bool, err error) {
	if e.Event == "" {
		e.Event = EventPreToolUse
	}
	prompt := e.Event == EventUserPromptSubmit
	if !supported(e.Event) {
		return nil, false, fmt.Errorf("event %q: want %s, %s or %s", e.Event, EventPreToolUse, EventPermissionRequest, EventUserPromptSubmit)
	}
	switch {
	case prompt:
		e.Matcher = ""
	case e.Matcher == "":
		e.Matcher = "*"
	}
	return MergeHooks(src, e, IsToolgateCommand)
}

// MergeHooks adds a hook entry to a settings document laid out as Claude
// Code's "hooks" (Codex's hooks.json and Gemini CLI's settings.json use
// the same layout), keeping everything else. A hook whose command ours
// reports as toolgate's is updated in place. An entry with no Matcher
// makes a group without one (prompt events), whose matcher, if the user
// set one, is left alone. e.Timeout is written as given, in the file's
// unit, and e.OnFailure as given.
func MergeHooks(src []byte, e HookEntry, ours func(cmd string) bool) (out []byte, changed bool, err error) {
	prompt := e.Matcher == ""
	if strings.TrimSpace(e.Command) == "" {
		return nil, false, errors.New("no hook command")
	}
	root, err := decodeRoot(src)
	if err != nil {
		return nil, false, err
	}
	hooks, err := root.objectAt("hooks")
	if err != nil {
		return nil, false, err
	}
	groups, _ := hooks.get(e.Event)
	list, ok := groups.([]any)
	if groups != nil && !ok {
		return nil, false, fmt.Errorf(`"hooks.%s" is not a list`, e.Event)
	}
	want := &object{}
	want.set("type", "command")
	want.set("command", e.Command)
	if e.Timeout > 0 {
		want.set("timeout", json.Number(fmt.Sprint(e.Timeout)))
	}
	if e.OnFailure != "" {
		want.set("onFailure", e.OnFailure)
	}
	for _, g := range list {
		group, ok := g.(*object)
		if !ok {
			continue
		}
		hs, _ := group.get("hooks")
		entries, _ := hs.([]any)
		for i, h := range entries {
			ho, ok := h.(*object)
			if !ok {
				continue
			}
			cmd, _ := ho.get("command")
			if s, _ := cmd.(string); !ours(s) {
				continue
			}
			matcher, _ := group.get("matcher")
			// A prompt group's matcher is the user's business (Claude
			// Code ignores it); a tool group of toolgate's alone gets the
			// matcher asked for.
			if equalJSON(ho, want) && (prompt || len(entries) > 1 || matcher == e.Matcher) {
				return encodeOrdered(root), false, nil
			}
			entries[i] = want
			if !prompt && len(entries) == 1 {
				group.set("matcher", e.Matcher)
			}
			return encodeOrdered(root), true, nil
		}
	}
	group := &object{}
	if !prompt {
		group.set("matcher", e.Matcher)
	}
	group.set("hooks", []any{want})
	hooks.set(e.Event, append(list, group))
	return encodeOrdered(root), true, nil
}

// decodeRoot decodes a settings document; empty is an empty object.
func decodeRoot(src []byte) (*object, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return &object{}, nil
	}
	v, err := decodeOrdered(src)
	if err != nil {
		return nil, fmt.Errorf("settings are not valid JSON (fix or move the file; nothing was changed): %w", err)
	}
	root, ok := v.(*object)
	if !ok {
		return nil, errors.New("settings are not a JSON object")
	}
	return root, nil
}

// FoundHook is a toolgate hook found in a settings document.
type FoundHook struct {
	Event, Command string
}

// RemoveHooks takes every hook whose command ours reports as toolgate's
// out of a settings document laid out as MergeHooks or MergeFlatHooks
// writes, and the groups and events left empty by that; everything else
// stays as it was. removed lists what was taken out; with none, out is src
// unchanged.
func RemoveHooks(src []byte, ours func(cmd string) bool) (out []byte, removed []FoundHook, err error) {
	root, err := decodeRoot(src)
	if err != nil {
		return nil, nil, err
	}
	hv, _ := root.get("hooks")
	hooks, ok := hv.(*object)
	if !ok {
		return src, nil, nil
	}
	// isOurs reports a hook entry of toolgate's: its command is under
	// "command" (Claude Code, Codex, Gemini CLI, Cursor) or "bash"
	// (Copilot CLI).
	isOurs := func(event string, h any) bool {
		ho, ok := h.(*object)
		if !ok {
			return false
		}
		for _, k := range []string{"command", "bash"} {
			cmd, _ := ho.get(k)
			if s, _ := cmd.(string); ours(s) {
				removed = append(removed, FoundHook{Event: event, Command: s})
				return true
			}
		}
		return false
	}
	for _, event := range append([]string(nil), hooks.keys...) {
		groups, _ := hooks.vals[event].([]any)
		var keptGroups []any
		for _, g := range groups {
			if isOurs(event, g) {
				continue // a flat entry
			}
			group, ok := g.(*object)
			if !ok {
				keptGroups = append(keptGroups, g)
				continue
			}
			hs, _ := group.get("hooks")
			entries, ok := hs.([]any)
			if !ok {
				keptGroups = append(keptGroups, g)
				continue
			}
			var kept []any
			for _, h := range entries {
				if !isOurs(event, h) {
					kept = append(kept, h)
				}
			}
			if len(kept) == len(entries) {
				keptGroups = append(keptGroups, g)
				continue
			}
			if len(kept) > 0 {
				group.set("hooks", kept)
				keptGroups = append(keptGroups, group)
			}
		}
		if len(groups) > 0 && len(keptGroups) == 0 {
			hooks.remove(event)
		} else if len(keptGroups) != len(groups) {
			hooks.set(event, keptGroups)
		}
	}
	if len(removed) == 0 {
		return src, nil, nil
	}
	if len(hooks.keys) == 0 {
		root.remove("hooks")
	}
	return encodeOrdered(root), removed, nil
}

// Field is one key and value of a hook entry, in the order written.
type Field struct {
	Key   string
	Value any
}

// MergeFlatHooks adds a hook entry to a document in the flat layout of
// Cursor's hooks.json and Copilot CLI's hook files, {"version": 1,
// "hooks": {EVENT: [ENTRY, …]}}, keeping everything else. The entry's
// fields are written in order; a string under "command" or "bash" is its
// command. An entry of toolgate's already there (ours) is updated in
// place, so installing twice changes nothing.
func MergeFlatHooks(src []byte, event string, fields []Field, ours func(cmd string) bool) (out []byte, changed bool, err error) {
	root, err := decodeRoot(src)
	if err != nil {
		return nil, false, err
	}
	if _, ok := root.get("version"); !ok {
		root.set("version", json.Number("1"))
	}
	hooks, err := root.objectAt("hooks")
	if err != nil {
		return nil, false, err
	}
	want := &object{}
	for _, f := range fields {
		if n, ok := f.Value.(int); ok {
			f.Value = json.Number(fmt.Sprint(n))
		}
		want.set(f.Key, f.Value)
	}
	v, _ := hooks.get(event)
	list, ok := v.([]any)
	if v != nil && !ok {
		return nil, false, fmt.Errorf(`"hooks.%s" is not a list`, event)
	}
	for i, h := range list {
		ho, ok := h.(*object)
		if !ok {
			continue
		}
		for _, k := range []string{"command", "bash"} {
			cmd, _ := ho.get(k)
			if s, _ := cmd.(string); !ours(s) {
				continue
			}
			if equalJSON(ho, want) {
				return encodeOrdered(root), false, nil
			}
			list[i] = want
			return encodeOrdered(root), true, nil
		}
	}
	hooks.set(event, append(list, want))
	return encodeOrdered(root), true, nil
}

// WriteSettings writes a settings file in place of the old one, atomically
// (a temporary file renamed over it), keeping its permissions and writing
// through a symbolic link to its target.
func WriteSettings(path string, data []byte) error {
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, ".settings-*.json")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if err := f.Close(); werr == nil {
		werr = err
	}
	if werr == nil {
		werr = os.Chmod(tmp, mode)
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, werr)
	}
	return nil
}

// ReadSettings reads a settings file; a missing file is empty.
func ReadSettings(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read settings: %w", err)
	}
	return data, nil
}

// object is a JSON object that keeps its keys in order, so a settings file
// comes back with its keys where the user put them.
type object struct {
	keys []string
	vals map[string]any
}

func (o *object) get(k string) (any, bool) {
	v, ok := o.vals[k]
	return v, ok
}

func (o *object) set(k string, v any) {
	if o.vals == nil {
		o.vals = map[string]any{}
	}
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *object) remove(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	o.keys = slices.DeleteFunc(o.keys, func(s string) bool { return s == k })
}

// objectAt returns the object under key k, adding an empty one if absent.
func (o *object) objectAt(k string) (*object, error) {
	v, ok := o.get(k)
	if !ok || v == nil {
		n := &object{}
		o.set(k, n)
		return n, nil
	}
	n, ok := v.(*object)
	if !ok {
		return nil, fmt.Errorf("%q in the settings is not an object", k)
	}
	return n, nil
}

// decodeOrdered decodes one JSON value: objects as *object, arrays as
// []any, numbers as json.Number (kept as written).
func decodeOrdered(src []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("more than one JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t {
	case json.Delim('{'):
		o := &object{vals: map[string]any{}}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, _ := kt.(string)
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			o.set(k, v)
		}
		_, err := dec.Token() // '}'
		return o, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token() // ']'
		return a, err
	}
	return t, nil
}

// encodeOrdered encodes a decoded value with two-space indentation and a
// final newline.
func encodeOrdered(v any) []byte {
	var b bytes.Buffer
	writeValue(&b, v, 0)
	b.WriteByte('\n')
	return b.Bytes()
}

func writeValue(b *bytes.Buffer, v any, depth int) {
	indent := func(d int) {
		b.WriteByte('\n')
		b.WriteString(strings.Repeat("  ", d))
	}
	switch v := v.(type) {
	case *object:
		if len(v.keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			indent(depth + 1)
			writeString(b, k)
			b.WriteString(": ")
			writeValue(b, v.vals[k], depth+1)
		}
		indent(depth)
		b.WriteByte('}')
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			indent(depth + 1)
			writeValue(b, e, depth+1)
		}
		indent(depth)
		b.WriteByte(']')
	case string:
		writeString(b, v)
	case json.Number:
		b.WriteString(v.String())
	case bool:
		fmt.Fprint(b, v)
	case nil:
		b.WriteString("null")
	default:
		data, _ := json.Marshal(v)
		b.Write(data)
	}
}

func writeString(b *bytes.Buffer, s string) {
	var sb bytes.Buffer
	enc := json.NewEncoder(&sb)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.Write(bytes.TrimSuffix(sb.Bytes(), []byte("\n")))
}

// equalJSON compares two decoded values.
func equalJSON(a, b any) bool {
	return bytes.Equal(encodeOrdered(a), encodeOrdered(b))
}
