package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/httpcode"
	"github.com/toolgate/toolgate/internal/jsonstrict"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/tokens"
)

// handlerFunc is a handler that returns its error instead of writing it:
// the adapter writes every error the same way.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// errNotAcceptable answers a request for a representation the route does
// not have; it is not a toolgate.ErrorCode because no other surface needs
// it.
var errNotAcceptable = errors.New("not acceptable")

// errClientGone ends a request whose client went away; nothing is written.
var errClientGone = errors.New("client went away")

// respWriter records the status and size of a response and carries the
// authenticated caller to the handler. It is pooled: handlers must not
// keep it after they return.
type respWriter struct {
	http.ResponseWriter
	status  int
	written int64
	caller  tokens.Entry
	authed  bool
	// retryAfter is set with a rate-limit error.
	retryAfter time.Duration
}

var respWriters = sync.Pool{New: func() any { return new(respWriter) }}

func (w *respWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *respWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(p)
	w.written += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController and the WebSocket library reach the
// underlying writer (Flush, Hijack, deadlines).
func (w *respWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush implements http.Flusher for code that asserts it directly.
func (w *respWriter) Flush() {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

// Hijack implements http.Hijacker for code that asserts it directly.
func (w *respWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(w.ResponseWriter).Hijack()
}

// callerOf returns the authenticated caller of a request.
func callerOf(w http.ResponseWriter) tokens.Entry {
	if rw, ok := w.(*respWriter); ok {
		return rw.caller
	}
	return tokens.Entry{}
}

// clients are the values of X-Toolgate-Client recorded as an answer's Via.
var clients = map[string]bool{
	"web": true, "cli": true, "tui": true, "api": true,
	"hook": true, "mcp": true, "engine": true, "trpc": true, "ws": true,
}

// actorOf is who a request acts as: the token's name, via the client the
// request names (web, cli, tui) or api.
func actorOf(w http.ResponseWriter, r *http.Request) toolgate.Actor {
	via := "api"
	if c := strings.ToLower(r.Header.Get("X-Toolgate-Client")); clients[c] {
		via = c
	}
	return callerOf(w).Actor(via)
}

// adapt turns a route into an http.Handler: authentication, role check,
// rate limit, body limit, the handler, error mapping, a log line and
// metrics.
func (s *server) adapt(rt *route) http.Handler {
	return http.HandlerFunc(func(hw http.ResponseWriter, r *http.Request) {
		start := time.Now()
		w := respWriters.Get().(*respWriter)
		*w = respWriter{ResponseWriter: hw}
		err := s.authorize(w, r, rt.Role)
		switch {
		case err != nil && rt.writeAuthErr != nil:
			s.setErrorHeaders(w, httpcode.Status(toolgate.ErrorCodeOf(err)))
			rt.writeAuthErr(w, r, err)
		case err == nil:
			if w.authed {
				r = r.WithContext(toolgate.WithActor(r.Context(), actorOf(w, r)))
			}
			err = s.serve(w, r, rt)
			switch {
			case errors.Is(err, store.ErrUnavailable):
				s.fault.Store(&storeFault{at: s.now(), msg: toolgate.ErrorMessageOf(err)})
			case err == nil && rt.Writes && s.fault.Load() != nil:
				s.fault.Store(nil) // the store takes writes again
			}
			if err != nil {
				s.writeError(w, r, rt, err)
			}
		default:
			s.writeError(w, r, rt, err)
		}
		status := w.status
		if status == 0 {
			status = http.StatusOK
			if errors.Is(err, errClientGone) {
				status = 499 // client closed request: nothing was written
			}
		}
		d := time.Since(start)
		s.metrics.observe(rt.slot, status, d)
		if s.log.Enabled(r.Context(), slog.LevelInfo) {
			s.log.LogAttrs(r.Context(), slog.LevelInfo, "request",
				slog.String("method", r.Method), slog.String("route", rt.Path),
				slog.Int("status", status), slog.Duration("duration", d),
				slog.String("token", w.caller.Name), slog.Int64("bytes", w.written))
		}
		*w = respWriter{}
		respWriters.Put(w)
	})
}

// serve runs an authorized request's handler under the caller's limits:
// the body timeout, the bytes an agent may send to be stored, the
// requests it may hold waiting.
func (s *server) serve(w *respWriter, r *http.Request, rt *route) error {
	var body *deadlineBody
	if r.Body != nil && r.Body != http.NoBody {
		body = s.bodyDeadline(w, http.MaxBytesReader(w, r.Body, s.limits.MaxBodyBytes))
		r.Body = body
	}
	if rt.Stores && w.caller.Role == tokens.RoleAgent {
		if full, wait := s.stored.empty(w.caller.Name); full {
			w.retryAfter = wait
			return toolgate.Errorf(toolgate.ERateLimited, "credential %s sent more than %d bytes a minute to be stored; retry in %s", w.caller.Name, s.limits.StoredBytesPerMinute, wait.Round(time.Second))
		}
		if body != nil {
			defer func() { s.stored.take(w.caller.Name, float64(body.n)) }()
		}
	}
	if rt.Holds {
		release, err := s.hold(w)
		if err != nil {
			return err
		}
		defer release()
	}
	return rt.handler(w, r)
}

// deadlineBody is a request body that must arrive within the body
// timeout: a client that sends its headers and then trickles or stalls
// its body holds a connection and a goroutine only that long. The
// deadline is lifted once the body is read, so a long poll that follows
// is not cut.
type deadlineBody struct {
	io.ReadCloser
	rc      *http.ResponseController
	timeout time.Duration
	lifted  bool
	n       int64 // bytes read
}

// bodyDeadline sets the read deadline of r's connection and returns the
// body that lifts it.
func (s *server) bodyDeadline(w http.ResponseWriter, body io.ReadCloser) *deadlineBody {
	rc := http.NewResponseController(w)
	if rc.SetReadDeadline(time.Now().Add(s.limits.BodyTimeout)) != nil {
		// Not a connection with deadlines (a test recorder, HTTP/2's
		// streams have their own): the server's own timeouts apply.
		return &deadlineBody{ReadCloser: body, lifted: true, timeout: s.limits.BodyTimeout}
	}
	return &deadlineBody{ReadCloser: body, rc: rc, timeout: s.limits.BodyTimeout}
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n += int64(n)
	switch {
	case err == io.EOF:
		b.done() // all here: a long poll may follow
	case err != nil:
		// The deadline stays: the server drains what is left of a body
		// before it answers, and that must end too.
		b.lifted = true
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return n, toolgate.Errorf(toolgate.EInvalid, "the request body did not arrive within %s", b.timeout)
		}
	}
	return n, err
}

// done lifts the deadline once the body was read to its end. A handler
// that returns without reading it so leaves the deadline: what the server
// drains of the body before it answers is bounded by it, and the server
// sets the next request's deadlines itself.
func (b *deadlineBody) done() {
	if b == nil || b.lifted {
		return
	}
	b.lifted = true
	_ = b.rc.SetReadDeadline(time.Time{})
}

// hold takes one of the caller's holds for a request that waits; a
// caller past its limit is told when to retry.
func (s *server) hold(w http.ResponseWriter) (func(), error) {
	release, err := s.holds.acquire(callerOf(w).Name)
	if err != nil {
		if rw, ok := w.(*respWriter); ok {
			rw.retryAfter = time.Second
		}
		return nil, err
	}
	return release, nil
}

// clientAddr is the address failed authentication is counted by: the
// peer's IP (a proxy in front of the gateway counts as one client).
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// authorize authenticates the request if the route needs a role, checks
// the role and takes a token from the caller's bucket.
func (s *server) authorize(w *respWriter, r *http.Request, need tokens.Role) error {
	if need == "" {
		return nil
	}
	h := r.Header.Get("Authorization")
	switch {
	case h == "" && s.deps.Authenticate != nil:
		e, ok := s.deps.Authenticate(r)
		if !ok {
			return toolgate.Errorf(toolgate.EUnauthorized, "missing credentials: send Authorization: Bearer <token>")
		}
		w.caller = e
	case h == "":
		return toolgate.Errorf(toolgate.EUnauthorized, "missing credentials: send Authorization: Bearer <token>")
	case len(h) < 7 || !strings.EqualFold(h[:7], "bearer "):
		return toolgate.Errorf(toolgate.EUnauthorized, "the Authorization header must be Bearer <token>")
	default:
		addr := clientAddr(r)
		if blocked, wait := s.authFails.empty(addr); blocked {
			w.retryAfter = wait
			return toolgate.Errorf(toolgate.ERateLimited, "too many unknown or revoked tokens from %s; retry in %s", addr, wait.Round(time.Second))
		}
		e, ok := s.tokens.Verify(strings.TrimSpace(h[7:]))
		if !ok {
			s.authFails.allow(addr)
			return toolgate.Errorf(toolgate.EUnauthorized, "unknown or revoked token")
		}
		w.caller = e
	}
	w.authed = true
	if !w.caller.Role.Allows(need) {
		return toolgate.Errorf(toolgate.EForbidden, "this needs a %s token; %q is %s", need, w.caller.Name, w.caller.Role)
	}
	if ok, wait := s.limiter.allow(w.caller.Name); !ok {
		w.retryAfter = wait
		return toolgate.Errorf(toolgate.ERateLimited, "too many requests for token %q; retry in %s", w.caller.Name, wait.Round(time.Millisecond))
	}
	return nil
}

// errorBody is the JSON form of every error.
type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    toolgate.ErrorCode `json:"code"`
	Message string             `json:"message"`
}

// writeError writes err with the status of its code. Internal errors are
// logged and shown only as "internal error".
func (s *server) writeError(w *respWriter, r *http.Request, rt *route, err error) {
	if errors.Is(err, errClientGone) {
		return
	}
	if w.status != 0 {
		// The response has started (a stream): the error can only be logged.
		if r.Context().Err() == nil {
			s.log.LogAttrs(r.Context(), slog.LevelWarn, "error after response started",
				slog.String("route", rt.Path), slog.String("err", err.Error()))
		}
		return
	}
	code := toolgate.ErrorCodeOf(err)
	msg := toolgate.ErrorMessageOf(err)
	status := httpcode.Status(code)
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		code, status = toolgate.ETooLarge, http.StatusRequestEntityTooLarge
		msg = fmt.Sprintf("request body larger than %d bytes", mbe.Limit)
	case errors.Is(err, errNotAcceptable):
		code, status = toolgate.EInvalid, http.StatusNotAcceptable
		msg = "GET /v1/events is a WebSocket (send an upgrade request) or Server-Sent Events (send Accept: text/event-stream)"
	case code == toolgate.EInternal:
		if r.Context().Err() != nil && errors.Is(err, r.Context().Err()) {
			return // the client went away mid-request
		}
		s.log.LogAttrs(r.Context(), slog.LevelError, "internal error",
			slog.String("method", r.Method), slog.String("route", rt.Path), slog.String("err", err.Error()))
	}
	s.setErrorHeaders(w, status)
	writeJSON(w, status, errorBody{Error: errorDetail{Code: code, Message: msg}})
}

