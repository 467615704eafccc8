package httpcode_test

import (
	"net/http"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/httpcode"
)

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	for _, c := range []toolgate.ErrorCode{
		toolgate.EInvalid, toolgate.ENotFound, toolgate.EConflict, toolgate.EUnauthorized, toolgate.EForbidden,
		toolgate.ETooLarge, toolgate.ERateLimited, toolgate.EUnavailable, toolgate.EInternal,
	} {
		if got := httpcode.Code(httpcode.Status(c)); got != c {
			t.Errorf("%s -> %d -> %s", c, httpcode.Status(c), got)
		}
	}
	if got := httpcode.Status("nonsense"); got != http.StatusInternalServerError {
		t.Errorf("unknown code: %d", got)
	}
	if got := httpcode.Code(http.StatusBadGateway); got != toolgate.EUnavailable {
		t.Errorf("502: %s", got)
	}
}
