// Package enter is the inside half of a confined run (sandbox.Run): a
// process started in new user and mount namespaces reads its Plan,
// applies it to itself and becomes the command. It links nothing else,
// so that toolgate-sandbox-enter, the program made of it, starts in a
// fraction of the time of a program that also holds the proxy and the
// gateway client.
package enter

import (
	"errors"
	"fmt"
	"io"
)

// ExitSandbox is the exit status of a sandbox that could not be set up
// (nothing ran).
const ExitSandbox = 125

// ExecError is a command that could not be started inside the sandbox:
// Code is 127 when it does not exist, 126 otherwise (as env(1) exits).
type ExecError struct {
	Code int
	Err  error
}

func (e *ExecError) Error() string { return e.Err.Error() }
func (e *ExecError) Unwrap() error { return e.Err }

// Main runs Enter, which returns only on failure, and returns the exit
// status to end with after writing why on stderr: the command's 126 or
// 127, or ExitSandbox.
func Main(stderr io.Writer) int {
	err := Enter()
	var ee *ExecError
	if errors.As(err, &ee) {
		fmt.Fprintf(stderr, "toolgate: sandbox: %v\n", ee.Err)
		return ee.Code
	}
	fmt.Fprintf(stderr, "toolgate: %v (nothing ran)\n", err)
	return ExitSandbox
}
