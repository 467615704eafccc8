package policy

import (
	"sort"
	"strings"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/glob"
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
	// familyWebFetch is the URL fetchers' family (WebFetch, web_fetch).
	familyWebFetch = "webfetch"
)

// canonicalTool names the tool a suggestion or a file subject uses for a
// family, in the seed's spelling.
func canonicalTool(family string) string {
	switch family {
	case familyShell:
		return "shell_exec"
	case familyRead:
		return "read_file"
	case familyWrite:
		return "write_file"
	}
	return ""
}

// toolGroup indexes profileGroups.
type toolGroup uint8

const (
	groupShell toolGroup = iota
	groupRead
	groupList // readers whose path defaults to the working directory
	groupWrite
	groupGlob
	groupGrep
	groupSkill
	groupWebFetch
	groupWebSearch
	groupTask
	groupQuestion
	groupOwnRead  // tools of their own that only read
	groupOwnWrite // tools of their own that change something
	groupOwnExec  // tools of their own that run or send something
)

// builtinSource is the Source of the built-in profile's tools.
const builtinSource = "builtin:profile"

// profileGroups say what the built-in profile's tools do (DESIGN §1):
// Claude Code and Codex, the seeds' engines, Gemini CLI. A group with no
// family makes each of its tools a family of its own. Declarations in
// config files override the tools here. The profile is data the compiler
// lays out, not a map: the hook consults it in every process and builds
// nothing for it at start-up.
var profileGroups = [...]toolInfo{
	groupShell: {family: familyShell, spec: ToolSpec{Kind: KindShell, Tier: toolgate.TierExec,
		Args: []string{"command", "cmd"}, Source: Source{File: builtinSource}}},
	groupRead: {family: familyRead, spec: ToolSpec{Kind: KindRead, Tier: toolgate.TierRead,
		Args: []string{"file_path", "path", "absolute_path", "notebook_path", "filename", "paths", "dir_path"}, Source: Source{File: builtinSource}}},
	groupList: {family: familyRead, spec: ToolSpec{Kind: KindRead, Tier: toolgate.TierRead, InCwd: true,
		Args: []string{"file_path", "path", "absolute_path", "filename", "paths", "dir_path", "directory"}, Source: Source{File: builtinSource}}},
	groupWrite: {family: familyWrite, spec: ToolSpec{Kind: KindWrite, Tier: toolgate.TierWrite,
		Args: []string{"file_path", "path", "absolute_path", "notebook_path", "filename"}, Source: Source{File: builtinSource}}},
	groupGlob: {family: "glob", spec: ToolSpec{Kind: KindGlob, Tier: toolgate.TierRead,
		Args: []string{"pattern", "path"}, Source: Source{File: builtinSource}}},
	groupGrep: {family: "grep", spec: ToolSpec{Kind: KindGrep, Tier: toolgate.TierRead,
		Args: []string{"path"}, Source: Source{File: builtinSource}}},
	groupSkill: {family: "skill", spec: ToolSpec{Kind: KindSkill, Tier: toolgate.TierExec,
		Args: []string{"name", "skill", "command"}, Source: Source{File: builtinSource}}},
	groupWebFetch: {family: familyWebFetch, spec: ToolSpec{Kind: KindURL, Tier: toolgate.TierRead,
		Args: []string{"url", "prompt"}, Source: Source{File: builtinSource}}},
	groupWebSearch: {family: "websearch", spec: ToolSpec{Kind: KindNone, Tier: toolgate.TierRead, Source: Source{File: builtinSource}}},
	groupTask: {family: "task", spec: ToolSpec{Kind: KindSkill, Tier: toolgate.TierExec,
		Args: []string{"subagent_type"}, Source: Source{File: builtinSource}}},
	groupQuestion: {family: "question", spec: ToolSpec{Kind: KindNone, Tier: toolgate.TierRead, Question: true, Source: Source{File: builtinSource}}},
	groupOwnRead:  {spec: ToolSpec{Kind: KindNone, Tier: toolgate.TierRead, Source: Source{File: builtinSource}}},
	groupOwnWrite: {spec: ToolSpec{Kind: KindNone, Tier: toolgate.TierWrite, Source: Source{File: builtinSource}}},
	groupOwnExec:  {spec: ToolSpec{Kind: KindNone, Tier: toolgate.TierExec, Source: Source{File: builtinSource}}},
}

