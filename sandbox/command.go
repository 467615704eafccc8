package sandbox

import (
	"io"

	"github.com/toolgate/toolgate/sandbox/enter"
)

// Command is one command to run confined.
type Command struct {
	// Profile is what the command may do; when it is nil, Run calls
	// MakeProfile (on another goroutine) while the inside process starts.
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
	// Self is the program that sets the sandbox up inside its own
	// namespaces (on Linux), and EnterArgs the arguments that make it call
	// Enter: toolgate-sandbox-enter and none, or this program again and
	// its flag for it.
	Self      string
	EnterArgs []string
	// Proxy is the proxy the command reaches the network through (nil:
	// no network). Run serves it, on Linux inside the command's own
	// network namespace, until the command ends; Proxy.Env is the
	// environment that points the command at it.
	Proxy *Proxy
}

// ExecError is a command that could not be started inside the sandbox:
// Code is 127 when it does not exist, 126 otherwise (as env(1) exits).
type ExecError = enter.ExecError
