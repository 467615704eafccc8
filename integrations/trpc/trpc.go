package trpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/server/mount"
	"github.com/toolgate/toolgate/tokens"
)

// Defaults.
const (
	// DefaultPrefix is where the procedures are served: tRPC's usual
	// endpoint, so a client's url is http://HOST/trpc.
	DefaultPrefix = "/trpc"
	// DefaultHeartbeat is how often a subscription sends a ping event.
	DefaultHeartbeat = 10 * time.Second
	// DefaultWriteTimeout bounds writing one event of a subscription.
	DefaultWriteTimeout = 10 * time.Second
	// MaxBatch is the most calls one batch may carry.
	MaxBatch = 100
	// Via is the client name answers made here are recorded with.
	Via = "trpc"
)

// Config configures the procedures. The zero value serves them at /trpc.
type Config struct {
	// Prefix is the tRPC endpoint's path (default /trpc); it has no
	// trailing slash.
	Prefix string
	// Heartbeat is the interval of a subscription's ping events (default
	// 10 s).
	Heartbeat time.Duration
	// WriteTimeout bounds writing one subscription event (default 10 s).
	WriteTimeout time.Duration
	// Tracked sends every subscription event with an id, as a procedure
	// yielding tRPC's tracked(id, data) does: a client then receives
	// {id, data} instead of the bare event, and one that reconnects
	// (lastEventId) is also sent what it missed, resolutions included.
	// Off by default: clients receive the seed's bare events, and a
	// reconnect replays the approvals still pending, which is what seed
	// 001 promises.
	Tracked bool
	// Logger gets errors that cannot be sent to the client.
	Logger *slog.Logger
}

func (c Config) withDefaults() Config {
	c.Prefix = strings.TrimRight(c.Prefix, "/")
	if c.Prefix == "" {
		c.Prefix = DefaultPrefix
	}
	if c.Heartbeat <= 0 {
		c.Heartbeat = DefaultHeartbeat
	}
	if c.WriteTimeout <= 0 {
		c.WriteTimeout = DefaultWriteTimeout
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// Handler serves the tRPC procedures for one broker.
type Handler struct {
	broker *approval.Broker // its event stream, and the "always" rules of a pipeline
	gate   toolgate.Gate    // answers, as the caller
	cfg    Config
	procs  map[string]procedure
}

// procType is a procedure's kind.
type procType string

const (
	typeQuery        procType = "query"
	typeMutation     procType = "mutation"
	typeSubscription procType = "subscription"
)

// procedure is one procedure: its kind and, for queries and mutations, the
// function that answers it. Subscriptions are streamed by the handler.
type procedure struct {
	typ procType
	run func(ctx context.Context, input json.RawMessage, caller tokens.Entry) (any, error)
}

// New returns the procedures over b.
func New(b *approval.Broker, cfg Config) *Handler {
	h := &Handler{broker: b, gate: b.Gate(), cfg: cfg.withDefaults()}
	h.procs = map[string]procedure{
		"tool.approve":   {typ: typeMutation, run: h.approve},
		"tool.deny":      {typ: typeMutation, run: h.deny},
		"agent.onEvents": {typ: typeSubscription},
	}
	return h
}

// Mounts returns the server routes of the procedures: GET and POST
// PREFIX/{path}, for approvers.
func Mounts(b *approval.Broker, cfg Config) []mount.Route { return New(b, cfg).Mounts() }

// Mounts returns the server routes of h.
func (h *Handler) Mounts() []mount.Route {
	p := h.cfg.Prefix + "/{path}"
	return []mount.Route{
		{Method: http.MethodGet, Path: p, Role: tokens.RoleApprover, Handler: h.ServeTRPC, WriteError: h.WriteError},
		{Method: http.MethodPost, Path: p, Role: tokens.RoleApprover, Handler: h.ServeTRPC, WriteError: h.WriteError},
	}
}

// WriteError writes an error the server raised before the procedure ran
// (a missing or unknown token, a token without the approver role, a rate
// limit) in tRPC's shape, for every call of a batch, so a stock client
// sees UNAUTHORIZED, FORBIDDEN or TOO_MANY_REQUESTS rather than an error it
// cannot parse.
func (h *Handler) WriteError(w http.ResponseWriter, r *http.Request, err error) {
	e := fromToolgate(err)
	path := r.PathValue("path")
	if path == "" {
		path = strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, h.cfg.Prefix), "/")
	}
	if r.URL.Query().Get("batch") != "1" {
		_ = writeJSON(w, e.status(), errResponse(e, path))
		return
	}
	paths := strings.Split(path, ",")
	if len(paths) > MaxBatch {
		paths = paths[:MaxBatch]
	}
	items := make([]response, len(paths))
	for i, p := range paths {
		items[i] = errResponse(e, p)
	}
	_ = writeJSON(w, batchStatus(items), items)
}

// call is one call of a request: a procedure path and its input.
type call struct {
	path  string
	proc  *procedure
	input json.RawMessage // nil when the client sent none
	err   *Error          // set when the call cannot run
}