// builtinTool is one tool name of the built-in profile.
type builtinTool struct {
	name  string
	group toolGroup
	// same is the key of the tool's alias group: names that different
	// agents give to the same tool. An exact rule (a grant) for one name
	// covers the others, and nothing else: Write and write_file are one
	// tool, Write and Edit are two (seed 000: approving Bash "always" must
	// not approve Write or Edit). Seed 002's lowercase names (write, edit,
	// multi_edit, task, ask_user, list_files, kill_task) are tools of
	// their own: its profile (seed002ProfileJSONC) treats them unlike
	// their Claude Code namesakes. "" is no group.
	same string
}

// builtinTools are the built-in profile's tool names in byte order, for
// findBuiltin's binary search (TestBuiltinToolsSorted). Seed 002's task
// names no subagent type in its arguments, so it is a tool of its own;
// its profile (seed002.jsonc) allows it, as the seed's SAFE list does.
var builtinTools = [...]builtinTool{
	{"Agent", groupTask, "Task"},
	{"AskUserQuestion", groupQuestion, "AskUserQuestion"},
	{"Bash", groupShell, "Bash"},
	{"BashOutput", groupOwnRead, ""},
	{"Edit", groupWrite, "Edit"},
	{"ExitPlanMode", groupOwnRead, ""},
	{"Glob", groupGlob, "Glob"},
	{"Grep", groupGrep, "Grep"},
	{"KillBash", groupOwnWrite, "KillShell"},
	{"KillShell", groupOwnWrite, "KillShell"},
	{"LS", groupList, "LS"},
	{"MultiEdit", groupWrite, "MultiEdit"},
	{"NotebookEdit", groupWrite, ""},
	{"NotebookRead", groupRead, ""},
	{"Read", groupRead, "Read"},
	{"Skill", groupSkill, "skill"},
	{"SlashCommand", groupOwnExec, ""},
	{"Spawn", groupOwnExec, ""},
	{"Task", groupTask, "Task"},
	{"TodoRead", groupOwnRead, ""},
	{"TodoWrite", groupOwnRead, ""},
	{"WebFetch", groupWebFetch, "WebFetch"},
	{"WebSearch", groupWebSearch, "WebSearch"},
	{"Write", groupWrite, "Write"},
	{"ask_user", groupQuestion, ""},
	{"bash", groupShell, "Bash"},
	{"create_file", groupWrite, "Write"},
	{"delete", groupOwnExec, ""},
	{"edit", groupWrite, ""},
	{"edit_file", groupWrite, "Edit"},
	{"enter_plan_mode", groupOwnRead, ""},
	{"exec_command", groupShell, "Bash"},
	{"exit_plan_mode", groupOwnRead, ""},
	{"get_file_info", groupList, ""},
	{"glob", groupGlob, "Glob"},
	{"google_web_search", groupWebSearch, "WebSearch"},
	{"grep", groupGrep, "Grep"},
	{"kill_task", groupOwnWrite, ""},
	{"list_directory", groupList, "LS"},
	{"list_files", groupList, ""},
	{"load_guide", groupOwnRead, ""},
	{"local_shell", groupShell, "Bash"},
	{"multi_edit", groupWrite, ""},
	{"post", groupOwnExec, ""},
	{"read", groupRead, "Read"},
	{"read_file", groupRead, "Read"},
	{"read_many_files", groupRead, ""},
	{"remove", groupOwnExec, ""},
	{"replace", groupWrite, "Edit"},
	{"run_background", groupShell, ""},
	{"run_shell_command", groupShell, "Bash"},
	{"search_file_content", groupGrep, "Grep"},
	{"send_email", groupOwnExec, ""},
	{"shell", groupShell, "Bash"},
	{"shell_exec", groupShell, "Bash"},
	{"skill", groupSkill, "skill"},
	{"task", groupOwnExec, ""},
	{"task_output", groupOwnRead, ""},
	{"view", groupRead, "Read"},
	{"web_fetch", groupWebFetch, "WebFetch"},
	{"web_search", groupWebSearch, "WebSearch"},
	{"write", groupWrite, ""},
	{"write_file", groupWrite, "Write"},
	{"write_plan", groupOwnRead, ""},
}

