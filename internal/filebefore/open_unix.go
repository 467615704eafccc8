//go:build linux || darwin || freebsd || netbsd || openbsd

package filebefore

import (
	"io/fs"
	"os"
	"syscall"
)

// openFlags open for reading without waiting on a FIFO and without
// taking a terminal as the controlling one.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOCTTY

// links returns a file's hard link count.
func links(fi fs.FileInfo) (uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Nlink), true
}
