package toolgate

import "strings"

// Call is one tool call an agent wants to make.
type Call struct {
	// ID is unique within its session and is the idempotency key: submitting
	// the same call again attaches to the same approval.
	ID string `json:"id,omitempty"`
	// Session is the agent conversation the call belongs to.
	Session string `json:"session,omitempty"`
	// Workspace owns the rules document; the seeds call it a worker.
	Workspace string `json:"workspace,omitempty"`
	// Agent is the subagent type, empty for a top-level session.
	Agent string `json:"agent,omitempty"`
	// Tool is the tool name as the agent spells it (Bash, read_file,
	// mcp__github__create_issue, …).
	Tool string `json:"tool"`
	// Args are the tool's arguments.
	Args map[string]any `json:"args,omitempty"`
	// Tier is the tier the caller declares. It is used only for tools no
	// profile or declaration knows; a known tool's tier comes from config.
	Tier Tier `json:"tier,omitempty"`
	// Origin says where the tool comes from, e.g. "mcp:github".
	Origin string `json:"origin,omitempty"`
	// Cwd is the agent's working directory, used to resolve relative paths.
	Cwd string `json:"cwd,omitempty"`
	// Home is the agent's home directory, which "~" in the call's paths
	// and commands means. A gateway whose own home differs decides the
	// call for both homes, the stricter decision standing: the agent's
	// word can only tighten a decision. Empty: the gateway's home.
	Home string `json:"home,omitempty"`
	// PathArgs names the arguments that hold file paths by the tool's own
	// description of them (an MCP server's input schema), besides those
	// named like paths: each is checked as a file the tool reads, or
	// writes when its name says so. It can only add checks.
	PathArgs []string `json:"pathArgs,omitempty"`
	// Batch places the call in a model turn that requested several calls.
	Batch *Batch `json:"batch,omitempty"`
}

// MCPOrigin returns the origin of an MCP tool named the Claude Code way,
// mcp__server__tool: "mcp:server". ok is false for other names. The name
// decides the origin approvers are shown (seed 003: "Origin: MCP server
// tool for … mcp__... tools"), whatever the caller claimed.
func MCPOrigin(tool string) (origin string, ok bool) {
	rest, found := strings.CutPrefix(tool, "mcp__")
	if !found {
		return "", false
	}
	server, name, found := strings.Cut(rest, "__")
	if !found || server == "" || name == "" {
		return "", false
	}
	return "mcp:" + server, true
}

// Batch says where a call stands in a batch of calls from one model turn.
type Batch struct {
	ID    string `json:"id"`
	Index int    `json:"index"`
	Total int    `json:"total"`
}
