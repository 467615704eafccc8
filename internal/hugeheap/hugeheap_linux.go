package hugeheap

import (
	"syscall"
	"time"
	"unsafe"
)

// slowFault is the first-touch time of a page above which the heap is
// collapsed: on the benchmark machine's slow days a fault takes ~11 µs
// and the collapse is worth about fifty of them; on its fast days
// (1.6–3.2 µs) and on bare metal (well under a microsecond) the collapse
// would cost more than it saves (docs/BENCHMARKS.md, tenth pass).
const slowFault = 4 * time.Microsecond

const (
	hugePageSize = 2 << 20
	madvCollapse = 25 // MADV_COLLAPSE, linux/mman.h, Linux 6.1
	thpSetting   = "/sys/kernel/mm/transparent_hugepage/enabled"
)

// heapObject keeps the object whose address names the heap's region.
var heapObject *[64]byte

func init() {
	if faultTime(probePage()) >= slowFault && thpAllowed() {
		_ = collapse()
	}
}

// thpAllowed reports whether the system allows transparent huge pages at
// all: MADV_COLLAPSE ignores the setting, the package honours it.
func thpAllowed() bool {
	fd, err := syscall.Open(thpSetting, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer syscall.Close(fd)
	var buf [128]byte
	n, err := syscall.Read(fd, buf[:])
	if err != nil || n <= 0 {
		return false
	}
	return !contains(buf[:n], "[never]")
}

// contains is strings.Contains without importing strings, whose
// dependencies (unicode's tables) would then start before this package.
func contains(b []byte, s string) bool {
	for i := 0; i+len(s) <= len(b); i++ {
		if string(b[i:i+len(s)]) == s {
			return true
		}
	}
	return false
}

// probe holds a page that nothing else touches, wherever the linker puts
// it: its first write is the fault the package times. A page of the
// binary's zero-filled data rather than a new mapping, so the probe costs
// no mmap and no munmap, whose TLB shootdown interrupts every CPU running
// one of the runtime's threads (~40 µs under PVM).
var probe [2 * pageSize]byte

// pageSize is x86-64's page, which the 2 MB huge page assumes too. Where
// pages are larger the probe's page may be shared and already mapped: it
// then reads fast and the package does nothing.
const pageSize = 4 << 10

// probePage is the page-aligned page inside probe.
func probePage() []byte {
	off := -int(uintptr(unsafe.Pointer(&probe[0]))) & (pageSize - 1)
	return probe[off : off+pageSize]
}

// faultTime is the time of the first write to page, which must be fresh.
func faultTime(page []byte) time.Duration {
	start := time.Now()
	page[0] = 1
	return time.Since(start)
}

// collapse asks the kernel to back the region holding a new heap object
// with one huge page.
func collapse() error {
	heapObject = new([64]byte)
	return collapseAt(uintptr(unsafe.Pointer(heapObject)))
}

// collapseAt asks the kernel to back the huge-page-sized region holding
// addr with one huge page, keeping its contents.
func collapseAt(addr uintptr) error {
	region := addr &^ (hugePageSize - 1)
	if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, region, hugePageSize, madvCollapse); errno != 0 {
		return errno
	}
	return nil
}
