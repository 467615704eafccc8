package mcpproxy_test

import (
	"testing"

	"github.com/toolgate/toolgate/internal/depstest"
)

// TestDepsNoBroker: mcpproxy works through a Gate, so it links neither the
// broker nor a store.
func TestDepsNoBroker(t *testing.T) {
	depstest.Forbid(t, nil, "github.com/toolgate/toolgate/approval/...", "github.com/toolgate/toolgate/store/...")
}
