package shell

import "syscall"

// threadCPU returns the CPU time the calling thread has used, in
// nanoseconds. Unlike wall time it does not grow when other processes load
// the machine, so a bound on it holds on a busy CI runner.
func threadCPU() (int64, bool) {
	const rusageThread = 1 // RUSAGE_THREAD
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return ru.Utime.Nano() + ru.Stime.Nano(), true
}
