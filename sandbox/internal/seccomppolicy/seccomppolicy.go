//go:build linux

// Package seccomppolicy is the sandbox's system-call filter, written with
// github.com/elastic/go-seccomp-bpf. The sandbox links the assembled
// programs as data on amd64 (the library's tables cost every process
// start milliseconds) and this package elsewhere; a test checks the data
// against this package.
package seccomppolicy

import (
	"fmt"
	"runtime"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// deniedSyscalls are system calls a confined command never needs and
// that reach past the file-system and network rules: other processes'
// memory (ptrace, process_vm_*), kernel keyrings, io_uring (its
// operations bypass the system-call filter), BPF and perf, mounts and
// namespaces, kernel modules, the clock, reboot, and opening files by
// handle (which skips path checks). They fail with EPERM.
var deniedSyscalls = []string{
	"ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd",
	"keyctl", "add_key", "request_key",
	"io_uring_setup", "io_uring_enter", "io_uring_register",
	"bpf", "perf_event_open", "userfaultfd",
	"mount", "umount2", "pivot_root", "chroot", "move_mount", "open_tree",
	"fsopen", "fsmount", "fsconfig", "fspick", "mount_setattr",
	"unshare", "setns",
	"init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load",
	"reboot", "swapon", "swapoff", "acct", "quotactl",
	"settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
	"iopl", "ioperm", "syslog", "lookup_dcookie", "fanotify_init",
	"open_by_handle_at", "name_to_handle_at",
}

// Flag bits tested in system-call arguments.
const (
	// newNamespaces are clone's flags that make a new namespace.
	newNamespaces = unix.CLONE_NEWUSER | unix.CLONE_NEWNS | unix.CLONE_NEWNET | unix.CLONE_NEWPID |
		unix.CLONE_NEWIPC | unix.CLONE_NEWUTS | unix.CLONE_NEWCGROUP
	// msgFastOpen sends a TCP SYN with data from sendto/sendmsg.
	msgFastOpen = unix.MSG_FASTOPEN
)

// Policy is the filter, with or without a network (a proxy). Everything not named is
// allowed; Landlock decides files and TCP. Sockets: with no network, no
// socket can be made (socketpair still can: pipes between a program's
// own processes); with a proxy, only TCP sockets over IPv4 and IPv6.
// Argument tests compare all 64 bits, so a value with high bits set to
// dodge a test is not the value allowed: socket's allow list is written
// as "deny unless exactly these".
func Policy(network bool) seccomp.Policy {
	eperm := seccomp.ActionErrno | seccomp.Action(unix.EPERM)
	eacces := seccomp.ActionErrno | seccomp.Action(unix.EACCES)
	enosys := seccomp.ActionErrno | seccomp.Action(unix.ENOSYS)
	cond := func(arg uint32, op seccomp.Operation, v uint64) seccomp.Condition {
		return seccomp.Condition{Argument: arg, Operation: op, Value: v}
	}
	groups := []seccomp.SyscallGroup{
		{Action: eperm, Names: deniedSyscalls},
		// clone3 passes its flags in memory the filter cannot read: its
		// callers (the C library) fall back to clone when it is missing.
		{Action: enosys, Names: []string{"clone3"}},
		{Action: eperm, NamesWithCondtions: []seccomp.NameWithConditions{
			{Name: "clone", Conditions: []seccomp.Condition{cond(0, seccomp.BitsSet, newNamespaces)}},
			// Typing into the terminal the command was started from.
			{Name: "ioctl", Conditions: []seccomp.Condition{cond(1, seccomp.Equal, unix.TIOCSTI)}},
			{Name: "ioctl", Conditions: []seccomp.Condition{cond(1, seccomp.Equal, unix.TIOCLINUX)}},
		}},
	}
	if !network {
		groups = append(groups, seccomp.SyscallGroup{Action: eacces, Names: []string{"socket"}})
	} else {
		var socket []seccomp.NameWithConditions
		add := func(c ...seccomp.Condition) {
			socket = append(socket, seccomp.NameWithConditions{Name: "socket", Conditions: c})
		}
		add(cond(0, seccomp.NotEqual, unix.AF_INET), cond(0, seccomp.NotEqual, unix.AF_INET6))
		var types []seccomp.Condition
		for _, flags := range []uint64{0, unix.SOCK_CLOEXEC, unix.SOCK_NONBLOCK, unix.SOCK_CLOEXEC | unix.SOCK_NONBLOCK} {
			types = append(types, cond(1, seccomp.NotEqual, unix.SOCK_STREAM|flags))
		}
		add(types...)
		add(cond(2, seccomp.NotEqual, 0), cond(2, seccomp.NotEqual, unix.IPPROTO_TCP))
		socket = append(socket,
			seccomp.NameWithConditions{Name: "sendto", Conditions: []seccomp.Condition{cond(3, seccomp.BitsSet, msgFastOpen)}},
			seccomp.NameWithConditions{Name: "sendmsg", Conditions: []seccomp.Condition{cond(2, seccomp.BitsSet, msgFastOpen)}},
			seccomp.NameWithConditions{Name: "sendmmsg", Conditions: []seccomp.Condition{cond(3, seccomp.BitsSet, msgFastOpen)}},
		)
		groups = append(groups, seccomp.SyscallGroup{Action: eacces, NamesWithCondtions: socket})
	}
	return seccomp.Policy{DefaultAction: seccomp.ActionAllow, Syscalls: groups}
}

// Program assembles the filter as (code, jt, jf, k) instructions.
func Program(network bool) ([][4]uint32, error) {
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		return nil, fmt.Errorf("seccomp filter: architecture %s is not supported", runtime.GOARCH)
	}
	pol := Policy(network)
	insts, err := pol.Assemble()
	if err != nil {
		return nil, fmt.Errorf("seccomp filter: %w", err)
	}
	info, err := arch.GetInfo("")
	if err != nil {
		return nil, fmt.Errorf("seccomp filter: %w", err)
	}
	// The library's program allows every call made through another
	// ABI than this architecture's (its arch check jumps to the default
	// action): on amd64 an i386 call (int 0x80) would reach socket,
	// mount or ptrace past every rule. Such a call fails with ENOSYS.
	//
	// The library compares all 64 bits of an argument, but ioctl's
	// command is an unsigned int: the kernel drops the high half, so
	// TIOCSTI|1<<32 passed the ioctl rules. Here only the low half
	// (args[1] at offset 24, little-endian) is compared.
	guard := []bpf.Instruction{
		bpf.LoadAbsolute{Off: 4, Size: 4}, // seccomp_data.arch
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: uint32(info.ID), SkipTrue: 1},
		bpf.RetConstant{Val: uint32(seccomp.ActionErrno) | uint32(unix.ENOSYS)},
		bpf.LoadAbsolute{Off: 0, Size: 4}, // seccomp_data.nr
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.SYS_IOCTL, SkipFalse: 4},
		bpf.LoadAbsolute{Off: 24, Size: 4}, // the low half of args[1]
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.TIOCSTI, SkipTrue: 1},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.TIOCLINUX, SkipFalse: 1},
		bpf.RetConstant{Val: uint32(seccomp.ActionErrno) | uint32(unix.EPERM)},
	}
	raw, err := bpf.Assemble(append(guard, insts...))
	if err != nil {
		return nil, fmt.Errorf("seccomp filter: %w", err)
	}
	out := make([][4]uint32, len(raw))
	for i, r := range raw {
		out[i] = [4]uint32{uint32(r.Op), uint32(r.Jt), uint32(r.Jf), r.K}
	}
	return out, nil
}
