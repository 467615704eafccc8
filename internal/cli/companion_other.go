//go:build !unix

package cli

import "errors"

// canExec: this system cannot replace a process with another program;
// the companion runs as a child.
const canExec = false

func execProgram(string, []string) error { return errors.ErrUnsupported }
