package mcpproxy

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var (
	errUpstreamGone = errors.New("the upstream MCP server went away")
	errClientGone   = errors.New("the MCP client went away")
)

// MCP method names the proxy treats specially.
const (
	methodInitialize       = "initialize"
	methodListTools        = "tools/list"
	methodCallTool         = "tools/call"
	notifyToolsChanged     = "notifications/tools/list_changed"
	notifyProgress         = "notifications/progress"
	notifyCancelled        = "notifications/cancelled"
	notifyInitialized      = "notifications/initialized"
	notifySubscriptionsAck = "notifications/subscriptions/acknowledged"
	methodPing             = "ping"
)

// implementation names the proxy where it must name itself.
var implementation = &mcp.Implementation{Name: "toolgate-mcp-proxy", Title: "toolgate MCP proxy"}

// bridge joins one client session (downstream) to its own session with the
// upstream server.
type bridge struct {
	p      *Proxy
	server *mcp.Server
	// downSend sends a request or notification to the client as is: the
	// server's sending handler, captured by a middleware.
	downSend mcp.MethodHandler
	// ctx ends when the bridge shuts down, so calls stop waiting for
	// answers.
	ctx    context.Context
	cancel context.CancelCauseFunc
	// session is the gateway session the client's calls belong to.
	session string

	upstreamGone chan struct{}
	done         chan struct{}
	closeOnce    sync.Once

	mu      sync.Mutex
	down    *mcp.ServerSession
	up      *mcp.ClientSession
	upSend  mcp.MethodHandler
	closing bool
	upErr   error
	tools   map[string]*mcp.Tool
	// pathArgs holds, by tool, the arguments its input schema says are
	// paths (schemaPathArgs), read once when the tool is listed.
	pathArgs map[string][]string
	// allowed holds the tools the user allowed for this session.
	allowed map[string]bool
	// active holds the contexts of the client requests being forwarded,
	// and progress those of requests with a progress token, so messages
	// the server sends about them reach the client on the same stream.
	active   map[*int]context.Context
	progress map[string]context.Context
}

func newBridge(p *Proxy) *bridge {
	b := &bridge{
		p:            p,
		session:      "mcp-" + p.cfg.Name + "-" + rand.Text()[:12],
		upstreamGone: make(chan struct{}),
		done:         make(chan struct{}),
		tools:        map[string]*mcp.Tool{},
		allowed:      map[string]bool{},
		active:       map[*int]context.Context{},
		progress:     map[string]context.Context{},
	}
	b.ctx, b.cancel = context.WithCancelCause(context.Background())
	b.server = mcp.NewServer(implementation, &mcp.ServerOptions{
		Logger: p.log,
		// The capabilities are the upstream server's, set at initialize.
		Capabilities:              &mcp.ServerCapabilities{},
		SupportedProtocolVersions: legacyVersions,
	})
	b.server.AddSendingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		b.downSend = next
		return next
	})
	b.server.AddReceivingMiddleware(b.fromClient)
	return b
}

func (b *bridge) downstream() *mcp.ServerSession {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.down
}

func (b *bridge) upstream() (*mcp.ClientSession, mcp.MethodHandler) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.up, b.upSend
}

// upstreamLost returns why the upstream session ended, nil if it did not
// end on its own.
func (b *bridge) upstreamLost() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.upErr
}

// close ends the upstream session and forgets the bridge. It does not close
// the client's session.
func (b *bridge) close() {
	b.closeOnce.Do(func() {
		b.cancel(errClientGone)
		b.mu.Lock()
		up := b.up
		b.closing = true
		b.mu.Unlock()
		if up != nil {
			if err := up.Close(); err != nil {
				b.p.log.Debug("close upstream session", "err", err)
			}
		}
		b.p.dropBridge(b)
		close(b.done)
	})
}

// fromClient handles every message from the client.
func (b *bridge) fromClient(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case methodInitialize:
			return b.initialize(ctx, next, method, req)
		case notifyInitialized, notifyCancelled, methodPing:
			// The client's session with the proxy: the SDK handles these.
			return next(ctx, method, req)
		case methodListTools:
			if r, ok := req.(*mcp.ListToolsRequest); ok {
				return b.listTools(ctx, r)
			}
		case methodCallTool:
			if r, ok := req.(*mcp.CallToolRequest); ok {
				return b.callTool(ctx, r)
			}
		}
		if isNotification(method) {
			// roots/list_changed, progress and the like: on to the server.
			if err := b.notifyUp(ctx, method, req.GetParams()); err != nil {
				b.p.log.Debug("forward notification to server", "method", method, "err", err)
			}
			return nil, nil
		}
		return b.forward(ctx, method, req.GetParams())
	}
}

