package trpc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

// code is a tRPC error code (the "code" of an error's data).
type code string

// The tRPC error codes this package answers with.
const (
	codeParseError       code = "PARSE_ERROR"
	codeBadRequest       code = "BAD_REQUEST"
	codeUnauthorized     code = "UNAUTHORIZED"
	codeForbidden        code = "FORBIDDEN"
	codeNotFound         code = "NOT_FOUND"
	codeMethodNotAllowed code = "METHOD_NOT_SUPPORTED"
	codeConflict         code = "CONFLICT"
	codePayloadTooLarge  code = "PAYLOAD_TOO_LARGE"
	codeUnsupportedMedia code = "UNSUPPORTED_MEDIA_TYPE"
	codeTooManyRequests  code = "TOO_MANY_REQUESTS"
	codeInternal         code = "INTERNAL_SERVER_ERROR"
	codeUnavailable      code = "SERVICE_UNAVAILABLE"
)

// jsonRPC is each code's JSON-RPC 2.0 number, as @trpc/server's
// TRPC_ERROR_CODES_BY_KEY has it. The client checks that an error's code
// is a number.
var jsonRPC = map[code]int{
	codeParseError:       -32700,
	codeBadRequest:       -32600,
	codeInternal:         -32603,
	codeUnavailable:      -32603,
	codeUnauthorized:     -32001,
	codeForbidden:        -32003,
	codeNotFound:         -32004,
	codeMethodNotAllowed: -32005,
	codeConflict:         -32009,
	codePayloadTooLarge:  -32013,
	codeUnsupportedMedia: -32015,
	codeTooManyRequests:  -32029,
}

// httpStatus is each code's HTTP status (@trpc/server's
// JSONRPC2_TO_HTTP_CODE).
var httpStatus = map[code]int{
	codeParseError:       http.StatusBadRequest,
	codeBadRequest:       http.StatusBadRequest,
	codeUnauthorized:     http.StatusUnauthorized,
	codeForbidden:        http.StatusForbidden,
	codeNotFound:         http.StatusNotFound,
	codeMethodNotAllowed: http.StatusMethodNotAllowed,
	codeConflict:         http.StatusConflict,
	codePayloadTooLarge:  http.StatusRequestEntityTooLarge,
	codeUnsupportedMedia: http.StatusUnsupportedMediaType,
	codeTooManyRequests:  http.StatusTooManyRequests,
	codeInternal:         http.StatusInternalServerError,
	codeUnavailable:      http.StatusServiceUnavailable,
}

// Error is a tRPC error: what a procedure fails with.
type Error struct {
	Code    code
	Message string
	// Err is the cause; it is logged, never sent.
	Err error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

func errorf(c code, format string, args ...any) *Error {
	return &Error{Code: c, Message: fmt.Sprintf(format, args...)}
}

// errorShape is the default tRPC error shape (getDefaultErrorShape).
type errorShape struct {
	Message string    `json:"message"`
	Code    int       `json:"code"`
	Data    errorData `json:"data"`
}

type errorData struct {
	Code       code   `json:"code"`
	HTTPStatus int    `json:"httpStatus"`
	Path       string `json:"path,omitempty"`
}

func (e *Error) shape(path string) errorShape {
	return errorShape{Message: e.Message, Code: jsonRPC[e.Code], Data: errorData{Code: e.Code, HTTPStatus: e.status(), Path: path}}
}

func (e *Error) status() int {
	if s, ok := httpStatus[e.Code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// response is one item of a response: a result or an error.
type response struct {
	Result *result     `json:"result,omitempty"`
	Error  *errorShape `json:"error,omitempty"`
	// status is the item's HTTP status; it is not sent.
	status int
}

type result struct {
	Data any `json:"data"`
}

func okResponse(data any) response {
	return response{Result: &result{Data: data}, status: http.StatusOK}
}

func errResponse(e *Error, path string) response {
	s := e.shape(path)
	return response{Error: &s, status: e.status()}
}

// writeJSON writes v with a status and tRPC's headers.
func writeJSON(w http.ResponseWriter, status int, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("trpc: encode response: %w", err)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Vary", "trpc-accept, accept")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("trpc: write response: %w", err)
	}
	return nil
}

// batchStatus is the HTTP status of a batch: the items' common status, or
// 207 when they differ (getHTTPStatusCode).
func batchStatus(items []response) int {
	status := 0
	for _, it := range items {
		switch {
		case status == 0:
			status = it.status
		case status != it.status:
			return http.StatusMultiStatus
		}
	}
	if status == 0 {
		return http.StatusOK
	}
	return status
}
