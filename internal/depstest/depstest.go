// Package depstest keeps packages lean from their tests: Forbid lists
// what a package links (go list -deps) and fails the test for each
// forbidden package it finds. Only tests import it.
package depstest

import (
	"os/exec"
	"strings"
	"testing"
)

// Forbid fails t for every package in bad that the package in the
// current directory links. A pattern ending in "/..." names the package
// and everything below it, as the go command reads it; any other names
// one package. env is the go command's environment (nil: the test's).
// Without the go command the test is skipped.
func Forbid(t testing.TB, env []string, bad ...string) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
	list := exec.Command("go", "list", "-deps", ".")
	list.Env = env
	out, err := list.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, d := range strings.Fields(string(out)) {
		for _, b := range bad {
			if matches(b, d) {
				t.Errorf("links %s (forbidden: %s; go mod why -m or the import chain says from where)", d, b)
			}
		}
	}
}

// matches reports whether pattern names the package path.
func matches(pattern, path string) bool {
	if tree, ok := strings.CutSuffix(pattern, "/..."); ok {
		return path == tree || strings.HasPrefix(path, tree+"/")
	}
	return path == pattern
}
