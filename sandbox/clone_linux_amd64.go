package sandbox

import "syscall"

// vforkStack is the size of the stack the child runs on while it shares
// this process's memory (childMain's frames and the system calls'; the
// linker bounds a go:nosplit chain well below it).
const vforkStack = 64 << 10

// cloneVM is clone(2) with the child on the stack at stack, calling
// childMain(p) (assembly).
//
//go:noescape
func cloneVM(flags, stack uintptr, p *childPlan) (pid uintptr, errno syscall.Errno)
