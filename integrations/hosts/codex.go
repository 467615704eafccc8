package hosts

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toolgate/toolgate/integrations/claudecode"
)

// Codex CLI runs a hook of a user's or project's hooks.json only once the
// user has trusted it: Codex keeps, in the user's config.toml,
//
//	[hooks.state."PATH:EVENT:GROUP:HANDLER"]
//	trusted_hash = "sha256:HEX"
//
// for each handler, keyed by the hooks.json's path, the event's label
// (pre_tool_use, …) and the handler's place, and skips an untrusted or
// changed hook without a word: the call then runs ungated. HEX is the
// SHA-256 of the handler's normalized identity as compact JSON with its
// keys sorted: {"event_name": LABEL, "matcher": M (left out for events
// without matchers), "hooks": [{"type": "command", "command": C,
// "timeout": SECONDS, "async": false}]} (openai/codex
// codex-rs/hooks/src/engine/discovery.rs, command_hook_hash, and
// codex-rs/config/src/fingerprint.rs, version_for_toml; the real-agent
// test TestCodexCLI runs the pinned Codex on what install writes).
// "enabled = false" in the same table turns a hook off.

// codexTrustedHash is the key of a hook's trust in its [hooks.state] table.
const codexTrustedHash = "trusted_hash"

// codexEventLabels are Codex's labels of the events toolgate hooks, and
// whether the event takes a matcher.
var codexEventLabels = map[string]struct {
	label   string
	matcher bool
}{
	claudecode.EventPreToolUse:        {"pre_tool_use", true},
	claudecode.EventPermissionRequest: {"permission_request", true},
	claudecode.EventUserPromptSubmit:  {"user_prompt_submit", false},
}

// CodexHook is one of toolgate's hooks in a Codex hooks.json, named as
// Codex names it for trust.
type CodexHook struct {
	// Event and Command are the hook's event and command line.
	Event, Command string
	// Key is the hook's key under [hooks.state] in config.toml.
	Key string
	// Hash is what Codex's trusted_hash must be for the hook to run; ""
	// when the entry has fields toolgate does not write (it was edited by
	// hand), whose hash only Codex can tell.
	Hash string
}

