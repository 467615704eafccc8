package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestCodexMCPProxy drives the real Codex CLI with an MCP server behind
// toolgate mcp-proxy (the testserver, which records every call that
// reaches it), deciding from local rules: the model stand-in asks for
// one MCP tool call, as Codex offers MCP tools (a namespace mcp__srv
// holding the server's tools). An allowed call runs and its result
// reaches the model; a denied one never reaches the server, and the
// model is told why.
func TestCodexMCPProxy(t *testing.T) {
	program := os.Getenv("TOOLGATE_TEST_CODEX")
	if program == "" {
		t.Skip("TOOLGATE_TEST_CODEX is unset: the real Codex is not driven (.ci/run installs it from npm)")
	}
	t.Parallel()
	dir := t.TempDir()
	toolgateBin, server := filepath.Join(dir, "toolgate"), filepath.Join(dir, "testserver")
	// toolgate hands mcp-proxy to toolgate-mcp, installed beside it.
	for bin, pkg := range map[string]string{toolgateBin: "../toolgate", filepath.Join(dir, "toolgate-mcp"): "../toolgate-mcp", server: "../../integrations/mcpproxy/internal/testserver"} {
		cmd := exec.Command("go", "build", "-o", bin, pkg)
		cmd.Env = goEnv
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	rules := filepath.Join(dir, "rules.jsonc")
	if err := os.WriteFile(rules, []byte(`{"*": "ask", "srv_write_note": "allow", "srv_delete_all": "deny"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	agent := codexAgent()
	for _, tc := range []struct {
		tool      string
		ran       bool
		want, not []string
	}{
		{tool: "write_note", ran: true, want: []string{"FINAL", "wrote hi"}},
		{tool: "delete_all", want: []string{"FINAL", "toolgate denied this call to delete_all"}, not: []string{"deleted everything"}},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			t.Parallel() // a home, server log and model stand-in of its own
			home := t.TempDir()
			project := filepath.Join(home, "proj")
			for _, d := range []string{project, filepath.Join(home, ".codex")} {
				if err := os.MkdirAll(d, 0o700); err != nil {
					t.Fatal(err)
				}
			}
			calls := filepath.Join(home, "calls.log")
			proxyArgs := []string{"mcp-proxy", "--name", "srv", "--rules", rules, "--", server, "-calls", calls}
			quoted := make([]string, len(proxyArgs))
			for i, a := range proxyArgs {
				quoted[i] = strconv.Quote(a)
			}
			// Codex 0.171.0 offers an MCP server's tools in one namespace
			// tool, mcp__SERVER, and takes a call of one of them as a
			// function_call with that namespace.
			model := responsesCallStub(t, map[string]any{"type": "function_call", "id": "fc_1", "call_id": "call_1",
				"name": tc.tool, "namespace": "mcp__srv", "arguments": `{"note":"hi"}`})
			args := append(slices.Clone(agent.args),
				"-c", "mcp_servers.srv.command="+strconv.Quote(toolgateBin),
				"-c", "mcp_servers.srv.args=["+strings.Join(quoted, ",")+"]")
			args = append(args, agent.modelArgs(model.URL)...)
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			out := runAgent(ctx, t, program, home, project, args,
				append([]string{"CODEX_HOME=" + filepath.Join(home, ".codex"), "TOOLGATE_URL="}, agent.environ(model.URL)...))
			checkOutput(t, out, tc.want, tc.not)
			got, _ := os.ReadFile(calls)
			if ran := slices.Contains(strings.Fields(string(got)), tc.tool); ran != tc.ran {
				t.Errorf("%s reached the server: %v, want %v (calls: %q)\n%s", tc.tool, ran, tc.ran, got, out)
			}
		})
	}
}
