package claudecode

import (
	"strings"

	"github.com/toolgate/toolgate"
)

// Confiner turns a call offered a confined allow (Decision.Sandbox) into
// the same call run under the kernel sandbox: the updated tool input, and
// whether it can. A hook whose host cannot replace a tool's input, or a
// machine that cannot confine, has none: the call asks.
type Confiner func(c *toolgate.Call, conf *toolgate.Confinement) (map[string]any, bool)

// SandboxShell is the Confiner for a host's shell tool (Claude Code's
// and opencode's Bash, Gemini CLI's run_shell_command), whose input holds
// the command line in "command": the command becomes `SANDBOX --workspace
// W… -- bash -c 'COMMAND'`, the rest of the input unchanged, led by
// TOOLGATE_SESSION=… TOOLGATE_WORKSPACE=… when the call names them, so
// what the sandbox reports or asks a gateway lands in the call's session
// (the command itself never sees toolgate's variables). sandbox is
// the path of toolgate-sandbox (or of toolgate followed by its "sandbox"
// subcommand, as one argument list). Any other tool, or a call without a
// command, declines.
func SandboxShell(tool string, sandbox ...string) Confiner {
	return func(c *toolgate.Call, conf *toolgate.Confinement) (map[string]any, bool) {
		cmd, ok := c.Args["command"].(string)
		if tool == "" || c.Tool != tool || !ok || cmd == "" || conf == nil || conf.Profile != "default" || len(conf.Workspaces) == 0 || len(sandbox) == 0 {
			return nil, false
		}
		var b strings.Builder
		if c.Session != "" {
			b.WriteString("TOOLGATE_SESSION=" + shellQuote(c.Session) + " ")
		}
		if c.Workspace != "" {
			b.WriteString("TOOLGATE_WORKSPACE=" + shellQuote(c.Workspace) + " ")
		}
		for _, s := range sandbox {
			b.WriteString(shellQuote(s) + " ")
		}
		for _, w := range conf.Workspaces {
			b.WriteString("--workspace " + shellQuote(w) + " ")
		}
		b.WriteString("-- bash -c " + shellQuote(cmd))
		out := make(map[string]any, len(c.Args))
		for k, v := range c.Args {
			out[k] = v
		}
		out["command"] = b.String()
		return out, true
	}
}

// shellQuote quotes s for a POSIX shell: one single-quoted word.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
