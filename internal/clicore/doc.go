// Package clicore is the part of toolgate's command line that the lean
// hook binary (cmd/toolgate-hook) shares with the toolgate command: exit
// codes and errors, flag helpers, loading rules, and the agent hook
// itself ("hook claude-code|codex").
//
// It links no HTTP, SQLite, MCP or YAML-config code beyond what deciding
// needs: the hook runs once per tool call of the agent, so every package
// initialised at its start is paid on every call (go list -deps
// ./cmd/toolgate-hook shows what it links; TestLeanDeps keeps it so).
package clicore
