// Package httpcode maps toolgate error codes to HTTP statuses and back: the
// one table the server (code to status) and the client (status to code)
// share, kept out of the root package so the domain types do not import
// net/http.
package httpcode

import (
	"net/http"

	"github.com/toolgate/toolgate"
)

// statuses pairs each code with its HTTP status.
var statuses = [...]struct {
	code   toolgate.ErrorCode
	status int
}{
	{toolgate.EInvalid, http.StatusBadRequest},
	{toolgate.EUnauthorized, http.StatusUnauthorized},
	{toolgate.EForbidden, http.StatusForbidden},
	{toolgate.ENotFound, http.StatusNotFound},
	{toolgate.EConflict, http.StatusConflict},
	{toolgate.ETooLarge, http.StatusRequestEntityTooLarge},
	{toolgate.ERateLimited, http.StatusTooManyRequests},
	{toolgate.EUnavailable, http.StatusServiceUnavailable},
	{toolgate.EInternal, http.StatusInternalServerError},
}

// Status returns the HTTP status an error with code c is answered with; an
// unknown code is 500.
func Status(c toolgate.ErrorCode) int {
	for _, p := range statuses {
		if p.code == c {
			return p.status
		}
	}
	return http.StatusInternalServerError
}

// Code returns the code of an error answered with an HTTP status, for a
// response that carries no code of its own. A gateway or proxy that could
// not reach the server counts as unavailable.
func Code(status int) toolgate.ErrorCode {
	switch status {
	case http.StatusBadGateway, http.StatusGatewayTimeout:
		return toolgate.EUnavailable
	}
	for _, p := range statuses {
		if p.status == status {
			return p.code
		}
	}
	return toolgate.EInternal
}