// findBuiltin returns the built-in profile's entry for a tool name.
func findBuiltin(name string) (*builtinTool, bool) {
	lo, hi := 0, len(builtinTools)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if builtinTools[m].name < name {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(builtinTools) && builtinTools[lo].name == name {
		return &builtinTools[lo], true
	}
	return nil, false
}

// info is what the profile says of the tool.
func (t *builtinTool) info() toolInfo {
	info := profileGroups[t.group]
	info.family = t.family()
	return info
}

// family is the tool's family key.
func (t *builtinTool) family() string {
	if f := profileGroups[t.group].family; f != "" {
		return f
	}
	return t.name
}

// builtinFamily reports whether fam is the family of a built-in tool.
func builtinFamily(fam string) bool {
	if fam == "" {
		return false
	}
	for i := range profileGroups {
		if profileGroups[i].family == fam {
			return true
		}
	}
	t, ok := findBuiltin(fam)
	return ok && profileGroups[t.group].family == ""
}

// builtinQuestion reports whether the built-in profile makes tool a
// question tool.
// BuiltinQuestion reports whether the built-in profile knows tool as a
// question tool (AskUserQuestion, ask_user), for hosts that decide
// through a gateway and have no engine of their own to ask.
func BuiltinQuestion(tool string) bool { return builtinQuestion(tool) }

func builtinQuestion(tool string) bool {
	t, ok := findBuiltin(tool)
	return ok && profileGroups[t.group].spec.Question
}

// toolProfile is the tools an engine knows: the built-in profile and the
// tools its documents declare over it.
type toolProfile struct {
	// declared holds the documents' declarations; nil when they declare
	// none, as the hook's rules usually do.
	declared map[string]toolInfo
	// families maps each family key to its member tool names (sorted),
	// built by index when tools are declared; the built-in profile's
	// families need no table (builtinFamily).
	families map[string][]string
}

// lookup returns what the profile knows of a tool name.
func (p *toolProfile) lookup(name string) (toolInfo, bool) {
	if info, ok := p.declared[name]; ok {
		return info, true
	}
	if t, ok := findBuiltin(name); ok {
		return t.info(), true
	}
	return toolInfo{}, false
}

// index builds the family table of a profile with declared tools.
func (p *toolProfile) index() {
	if p.declared == nil {
		return
	}
	p.families = map[string][]string{}
	for i := range builtinTools {
		t := &builtinTools[i]
		if _, over := p.declared[t.name]; !over {
			fam := t.family()
			p.families[fam] = append(p.families[fam], t.name)
		}
	}
	for name, info := range p.declared {
		p.families[info.family] = append(p.families[info.family], name)
	}
	for _, names := range p.families {
		sort.Strings(names)
	}
}

// knownFamily reports whether fam is the family of a tool of the profile.
func (p *toolProfile) knownFamily(fam string) bool {
	if p.families != nil {
		_, ok := p.families[fam]
		return ok
	}
	return builtinFamily(fam)
}

// globFamilies returns the family keys of which a member's name matches g.
func (p *toolProfile) globFamilies(g *glob.Glob) map[string]bool {
	fams := map[string]bool{}
	if p.families != nil {
		for fam, names := range p.families {
			for _, n := range names {
				if g.Match(n) {
					fams[fam] = true
					break
				}
			}
		}
		return fams
	}
	for i := range builtinTools {
		if t := &builtinTools[i]; g.Match(t.name) {
			fams[t.family()] = true
		}
	}
	return fams
}

// defaultArgs are the argument names a declared tool's kind reads when the
// declaration names none.
func defaultArgs(k Kind) []string {
	switch k {
	case KindShell:
		return profileGroups[groupShell].spec.Args
	case KindRead:
		return profileGroups[groupRead].spec.Args
	case KindWrite:
		return profileGroups[groupWrite].spec.Args
	case KindGlob:
		return profileGroups[groupGlob].spec.Args
	case KindGrep:
		return profileGroups[groupGrep].spec.Args
	case KindURL:
		return profileGroups[groupWebFetch].spec.Args
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

// sameKey returns the key shared by every name of tool's alias group: the
// group's first name, the seed spelling server_tool of an MCP tool (alias
// when the caller has it), or the name itself.
func (e *Engine) sameKey(tool, alias string) string {
	if t, ok := findBuiltin(tool); ok && t.same != "" {
		return t.same
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
