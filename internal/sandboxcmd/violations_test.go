package sandboxcmd

import (
	"io"
	"slices"
	"testing"
)

// The paths a denial line names, as libc tools, shells, Python, Node and
// Go print them; lines that report no denial name none, and neither does
// the program's own name before its colon.
func TestWatcherScan(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		line string
		want []string
	}{
		{"/usr/bin/sh: 1: cannot create /home/u/.bashrc: Permission denied", []string{"/home/u/.bashrc"}},
		{"cat: /home/u/.ssh/id_rsa: Permission denied", []string{"/home/u/.ssh/id_rsa"}},
		{"touch: cannot touch '.git/hooks/pre-commit': Read-only file system", []string{"/w/.git/hooks/pre-commit"}},
		{"sh: 1: cannot create .git/hooks/x: Read-only file system", []string{"/w/.git/hooks/x"}},
		{"PermissionError: [Errno 13] Permission denied: '/etc/motd'", []string{"/etc/motd"}},
		{"Error: EACCES: permission denied, open '~/.npmrc'", []string{"/home/u/.npmrc"}},
		{"open /root/x: permission denied", []string{"/root/x"}},
		{"mkdir: cannot create directory ‘../outside’: Permission denied", []string{"/outside"}},
		{"cat: /home/u/notes: No such file or directory", nil},
		{"build ok: wrote dist/app", nil},
	} {
		w := &watcher{w: io.Discard, cwd: "/w", home: "/home/u"}
		if _, err := w.Write([]byte(c.line + "\n")); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(w.paths, c.want) {
			t.Errorf("%q: paths %q, want %q", c.line, w.paths, c.want)
		}
	}
}
