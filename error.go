package toolgate

import (
	"errors"
	"fmt"
)

// ErrorCode classifies an error for every surface: the HTTP API maps it to
// a status, the CLI to an exit code.
type ErrorCode string

// Error codes.
const (
	EInvalid      ErrorCode = "invalid"
	ENotFound     ErrorCode = "not_found"
	EConflict     ErrorCode = "conflict"
	EUnauthorized ErrorCode = "unauthorized"
	EForbidden    ErrorCode = "forbidden"
	ETooLarge     ErrorCode = "too_large"
	ERateLimited  ErrorCode = "rate_limited"
	EUnavailable  ErrorCode = "unavailable"
	EInternal     ErrorCode = "internal"
)

// Error is an error with a code and a message meant for the caller.
type Error struct {
	Code    ErrorCode
	Message string
	// Err is the underlying cause, if any; it is not shown to remote callers.
	Err error
	// wrapped is set when Message already contains Err's text (Errorf with
	// %w), so Error does not repeat it.
	wrapped bool
}

func (e *Error) Error() string {
	if e.Err != nil && !e.wrapped {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with the given code and formatted message. As
// with fmt.Errorf, a %w verb keeps its operand as the cause, so errors.Is
// and errors.As see through the *Error.
func Errorf(code ErrorCode, format string, args ...any) *Error {
	err := fmt.Errorf(format, args...)
	e := &Error{Code: code, Message: err.Error()}
	switch w := err.(type) {
	case interface{ Unwrap() error }:
		e.Err, e.wrapped = w.Unwrap(), true
	case interface{ Unwrap() []error }:
		e.Err, e.wrapped = errors.Join(w.Unwrap()...), true
	}
	return e
}

// ErrorCodeOf returns the code of the first *Error in err's chain, EInternal
// for any other non-nil error and "" for nil.
func ErrorCodeOf(err error) ErrorCode {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EInternal
}

// ErrorMessageOf returns the message of the first *Error in err's chain and
// a generic text for any other error, so internals are not shown to callers.
func ErrorMessageOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "internal error"
}
