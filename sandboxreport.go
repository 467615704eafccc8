package toolgate

// SandboxReport is what a command run in the kernel sandbox (DESIGN §3.7)
// reports to a gateway when the sandbox refused something it tried: the
// gateway audits it (kind "sandbox.violation", outcome "blocked"). JSON
// body of POST /v1/sandbox/violations.
type SandboxReport struct {
	// Session and Workspace name where the command ran, when the host
	// told the sandbox ($TOOLGATE_SESSION, $TOOLGATE_WORKSPACE).
	Session   string `json:"session,omitempty"`
	Workspace string `json:"workspace,omitempty"`
	// Command is the confined command line; Cwd its working directory.
	Command string `json:"command"`
	Cwd     string `json:"cwd,omitempty"`
	// ExitCode is the command's exit status.
	ExitCode int `json:"exit_code"`
	// Violations are what the sandbox refused, one per target.
	Violations []SandboxViolation `json:"violations"`
}

// SandboxViolation is one operation the sandbox refused.
type SandboxViolation struct {
	// Kind is "file" (a read or write the profile does not allow) or
	// "network" (a connection to a host it does not name).
	Kind string `json:"kind"`
	// Target is the path or host:port.
	Target string `json:"target"`
	// Rule is the profile's rule that refused it, as the command's
	// standard error says it ("writes outside the workspace and the
	// temporary directory are blocked").
	Rule string `json:"rule"`
}

// Sandbox report bounds: what one POST /v1/sandbox/violations may carry.
const (
	MaxSandboxViolations = 64
	MaxSandboxText       = 4 << 10
)
