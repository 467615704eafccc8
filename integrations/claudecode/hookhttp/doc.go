// Package hookhttp carries toolgate's Claude Code and Codex hooks over
// HTTP: NewHandler serves HTTP hooks (POST /hooks/claude-code). A command
// hook that decides through a gateway gives claudecode.Remote the HTTP
// client as its toolgate.Gate.
//
// It is apart from package claudecode so that the hook's local path links
// no net/http: the command hook runs once per tool call, and its process
// start is part of every call's latency (cmd/toolgate-hook).
package hookhttp
