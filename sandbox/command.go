package sandbox

import "io"

// Command is one command to run confined.
type Command struct {
	// Profile is what the command may do; when it is nil, Run calls
	// MakeProfile while the inside process starts.
	Profile     *Profile
	MakeProfile func() (*Profile, error)
	// Args is the command and its arguments; Args[0] is a path.
	Args []string
	// Env is the command's whole environment.
	Env []string
	// Dir is its working directory ("" for the current one).
	Dir string
	// Stdin, Stdout and Stderr are its standard streams.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Self is the path of this program and EnterArgs the arguments that
	// make it call Enter (on Linux the sandbox is set up by a second
	// process of the same program, in its own namespaces).
	Self      string
	EnterArgs []string
	// ProxyPort is the loopback port of the network proxy the command may
	// connect to (0: no network).
	ProxyPort uint16
}

// enterPlan is what Run hands the process that calls Enter, besides the
// Landlock ruleset's descriptor: everything worked out, so that the
// inside half only applies it.
type enterPlan struct {
	Args          []string `json:"args"`
	Env           []string `json:"env"`
	Pins          []string `json:"pins,omitempty"`
	ReadOnly      []string `json:"read_only,omitempty"`
	LandlockFlags uint32   `json:"landlock_flags,omitempty"`
	// Seccomp is the assembled filter, as (code, jt, jf, k) instructions.
	Seccomp [][4]uint32 `json:"seccomp"`
}

// ExecError is a command that could not be started inside the sandbox:
// Code is 127 when it does not exist, 126 otherwise (as env(1) exits).
type ExecError struct {
	Code int
	Err  error
}

func (e *ExecError) Error() string { return e.Err.Error() }
func (e *ExecError) Unwrap() error { return e.Err }
