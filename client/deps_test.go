package client_test

import (
	"testing"

	"github.com/toolgate/toolgate/internal/depstest"
)

// TestClientDepsLean: a program that only talks to a gateway links neither
// the rule engine, the shell parser, the broker nor a store (the client
// imports only the root package).
func TestClientDepsLean(t *testing.T) {
	depstest.Forbid(t, nil, "github.com/toolgate/toolgate/policy/...", "github.com/toolgate/toolgate/shell/...",
		"github.com/toolgate/toolgate/approval/...", "github.com/toolgate/toolgate/store/...", "mvdan.cc/sh/...")
}
