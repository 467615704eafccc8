//go:build linux && (amd64 || arm64)

package sandbox

import (
	"fmt"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The confined command is started by a child forked here that sets the
// sandbox up with raw system calls and execs the command: no second
// program starts in the new namespaces. Go's own fork child
// (syscall.forkAndExecInChild1) runs a fixed sequence without mounts;
// this one follows its rules: between the fork and the exec it allocates
// nothing, grows no stack (go:nosplit, enforced by the linker and by the
// runtime's fork stack guard) and calls nothing but raw system calls;
// everything it needs is laid out in a childPlan before the fork.

// The runtime's fork hooks, which package syscall uses around its own
// fork: signals blocked across the fork, the child's signal handlers
// reset to the default before it runs anything that can be interrupted.
//
//go:linkname runtimeBeforeFork syscall.runtime_BeforeFork
func runtimeBeforeFork()

//go:linkname runtimeAfterFork syscall.runtime_AfterFork
func runtimeAfterFork()

//go:linkname runtimeAfterForkInChild syscall.runtime_AfterForkInChild
func runtimeAfterForkInChild()

// atFDCWD is AT_FDCWD (-100) as a system call's argument.
const atFDCWD = ^uintptr(99)

// A child's steps, named in the error it reports.
const (
	stepIDMap = iota + 1
	stepSession
	stepPrivate
	stepPin
	stepReadOnly
	stepStatfs
	stepRemount
	stepLoopback
	stepListen
	stepHandOver
	stepDir
	stepFiles
	stepLimit
	stepNoNewPrivs
	stepLandlock
	stepSeccomp
	stepExec
)

// childPlan is everything the forked child uses, laid out before the
// fork. Paths and strings are NUL-terminated.
type childPlan struct {
	cloneFlags uintptr
	// idFiles are /proc/self/setgroups, uid_map and gid_map, written
	// with idData: the child maps its own user and group.
	idFiles [3]*byte
	idData  [3][]byte
	// root and empty are "/" and "".
	root, empty *byte
	pins, ro    []*byte
	// statfs is the child's buffer for a mount's flags.
	statfs unix.Statfs_t
	// listen: with a network, the loopback interface's request (ifreq),
	// the proxy's address, and the message that hands the listener over
	// (its descriptor is written into control at rightsAt).
	listen   bool
	ifreq    [40]byte
	addr     unix.RawSockaddrInet4
	msg      unix.Msghdr
	iov      unix.Iovec
	control  []byte
	rightsAt int
	data     [1]byte
	// dir is the working directory, entered after the mounts so that
	// it is seen through them.
	dir *byte
	// files become descriptors 0, 1, 2; above is a descriptor above all
	// of them and of report and ruleset.
	files [3]int
	above int
	// report is the child's end of the socket it reports a failure on
	// (and hands the listener over on); it closes on exec.
	report int
	// limit, when set, is the original soft limit on open files that
	// the Go runtime raised for itself.
	limit    *unix.Rlimit
	ruleset  int
	llFlags  uintptr
	seccomp  unix.SockFprog
	argv0    *byte
	argv     []*byte
	envv     []*byte
	failStep int // tests: fail at this step as if the kernel refused it
	// stack is the child's own stack when it shares this process's
	// memory (cloneVM); stackTop its aligned top.
	stack    []byte
	stackTop uintptr
	// copies are descriptors the parent made for the child (closed
	// after the fork).
	copies []int
	// record is the failure: step, index (of a path), errno.
	record [3]uint32
}

// childError is a child's reported failure.
type childError struct {
	step, index int
	errno       syscall.Errno
}

// forkChild starts the child that runs p and returns its process id. The
// child never returns: it execs the command, or reports its failure on
// p.report and exits. Where cloneVM is written (amd64) the child shares
// this process's memory on a stack of its own until its exec, while the
// forking thread waits (CLONE_VM|CLONE_VFORK, as os/exec starts
// processes): no copy of the page tables at the fork and none to tear
// down at the exec. Elsewhere it is a fork.
//
//go:nosplit
//go:norace
func forkChild(p *childPlan) (pid int, errno syscall.Errno) {
	var (
		r1   uintptr
		err1 syscall.Errno
	)
	runtimeBeforeFork()
	if vforkStack > 0 {
		r1, err1 = cloneVM(p.cloneFlags|syscall.CLONE_VM|syscall.CLONE_VFORK|uintptr(syscall.SIGCHLD), p.stackTop, p)
	} else {
		r1, _, err1 = syscall.RawSyscall6(syscall.SYS_CLONE, p.cloneFlags|uintptr(syscall.SIGCHLD), 0, 0, 0, 0, 0)
		if err1 == 0 && r1 == 0 {
			childMain(p)
		}
	}
	runtimeAfterFork()
	return int(r1), err1
}

// childMain is the child: it sets the sandbox up and execs the command,
// or reports the step that failed and exits. It never returns.
//
//go:nosplit
//go:norace
func childMain(p *childPlan) {
	var (
		r1   uintptr
		err1 syscall.Errno
		i    int
		step int
		idx  int
	)
	runtimeAfterForkInChild()

	step = stepSession
	if _, _, err1 = syscall.RawSyscall(syscall.SYS_SETSID, 0, 0, 0); err1 != 0 || p.failStep == step {
		goto fail
	}
	step = stepIDMap
	for i = 0; i < len(p.idFiles); i++ {
		idx = i
		r1, _, err1 = syscall.RawSyscall6(syscall.SYS_OPENAT, atFDCWD, uintptr(unsafe.Pointer(p.idFiles[i])), uintptr(syscall.O_WRONLY|syscall.O_CLOEXEC), 0, 0, 0)
		if err1 != 0 {
			goto fail
		}
		_, _, err1 = syscall.RawSyscall(syscall.SYS_WRITE, r1, uintptr(unsafe.Pointer(&p.idData[i][0])), uintptr(len(p.idData[i])))
		syscall.RawSyscall(syscall.SYS_CLOSE, r1, 0, 0)
		if err1 != 0 {
			goto fail
		}
	}
	idx = 0
	step = stepPrivate
	if _, _, err1 = syscall.RawSyscall6(syscall.SYS_MOUNT, uintptr(unsafe.Pointer(p.empty)), uintptr(unsafe.Pointer(p.root)), 0, syscall.MS_REC|syscall.MS_PRIVATE, 0, 0); err1 != 0 {
		goto fail
	}
	// The directories between a protected path and its writable root,
	// so that they cannot be renamed away, then the protected paths,
	// read-only. A read-only remount in a user namespace must keep the
	// flags the mount has (nosuid, nodev, noexec and the atime ones are
	// locked).
	step = stepPin
	for i = 0; i < len(p.pins); i++ {
		idx = i
		if _, _, err1 = syscall.RawSyscall6(syscall.SYS_MOUNT, uintptr(unsafe.Pointer(p.pins[i])), uintptr(unsafe.Pointer(p.pins[i])), 0, syscall.MS_BIND|syscall.MS_REC, 0, 0); err1 != 0 {
			goto fail
		}
	}
	for i = 0; i < len(p.ro); i++ {
		idx = i
		step = stepReadOnly
		if _, _, err1 = syscall.RawSyscall6(syscall.SYS_MOUNT, uintptr(unsafe.Pointer(p.ro[i])), uintptr(unsafe.Pointer(p.ro[i])), 0, syscall.MS_BIND|syscall.MS_REC, 0, 0); err1 != 0 || p.failStep == step {
			goto fail
		}
		step = stepStatfs
		if _, _, err1 = syscall.RawSyscall(syscall.SYS_STATFS, uintptr(unsafe.Pointer(p.ro[i])), uintptr(unsafe.Pointer(&p.statfs)), 0); err1 != 0 {
			goto fail
		}
		step = stepRemount
		r1 = uintptr(p.statfs.Flags) & (syscall.MS_NOSUID | syscall.MS_NODEV | syscall.MS_NOEXEC | syscall.MS_NOATIME | syscall.MS_NODIRATIME | syscall.MS_RELATIME)
		if _, _, err1 = syscall.RawSyscall6(syscall.SYS_MOUNT, uintptr(unsafe.Pointer(p.empty)), uintptr(unsafe.Pointer(p.ro[i])), 0, syscall.MS_BIND|syscall.MS_REMOUNT|syscall.MS_RDONLY|r1, 0, 0); err1 != 0 {
			goto fail
		}
	}
	idx = 0
	if p.listen {
		// The network namespace's loopback interface up (its only one),
		// a listener on the proxy's address there, handed to Run.
		step = stepLoopback
		r1, _, err1 = syscall.RawSyscall(syscall.SYS_SOCKET, syscall.AF_INET, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, 0)
		if err1 != 0 || p.failStep == step {
			goto fail
		}
		if _, _, err1 = syscall.RawSyscall(syscall.SYS_IOCTL, r1, syscall.SIOCGIFFLAGS, uintptr(unsafe.Pointer(&p.ifreq[0]))); err1 == 0 {
			p.ifreq[16] |= syscall.IFF_UP
			_, _, err1 = syscall.RawSyscall(syscall.SYS_IOCTL, r1, syscall.SIOCSIFFLAGS, uintptr(unsafe.Pointer(&p.ifreq[0])))
		}
		syscall.RawSyscall(syscall.SYS_CLOSE, r1, 0, 0)
		if err1 != 0 {
			goto fail
		}
		step = stepListen
		r1, _, err1 = syscall.RawSyscall(syscall.SYS_SOCKET, syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
		if err1 != 0 {
			goto fail
		}
		if _, _, err1 = syscall.RawSyscall(syscall.SYS_BIND, r1, uintptr(unsafe.Pointer(&p.addr)), unsafe.Sizeof(p.addr)); err1 != 0 {
			goto fail
		}
		if _, _, err1 = syscall.RawSyscall(syscall.SYS_LISTEN, r1, syscall.SOMAXCONN, 0); err1 != 0 {
			goto fail
		}
		step = stepHandOver
		*(*int32)(unsafe.Pointer(&p.control[p.rightsAt])) = int32(r1)
		if _, _, err1 = syscall.RawSyscall(syscall.SYS_SENDMSG, uintptr(p.report), uintptr(unsafe.Pointer(&p.msg)), 0); err1 != 0 {
			goto fail
		}
		syscall.RawSyscall(syscall.SYS_CLOSE, r1, 0, 0)
	}
	step = stepDir
	if _, _, err1 = syscall.RawSyscall(syscall.SYS_CHDIR, uintptr(unsafe.Pointer(p.dir)), 0, 0); err1 != 0 {
		goto fail
	}
	// Standard input, output and error: first out of the way of each
	// other (above), then in place, open across the exec.
	step = stepFiles
	for i = 0; i < len(p.files); i++ {
		if p.files[i] < i {
			if _, _, err1 = syscall.RawSyscall(syscall.SYS_DUP3, uintptr(p.files[i]), uintptr(p.above+i), syscall.O_CLOEXEC); err1 != 0 {
				goto fail
			}
			p.files[i] = p.above + i
		}
	}
	for i = 0; i < len(p.files); i++ {
		if p.files[i] == i {
			_, _, err1 = syscall.RawSyscall(syscall.SYS_FCNTL, uintptr(i), syscall.F_SETFD, 0)
		} else {
			_, _, err1 = syscall.RawSyscall(syscall.SYS_DUP3, uintptr(p.files[i]), uintptr(i), 0)
		}
		if err1 != 0 {
			goto fail
		}
	}
	if p.limit != nil {
		step = stepLimit
		if _, _, err1 = syscall.RawSyscall6(syscall.SYS_PRLIMIT64, 0, syscall.RLIMIT_NOFILE, uintptr(unsafe.Pointer(p.limit)), 0, 0, 0); err1 != 0 {
			goto fail
		}
	}
	step = stepNoNewPrivs
	if _, _, err1 = syscall.RawSyscall6(syscall.SYS_PRCTL, unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0, 0); err1 != 0 {
		goto fail
	}
	step = stepLandlock
	if _, _, err1 = syscall.RawSyscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(p.ruleset), p.llFlags, 0); err1 != 0 || p.failStep == step {
		goto fail
	}
	syscall.RawSyscall(syscall.SYS_CLOSE, uintptr(p.ruleset), 0, 0)
	step = stepSeccomp
	if _, _, err1 = syscall.RawSyscall6(syscall.SYS_PRCTL, unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&p.seccomp)), 0, 0, 0); err1 != 0 {
		goto fail
	}
	step = stepExec
	_, _, err1 = syscall.RawSyscall(syscall.SYS_EXECVE, uintptr(unsafe.Pointer(p.argv0)), uintptr(unsafe.Pointer(&p.argv[0])), uintptr(unsafe.Pointer(&p.envv[0])))

