package policy

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tailscale/hujson"
	"github.com/toolgate/toolgate"
)

// claudeSettingsKeys are top-level keys of Claude Code settings files. A
// .json/.jsonc file that has one of them with a value a workspace document
// cannot hold is read as Claude Code settings.
var claudeSettingsKeys = [...]string{
	"permissions", "hooks", "env", "model",
	"defaultMode", "apiKeyHelper", "cleanupPeriodDays",
	"includeCoAuthoredBy", "statusLine", "outputStyle",
	"forceLoginMethod", "forceLoginOrgUUID",
	"enableAllProjectMcpServers", "enabledMcpjsonServers",
	"disabledMcpjsonServers", "awsAuthRefresh",
	"awsCredentialExport", "sandbox", "enabledPlugins",
	"extraKnownMarketplaces", "disableAllHooks",
	"alwaysThinkingEnabled", "companyAnnouncements",
	"otelHeadersHelper", "spinnerTipsEnabled",
}

// claudePermissionKeys are the keys of a Claude Code "permissions" object.
// Only allow, ask, deny and defaultMode affect rules.
var claudePermissionKeys = []string{"allow", "ask", "deny", "defaultMode", "additionalDirectories", "disableBypassPermissionsMode"}

// claudePathTools take a gitignore-style path specifier.
var claudePathTools = [...]string{
	"Read", "Edit", "Write", "MultiEdit",
	"NotebookEdit", "NotebookRead", "Grep", "Glob", "LS",
}

// looksLikeClaudeSettings reports whether a JSONC document is Claude Code
// settings rather than a workspace document: its top-level object has
// "$schema", or a Claude settings key whose value is not a valid workspace
// entry (an action, or an object of actions).
func looksLikeClaudeSettings(src []byte) bool {
	v, err := hujson.Parse(src)
	if err != nil {
		return false
	}
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		return false
	}
	for _, m := range obj.Members {
		name := m.Name.Value.(hujson.Literal).String()
		if name == "$schema" {
			return true
		}
		if slices.Contains(claudeSettingsKeys[:], name) && !workspaceValue(m.Value.Value) {
			return true
		}
	}
	return false
}

// workspaceValue reports whether v could be a tool entry of a workspace
// document.
func workspaceValue(v hujson.ValueTrimmed) bool {
	isAction := func(v hujson.ValueTrimmed) bool {
		l, ok := v.(hujson.Literal)
		if !ok || l.Kind() != '"' {
			return false
		}
		_, err := toolgate.ParseAction(l.String())
		return err == nil
	}
	if isAction(v) {
		return true
	}
	obj, ok := v.(*hujson.Object)
	if !ok {
		return false
	}
	for _, m := range obj.Members {
		if !isAction(m.Value.Value) {
			return false
		}
	}
	return true
}

// ParseClaudeSettings imports a Claude Code settings file (settings.json,
// settings.local.json, managed settings): the entries of permissions.allow,
// .ask and .deny become rules with that action, in that order (allow, then
// ask, then deny: with last match wins this gives deny > ask > allow, as in
// Claude Code), and permissions.defaultMode becomes the Mode. Every other
// key (hooks, env, model, …) is ignored.
//
// Entries are written Tool or Tool(specifier). Bash specifiers are command
// patterns (the legacy "prefix:*" form becomes "prefix *"); Read, Edit,
// Write, NotebookEdit, Grep and Glob specifiers are gitignore-style paths:
// "//p" is the absolute path /p, "~/p" stays home-relative, "./p" and "p"
// are relative, and "/p" is relative to the project root (the directory
// holding .claude/ for a file in .claude/, else the file's directory);
// "**" becomes "*". "mcp__server" alone stands for every tool of the server.
// Sources carry name and the line of each entry.
func ParseClaudeSettings(name string, src []byte) (*Document, error) {
	root, _, err := parseJSONC(name, src)
	if err != nil {
		return nil, err
	}
	r := &reader{file: name, root: projectRoot(name)}
	if root.kind != kMap {
		return nil, r.errAt(root, "top level: want a Claude Code settings object, got %s", root.describe())
	}
	doc := &Document{Path: name}
	if p := root.get("permissions"); p != nil {
		if doc.Rules, doc.Mode, err = r.claudePermissions(p, "permissions", false); err != nil {
			return nil, err
		}
		if v := p.get("additionalDirectories"); v != nil && v.kind != kNull {
			if err := r.list(v, "permissions.additionalDirectories"); err != nil {
				return nil, err
			}
			for i, it := range v.items {
				d, err := r.str(it, fmt.Sprintf("permissions.additionalDirectories[%d]", i))
				if err != nil {
					return nil, err
				}
				if d = strings.TrimSpace(d); d != "" {
					doc.Roots = append(doc.Roots, claudeDir(d, r.root))
				}
			}
		}
	}
	return doc, nil
}

