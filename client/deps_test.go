package client_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestClientDepsLean: a program that only talks to a gateway links neither
// the rule engine, the shell parser, the broker nor a store (the client
// imports only the root package).
func TestClientDepsLean(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, d := range strings.Fields(string(out)) {
		for _, bad := range []string{"github.com/toolgate/toolgate/policy", "github.com/toolgate/toolgate/shell",
			"github.com/toolgate/toolgate/approval", "github.com/toolgate/toolgate/store", "mvdan.cc/sh"} {
			if d == bad || strings.HasPrefix(d, bad+"/") {
				t.Errorf("client links %s", d)
			}
		}
	}
}
