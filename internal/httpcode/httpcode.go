// Package httpcode maps toolgate error codes to HTTP statuses and back: the
// one table the server (code to status) and the client (status to code)
// share, kept out of the root package so the domain types do not import
// net/http. The statuses are numbers, not net/http's constants, so the
// lean hook binary's HTTP client (internal/hookgate) does not link
// net/http either.
package httpcode

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolgate/toolgate"
)

// HTTP statuses (RFC 9110).
const (
	statusBadRequest            = 400
	statusUnauthorized          = 401
	statusForbidden             = 403
	statusNotFound              = 404
	statusConflict              = 409
	statusRequestEntityTooLarge = 413
	statusTooManyRequests       = 429
	statusInternalServerError   = 500
	statusBadGateway            = 502
	statusServiceUnavailable    = 503
	statusGatewayTimeout        = 504
)

// statuses pairs each code with its HTTP status.
var statuses = [...]struct {
	code   toolgate.ErrorCode
	status int
}{
	{toolgate.EInvalid, statusBadRequest},
	{toolgate.EUnauthorized, statusUnauthorized},
	{toolgate.EForbidden, statusForbidden},
	{toolgate.ENotFound, statusNotFound},
	{toolgate.EConflict, statusConflict},
	{toolgate.ETooLarge, statusRequestEntityTooLarge},
	{toolgate.ERateLimited, statusTooManyRequests},
	{toolgate.EUnavailable, statusServiceUnavailable},
	{toolgate.EInternal, statusInternalServerError},
}

// Status returns the HTTP status an error with code c is answered with; an
// unknown code is 500.
func Status(c toolgate.ErrorCode) int {
	for _, p := range statuses {
		if p.code == c {
			return p.status
		}
	}
	return statusInternalServerError
}

// Code returns the code of an error answered with an HTTP status, for a
// response that carries no code of its own. A gateway or proxy that could
// not reach the server counts as unavailable.
func Code(status int) toolgate.ErrorCode {
	switch status {
	case statusBadGateway, statusGatewayTimeout:
		return toolgate.EUnavailable
	}
	for _, p := range statuses {
		if p.status == status {
			return p.code
		}
	}
	return toolgate.EInternal
}

// Error turns an error response's body into a *toolgate.Error: the
// gateway's {"error": {"code", "message"}}, else the status's code with
// the start of the body. status is the status line's text ("503 Service
// Unavailable"), for the message.
func Error(code int, status string, body []byte) error {
	var b struct {
		Error struct {
			Code    toolgate.ErrorCode `json:"code"`
			Message string             `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &b) == nil && b.Error.Code != "" {
		return &toolgate.Error{Code: b.Error.Code, Message: b.Error.Message}
	}
	if len(body) > 512 {
		body = body[:512]
	}
	return &toolgate.Error{Code: Code(code), Message: fmt.Sprintf("gateway answered %s: %s", status, strings.TrimSpace(string(body)))}
}
