package readfile_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/toolgate/toolgate/internal/readfile"
)

func TestRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	big := bytes.Repeat([]byte("0123456789abcdef"), 300) // 4,800 bytes: the buffer grows
	for _, tc := range []struct {
		name    string
		content []byte
		limit   int64
		want    []byte
	}{
		{"empty", nil, 10, nil},
		{"under the limit", []byte("rules: []\n"), 100, []byte("rules: []\n")},
		{"at the limit", []byte("abcd"), 4, []byte("abcd")},
		{"one over: limit+1 bytes", []byte("abcdef"), 4, []byte("abcde")},
		{"grown buffer", big, 1 << 20, big},
		{"grown buffer, cut", big, 1000, big[:1001]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := filepath.Join(dir, tc.name)
			if err := os.WriteFile(p, tc.content, 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := readfile.Read(p, tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tc.want) {
				t.Errorf("Read = %d bytes %.20q…, want %d bytes %.20q…", len(got), got, len(tc.want), tc.want)
			}
		})
	}
}

// The errors are os.Open's and Read's: path errors that errors.Is knows.
func TestReadErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.yaml")
	_, err := readfile.Read(missing, 10)
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Op != "open" || pe.Path != missing || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want an open *fs.PathError that is fs.ErrNotExist", err)
	}
	_, err = readfile.Read(dir, 10)
	if !errors.As(err, &pe) || pe.Path != dir {
		t.Errorf("directory: %v, want an *fs.PathError naming it", err)
	}
}

// A pipe named as a file is read to its end, as os.ReadFile reads it.
func TestReadPipe(t *testing.T) {
	t.Parallel()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	go func() {
		w.Write([]byte("rules:\n"))
		w.Write([]byte("  - Bash(ls)\n"))
		w.Close()
	}()
	if _, err := os.Stat("/dev/fd"); err != nil {
		t.Skipf("no /dev/fd here: %v", err)
	}
	got, err := readfile.Read("/dev/fd/"+strconv.Itoa(int(r.Fd())), 100)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "rules:\n  - Bash(ls)\n" {
		t.Errorf("Read = %q", got)
	}
}
