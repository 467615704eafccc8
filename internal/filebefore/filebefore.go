// Package filebefore reads the file a write or edit call is about to
// change, so an approver can see old against new. The path comes from
// the agent, so every read is a decision made against it:
//
//   - the path is resolved against the call's working directory, with
//     every symbolic link followed, and must lie inside that directory
//     (or a configured workspace root) after resolution; a root that is
//     the file system's root, the home directory or one of its parents is
//     too wide to trust;
//   - neither the path as written nor as resolved may be a sensitive path
//     (internal/sensitive: credentials, agent and toolgate configuration,
//     system files), and the caller's Allowed check (the gateway: the
//     rules must allow reading it) must pass for both;
//   - the file is opened inside the root (os.Root: no component may lead
//     out of it, even one swapped for a symbolic link meanwhile),
//     non-blocking, and must be a regular file with no other hard links,
//     at most MaxBytes long and text.
//
// Anything else is refused with a note saying why, and nothing of the
// file is returned.
package filebefore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/sensitive"
)

// DefaultMaxBytes bounds the file read when Options.MaxBytes is zero.
const DefaultMaxBytes = 256 << 10

// Options say where and how much may be read.
type Options struct {
	// Home is the home directory of the user the gateway runs as ("" when
	// unknown): sensitive paths under it are refused, and it is never a
	// root.
	Home string
	// Roots are workspace roots besides the call's working directory.
	Roots []string
	// MaxBytes bounds the file's size (default DefaultMaxBytes).
	MaxBytes int64
	// Allowed decides whether a path may be shown, beyond the sensitive
	// list: the gateway asks its rules whether reading it is allowed. A
	// nil Allowed refuses every read (fail closed).
	Allowed func(ctx context.Context, path string) (ok bool, why string)
}

// Before is what an approver is shown of the file a call changes.
type Before struct {
	// Path is the path as the call names it, made absolute.
	Path string `json:"path"`
	// Shown is set when Content holds the file as it is now; Exists is
	// set when the file was found (Shown, or refused after it was found).
	Shown  bool `json:"shown"`
	Exists bool `json:"exists"`
	// Content is the file's text when Shown.
	Content string `json:"content,omitempty"`
	// Note says why the file is not shown, or that it does not exist yet.
	Note string `json:"note,omitempty"`
}

// PathArg returns the path a file write or edit call names: its
// file_path, path or filename argument, when the call also carries what
// to write (content, an old_string/new_string pair or edits). ok is false
// for any other call.
func PathArg(args map[string]any) (string, bool) {
	var p string
	found := false
	for _, k := range []string{"file_path", "path", "filename"} {
		if s, isStr := args[k].(string); isStr {
			p, found = s, true
			break
		}
	}
	if !found {
		return "", false
	}
	_, oldOK := args["old_string"].(string)
	_, newOK := args["new_string"].(string)
	if oldOK && newOK {
		return p, true
	}
	if edits, isList := args["edits"].([]any); isList && len(edits) > 0 {
		return p, true
	}
	for _, k := range []string{"content", "contents", "new_content", "text"} {
		if _, isStr := args[k].(string); isStr {
			return p, true
		}
	}
	return "", false
}

