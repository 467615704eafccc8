package nofile

// rlimitNofile is RLIMIT_NOFILE.
const rlimitNofile = 7

// getrlimit is the system call (in assembly: this package imports
// nothing); it returns 0 or -errno.
func getrlimit(resource int, lim *[2]uint64) int
