package toolgate_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/toolgate/toolgate"
)

func TestErrorfKeepsCause(t *testing.T) {
	t.Parallel()
	err := toolgate.Errorf(toolgate.EUnavailable, "gateway unreachable: %w", context.Canceled)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("errors.Is(%v, context.Canceled) = false", err)
	}
	if got, want := err.Error(), "gateway unreachable: context canceled"; got != want {
		t.Errorf("Error() = %q, want %q (the cause once)", got, want)
	}
	if got := toolgate.ErrorCodeOf(fmt.Errorf("outer: %w", err)); got != toolgate.EUnavailable {
		t.Errorf("code through a wrap = %s", got)
	}
	plain := toolgate.Errorf(toolgate.EInvalid, "bad %s", "x")
	if plain.Err != nil || plain.Error() != "bad x" {
		t.Errorf("plain = %#v", plain)
	}
}
