package enginehost_test

import (
	"testing"

	"github.com/toolgate/toolgate/internal/depstest"
)

// TestDepsNoBroker: enginehost works through a Gate, so it links neither the
// broker nor a store.
func TestDepsNoBroker(t *testing.T) {
	depstest.Forbid(t, nil, "github.com/toolgate/toolgate/approval/...", "github.com/toolgate/toolgate/store/...")
}
