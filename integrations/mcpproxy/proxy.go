package mcpproxy

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os/exec"
	"sync"
	"time"

	"github.com/toolgate/toolgate/integrations/mcpproxy/pins"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/rulesgate"
)

// Defaults.
const (
	// DefaultTimeout bounds how long a call waits for a human answer.
	DefaultTimeout = 5 * time.Minute
	// DefaultProgressInterval is how often a waiting call sends progress.
	DefaultProgressInterval = 10 * time.Second
)

// legacyVersions are the protocol versions the proxy speaks on both sides:
// those with an initialize handshake, where a server may send requests to
// the client (elicitation) while a call is in flight.
var legacyVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// Upstream makes a fresh transport to the MCP server the proxy guards. It
// is called once for each client session.
type Upstream struct {
	// Describe names the server in errors ("command npx", "http://…").
	Describe string
	// Transport returns a transport that has not been connected yet.
	Transport func() mcp.Transport
}

// CommandUpstream runs name with args as a stdio MCP server, one process
// per client session. The child's stderr goes to stderr (nil discards it).
func CommandUpstream(stderr io.Writer, name string, args ...string) Upstream {
	return Upstream{
		Describe: "command " + name,
		Transport: func() mcp.Transport {
			cmd := exec.Command(name, args...)
			cmd.Stderr = stderr
			return &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}
		},
	}
}

// HTTPUpstream talks to a streamable HTTP MCP server at endpoint, one MCP
// session per client session. hc may be nil for http.DefaultClient.
func HTTPUpstream(endpoint string, hc *http.Client) Upstream {
	return Upstream{
		Describe: endpoint,
		Transport: func() mcp.Transport {
			// Few retries: a server that went away must end the client's
			// call with an error soon, not after a long back-off.
			return &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc, MaxRetries: 1}
		},
	}
}

// Config configures a Proxy.
type Config struct {
	// Name is the server name used in tool names: mcp__NAME__TOOL, and
	// NAME_TOOL for the seed spelling. Required.
	Name string
	// Upstream reaches the server. Required.
	Upstream Upstream
	// Engine decides calls locally. Required unless Gateway is set.
	Engine *policy.Engine
	// Mode is the approval mode local decisions are made in.
	Mode toolgate.Mode
	// Agent is the agent layer for local decisions, nil for none.
	Agent *policy.Ruleset
	// Gateway, when set, decides every call instead of Engine and holds
	// asks for toolgate's approvers.
	Gateway toolgate.Gate
	// Workspace is the gateway workspace calls belong to; empty for the
	// gateway's default.
	Workspace string
	// Timeout bounds the wait for a human answer; it ends in deny.
	// Zero means DefaultTimeout.
	Timeout time.Duration
	// ProgressInterval is how often a call waiting for an answer sends a
	// progress notification (when the client asked for progress). Zero
	// means DefaultProgressInterval.
	ProgressInterval time.Duration
	// HideDenied leaves out of tools/list the tools the gate denies
	// outright.
	HideDenied bool
	// Remember, without a gateway, is the rules document (JSONC) that
	// keeps the "always" answers given in the client across restarts:
	// each appends an allow rule for the tool, and the document is read
	// at start. Its rules decide only calls the rules ask about. Empty
	// keeps "always" answers in memory, for the proxy's lifetime.
	Remember string
	// Pins is the file that pins each tool's definition (pins.File): a
	// tool is pinned at its first allowed call (or by `toolgate mcp
	// pin`), and once its description, schemas or annotations change it
	// is not called again until a person accepts the new definition, in
	// the client (elicitation, shown with a diff) or with `toolgate mcp
	// pin`. Empty pins nothing.
	Pins string
	// Logger logs what the proxy does; nil discards.
	Logger *slog.Logger
}

// Proxy guards one MCP server. It serves any number of client sessions,
// each with its own upstream session. It is safe for concurrent use.
type Proxy struct {
	cfg Config
	log *slog.Logger
	// gate decides: the gateway, or without one a rules-only Gate over
	// Engine, so both modes ask a toolgate.Gate.
	gate toolgate.Gate

	mu sync.Mutex
	// always holds the tools the user allowed "always" through
	// elicitation: remembered for the proxy's lifetime, and in remember
	// too when there is one.
	always   map[string]bool
	remember *rememberFile
	pins     *pins.File
	bridges  map[*bridge]struct{}
	// posts maps the key the HTTP handler puts on each POST to the POST's
	// context, so a call can tell that its client went away.
	posts map[string]context.Context
}

