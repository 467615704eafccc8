package hugeheap

import (
	"syscall"
	"time"
	"unsafe"
)

// slowFault is the first-touch time of a page above which the heap is
// collapsed: on the benchmark machine a fault takes ~11 µs and the
// collapse is worth about fifty of them; on bare metal a fault takes
// well under a microsecond and the collapse would cost more than it
// saves.
const slowFault = 4 * time.Microsecond

const (
	hugePageSize = 2 << 20
	madvCollapse = 25 // MADV_COLLAPSE, linux/mman.h, Linux 6.1
	thpSetting   = "/sys/kernel/mm/transparent_hugepage/enabled"
)

// heapObject keeps the object whose address names the heap's region.
var heapObject *[64]byte

func init() {
	if faultTime() >= slowFault && thpAllowed() {
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

// faultTime is the time of the first write to a fresh anonymous page.
func faultTime() time.Duration {
	page, err := syscall.Mmap(-1, 0, syscall.Getpagesize(), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return 0
	}
	start := time.Now()
	page[0] = 1
	took := time.Since(start)
	_ = syscall.Munmap(page)
	return took
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
