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
	"sync/atomic"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
)

// FileName is the name of a workspace's rules document.
const FileName = "permissions.jsonc"

// Dir keeps workspace rules documents under a data directory. It
// implements store.Rules and is safe for concurrent use; writes to one
// workspace's document are serialized within the process.
type Dir struct {
	root         string
	defaults     []byte
	statInterval time.Duration
	racyWindow   time.Duration

	mu    sync.Mutex
	locks map[string]*sync.Mutex

	// versions caches Version's answers for StatInterval; writes through
	// Dir drop them and bump wgen, so that a stat that raced a write is
	// not cached.
	vmu      sync.RWMutex
	versions map[string]statVersion
	wgen     atomic.Uint64
}

type statVersion struct {
	v  string
	at time.Time
}

var _ store.Rules = (*Dir)(nil)

// Option configures a Dir.
type Option func(*Dir)

// WithStatInterval sets how long Version reuses a stat (default
// StatInterval); 0 stats on every call.
func WithStatInterval(d time.Duration) Option { return func(x *Dir) { x.statInterval = d } }

// WithRacyWindow sets how recently a document may have changed for Version
// to answer "" (default RacyWindow). Shorter is only safe on file systems
// with timestamps that fine.
func WithRacyWindow(d time.Duration) Option { return func(x *Dir) { x.racyWindow = d } }

// New returns the documents kept under dir, which need not exist yet. A
// document is seeded with defaults on first use; with "{}\n" if defaults
// is empty.
func New(dir string, defaults []byte, opts ...Option) *Dir {
	if len(defaults) == 0 {
		defaults = []byte("{}\n")
	}
	d := &Dir{
		root: dir, defaults: bytes.Clone(defaults), statInterval: StatInterval, racyWindow: RacyWindow,
		locks: map[string]*sync.Mutex{}, versions: map[string]statVersion{},
	}
	for _, o := range opts {
		o(d)
	}
	d.removeStaleTemps()
	return d
}

// staleTemp is how old a writer's temporary file must be to be removed
// at start: older than any write in flight in another process.
const staleTemp = time.Minute

// removeStaleTemps removes the temporary files writes killed midway left
// behind (".permissions.jsonc.*.tmp"), best effort: they are never read,
// but would pile up.
func (d *Dir) removeStaleTemps() {
	temps, _ := filepath.Glob(filepath.Join(d.root, "workspaces", "*", "."+FileName+".*.tmp"))
	for _, p := range temps {
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() && time.Since(fi.ModTime()) > staleTemp {
			os.Remove(p)
		}
	}
}

// errLink is what a rules file or directory that is a symbolic link
// gets: a link could point a workspace's document anywhere, so none is
// followed.
func errLink(path string) error {
	return toolgate.Errorf(toolgate.EInvalid, "%s is a symbolic link or not a plain file; rules documents are not followed through links", path)
}

// checkDirs refuses a workspace whose directory (or the workspaces
// directory) is a symbolic link or not a directory. Missing ones are
// fine: they are created.
func (d *Dir) checkDirs(path string) error {
	ws := filepath.Dir(path)
	for _, dir := range []string{filepath.Dir(ws), ws} {
		fi, err := os.Lstat(dir)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if !fi.IsDir() {
			return errLink(dir)
		}
	}
	return nil
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
// id (toolgate.ValidWorkspaceID): a plain directory name that cannot reach
// outside its directory.
func ValidWorkspace(id string) error { return toolgate.ValidWorkspaceID(id) }

// Exists implements store.Exister: whether the workspace's document file
// is there (a link counts as there: Document refuses to follow it).
func (d *Dir) Exists(ctx context.Context, workspace string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	path, err := d.Path(workspace)
	if err != nil {
		return false, err
	}
	_, err = os.Lstat(path)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	}
	return false, fmt.Errorf("fsrules: stat %s: %w", workspace, err)
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
	if err := d.checkDirs(path); err != nil {
		return nil, "", err
	}
	if err := ctx.Err(); err != nil {
		return nil, "", fmt.Errorf("fsrules: read %s: %w", workspace, err)
	}
	src, fi, err := read(path)
	if errors.Is(err, fs.ErrNotExist) {
		m := d.lock(workspace)
		m.Lock()
		src, fi, err = d.readOrSeed(workspace, path)
		m.Unlock()
	}
	if err != nil {
		return nil, "", fmt.Errorf("fsrules: read %s: %w", workspace, err)
	}
	return src, version(fi, src), nil
}