// codexHooks lists toolgate's hooks in a hooks.json's content, keyed for
// the file at keyPath (the path as Codex names it).
func codexHooks(keyPath string, src []byte, sum func([]byte) [32]byte) ([]CodexHook, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return nil, nil
	}
	var file struct {
		Hooks map[string][]struct {
			Matcher *string                      `json:"matcher"`
			Hooks   []map[string]json.RawMessage `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(src, &file); err != nil {
		return nil, fmt.Errorf("read hooks.json: %w", err)
	}
	var out []CodexHook
	for _, event := range slices.Sorted(func(yield func(string) bool) {
		for e := range file.Hooks {
			if !yield(e) {
				return
			}
		}
	}) {
		for g, group := range file.Hooks[event] {
			for h, handler := range group.Hooks {
				var cmd string
				if json.Unmarshal(handler["command"], &cmd) != nil || !IsHookCommand(cmd) {
					continue
				}
				ev, known := codexEventLabels[event]
				if !known {
					continue
				}
				hook := CodexHook{Event: event, Command: cmd,
					Key: keyPath + ":" + ev.label + ":" + strconv.Itoa(g) + ":" + strconv.Itoa(h)}
				hook.Hash = codexHash(ev.label, ev.matcher, group.Matcher, handler, sum)
				out = append(out, hook)
			}
		}
	}
	return out, nil
}

// codexHash is Codex's trust hash of a command handler as toolgate writes
// it ("type", "command", "timeout"; "async" false), or "" for a handler
// with anything else or a matcher Codex would normalise.
func codexHash(label string, takesMatcher bool, matcher *string, handler map[string]json.RawMessage, sum256 func([]byte) [32]byte) string {
	var typ, cmd string
	var timeout uint64
	if json.Unmarshal(handler["type"], &typ) != nil || typ != "command" ||
		json.Unmarshal(handler["command"], &cmd) != nil || json.Unmarshal(handler["timeout"], &timeout) != nil || timeout < 1 {
		return ""
	}
	for k, v := range handler {
		switch k {
		case "type", "command", "timeout":
		case "async":
			if string(bytes.TrimSpace(v)) != "false" {
				return ""
			}
		default:
			return ""
		}
	}
	// The identity's keys in sorted order: event_name, hooks, matcher.
	b := []byte(`{"event_name":`)
	b = appendBasicString(b, label)
	b = append(b, `,"hooks":[{"async":false,"command":`...)
	b = appendBasicString(b, cmd)
	b = append(b, `,"timeout":`...)
	b = strconv.AppendUint(b, timeout, 10)
	b = append(b, `,"type":"command"}]`...)
	if takesMatcher && matcher != nil {
		if *matcher == "" || strings.TrimSpace(*matcher) != *matcher {
			return "" // normalised differently by Codex versions
		}
		b = appendBasicString(append(b, `,"matcher":`...), *matcher)
	}
	sum := sum256(append(b, '}'))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// appendBasicString appends s as a JSON string the way Rust's serde_json
// writes it: quote, backslash and control characters escaped, everything
// else as it is. That is a TOML basic string too.
func appendBasicString(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\b':
			b = append(b, '\\', 'b')
		case c == '\f':
			b = append(b, '\\', 'f')
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// codexState is a hook's [hooks.state] table in config.toml.
type codexState struct {
	trustedHash string
	disabled    bool
}

// codexTableHeader reads a line that opens a table, [hooks.state."KEY"],
// as Codex writes it; ok is false for any other line.
func codexTableHeader(line string) (key string, ok bool) {
	line = strings.TrimSpace(line)
	rest, found := strings.CutPrefix(line, "[hooks.state.")
	if !found || strings.HasPrefix(line, "[[") {
		return "", false
	}
	rest, found = strings.CutSuffix(rest, "]")
	if !found {
		return "", false
	}
	if k, err := strconv.Unquote(strings.TrimSpace(rest)); err == nil && strings.HasPrefix(strings.TrimSpace(rest), `"`) {
		return k, true
	}
	return "", false
}

// codexStates reads the [hooks.state."KEY"] tables of a config.toml: the
// subset of TOML Codex writes there (a basic-string key, trusted_hash as
// a basic string, enabled as a boolean).
func codexStates(config []byte) map[string]codexState {
	states := map[string]codexState{}
	key, in := "", false
	for _, line := range strings.Split(string(config), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			key, in = codexTableHeader(t)
			continue
		}
		if !in {
			continue
		}
		name, value, ok := strings.Cut(t, "=")
		if !ok {
			continue
		}
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		s := states[key]
		switch name {
		case codexTrustedHash:
			if q, err := strconv.QuotedPrefix(value); err == nil && strings.HasPrefix(q, `"`) {
				s.trustedHash, _ = strconv.Unquote(q)
			}
		case "enabled":
			v, _, _ := strings.Cut(value, "#")
			s.disabled = strings.TrimSpace(v) == "false"
		}
		states[key] = s
	}
	return states
}

// errCodexConfig is a config.toml whose hook state toolgate does not
// edit: one that holds it in a form other than the tables Codex writes.
var errCodexConfig = errors.New("config.toml keeps hook state in a form toolgate does not edit")

// codexTrust writes the trust of hooks into a config.toml's content: a
// [hooks.state."KEY"] table with the hook's hash for each, replacing the
// one there, and everything else kept as it was.
func codexTrust(config []byte, hooks []CodexHook) ([]byte, error) {
	out, err := codexDropTables(config, hooks, false)
	if err != nil {
		return nil, err
	}
	for _, h := range hooks {
		if len(out) > 0 {
			out = append(out, '\n')
		}
		out = append(out, "[hooks.state."...)
		out = appendBasicString(out, h.Key)
		out = append(out, "]\n"+codexTrustedHash+" = "...)
		out = appendBasicString(out, h.Hash)
		out = append(out, '\n')
	}
	return out, nil
}

