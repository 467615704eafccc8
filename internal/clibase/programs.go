package clibase

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Sibling returns the path of toolgate's program name, installed beside
// this one: in the directory this program was started from when it was
// started by a path (a link to it included), in the directory of the
// program itself, or else on PATH. It returns "" when there is none. The
// programs are installed together (go install ./cmd/...), so the one
// beside this one is of the same version.
func Sibling(name string) string {
	dirs := make([]string, 0, 2)
	if strings.ContainsRune(os.Args[0], filepath.Separator) {
		dirs = append(dirs, filepath.Dir(os.Args[0]))
	}
	if self, err := os.Executable(); err == nil {
		dirs = append(dirs, filepath.Dir(self))
	}
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			if abs, err := filepath.Abs(p); err == nil {
				return abs
			}
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs
		}
	}
	return ""
}
