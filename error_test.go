package toolgate_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/toolgate/toolgate"
)

func TestHTTPStatusRoundTrip(t *testing.T) {
	t.Parallel()
	for _, c := range []toolgate.ErrorCode{
		toolgate.EInvalid, toolgate.ENotFound, toolgate.EConflict, toolgate.EUnauthorized, toolgate.EForbidden,
		toolgate.ETooLarge, toolgate.ERateLimited, toolgate.EUnavailable, toolgate.EInternal,
	} {
		if got := toolgate.ErrorCodeForHTTPStatus(c.HTTPStatus()); got != c {
			t.Errorf("%s -> %d -> %s", c, c.HTTPStatus(), got)
		}
	}
	if got := toolgate.ErrorCode("nonsense").HTTPStatus(); got != http.StatusInternalServerError {
		t.Errorf("unknown code: %d", got)
	}
	if got := toolgate.ErrorCodeForHTTPStatus(http.StatusBadGateway); got != toolgate.EUnavailable {
		t.Errorf("502: %s", got)
	}
}

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
