package hugeheap

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// TestCollapse: a region collapsed by collapseAt is one huge page in
// /proc/self/smaps and keeps what was written to it, wherever the kernel
// has MADV_COLLAPSE and a huge page to give.
func TestCollapse(t *testing.T) {
	if !thpAllowed() {
		t.Skipf("transparent huge pages are off here (%s)", thpSetting)
	}
	mem, err := syscall.Mmap(-1, 0, 2*hugePageSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(mem)
	base := uintptr(unsafe.Pointer(&mem[0]))
	off := int((base+hugePageSize-1)&^(hugePageSize-1) - base) // the aligned region inside
	region := mem[off : off+hugePageSize]
	for i := 0; i < len(region); i += 3 * 4096 { // a page in three, as a heap leaves them
		region[i] = byte(i>>12) | 1
	}
	before, err := anonHugeKB(base)
	if err != nil {
		t.Fatal(err)
	}
	if err := collapseAt(uintptr(unsafe.Pointer(&region[12345]))); err != nil {
		t.Skipf("MADV_COLLAPSE refused: %v (a kernel before 6.1, or no free huge page)", err)
	}
	after, err := anonHugeKB(base)
	if err != nil {
		t.Fatal(err)
	}
	if before != 0 || after != hugePageSize>>10 {
		t.Errorf("AnonHugePages of the mapping: %d KB before, %d KB after the collapse; want 0 and %d", before, after, hugePageSize>>10)
	}
	for i := 0; i < len(region); i += 4096 {
		want := byte(0)
		if i%(3*4096) == 0 {
			want = byte(i>>12) | 1
		}
		if region[i] != want {
			t.Fatalf("byte %d of the region is %d after the collapse, was %d", i, region[i], want)
		}
	}
}

// TestFaultTime: the probe times the first write to a fresh page; a
// zero would mean it timed nothing. (No upper bound: a busy machine can
// preempt the probe for a whole time slice.)
func TestFaultTime(t *testing.T) {
	page, err := syscall.Mmap(-1, 0, pageSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(page)
	if d := faultTime(page); d <= 0 {
		t.Errorf("faultTime() = %v, want > 0", d)
	}
}

// TestProbePage: init's probe is one whole, aligned page inside probe,
// so no other variable shares it (a shared page could be mapped already
// and time no fault), and init wrote it, so the probe ran.
func TestProbePage(t *testing.T) {
	t.Parallel()
	page := probePage()
	start, end := uintptr(unsafe.Pointer(&page[0])), uintptr(unsafe.Pointer(&page[len(page)-1]))+1
	if start%pageSize != 0 || end-start != pageSize {
		t.Fatalf("probe page at %#x..%#x, want one aligned %d-byte page", start, end, pageSize)
	}
	lo, hi := uintptr(unsafe.Pointer(&probe[0])), uintptr(unsafe.Pointer(&probe[len(probe)-1]))+1
	if start < lo || end > hi {
		t.Fatalf("probe page %#x..%#x outside probe %#x..%#x", start, end, lo, hi)
	}
	if page[0] != 1 {
		t.Errorf("init did not write the probe page")
	}
}

func TestContains(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text string
		want bool
	}{
		{"always madvise [never]\n", true},
		{"always [madvise] never\n", false},
		{"[never]", true},
		{"[neve", false},
		{"", false},
	} {
		if got := contains([]byte(c.text), "[never]"); got != c.want {
			t.Errorf("contains(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// anonHugeKB reads AnonHugePages of the mapping holding addr.
func anonHugeKB(addr uintptr) (int, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		// A mapping's header starts "LO-HI perms…"; its fields "Name: …".
		if head, _, _ := strings.Cut(line, " "); !strings.HasSuffix(head, ":") {
			lo, hi, _ := strings.Cut(head, "-")
			l, err1 := strconv.ParseUint(lo, 16, 64)
			h, err2 := strconv.ParseUint(hi, 16, 64)
			in = err1 == nil && err2 == nil && uint64(addr) >= l && uint64(addr) < h
			continue
		}
		if in && strings.HasPrefix(line, "AnonHugePages:") {
			return strconv.Atoi(strings.Fields(line)[1])
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("no mapping holds %#x in /proc/self/smaps", addr)
}