// claudeDir resolves an additionalDirectories entry: "~/" stays for the
// engine to expand, a relative path is taken from the project root.
func claudeDir(d, root string) string {
	d = filepath.ToSlash(d)
	if d == "~" || strings.HasPrefix(d, "~/") || strings.HasPrefix(d, "/") {
		return d
	}
	return strings.TrimSuffix(root, "/") + "/" + d
}

// PermissionLayers merges an agent's own permission documents (Claude Code
// settings from ParseClaudeSettings, Codex rules from ParseCodexRules) the
// way the agent merges them, into the documents a rules stack takes them
// as. Both agents apply the entries of every file together, deny over ask
// over allow, so:
//
//   - allow holds every allow entry, then every ask entry: it goes after
//     toolgate's built-in defaults and before the rules a person wrote for
//     toolgate, which may refine it;
//   - deny holds every deny entry, to go after every other document, so a
//     Claude Code deny wins over toolgate's static rules as it wins in
//     Claude Code. The denies of managed (managed-settings.json, the
//     admin's file) go into its Managed layer: a veto nothing undoes.
//
// Their modes are dropped (toolgate's mode comes from its own config and
// flags); additional directories become workspace roots. Each rule keeps
// its file and line. The entries are Claude Code's own, written by a
// person: explicit rules, which no mode changes.
func PermissionLayers(docs []*Document, managed *Document) (allow, deny *Document) {
	allow = &Document{Path: "claude-code:allow"}
	deny = &Document{Path: "claude-code:deny"}
	all := docs
	if managed != nil {
		all = append([]*Document{managed}, docs...)
	}
	for _, action := range []toolgate.Action{toolgate.Allow, toolgate.Ask} {
		for _, d := range all {
			for _, r := range d.Rules {
				if r.Action == action {
					allow.Rules = append(allow.Rules, r)
				}
			}
		}
	}
	for _, d := range all {
		allow.Roots = append(allow.Roots, d.Roots...)
		for _, r := range d.Rules {
			if r.Action != toolgate.Deny {
				continue
			}
			if d == managed {
				deny.Managed = append(deny.Managed, r)
			} else {
				deny.Rules = append(deny.Rules, r)
			}
		}
	}
	return allow, deny
}

// projectRoot returns the directory "/path" specifiers of a Claude
// settings file are relative to: P for P/.claude/settings*.json, else the
// file's directory. A relative name is made absolute against the working
// directory.
func projectRoot(name string) string {
	abs := name
	if !filepath.IsAbs(abs) {
		if a, err := filepath.Abs(name); err == nil {
			abs = a
		}
	}
	dir := filepath.Dir(abs)
	if filepath.Base(dir) == ".claude" {
		dir = filepath.Dir(dir)
	}
	return filepath.ToSlash(dir)
}

// claudePermissions reads a Claude Code permissions object. strict makes
// unknown keys an error (toolgate.yaml); Claude settings files may carry
// keys newer than this code, which are ignored.
func (r *reader) claudePermissions(n *docNode, what string, strict bool) ([]Rule, *toolgate.Mode, error) {
	if err := r.mapping(n, what); err != nil {
		return nil, nil, err
	}
	if strict {
		if err := r.checkKeys(n, what, claudePermissionKeys...); err != nil {
			return nil, nil, err
		}
	}
	var rules []Rule
	for _, list := range []struct {
		key    string
		action toolgate.Action
	}{{"allow", toolgate.Allow}, {"ask", toolgate.Ask}, {"deny", toolgate.Deny}} {
		for i, k := range n.keys {
			if k.text != list.key {
				continue
			}
			v := n.vals[i]
			at := what + "." + list.key
			if v.kind == kNull {
				continue
			}
			if err := r.list(v, at); err != nil {
				return nil, nil, err
			}
			for j, it := range v.items {
				rule, err := r.claudeEntry(it, fmt.Sprintf("%s[%d]", at, j), list.action)
				if err != nil {
					return nil, nil, err
				}
				rules = append(rules, rule)
			}
		}
	}
	var mode *toolgate.Mode
	if v := n.get("defaultMode"); v != nil {
		m, err := r.mode(v, what+".defaultMode")
		if err != nil {
			return nil, nil, err
		}
		mode = m
	}
	return rules, mode, nil
}

