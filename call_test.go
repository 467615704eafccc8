package toolgate_test

import (
	"testing"

	"github.com/toolgate/toolgate"
)

// Seed 003: "Origin: MCP server tool for unannotated mcp__... tools".
func TestMCPOrigin(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		tool, want string
		ok         bool
	}{
		{"mcp__github__create_issue", "mcp:github", true},
		{"mcp__fs__read__deep", "mcp:fs", true},
		// Not MCP names: no origin is made up for them.
		{"Bash", "", false},
		{"github_create_issue", "", false},
		{"mcp__github", "", false},
		{"mcp____x", "", false},
		{"mcp__github__", "", false},
		{"xmcp__github__create_issue", "", false},
		{"MCP__github__create_issue", "", false},
	} {
		got, ok := toolgate.MCPOrigin(tc.tool)
		if got != tc.want || ok != tc.ok {
			t.Errorf("MCPOrigin(%q) = %q, %v; want %q, %v", tc.tool, got, ok, tc.want, tc.ok)
		}
	}
}
