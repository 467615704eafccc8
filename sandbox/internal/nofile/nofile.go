// Package nofile records the limit on open files this process started
// with. The Go runtime (package syscall's initialisation) raises the soft
// limit for itself and restores it in the children os/exec starts; the
// sandbox starts its command with its own fork, and restores it from
// here. The package imports nothing, so it is initialised before syscall:
// packages are initialised in the order of their import paths, each as
// soon as its imports are (the Go specification, "Package
// initialization").
package nofile

// start is the limit at start: soft, hard.
var start [2]uint64

var recorded bool

func init() { recorded = getrlimit(rlimitNofile, &start) == 0 }

// AtStart returns the soft and hard limit on open files this process
// started with, and false where it could not record them.
func AtStart() (soft, hard uint64, ok bool) { return start[0], start[1], recorded }
