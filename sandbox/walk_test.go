package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func mkTree(t *testing.T, root string, files ...string) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(root, f)
		dir := filepath.Dir(p)
		if f[len(f)-1] == '/' {
			dir = p
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if dir == p {
			continue
		}
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// The walk grants everything beside the denied paths: the siblings on
// the way down, a directory's excepted children, never a symbolic link;
// a denied path that does not exist changes nothing.
func TestGrants(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mkTree(t, root, "a/secret", "a/key.pub", "a/sub/x", "b/deep/file", "c", "d/")
	if err := os.Symlink("a/secret", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	deny := []Spec{
		{Parent: root, Name: "a", Dir: true, Except: []string{"*.pub"}},
		{Parent: filepath.Join(root, "b", "deep"), Name: "missing"},
		{Parent: filepath.Join(root, "d"), Name: "*.kdbx"},
	}
	got := Grants(root, Read, deny, nil)
	want := []Grant{
		{Path: filepath.Join(root, "a", "key.pub"), Access: Read},
		{Path: filepath.Join(root, "b"), Dir: true, Access: Read},
		{Path: filepath.Join(root, "c"), Access: Read},
		{Path: filepath.Join(root, "d"), Dir: true, Access: Read},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Grants:\n got %v\nwant %v", got, want)
	}
	// A denied directory inside: its siblings and parents' siblings.
	got = Grants(root, ReadWrite, nil, []string{filepath.Join(root, "b", "deep")})
	want = []Grant{
		{Path: filepath.Join(root, "a"), Dir: true, Access: ReadWrite},
		{Path: filepath.Join(root, "c"), Access: ReadWrite},
		{Path: filepath.Join(root, "d"), Dir: true, Access: ReadWrite},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Grants with a denied directory:\n got %v\nwant %v", got, want)
	}
}

// A secret reached through a symbolic link is denied where it really
// lives; a temporary home is read-only inside the temporary directory.
func TestDefaultFollowsLinks(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	home := filepath.Join(tmp, "home")
	mkTree(t, home, "dotfiles/ssh/id_rsa", "proj/")
	if err := os.Symlink("dotfiles/ssh", filepath.Join(home, ".ssh")); err != nil {
		t.Fatal(err)
	}
	p, err := Default(Options{Home: home, Workspaces: []string{filepath.Join(home, "proj")}, Temp: []string{tmp}})
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(filepath.Join(home, "dotfiles", "ssh"))
	found := false
	for _, s := range p.DenyRead {
		found = found || s.Path() == real
	}
	if !found {
		t.Errorf("no spec for %s (the target of ~/.ssh)", real)
	}
	grants := Grants("/", Read, p.DenyRead, nil)
	for _, g := range grants {
		if g.Path == real || within(real, g.Path) {
			t.Errorf("%s is granted by %v", real, g)
		}
	}
	realHome, _ := filepath.EvalSymlinks(home)
	if !slices.Contains(p.NoWrite, realHome) {
		t.Errorf("NoWrite %v lacks the home inside the temporary directory", p.NoWrite)
	}
	if _, err := Default(Options{Home: "relative"}); err == nil {
		t.Error("a relative home was accepted")
	}
	if _, err := Default(Options{Home: home, Workspaces: []string{"/"}}); err == nil {
		t.Error("/ was accepted as a workspace")
	}
}

// starMatch agrees with filepath.Match on patterns whose only special
// character is '*'.
func TestStarMatch(t *testing.T) {
	t.Parallel()
	pats := []string{"*", "*.pem", "id_*", "*_rsa*", "a*b*c", "**", "", "x", ".env*", "*.tar.*", "*a*a"}
	names := []string{"", "a", "key.pem", "key.pem.bak", "id_rsa", "id_rsa.pub", "abc", "aXbYc", "acb", ".env", ".envrc", "x", "a.tar.gz", "aa", "aba", "b"}
	for _, p := range pats {
		for _, n := range names {
			want, _ := filepath.Match(p, n)
			if got := starMatch(p, n); got != want {
				t.Errorf("starMatch(%q, %q) = %v, filepath.Match says %v", p, n, got, want)
			}
		}
	}
}
