package sandbox

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// loadSeccomp installs the filter on the calling thread, which has
// no_new_privs set and then execs (see Enter); it is inherited across
// exec and fork.
func loadSeccomp(prog [][4]uint32) error {
	filter := make([]unix.SockFilter, len(prog))
	for i, in := range prog {
		filter[i] = unix.SockFilter{Code: uint16(in[0]), Jt: uint8(in[1]), Jf: uint8(in[2]), K: in[3]}
	}
	fprog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0); err != nil {
		return fmt.Errorf("sandbox: seccomp filter: %w", err)
	}
	return nil
}