func isNotification(method string) bool {
	return len(method) > len("notifications/") && method[:len("notifications/")] == "notifications/"
}

// initialize connects to the upstream server with the client's
// capabilities, lets the SDK answer the client, and hands the client the
// upstream server's capabilities, instructions and identity.
func (b *bridge) initialize(ctx context.Context, next mcp.MethodHandler, method string, req mcp.Request) (mcp.Result, error) {
	ss, _ := req.GetSession().(*mcp.ServerSession)
	ip, _ := req.GetParams().(*mcp.InitializeParams)
	if ss == nil || ip == nil {
		return next(ctx, method, req)
	}
	if up, _ := b.upstream(); up != nil {
		return next(ctx, method, req) // a second initialize: the SDK refuses it
	}
	if err := b.connect(ctx, ss, ip); err != nil {
		return nil, fmt.Errorf("toolgate mcp-proxy: start MCP server %q (%s): %w", b.p.cfg.Name, b.p.cfg.Upstream.Describe, err)
	}
	res, err := next(ctx, method, req)
	if err != nil {
		b.close()
		return nil, err
	}
	ir, ok := res.(*mcp.InitializeResult)
	if !ok {
		return res, nil
	}
	up, _ := b.upstream()
	if ur := up.InitializeResult(); ur != nil {
		ir.Capabilities = ur.Capabilities
		if ir.Capabilities == nil {
			ir.Capabilities = &mcp.ServerCapabilities{}
		}
		ir.Instructions = ur.Instructions
		if ur.ServerInfo != nil {
			ir.ServerInfo = ur.ServerInfo
		}
	}
	b.p.addBridge(b)
	go b.watch(ss)
	return ir, nil
}

// connect opens the upstream session. The proxy advertises to the server
// what the client advertised to the proxy, so that the server's requests
// (elicitation, sampling, roots) can be passed on.
func (b *bridge) connect(ctx context.Context, ss *mcp.ServerSession, ip *mcp.InitializeParams) error {
	caps := &mcp.ClientCapabilities{}
	if ip.Capabilities != nil {
		c := *ip.Capabilities
		caps = &c
	}
	version := legacyVersions[0]
	if slices.Contains(legacyVersions, ip.ProtocolVersion) {
		version = ip.ProtocolVersion
	}
	impl := ip.ClientInfo
	if impl == nil {
		impl = implementation
	}
	c := mcp.NewClient(impl, &mcp.ClientOptions{
		Logger:         b.p.log,
		Capabilities:   caps,
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
	})
	var send mcp.MethodHandler
	c.AddSendingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		send = next
		return next
	})
	c.AddReceivingMiddleware(b.fromServer)
	// The upstream session must not inherit the values of the client's
	// initialize request (the streamable HTTP server would relate every
	// message from the server to that finished request), only its
	// cancellation while the handshake runs.
	cctx, stop := context.WithCancel(context.Background())
	defer stop()
	defer context.AfterFunc(ctx, stop)()
	up, err := c.Connect(cctx, b.p.cfg.Upstream.Transport(), &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		return err
	}
	b.mu.Lock()
	b.down, b.up, b.upSend = ss, up, send
	b.mu.Unlock()
	go func() {
		err := up.Wait()
		b.mu.Lock()
		lost := !b.closing
		if lost {
			if err == nil {
				err = errUpstreamGone
			}
			b.upErr = err
		}
		b.mu.Unlock()
		if lost {
			b.p.log.Info("upstream MCP server went away", "server", b.p.cfg.Name, "err", err)
			close(b.upstreamGone)
		}
	}()
	return nil
}

// watch ends the bridge with whichever side goes first. When the server
// goes, the client's session is closed once the calls in flight have
// answered (with errors), so the client is not left talking to nothing.
func (b *bridge) watch(ss *mcp.ServerSession) {
	clientDone := make(chan struct{})
	go func() {
		ss.Wait()
		close(clientDone)
	}()
	select {
	case <-clientDone:
		b.cancel(errClientGone)
	case <-b.upstreamGone:
		b.cancel(errUpstreamGone)
		ss.Close()
	}
	b.close()
}