// ServeTRPC serves one tRPC request for an authenticated caller. It
// writes every error in tRPC's format and returns only errors it could
// not write.
func (h *Handler) ServeTRPC(w http.ResponseWriter, r *http.Request, caller tokens.Entry) error {
	if r.Method == http.MethodHead {
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	path := r.PathValue("path")
	if path == "" {
		path = strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, h.cfg.Prefix), "/")
	}
	calls, batch, err := h.parse(r, path)
	if err != nil {
		// A request that cannot be read at all answers one error, for
		// every call of a batch alike (the client spreads it).
		e := asError(err)
		return writeJSON(w, e.status(), errResponse(e, ""))
	}
	if !batch && calls[0].proc != nil && calls[0].proc.typ == typeSubscription && calls[0].err == nil {
		return h.subscribe(w, r, calls[0].input)
	}
	if !batch && calls[0].proc != nil && calls[0].proc.typ == typeSubscription {
		// The input could not be read: the error goes on the stream, as
		// @trpc/server sends it.
		return h.streamError(w, r, calls[0].err, calls[0].path)
	}
	items := make([]response, len(calls))
	for i := range calls {
		c := &calls[i]
		if c.err == nil {
			var data any
			data, err = c.proc.run(r.Context(), c.input, caller)
			if err == nil {
				items[i] = okResponse(data)
				continue
			}
			c.err = asError(err)
			if c.err.Code == codeInternal {
				h.cfg.Logger.Error("trpc procedure failed", "path", c.path, "err", err)
				c.err.Message = "internal error"
			}
		}
		if c.err.Code == codeMethodNotAllowed {
			allow := http.MethodPost
			if c.proc.typ != typeMutation {
				allow = http.MethodGet
			}
			w.Header().Set("Allow", allow)
		}
		items[i] = errResponse(c.err, c.path)
	}
	if !batch {
		return writeJSON(w, items[0].status, items[0])
	}
	return writeJSON(w, batchStatus(items), items)
}

// parse reads a request's calls, as @trpc/server's JSON content handler
// does. An error it returns concerns the whole request.
func (h *Handler) parse(r *http.Request, path string) ([]call, bool, error) {
	batch := r.URL.Query().Get("batch") == "1"
	paths := []string{path}
	if batch {
		paths = strings.Split(path, ",")
		if len(paths) > MaxBatch {
			return nil, batch, errorf(codeBadRequest, "Batch call exceeds maximum size")
		}
	}
	if r.Method == http.MethodPost {
		ct := r.Header.Get("Content-Type")
		if ct == "" {
			return nil, batch, errorf(codeUnsupportedMedia, "Missing content-type header")
		}
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			return nil, batch, errorf(codeUnsupportedMedia, "Unsupported content-type %q", ct)
		}
	}
	calls := make([]call, len(paths))
	types := map[procType]bool{}
	for i, p := range paths {
		calls[i].path = p
		if proc, ok := h.procs[p]; ok {
			calls[i].proc = &proc
			types[proc.typ] = true
		}
	}
	if len(types) > 1 {
		return nil, batch, errorf(codeBadRequest, "Cannot mix procedure types in call: %s", joinTypes(types))
	}
	inputs, inputErr := readInputs(r, batch, len(paths))
	for i := range calls {
		c := &calls[i]
		switch {
		case c.proc == nil:
			c.err = errorf(codeNotFound, "No procedure found on path %q", c.path)
		case !methodAllowed(c.proc.typ, r.Method):
			c.err = errorf(codeMethodNotAllowed, "Unsupported %s-request to %s procedure at path %q", r.Method, c.proc.typ, c.path)
		case c.proc.typ == typeSubscription && batch:
			c.err = errorf(codeBadRequest, "Cannot batch subscription calls")
		case inputErr != nil:
			c.err = inputErr
		default:
			c.input = inputs[i]
		}
	}
	return calls, batch, nil
}

func joinTypes(types map[procType]bool) string {
	var out []string
	for _, t := range []procType{typeQuery, typeMutation, typeSubscription} {
		if types[t] {
			out = append(out, string(t))
		}
	}
	return strings.Join(out, ", ")
}

// methodAllowed says whether a procedure kind takes an HTTP method:
// mutations POST, queries and subscriptions GET.
func methodAllowed(t procType, method string) bool {
	if t == typeMutation {
		return method == http.MethodPost
	}
	return method == http.MethodGet
}

// readInputs reads the inputs: ?input= for GET, the body for POST; for a
// batch, an object of inputs by index ("0", "1", …).
func readInputs(r *http.Request, batch bool, n int) ([]json.RawMessage, *Error) {
	var raw []byte
	if r.Method == http.MethodGet {
		raw = []byte(r.URL.Query().Get("input"))
	} else if r.Body != nil {
		var err error
		if raw, err = io.ReadAll(r.Body); err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return nil, errorf(codePayloadTooLarge, "request body larger than %d bytes", mbe.Limit)
			}
			return nil, &Error{Code: codeBadRequest, Message: "could not read the request body", Err: err}
		}
	}
	inputs := make([]json.RawMessage, n)
	if len(bytes.TrimSpace(raw)) == 0 {
		return inputs, nil
	}
	if !json.Valid(raw) {
		return nil, errorf(codeParseError, "the input is not valid JSON")
	}
	if !batch {
		inputs[0] = raw
		return inputs, nil
	}
	var byIndex map[string]json.RawMessage
	if err := json.Unmarshal(raw, &byIndex); err != nil || byIndex == nil {
		return nil, errorf(codeBadRequest, `"input" needs to be an object when doing a batch call`)
	}
	for i := range inputs {
		inputs[i] = byIndex[strconv.Itoa(i)]
	}
	return inputs, nil
}

// asError turns any error into a tRPC error: an *Error as it is, a
// toolgate error by its code, anything else as internal.
func asError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return fromToolgate(err)
}
