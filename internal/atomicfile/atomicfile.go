// Package atomicfile writes a file whole or not at all: through a
// temporary file in the same directory, synced, then renamed over it, so
// a crash leaves the old content or the new, never a part.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write writes data to path, creating its directory (0700) if needed.
func Write(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
