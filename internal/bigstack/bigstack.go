// Package bigstack grows the main goroutine's stack once, to 32 KB, when
// its package initialisation starts. Imported for its side effect by the
// per-call hook binary and by toolgate:
//
//	import _ "github.com/toolgate/toolgate/internal/bigstack"
//
// A goroutine's stack starts at 2 KB and doubles when a call needs more;
// each growth copies the stack and walks every frame on it, reading the
// function tables of each. The hook's main goroutine grows four times,
// the last two deep in package initialisation and the shell walker.
// Growing once while the stack is shallow does the work once; the frame
// that forces it is never written, so its pages are touched only when
// later calls use them.
//
// It must import nothing: packages are initialised dependencies first,
// then in import-path order, so a package with no imports whose path
// sorts before "internal/…" is initialised before every other toolgate
// package (in the hook, before every package outside the runtime; in
// toolgate, after the third-party ones whose paths sort before it).
package bigstack

// never is false; the compiler cannot know it, so the frame below stays.
var never bool

func init() { reserve() }

//go:noinline
func reserve() {
	if never {
		var frame [24 << 10]byte
		keep(frame[:])
	}
}

//go:noinline
func keep([]byte) {}
