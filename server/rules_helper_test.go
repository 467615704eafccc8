package server_test

import (
	"testing"

	"github.com/toolgate/toolgate/store"
)

func newRules(t testing.TB, dir string) store.Rules { return newMemRules() }
