package toolgate_test

import (
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
