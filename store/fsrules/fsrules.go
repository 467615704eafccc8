package fsrules

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
)

// FileName is the name of a workspace's rules document.
const FileName = "permissions.jsonc"

// Dir keeps workspace rules documents under a data directory. It
// implements store.Rules and is safe for concurrent use; writes to one
// workspace's document are serialized within the process.
type Dir struct {
	root     string
	defaults []byte

	mu    sync.Mutex
	locks map[string]*sync.Mutex
}

var _ store.Rules = (*Dir)(nil)

// New returns the documents kept under dir, which need not exist yet. A
// document is seeded with defaults on first use; with "{}\n" if defaults
// is empty.
func New(dir string, defaults []byte) *Dir {
	if len(defaults) == 0 {
		defaults = []byte("{}\n")
	}
	return &Dir{root: dir, defaults: bytes.Clone(defaults), locks: map[string]*sync.Mutex{}}
}

// Path returns the file that holds a workspace's document, or an EInvalid
// error if the workspace id is not valid.
func (d *Dir) Path(workspace string) (string, error) {
	if err := ValidWorkspace(workspace); err != nil {
		return "", err
	}
	return filepath.Join(d.root, "workspaces", workspace, FileName), nil
}

// ValidWorkspace returns an EInvalid error unless id is a valid workspace
// id: 1 to 128 characters from A-Z a-z 0-9 . _ -, and not "." or "..". A
// valid id is a plain directory name: it cannot reach outside its
// directory.
func ValidWorkspace(id string) error {
	if len(id) == 0 || len(id) > 128 || id == "." || id == ".." {
		return toolgate.Errorf(toolgate.EInvalid, "invalid workspace id %q: want 1 to 128 of A-Z a-z 0-9 . _ -, not . or ..", id)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return toolgate.Errorf(toolgate.EInvalid, "invalid workspace id %q: want 1 to 128 of A-Z a-z 0-9 . _ -, not . or ..", id)
		}
	}
	return nil
}

// lock returns the mutex that serializes writes to a workspace's document.
func (d *Dir) lock(workspace string) *sync.Mutex {
	d.mu.Lock()
	defer d.mu.Unlock()
	m, ok := d.locks[workspace]
	if !ok {
		m = new(sync.Mutex)
		d.locks[workspace] = m
	}
	return m
}

// Document implements store.Rules. The version is the file's modification
// time, size and a digest of its content, so it changes whenever the file
// is edited, by toolgate or by hand.
func (d *Dir) Document(ctx context.Context, workspace string) ([]byte, string, error) {
	path, err := d.Path(workspace)
	if err != nil {
		return nil, "", err
	}
	if err := ctx.Err(); err != nil {
		return nil, "", fmt.Errorf("fsrules: read %s: %w", workspace, err)
	}
	src, fi, err := read(path)
	if errors.Is(err, fs.ErrNotExist) {
		m := d.lock(workspace)
		m.Lock()
		src, fi, err = d.readOrSeed(path)
		m.Unlock()
	}
	if err != nil {
		return nil, "", fmt.Errorf("fsrules: read %s: %w", workspace, err)
	}
	return src, version(fi, src), nil
}

// PutDocument implements store.Rules.
func (d *Dir) PutDocument(ctx context.Context, workspace string, src []byte) error {
	path, err := d.Path(workspace)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("fsrules: write %s: %w", workspace, err)
	}
	m := d.lock(workspace)
	m.Lock()
	defer m.Unlock()
	if err := writeAtomic(path, src); err != nil {
		return fmt.Errorf("fsrules: write %s: %w", workspace, err)
	}
	return nil
}

