package hookcli

import (
	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/claudecode"
	"github.com/toolgate/toolgate/integrations/hosts"
	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/sandbox/kernel"
)

// SandboxConfiner is how a hook whose host can replace a tool's input
// (host.ShellTool: Claude Code's updatedInput, Gemini CLI's tool_input,
// opencode's args) runs a call offered a confined allow: under
// toolgate-sandbox, found next to this program or on PATH. Where the
// host cannot, the kernel cannot confine or the binary is missing, it
// declines (nil, or false) and the call asks.
func SandboxConfiner(host *hosts.Host) claudecode.Confiner {
	if host == nil || host.ShellTool == "" {
		return nil
	}
	return func(c *toolgate.Call, conf *toolgate.Confinement) (map[string]any, bool) {
		if c.Tool != host.ShellTool || conf == nil || kernel.Check() != nil {
			return nil, false
		}
		bin := SandboxBinary()
		if bin == "" {
			return nil, false
		}
		return claudecode.SandboxShell(host.ShellTool, bin)(c, conf)
	}
}

// SandboxBinary is the path of toolgate-sandbox: beside this program
// (installed together), else on PATH; "" when there is none.
func SandboxBinary() string { return clibase.Sibling("toolgate-sandbox") }
