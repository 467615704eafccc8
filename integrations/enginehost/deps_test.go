package enginehost_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDepsNoBroker: enginehost works through a Gate, so it links neither the
// broker nor a store.
func TestDepsNoBroker(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, d := range strings.Fields(string(out)) {
		for _, bad := range []string{"github.com/toolgate/toolgate/approval", "github.com/toolgate/toolgate/store"} {
			if d == bad || strings.HasPrefix(d, bad+"/") {
				t.Errorf("enginehost links %s", d)
			}
		}
	}
}