// setErrorHeaders sets the headers an error status calls for.
func (s *server) setErrorHeaders(w *respWriter, status int) {
	h := w.Header()
	switch status {
	case http.StatusUnauthorized:
		h.Set("WWW-Authenticate", `Bearer realm="toolgate"`)
	case http.StatusTooManyRequests:
		h.Set("Retry-After", strconv.Itoa(max(1, int((w.retryAfter+time.Second-1)/time.Second))))
	}
}

var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// writeJSON writes v as JSON with a status.
func writeJSON(w http.ResponseWriter, status int, v any) error {
	buf := buffers.Get().(*bytes.Buffer)
	buf.Reset()
	defer putBuffer(buf)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("encode response: %w", err)
	}
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Content-Length"] = []string{strconv.Itoa(buf.Len())}
	w.WriteHeader(status)
	_, err := w.Write(buf.Bytes())
	return err
}

var jsonContentType = []string{"application/json"}

func putBuffer(buf *bytes.Buffer) {
	if buf.Cap() <= 64<<10 {
		buffers.Put(buf)
	}
}

// readBody reads a request body (bounded by the adapter's limit) into a
// pooled buffer; call putBuffer when done with it.
func readBody(r *http.Request) (*bytes.Buffer, error) {
	buf := buffers.Get().(*bytes.Buffer)
	buf.Reset()
	if r.Body == nil {
		return buf, nil
	}
	if _, err := buf.ReadFrom(r.Body); err != nil {
		putBuffer(buf)
		var mbe *http.MaxBytesError
		var te *toolgate.Error
		if errors.As(err, &mbe) || errors.As(err, &te) {
			return nil, err // too large, or too slow (deadlineBody)
		}
		if r.Context().Err() != nil {
			return nil, errClientGone
		}
		return nil, toolgate.Errorf(toolgate.EInvalid, "read request body: %w", err)
	}
	return buf, nil
}

