//go:build linux && arm64

package sandbox

import "syscall"

// vforkStack is 0: the child is a fork here.
const vforkStack = 0

func cloneVM(flags, stack uintptr, p *childPlan) (pid uintptr, errno syscall.Errno) {
	return 0, syscall.ENOSYS
}