// UpdateDocument implements store.Rules. The document is seeded first if
// it does not exist. An error from edit is returned (wrapped) and nothing
// is written; if edit returns the document unchanged nothing is written
// either. If the file changes on disk while edit runs (a hand edit), edit
// is run again on the new content, so no edit is lost: edit must be a
// pure function of its input.
func (d *Dir) UpdateDocument(ctx context.Context, workspace string, edit func(src []byte) ([]byte, error)) error {
	path, err := d.Path(workspace)
	if err != nil {
		return err
	}
	m := d.lock(workspace)
	m.Lock()
	defer m.Unlock()
	const attempts = 3
	for range attempts {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("fsrules: update %s: %w", workspace, err)
		}
		src, before, err := d.readOrSeed(path)
		if err != nil {
			return fmt.Errorf("fsrules: update %s: %w", workspace, err)
		}
		out, err := edit(bytes.Clone(src))
		if err != nil {
			return fmt.Errorf("fsrules: update %s: %w", workspace, err)
		}
		if bytes.Equal(out, src) {
			return nil
		}
		if now, err := os.Stat(path); err != nil || !sameVersion(before, now) {
			continue // changed on disk meanwhile: edit the new content
		}
		if err := writeAtomic(path, out); err != nil {
			return fmt.Errorf("fsrules: update %s: %w", workspace, err)
		}
		return nil
	}
	return toolgate.Errorf(toolgate.EConflict, "fsrules: update %s: the document kept changing on disk; try again", workspace)
}

// readOrSeed reads the document at path, writing the defaults first if
// it does not exist. The caller holds the workspace's lock.
func (d *Dir) readOrSeed(path string) ([]byte, fs.FileInfo, error) {
	src, fi, err := read(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return src, fi, err
	}
	if err := writeAtomic(path, d.defaults); err != nil {
		return nil, nil, fmt.Errorf("seed default rules: %w", err)
	}
	return read(path)
}

// read returns a file's content and the FileInfo that goes with it. It
// retries if the file changes while being read (an editor writing it in
// place), so that content and version match.
func read(path string) ([]byte, fs.FileInfo, error) {
	var err error
	for range 5 {
		var f *os.File
		if f, err = os.Open(path); err != nil {
			return nil, nil, err
		}
		src, fi, changed, rerr := readOpen(f)
		f.Close()
		if rerr != nil {
			return nil, nil, rerr
		}
		if !changed {
			return src, fi, nil
		}
		err = fmt.Errorf("%s kept changing while being read", path)
	}
	return nil, nil, err
}

func readOpen(f *os.File) (src []byte, fi fs.FileInfo, changed bool, err error) {
	if fi, err = f.Stat(); err != nil {
		return nil, nil, false, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, false, fmt.Errorf("%s is not a regular file", f.Name())
	}
	if src, err = io.ReadAll(f); err != nil {
		return nil, nil, false, err
	}
	after, err := f.Stat()
	if err != nil {
		return nil, nil, false, err
	}
	return src, fi, !sameVersion(fi, after) || int64(len(src)) != fi.Size(), nil
}

// sameVersion reports whether a and b describe the same file, unchanged.
func sameVersion(a, b fs.FileInfo) bool {
	return os.SameFile(a, b) && a.ModTime().Equal(b.ModTime()) && a.Size() == b.Size()
}

// version is modification time, size and a digest of the content: the
// digest catches an edit that keeps the size within the file system's
// timestamp granularity.
func version(fi fs.FileInfo, src []byte) string {
	sum := sha256.Sum256(src)
	return strconv.FormatInt(fi.ModTime().UnixNano(), 10) + "-" + strconv.FormatInt(fi.Size(), 10) + "-" + hex.EncodeToString(sum[:6])
}

// writeAtomic replaces the file at path with data: a temporary file in the
// same directory (mode 0600), fsynced, renamed over path, then the
// directory fsynced so the rename is durable. Missing directories are
// created with mode 0700.
func writeAtomic(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err := f.Chmod(0o600); err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	return syncDir(dir)
}

// syncDir makes a rename in dir durable. Some systems cannot sync a
// directory; that is not an error there.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) && !errors.Is(err, errors.ErrUnsupported) {
		return err
	}
	return nil
}
