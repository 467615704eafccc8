// Package hugeheap backs the start of the Go heap with one transparent
// huge page, at package initialisation, where page faults are slow.
// Imported for its side effect by the per-call hook binary:
//
//	import _ "github.com/toolgate/toolgate/internal/hugeheap"
//
// A short-lived Go process touches a few hundred KB of heap once: span
// by span, each first touch of a 4 KB page is a page fault. Where a fault
// is cheap (bare metal, most VMs) that is tens of microseconds in all.
// Under shadow paging (a PVM guest, as on the machines toolgate is
// benchmarked on) one fault costs ~11 µs, and the heap pages the hook
// touches after start-up cost it ~0.8 ms. Collapsing the 2 MB region
// the heap starts in into one huge page (MADV_COLLAPSE, Linux 6.1) costs
// 0.3–0.8 ms there and makes every later touch of the region free.
//
// So the package first times one fault on a fresh page of its own
// zero-filled data and collapses only when it took at least 4 µs;
// elsewhere it costs that one fault and two clock reads. It does nothing
// when the system's transparent huge pages are set to "never", on a
// kernel without MADV_COLLAPSE, or on other systems. The heap's contents
// are unchanged either way: a collapse only changes how the pages are
// mapped.
package hugeheap