// claudeEntry converts one Claude Code permission entry into a rule.
func (r *reader) claudeEntry(n *docNode, at string, action toolgate.Action) (Rule, error) {
	s, err := r.str(n, at)
	if err != nil {
		return Rule{}, err
	}
	tool, spec, hasSpec, msg := splitEntry(s)
	if msg != "" {
		return Rule{}, r.errAt(n, "%s: %s", at, msg)
	}
	rule := Rule{Tool: tool, Pattern: "*", Action: action, Source: r.src(n)}
	switch {
	case !hasSpec:
		if rest, ok := strings.CutPrefix(tool, "mcp__"); ok && rest != "" && !strings.Contains(rest, "__") {
			rule.Tool = tool + "__*"
		}
	case tool == "Bash":
		rule.Pattern = spec
		if p, ok := strings.CutSuffix(spec, ":*"); ok {
			rule.Pattern = strings.TrimRight(p, " ") + " *"
			if strings.TrimSpace(p) == "" {
				rule.Pattern = "*"
			}
		}
	case slices.Contains(claudePathTools[:], tool):
		rule.Pattern = claudePath(spec, r.root)
	default:
		rule.Pattern = spec
	}
	if err := r.checkRule(n, at, rule); err != nil {
		return Rule{}, err
	}
	return rule, nil
}

// claudePath converts a gitignore-style Claude path specifier to a toolgate
// path pattern (see ParseClaudeSettings).
func claudePath(spec, root string) string {
	p := spec
	switch {
	case strings.HasPrefix(p, "//"):
		p = p[1:]
	case p == "~" || strings.HasPrefix(p, "~/"):
	case strings.HasPrefix(p, "/"):
		p = strings.TrimSuffix(root, "/") + p
	default:
		for strings.HasPrefix(p, "./") {
			p = p[2:]
		}
	}
	if rest, ok := strings.CutPrefix(p, "**/"); ok {
		p = "*" + rest
	}
	for strings.Contains(p, "**") {
		p = strings.ReplaceAll(p, "**", "*")
	}
	if p == "" || p == "." {
		return "*"
	}
	if strings.HasSuffix(p, "/") {
		p += "*"
	}
	return p
}

// splitEntry splits "Tool" or "Tool(spec)". msg is non-empty when the
// entry is malformed.
func splitEntry(s string) (tool, spec string, hasSpec bool, msg string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", "", false, "empty entry (want Tool or Tool(specifier))"
	}
	open := strings.IndexByte(s, '(')
	if open < 0 {
		if strings.Contains(s, ")") {
			return "", "", false, fmt.Sprintf("unbalanced parentheses in %q (want Tool or Tool(specifier))", s)
		}
		if strings.ContainsAny(s, " \t\r\n") {
			return "", "", false, fmt.Sprintf("tool name %q contains spaces (want Tool or Tool(specifier))", s)
		}
		return s, "", false, ""
	}
	if !strings.HasSuffix(s, ")") || !balanced(s) {
		return "", "", false, fmt.Sprintf("unbalanced parentheses in %q (want Tool(specifier))", s)
	}
	tool = strings.TrimSpace(s[:open])
	spec = s[open+1 : len(s)-1]
	switch {
	case tool == "":
		return "", "", false, fmt.Sprintf("missing tool name before \"(\" in %q", s)
	case strings.ContainsAny(tool, " \t\r\n"):
		return "", "", false, fmt.Sprintf("tool name %q contains spaces (want Tool(specifier))", tool)
	case strings.TrimSpace(spec) == "":
		return "", "", false, fmt.Sprintf("empty specifier in %q (write %s alone to match every call)", s, tool)
	}
	return tool, spec, true, ""
}

// balanced reports whether the parentheses of s pair up, counting them
// either everywhere or only outside quotes (so both `echo ")"` and
// `echo it's (ok)` are balanced).
func balanced(s string) bool {
	return parensPair(s, false) || parensPair(s, true)
}

func parensPair(s string, quotes bool) bool {
	depth := 0
	var quote rune
	for _, c := range s {
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case quotes && (c == '\'' || c == '"'):
			quote = c
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}
