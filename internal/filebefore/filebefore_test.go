//go:build linux || darwin || freebsd || netbsd || openbsd

package filebefore_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/filebefore"
)

const secret = "SECRET-KEY-MATERIAL-4f1d"

// fixture is a home directory with an SSH key, a project inside it, and
// a directory outside both.
type fixture struct {
	home, ws, other, outside string
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	base := t.TempDir()
	f := fixture{
		home:    filepath.Join(base, "home", "me"),
		outside: filepath.Join(base, "outside"),
	}
	f.ws = filepath.Join(f.home, "src", "app")
	f.other = filepath.Join(f.home, "src", "lib")
	write := func(p, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, p string) {
		t.Helper()
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(f.home, ".ssh", "id_rsa"), secret)
	write(filepath.Join(f.outside, "secret.txt"), secret)
	write(filepath.Join(f.ws, "main.go"), "package main\n")
	write(filepath.Join(f.ws, "LICENSE.TXT"), "MIT\n")
	write(filepath.Join(f.ws, "docs", "notes.md"), "# Notes\n")
	write(filepath.Join(f.ws, ".env"), "TOKEN="+secret+"\n")
	write(filepath.Join(f.ws, "deploy", ".ssh", "id_ed25519"), secret)
	write(filepath.Join(f.ws, "big.txt"), strings.Repeat("x", 2048))
	write(filepath.Join(f.ws, "blob.bin"), "ab\x00cd")
	write(filepath.Join(f.other, "lib.go"), "package lib\n")
	link(filepath.Join(f.home, ".ssh", "id_rsa"), filepath.Join(f.ws, "key.txt"))
	link(filepath.Join(f.outside, "secret.txt"), filepath.Join(f.ws, "out.txt"))
	link(f.outside, filepath.Join(f.ws, "outdir"))
	link("/etc", filepath.Join(f.ws, "etc"))
	link("main.go", filepath.Join(f.ws, "alias.go"))
	link(filepath.Join(f.ws, ".env"), filepath.Join(f.ws, "env.txt"))
	link("/dev/zero", filepath.Join(f.ws, "zero"))
	if err := os.Link(filepath.Join(f.outside, "secret.txt"), filepath.Join(f.ws, "hard.txt")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(f.ws, "pipe"), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

// allowed stands in for the gateway's rules: reading env files is denied.
func allowed(_ context.Context, p string) (bool, string) {
	if strings.HasSuffix(p, ".env") {
		return false, "a rule denies *.env"
	}
	return true, ""
}

func TestRead(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	write := func(path, cwd string) *toolgate.Call {
		return &toolgate.Call{Tool: "Write", Cwd: cwd, Args: map[string]any{"file_path": path, "content": "new\n"}}
	}
	tests := []struct {
		name  string
		call  *toolgate.Call
		opts  func(*filebefore.Options)
		shown string // the content shown; "" when refused
		note  string // part of the note when refused
	}{
		// The user's side: files of the project are shown.
		{name: "relative path", call: write("main.go", f.ws), shown: "package main\n"},
		{name: "absolute path inside", call: write(filepath.Join(f.ws, "docs", "notes.md"), f.ws), shown: "# Notes\n"},
		{name: "an Edit", call: &toolgate.Call{Tool: "Edit", Cwd: f.ws, Args: map[string]any{"file_path": "main.go", "old_string": "main", "new_string": "app"}}, shown: "package main\n"},
		{name: "a MultiEdit", call: &toolgate.Call{Tool: "MultiEdit", Cwd: f.ws, Args: map[string]any{"file_path": "main.go", "edits": []any{map[string]any{"old_string": "a", "new_string": "b"}}}}, shown: "package main\n"},
		{name: "a name in capitals", call: write("LICENSE.TXT", f.ws), shown: "MIT\n"},
		{name: "a link inside the project", call: write("alias.go", f.ws), shown: "package main\n"},
		{name: "a configured root", call: write(filepath.Join(f.other, "lib.go"), f.ws), opts: func(o *filebefore.Options) { o.Roots = []string{f.other} }, shown: "package lib\n"},
		{name: "a new file", call: write("cmd/new.go", f.ws), note: "does not exist yet"},

		// The attacker's side: nothing outside the project, nothing secret.
		{name: "/etc/shadow", call: write("/etc/shadow", f.ws), note: "outside the call's working directory"},
		{name: "/etc/shadow with cwd /", call: write("/etc/shadow", "/"), note: "too wide"},
		{name: "the SSH key with cwd the home", call: write(".ssh/id_rsa", f.home), note: "too wide"},
		{name: "the SSH key with cwd a parent of home", call: write(filepath.Join(f.home, ".ssh", "id_rsa"), filepath.Dir(f.home)), note: "too wide"},
		{name: "dot-dot out of the project", call: write("../../.ssh/id_rsa", f.ws), note: "outside the call's working directory"},
		{name: "a link to the SSH key", call: write("key.txt", f.ws), note: "outside the working directory through a symbolic link"},
		{name: "a link to a file outside", call: write("out.txt", f.ws), note: "outside the working directory through a symbolic link"},
		{name: "a linked directory outside", call: write("outdir/secret.txt", f.ws), note: "outside the working directory through a symbolic link"},
		{name: "a link to /etc", call: write("etc/shadow", f.ws), note: "outside the working directory through a symbolic link"},
		{name: "a link to a device", call: write("zero", f.ws), note: "outside the working directory through a symbolic link"},
		{name: "a key inside the project", call: write("deploy/.ssh/id_ed25519", f.ws), note: "SSH private keys"},
		{name: "an env file the rules deny", call: write(".env", f.ws), note: "rules do not allow reading it"},
		// On a case-insensitive file system these name the same files.
		{name: "a key in other case", call: write("deploy/.SSH/ID_ED25519", f.ws), note: "SSH private keys"},
		{name: "an env file in other case", call: write("prod.ENV", f.ws), note: "rules do not allow reading it"},
		{name: "a link to an env file", call: write("env.txt", f.ws), note: "rules do not allow reading it"},
		{name: "no rules check", call: write("main.go", f.ws), opts: func(o *filebefore.Options) { o.Allowed = nil }, note: "not allowed"},
		{name: "a hard link to a file outside", call: write("hard.txt", f.ws), note: "other hard links"},
		{name: "a FIFO", call: write("pipe", f.ws), note: "not a regular file (a FIFO)"},
		{name: "a directory", call: write("docs", f.ws), note: "not a regular file (a directory)"},
		{name: "too large", call: write("big.txt", f.ws), opts: func(o *filebefore.Options) { o.MaxBytes = 1024 }, note: "larger than 1 KiB"},
		{name: "binary", call: write("blob.bin", f.ws), note: "not text"},
		{name: "relative without cwd", call: write("main.go", ""), note: "names no working directory"},
		{name: "absolute without cwd", call: write(filepath.Join(f.ws, "main.go"), ""), note: "names no working directory"},
		{name: "relative cwd", call: write("main.go", "src/app"), note: "not an absolute path"},
		{name: "NUL in the path", call: write("main.go\x00.txt", f.ws), note: "NUL"},
		{name: "not a write", call: &toolgate.Call{Tool: "Read", Cwd: f.ws, Args: map[string]any{"file_path": "main.go"}}, note: "not a file write or edit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := filebefore.Options{Home: f.home, Allowed: allowed}
			if tt.opts != nil {
				tt.opts(&o)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			done := make(chan filebefore.Before, 1)
			go func() { done <- filebefore.Read(ctx, tt.call, o) }()
			var b filebefore.Before
			select {
			case b = <-done:
			case <-ctx.Done():
				t.Fatal("Read blocked")
			}
			if strings.Contains(b.Content+b.Note, secret) {
				t.Fatalf("the secret leaked: %+v", b)
			}
			if tt.shown != "" {
				if !b.Shown || b.Content != tt.shown || !b.Exists {
					t.Fatalf("got %+v, want %q shown", b, tt.shown)
				}
				return
			}
			if b.Shown || b.Content != "" || !strings.Contains(b.Note, tt.note) {
				t.Fatalf("got %+v, want refused with %q", b, tt.note)
			}
		})
	}
}
