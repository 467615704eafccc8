//go:build !linux

package sandbox

import "os"

// readDir lists dir, sorted by name (nil when it cannot be read).
func readDir(dir string) []dirEntry {
	es, _ := os.ReadDir(dir)
	out := make([]dirEntry, 0, len(es))
	for _, e := range es {
		d := dirEntry{name: e.Name()}
		switch {
		case e.Type()&os.ModeSymlink != 0:
			d.typ = typeSymlink
		case e.IsDir():
			d.typ = typeDir
		}
		out = append(out, d)
	}
	return out
}