// decodeJSON decodes the request body into v, strictly: unknown fields,
// trailing data and an empty body are errors that say what is wrong.
func decodeJSON(r *http.Request, v any) error {
	buf, err := readBody(r)
	if err != nil {
		return err
	}
	defer putBuffer(buf)
	return unmarshalStrict(buf.Bytes(), v)
}

// unmarshalStrict decodes data into v, rejecting unknown fields and
// trailing data, with messages that name what is wrong.
func unmarshalStrict(data []byte, v any) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return toolgate.Errorf(toolgate.EInvalid, "request body is empty; want a JSON object")
	}
	// Exact key case and no duplicate keys: one body, one meaning.
	if err := jsonstrict.Check(data, reflect.TypeOf(v)); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return toolgate.Errorf(toolgate.EInvalid, "malformed JSON: unexpected data after the JSON value at byte %d", dec.InputOffset())
	}
	return nil
}

// jsonError turns a decoding error into an EInvalid error naming the
// field or offset.
func jsonError(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return toolgate.Errorf(toolgate.EInvalid, "malformed JSON at byte %d: %s", syn.Offset, strings.TrimPrefix(syn.Error(), "json: "))
	case errors.As(err, &typ):
		// The bare call of POST /v1/calls is an embedded struct; its
		// fields are top-level in the JSON.
		field := strings.TrimPrefix(typ.Field, "Call.")
		if field == "" {
			return toolgate.Errorf(toolgate.EInvalid, "malformed JSON: expected %s, got %s", typeName(typ.Type.String()), typ.Value)
		}
		return toolgate.Errorf(toolgate.EInvalid, "field %q: expected %s, got %s", field, typeName(typ.Type.String()), typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return toolgate.Errorf(toolgate.EInvalid, "malformed JSON: the body ends in the middle of a value")
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return toolgate.Errorf(toolgate.EInvalid, "unknown field %s", strings.TrimPrefix(err.Error(), "json: unknown field "))
	}
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return err
	}
	return toolgate.Errorf(toolgate.EInvalid, "invalid JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
}