// track records ctx as the context of a client request being forwarded,
// under its progress token if it has one; the returned func forgets it.
func (b *bridge) track(ctx context.Context, p mcp.Params) func() {
	key := new(int)
	var token string
	if rp, ok := p.(mcp.RequestParams); ok && !isNil(p) {
		if t := rp.GetProgressToken(); t != nil {
			token = fmt.Sprint(t)
		}
	}
	b.mu.Lock()
	b.active[key] = ctx
	if token != "" {
		b.progress[token] = ctx
	}
	b.mu.Unlock()
	return func() {
		b.mu.Lock()
		delete(b.active, key)
		if token != "" && b.progress[token] == ctx {
			delete(b.progress, token)
		}
		b.mu.Unlock()
	}
}

// relatedContext returns the context of the client request a message
// from the server most likely belongs to: by progress token for progress,
// else the one request in flight if there is exactly one.
func (b *bridge) relatedContext(method string, p mcp.Params) context.Context {
	b.mu.Lock()
	defer b.mu.Unlock()
	if method == notifyProgress {
		if pp, ok := p.(*mcp.ProgressNotificationParams); ok && pp != nil && pp.ProgressToken != nil {
			return b.progress[fmt.Sprint(pp.ProgressToken)]
		}
		return nil
	}
	if len(b.active) == 1 {
		for _, ctx := range b.active {
			return ctx
		}
	}
	return nil
}

// forward sends a client request to the server and returns the server's
// result as the SDK decoded it.
func (b *bridge) forward(ctx context.Context, method string, p mcp.Params) (mcp.Result, error) {
	up, send := b.upstream()
	if up == nil {
		return nil, fmt.Errorf("toolgate mcp-proxy: MCP server %q is not connected", b.p.cfg.Name)
	}
	defer b.track(ctx, p)()
	res, err := send(ctx, method, &mcp.ClientRequest[mcp.Params]{Session: up, Params: orNil(p)})
	if err != nil {
		var werr *jsonrpc.Error
		if errors.As(err, &werr) {
			return nil, werr // the server's own error, passed on as it is
		}
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, fmt.Errorf("toolgate mcp-proxy: MCP server %q: %w", b.p.cfg.Name, err)
	}
	return res, nil
}

// notifyUp sends a client notification to the server.
func (b *bridge) notifyUp(ctx context.Context, method string, p mcp.Params) error {
	up, send := b.upstream()
	if up == nil {
		return nil
	}
	_, err := send(ctx, method, &mcp.ClientRequest[mcp.Params]{Session: up, Params: orNil(p)})
	return err
}

// fromServer handles every message from the upstream server: it passes
// requests and notifications on to the client, and follows tool list
// changes.
func (b *bridge) fromServer(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case methodPing, notifyCancelled, notifySubscriptionsAck:
			return next(ctx, method, req)
		case notifyToolsChanged:
			// Let the SDK drop what it cached, then re-list and tell the
			// client. Not inline: notifications are handled in order.
			_, _ = next(ctx, method, req)
			go b.toolsChanged()
			return nil, nil
		}
		ss := b.downstream()
		if ss == nil {
			if isNotification(method) {
				return nil, nil
			}
			return nil, fmt.Errorf("toolgate mcp-proxy: no client connected for %s", method)
		}
		p := req.GetParams()
		dctx := ctx
		if rc := b.relatedContext(method, p); rc != nil {
			dctx = valuesFrom{Context: ctx, values: rc}
		}
		res, err := b.downSend(dctx, method, &mcp.ServerRequest[mcp.Params]{Session: ss, Params: orNil(p)})
		if isNotification(method) {
			if err != nil {
				b.p.log.Debug("forward notification to client", "method", method, "err", err)
			}
			return nil, nil
		}
		return res, err
	}
}

// valuesFrom is a context whose deadline and cancellation are those of
// its Context and whose values come from values first: a message from the
// server keeps the server's cancellation while it travels on the stream
// of the client request it belongs to.
type valuesFrom struct {
	context.Context
	values context.Context
}

