// Package mcpproxy puts toolgate between an MCP client and an MCP server
// (DESIGN §7.5).
//
// The proxy serves the client on stdio or streamable HTTP and talks to the
// server as a child process on stdio or over streamable HTTP, using the
// official Go SDK (github.com/modelcontextprotocol/go-sdk). Every
// tools/call is decided by the gate before it reaches the server, with the
// tool named mcp__SERVER__TOOL (the seed spelling SERVER_TOOL matches the
// same rules): allow forwards the call and returns the server's result
// unchanged; deny answers with a tool error result carrying the reason; ask
// asks the user inside the client through elicitation when the client
// supports it, and toolgate's approvers when a gateway is configured,
// sending progress notifications while it waits and denying when the gate's
// own timeout ends. "Always" answers without a gateway are kept in a rules
// document (Config.Remember). A call to a tool the server does not list is
// answered with the server's own error, "unknown tool", and put to nobody.
//
// Everything else passes through: tools/list (tool annotations set the
// tier: readOnlyHint lowers a tool to the read tier, which only the mode
// can use, never to turn a deny into an allow; tools the rules deny
// outright may be hidden), list-changed notifications, resources, prompts,
// completion, logging, progress, and the server's own requests to the
// client (elicitation, sampling, roots).
//
// Each client session gets its own upstream session: one child process
// per client for a command, one streamable HTTP session per client for an
// upstream URL. Both sides speak the MCP versions that have an initialize
// handshake (up to 2025-11-25), where a server may send requests such as
// elicitation/create to the client while a call is in flight.
package mcpproxy