// typeName says a Go type's JSON shape.
func typeName(t string) string {
	switch {
	case strings.HasPrefix(t, "map[") || strings.HasPrefix(t, "struct") || strings.Contains(t, "."):
		if strings.HasPrefix(t, "[]") {
			return "an array"
		}
		return "an object"
	case strings.HasPrefix(t, "[]"):
		return "an array"
	case t == "string":
		return "a string"
	case t == "bool":
		return "a boolean"
	case strings.HasPrefix(t, "int") || strings.HasPrefix(t, "uint") || strings.HasPrefix(t, "float"):
		return "a number"
	}
	return t
}

// parseWait reads a ?wait= duration ("30s", or plain seconds), capped at
// the server's maximum.
func (s *server) parseWait(r *http.Request) (time.Duration, error) {
	v := r.URL.Query().Get("wait")
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		// Seconds, as a number; beyond the cap is the cap (converting a
		// huge float to a Duration would overflow to a negative).
		n, nerr := strconv.ParseFloat(v, 64)
		if nerr != nil && !errors.Is(nerr, strconv.ErrRange) || math.IsNaN(n) {
			return 0, toolgate.Errorf(toolgate.EInvalid, "wait=%q: want a duration such as 30s", v)
		}
		if n < 0 {
			return 0, toolgate.Errorf(toolgate.EInvalid, "wait=%q: negative", v)
		}
		if n >= s.limits.MaxWait.Seconds() {
			return s.limits.MaxWait, nil
		}
		d = time.Duration(n * float64(time.Second))
	}
	if d < 0 {
		return 0, toolgate.Errorf(toolgate.EInvalid, "wait=%q: negative", v)
	}
	return min(d, s.limits.MaxWait), nil
}

// waitFor long-polls an approval for up to d. It returns the approval as
// it stands when it is resolved or the time is up; if the client goes
// away it returns errClientGone and the approval stays as it is: an agent
// re-attaches by call id.
func (s *server) waitFor(w http.ResponseWriter, r *http.Request, id string, d time.Duration) (*toolgate.Approval, error) {
	release, err := s.hold(w)
	if err != nil {
		return nil, err
	}
	defer release()
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Now().Add(d + s.limits.WriteTimeout))
	ctx, cancel := context.WithTimeout(r.Context(), d)
	defer cancel()
	a, err := s.broker.Wait(ctx, id)
	if err != nil {
		if r.Context().Err() != nil {
			return nil, errClientGone
		}
		if ctx.Err() != nil && a != nil {
			return a, nil // time is up: the approval is still pending
		}
		return nil, err
	}
	return a, nil
}

// pathID returns the {id} path value, checked.
func pathID(r *http.Request) (string, error) {
	id := r.PathValue("id")
	if id == "" || len(id) > 256 || strings.ContainsAny(id, "/\\\x00") {
		return "", toolgate.Errorf(toolgate.EInvalid, "bad id %q", id)
	}
	return id, nil
}

// workspaceID returns the {id} path value as a workspace id: it names a
// directory, so only a safe alphabet is accepted.
func workspaceID(r *http.Request) (string, error) {
	id := r.PathValue("id")
	if err := toolgate.ValidWorkspaceID(id); err != nil {
		return "", err
	}
	return id, nil
}
