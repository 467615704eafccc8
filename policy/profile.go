package policy

import (
	"strings"

	"github.com/toolgate/toolgate"
)

// toolInfo is what the engine knows of a tool name.
type toolInfo struct {
	spec ToolSpec
	// family is the key rules are indexed by: every tool of a family
	// answers to the rules written for any of its members.
	family string
}

// Family names. A tool outside every family is its own family, keyed by
// its name (MCP tools by their seed form server_tool).
const (
	familyShell = "shell"
	familyRead  = "read"
	familyWrite = "write"
)

// canonicalTool names the tool a suggestion or a file subject uses for a
// family, in the seed's spelling.
var canonicalTool = map[string]string{
	familyShell: "shell_exec",
	familyRead:  "read_file",
	familyWrite: "write_file",
}

// builtinProfile maps the tool names of known agents to what they do
// (DESIGN §1): Claude Code and Codex, the seeds' engines, Gemini CLI.
// Declarations in config files override entries here.
var builtinProfile = func() map[string]toolInfo {
	type entry struct {
		names  string
		family string
		spec   ToolSpec
	}
	pathArgs := []string{"file_path", "path", "absolute_path", "notebook_path", "filename"}
	entries := []entry{
		{"Bash bash shell_exec shell run_shell_command exec_command local_shell run_background", familyShell,
			ToolSpec{Kind: KindShell, Tier: toolgate.TierExec, Args: []string{"command", "cmd"}}},
		{"Read read_file read view NotebookRead read_many_files LS list_directory list_files get_file_info", familyRead,
			ToolSpec{Kind: KindRead, Tier: toolgate.TierRead, Args: append(pathArgs, "paths", "dir_path")}},
		{"Write write_file write Edit edit_file edit MultiEdit multi_edit NotebookEdit replace create_file", familyWrite,
			ToolSpec{Kind: KindWrite, Tier: toolgate.TierWrite, Args: pathArgs}},
		{"Glob glob", "glob", ToolSpec{Kind: KindGlob, Tier: toolgate.TierRead, Args: []string{"pattern", "path"}}},
		{"Grep grep search_file_content", "grep", ToolSpec{Kind: KindGrep, Tier: toolgate.TierRead, Args: []string{"path"}}},
		{"skill Skill", "skill", ToolSpec{Kind: KindSkill, Tier: toolgate.TierExec, Args: []string{"name", "skill", "command"}}},
		{"WebFetch web_fetch", "webfetch", ToolSpec{Kind: KindURL, Tier: toolgate.TierRead, Args: []string{"url", "prompt"}}},
		{"WebSearch web_search google_web_search", "websearch", ToolSpec{Kind: KindNone, Tier: toolgate.TierRead}},
		{"Task Agent", "task", ToolSpec{Kind: KindSkill, Tier: toolgate.TierExec, Args: []string{"subagent_type"}}},
		// Seed 002's task names no subagent type in its arguments; its
		// profile (seed002.jsonc) allows it, as the seed's SAFE list does.
		{"task", "", ToolSpec{Kind: KindNone, Tier: toolgate.TierExec}},
		{"AskUserQuestion ask_user", "question", ToolSpec{Kind: KindNone, Tier: toolgate.TierRead, Question: true}},
		{"TodoWrite TodoRead ExitPlanMode enter_plan_mode exit_plan_mode write_plan load_guide task_output BashOutput", "",
			ToolSpec{Kind: KindNone, Tier: toolgate.TierRead}},
		{"KillShell KillBash kill_task", "", ToolSpec{Kind: KindNone, Tier: toolgate.TierWrite}},
		{"Spawn SlashCommand send_email post delete remove", "", ToolSpec{Kind: KindNone, Tier: toolgate.TierExec}},
	}
	n := 0
	for _, e := range entries {
		n += strings.Count(e.names, " ") + 1
	}
	m := make(map[string]toolInfo, n) // sized: every hook process builds it
	for _, e := range entries {
		for _, name := range strings.Fields(e.names) {
			fam := e.family
			if fam == "" {
				fam = name
			}
			spec := e.spec
			spec.Source = Source{File: "builtin:profile"}
			m[name] = toolInfo{spec: spec, family: fam}
		}
	}
	return m
}()