// New checks cfg and returns a proxy.
func New(cfg Config) (*Proxy, error) {
	if cfg.Name == "" {
		return nil, errors.New("mcpproxy: a server name is required")
	}
	if cfg.Upstream.Transport == nil {
		return nil, errors.New("mcpproxy: an upstream server is required")
	}
	if cfg.Engine == nil && cfg.Gateway == nil {
		return nil, errors.New("mcpproxy: a policy engine or a gateway is required")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.ProgressInterval <= 0 {
		cfg.ProgressInterval = DefaultProgressInterval
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	p := &Proxy{
		cfg:     cfg,
		log:     log,
		gate:    cfg.Gateway,
		always:  map[string]bool{},
		bridges: map[*bridge]struct{}{},
		posts:   map[string]context.Context{},
	}
	if p.gate == nil {
		p.gate = rulesgate.New(cfg.Engine, rulesgate.WithMode(cfg.Mode), rulesgate.WithAgent(cfg.Agent))
	}
	if cfg.Pins != "" {
		p.pins = pins.Open(cfg.Pins)
	}
	if cfg.Remember != "" && cfg.Gateway == nil {
		r, err := openRemember(cfg.Remember)
		if err != nil {
			return nil, fmt.Errorf("mcpproxy: %w", err)
		}
		p.remember = r
	}
	return p, nil
}

// ToolName returns the name the gate sees for tool on server:
// mcp__SERVER__TOOL.
func ToolName(server, tool string) string { return "mcp__" + server + "__" + tool }

// Serve serves one client on t (for example an mcp.IOTransport over the
// process's stdin and stdout) until the client goes away, the upstream
// server goes away or ctx ends. It returns nil when the client closed the
// session, and an error saying why otherwise.
func (p *Proxy) Serve(ctx context.Context, t mcp.Transport) error {
	b := newBridge(p)
	ss, err := b.server.Connect(ctx, t, nil)
	if err != nil {
		return fmt.Errorf("serve MCP client: %w", err)
	}
	clientDone := make(chan error, 1)
	go func() { clientDone <- ss.Wait() }()
	select {
	case <-clientDone:
	case <-ctx.Done():
		b.cancel(ctx.Err())
		ss.Close()
		<-clientDone
	}
	b.close()
	if err := b.upstreamLost(); err != nil {
		return fmt.Errorf("upstream MCP server (%s) exited: %w", p.cfg.Upstream.Describe, err)
	}
	return ctx.Err()
}

// postKeyHeader carries, inside the proxy, the key of the HTTP request a
// message arrived on. The handler sets it on every POST, replacing any
// value a client sent.
const postKeyHeader = "X-Toolgate-Mcp-Post"

// Handler serves clients over streamable HTTP, one upstream session per
// client session. Idle sessions end after 30 minutes.
func (p *Proxy) Handler() http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server {
		return newBridge(p).server
	}, &mcp.StreamableHTTPOptions{SessionTimeout: 30 * time.Minute, Logger: p.log})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sid := r.Header.Get("Mcp-Session-Id")
		switch r.Method {
		case http.MethodDelete:
			// The client ends its session: stop waiting for answers first,
			// since closing the session waits for the calls in flight.
			if b := p.bridgeBySession(sid); b != nil {
				b.cancel(errClientGone)
			}
		case http.MethodPost:
			key := rand.Text()
			r.Header.Set(postKeyHeader, key)
			p.mu.Lock()
			p.posts[key] = r.Context()
			p.mu.Unlock()
			defer func() {
				p.mu.Lock()
				delete(p.posts, key)
				p.mu.Unlock()
			}()
		}
		h.ServeHTTP(w, r)
	})
}

// postContext returns the context of the HTTP request a message came on,
// nil if it did not come over HTTP.
func (p *Proxy) postContext(extra *mcp.RequestExtra) context.Context {
	if extra == nil || extra.Header == nil {
		return nil
	}
	key := extra.Header.Get(postKeyHeader)
	if key == "" {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.posts[key]
}

// Close ends every client session and its upstream session.
func (p *Proxy) Close() error {
	p.mu.Lock()
	bs := make([]*bridge, 0, len(p.bridges))
	for b := range p.bridges {
		bs = append(bs, b)
	}
	p.mu.Unlock()
	for _, b := range bs {
		b.cancel(errClientGone)
		if ss := b.downstream(); ss != nil {
			ss.Close()
		}
		b.close()
	}
	return nil
}

// addBridge records a bridge once its client initialized.
func (p *Proxy) addBridge(b *bridge) {
	p.mu.Lock()
	p.bridges[b] = struct{}{}
	p.mu.Unlock()
}

func (p *Proxy) dropBridge(b *bridge) {
	p.mu.Lock()
	delete(p.bridges, b)
	p.mu.Unlock()
}

func (p *Proxy) bridgeBySession(id string) *bridge {
	if id == "" {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for b := range p.bridges {
		if ss := b.downstream(); ss != nil && ss.ID() == id {
			return b
		}
	}
	return nil
}

func (p *Proxy) allowedAlways(tool string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.always[tool]
}

// rememberAlways records an "always" answer: in memory, and in the
// remembered answers' document when there is one. A document that cannot
// be written is logged; the answer still holds while the proxy runs.
func (p *Proxy) rememberAlways(tool string) {
	p.mu.Lock()
	p.always[tool] = true
	p.mu.Unlock()
	if p.remember != nil {
		if err := p.remember.allow(tool, time.Now()); err != nil {
			p.log.Warn("keep an always answer", "file", p.remember.path, "err", err)
		}
	}
}