fail:
	if err1 == 0 {
		err1 = syscall.EPERM // a test's failStep
	}
	p.record[0], p.record[1], p.record[2] = uint32(step), uint32(idx), uint32(err1)
	syscall.RawSyscall(syscall.SYS_WRITE, uintptr(p.report), uintptr(unsafe.Pointer(&p.record[0])), unsafe.Sizeof(p.record))
	for {
		syscall.RawSyscall(syscall.SYS_EXIT_GROUP, 253, 0, 0)
	}
}

// what says what a failed step was doing.
func (e childError) what(pins, ro []string) string {
	path := func(list []string) string {
		if e.index < len(list) {
			return list[e.index]
		}
		return "?"
	}
	switch e.step {
	case stepIDMap:
		return "mapping the user and group into the sandbox"
	case stepSession:
		return "starting a new session"
	case stepPrivate:
		return "making mounts private"
	case stepPin:
		return "protecting " + path(pins)
	case stepReadOnly, stepStatfs:
		return "protecting " + path(ro)
	case stepRemount:
		return "making " + path(ro) + " read-only"
	case stepLoopback:
		return "network: bringing the loopback interface up"
	case stepListen:
		return fmt.Sprintf("network: listening on 127.0.0.1:%d", ProxyPort)
	case stepHandOver:
		return "network: handing over the listener"
	case stepDir:
		return "entering the working directory"
	case stepFiles:
		return "setting up standard input and output"
	case stepLimit:
		return "restoring the limit on open files"
	case stepNoNewPrivs:
		return "no_new_privs"
	case stepLandlock:
		return "landlock"
	case stepSeccomp:
		return "seccomp filter"
	}
	return fmt.Sprintf("step %d", e.step)
}