// codexDropTables takes the [hooks.state."KEY"] tables of hooks out of a
// config.toml's content; onlyOurs keeps a table whose trusted_hash is not
// the hook's (a hook of someone else's now at that place). It refuses a
// config that keeps hook state in another form (an inline table, dotted
// keys), which a table added after it would contradict.
func codexDropTables(config []byte, hooks []CodexHook, onlyOurs bool) ([]byte, error) {
	drop := map[string]string{}
	for _, h := range hooks {
		drop[h.Key] = h.Hash
	}
	states := codexStates(config)
	var out strings.Builder
	section, dropping := "", false
	for _, line := range strings.SplitAfter(string(config), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			section = strings.Join(strings.Fields(t), "")
			key, ok := codexTableHeader(t)
			hash, ours := drop[key]
			dropping = ok && ours && (!onlyOurs || states[key].trustedHash == hash)
		} else if !dropping {
			name, _, _ := strings.Cut(t, "=")
			name = strings.Join(strings.Fields(name), "")
			if section == "" && (name == "hooks" || strings.HasPrefix(name, "hooks.state")) ||
				section == "[hooks]" && (name == "state" || strings.HasPrefix(name, "state.")) {
				return nil, fmt.Errorf("%w: %s", errCodexConfig, t)
			}
			for k := range drop {
				quoted := string(appendBasicString(nil, k))
				if strings.Contains(line, k) || strings.Contains(line, quoted[1:len(quoted)-1]) {
					return nil, fmt.Errorf("%w: %s", errCodexConfig, t)
				}
			}
		}
		if !dropping {
			out.WriteString(line)
		}
	}
	b := bytes.TrimRight([]byte(out.String()), "\n\t ")
	if len(b) > 0 {
		b = append(b, '\n')
	}
	return b, nil
}

// codexHooksOff reports a config.toml that turns Codex's hooks off
// ([features] hooks = false; codex_hooks in Codex versions where hooks
// were experimental).
func codexHooksOff(config []byte) bool {
	section := ""
	for _, line := range strings.Split(string(config), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			section = strings.Join(strings.Fields(t), "")
			continue
		}
		name, value, ok := strings.Cut(t, "=")
		if !ok {
			continue
		}
		name = strings.Join(strings.Fields(name), "")
		value, _, _ = strings.Cut(value, "#")
		if strings.TrimSpace(value) != "false" {
			continue
		}
		if section == "[features]" && (name == "hooks" || name == "codex_hooks") ||
			section == "" && (name == "features.hooks" || name == "features.codex_hooks") {
			return true
		}
	}
	return false
}

// CodexHome is the directory Codex keeps its config in: $CODEX_HOME (as
// Codex reads it, with symbolic links resolved), else ~/.codex.
func CodexHome(home string) string {
	if d := os.Getenv("CODEX_HOME"); d != "" {
		if r, err := filepath.EvalSymlinks(d); err == nil {
			return r
		}
		return d
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".codex")
}

// codex adapts Codex CLI's hooks.
type codex struct{}

// codexPermissions are Codex's rules files, $CODEX_HOME/rules/*.rules (a
// project's .codex/rules are left out: Codex loads them only in a project
// the user trusts, which toolgate cannot see).
func codexPermissions(_, home string) []claudecode.SettingsFile {
	return claudecode.CodexRuleFiles(CodexHome(home))
}

// codexKeyPath is a hooks.json's path as Codex names it in trust keys: a
// user's under Codex's home as Codex resolves it, a project's as it is.
func codexKeyPath(path, home string) (keyPath string, user bool) {
	dir := os.Getenv("CODEX_HOME")
	if dir == "" && home != "" {
		dir = filepath.Join(home, ".codex")
	}
	if dir != "" && filepath.Dir(path) == filepath.Clean(dir) {
		return filepath.Join(CodexHome(home), filepath.Base(path)), true
	}
	return path, false
}

// codexTrustHow tells the user how to trust a hook in Codex itself.
const codexTrustHow = "start codex, open /hooks and trust the toolgate hook"