// Read returns the file call is about to change, or why it is not shown.
func Read(ctx context.Context, c *toolgate.Call, o Options) Before {
	arg, ok := PathArg(c.Args)
	if !ok {
		return Before{Note: "the call is not a file write or edit"}
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	b := Before{Path: arg}
	refuse := func(format string, args ...any) Before {
		b.Note = fmt.Sprintf(format, args...)
		return b
	}
	if arg == "" || strings.ContainsRune(arg, 0) {
		return refuse("the path is empty or holds a NUL character")
	}
	cwd := c.Cwd
	if cwd != "" && (!filepath.IsAbs(cwd) || strings.ContainsRune(cwd, 0)) {
		return refuse("the call's working directory %q is not an absolute path", cwd)
	}
	abs := arg
	if !filepath.IsAbs(abs) {
		if cwd == "" {
			return refuse("the path is relative and the call names no working directory")
		}
		abs = filepath.Join(cwd, abs)
	}
	abs = filepath.Clean(abs)
	b.Path = abs

	var roots []string
	if cwd != "" {
		roots = append(roots, filepath.Clean(cwd))
	}
	for _, r := range o.Roots {
		if filepath.IsAbs(r) {
			roots = append(roots, filepath.Clean(r))
		}
	}
	root, why := within(abs, roots, o.Home)
	if root == "" {
		return refuse("%s", why)
	}
	if why, bad := protected(ctx, abs, o); bad {
		return refuse("%s", why)
	}
	real, err := filepath.EvalSymlinks(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return refuse("the file does not exist yet: all of it is new")
	case err != nil:
		return refuse("the file cannot be read: %s", plainErr(err))
	}
	b.Exists = true
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return refuse("the working directory cannot be resolved: %s", plainErr(err))
	}
	rel, err := filepath.Rel(realRoot, real)
	if err != nil || !local(rel) {
		return refuse("the path leads outside the working directory through a symbolic link (to %s)", real)
	}
	if real != abs {
		if why, bad := protected(ctx, real, o); bad {
			return refuse("it is a symbolic link to %s: %s", real, why)
		}
	}
	// Lstat first: never open a device, FIFO or socket, even non-blocking.
	fi, err := os.Lstat(real)
	if err != nil {
		return refuse("the file cannot be read: %s", plainErr(err))
	}
	if why, ok := regular(fi, o.MaxBytes); !ok {
		return refuse("%s", why)
	}
	r, err := os.OpenRoot(realRoot)
	if err != nil {
		return refuse("the working directory cannot be opened: %s", plainErr(err))
	}
	defer r.Close()
	f, err := r.OpenFile(rel, openFlags, 0)
	if err != nil {
		return refuse("the file cannot be opened inside the working directory: %s", plainErr(err))
	}
	defer f.Close()
	// The file opened must be the file checked: not swapped meanwhile.
	fi2, err := f.Stat()
	if err != nil {
		return refuse("the file cannot be read: %s", plainErr(err))
	}
	if !os.SameFile(fi, fi2) {
		return refuse("the file changed while it was being read")
	}
	if why, ok := regular(fi2, o.MaxBytes); !ok {
		return refuse("%s", why)
	}
	data, err := io.ReadAll(io.LimitReader(f, o.MaxBytes+1))
	if err != nil {
		return refuse("the file cannot be read: %s", plainErr(err))
	}
	if int64(len(data)) > o.MaxBytes {
		return refuse("the file is larger than %d KiB", o.MaxBytes>>10)
	}
	if strings.IndexByte(string(data), 0) >= 0 || !utf8.Valid(data) {
		return refuse("the file is not text")
	}
	b.Shown, b.Content = true, string(data)
	return b
}

// within returns the root abs lies in, or why there is none.
func within(abs string, roots []string, home string) (root, why string) {
	if len(roots) == 0 {
		return "", "the call names no working directory to read inside"
	}
	wide := ""
	for _, r := range roots {
		if tooWide(r, home) {
			wide = r
			continue
		}
		if rl, err := filepath.Rel(r, abs); err == nil && local(rl) && rl != "." {
			return r, ""
		}
	}
	if wide != "" {
		return "", fmt.Sprintf("the working directory %s is too wide to read in (the file system's root or a home directory)", wide)
	}
	return "", "the path lies outside the call's working directory"
}

// tooWide reports whether a root would hold everything worth hiding: the
// file system's root, the home directory or one of its parents.
func tooWide(root, home string) bool {
	if root == string(filepath.Separator) || filepath.Dir(root) == root {
		return true
	}
	if home == "" {
		return false
	}
	home = filepath.Clean(home)
	rl, err := filepath.Rel(root, home)
	return err == nil && local(rl)
}

// local reports whether a relative path stays inside its base.
func local(rel string) bool {
	return rel == "." || filepath.IsLocal(rel)
}

// protected reports whether p may not be shown: a sensitive path, or one
// the caller's check refuses. p is checked as written and in lower case
// too: on a case-insensitive file system (macOS, Windows) ~/.SSH/ID_RSA
// is the key.
func protected(ctx context.Context, p string, o Options) (string, bool) {
	spellings := []string{p}
	if l := strings.ToLower(p); l != p {
		spellings = append(spellings, l)
	}
	for _, s := range spellings {
		if e, found := sensitive.Lookup(s, o.Home); found {
			return "it " + e.Reason + ": a protected file is never shown", true
		}
	}
	if o.Allowed == nil {
		return "reading files is not allowed here", true
	}
	for _, s := range spellings {
		if ok, why := o.Allowed(ctx, s); !ok {
			return "the rules do not allow reading it (" + why + ")", true
		}
	}
	return "", false
}

// regular reports whether fi is a regular file that may be read.
func regular(fi fs.FileInfo, max int64) (string, bool) {
	switch {
	case !fi.Mode().IsRegular():
		return fmt.Sprintf("it is not a regular file (%s)", kind(fi.Mode())), false
	case fi.Size() > max:
		return fmt.Sprintf("the file is larger than %d KiB", max>>10), false
	}
	switch n, known := links(fi); {
	case !known:
		return "the file's hard links cannot be counted on this system", false
	case n > 1:
		return "the file has other hard links, so it may be a file outside the working directory", false
	}
	return "", true
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeDir != 0:
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return m.Type().String()
}

// plainErr is an error without the path it repeats.
func plainErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
