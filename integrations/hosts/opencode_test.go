package hosts_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/integrations/hosts"
)

// TestOpencodePluginInNode loads the plugin file install writes in Node
// (opencode's plugins are ES modules) and runs its tool.execute.before
// against hook commands that allow, deny, fail and answer nonsense:
// only the allow lets the call through, with a human's changes merged.
func TestOpencodePluginInNode(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the opencode plugin is not run")
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name, command, want string
	}{
		{"allow", `cat >/dev/null; echo '{"decision":"allow"}'`, "RAN {}"},
		{"allow changed", `cat >/dev/null; echo '{"decision":"allow","args":{"command":"ls -l"}}'`, `RAN {"command":"ls -l"}`},
		{"deny", `cat >/dev/null; echo '{"decision":"deny","reason":"toolgate: no secrets"}'`, "BLOCKED toolgate: no secrets"},
		{"block exit", `cat >/dev/null; echo 'bad input' >&2; exit 2`, "BLOCKED toolgate: bad input (the call is blocked)"},
		{"crash", `exit 1`, "BLOCKED toolgate: hook exited 1 (the call is blocked)"},
		{"nonsense", `cat >/dev/null; echo 'allow'`, "BLOCKED toolgate: the hook's answer cannot be read"},
		{"no such hook", `/no/such/toolgate-hook opencode`, "BLOCKED toolgate: "},
		{"sends the call", `in=$(cat); case "$in" in *'"session_id":"s1","tool_use_id":"c1","cwd":"/home/dev/shop","tool_name":"bash","tool_input":{"command":"ls"}'*) echo '{"decision":"allow"}';; *) echo '{"decision":"deny","reason":"wrong input"}';; esac`, "RAN {}"},
	} {
		plugin := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".mjs")
		if err := os.WriteFile(plugin, hosts.OpencodePlugin(tc.command, 5000), 0o644); err != nil {
			t.Fatal(err)
		}
		script := `
const { Toolgate } = await import(process.argv[1]);
const hooks = await Toolgate({ directory: "/home/dev/shop" });
const output = { args: { command: "ls" } };
try {
  await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s1", callID: "c1" }, output);
  const changed = output.args.command === "ls" ? {} : output.args;
  console.log("RAN " + JSON.stringify(changed));
} catch (e) {
  console.log("BLOCKED " + e.message);
}
`
		out, err := exec.Command(node, "--input-type=module", "-e", script, plugin).CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), tc.want) {
			t.Errorf("%s: %v: %s, want %s", tc.name, err, out, tc.want)
		}
	}
}