func (v valuesFrom) Value(key any) any {
	if x := v.values.Value(key); x != nil {
		return x
	}
	return v.Context.Value(key)
}

// toolsChanged re-lists the upstream tools and tells the client its list
// changed.
func (b *bridge) toolsChanged() {
	ctx, cancel := context.WithTimeout(b.ctx, b.p.cfg.Timeout)
	defer cancel()
	b.mu.Lock()
	clear(b.tools)
	b.mu.Unlock()
	if err := b.refreshTools(ctx); err != nil {
		b.p.log.Info("re-list tools after a change", "server", b.p.cfg.Name, "err", err)
	}
	ss := b.downstream()
	if ss == nil {
		return
	}
	if _, err := b.downSend(ctx, notifyToolsChanged, &mcp.ServerRequest[mcp.Params]{Session: ss, Params: &mcp.ToolListChangedParams{}}); err != nil {
		b.p.log.Debug("tell client its tool list changed", "err", err)
	}
}

// refreshTools lists every upstream tool, following pages, and records
// them.
func (b *bridge) refreshTools(ctx context.Context) error {
	params := &mcp.ListToolsParams{}
	for range 1000 {
		res, err := b.forward(ctx, methodListTools, params)
		if err != nil {
			return err
		}
		lr, ok := res.(*mcp.ListToolsResult)
		if !ok {
			return fmt.Errorf("tools/list answered with %T", res)
		}
		b.recordTools(lr.Tools)
		if lr.NextCursor == "" {
			return nil
		}
		params = &mcp.ListToolsParams{Cursor: lr.NextCursor}
	}
	return errors.New("tools/list: too many pages")
}

func (b *bridge) recordTools(tools []*mcp.Tool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, t := range tools {
		if t != nil {
			b.tools[t.Name] = t
			if b.pathArgs == nil {
				b.pathArgs = map[string][]string{}
			}
			b.pathArgs[t.Name] = schemaPathArgs(t.InputSchema)
		}
	}
}

// toolPathArgs returns the arguments tool's input schema says are paths.
func (b *bridge) toolPathArgs(tool string) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.pathArgs[tool]
}

// tool returns what the server said about a tool, listing the tools once
// if the client calls one the proxy has not seen; nil if the server does
// not list it.
func (b *bridge) tool(ctx context.Context, name string) *mcp.Tool {
	b.mu.Lock()
	t := b.tools[name]
	b.mu.Unlock()
	if t != nil {
		return t
	}
	if err := b.refreshTools(ctx); err != nil {
		b.p.log.Debug("list tools", "err", err)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.tools[name]
}

// unknownTool reports whether the server's complete tools/list lacks
// name (listed afresh on a miss, so a tool added a moment ago is found).
// When the tools cannot be listed it is false: the gate decides the call
// as before, and the server answers it if allowed.
func (b *bridge) unknownTool(ctx context.Context, name string) bool {
	b.mu.Lock()
	_, ok := b.tools[name]
	b.mu.Unlock()
	if ok {
		return false
	}
	if err := b.refreshTools(ctx); err != nil {
		b.p.log.Debug("list tools", "err", err)
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	_, ok = b.tools[name]
	return !ok
}

// listTools passes tools/list through, records the tools' annotations and
// hides the tools the gate denies outright when asked to.
func (b *bridge) listTools(ctx context.Context, req *mcp.ListToolsRequest) (mcp.Result, error) {
	res, err := b.forward(ctx, methodListTools, req.Params)
	if err != nil {
		return nil, err
	}
	lr, ok := res.(*mcp.ListToolsResult)
	if !ok {
		return res, nil
	}
	b.recordTools(lr.Tools)
	lr.Tools = b.pinnedView(lr.Tools)
	if b.p.cfg.HideDenied {
		lr.Tools = slices.DeleteFunc(lr.Tools, func(t *mcp.Tool) bool {
			return t != nil && b.deniedOutright(ctx, t)
		})
	}
	return lr, nil
}

// orNil turns a typed nil into a nil interface, so it is not sent as
// "params": null.
func orNil(p mcp.Params) mcp.Params {
	if isNil(p) {
		return nil
	}
	return p
}

func isNil(p mcp.Params) bool {
	if p == nil {
		return true
	}
	v := reflect.ValueOf(p)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
