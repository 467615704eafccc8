package sandbox

import "io"

// Command is one command to run confined.
type Command struct {
	// Profile is what the command may do; when it is nil, Run calls
	// MakeProfile.
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
	// Proxy is the proxy the command reaches the network through (nil:
	// no network). Run serves it, on Linux inside the command's own
	// network namespace, until the command ends; Proxy.Env is the
	// environment that points the command at it.
	Proxy *Proxy
	// StopOnSignal: SIGINT or SIGTERM to this process ends the command as
	// a cancelled ctx does (SIGTERM to its process group, SIGKILL 5 s
	// later) and Run returns its status. The command runs in a session of
	// its own, so a terminal's Ctrl-C reaches only this process. Run sets
	// the listening up beside the plan, not before it (os/signal starts
	// two threads, a tenth of a confined start), and has it in place
	// before the fork.
	StopOnSignal bool

	// failStep, in tests, makes the sandbox's setup fail at that step.
	failStep int
}

// ExecError is a command that could not be started inside the sandbox:
// Code is 127 when it does not exist, 126 otherwise (as env(1) exits).
type ExecError struct {
	Code int
	Err  error
}

func (e *ExecError) Error() string { return e.Err.Error() }
func (e *ExecError) Unwrap() error { return e.Err }
