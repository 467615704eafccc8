// Package hookcli is the agent hook's command line ("hook HOST": its
// flags, deciding by local rules or through a gateway, confined allows)
// and the rule and mode flags the toolgate command's other deciding
// subcommands (check, rules, host, mcp-proxy, serve) share with it. The
// lean hook binary (cmd/toolgate-hook) and "toolgate hook" both run it.
// Exit codes, errors and flag sets are package clibase's.
//
// It links no HTTP, SQLite, MCP or YAML-config code beyond what deciding
// needs: the hook runs once per tool call of the agent, so every package
// initialised at its start is paid on every call (go list -deps
// ./cmd/toolgate-hook shows what it links; TestLeanDeps keeps it so).
package hookcli
