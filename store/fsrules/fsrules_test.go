package fsrules_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store/fsrules"
)

const defaults = "// Default rules.\n{\n  \"*\": \"ask\",\n  \"read_file\": \"allow\"\n}\n"

func newDir(t *testing.T) (*fsrules.Dir, string) {
	t.Helper()
	root := filepath.Join(t.TempDir(), "data")
	return fsrules.New(root, []byte(defaults)), root
}

func mode(t *testing.T, path string) os.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode()
}

// noTemp fails t if a temporary file was left next to the document.
func noTemp(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.Name() != fsrules.FileName {
			t.Errorf("left behind in %s: %s", dir, e.Name())
		}
	}
}

func TestSeed(t *testing.T) {
	t.Parallel()
	d, root := newDir(t)
	ctx := t.Context()
	src, v1, err := d.Document(ctx, "w1")
	if err != nil {
		t.Fatal(err)
	}
	if string(src) != defaults {
		t.Fatalf("seeded document = %q, want the defaults", src)
	}
	path := filepath.Join(root, "workspaces", "w1", "permissions.jsonc")
	if p, _ := d.Path("w1"); p != path {
		t.Fatalf("Path = %s, want %s", p, path)
	}
	if m := mode(t, path); m != 0o600 {
		t.Errorf("file mode %v, want 0600", m)
	}
	for _, dir := range []string{root, filepath.Join(root, "workspaces"), filepath.Dir(path)} {
		if m := mode(t, dir); m != 0o700|os.ModeDir {
			t.Errorf("%s: mode %v, want 0700", dir, m)
		}
	}
	noTemp(t, filepath.Dir(path))

	// Reading again changes nothing; other defaults do not reseed.
	src, v2, err := fsrules.New(root, []byte("{}")).Document(ctx, "w1")
	if err != nil {
		t.Fatal(err)
	}
	if string(src) != defaults || v2 != v1 {
		t.Fatalf("second read: %q version %s, want the defaults, version %s", src, v2, v1)
	}

	// Each workspace has its own document; empty defaults seed {}.
	src, _, err = fsrules.New(root, nil).Document(ctx, "w2")
	if err != nil || string(src) != "{}\n" {
		t.Fatalf("empty defaults: %q, %v", src, err)
	}
}

