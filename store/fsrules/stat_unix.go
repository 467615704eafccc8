//go:build linux || darwin || freebsd || netbsd

package fsrules

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// statID returns what identifies a file's state besides its modification
// time and size: device, inode and status change time. The change time
// moves on every write, rename and attribute change and cannot be set
// back, so an edit that restores the modification time still shows.
func statID(fi fs.FileInfo) (dev, ino uint64, ctime time.Time, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, time.Time{}, false
	}
	return uint64(st.Dev), uint64(st.Ino), ctimeOf(st), true
}

// openNoFollow opens a file for reading, refusing a symbolic link.
func openNoFollow(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK) {
		return nil, errLink(path)
	}
	return f, err
}
