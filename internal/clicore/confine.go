package clicore

import (
	"os"
	"os/exec"
	"path/filepath"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/claudecode"
	"github.com/toolgate/toolgate/sandbox/kernel"
)

// SandboxConfiner is how a hook whose host can replace a tool's input
// (Claude Code's updatedInput) runs a call offered a confined allow: under
// toolgate-sandbox, found next to this program or on PATH. Where the
// kernel cannot confine or the binary is missing, it declines and the
// call asks.
func SandboxConfiner(host string) claudecode.Confiner {
	if host != "claude-code" {
		return nil
	}
	return func(c *toolgate.Call, conf *toolgate.Confinement) (map[string]any, bool) {
		if kernel.Check() != nil {
			return nil, false
		}
		bin := SandboxBinary()
		if bin == "" {
			return nil, false
		}
		return claudecode.SandboxBash(bin)(c, conf)
	}
}

// SandboxBinary is the path of toolgate-sandbox: beside this program
// (installed together), else on PATH; "" when there is none.
func SandboxBinary() string {
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), "toolgate-sandbox")
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	if p, err := exec.LookPath("toolgate-sandbox"); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs
		}
	}
	return ""
}