func TestVersionChangesOnExternalEdit(t *testing.T) {
	t.Parallel()
	d, _ := newDir(t)
	ctx := t.Context()
	_, v1, err := d.Document(ctx, "w1")
	if err != nil {
		t.Fatal(err)
	}
	path, _ := d.Path("w1")
	fi, _ := os.Stat(path)

	// Same size, same modification time: only the content differs.
	edited := strings.Replace(defaults, "allow", "deny!", 1)
	if err := os.WriteFile(path, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	src, v2, err := d.Document(ctx, "w1")
	if err != nil {
		t.Fatal(err)
	}
	if string(src) != edited || v2 == v1 {
		t.Fatalf("after a same-size edit: %q version %s (was %s)", src, v2, v1)
	}

	// Only the modification time changes.
	if err := os.Chtimes(path, fi.ModTime().Add(time.Second), fi.ModTime().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, v3, _ := d.Document(ctx, "w1"); v3 == v2 {
		t.Fatalf("version %s unchanged after the file was touched", v3)
	}

	// A hand edit that changes the size.
	if err := os.WriteFile(path, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	src, v4, _ := d.Document(ctx, "w1")
	if string(src) != "{}\n" || v4 == v2 {
		t.Fatalf("after an edit: %q version %s", src, v4)
	}
	if _, v5, _ := d.Document(ctx, "w1"); v5 != v4 {
		t.Fatalf("version changed without an edit: %s, then %s", v4, v5)
	}
}

func TestPutDocument(t *testing.T) {
	t.Parallel()
	d, root := newDir(t)
	ctx := t.Context()
	// Put before the document was ever read: no seeding needed.
	if err := d.PutDocument(ctx, "w1", []byte(`{"*": "deny"}`)); err != nil {
		t.Fatal(err)
	}
	src, v1, err := d.Document(ctx, "w1")
	if err != nil || string(src) != `{"*": "deny"}` {
		t.Fatalf("Document after Put: %q, %v", src, err)
	}
	if err := d.PutDocument(ctx, "w1", []byte(`{"*": "allow"}`)); err != nil {
		t.Fatal(err)
	}
	src, v2, _ := d.Document(ctx, "w1")
	if string(src) != `{"*": "allow"}` || v1 == v2 {
		t.Fatalf("Document after a second Put: %q, version %s (was %s)", src, v2, v1)
	}
	path, _ := d.Path("w1")
	if m := mode(t, path); m != 0o600 {
		t.Errorf("file mode %v, want 0600", m)
	}
	if m := mode(t, filepath.Join(root, "workspaces")); m != 0o700|os.ModeDir {
		t.Errorf("workspaces dir mode %v, want 0700", m)
	}
	noTemp(t, filepath.Dir(path))
}

func TestUpdateDocument(t *testing.T) {
	t.Parallel()
	d, _ := newDir(t)
	ctx := t.Context()
	// On a new workspace, the edit sees the defaults.
	var seen string
	err := d.UpdateDocument(ctx, "w1", func(src []byte) ([]byte, error) {
		seen = string(src)
		return append(src, "// added\n"...), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen != defaults {
		t.Fatalf("edit saw %q, want the defaults", seen)
	}
	src, v1, _ := d.Document(ctx, "w1")
	if string(src) != defaults+"// added\n" {
		t.Fatalf("after update: %q", src)
	}

	// A failing edit changes nothing and its error comes back.
	boom := toolgate.Errorf(toolgate.EInvalid, "bad rule")
	err = d.UpdateDocument(ctx, "w1", func(src []byte) ([]byte, error) {
		return []byte("garbage"), boom
	})
	if !errors.Is(err, boom) || toolgate.ErrorCodeOf(err) != toolgate.EInvalid {
		t.Fatalf("failing edit: %v, want the edit's error", err)
	}
	// An edit that changes nothing writes nothing.
	if err := d.UpdateDocument(ctx, "w1", func(src []byte) ([]byte, error) { return src, nil }); err != nil {
		t.Fatal(err)
	}
	src2, v2, _ := d.Document(ctx, "w1")
	if !bytes.Equal(src2, src) || v2 != v1 {
		t.Fatalf("document changed by a failed or empty edit: %q, %s (was %s)", src2, v2, v1)
	}
	path, _ := d.Path("w1")
	noTemp(t, filepath.Dir(path))
}

// TestUpdateDocumentHandEdit: a hand edit made while an update runs is not
// lost; the update is applied on top of it.
func TestUpdateDocumentHandEdit(t *testing.T) {
	t.Parallel()
	d, _ := newDir(t)
	ctx := t.Context()
	path, _ := d.Path("w1")
	calls := 0
	err := d.UpdateDocument(ctx, "w1", func(src []byte) ([]byte, error) {
		calls++
		if calls == 1 {
			if err := os.WriteFile(path, []byte("// by hand\n{}\n"), 0o600); err != nil {
				return nil, err
			}
		}
		return append(src, "// by toolgate\n"...), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	src, _, _ := d.Document(ctx, "w1")
	if string(src) != "// by hand\n{}\n// by toolgate\n" || calls != 2 {
		t.Fatalf("after an update racing a hand edit (%d edit calls): %q", calls, src)
	}
}

// TestUpdateDocumentAtomic: readers never see a partly written document.
func TestUpdateDocumentAtomic(t *testing.T) {
	t.Parallel()
	d, _ := newDir(t)
	ctx := t.Context()
	doc := func(i int) []byte {
		b, _ := json.Marshal(map[string]any{"n": i, "pad": strings.Repeat("x", 64<<10)})
		return b
	}
	if err := d.PutDocument(ctx, "w1", doc(0)); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(done)
		for i := 1; i <= 30; i++ {
			if err := d.UpdateDocument(ctx, "w1", func([]byte) ([]byte, error) { return doc(i), nil }); err != nil {
				t.Error(err)
				return
			}
		}
	})
	for range 2 {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				src, _, err := d.Document(ctx, "w1")
				if err != nil {
					t.Error(err)
					return
				}
				if !json.Valid(src) {
					t.Errorf("reader saw a partial document (%d bytes)", len(src))
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestConcurrentUpdates(t *testing.T) {
	t.Parallel()
	d, _ := newDir(t)
	ctx := t.Context()
	const n = 40
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			err := d.UpdateDocument(ctx, "w1", func(src []byte) ([]byte, error) {
				return fmt.Appendf(src, "// line %d\n", i), nil
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	src, _, err := d.Document(ctx, "w1")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(src), defaults) {
		t.Fatalf("defaults lost: %q", src)
	}
	for i := range n {
		if !strings.Contains(string(src), fmt.Sprintf("// line %d\n", i)) {
			t.Fatalf("update %d lost:\n%s", i, src)
		}
	}
	if got := strings.Count(string(src), "// line "); got != n {
		t.Fatalf("%d lines, want %d", got, n)
	}
}

func TestWorkspaceIDs(t *testing.T) {
	t.Parallel()
	d, root := newDir(t)
	ctx := t.Context()
	bad := []string{
		"", ".", "..", "../x", "../../etc", "a/b", `a\b`, "/abs", "a b", "a\x00b", "é", "a:b",
		"~", "$HOME", strings.Repeat("a", 129), "...", ".hidden", "-rf", "CON", "nul.txt", "x.",
	}
	for _, id := range bad {
		if _, _, err := d.Document(ctx, id); toolgate.ErrorCodeOf(err) != toolgate.EInvalid {
			t.Errorf("Document(%q): %v, want EInvalid", id, err)
		}
		if err := d.PutDocument(ctx, id, []byte("{}")); toolgate.ErrorCodeOf(err) != toolgate.EInvalid {
			t.Errorf("PutDocument(%q): %v, want EInvalid", id, err)
		}
		err := d.UpdateDocument(ctx, id, func(src []byte) ([]byte, error) { return src, nil })
		if toolgate.ErrorCodeOf(err) != toolgate.EInvalid {
			t.Errorf("UpdateDocument(%q): %v, want EInvalid", id, err)
		}
	}
	if _, err := os.Stat(root); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("invalid ids created files under %s", root)
	}
	for _, id := range []string{"a", "default", "A.b-c_d", "a...b", "con2", strings.Repeat("z", 128)} {
		if _, _, err := d.Document(ctx, id); err != nil {
			t.Errorf("Document(%q): %v", id, err)
		}
	}
	ents, _ := os.ReadDir(filepath.Join(root, "workspaces"))
	if len(ents) != 6 {
		t.Errorf("%d workspace directories, want 6", len(ents))
	}
}

func TestCancelledContext(t *testing.T) {
	t.Parallel()
	d, root := newDir(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, _, err := d.Document(ctx, "w1"); err == nil {
		t.Error("Document with a cancelled context: no error")
	}
	if err := d.PutDocument(ctx, "w1", []byte("{}")); err == nil {
		t.Error("PutDocument with a cancelled context: no error")
	}
	if err := d.UpdateDocument(ctx, "w1", func(b []byte) ([]byte, error) { return b, nil }); err == nil {
		t.Error("UpdateDocument with a cancelled context: no error")
	}
	if _, err := os.Stat(root); !errors.Is(err, os.ErrNotExist) {
		t.Error("a cancelled call wrote files")
	}
}

// waitTick lets the file system's timestamps move past the last change.
func waitTick() { time.Sleep(20 * time.Millisecond) }

func TestVersion(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "data")
	d := fsrules.New(root, []byte(defaults), fsrules.WithRacyWindow(0), fsrules.WithStatInterval(0))
	ctx := t.Context()
	if v, err := d.Version(ctx, "w1"); v != "" || err != nil {
		t.Fatalf("Version of a document not seeded yet = %q, %v; want \"\"", v, err)
	}
	if _, err := d.Version(ctx, "../x"); toolgate.ErrorCodeOf(err) != toolgate.EInvalid {
		t.Fatalf("Version of an invalid workspace: %v", err)
	}
	if _, _, err := d.Document(ctx, "w1"); err != nil {
		t.Fatal(err)
	}
	waitTick()
	v1, err := d.Version(ctx, "w1")
	if err != nil || v1 == "" {
		t.Fatalf("Version = %q, %v", v1, err)
	}
	if v, _ := d.Version(ctx, "w1"); v != v1 {
		t.Fatalf("version moved without a change: %s, then %s", v1, v)
	}
	path, _ := d.Path("w1")
	fi, _ := os.Stat(path)

	// In place, same size, modification time put back: the change time
	// still moves.
	waitTick()
	edited := strings.Replace(defaults, "allow", "deny!", 1)
	if err := os.WriteFile(path, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	v2, _ := d.Version(ctx, "w1")
	if v2 == v1 || v2 == "" {
		t.Fatalf("version after a same-size edit with the time put back: %q (was %s)", v2, v1)
	}

	// Replaced through the store (a new file renamed over it).
	waitTick()
	if err := d.PutDocument(ctx, "w1", []byte(edited)); err != nil {
		t.Fatal(err)
	}
	if v3, _ := d.Version(ctx, "w1"); v3 == v2 || v3 == "" {
		t.Fatalf("version after PutDocument: %q (was %s)", v3, v2)
	}
}

func TestVersionRecentChange(t *testing.T) {
	t.Parallel()
	d, _ := newDir(t) // the default racy window
	ctx := t.Context()
	if _, _, err := d.Document(ctx, "w1"); err != nil {
		t.Fatal(err)
	}
	if v, err := d.Version(ctx, "w1"); v != "" || err != nil {
		t.Fatalf("Version of a document written just now = %q, %v; want \"\" (read it)", v, err)
	}
}

func TestVersionStatInterval(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "data")
	d := fsrules.New(root, []byte(defaults), fsrules.WithRacyWindow(0), fsrules.WithStatInterval(time.Hour))
	ctx := t.Context()
	if _, _, err := d.Document(ctx, "w1"); err != nil {
		t.Fatal(err)
	}
	waitTick()
	v1, _ := d.Version(ctx, "w1")
	path, _ := d.Path("w1")
	waitTick()
	if err := os.WriteFile(path, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if v, _ := d.Version(ctx, "w1"); v != v1 {
		t.Fatalf("a hand edit showed within the stat interval: %s, then %s", v1, v)
	}
	// A write through the store shows at once.
	waitTick()
	if err := d.UpdateDocument(ctx, "w1", func([]byte) ([]byte, error) { return []byte(defaults), nil }); err != nil {
		t.Fatal(err)
	}
	if v, _ := d.Version(ctx, "w1"); v == v1 || v == "" {
		t.Fatalf("version after UpdateDocument: %q (was %s)", v, v1)
	}
}

// A rules document or workspace directory that is a symbolic link is
// refused, never followed out of the data directory; a plain one next to
// it is read as usual.
func TestLinksAreNotFollowed(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	ctx := context.Background()
	root, outside := t.TempDir(), t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte(`{"token": "s3cret"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	d := fsrules.New(root, nil)
	if _, _, err := d.Document(ctx, "plain"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "workspaces", "filelink"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(root, "workspaces", "filelink", fsrules.FileName)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "workspaces", "dirlink")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, fsrules.FileName), []byte(`{"*": "allow"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, ws := range []string{"filelink", "dirlink"} {
		src, _, err := d.Document(ctx, ws)
		if err == nil || strings.Contains(string(src), "s3cret") || strings.Contains(string(src), "allow") {
			t.Errorf("Document(%s) through a link: %q, %v", ws, src, err)
		}
		if err := d.PutDocument(ctx, ws, []byte("{}")); ws == "dirlink" && err == nil {
			t.Errorf("PutDocument(%s) through a linked directory", ws)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(outside, fsrules.FileName)); string(got) != `{"*": "allow"}` {
		t.Errorf("a write went through the link: %q", got)
	}
	if _, _, err := d.Document(ctx, "plain"); err != nil {
		t.Errorf("plain workspace: %v", err)
	}
}

// The temporary files of writes killed midway are removed when a Dir is
// made; a fresh one (another process writing now) is left alone.
func TestStaleTempsRemoved(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	if _, _, err := fsrules.New(root, nil).Document(context.Background(), "w"); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "workspaces", "w")
	stale, fresh := filepath.Join(dir, "."+fsrules.FileName+".123.tmp"), filepath.Join(dir, "."+fsrules.FileName+".456.tmp")
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, []byte("{"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	fsrules.New(root, nil)
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale temp file kept: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("fresh temp file removed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, fsrules.FileName)); err != nil {
		t.Errorf("the document itself: %v", err)
	}
}