// defaultArgs are the argument names a declared tool's kind reads when the
// declaration names none.
func defaultArgs(k Kind) []string {
	switch k {
	case KindShell:
		return builtinProfile["Bash"].spec.Args
	case KindRead:
		return builtinProfile["Read"].spec.Args
	case KindWrite:
		return builtinProfile["Write"].spec.Args
	case KindGlob:
		return builtinProfile["Glob"].spec.Args
	case KindGrep:
		return builtinProfile["Grep"].spec.Args
	case KindURL:
		return builtinProfile["WebFetch"].spec.Args
	case KindSkill:
		return []string{"name"}
	}
	return nil
}

// mcpAlias writes the seed form of an MCP tool name into buf:
// mcp__server__tool → server_tool, with characters outside [A-Za-z0-9_-]
// replaced by '_'. ok is false for names that are not mcp__ names.
func mcpAlias(buf []byte, name string) (alias []byte, ok bool) {
	rest, found := strings.CutPrefix(name, "mcp__")
	if !found {
		return nil, false
	}
	server, tool, found := strings.Cut(rest, "__")
	if !found || server == "" || tool == "" {
		return nil, false
	}
	buf = buf[:0]
	buf = appendSanitized(buf, server)
	buf = append(buf, '_')
	buf = appendSanitized(buf, tool)
	return buf, true
}

func appendSanitized(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c == '-' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') {
			buf = append(buf, c)
		} else {
			buf = append(buf, '_')
		}
	}
	return buf
}

// mcpKey returns the family key of an MCP tool name, its seed spelling.
// Keys are interned in a bounded cache so that deciding a call to a known
// MCP tool does not allocate.
func (e *Engine) mcpKey(name string, buf []byte) (string, bool) {
	e.aliases.mu.RLock()
	key, ok := e.aliases.m[name]
	e.aliases.mu.RUnlock()
	if ok {
		return key, true
	}
	a, ok := mcpAlias(buf, name)
	if !ok {
		return "", false
	}
	key = string(a)
	e.aliases.mu.Lock()
	if len(e.aliases.m) < maxAliasCache {
		e.aliases.m[name] = key
	}
	e.aliases.mu.Unlock()
	return key, true
}

// maxAliasCache bounds the MCP name cache: names come from agents, and an
// agent inventing names must not grow the engine without limit.
const maxAliasCache = 4096

// ExactPrefix marks a tool key of a rules document as exact ("=Write"):
// the rule covers that tool and its aliases, not its family.
const ExactPrefix = "="

// sameTool is the alias table: names that different agents give to the
// same tool. An exact rule (a grant) for one name covers the others, and
// nothing else: Write and write_file are one tool, Write and Edit are two
// (seed 000: approving Bash "always" must not approve Write or Edit).
// Seed 002's lowercase names (write, edit, multi_edit, task, ask_user,
// list_files, kill_task) are tools of their own: its profile
// (seed002ProfileJSONC) treats them unlike their Claude Code namesakes.
var sameTool = func() map[string]string {
	groups := []string{
		"Bash bash shell_exec shell run_shell_command exec_command local_shell",
		"Read read_file read view",
		"Write write_file create_file",
		"Edit edit_file replace",
		"MultiEdit",
		"LS list_directory",
		"Glob glob",
		"Grep grep search_file_content",
		"skill Skill",
		"WebFetch web_fetch",
		"WebSearch web_search google_web_search",
		"Task Agent",
		"AskUserQuestion",
		"KillShell KillBash",
	}
	n := 0
	for _, g := range groups {
		n += strings.Count(g, " ") + 1
	}
	m := make(map[string]string, n)
	for _, g := range groups {
		names := strings.Fields(g)
		for _, n := range names {
			m[n] = names[0]
		}
	}
	return m
}()

// sameKey returns the key shared by every name of tool's alias group: the
// group's first name, the seed spelling server_tool of an MCP tool (alias
// when the caller has it), or the name itself.
func (e *Engine) sameKey(tool, alias string) string {
	if k, ok := sameTool[tool]; ok {
		return k
	}
	if alias != "" {
		return alias
	}
	var buf [128]byte
	if key, ok := e.mcpKey(tool, buf[:0]); ok {
		return key
	}
	return tool
}