// Trust implements Trusting: for the user's hooks.json it writes the
// trusted_hash of each of toolgate's hooks into Codex's config.toml, as
// trusting them in Codex's /hooks does. A project's hooks.json is left to
// each user of the project to trust in Codex, which also runs a
// project's hooks only in a project it trusts.
func (codex) Trust(env TrustEnv, path string, settings []byte) (string, error) {
	home := env.Home
	keyPath, user := codexKeyPath(path, home)
	if !user {
		return "Codex runs a project's hooks only in a project it trusts, once each user has trusted the hook: " +
			"in the project, " + codexTrustHow + " (until then Codex skips it, and 'toolgate doctor' says so).", nil
	}
	hooks, err := codexHooks(keyPath, settings, env.SHA256)
	if err != nil {
		return "", err
	}
	for _, h := range hooks {
		if h.Hash == "" {
			return "", fmt.Errorf("the %s hook in %s has fields toolgate does not write, so toolgate cannot trust it for Codex: "+
				"install it again, or %s", h.Event, path, codexTrustHow)
		}
	}
	config := filepath.Join(CodexHome(home), "config.toml")
	src, err := claudecode.ReadSettings(config)
	if err != nil {
		return "", err
	}
	out, err := codexTrust(src, hooks)
	if err != nil {
		return "", fmt.Errorf("%s: %w; %s", config, err, codexTrustHow)
	}
	if !bytes.Equal(out, src) {
		if err := claudecode.WriteSettings(config, out); err != nil {
			return "", err
		}
	}
	say := "Codex trusts the hook: its trusted_hash is in " + config + " under [hooks.state], as /hooks records it " +
		"(a hook edited by hand needs trusting again)."
	if codexHooksOff(out) {
		say += "\nwarning: " + config + " turns Codex's hooks off ([features] hooks = false): remove that line, or Codex runs without the gate."
	}
	return say, nil
}

// Untrust implements Trusting: it takes out of config.toml the trust of
// toolgate's hooks as they were in the user's hooks.json.
func (codex) Untrust(env TrustEnv, path string, old []byte) error {
	home := env.Home
	keyPath, user := codexKeyPath(path, home)
	if !user {
		return nil
	}
	hooks, err := codexHooks(keyPath, old, env.SHA256)
	if err != nil || len(hooks) == 0 {
		return err
	}
	config := filepath.Join(CodexHome(home), "config.toml")
	src, err := claudecode.ReadSettings(config)
	if err != nil || src == nil {
		return err
	}
	out, err := codexDropTables(src, hooks, true)
	if err != nil {
		return fmt.Errorf("%s: %w", config, err)
	}
	if bytes.Equal(out, src) {
		return nil
	}
	return claudecode.WriteSettings(config, out)
}

// CheckTrust implements Trusting: each of toolgate's hooks must have its
// own hash as trusted_hash in Codex's config.toml, not be turned off,
// and Codex's hooks must be on.
func (codex) CheckTrust(ctx context.Context, env TrustEnv, path string, settings []byte) []TrustCheck {
	home := env.Home
	keyPath, _ := codexKeyPath(path, home)
	config := filepath.Join(CodexHome(home), "config.toml")
	hooks, err := codexHooks(keyPath, settings, env.SHA256)
	if err != nil {
		return []TrustCheck{{Say: fmt.Sprintf("Codex cannot read %s (%v), so it runs none of its hooks", path, err)}}
	}
	src, _ := os.ReadFile(config)
	states := codexStates(src)
	var out []TrustCheck
	for _, h := range hooks {
		st, found := states[h.Key]
		c := TrustCheck{Event: h.Event}
		switch {
		case codexHooksOff(src):
			c.Say = fmt.Sprintf("%s turns Codex's hooks off ([features] hooks = false), so Codex runs without the gate: remove that line", config)
		case st.disabled:
			c.Say = fmt.Sprintf("the toolgate %s hook in %s is turned off in Codex (enabled = false under [hooks.state.%q] in %s), so Codex runs without the gate: turn it on in /hooks", h.Event, path, h.Key, config)
		case !found || st.trustedHash == "":
			c.Say = fmt.Sprintf("Codex has not trusted the toolgate %s hook in %s (no trusted_hash for %q in %s), and skips an untrusted hook without a word, so Codex runs without the gate: run 'toolgate hook install codex' again, or %s", h.Event, path, h.Key, config, codexTrustHow)
		case h.Hash == "":
			c.OK = true
			c.Say = fmt.Sprintf("Codex has a trusted_hash for the toolgate %s hook in %s, which was edited by hand: whether it is still the hook's only Codex's /hooks can tell", h.Event, path)
		case st.trustedHash != h.Hash:
			c.Say = fmt.Sprintf("Codex trusted the toolgate %s hook in %s as it was before it changed (trusted_hash %s, the hook's is %s), and skips a changed hook without a word, so Codex runs without the gate: run 'toolgate hook install codex' again, or %s", h.Event, path, st.trustedHash, h.Hash, codexTrustHow)
		default:
			c.OK = true
			c.Say = fmt.Sprintf("Codex trusts the toolgate %s hook in %s (%s)", h.Event, path, config)
		}
		out = append(out, c)
	}
	if len(hooks) > 0 {
		dir := filepath.Dir(path)
		if filepath.Base(dir) == ".codex" {
			dir = filepath.Dir(dir) // a project's: ask for the project
		}
		out = append(out, codexAsk(ctx, env.Program, dir, hooks)...)
	}
	return out
}

