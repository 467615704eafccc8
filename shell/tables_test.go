package shell

import (
	"slices"
	"strings"
	"testing"
)

// TestRiskTablesSorted: findRisk's binary search needs each table in
// byte order, each path once, every code with a reason.
func TestRiskTablesSorted(t *testing.T) {
	for name, table := range map[string][]pathRisk{"homeFiles": homeFiles.get(), "systemFiles": systemFiles[:], "systemDirFiles": systemDirFiles[:]} {
		if !slices.IsSortedFunc(table, func(a, b pathRisk) int { return strings.Compare(a.path, b.path) }) {
			t.Errorf("%s is not sorted by path", name)
		}
		for i, r := range table {
			if i > 0 && table[i-1].path == r.path {
				t.Errorf("%s lists %s twice", name, r.path)
			}
			if code, ok := findRisk(table, r.path); !ok || code != r.code {
				t.Errorf("%s: findRisk(%q) = %q, %v; want %q", name, r.path, code, ok, r.code)
			}
			if riskReason(r.code) == "" {
				t.Errorf("%s: %s has no reason for %s", name, r.path, r.code)
			}
		}
		if _, ok := findRisk(table, "/no/such"); ok {
			t.Errorf("%s: findRisk found a path it does not list", name)
		}
	}
}

// TestCwdServersSorted: findCwdServer's binary search needs the table in
// byte order, each name once.
func TestCwdServersSorted(t *testing.T) {
	for i, s := range cwdServers {
		if i > 0 && cwdServers[i-1].name >= s.name {
			t.Errorf("cwdServers[%d] %q is not after %q", i, s.name, cwdServers[i-1].name)
		}
		if _, ok := findCwdServer(s.name); !ok {
			t.Errorf("findCwdServer(%q) does not find it", s.name)
		}
	}
	if _, ok := findCwdServer("nginx"); ok {
		t.Error("findCwdServer found a server it does not list")
	}
}
