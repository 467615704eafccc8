//go:build !linux || !(amd64 || arm64)

package sandbox

import (
	"context"
	"errors"
	"runtime"
)

// Supported is true where the sandbox can run (Linux on amd64 or arm64).
const Supported = false

var errUnsupported = errors.New("the sandbox runs commands on Linux on amd64 and arm64 only (Landlock and seccomp); on macOS toolgate generates a Seatbelt profile but does not run it yet")

// Check reports why this machine cannot confine a command.
func Check() error {
	return errors.New(runtime.GOOS + "/" + runtime.GOARCH + ": " + errUnsupported.Error())
}

// Run refuses: nothing runs unconfined.
func Run(ctx context.Context, c Command) (int, error) { return 0, Check() }
