//go:build !linux

package kernel

import (
	"errors"
	"runtime"
)

// Check reports why this machine cannot confine a command: the sandbox
// runs commands on Linux only.
func Check() error {
	return errors.New(runtime.GOOS + ": the sandbox runs commands on Linux only (Landlock and seccomp)")
}
