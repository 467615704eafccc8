package policy

import (
	"fmt"
	"strings"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/glob"
)

// ParseGeminiSettings imports the tool permissions of a Gemini CLI
// settings file (settings.json): "tools.exclude" entries become deny
// rules and "tools.allowed" entries (which Gemini CLI runs without
// asking) allow rules; the settings of the old format, top-level
// "excludeTools" and "allowedTools", too. An entry is a tool name
// ("write_file") or "run_shell_command(PREFIX)", the shell commands that
// start with PREFIX's words ("run_shell_command(git push)": git push and
// git push --force). Every other key is ignored. "tools.core", an
// allowlist of the tools Gemini CLI offers at all, and the policy
// engine's TOML files are not read. Sources carry name and the line of
// each entry.
func ParseGeminiSettings(name string, src []byte) (*Document, error) {
	root, _, err := parseJSONC(name, src)
	if err != nil {
		return nil, err
	}
	r := &reader{file: name}
	if root.kind != kMap {
		return nil, r.errAt(root, "top level: want a Gemini CLI settings object, got %s", root.describe())
	}
	doc := &Document{Path: name}
	lists := []geminiList{
		{"excludeTools", root.get("excludeTools"), toolgate.Deny},
		{"allowedTools", root.get("allowedTools"), toolgate.Allow},
	}
	if tools := root.get("tools"); tools != nil && tools.kind == kMap {
		lists = append(lists,
			geminiList{"tools.exclude", tools.get("exclude"), toolgate.Deny},
			geminiList{"tools.allowed", tools.get("allowed"), toolgate.Allow})
	}
	for _, l := range lists {
		if l.n == nil || l.n.kind == kNull {
			continue
		}
		if err := r.list(l.n, l.at); err != nil {
			return nil, err
		}
		for i, it := range l.n.items {
			at := fmt.Sprintf("%s[%d]", l.at, i)
			s, err := r.str(it, at)
			if err != nil {
				return nil, err
			}
			rule, err := geminiEntry(strings.TrimSpace(s), l.action)
			if err != nil {
				return nil, r.errAt(it, "%s: %v", at, err)
			}
			rule.Source = r.src(it)
			if err := r.checkRule(it, at, rule); err != nil {
				return nil, err
			}
			doc.Rules = append(doc.Rules, rule)
		}
	}
	return doc, nil
}

// geminiList is a list of tool entries in Gemini CLI's settings.
type geminiList struct {
	at     string
	n      *docNode
	action toolgate.Action
}

// geminiShellNames are the names Gemini CLI's settings give its shell
// tool.
var geminiShellNames = [...]string{"run_shell_command", "ShellTool"}

// geminiEntry reads one tools.exclude or tools.allowed entry.
func geminiEntry(s string, action toolgate.Action) (Rule, error) {
	tool, arg, hasArg := strings.Cut(s, "(")
	tool = strings.TrimSpace(tool)
	if tool == "" {
		return Rule{}, fmt.Errorf("empty tool name in %q", s)
	}
	shell := false
	for _, n := range geminiShellNames {
		shell = shell || tool == n
	}
	rule := Rule{Tool: tool, Pattern: "*", Action: action}
	if shell {
		rule.Tool = "run_shell_command"
	}
	if !hasArg {
		return rule, nil
	}
	arg, ok := strings.CutSuffix(arg, ")")
	if !ok || !shell {
		return Rule{}, fmt.Errorf("%q: want a tool name or run_shell_command(COMMAND)", s)
	}
	words := strings.Fields(arg)
	if len(words) == 0 {
		return rule, nil
	}
	for i, w := range words {
		words[i] = glob.QuoteMeta(w)
	}
	rule.Pattern = strings.Join(words, " ") + " *"
	return rule, nil
}

// opencodePermissionTools maps opencode's permission names to the tools
// they cover, as toolgate names them; its other permissions
// (external_directory, doom_loop, lsp, …) gate no tool call a hook sees.
var opencodePermissionTools = map[string][]string{
	"bash":      {"Bash"},
	"edit":      {"Edit", "Write"},
	"read":      {"Read"},
	"glob":      {"Glob"},
	"grep":      {"Grep"},
	"list":      {"LS"},
	"webfetch":  {"WebFetch"},
	"websearch": {"WebSearch"},
	"task":      {"Task"},
	"todowrite": {"TodoWrite"},
	"todoread":  {"TodoRead"},
	"*":         {"*"},
}

// ParseOpencodeConfig imports the "permission" of an opencode config
// file (opencode.json, opencode.jsonc): an action for every tool
// ("permission": "ask"), or per permission name an action or an object
// of patterns and actions ("bash": {"git *": "allow", "rm *": "deny"}).
// Actions are allow, ask and deny; a pattern is a glob (a command for
// bash, a path for the file tools). Permission names that gate no tool
// call (external_directory, doom_loop, …) are ignored, as is every other
// key. Sources carry name and the line of each entry.
func ParseOpencodeConfig(name string, src []byte) (*Document, error) {
	root, _, err := parseJSONC(name, src)
	if err != nil {
		return nil, err
	}
	r := &reader{file: name}
	if root.kind != kMap {
		return nil, r.errAt(root, "top level: want an opencode config object, got %s", root.describe())
	}
	doc := &Document{Path: name}
	perm := root.get("permission")
	if perm == nil || perm.kind == kNull {
		return doc, nil
	}
	add := func(n *docNode, at, key, pattern string) error {
		action, err := opencodeAction(r, n, at)
		if err != nil {
			return err
		}
		for _, tool := range opencodePermissionTools[key] {
			rule := Rule{Tool: tool, Pattern: pattern, Action: action, Source: r.src(n)}
			if err := r.checkRule(n, at, rule); err != nil {
				return err
			}
			doc.Rules = append(doc.Rules, rule)
		}
		return nil
	}
	if perm.kind == kScalar {
		return doc, add(perm, "permission", "*", "*")
	}
	if err := r.mapping(perm, "permission"); err != nil {
		return nil, err
	}
	for i, k := range perm.keys {
		key, v := k.text, perm.vals[i]
		at := "permission." + key
		if _, ok := opencodePermissionTools[key]; !ok || v.kind == kNull {
			continue
		}
		if v.kind != kMap {
			if err := add(v, at, key, "*"); err != nil {
				return nil, err
			}
			continue
		}
		for j, pk := range v.keys {
			if err := add(v.vals[j], at+"."+pk.text, key, pk.text); err != nil {
				return nil, err
			}
		}
	}
	return doc, nil
}

// opencodeAction reads an opencode permission action.
func opencodeAction(r *reader, n *docNode, at string) (toolgate.Action, error) {
	s, err := r.str(n, at)
	if err != nil {
		return toolgate.NoAction, err
	}
	switch s {
	case "allow":
		return toolgate.Allow, nil
	case "ask":
		return toolgate.Ask, nil
	case "deny":
		return toolgate.Deny, nil
	}
	return toolgate.NoAction, r.errAt(n, "%s: %q (want allow, ask or deny)", at, s)
}
