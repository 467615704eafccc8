//go:build !linux

package enter

import (
	"errors"
	"runtime"
)

// Enter refuses: the sandbox runs commands on Linux only, and nothing
// runs unconfined.
func Enter() error {
	return errors.New("sandbox: " + runtime.GOOS + ": the sandbox runs commands on Linux only")
}
