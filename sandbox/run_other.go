//go:build !linux

package sandbox

import (
	"context"
	"errors"
	"runtime"
)

// Supported is true where the sandbox can run (Linux).
const Supported = false

var errUnsupported = errors.New("the sandbox runs commands on Linux only (Landlock and seccomp); on macOS toolgate generates a Seatbelt profile but does not run it yet")

// Check reports why this machine cannot confine a command.
func Check() error { return errors.New(runtime.GOOS + ": " + errUnsupported.Error()) }

// Run refuses: nothing runs unconfined.
func Run(ctx context.Context, c Command) (int, error) { return 0, Check() }

// Enter refuses: nothing runs unconfined.
func Enter() error { return Check() }
