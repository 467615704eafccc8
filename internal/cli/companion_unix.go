//go:build unix

package cli

import (
	"os"
	"syscall"
)

// canExec: this system replaces a process with another program.
const canExec = true

// execProgram replaces this process with the program: it returns only
// when the exec fails.
func execProgram(path string, argv []string) error { return syscall.Exec(path, argv, os.Environ()) }
