package server_test

import (
	"testing"

	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/fsrules"
)

// newRules returns the file rules store the server runs with: one
// permissions.jsonc per workspace under dir, seeded with the defaults.
func newRules(t testing.TB, dir string) store.Rules {
	return fsrules.New(dir, policy.DefaultRulesJSONC())
}