// Input implements Adapter: Codex's hook input is Claude Code's, with
// turn_id and model added (and transcript_path may be null); an
// apply_patch of one file is decided as its Write or Edit
// (codexPatchInput).
func (codex) Input(data []byte) ([]byte, error) {
	if out, ok := codexPatchInput(data); ok {
		return out, nil
	}
	return data, nil
}

// Answer implements Adapter: the hook's answer in what Codex accepts
// (CodexOutput).
func (codex) Answer(ans *claudecode.Answer) ([]byte, string, int) {
	out := CodexOutput(ans)
	if out == nil {
		return nil, ans.Stderr, ans.Exit
	}
	return out.Marshal(), "", claudecode.ExitOK
}

// codexNoAsk is added to the reason of a call that needs a human, which a
// Codex hook cannot ask for.
const codexNoAsk = " (needs a human's approval, and Codex hooks cannot ask: run the hook with a gateway and --on-ask=wait to approve it remotely)"

// codexNoChange is added to the reason of an allow that holds only with
// an updated input (a human's changes, a command rewritten to run in the
// kernel sandbox), which a Codex hook cannot make to the call.
const codexNoChange = " (allowed only as changed, which Codex cannot apply to the call: run the changed call instead)"

// CodexOutput renders the hook's answer, in Claude Code's format, in the
// subset Codex reads (codex-rs/hooks/src/engine/output_parser.rs): a
// PreToolUse answer honours only "deny" with a non-empty reason, and
// rejects a bare "allow", "ask" and updatedInput, a rejected answer
// letting the call proceed; a PermissionRequest answer takes behavior
// allow or deny without updatedInput. So an allow is no decision at all
// (the call goes on through Codex's own approval policy), an ask is a
// deny saying why, and an allow with a human's changes, which Codex
// cannot make, is a deny: the human approved the changed call, not the
// one Codex would run. nil is no output (the exit code says it all).
func CodexOutput(ans *claudecode.Answer) *claudecode.Output {
	o := ans.Output
	if o == nil || o.HookSpecificOutput == nil {
		return o
	}
	h := *o.HookSpecificOutput
	if d := h.Decision; d != nil {
		if d.Behavior != "allow" || d.UpdatedInput == nil {
			return o
		}
		why := strings.TrimPrefix(strings.TrimSpace(ans.Verdict.Reason), "toolgate: ")
		if why == "" {
			why = "approved"
		}
		h.Decision = &claudecode.PermissionDecision{Behavior: "deny", Message: "toolgate: " + why + codexNoChange}
		return &claudecode.Output{SystemMessage: o.SystemMessage, HookSpecificOutput: &h}
	}
	switch h.PermissionDecision {
	case "allow":
		if h.UpdatedInput == nil {
			return &claudecode.Output{}
		}
		h.UpdatedInput = nil
		h.PermissionDecision = "deny"
		h.PermissionDecisionReason += codexNoChange
	case "ask":
		h.PermissionDecision = "deny"
		h.PermissionDecisionReason += codexNoAsk
	case "deny":
	default:
		h.PermissionDecision = "deny"
	}
	return &claudecode.Output{SystemMessage: o.SystemMessage, HookSpecificOutput: &h}
}

