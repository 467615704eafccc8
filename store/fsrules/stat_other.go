//go:build !(linux || darwin || freebsd || netbsd)

package fsrules

import (
	"io/fs"
	"os"
	"time"
)

// statID is not available here: Version then always answers "" and the
// document is read (and hashed) on every check, as Document does.
func statID(fs.FileInfo) (dev, ino uint64, ctime time.Time, ok bool) {
	return 0, 0, time.Time{}, false
}

// openNoFollow opens a file for reading, refusing a symbolic link (checked
// just before; this platform has no O_NOFOLLOW).
func openNoFollow(path string) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, errLink(path)
	}
	return os.Open(path)
}