// StatInterval is how long Version reuses a stat of a document: an edit
// made on disk by hand takes effect within it; a write through Dir
// (PutDocument, UpdateDocument, seeding) at once.
const StatInterval = 5 * time.Millisecond

// RacyWindow is how recently a document may have changed for Version to
// still answer "": a change within the file system's timestamp
// granularity after the last one could leave its modification and change
// times as they were. 2 s covers every common file system (FAT's 2 s
// included; Linux and macOS file systems keep nanoseconds).
const RacyWindow = 2 * time.Second

var _ store.Versioner = (*Dir)(nil)

// Version implements store.Versioner with a stat: modification time, size,
// device, inode and status change time. An atomic replace (a new inode), a
// write in place and a restored modification time all change it. It is ""
// when the document does not exist yet, when it changed within RacyWindow
// (the caller reads and hashes it then), and on platforms without inode
// numbers and change times. A stat is reused for StatInterval.
func (d *Dir) Version(ctx context.Context, workspace string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("fsrules: stat %s: %w", workspace, err)
	}
	d.vmu.RLock()
	sv, ok := d.versions[workspace]
	d.vmu.RUnlock()
	if ok && time.Since(sv.at) < d.statInterval {
		return sv.v, nil
	}
	path, err := d.Path(workspace)
	if err != nil {
		return "", err
	}
	gen, now := d.wgen.Load(), time.Now()
	v, err := statVersionOf(path, now.Add(-d.racyWindow))
	if err != nil {
		return "", fmt.Errorf("fsrules: stat %s: %w", workspace, err)
	}
	d.vmu.Lock()
	if d.wgen.Load() == gen && d.statInterval > 0 {
		d.versions[workspace] = statVersion{v: v, at: now}
	}
	d.vmu.Unlock()
	return v, nil
}

// wrote forgets the cached version of a workspace the process just wrote.
func (d *Dir) wrote(workspace string) {
	d.wgen.Add(1)
	d.vmu.Lock()
	delete(d.versions, workspace)
	d.vmu.Unlock()
}

// statVersionOf is Version's answer for the file at path: "" if it does
// not exist or changed after recent.
func statVersionOf(path string, recent time.Time) (string, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	dev, ino, ctime, ok := statID(fi)
	if !ok {
		return "", nil
	}
	mtime := fi.ModTime()
	if mtime.After(recent) || ctime.After(recent) {
		return "", nil
	}
	var buf [96]byte
	b := strconv.AppendInt(buf[:0], mtime.UnixNano(), 10)
	b = append(b, '-')
	b = strconv.AppendInt(b, ctime.UnixNano(), 10)
	b = append(b, '-')
	b = strconv.AppendInt(b, fi.Size(), 10)
	b = append(b, '-')
	b = strconv.AppendUint(b, dev, 10)
	b = append(b, '-')
	b = strconv.AppendUint(b, ino, 10)
	return string(b), nil
}

// PutDocument implements store.Rules.
func (d *Dir) PutDocument(ctx context.Context, workspace string, src []byte) error {
	path, err := d.Path(workspace)
	if err != nil {
		return err
	}
	if err := d.checkDirs(path); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("fsrules: write %s: %w", workspace, err)
	}
	m := d.lock(workspace)
	m.Lock()
	defer m.Unlock()
	err = writeAtomic(path, src)
	d.wrote(workspace) // even after a failure: the file may have changed
	if err != nil {
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
	if err := d.checkDirs(path); err != nil {
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
		src, before, err := d.readOrSeed(workspace, path)
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
		if now, err := os.Lstat(path); err != nil || !sameVersion(before, now) {
			continue // changed on disk meanwhile: edit the new content
		}
		err = writeAtomic(path, out)
		d.wrote(workspace)
		if err != nil {
			return fmt.Errorf("fsrules: update %s: %w", workspace, err)
		}
		return nil
	}
	return toolgate.Errorf(toolgate.EConflict, "fsrules: update %s: the document kept changing on disk; try again", workspace)
}

// readOrSeed reads the document at path, writing the defaults first if
// it does not exist. The caller holds the workspace's lock.
func (d *Dir) readOrSeed(workspace, path string) ([]byte, fs.FileInfo, error) {
	src, fi, err := read(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return src, fi, err
	}
	err = writeAtomic(path, d.defaults)
	d.wrote(workspace)
	if err != nil {
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
		if f, err = openNoFollow(path); err != nil {
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