// codexListTimeout bounds asking Codex for its hooks.
const codexListTimeout = 30 * time.Second

// codexListed is a hook as Codex's app-server lists it (hooks/list).
type codexListed struct {
	Key         string `json:"key"`
	Enabled     bool   `json:"enabled"`
	TrustStatus string `json:"trustStatus"`
	CurrentHash string `json:"currentHash"`
}

// codexAsk asks Codex itself (program, else codex on PATH) whether it
// runs hooks, through its app-server's hooks/list for a directory: the
// word of the Codex that will run, whatever its hash. Without a Codex to
// ask it says so, and the checks above stand alone.
func codexAsk(ctx context.Context, program, dir string, hooks []CodexHook) []TrustCheck {
	if program == "" {
		p, err := exec.LookPath("codex")
		if err != nil {
			return []TrustCheck{{OK: true, Say: "codex is not on PATH, so Codex itself was not asked whether it runs the toolgate hook (the checks above read its config.toml)"}}
		}
		program = p
	}
	listed, err := codexList(ctx, program, dir)
	if err != nil {
		return []TrustCheck{{OK: true, Say: fmt.Sprintf("Codex (%s) could not be asked whether it runs the toolgate hook: %v (the checks above read its config.toml)", program, err)}}
	}
	var out []TrustCheck
	for _, h := range hooks {
		c := TrustCheck{Event: h.Event}
		i := slices.IndexFunc(listed, func(l codexListed) bool { return l.Key == h.Key })
		switch {
		case i < 0:
			c.Say = fmt.Sprintf("Codex (%s) does not list the toolgate %s hook (%s), so it does not run it: see 'codex doctor'", program, h.Event, h.Key)
		case !listed[i].Enabled || listed[i].TrustStatus != "trusted":
			c.Say = fmt.Sprintf("Codex (%s) lists the toolgate %s hook as %s (enabled: %v), and skips it, so Codex runs without the gate: run 'toolgate hook install codex' again, or %s",
				program, h.Event, listed[i].TrustStatus, listed[i].Enabled, codexTrustHow)
		default:
			c.OK = true
			c.Say = fmt.Sprintf("Codex (%s) itself lists the toolgate %s hook as trusted", program, h.Event)
		}
		out = append(out, c)
	}
	return out
}

// codexList runs Codex's app-server and asks it for the hooks it loads
// for a directory (JSON-RPC over stdio: initialize, initialized,
// hooks/list).
func codexList(ctx context.Context, program, dir string) ([]codexListed, error) {
	ctx, cancel := context.WithTimeout(ctx, codexListTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, program, "app-server")
	cmd.Dir = dir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer func() {
		_ = stdin.Close()
		cancel()
		_ = cmd.Wait()
	}()
	cwd, _ := json.Marshal(dir)
	if _, err := io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"toolgate","version":"1"}}}`+"\n"+
		`{"jsonrpc":"2.0","method":"initialized"}`+"\n"+
		`{"jsonrpc":"2.0","id":2,"method":"hooks/list","params":{"cwds":[`+string(cwd)+`]}}`+"\n"); err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Result struct {
				Data []struct {
					Hooks []codexListed `json:"hooks"`
				} `json:"data"`
			} `json:"result"`
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil || string(msg.ID) != "2" {
			continue
		}
		if msg.Error != nil {
			return nil, fmt.Errorf("hooks/list: %s", msg.Error.Message)
		}
		var out []codexListed
		for _, d := range msg.Result.Data {
			out = append(out, d.Hooks...)
		}
		return out, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("no answer to hooks/list in %s", codexListTimeout)
	}
	return nil, errors.New("its app-server ended without answering hooks/list")
}
