package sandbox

import (
	"os"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// readDir lists dir, sorted by name (nil when it cannot be read). It is
// os.ReadDir without a value per entry or the poller's bookkeeping for
// an *os.File: a profile lists a few hundred entries per run, on the
// path of every confined command's start.
func readDir(dir string) []dirEntry {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer unix.Close(fd)
	var out []dirEntry
	buf := make([]byte, 8<<10)
	for {
		n, err := readDirent(fd, buf)
		if err != nil || n <= 0 {
			break
		}
		// One string for the chunk; the names are its substrings.
		chunk := string(buf[:n])
		out = parseDirents(dir, chunk, out)
	}
	slices.SortFunc(out, func(a, b dirEntry) int { return strings.Compare(a.name, b.name) })
	return out
}

// parseDirents appends the entries of a getdents64 chunk (struct
// linux_dirent64: inode, offset, record length, type, name), without "."
// and "..". A file system that does not say an entry's type gets an
// lstat.
func parseDirents(dir, chunk string, out []dirEntry) []dirEntry {
	for len(chunk) >= 19 {
		reclen := int(chunk[16]) | int(chunk[17])<<8
		if reclen < 19 || reclen > len(chunk) {
			break
		}
		rec := chunk[:reclen]
		chunk = chunk[reclen:]
		name := rec[19:]
		if i := strings.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		if name == "." || name == ".." || name == "" {
			continue
		}
		e := dirEntry{name: name}
		switch rec[18] {
		case dtDir:
			e.typ = typeDir
		case dtLnk:
			e.typ = typeSymlink
		case dtUnknown:
			if fi, err := os.Lstat(join(dir, name)); err == nil {
				switch {
				case fi.IsDir():
					e.typ = typeDir
				case fi.Mode()&os.ModeSymlink != 0:
					e.typ = typeSymlink
				}
			}
		}
		out = append(out, e)
	}
	return out
}

// The d_type values readDir tells apart.
const (
	dtUnknown = 0
	dtDir     = 4
	dtLnk     = 10
)

// readDirent reads directory entries of fd into buf.
func readDirent(fd int, buf []byte) (int, error) {
	for {
		n, err := unix.Getdents(fd, buf)
		if err != unix.EINTR {
			return n, err
		}
	}
}
